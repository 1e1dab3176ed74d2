"""One release from one configuration: the function the command line, GUI and scripts call.

The bucket mechanism (Construction A, KBS 2015 §6): declared missing codes become missing, the
confidential values are bucketized, records are partitioned into k-anonymous t-close classes,
the release table is built and shuffled, and the independent verifier
(:func:`engine.release.verify.verify_release`) reads it back.  A release whose check fails raises
:class:`~engine.errors.VerificationError` and is never returned, so nothing unverified can be
written.  With no confidential column it is plain k-anonymous microaggregation; a noise
mechanism (Construction B) is handed to :func:`engine.mechanisms.noise_release`.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError
from engine.params import ReleaseParams
from engine.progress import CancelFn, ProgressFn, scaled, step
from engine.release.blocks import tclose_blocks, use_blocks
from engine.release.buckets import make_buckets, optimal_bucket_count
from engine.release.encode import encode_qi
from engine.release.feasibility import class_bounds
from engine.release.metrics import class_size_stats, confidential_loss, sse_sst
from engine.release.microaggregation import microaggregate
from engine.release.partition import tclose_partition
from engine.release.prepare import prepare
from engine.release.recode import build_release
from engine.release.result import Buckets, Release
from engine.release.verify import require_verified
from engine.version import __version__

#: the assumption under which ε = 2 ln t holds (KBS 2015, Proposition 3); shown with every ε
EPSILON_ASSUMPTION = (
    "ε = 2·ln t is the differential privacy of the confidential data under the assumptions "
    "of t-closeness: the intruder's prior is the published overall distribution of the "
    "confidential data and the quasi-identifiers may be known (KBS 2015, Proposition 3)."
)


def _k_anonymous_classes(
    X: np.ndarray, k: int, seed: int | None, progress: ProgressFn | None, cancel: CancelFn | None
) -> np.ndarray:
    """Classes of ≥ k records without a bucket constraint (k-anonymity only)."""
    return np.asarray(microaggregate(X, k, seed=seed, progress=progress, cancel=cancel))


def class_size_candidates(counts: np.ndarray, k: int, t: float) -> list[int]:
    """Minimum class sizes worth trying, from k up to ceil(t / smallest share).

    A class of m records needs ceil(m·p_j/t) records of bucket j.  While m·p_j/t < 1 that
    rounding forces records of rare buckets into every class, from wherever they are, and the
    share of a class its lower bounds fix, F(m) = Σ_j ceil(m·p_j/t) / m, stays well above the
    ideal 1/t; classes of about t/p_min records avoid the waste but are coarser.  F jumps with
    the rounding, so the candidates are k and the sizes with the smallest F up to the
    geometric mean of k and t/p_min and up to t/p_min itself (on adult and ACS the QI loss
    follows F closely); the caller keeps the one with the lowest QI loss.
    """
    n = int(counts.sum())
    shares = counts / n
    top = min(n, math.ceil(t / shares[shares > 0].min() - 1e-9))
    if top <= k:
        return [k]
    sizes = np.arange(k, top + 1)
    lower, _ = class_bounds(sizes, shares, t)
    forced = lower.sum(axis=1) / sizes
    middle = round(math.sqrt(k * top))
    best_low = int(sizes[np.argmin(forced[: middle - k + 1])])
    best_all = int(sizes[np.argmin(forced)])
    return sorted({k, best_low, best_all})


def monotone_size_candidates(counts: np.ndarray, k: int, t: float) -> list[int]:
    """The candidates for k together with those for 2k, 4k, … up to the first one past top.

    A partition into classes of at least 2k records is also one into classes of at least k,
    so a smaller k must never lose more information than a larger one.  Trying the larger
    k's candidates too keeps that true along doublings of k (a sweep over k = 5, 10, 20 is
    monotone), at the cost of a few more trial partitions on the sample.
    """
    n = int(counts.sum())
    top = min(n, math.ceil(t / (counts[counts > 0] / n).min() - 1e-9))
    sizes: set[int] = set()
    m = k
    while True:
        sizes.update(class_size_candidates(counts, m, t))
        if m > top or 2 * m > n:  # past top every k has the single candidate k itself
            return sorted(sizes)
        m *= 2


#: above this many records the class size is chosen on a random sample of this size
SIZE_SAMPLE = 15_000


def size_sample(n: int) -> np.ndarray:
    """Positions of the records the class size is chosen on: all, or a fixed random sample.

    Fixed (seeded with 0) so that the same file gives the same choice, on one machine or on a
    cluster (which fetches these rows from its partitions).
    """
    if n <= SIZE_SAMPLE:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, SIZE_SAMPLE, replace=False))


def choose_class_size(
    Xs: np.ndarray,
    cs: np.ndarray,
    counts: np.ndarray,
    k: int,
    t: float,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> tuple[int, np.ndarray | None]:
    """(best minimum class size, its labels on the sample) over the candidates.

    ``Xs``/``cs`` are the sample's QIs and buckets (:func:`size_sample`), ``counts`` the whole
    file's bucket counts: each candidate is partitioned exactly on the sample against the
    file's shares and the lowest QI loss wins (labels None when no candidate was feasible).
    """
    shares = counts / counts.sum()
    sizes = monotone_size_candidates(counts, k, t)
    best, best_loss, best_labels = sizes[0], math.inf, None
    if len(sizes) == 1:
        return best, None
    for i, size in enumerate(sizes):
        step(progress, cancel, i / len(sizes), "Choosing the class size")
        if size > len(cs):
            continue
        try:
            labels = tclose_partition(Xs, cs, size, t, shares=shares, cancel=cancel)
        except InfeasibleError:  # the sample's bucket mix can stray from the file's
            continue
        loss = sse_sst(Xs, labels)
        if loss < best_loss - 1e-12:
            best, best_loss, best_labels = size, loss, labels
    return best, best_labels


def best_partition(
    X: np.ndarray,
    codes: np.ndarray,
    k: int,
    t: float,
    *,
    seed: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> np.ndarray:
    """The t-close partition with the lowest QI SSE over :func:`class_size_candidates`.

    Every candidate is at least k, so each result is k-anonymous.  On a large file the
    candidates are compared on a fixed random sample (the choice depends on the bucket shares
    and the local density of the QIs, which a sample keeps), then the winner runs once on all
    records, block-wise (:func:`engine.release.blocks.use_blocks`) when the file is large.
    """
    counts = np.bincount(codes)
    partition = tclose_blocks if use_blocks(X) else tclose_partition
    if len(monotone_size_candidates(counts, k, t)) == 1:
        return partition(X, codes, k, t, seed=seed, progress=progress, cancel=cancel)
    n = len(codes)
    sample = size_sample(n)
    best, best_labels = choose_class_size(
        X[sample], codes[sample], counts, k, t, progress=scaled(progress, 0.0, 0.5),
        cancel=cancel,
    )  # fmt: skip
    if len(sample) == n and best_labels is not None:
        return best_labels
    return partition(
        X, codes, best, t, seed=seed, progress=scaled(progress, 0.5, 1.0), cancel=cancel
    )


def _json_ready(values: dict[str, Any] | None) -> dict[str, Any] | None:
    """Released values as plain JSON types (numpy scalars and timestamps become numbers/text)."""
    if values is None:
        return None
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, np.generic):
            value = value.item()
        elif not isinstance(value, (str, int, float, bool, type(None))):
            value = str(value)
        out[key] = value
    return out


def _bucket_summary(buckets: Buckets) -> list[dict[str, Any]]:
    out = []
    for j, label in enumerate(buckets.labels):
        bounds = buckets.bounds[j]
        if isinstance(bounds, frozenset):
            bounds = sorted(bounds)
        elif isinstance(bounds, tuple):
            bounds = list(bounds)
        out.append(
            {
                "label": label if j != buckets.missing_bucket else "(missing)",
                "count": int(buckets.counts[j]),
                "share": float(buckets.counts[j] / buckets.counts.sum()),
                "bounds": bounds,
                "representative": list(buckets.representatives[j]),
                "missing": j == buckets.missing_bucket,
            }
        )
    return out


def anonymize(
    data: pd.DataFrame,
    config: ReleaseParams,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> Release:
    """Protect ``data`` as ``config`` says and return the verified release (module doc)."""
    if config.mechanism != "buckets":
        from engine.release.noise import noise_release

        return noise_release(data, config, progress=progress, cancel=cancel)
    started = time.perf_counter()
    step(progress, cancel, 0.0, "Preparing")
    prepared = prepare(data, config)
    qi, confidential, clean = prepared.qi, prepared.confidential, prepared.clean
    types, orders = prepared.types, prepared.orders
    X = encode_qi(clean, qi, types, orders)
    step(progress, cancel, 0.05, "Forming buckets")
    warnings: list[str] = []
    t = config.bucket_t
    buckets = None
    if confidential:
        assert t is not None
        # b = t + 1 (KBS 2015 §6.1), but at most k: every class holds every bucket, so more
        # buckets than k would force classes larger than k (the paper's b ≤ k)
        wanted_b = config.n_buckets or min(optimal_bucket_count(t), max(2, config.k))
        buckets = make_buckets(
            clean, confidential, types, wanted_b, joint=config.joint, orders=orders
        )
        got_b = len(buckets.counts) - (buckets.missing_bucket is not None)
        if got_b == 0:
            warnings.append(
                "Every confidential value is missing: the release carries no confidential "
                "information."
            )
        elif config.n_buckets is not None and got_b < wanted_b:
            warnings.append(
                f"Only {got_b} buckets could be formed (asked for {wanted_b}): the confidential "
                "data has too few distinct values."
            )
        classes = best_partition(
            X,
            buckets.codes,
            config.k,
            t,
            seed=config.seed,
            progress=scaled(progress, 0.1, 0.85),
            cancel=cancel,
        )
    else:
        classes = _k_anonymous_classes(
            X, config.k, config.seed, scaled(progress, 0.1, 0.85), cancel
        )
    # the QI loss now, so that the encoded QIs (the largest array) are freed before the
    # release table is built: on a million records that is 176 MB less at the peak
    qi_loss = sse_sst(X, classes)
    del X
    step(progress, cancel, 0.85, "Building the release")
    rng = np.random.default_rng(config.seed)
    table = build_release(
        clean,
        qi=qi,
        keep=config.keep,
        types=types,
        orders=orders,
        classes=classes,
        buckets=buckets,
        qi_output=config.qi_output,
        confidential_output=config.confidential_output,
        rng=rng,
        original=data.reset_index(drop=True),
    )
    step(progress, cancel, 0.9, "Verifying the release")
    verification = require_verified(table, qi, confidential, t=t, k=config.k)
    sizes = class_size_stats(sizes=verification.class_sizes)
    if qi and confidential and sizes["min"] > 2 * config.k:
        warnings.append(
            f"Classes hold at least {sizes['min']} records (k = {config.k} was asked): with "
            f"t = {t:g} every class needs records of every bucket, and the rarest bucket "
            "makes larger classes lose less information. A larger t or fewer buckets allows "
            "smaller classes."
        )
    summary = make_summary(
        config, verification, buckets, classes, qi_loss, clean, types, sizes, warnings
    )
    summary["seconds"] = round(time.perf_counter() - started, 3)
    step(progress, cancel, 1.0, "Done")
    return Release(
        table=table,
        config=config,
        summary=summary,
        verification=verification,
        classes=classes,
        data=clean,
        buckets=buckets,
        warnings=warnings,
    )


def make_summary(
    config: ReleaseParams,
    verification: Any,
    buckets: Buckets | None,
    classes: np.ndarray,
    X: np.ndarray | float,
    data: pd.DataFrame,
    types: dict,
    sizes: dict[str, Any],
    warnings: list[str],
) -> dict[str, Any]:
    """The JSON-ready numbers every run reports (``--summary`` and the report).

    ``X`` is the encoded QI matrix, or the QI loss (SSE/SST) already computed from it.
    """
    t = config.bucket_t
    conf_loss, conf_columns = (
        confidential_loss(data, buckets, types) if buckets is not None else (None, {})
    )
    achieved_t = verification.t
    summary: dict[str, Any] = {
        "software": f"tclose {__version__}",
        "mechanism": "buckets",
        "n_records": len(data),
        "n_released": int(verification.n_records),
        "k": int(config.k),
        "t": t,
        "epsilon": (config.epsilon if config.epsilon is not None else 2 * math.log(t))
        if t is not None
        else None,
        "epsilon_from": ("given" if config.epsilon is not None else "t") if t else None,
        "epsilon_assumption": EPSILON_ASSUMPTION if t is not None else None,
        "k_achieved": int(verification.k),
        "t_achieved": achieved_t,
        "epsilon_achieved": 2 * math.log(achieved_t) if achieved_t else None,
        "worst_class": _json_ready(verification.worst_class),
        "worst_bucket": _json_ready(verification.worst_bucket),
        "n_classes": int(verification.n_classes),
        "n_partition_classes": int(classes.max()) + 1 if len(classes) else 0,
        "class_sizes": sizes,
        "n_buckets": len(buckets.counts) if buckets is not None else 0,
        "buckets": _bucket_summary(buckets) if buckets is not None else [],
        "information_loss": {
            "qi_sse_sst": X if isinstance(X, float) else sse_sst(X, classes),
            "confidential_sse_sst": conf_loss,
            "confidential_columns": conf_columns,
        },
        "parameters": {
            "qi": list(config.qi),
            "confidential": list(config.confidential),
            "identifiers": list(config.identifiers),
            "keep": list(config.keep),
            "types": {c: str(types[c]) for c in types},
            "missing": list(config.missing),
            "n_buckets": config.n_buckets,
            "qi_output": config.qi_output,
            "confidential_output": config.confidential_output,
            "joint": config.joint,
        },
        "seed": config.seed,
        "seed_policy": (
            "fresh randomness (not reproducible)"
            if config.seed is None
            else "fixed seed: row order reproducible, for audits only"
        ),
        "verification": verification.message,
        "warnings": list(warnings),
    }
    return summary
