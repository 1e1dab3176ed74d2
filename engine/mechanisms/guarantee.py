"""What a mechanism's noise on a column rests on, in words: the part of a guarantee that
belongs to the mechanism.

:func:`engine.privacy.guarantees` states what every noise mechanism gives alike (ε-differential
privacy of the confidential data, local DP, stochastic t-closeness by Proposition 1,
(k, t)-closeness and (N − k, ε)-DP by Theorems 2–4).  What differs from one mechanism to the
next, what it does to each value, the result its ε rests on, what else must hold, and whether
its noise sits on groups of records rather than on each value, is declared by the mechanism
itself as a :class:`ColumnGuarantee` (:meth:`engine.mechanisms.Mechanism.column_guarantees`),
so that a new mechanism states its guarantees in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the papers the guarantees cite most
KBS = "Domingo-Ferrer & Soria-Comas, Knowledge-Based Systems 2015"
TIFS = "Ekenstedt et al., IEEE Transactions on Information Forensics and Security 2022"


@dataclass(frozen=True)
class GroupBound:
    """The per-record bound of noise drawn on groups of k records rather than on each value.

    Two records in groups whose means differ by the whole width of the bounds get outputs
    that differ by e^(k·ε), so the per-record (local) ε is k·ε; this statement replaces the
    plain local-DP one.  ``statement`` holds ``{factor}``, filled with e^(k·ε).
    """

    name: str
    statement: str
    assumption: str
    source: str


@dataclass(frozen=True)
class ColumnGuarantee:
    """What one way of protecting a confidential column adds to the shared ε statements.

    Every text is already in the reader's language (the mechanism makes it when asked).
    """

    #: what is done to each value; ends the ε-differential-privacy statement
    #: ("Laplace noise of scale Δ/ε on each clamped value")
    what: str
    #: the paper and result its ε-differential privacy rests on
    source: str
    #: what must hold besides the shared assumption (clamping to public bounds, no redrawing,
    #: QIs under k-anonymity); "" when nothing
    assumption: str = ""
    #: for noise on groups of records: the per-record bound that replaces plain local DP
    group: GroupBound | None = None


__all__ = ["KBS", "TIFS", "ColumnGuarantee", "GroupBound"]
