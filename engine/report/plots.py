"""Pictures of a release that a statistician can judge by eye.

Each function takes an :class:`~engine.release.result.Release` and returns a fresh matplotlib
:class:`~matplotlib.figure.Figure`.  No pyplot (no global figure registry, safe on any thread)
and no GUI toolkit: the desktop app embeds the figures in Qt canvases, the report saves them as
PNG.  Every number drawn is read from the release; nothing here decides anything about privacy.
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from engine.release.cuts import inner_range
from engine.release.result import Release

#: default size in inches (the GUI rescales to its widget; the report keeps this)
FIGSIZE = (6.4, 3.8)
#: categories beyond this many are folded into "other" in bar charts
MAX_BARS = 15
BEFORE_COLOUR = "#4c72b0"
AFTER_COLOUR = "#dd8452"


def _figure(figsize: tuple[float, float] = FIGSIZE) -> Figure:
    return Figure(figsize=figsize, layout="constrained")


def _empty(fig: Figure, title: str, message: str) -> Figure:
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.text(0.5, 0.5, message, ha="center", va="center", wrap=True, transform=ax.transAxes)
    ax.set_axis_off()
    return fig


def _short(label: Any, width: int = 22) -> str:
    text = str(label)
    return text if len(text) <= width else text[: width - 1] + "…"


def _wrapped(label: Any, width: int = 18, lines: int = 4) -> str:
    """A long bucket label on up to ``lines`` lines (category sets can be long)."""
    parts = textwrap.wrap(str(label), width) or [""]
    if len(parts) > lines:
        parts = [*parts[: lines - 1], _short(" ".join(parts[lines - 1 :]), width)]
    return "\n".join(parts)


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _central(values: np.ndarray) -> np.ndarray:
    """Values clipped to their central 99 %: a histogram in a published report must not show
    where the outliers lie (its axis would end at the largest value); they count in the end
    bins."""
    if values.size == 0:
        return values
    return np.clip(values, *inner_range(values))


def bucket_labels(release: Release) -> list[str]:
    """The released text of every bucket; the missing-value bucket reads "(missing)"."""
    if release.buckets is None:
        return []
    labels = [str(label) for label in release.buckets.labels]
    missing = release.buckets.missing_bucket
    if missing is not None and 0 <= missing < len(labels) and not labels[missing].strip():
        labels[missing] = "(missing)"
    return labels


def bucket_histogram(release: Release) -> Figure:
    """The confidential attribute's distribution with the bucket boundaries drawn on it.

    One numeric confidential column: a histogram of its values and a dashed line at every
    boundary between buckets.  Otherwise (categories, or several columns bucketed jointly):
    one bar per bucket with its count.
    """
    fig = _figure()
    buckets = release.buckets
    confidential = list(release.params.confidential)
    if buckets is None or len(buckets.counts) == 0:
        return _empty(fig, "Confidential buckets", "This mechanism releases no buckets.")
    ax = fig.add_subplot()
    name = ", ".join(confidential)
    column = release.data[confidential[0]] if len(confidential) == 1 else None
    numeric_bounds = [
        b
        for i, b in enumerate(buckets.bounds)
        if i != buckets.missing_bucket and isinstance(b, tuple) and len(b) == 2
    ]
    if column is not None and _is_numeric(column) and numeric_bounds:
        values = _central(pd.to_numeric(column, errors="coerce").dropna().to_numpy(float))
        bins = min(60, max(10, int(math.sqrt(len(values)))))
        ax.hist(values, bins=bins, color=BEFORE_COLOUR, alpha=0.85)
        # the public cut points: where one bucket ends and the next begins (not the open ends
        # or the public bounds)
        cuts = sorted({b[1] for b in numeric_bounds} & {b[0] for b in numeric_bounds} - {None})
        for x in cuts:
            ax.axvline(x, color="#c44e52", linestyle="--", linewidth=1.2)
        ax.set_xlabel(name)
        ax.set_ylabel("records")
        ax.set_title(
            f"{name}: {len(buckets.counts)} buckets" + (" (boundaries dashed)" if cuts else "")
        )
        if buckets.missing_bucket is not None:
            n_missing = int(buckets.counts[buckets.missing_bucket])
            ax.text(
                0.99,
                0.97,
                f"missing: {n_missing:,} records (own bucket)",
                ha="right",
                va="top",
                transform=ax.transAxes,
                fontsize=8,
            )
    else:
        counts = np.asarray(buckets.counts)
        many = len(counts) > 4
        labels = [_short(label) if many else _wrapped(label) for label in bucket_labels(release)]
        positions = np.arange(len(counts))
        bars = ax.bar(positions, counts, color=BEFORE_COLOUR)
        ax.bar_label(bars, labels=[f"{int(c):,}" for c in counts], fontsize=8, padding=2)
        ax.set_xticks(
            positions, labels, rotation=30 if many else 0, ha="right" if many else "center"
        )
        ax.margins(y=0.1)
        ax.set_ylabel("records")
        ax.set_title(f"{name}: {len(counts)} buckets")
    return fig


def class_size_histogram(release: Release) -> Figure:
    """How many equivalence classes have each size, with the requested k marked.

    The classes are those of the released table as the verifier counted them (groups that
    share their released quasi-identifier values), so the figure matches the achieved k.
    """
    fig = _figure()
    sizes = np.asarray(release.verification.class_sizes, dtype=np.int64)
    if sizes.size == 0:
        sizes = np.bincount(np.asarray(release.classes, dtype=np.int64))
    sizes = sizes[sizes > 0]
    if sizes.size == 0:
        return _empty(fig, "Class sizes", "No classes.")
    ax = fig.add_subplot()
    lo, hi = int(sizes.min()), int(sizes.max())
    k = int(release.params.k)
    if hi - lo <= 60:
        values, counts = np.unique(sizes, return_counts=True)
        bars = ax.bar(values, counts, width=0.8, color=BEFORE_COLOUR)
        if len(values) <= 20:
            ax.bar_label(bars, labels=[f"{c:,}" for c in counts], fontsize=8, padding=2)
        ax.set_xlim(min(lo, k) - 1, hi + 1)
    else:
        ax.hist(sizes, bins=40, color=BEFORE_COLOUR)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.margins(y=0.1)
    ax.axvline(k - 0.5, color="#c44e52", linestyle="--", linewidth=1.2, label=f"k = {k}")
    ax.set_xlabel("records per class")
    ax.set_ylabel("classes")
    ax.set_title(f"{len(sizes):,} classes, smallest {lo}, largest {hi}")
    ax.legend(loc="upper right")
    return fig


def closeness_matrix(release: Release) -> tuple[np.ndarray, np.ndarray]:
    """Per class and bucket, p_{E,j} / p_j; rows are classes, plus the class sizes."""
    if release.buckets is None:
        raise ValueError("this release has no buckets")
    classes = np.asarray(release.classes, dtype=np.int64)
    codes = np.asarray(release.buckets.codes, dtype=np.int64)
    n_classes = int(classes.max()) + 1 if classes.size else 0
    n_buckets = len(release.buckets.counts)
    table = np.zeros((n_classes, n_buckets))
    np.add.at(table, (classes, codes), 1.0)
    sizes = table.sum(axis=1)
    keep = sizes > 0
    table, sizes = table[keep], sizes[keep]
    shares = np.asarray(release.buckets.shares, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (table / sizes[:, None]) / shares[None, :]
    return ratio, sizes


def closeness_heatmap(release: Release, max_rows: int = 2000) -> Figure:
    """Class × bucket heat map of each bucket's share in the class over its overall share.

    A t-close release keeps every cell inside [1/t, t] (the colour bar marks the band); cells
    outside are outlined.  Classes are sorted by the bucket they emphasise most, so the
    pattern of the construction (each class leaning towards its neighbours' buckets) shows.
    With more than ``max_rows`` classes an evenly spaced selection is drawn.
    """
    fig = _figure((6.4, 4.4))
    t = release.params.bucket_t
    if release.buckets is None or t is None:
        return _empty(fig, "Closeness", "This mechanism releases no buckets.")
    ratio, _ = closeness_matrix(release)
    if ratio.size == 0:
        return _empty(fig, "Closeness", "No classes.")
    order = np.lexsort((-ratio.max(axis=1), ratio.argmax(axis=1)))
    ratio = ratio[order]
    n_classes = ratio.shape[0]
    if n_classes > max_rows:
        ratio = ratio[np.linspace(0, n_classes - 1, max_rows).astype(int)]
    lo_band, hi_band = 1.0 / t, t
    shown = np.clip(ratio, 1e-3, None)
    vmin = min(lo_band / 1.5, float(np.nanmin(shown)))
    vmax = max(hi_band * 1.5, float(np.nanmax(shown)))
    ax = fig.add_subplot()
    image = ax.imshow(
        shown,
        aspect="auto",
        interpolation="nearest",
        cmap="RdBu_r",
        norm=LogNorm(vmin=vmin, vmax=vmax),
    )
    outside = (ratio < lo_band * (1 - 1e-9)) | (ratio > hi_band * (1 + 1e-9))
    n_outside = int(outside.sum())
    if n_outside and ratio.shape[0] <= 200:
        rows, cols = np.nonzero(outside)
        ax.scatter(cols, rows, marker="s", s=30, facecolors="none", edgecolors="black")
    many = len(release.buckets.counts) > 4
    labels = [
        _short(label, 14) if many else _wrapped(label, 16) for label in bucket_labels(release)
    ]
    ax.set_xticks(
        np.arange(len(labels)),
        labels,
        rotation=30 if many else 0,
        ha="right" if many else "center",
    )
    ax.set_ylabel(f"groups formed ({n_classes:,})")
    ax.set_yticks([])
    ax.set_title(f"Bucket share in class ÷ overall share; band [1/t, t] = [{lo_band:.3g}, {t:.3g}]")
    bar = fig.colorbar(image, ax=ax)
    bar.ax.axhline(lo_band, color="black", linewidth=1.5)
    bar.ax.axhline(hi_band, color="black", linewidth=1.5)
    ticks = sorted({vmin, lo_band, 1.0, hi_band, vmax})
    bar.set_ticks(ticks, labels=[f"{x:.3g}" for x in ticks])
    bar.ax.minorticks_off()
    bar.set_label("ratio (log scale)")
    verdict = (
        "every cell inside the band" if n_outside == 0 else f"{n_outside:,} cells outside the band"
    )
    ax.set_xlabel(f"confidential bucket — {verdict}")
    return fig


def qi_before_after(release: Release, column: str) -> Figure:
    """One quasi-identifier before and after recoding: overlaid histograms or paired bars."""
    fig = _figure()
    if column not in release.data.columns or column not in release.table.columns:
        return _empty(fig, column, f"{column} is not in this release.")
    before, after = release.data[column], release.table[column]
    ax = fig.add_subplot()
    if _is_numeric(before) and _is_numeric(after):
        b = pd.to_numeric(before, errors="coerce").dropna().to_numpy(float)
        a = pd.to_numeric(after, errors="coerce").dropna().to_numpy(float)
        if b.size:  # the axis spans the central 99 % of the original values, not its extremes
            lo, hi = inner_range(b)
            b, a = np.clip(b, lo, hi), np.clip(a, lo, hi)
        both = np.concatenate([b, a]) if a.size + b.size else np.zeros(1)
        lo, hi = float(both.min()), float(both.max())
        edges = np.linspace(lo, hi if hi > lo else lo + 1, 41)
        ax.hist(b, bins=edges, color=BEFORE_COLOUR, alpha=0.6, label="before")
        ax.hist(a, bins=edges, color=AFTER_COLOUR, alpha=0.6, label="after")
        ax.set_ylabel("records")
        ax.set_xlabel(column)
    else:
        b_counts = before.astype("string").fillna("(missing)").value_counts()
        a_counts = after.astype("string").fillna("(missing)").value_counts()
        cats = list(b_counts.index[:MAX_BARS])
        for c in a_counts.index:
            if len(cats) >= MAX_BARS:
                break
            if c not in cats:
                cats.append(c)
        positions = np.arange(len(cats))
        width = 0.4
        ax.bar(
            positions - width / 2,
            [b_counts.get(c, 0) for c in cats],
            width,
            color=BEFORE_COLOUR,
            label="before",
        )
        ax.bar(
            positions + width / 2,
            [a_counts.get(c, 0) for c in cats],
            width,
            color=AFTER_COLOUR,
            label="after",
        )
        ax.set_xticks(positions, [_short(c, 16) for c in cats], rotation=30, ha="right")
        ax.set_ylabel("records")
        hidden = len(set(b_counts.index) | set(a_counts.index)) - len(cats)
        if hidden > 0:
            ax.set_xlabel(f"{column} ({hidden} more values not shown)")
    ax.set_title(f"{column}: before and after")
    ax.legend()
    return fig
