"""The t ↔ ε calculator: what follows from the privacy level a user chose.

Every function here is a pure formula with its source and its assumption in the docstring.
:func:`guarantees` gathers all of them for one set of inputs (t or ε, k, N, class sizes) into
a list of :class:`Guarantee` records, which the GUI's calculator panel, ``tclose convert`` and
the release report render as they are.

Sources (where a paper's printed formula and its own derivation disagree, the derivation wins):

* KBS 2015 — Domingo-Ferrer & Soria-Comas, "From t-closeness to differential privacy and vice
  versa in data anonymization": Proposition 1 (ε-DP ⇒ stochastic t-closeness) and
  Proposition 3 (exp(ε/2)-closeness ⇒ ε-DP under t-closeness's prior/posterior assumption).
* TIFS 2022 — Ekenstedt et al., "When differential privacy implies syntactic privacy":
  Theorems 1–5 on (k, t)-closeness, (k, ε)-DP and local DP.

The paper's printed (N − |E| − 1) in Proposition 1 and in TIFS Theorem 3 is replaced by
(N − |E|), which is what the derivation (inequality (3) of KBS 2015) and TIFS Theorem 2 give;
it is the larger value, hence the safe bound (KBS 2015, inequality (3)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from engine.errors import InputError
from engine.i18n import N_, _
from engine.mechanisms import MECHANISMS, ColumnGuarantee, GroupBound
from engine.mechanisms.guarantee import KBS, TIFS
from engine.mechanisms.laplace import missing_assumption
from engine.text import number

# --------------------------------------------------------------------------------------------
# Input checks shared by the formulas


def _exp(x: float) -> float:
    """e^x, infinite where it overflows a float (a very large ε gives no guarantee at all)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _check_t(t: float) -> float:
    t = float(t)
    if not (t >= 1.0) or math.isnan(t):
        raise InputError(_("t must be a number ≥ 1, not {t}.").format(t=t))
    return t


def _check_epsilon(epsilon: float) -> float:
    epsilon = float(epsilon)
    if not (epsilon >= 0.0) or math.isnan(epsilon):
        raise InputError(_("ε must be a number ≥ 0, not {epsilon}.").format(epsilon=epsilon))
    return epsilon


def _check_k_n(k: int, n: int) -> tuple[int, int]:
    if int(n) != n or n < 1:
        raise InputError(
            _("N (the number of records) must be a whole number ≥ 1, not {n}.").format(n=n)
        )
    if int(k) != k or not 1 <= k <= n:
        raise InputError(
            _("k must be a whole number between 1 and N = {n}, not {k}.").format(n=int(n), k=k)
        )
    return int(k), int(n)


# --------------------------------------------------------------------------------------------
# KBS 2015, Proposition 3


def epsilon_from_t(t: float) -> float:
    """ε = 2 ln t: the ε-DP that t-closeness gives (KBS 2015, Proposition 3).

    Assumption: the intruder's prior knowledge of the confidential data is exactly the
    published overall distribution and the posterior is the distribution in the individual's
    class (the premise of t-closeness).  Without it the implication does not hold (differential
    privacy makes no assumption on prior knowledge).
    """
    return 2.0 * math.log(_check_t(t))


def t_from_epsilon(epsilon: float) -> float:
    """t = exp(ε/2): the t-closeness that gives ε-DP (KBS 2015, Proposition 3).

    Same assumption as :func:`epsilon_from_t`.  ε = 0 gives t = 1 (every class has exactly the
    overall distribution); an infinite ε gives an infinite t.
    """
    return _exp(_check_epsilon(epsilon) / 2.0)


# --------------------------------------------------------------------------------------------
# KBS 2015, Proposition 1 (in the derivation-consistent form) and TIFS 2022, Theorems 2–3


def stochastic_t(epsilon: float, class_size: int, n: int) -> float:
    """Stochastic t-closeness of one class of an ε-DP-per-record release (KBS 2015, Prop. 1).

    t = (|E| + (N − |E|)·e^ε) / N.  Assumption: each record's confidential value is released
    through an ε-DP mechanism applied to that record alone (for any two records i, j and any
    set B of outputs, P(Z(c_i) ∈ B) ≤ e^ε P(Z(c_j) ∈ B)); the t refers to the expected
    distributions of the noisy values, not to one realisation.  The paper prints
    (N − |E| − 1); its derivation gives (N − |E|), the larger, safe value (inequality (3)).
    """
    epsilon = _check_epsilon(epsilon)
    size, n = _check_k_n(class_size, n)
    if size == n:
        return 1.0
    return (size + (n - size) * _exp(epsilon)) / n


