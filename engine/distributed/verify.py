"""The independent check of a release, partition by partition on a cluster.

It reads the released parts only, exactly as :func:`engine.release.verify.verify_release`
reads a released table: classes are the groups of identical released QI values, buckets the
distinct tuples of released confidential values (an empty cell is a value of its own, every
cell compared as text).  The file's bucket shares come from one counting pass; then every row
is routed by a hash of its released QI tuple, so each class lands whole in one partition,
where its size and distance (KBS 2015, Definition 4) are computed.  The smallest class and
the largest distance over partitions are the release's k and t: the same numbers
``verify_release`` gives on the collected file (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from engine.distributed.cluster import gather
from engine.progress import NO_TASK, Task
from engine.release import Verification, failed_bounds, verdict

_NA = "\x00NA"


def _text(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    return table[list(columns)].astype("string").fillna(_NA)


def _bucket_counts(table: pd.DataFrame, confidential: Sequence[str]) -> pd.DataFrame:
    keys = _text(table, confidential)
    return keys.value_counts(sort=False).rename("n").reset_index()


def _route(
    table: pd.DataFrame,
    qi: Sequence[str],
    confidential: Sequence[str],
    buckets: pd.DataFrame | None,
    n_out: int,
) -> list[pd.DataFrame]:
    """Rows reduced to (QI texts, bucket number), cut by a hash of the QI tuple."""
    keys = _text(table, qi) if qi else pd.DataFrame(index=table.index)
    out = keys.copy()
    if buckets is not None:
        index = pd.MultiIndex.from_frame(buckets[list(confidential)])
        out["_bucket"] = index.get_indexer(pd.MultiIndex.from_frame(_text(table, confidential)))
    else:
        out["_bucket"] = 0
    if qi:
        h = pd.util.hash_pandas_object(keys, index=False).to_numpy() % np.uint64(n_out)
    else:
        h = np.zeros(len(out), dtype=np.uint64)
    return [out[h == j] for j in range(n_out)]


def _check(qi: Sequence[str], shares: np.ndarray | None, *pieces: pd.DataFrame) -> dict[str, Any]:
    """Sizes and distances of the classes in one routed partition."""
    rows = pd.concat(pieces, ignore_index=True)
    if len(rows) == 0:
        return {"sizes": np.zeros(0, np.int64), "t": None}
    cls = (
        rows.groupby(list(qi), sort=False).ngroup().to_numpy(np.int64)
        if qi
        else np.zeros(len(rows), np.int64)
    )
    sizes = np.bincount(cls)
    out: dict[str, Any] = {"sizes": sizes, "t": None}
    small = int(np.argmin(sizes))
    out["smallest"] = (int(sizes[small]), _first(rows, cls, small, qi))
    if shares is not None:
        b = rows["_bucket"].to_numpy(np.int64)
        n_b = len(shares)
        pairs, counts = np.unique(cls * n_b + b, return_counts=True)
        c, j = pairs // n_b, pairs % n_b
        ratio = counts / sizes[c] / shares[j]
        worst = np.zeros(len(sizes))
        np.maximum.at(worst, c, np.maximum(ratio, 1.0 / ratio))
        present = np.bincount(c, minlength=len(sizes))
        worst[present < n_b] = np.inf
        w = int(np.argmax(worst))
        inside = np.bincount(b[cls == w], minlength=n_b)
        if (inside == 0).any():
            jw = int(np.argmax(inside == 0))
        else:
            r = inside / inside.sum() / shares
            jw = int(np.argmax(np.maximum(r, 1.0 / r)))
        out["t"] = float(worst.max())
        out["worst"] = (float(worst[w]), _first(rows, cls, w, qi), jw)
    return out


def _first(rows: pd.DataFrame, cls: np.ndarray, c: int, qi: Sequence[str]) -> dict[str, Any]:
    row = rows.iloc[int(np.flatnonzero(cls == c)[0])]
    return {col: (None if row[col] == _NA else row[col]) for col in qi}


def verify_parts(
    client: Any,
    tables: Sequence[Any],
    qi: Sequence[str],
    confidential: Sequence[str],
    *,
    t: float | None = None,
    k: int | None = None,
    task: Task = NO_TASK,
) -> Verification:
    """Achieved k and t of a release held as futures of its parts (module doc)."""
    qi, confidential = list(qi), list(confidential)
    shares = None
    buckets = None
    if confidential:
        counted = gather(client, client.map(_bucket_counts, tables, confidential=confidential),
                         task=task.silent())  # fmt: skip
        allc = pd.concat(counted, ignore_index=True)
        buckets = allc.groupby(confidential, sort=True)["n"].sum().reset_index()
        shares = buckets["n"].to_numpy(np.float64) / buckets["n"].sum()
    n_out = max(len(tables), 1)
    routed = client.map(_route, tables, qi=qi, confidential=confidential, buckets=buckets,
                        n_out=n_out)  # fmt: skip
    checks = [
        client.submit(_check, qi, shares, *[client.submit(_pick, r, j) for r in routed])
        for j in range(n_out)
    ]
    results = gather(client, checks, task=task,
                     message="Verifying the release")  # fmt: skip
    sizes = np.concatenate([r["sizes"] for r in results])
    n = int(sizes.sum())
    if n == 0:
        return Verification.empty()
    achieved_k = int(sizes.min())
    smallest = min((r for r in results if "smallest" in r), key=lambda r: r["smallest"][0])
    achieved_t = None
    worst_r = None
    if confidential:
        worst_r = max((r for r in results if r["t"] is not None), key=lambda r: r["t"])
        achieved_t = float(worst_r["t"])
    failed = failed_bounds(achieved_k, achieved_t, k=k, t=t)
    # the class to name: the farthest one, unless only k fails (then the smallest)
    if worst_r is not None and ("t" in failed or "k" not in failed):
        worst_class = worst_r["worst"][1]
    else:
        worst_class = smallest["smallest"][1]
    worst_bucket = None
    if confidential and worst_r is not None and buckets is not None:
        row = buckets.iloc[worst_r["worst"][2]]
        worst_bucket = {c: (None if row[c] == _NA else row[c]) for c in confidential}
    return verdict(sizes, achieved_t, failed, worst_class if qi else None, worst_bucket)


def _pick(pieces: list, j: int) -> Any:
    return pieces[j]
