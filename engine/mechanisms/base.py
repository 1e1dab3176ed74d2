"""What a mechanism is: one class with one contract, registered in :data:`MECHANISMS`.

A mechanism decides how the confidential values of a release are protected.  Its class says,
in one place, everything the rest of tclose asks of it:

* **validate its fields** — :meth:`Mechanism.validate`, the rules on :class:`ReleaseParams`
  that hold for this mechanism only (called when the parameters are made);
* **plan its columns** — :meth:`Mechanism.column_mechanism`, how each confidential column is
  protected (the name :func:`engine.privacy.guarantees` states guarantees for);
* **release** — :attr:`Mechanism.noise` names the construction that makes the release
  (Construction B, noise on the values, or Construction A, buckets and t-close classes);
  a noise mechanism draws its noise in :meth:`Mechanism.draw_numbers` and
  :meth:`Mechanism.draw_categories`; :attr:`Mechanism.cluster` says whether a cluster can
  make it;
* **guarantees** — :meth:`Mechanism.column_guarantees` declares, for each name
  :meth:`column_mechanism` can give, what its noise does, what its ε rests on and what else
  must hold (:class:`~engine.mechanisms.guarantee.ColumnGuarantee`);
  :func:`engine.privacy.guarantees` puts those words into the statements every noise
  mechanism shares (a mechanism without noise has the guarantees of t-closeness);
* **words** — :attr:`Mechanism.title` (the About sheet, the report),
  :meth:`Mechanism.seed_policy`, and what a chooser shows (:attr:`Mechanism.choice`,
  :attr:`Mechanism.note`, :attr:`Mechanism.tooltip`);
* **summary fields** — :attr:`Mechanism.fields`, the parameters only this mechanism reads
  (another mechanism's summary leaves them out).

What each mechanism must declare and what a noise mechanism must provide itself are listed
once, in :data:`DECLARED` and :data:`NOISE_METHODS`; :func:`contract_gaps` names what a class
lacks, and :func:`registry` refuses to register a class that lacks anything (the common test
``tests/test_mechanism_contract.py`` checks the rest: its words translated, its guarantees).

This module sits beneath the parameters (``engine.params`` reads the registry to validate a
``mechanism``), so it imports nothing of tclose but the base modules: ``params`` is a
:class:`~engine.params.ReleaseParams`, read by attribute.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from engine.mechanisms.guarantee import ColumnGuarantee
from engine.mechanisms.laplace import LaplaceOutcome
from engine.mechanisms.response import ResponseOutcome
from engine.mechanisms.sampling import NoiseSource
from engine.progress import Task
from engine.text import seed_text


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for the app's translation files (context ``mechanisms``); no Qt here."""
    return text