def stochastic_t_of_classes(epsilon: float, class_sizes: Iterable[int]) -> float:
    """Proposition 1 over all classes: the maximum is reached at the smallest class."""
    sizes = np.asarray(list(class_sizes), dtype=np.int64)
    if sizes.size == 0 or (sizes < 1).any():
        raise InputError(
            _("Class sizes must be whole numbers ≥ 1, and there must be at least one.")
        )
    return stochastic_t(epsilon, int(sizes.min()), int(sizes.sum()))


def epsilon_for_stochastic_t(t: float, k: int, n: int) -> float:
    """The per-record ε that keeps every class of ≥ k of N records stochastically t-close.

    Inverse of :func:`stochastic_t`: e^ε = (tN − k)/(N − k).  This is the ε_t of TIFS 2022,
    Section V-D (t0 = 2, N = 100, k = 5 gives ε ≈ 0.72; the paper rounds to 0.7).  When k = N
    the single class is the whole file and any ε works: returns infinity.
    """
    t = _check_t(t)
    k, n = _check_k_n(k, n)
    if k == n:
        return math.inf
    return math.log((t * n - k) / (n - k))


def one_t_from_ldp(epsilon: float, n: int) -> float:
    """ε-LDP ⇒ (1, t)-closeness with t = (e^ε(N − 1) + 1)/N (TIFS 2022, Theorem 2)."""
    return stochastic_t(epsilon, 1, n)


def ldp_from_one_t(t: float) -> float:
    """(1, t)-closeness ⇒ ε-LDP with e^ε = t², i.e. ε = 2 ln t (TIFS 2022, Theorem 2)."""
    return 2.0 * math.log(_check_t(t))


def kt_from_ldp(epsilon: float, k: int, n: int) -> float:
    """ε-LDP ⇒ (k, t)-closeness with t = (k + (N − k)e^ε)/N (TIFS 2022, Theorem 3).

    (k, t)-closeness bounds *every* subset of k records, not only the classes of one partition.
    The theorem prints (N − k − 1); the derivation-consistent (N − k) is used (as in KBS 2015,
    inequality (3)).
    """
    return stochastic_t(epsilon, k, n)


def dp_from_kt(k: int, t: float, n: int) -> tuple[int, float]:
    """(k, t)-closeness ⇔ (N − k, ln t)-DP (TIFS 2022, Theorem 4, point 1).

    Returns (group size N − k, ε = ln t) of the (k, ε)-DP that is equivalent to it: removing any
    N − k records changes the probability of any bucket by a factor of at most t.
    """
    k, n = _check_k_n(k, n)
    return n - k, math.log(_check_t(t))


def kt_from_dp(group: int, epsilon: float, n: int) -> tuple[int, float]:
    """(k, ε)-DP ⇔ (N − k, e^ε)-closeness (TIFS 2022, Theorem 4, point 1, read backwards)."""
    group, n = _check_k_n(group, n)
    return n - group, _exp(_check_epsilon(epsilon))


# --------------------------------------------------------------------------------------------
# The guarantees a user gets


