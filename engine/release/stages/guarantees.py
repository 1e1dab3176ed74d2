"""The guarantees of a release with given parameters, for the plan and the run alike.

:func:`release_guarantees` is the one place that turns parameters (and, after a run, what the
verifier measured) into the statements of :func:`engine.privacy.guarantees`, so the privacy
page, the plan, the summary and the report say the same thing about the same release.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.privacy import Guarantee, guarantees, k_anonymity
from engine.roles import ColumnType


def release_guarantees(
    params: ReleaseParams,
    n: int,
    *,
    class_sizes: np.ndarray | None = None,
    column_types: Mapping[str, ColumnType] | None = None,
    achieved_t: float | None = None,
    draws: int = 1,
) -> list[Guarantee]:
    """Every guarantee of a release with ``params`` on ``n`` records, each with its assumption.

    Before a run the k and t asked for stand for the release; after it, the release's own
    ``class_sizes`` and the verifier's ``achieved_t`` (buckets), or ε × ``draws`` (noise
    redrawn until t-close).  The noise route's statements depend on the columns (Laplace on
    numbers, randomized response on categories) and on the insensitive option, whose groups
    hold k records whatever size the QI classes came out.
    """
    sizes = None if class_sizes is None or len(class_sizes) == 0 else class_sizes
    if not params.confidential:
        return [k_anonymity(int(np.min(sizes)) if sizes is not None else min(params.k, n))]
    k = min(params.k, n)
    if not params.noise:
        if achieved_t is not None and math.isfinite(achieved_t):
            return guarantees(t=max(achieved_t, 1.0), k=k, n=n, class_sizes=sizes)
        return guarantees(t=params.t, epsilon=params.epsilon, k=k, n=n, class_sizes=sizes)
    kinds = column_types or {}
    numeric = any(kinds.get(c) == ColumnType.NUMERIC for c in params.confidential)
    mechanism = MECHANISMS[params.mechanism]
    assert params.epsilon is not None
    return guarantees(
        epsilon=params.epsilon * draws,
        k=k,
        n=n,
        class_sizes=sizes,
        mechanism=mechanism.column_mechanism(params, numeric) or params.mechanism,
        group_size=mechanism.group_size(params),
        value_assumption=mechanism.value_assumption(params, numeric),
    )
