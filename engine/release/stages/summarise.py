"""The summary of a verified release, filled the same way whichever route made it.

One machine (:mod:`engine.release.stages.anonymize`), the noise route (:mod:`engine.release.noise`)
and a cluster (:mod:`engine.distributed.release`) each measure their own losses; what the
verifier read off the table, the guarantees that follow from it, the bucket table, the seed
policy and the column types go into the :class:`~engine.release.RunSummary` here, so
that a release reads the same on every route.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.i18n import _
from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.privacy import epsilon_from_t
from engine.release.model import (
    Buckets,
    ClassSizes,
    KeptSummary,
    RunSummary,
    Verification,
    bucket_rows,
    json_ready,
)
from engine.release.stages.guarantees import release_guarantees
from engine.release.verify import T_RTOL
from engine.roles import ColumnType
from engine.text import number
from engine.version import __version__


def summarise(
    params: ReleaseParams,
    verification: Verification,
    *,
    n_records: int,
    column_types: Mapping[str, ColumnType],
    buckets: Buckets | None = None,
    warnings: Sequence[str] = (),
    draws: int = 1,
    **fields: Any,
) -> RunSummary:
    """The summary of a release of ``n_records`` records that passed ``verification``.

    Filled here: k, the classes and their sizes and the sentence of the verifier; every
    guarantee of ``params`` at the release's own class sizes and achieved t (ε × ``draws``
    for noise redrawn until t-close); the rows of ``buckets`` as released; the seed policy
    and the type of every protected column.  ``fields`` are the other
    :class:`~engine.release.RunSummary` fields, which only the route knows (its t and
    ε, its losses, its noise).
    """
    return RunSummary(
        params=params,
        software=f"tclose {__version__}",
        mechanism=params.mechanism,
        n_records=n_records,
        n_released=int(verification.n_records),
        k_achieved=int(verification.k),
        guarantees=tuple(
            release_guarantees(
                params,
                n_records,
                class_sizes=verification.class_sizes,
                column_types=column_types,
                achieved_t=verification.t,
                draws=draws,
            )
        ),
        n_classes=int(verification.n_classes),
        class_sizes=ClassSizes.of(verification.class_sizes),
        buckets=(
            tuple(bucket_rows(buckets, params.confidential_output)) if buckets is not None else ()
        ),
        seed_policy=MECHANISMS[params.mechanism].seed_policy(params.seed),
        column_types={c: str(t) for c, t in column_types.items()},
        verification=verification.message,
        warnings=(*warnings, *_kept_warnings(params, verification, fields.get("t"))),
        kept=_kept(params, verification),
        **fields,
    )


def _kept(params: ReleaseParams, verification: Verification) -> KeptSummary | None:
    """The kept columns and the k and t the verifier found with them as keys."""
    if verification.kept_k is None:
        return None
    return KeptSummary(tuple(params.keep), verification.kept_k, verification.kept_t)


def _kept_warnings(params: ReleaseParams, verification: Verification, t: float | None) -> list[str]:
    """Say when the columns released unchanged break k or t: an intruder who knows one of
    them (a height, an occupation) uses it as a quasi-identifier."""
    k_kept, t_kept = verification.kept_k, verification.kept_t
    if k_kept is None:
        return []
    broken_t = t is not None and t_kept is not None and t_kept > t * (1 + T_RTOL)
    if k_kept >= params.k and not broken_t:
        return []
    shown = _("infinite") if t_kept is not None and math.isinf(t_kept) else number(t_kept or 1, 4)
    return [
        _(
            "The columns released unchanged ({columns}) single people out: with them as keys "
            "the release has k = {k} and t = {t}, not the k = {k_asked} asked. Anyone who "
            "knows one of them uses it as a quasi-identifier. Tag them as quasi-identifiers, "
            "or leave them out."
        ).format(
            columns=", ".join(map(repr, params.keep)),
            k=number(k_kept),
            t=shown,
            k_asked=number(params.k),
        )
    ]


def summarise_buckets(
    params: ReleaseParams,
    verification: Verification,
    *,
    t: float | None,
    n_records: int,
    column_types: Mapping[str, ColumnType],
    buckets: Buckets | None,
    **fields: Any,
) -> RunSummary:
    """:func:`summarise` for the bucket mechanism (Construction A), on one machine or a cluster.

    The release answers to the t asked (``t``: t, or exp(ε/2) when ε was given; None for
    plain k-anonymity) and achieves the verifier's t; ε is the one given or 2 ln t
    (Proposition 3), and 2 ln of the achieved t.  The worst class and its bucket are the
    verifier's.
    """
    achieved_t = verification.t
    epsilon = params.epsilon
    if epsilon is None and t is not None:
        epsilon = epsilon_from_t(t)
    return summarise(
        params,
        verification,
        n_records=n_records,
        column_types=column_types,
        buckets=buckets,
        t=t,
        t_kind="asked" if t is not None else None,
        t_achieved=achieved_t,
        epsilon=epsilon,
        epsilon_from=("given" if params.epsilon is not None else "t") if t else None,
        epsilon_achieved=epsilon_from_t(achieved_t) if achieved_t else None,
        noise=None,
        worst_class=json_ready(verification.worst_class),
        worst_bucket=json_ready(verification.worst_bucket),
        **fields,
    )


__all__ = ["summarise", "summarise_buckets"]