@dataclass(frozen=True)
class Guarantee:
    """One statement that follows from the chosen parameters, with what it rests on.

    ``holds`` is False for the documented non-implications (what does *not* follow), so that
    a panel can show them as warnings next to the positive statements.
    """

    #: short name, e.g. "ε-differential privacy (Proposition 3)"
    name: str
    #: the numbers of the statement (t, ε, k, N, …); empty for a non-implication
    values: dict[str, float | int]
    #: the statement in plain words, with the numbers filled in
    statement: str
    #: what must be true for the statement to hold
    assumption: str
    #: paper and result
    source: str
    holds: bool = True
    #: what breaks it: the use of the release (or of several releases) under which the
    #: statement no longer holds, named so that nobody publishes past it ("" when nothing
    #: beyond the assumption does)
    broken_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (infinite values become the string "inf")."""
        out = asdict(self)
        out["values"] = {
            key: ("inf" if isinstance(v, float) and math.isinf(v) else v)
            for key, v in self.values.items()
        }
        return out


@dataclass(frozen=True)
class NonImplication:
    """A documented result that something does *not* follow (shown as a warning)."""

    name: str
    statement: str
    source: str


#: TIFS 2022 results that say what t-closeness does NOT give.  Shown next to every t.
NON_IMPLICATIONS: tuple[NonImplication, ...] = (
    NonImplication(
        N_("t-closeness does not imply local DP"),
        N_(
            "A t-close release does not by itself make each record ε-locally differentially "
            "private for any ε: inside a class one record's probabilities may approach zero "
            "while the class average stays within t."
        ),
        f"{TIFS}, " + N_("Theorem 1"),
    ),
    NonImplication(
        N_("t-closeness does not imply (k, ε)-DP"),
        N_(
            "A t-close release does not by itself bound the influence of a group of k records "
            "by any ε; only the stronger (k, t)-closeness (every subset of k records) is "
            "equivalent to a DP guarantee."
        ),
        f"{TIFS}, " + N_("Theorem 5"),
    ),
    NonImplication(
        N_("(k, t)-closeness does not imply local DP"),
        N_("Bounding every group of k > 1 records does not bound single records."),
        f"{TIFS}, " + N_("Theorem 3"),
    ),
)


def _another_draw() -> str:
    """What breaks every ε of noise: the ε adds up over releases, and a known seed undoes it."""
    return _(
        "Another release of the same people with fresh noise (the ε of the releases add up: "
        "averaging them removes the noise), or a published seed (with it and the public code "
        "the noise can be drawn again and subtracted)."
    )


def _fmt(x: float) -> str:
    """A t or ε in a guarantee's sentence: 4 significant digits, plain (never "2.203e+04")."""
    return number(x, 4)


def _non_implication_guarantees() -> list[Guarantee]:
    return [
        Guarantee(
            name=_(item.name),
            values={},
            statement=_(item.statement),
            assumption="—",
            source=f"{TIFS}, " + _(item.source.removeprefix(f"{TIFS}, ")),
            holds=False,
        )
        for item in NON_IMPLICATIONS
    ]


def k_anonymity(k: int) -> Guarantee:
    """The statement every release makes about its classes."""
    return Guarantee(
        name=_("k-anonymity"),
        values={"k": int(k)},
        statement=_(
            "Every released combination of quasi-identifier values is shared by at least "
            "{k} records."
        ).format(k=number(int(k))),
        assumption=_("The intruder links records through the quasi-identifiers only."),
        source="Samarati & Sweeney 1998",
        broken_by=_(
            "Another release of overlapping records with other classes: intersecting a "
            "person's classes in both can leave fewer than {k} records."
        ).format(k=number(int(k))),
    )


