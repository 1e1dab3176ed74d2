"""The parameters of one release, as one immutable object.

The command line builds a :class:`ReleaseParams` from its flags, the GUI from its wizard pages
and a project file from JSON; all three hand it to :func:`engine.release.anonymize.anonymize`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.errors import InputError
from engine.roles import ColumnType

QiOutput = Literal["centroid", "range"]
ConfidentialOutput = Literal["label", "representative"]
Mechanism = Literal["buckets", "laplace"]


@dataclass(frozen=True)
class ReleaseParams:
    """Everything that decides what is released.

    Exactly one of ``t`` and ``epsilon`` is given.  With the bucket mechanism an ``epsilon``
    means t = exp(ε/2) (KBS 2015, Proposition 3); with a noise mechanism it is the ε of the
    noise (Construction B).
    """

    qi: tuple[str, ...]
    confidential: tuple[str, ...]
    k: int
    t: float | None = None
    epsilon: float | None = None
    identifiers: tuple[str, ...] = ()
    #: ``other`` columns released unchanged (only these; every unnamed column is dropped)
    keep: tuple[str, ...] = ()
    #: type overrides; columns not named here have their type inferred
    types: Mapping[str, ColumnType] = field(default_factory=dict)
    #: category order of ordinal columns (lowest first); inferred when absent
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: missing-value codes for every column (compared as text and, where numeric, as numbers)
    missing: tuple[str, ...] = ()
    #: missing-value codes for single columns, added to ``missing``
    column_missing: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: number of confidential buckets b; None = the optimal count for t (KBS 2015 §6)
    n_buckets: int | None = None
    qi_output: QiOutput = "centroid"
    confidential_output: ConfidentialOutput = "label"
    #: several confidential columns form one joint bucket (KBS 2015 §4); False = per column
    joint: bool = True
    mechanism: Mechanism = "buckets"
    #: public bounds (lo, hi) of numeric confidential columns, known without the data: the
    #: noise mechanism clamps to them; the buckets mechanism ends its outer labels at them
    bounds: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    #: noise mechanism: the share of each column's ε spent on estimating the bounds of a
    #: numeric confidential column that has no public bounds (DP quantiles); None = every
    #: such column needs public bounds
    private_bounds: float | None = None
    #: noise mechanism: aggregate confidential values in insensitive groups of k first
    insensitive: bool = False
    #: noise mechanism: redraw until the release is also t-close on the buckets
    resample_until_t: float | None = None
    #: None = fresh OS entropy (not reproducible); an int makes the run reproducible
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.t is not None and self.epsilon is not None:
            raise InputError("Give t or ε (epsilon), not both.")
        if self.confidential and self.t is None and self.epsilon is None:
            raise InputError("Give the privacy level as t or as ε (epsilon).")
        if self.mechanism != "buckets" and self.epsilon is None:
            raise InputError(f"The {self.mechanism} mechanism needs ε (epsilon).")
        if self.t is not None and not (self.t >= 1 and math.isfinite(self.t)):
            raise InputError(f"t must be a number ≥ 1, not {self.t}.")
        if self.epsilon is not None and not (self.epsilon > 0 and math.isfinite(self.epsilon)):
            raise InputError(f"ε must be a positive number, not {self.epsilon}.")
        if int(self.k) != self.k or self.k < 1:
            raise InputError(f"k must be a whole number ≥ 1, not {self.k}.")
        if not self.qi and not self.confidential:
            raise InputError("Tag at least one column as quasi-identifier or confidential.")
        if self.private_bounds is not None:
            share = self.private_bounds
            if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share < 1:
                raise InputError(
                    f"The share of ε for private bounds must lie between 0 and 1, not {share}."
                )
            if self.mechanism == "buckets":
                raise InputError("Private bounds apply to the noise mechanism only.")
        named = [*self.qi, *self.confidential, *self.identifiers, *self.keep]
        dupes = sorted({c for c in named if named.count(c) > 1})
        if dupes:
            raise InputError(f"A column can have only one role: {', '.join(dupes)}.")

    @property
    def bucket_t(self) -> float | None:
        """The t that the bucket construction must meet (t, or exp(ε/2) from ε)."""
        if self.t is not None:
            return float(self.t)
        if self.epsilon is not None:
            return math.exp(self.epsilon / 2.0)
        return None
