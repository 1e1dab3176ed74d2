"""The Laplace mechanism (Construction B): ε-differential privacy of the confidential values
by noise — Laplace noise on numbers (after insensitive microaggregation when asked),
randomized response on categories.  The release itself is
:func:`engine.release.noise.noise_release`; the noise is drawn by
:mod:`engine.mechanisms.laplace` and :mod:`engine.mechanisms.response`."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from engine.errors import InputError
from engine.i18n import N_, _
from engine.mechanisms.base import QT_TRANSLATE_NOOP, Mechanism
from engine.mechanisms.guarantee import TIFS, ColumnGuarantee, GroupBound
from engine.mechanisms.laplace import LaplaceOutcome, insensitive_release, laplace_release
from engine.mechanisms.response import ResponseOutcome, randomized_response
from engine.mechanisms.sampling import NoiseSource
from engine.progress import Task

#: the smallest ε of a noise mechanism: the noise is drawn on an integer lattice whose scale
#: grows as 1/ε, and below this the released values are pure noise millions of times wider
#: than the bounds anyway
MIN_NOISE_EPSILON = 1e-6


class Laplace(Mechanism):
    """Noise calibrated to ε on each confidential value, within public (or private) bounds."""

    name: ClassVar[str] = "laplace"
    title: ClassVar[str] = N_("noise (ε-differential privacy of the confidential values)")
    noise: ClassVar[bool] = True
    cluster: ClassVar[bool] = False
    fields: ClassVar[tuple[str, ...]] = (
        "private_bounds",
        "insensitive",
        "resample_until_t",
        "transform",
    )
    choice: ClassVar[str] = QT_TRANSLATE_NOOP("mechanisms", "N&oise: ε-differential privacy")
    note: ClassVar[str] = QT_TRANSLATE_NOOP(
        "mechanisms", "Laplace on numbers, randomized response on categories"
    )
    tooltip: ClassVar[str] = QT_TRANSLATE_NOOP(
        "mechanisms",
        "Each confidential value is released with random noise (ε-differential privacy): "
        "Laplace noise on numbers, randomized response on categories",
    )

    @classmethod
    def validate(cls, params: Any) -> None:
        if params.t is not None:
            raise InputError(
                _(
                    "The {mechanism} mechanism takes ε (epsilon), not t: the noise is "
                    "calibrated to ε."
                ).format(mechanism=params.mechanism)
            )
        if params.epsilon is None:
            raise InputError(
                _("The {mechanism} mechanism needs ε (epsilon).").format(mechanism=params.mechanism)
            )
        if params.n_buckets is not None:
            raise InputError(_("n_buckets applies to the buckets mechanism only."))
        if params.epsilon < MIN_NOISE_EPSILON:
            raise InputError(
                _(
                    "The {mechanism} mechanism takes ε ≥ {min:g}, not "
                    "{epsilon:g}: below that the noise is millions of times wider than "
                    "the bounds and the released values carry nothing."
                ).format(mechanism=params.mechanism, min=MIN_NOISE_EPSILON, epsilon=params.epsilon)
            )

    @classmethod
    def column_mechanism(cls, params: Any, numeric: bool) -> str | None:
        if not numeric:
            return "randomized_response"
        return "insensitive" if params.insensitive else "laplace"

    @classmethod
    def draw_numbers(
        cls, values: np.ndarray, lo: float, hi: float, epsilon: float, params: Any,
        source: NoiseSource, task: Task,
    ) -> tuple[LaplaceOutcome, float]:  # fmt: skip
        if params.insensitive:
            out = insensitive_release(values, lo, hi, epsilon, params.k, source, task=task)
            return out, epsilon * params.k
        return laplace_release(values, lo, hi, epsilon, source, task=task), epsilon

    @classmethod
    def draw_categories(
        cls, codes: np.ndarray, n_categories: int, epsilon: float, source: NoiseSource
    ) -> ResponseOutcome:
        return randomized_response(codes, n_categories, epsilon, source)

    @classmethod
    def describe(cls, params: Any, numeric: bool) -> str:
        if not numeric:
            return "randomized response"
        return (
            "insensitive microaggregation + Laplace noise"
            if params.insensitive
            else "Laplace noise"
        ) + (" on log(1 + value)" if params.transform == "log" else "")

    @classmethod
    def unused(cls, params: Any) -> set[str]:
        out = set()
        if params.missing_confidential == "bucket":
            out.add("missing_confidential")  # no buckets: a missing value is released empty
        if params.resample_until_t is None:
            out.add("joint")
        return out

    @classmethod
    def group_size(cls, params: Any) -> int | None:
        return params.k if params.insensitive else None

    @classmethod
    def value_assumption(cls, params: Any, numeric: bool) -> str:
        if not (numeric and params.transform == "log"):
            return ""
        return _(
            "Numeric values get their noise on log(1 + value), where Δ is the width of the "
            "bounds; the transformation is fixed and public and applied to each record alone, "
            "so ε is unchanged."
        )

    @classmethod
    def column_guarantees(cls) -> dict[str, ColumnGuarantee]:
        # insensitive microaggregation: the noise of scale Δ/(kε) sits on group means that can
        # differ by Δ, so two records' outputs differ by e^(kε)
        insensitive = _("insensitive microaggregation")
        return {
            "laplace": ColumnGuarantee(
                what=_("Laplace noise of scale Δ/ε on each clamped value"),
                source="Dwork, McSherry, Nissim & Smith 2006 (" + _("Laplace mechanism") + ")",
            ),
            "insensitive": ColumnGuarantee(
                what=_("Laplace noise of scale Δ/(k·ε) on insensitive group means"),
                source=f"Soria-Comas et al., VLDB Journal 2014 ({insensitive})",
                assumption=_(
                    "Records sharing a group are visibly linked: which records share a "
                    "value is k-anonymous microaggregation of the confidential ranks, not "
                    "covered by ε."
                ),
                group=GroupBound(
                    name=_("per-record (local) ε"),
                    statement=_(
                        "Any two records' released values differ in distribution by at most "
                        "e^(k·ε) = {factor}: less noise buys a weaker per-record bound."
                    ),
                    assumption=_("Group means lie within the public bounds."),
                    source="Soria-Comas et al., VLDB Journal 2014; "
                    + _("derivation in engine.mechanisms"),
                ),
            ),
            "randomized_response": ColumnGuarantee(
                what=_("randomized response on each value"),
                source=f"Warner 1965; {TIFS}, Fig. 4",
            ),
        }


__all__ = ["MIN_NOISE_EPSILON", "Laplace"]