def guarantees(
    *,
    t: float | None = None,
    epsilon: float | None = None,
    k: int | None = None,
    n: int | None = None,
    class_sizes: Sequence[int] | np.ndarray | None = None,
    mechanism: str = "buckets",
    group_size: int | None = None,
    value_assumption: str = "",
) -> list[Guarantee]:
    """Every guarantee that follows from what the user entered, each with its assumption.

    ``mechanism`` is one of :func:`calculator_mechanisms`.  A registered mechanism without
    noise (``"buckets"``, Construction A): the release is deterministically t-close; ε is
    derived from t by Proposition 3 (or t from ε).  A way a noise mechanism protects a column
    (``"laplace"``, ``"randomized_response"``, ``"insensitive"``, Construction B, whose words
    the mechanism declares in :meth:`~engine.mechanisms.Mechanism.column_guarantees`): ε is
    the DP level of the noise; a given t is turned into the ε that makes classes of ≥ k of N
    records stochastically t-close.  ``class_sizes`` (of an actual release) overrides k and
    N.  Quantities that need k or N are left out when those are missing.  ``group_size`` is
    the size of the groups of a mechanism whose noise sits on groups (``"insensitive"``; the
    k the user asked for, which the QI classes of a release may exceed); it defaults to k.
    ``value_assumption`` is added to the assumption of the noise's ε statement (what the
    release's settings add, :meth:`~engine.mechanisms.Mechanism.value_assumption`).
    """
    if (t is None) == (epsilon is None):
        raise InputError(_("Give exactly one of t and ε (epsilon)."))
    column = column_guarantee(mechanism)
    if class_sizes is not None:
        sizes = np.asarray(class_sizes, dtype=np.int64)
        if sizes.size == 0 or (sizes < 1).any():
            raise InputError(_("Class sizes must be whole numbers ≥ 1."))
        k, n = int(sizes.min()), int(sizes.sum())
    if n is not None and k is not None:
        k, n = _check_k_n(k, n)
    elif n is not None:
        _check_k_n(1, n)
        n = int(n)
    elif k is not None and (int(k) != k or k < 1):
        raise InputError(_("k must be a whole number ≥ 1, not {k}.").format(k=k))

    out: list[Guarantee] = []
    if k is not None:
        out.append(k_anonymity(int(k)))
    if column is None:
        out.extend(_bucket_guarantees(t, epsilon, k, n))
    else:
        out.extend(_noise_guarantees(t, epsilon, k, n, column, group_size or k, value_assumption))
    out.extend(_non_implication_guarantees())
    return out


def calculator_mechanisms() -> tuple[str, ...]:
    """The names :func:`guarantees` takes as ``mechanism``, in the registry's order: each
    registered mechanism without noise (the guarantees of t-closeness) and each way a noise
    mechanism protects a column (:meth:`engine.mechanisms.Mechanism.column_guarantees`)."""
    out: list[str] = []
    for registered in MECHANISMS.values():
        names = list(registered.column_guarantees()) if registered.noise else [registered.name]
        out += [name for name in names if name not in out]
    return tuple(out)


def column_guarantee(mechanism: str) -> ColumnGuarantee | None:
    """What the guarantees of ``mechanism`` rest on, in its own words: None for a registered
    mechanism without noise (t-closeness), else the :class:`ColumnGuarantee` a registered
    noise mechanism declares under that name."""
    registered = MECHANISMS.get(mechanism)
    if registered is not None and not registered.noise:
        return None
    for registered in MECHANISMS.values():
        found = registered.column_guarantees().get(mechanism)
        if found is not None:
            return found
    raise InputError(_("Unknown mechanism {mechanism}.").format(mechanism=repr(mechanism)))


def _bucket_guarantees(
    t: float | None, epsilon: float | None, k: int | None, n: int | None
) -> list[Guarantee]:
    if t is None:
        assert epsilon is not None
        t = t_from_epsilon(epsilon)
    t = _check_t(t)
    eps = epsilon_from_t(t) if epsilon is None else _check_epsilon(epsilon)
    assumption_prior = _(
        "The intruder's prior knowledge of the confidential data is the published overall "
        "distribution (the premise of t-closeness); quasi-identifiers may be known. Differential "
        "privacy proper makes no such assumption."
    )
    out = [
        Guarantee(
            name=_("t-closeness"),
            values={"t": t},
            statement=_(
                "In every class the share of each confidential bucket is between 1/{t} "
                "and {t} times its share in the whole file."
            ).format(t=_fmt(t)),
            assumption=_("Shares are measured on the released buckets, class by class."),
            source=f"{KBS}, " + _("Definition 4 and Section 6"),
            broken_by=_(
                "Another release of nearly the same file: its classes and buckets are formed "
                "anew, and a person's class in one release intersected with their class in "
                "the other can be far from the whole file's shares."
            ),
        ),
        Guarantee(
            name=_("ε-differential privacy (Proposition 3)"),
            values={"epsilon": eps, "t": t},
            statement=_(
                "{t}-closeness gives ε-differential privacy of the confidential data "
                "with ε = 2·ln t = {epsilon}."
            ).format(t=_fmt(t), epsilon=_fmt(eps)),
            assumption=assumption_prior,
            source=f"{KBS}, " + _("Proposition 3"),
            broken_by=_(
                "Differencing two releases of nearly the same file: the buckets and classes "
                "are computed without noise, so two files one person apart give releases "
                "that differ deterministically (a bucket's count changes by one), and a "
                "reader holding both can tell that person's bucket far beyond a factor "
                "e^ε. The ε holds for one release read against the published distribution."
            ),
        ),
    ]
    if k is not None and n is not None and k < n:
        eps_needed = epsilon_for_stochastic_t(t, k, n)
        out.append(
            Guarantee(
                name=_("equivalent noise level"),
                values={"epsilon": eps_needed, "t": t, "k": k, "n": n},
                statement=_(
                    "Noise that is ε-DP per record with ε = {epsilon} would make "
                    "every class of ≥ {k} of {n} records stochastically {t}-close "
                    "(the alternative noise route to the same t)."
                ).format(epsilon=_fmt(eps_needed), k=number(k), n=number(n), t=_fmt(t)),
                assumption=_("Each record's confidential value gets independent ε-DP noise."),
                source=f"{KBS}, " + _("Proposition 1") + f"; {TIFS}, " + _("Section V-D"),
            )
        )
    return out