class Mechanism:
    """The contract of a mechanism (module doc); subclasses set the class attributes."""

    #: the value of ``ReleaseParams.mechanism`` that selects it
    name: ClassVar[str]
    #: what it does, in words (the About sheet's "mechanism" row, the report)
    title: ClassVar[str]
    #: True: noise on the confidential values (Construction B, ε-differential privacy);
    #: False: buckets and t-close classes (Construction A)
    noise: ClassVar[bool]
    #: whether ``--cluster`` can make this release
    cluster: ClassVar[bool]
    #: the parameters only this mechanism reads (a release by another leaves them out of its
    #: published parameters)
    fields: ClassVar[tuple[str, ...]] = ()
    # what a chooser of mechanisms (the desktop app's privacy page) shows, in English and
    # marked for the app's translations (context "mechanisms"): its choice, with at most one
    # "&" before the letter of its keyboard shortcut (the app picks one when there is none;
    # anything else that prints it drops the "&"), a one-line note under it, and a tooltip
    choice: ClassVar[str]
    note: ClassVar[str] = ""
    tooltip: ClassVar[str] = ""

    @classmethod
    def validate(cls, params: Any) -> None:
        """Raise :class:`~engine.errors.InputError` for settings this mechanism refuses."""

    @classmethod
    def column_mechanism(cls, params: Any, numeric: bool) -> str | None:
        """How a confidential column (numeric or not) is protected: a name this mechanism
        declares in :meth:`column_guarantees` ("laplace", "insensitive",
        "randomized_response"), or None when the column is bucketed (the guarantees of
        t-closeness)."""
        return None

    # the draws: a noise mechanism's own (NOISE_METHODS; the registry refuses one without)
    @classmethod
    def draw_numbers(
        cls, values: np.ndarray, lo: float, hi: float, epsilon: float, params: Any,
        source: NoiseSource, task: Task,
    ) -> tuple[LaplaceOutcome, float]:  # fmt: skip
        """Noise mechanisms: the released values of a numeric column clamped to [lo, hi] with
        this ε, and the per-record ε they spend."""
        raise NotImplementedError(f"the {cls.name} mechanism adds no noise")

    @classmethod
    def draw_categories(
        cls, codes: np.ndarray, n_categories: int, epsilon: float, source: NoiseSource
    ) -> ResponseOutcome:
        """Noise mechanisms: the released categories of a category column (codes, −1
        missing) with this ε."""
        raise NotImplementedError(f"the {cls.name} mechanism adds no noise")

    @classmethod
    def describe(cls, params: Any, numeric: bool) -> str:
        """What the mechanism does to a confidential column, in words ("" for buckets)."""
        return ""

    @classmethod
    def unused(cls, params: Any) -> set[str]:
        """Parameters of its own that this release did not use (left out of its summary)."""
        return set()

    @classmethod
    def seed_policy(cls, seed: int | None) -> str:
        """What the seed policy of a run means (the summary, the report and the CLI)."""
        return seed_text(seed, noise=cls.noise)

    @classmethod
    def group_size(cls, params: Any) -> int | None:
        """Noise mechanisms whose noise sits on groups of records: the size of those groups
        (the k asked for, which the classes of a release may exceed); None when every record
        gets noise of its own.  Its guarantees then bound one record by e^(size·ε)."""
        return None

    @classmethod
    def value_assumption(cls, params: Any, numeric: bool) -> str:
        """What these parameters add to the assumption of the ε statement of a numeric (or
        category) column, in the reader's language; "" when nothing."""
        return ""

    @classmethod
    def column_guarantees(cls) -> dict[str, ColumnGuarantee]:
        """Noise mechanisms: what each name :meth:`column_mechanism` gives rests on, in the
        reader's language (the words of :func:`engine.privacy.guarantees`); none without
        noise, whose release has the guarantees of t-closeness."""
        return {}


#: what every mechanism declares itself, with the type of each (the base class has none)
DECLARED: dict[str, type] = {
    "name": str,
    "title": str,
    "noise": bool,
    "cluster": bool,
    "fields": tuple,
    "choice": str,
}
#: what a noise mechanism (``noise = True``) provides itself: the base class's are those of a
#: mechanism without noise (no column of its own, no guarantee words, no draws)
NOISE_METHODS: tuple[str, ...] = (
    "column_mechanism",
    "column_guarantees",
    "draw_numbers",
    "draw_categories",
)


def contract_gaps(mechanism: type[Mechanism]) -> list[str]:
    """What ``mechanism`` lacks of the contract, one phrase each ([] when it keeps it)."""
    gaps = []
    for attribute, kind in DECLARED.items():
        value = getattr(mechanism, attribute, None)
        if not isinstance(value, kind) or (kind is str and not value.strip()):
            gaps.append(f"{attribute}: a {kind.__name__} of its own")
    if isinstance(getattr(mechanism, "choice", None), str) and mechanism.choice.count("&") > 1:
        gaps.append("choice: at most one '&'")
    if getattr(mechanism, "noise", False):
        for method in NOISE_METHODS:
            if getattr(mechanism, method).__func__ is getattr(Mechanism, method).__func__:
                gaps.append(f"{method}: a noise mechanism's own")
    return gaps


def registry(*mechanisms: type[Mechanism]) -> dict[str, type[Mechanism]]:
    """The mechanisms by name, each checked against the contract (a :class:`TypeError`
    naming what one lacks: a programming error, found when tclose is imported)."""
    out: dict[str, type[Mechanism]] = {}
    for mechanism in mechanisms:
        gaps = contract_gaps(mechanism)
        if gaps:
            raise TypeError(f"{mechanism.__name__} lacks " + "; ".join(gaps))
        if mechanism.name in out:
            raise TypeError(f"two mechanisms are named {mechanism.name!r}")
        out[mechanism.name] = mechanism
    return out


__all__ = [
    "DECLARED",
    "NOISE_METHODS",
    "QT_TRANSLATE_NOOP",
    "Mechanism",
    "contract_gaps",
    "registry",
]