def _noise_guarantees(
    t: float | None,
    epsilon: float | None,
    k: int | None,
    n: int | None,
    column: ColumnGuarantee,
    group_size: int | None,
    value_assumption: str = "",
) -> list[Guarantee]:
    """The guarantees of ε-DP noise on each record, in ``column``'s words (the mechanism's)."""
    epsilon = _noise_epsilon(t, epsilon, k, n)
    out = [_values_dp(epsilon, column, value_assumption)]
    if column.group is not None and group_size is not None:
        # noise on group means that can differ by Δ: two records' outputs differ by e^(kε)
        local_eps = epsilon * group_size
        out.append(_group_bound(column.group, local_eps, group_size))
    else:
        local_eps = epsilon
        out.append(_local_dp(local_eps))
    if n is not None:
        if k is not None:
            out.extend(_class_guarantees(local_eps, k, n))
        out.append(_one_t(local_eps, n))
    return out


def _noise_epsilon(t: float | None, epsilon: float | None, k: int | None, n: int | None) -> float:
    """The ε of the noise: as given, or the one that makes classes of ≥ k of N records
    stochastically t-close (Proposition 1)."""
    if epsilon is None:
        assert t is not None
        if k is None or n is None:
            raise InputError(
                _(
                    "To turn t into the ε of a noise mechanism, give k and N as well "
                    "(Proposition 1 depends on both)."
                )
            )
        epsilon = epsilon_for_stochastic_t(t, k, n)
    return _check_epsilon(epsilon)


def _values_dp(epsilon: float, column: ColumnGuarantee, extra: str = "") -> Guarantee:
    """ε-differential privacy of the confidential data: the shared statement, completed by
    what the mechanism does to each value, what its ε rests on and what the release's
    settings add to its assumption (``extra``)."""
    assumption = _(
        "Numeric values are clamped to public bounds chosen without looking at the "
        "data; the noise is never redrawn (redrawing spends ε again); "
        "quasi-identifiers are protected by k-anonymity, not by differential privacy."
    )
    # a missing value stays missing on every route of the noise: ε does not cover it
    assumption = f"{assumption} {missing_assumption()}"
    return Guarantee(
        name=_("ε-differential privacy of the confidential data"),
        values={"epsilon": epsilon},
        statement=_(
            "Changing one person's confidential value changes the probability of any "
            "released confidential values by a factor of at most e^ε = "
            "{factor} (ε = {epsilon}); {what}."
        ).format(factor=_fmt(_exp(epsilon)), epsilon=_fmt(epsilon), what=column.what),
        assumption=" ".join(a for a in (assumption, column.assumption, extra) if a),
        source=column.source,
        broken_by=_another_draw(),
    )


def _group_bound(group: GroupBound, local_eps: float, group_size: int) -> Guarantee:
    """The per-record bound of noise on groups of ``group_size`` records (e^(k·ε))."""
    return Guarantee(
        name=group.name,
        values={"epsilon_local": local_eps, "k": group_size},
        statement=group.statement.format(factor=_fmt(_exp(local_eps))),
        assumption=group.assumption,
        source=group.source,
    )


def _local_dp(local_eps: float) -> Guarantee:
    """ε-local differential privacy of each record's value (TIFS 2022)."""
    return Guarantee(
        name=_("local differential privacy"),
        values={"epsilon": local_eps},
        statement=_(
            "Each record's released value is ε-locally differentially private with "
            "ε = {epsilon}: any two inputs give output distributions within "
            "a factor e^ε."
        ).format(epsilon=_fmt(local_eps)),
        assumption=_("The noise of each record is drawn independently of all others."),
        source=f"{TIFS}, " + _("Definition of ε-LDP"),
        broken_by=_another_draw(),
    )


def _class_guarantees(local_eps: float, k: int, n: int) -> list[Guarantee]:
    """What per-record ε-LDP gives every class, and every subset, of ≥ k of N records:
    stochastic t-closeness (Proposition 1), (k, t)-closeness and (N − k, ε)-DP (TIFS 2022,
    Theorems 3 and 4)."""
    t_st = stochastic_t(local_eps, k, n)
    t_k = kt_from_ldp(local_eps, k, n)
    group, eps_group = dp_from_kt(k, t_k, n)
    return [
        Guarantee(
            name=_("stochastic t-closeness (Proposition 1)"),
            values={"t": t_st, "epsilon": local_eps, "k": k, "n": n},
            statement=_(
                "Every class of at least {k} of {n} records is stochastically "
                "{t}-close: the expected distribution of its noisy values is "
                "within a factor {t} of the whole file's."
            ).format(k=number(k), n=number(n), t=_fmt(t_st)),
            assumption=_(
                "Refers to the distributions of the noise, not to one realisation; "
                "a given release need not be actually t-close (redraw with "
                "'resample until t' for that, at ε × draws)."
            ),
            source=f"{KBS}, " + _("Proposition 1 (with N − |E|, as its derivation gives)"),
        ),
        Guarantee(
            name=_("(k, t)-closeness (Theorem 3)"),
            values={"k": k, "t": t_k, "n": n},
            statement=_(
                "Not only the classes: every subset of {k} records has an expected "
                "distribution within a factor {t} of the whole file's."
            ).format(k=number(k), t=_fmt(t_k)),
            assumption=_("Each record's value is ε-locally differentially private."),
            source=f"{TIFS}, " + _("Theorem 3 (with N − k, as its derivation gives)"),
        ),
        Guarantee(
            name=_("(N − k, ε)-differential privacy (Theorem 4)"),
            values={"group": group, "epsilon": eps_group, "n": n},
            statement=_(
                "Removing any {group} records changes the probability of any bucket "
                "of released values by a factor of at most {t}: ({group}, ε′)-differential "
                "privacy with ε′ = ln {t} = {epsilon}, a bound for groups of {group} "
                "records, not the ε = {noise} of one record's noise."
            ).format(
                group=number(group),
                t=_fmt(t_k),
                epsilon=_fmt(eps_group),
                noise=_fmt(local_eps),
            ),
            assumption=_("Equivalent to the (k, t)-closeness above."),
            source=f"{TIFS}, " + _("Theorem 4"),
        ),
    ]


def _one_t(local_eps: float, n: int) -> Guarantee:
    """What per-record ε-LDP gives a single record: (1, t)-closeness (TIFS 2022, Theorem 2)."""
    t1 = one_t_from_ldp(local_eps, n)
    return Guarantee(
        name=_("(1, t)-closeness (Theorem 2)"),
        values={"t": t1, "n": n},
        statement=_(
            "Even a single record's expected value distribution is within a factor "
            "{t} of the whole file's."
        ).format(t=_fmt(t1)),
        assumption=_("Each record's value is ε-locally differentially private."),
        source=f"{TIFS}, " + _("Theorem 2"),
    )


__all__ = [
    "NON_IMPLICATIONS",
    "Guarantee",
    "NonImplication",
    "calculator_mechanisms",
    "column_guarantee",
    "dp_from_kt",
    "epsilon_for_stochastic_t",
    "epsilon_from_t",
    "guarantees",
    "k_anonymity",
    "kt_from_dp",
    "kt_from_ldp",
    "ldp_from_one_t",
    "one_t_from_ldp",
    "stochastic_t",
    "stochastic_t_of_classes",
    "t_from_epsilon",
]
