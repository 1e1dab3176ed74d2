"""Pictures of a release that a statistician can judge by eye.

Each function takes an :class:`~engine.release.model.release.Release` and returns a fresh matplotlib
:class:`~matplotlib.figure.Figure`.  No pyplot (no global figure registry, safe on any thread)
and no GUI toolkit: the desktop app embeds the figures in Qt canvases, the report saves them as
PNG.  Every number drawn is read from the release; nothing here decides anything about privacy.

Colours come from a :class:`Theme`.  Files (the report, exported figures) keep the default
:data:`LIGHT` theme, black on white, so that they print and read the same everywhere; the app
passes a theme made from its own palette (:func:`theme_for`), so that a preview in a dark
window is drawn light on dark.  :func:`apply_theme` recolours a finished figure (the app
calls it when the system switches between light and dark).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import LogNorm, to_rgb
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.ticker import MaxNLocator

from engine.i18n import _
from engine.release import Release, group_ids, inner_range
from engine.text import number

#: default size in inches (the GUI rescales to its widget; the report keeps this)
FIGSIZE = (6.4, 3.8)
#: categories beyond this many are folded into "other" in bar charts
MAX_BARS = 15
BEFORE_COLOUR = "#4c72b0"
AFTER_COLOUR = "#dd8452"


@dataclass(frozen=True)
class Theme:
    """The colours of a figure: its background and text, and the colours of what is drawn."""

    background: str = "white"
    #: text, axes, ticks and outlines
    foreground: str = "black"
    #: the original values (and single series)
    before: str = BEFORE_COLOUR
    #: the released values
    after: str = AFTER_COLOUR
    #: reference lines: bucket boundaries, the k asked for
    accent: str = "#c44e52"

    @property
    def dark(self) -> bool:
        """True when the background is darker than the text (a dark colour scheme)."""
        return _luminance(self.background) < _luminance(self.foreground)


#: black on white: the report, exported figures and every caller that names no theme
LIGHT = Theme()
#: the series colours on a dark background (lighter tints of the light ones, same hues)
_DARK_SERIES = {"before": "#7ea6e0", "after": "#f0a274", "accent": "#ff8a8e"}


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG 2) of a matplotlib colour."""
    channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def theme_for(background: str, foreground: str) -> Theme:
    """A theme on ``background`` with text in ``foreground`` (e.g. a window's palette colours).

    The series colours are the light theme's on a light background and lighter tints of the
    same hues on a dark one, so that bars and lines stay visible in either colour scheme.
    """
    theme = Theme(background=background, foreground=foreground)
    return replace(theme, **_DARK_SERIES) if theme.dark else theme


def apply_theme(fig: Figure, theme: Theme = LIGHT) -> Figure:
    """Give ``fig`` the theme's background and text colours (titles, labels, ticks, spines,
    legends, colour bars, annotations); the data colours are left as drawn."""
    fg, bg = theme.foreground, theme.background
    fig.set_facecolor(bg)
    for text in fig.texts:
        text.set_color(fg)
    for ax in fig.axes:
        ax.set_facecolor(bg)
        for spine in ax.spines.values():
            spine.set_edgecolor(fg)
        ax.tick_params(colors=fg, which="both")
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            text.set_color(fg)
        for text in ax.texts:
            text.set_color(fg)
        legend = ax.get_legend()
        if legend is not None:
            legend.get_frame().set_facecolor(bg)
            legend.get_frame().set_edgecolor(fg)
            for text in legend.get_texts():
                text.set_color(fg)
    return fig


def _figure(figsize: tuple[float, float] = FIGSIZE) -> Figure:
    return Figure(figsize=figsize, layout="constrained")


def _empty(fig: Figure, title: str, message: str, theme: Theme = LIGHT) -> Figure:
    ax = fig.add_subplot()
    ax.set_title(title)
    ax.text(0.5, 0.5, message, ha="center", va="center", wrap=True, transform=ax.transAxes)
    ax.set_axis_off()
    return apply_theme(fig, theme)


def _hatched(colour: str) -> dict[str, Any]:
    """Bars drawn with a hatch pattern in a darker (or lighter) shade of their colour."""
    r, g, b = to_rgb(colour)
    shade = (
        (r * 0.55, g * 0.55, b * 0.55)
        if _luminance(colour) > 0.3
        else (min(1.0, r + 0.4), min(1.0, g + 0.4), min(1.0, b + 0.4))
    )
    return {"hatch": "//", "edgecolor": shade, "linewidth": 0.0}


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


def bucket_histogram(release: Release, theme: Theme = LIGHT) -> Figure:
    """The confidential attribute's distribution with the bucket boundaries drawn on it.

    One numeric confidential column: a histogram of its values and a dashed line at every
    boundary between buckets.  Otherwise (categories, or several columns bucketed jointly):
    one bar per bucket with its count.
    """
    fig = _figure()
    buckets = release.buckets
    confidential = list(release.params.confidential)
    if buckets is None or len(buckets.counts) == 0:
        return _empty(
            fig, _("Confidential buckets"), _("This mechanism releases no buckets."), theme
        )
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
        ax.hist(values, bins=bins, color=theme.before, alpha=0.85)
        # the public cut points: where one bucket ends and the next begins (not the open ends
        # or the public bounds)
        cuts = sorted({b[1] for b in numeric_bounds} & {b[0] for b in numeric_bounds} - {None})
        for x in cuts:
            ax.axvline(x, color=theme.accent, linestyle="--", linewidth=1.2)
        ax.set_xlabel(name)
        ax.set_ylabel(_("records"))
        # the buckets formed, and the one of the missing values said apart (as the report
        # and the summary count them: "16 and one for missing values")
        missing = buckets.missing_bucket is not None
        if cuts:
            title = (
                _("{column}: {n} buckets and one for missing values (boundaries dashed)")
                if missing
                else _("{column}: {n} buckets (boundaries dashed)")
            )
        else:
            title = (
                _("{column}: {n} buckets and one for missing values")
                if missing
                else _("{column}: {n} buckets")
            )
        ax.set_title(title.format(column=name, n=number(len(buckets.counts) - missing)))
        if buckets.missing_bucket is not None:
            n_missing = int(buckets.counts[buckets.missing_bucket])
            ax.text(
                0.99,
                0.97,
                _("missing: {n} records (own bucket)").format(n=number(n_missing)),
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
        bars = ax.bar(positions, counts, color=theme.before)
        ax.bar_label(bars, labels=[number(int(c)) for c in counts], fontsize=8, padding=2)
        ax.set_xticks(
            positions, labels, rotation=30 if many else 0, ha="right" if many else "center"
        )
        ax.margins(y=0.1)
        ax.set_ylabel(_("records"))
        ax.set_title(_("{column}: {n} buckets").format(column=name, n=number(len(counts))))
    return apply_theme(fig, theme)


def class_size_histogram(release: Release, theme: Theme = LIGHT) -> Figure:
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
        return _empty(fig, _("Class sizes"), _("No classes."), theme)
    ax = fig.add_subplot()
    lo, hi = int(sizes.min()), int(sizes.max())
    k = int(release.params.k)
    if hi - lo <= 60:
        values, counts = np.unique(sizes, return_counts=True)
        bars = ax.bar(values, counts, width=0.8, color=theme.before)
        if len(values) <= 20:
            ax.bar_label(bars, labels=[number(int(c)) for c in counts], fontsize=8, padding=2)
        ax.set_xlim(min(lo, k) - 1, hi + 1)
    else:
        ax.hist(sizes, bins=40, color=theme.before)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.margins(y=0.1)
    ax.axvline(k - 0.5, color=theme.accent, linestyle="--", linewidth=1.2, label=f"k = {number(k)}")
    ax.set_xlabel(_("records per class"))
    ax.set_ylabel(_("classes"))
    ax.set_title(
        _("{n} classes, smallest {smallest}, largest {largest}").format(
            n=number(len(sizes)), smallest=number(lo), largest=number(hi)
        )
    )
    ax.legend(loc="upper right")
    return apply_theme(fig, theme)


def released_classes(release: Release) -> np.ndarray:
    """The class of every input record as a checker finds it in the released table.

    Classes whose released QI values coincide are one class there (the partition may have
    formed them apart), so this is what the verifier, the summary and the report count.
    """
    rows = release.source_rows
    if rows is None or not release.params.qi:
        return np.asarray(release.classes, dtype=np.int64)
    out = np.empty(len(rows), dtype=np.int64)
    out[np.asarray(rows, dtype=np.int64)] = group_ids(release.table, list(release.params.qi))
    return out


def closeness_matrix(release: Release) -> tuple[np.ndarray, np.ndarray]:
    """Per class and bucket, p_{E,j} / p_j; rows are the released classes, plus their sizes."""
    if release.buckets is None:
        raise ValueError("this release has no buckets")
    classes = released_classes(release)
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


def closeness_heatmap(release: Release, max_rows: int = 2000, theme: Theme = LIGHT) -> Figure:
    """Class × bucket heat map of each bucket's share in the class over its overall share.

    A t-close release keeps every cell inside [1/t, t] (the colour bar marks the band); cells
    outside are outlined.  Classes are sorted by the bucket they emphasise most, so the
    pattern of the construction (each class leaning towards its neighbours' buckets) shows.
    With more than ``max_rows`` classes an evenly spaced selection is drawn.
    """
    fig = _figure((6.4, 4.4))
    t = release.params.bucket_t
    if release.buckets is None or t is None:
        return _empty(fig, _("Closeness"), _("This mechanism releases no buckets."), theme)
    ratio, _shares = closeness_matrix(release)
    if ratio.size == 0:
        return _empty(fig, _("Closeness"), _("No classes."), theme)
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
    _mark_outside(ax, outside, theme)
    _bucket_ticks(ax, release)
    ax.set_ylabel(_("classes ({n})").format(n=number(n_classes)))
    ax.set_yticks([])
    ax.set_title(
        _("Bucket share in class ÷ overall share; band [1/t, t] = [{low}, {high}]").format(
            low=number(lo_band, 3), high=number(t, 3)
        )
    )
    _band_colorbar(fig, ax, image, (vmin, vmax), (lo_band, hi_band), theme)
    if n_outside == 0:
        verdict = _("every cell inside the band")
    else:
        verdict = _("{n} cells outside the band").format(n=number(n_outside))
    ax.set_xlabel(_("confidential bucket — {verdict}").format(verdict=verdict))
    return apply_theme(fig, theme)


def _mark_outside(ax: Axes, outside: np.ndarray, theme: Theme) -> None:
    """Cells outside the band, shown without relying on colour: outlined when the map has
    at most 200 rows, else counted above each bucket's column."""
    n_outside = int(outside.sum())
    if n_outside and outside.shape[0] <= 200:
        rows, cols = np.nonzero(outside)
        ax.scatter(cols, rows, marker="s", s=30, facecolors="none", edgecolors=theme.foreground)
    elif n_outside:
        # too many rows to outline a cell: each bucket's count of cells outside the band is
        # written above its column, so the map does not rely on colour alone
        per_bucket = outside.sum(axis=0)
        for j, count in enumerate(per_bucket):
            if count:
                ax.annotate(
                    f"{int(count):,} ✗",
                    (j, 0),
                    xytext=(0, 2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=8,
                    annotation_clip=False,
                )


def _bucket_ticks(ax: Axes, release: Release) -> None:
    """The buckets' labels under their columns: slanted and short when there are many."""
    assert release.buckets is not None
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


def _band_colorbar(
    fig: Figure,
    ax: Axes,
    image: AxesImage,
    limits: tuple[float, float],
    band: tuple[float, float],
    theme: Theme,
) -> None:
    """The colour bar of the ratios, with the band [1/t, t] drawn on it and ticked."""
    vmin, vmax = limits
    lo_band, hi_band = band
    bar = fig.colorbar(image, ax=ax)
    bar.ax.axhline(lo_band, color=theme.foreground, linewidth=1.5)
    bar.ax.axhline(hi_band, color=theme.foreground, linewidth=1.5)
    ticks = sorted({vmin, lo_band, 1.0, hi_band, vmax})
    bar.set_ticks(ticks, labels=[number(x, 3) for x in ticks])
    bar.ax.minorticks_off()
    bar.set_label(_("ratio (log scale)"))


def qi_before_after(release: Release, column: str, theme: Theme = LIGHT) -> Figure:
    """One quasi-identifier before and after recoding: overlaid histograms or paired bars."""
    fig = _figure()
    if column not in release.data.columns or column not in release.table.columns:
        return _empty(
            fig, column, _("{column} is not in this release.").format(column=column), theme
        )
    before, after = release.data[column], release.table[column]
    ax = fig.add_subplot()
    if _is_numeric(before) and _is_numeric(after):
        _numbers_before_after(ax, column, before, after, theme)
    else:
        _categories_before_after(ax, release, column, before, after, theme)
    ax.set_title(_("{column}: before and after").format(column=column))
    ax.legend()
    return apply_theme(fig, theme)


def _numbers_before_after(
    ax: Axes, column: str, before: pd.Series, after: pd.Series, theme: Theme
) -> None:
    """Overlaid histograms of a numeric QI before and after, on shared bins."""
    b = pd.to_numeric(before, errors="coerce").dropna().to_numpy(float)
    a = pd.to_numeric(after, errors="coerce").dropna().to_numpy(float)
    cut = 0
    if b.size:
        # the original values span their central 99 % (where an outlier lies is not
        # shown); the released ones their real range, however far noise took them
        lo, hi = inner_range(b)
        cut = int(((b < lo) | (b > hi)).sum())
        b = np.clip(b, lo, hi)
    both = np.concatenate([b, a]) if a.size + b.size else np.zeros(1)
    lo, hi = float(both.min()), float(both.max())
    edges = np.linspace(lo, hi if hi > lo else lo + 1, 41)
    ax.hist(b, bins=edges, color=theme.before, alpha=0.6, label=_("before"))
    # "after" is hatched as well as coloured: the two read apart without colour too
    ax.hist(a, bins=edges, color=theme.after, alpha=0.6, label=_("after"), **_hatched(theme.after))
    ax.set_ylabel(_("records"))
    ax.set_xlabel(
        column
        + (
            " "
            + _("({n} original value(s) beyond the central 99 % drawn at its edges)").format(
                n=number(cut)
            )
            if cut
            else ""
        )
    )


def _categories_before_after(
    ax: Axes, release: Release, column: str, before: pd.Series, after: pd.Series, theme: Theme
) -> None:
    """Paired bars of a category QI's counts before and after (and, for randomized response,
    what the release estimates once corrected), for its most frequent values."""
    b_counts = before.astype("string").fillna(_("(missing)")).value_counts()
    a_counts = after.astype("string").fillna(_("(missing)")).value_counts()
    cats = list(b_counts.index[:MAX_BARS])
    for c in a_counts.index:
        if len(cats) >= MAX_BARS:
            break
        if c not in cats:
            cats.append(c)
    positions = np.arange(len(cats))
    noise = getattr(release.summary, "noise", None)  # hand-built releases may lack one
    corrected = noise.corrected_shares.get(column) if noise is not None else None
    # every series after the first carries a pattern too: they read apart without colour
    series: list[tuple[list[float], str, str, dict[str, Any]]] = [
        ([b_counts.get(c, 0) for c in cats], theme.before, _("before"), {}),
        ([a_counts.get(c, 0) for c in cats], theme.after, _("after"), _hatched(theme.after)),
    ]
    if corrected is not None:  # randomized response: what the release estimates
        share = dict(zip(corrected.categories, corrected.estimate, strict=True))
        series.append(
            (
                [max(share.get(str(c), 0.0), 0.0) * corrected.n for c in cats],
                theme.accent,
                _("after, corrected for the random answers"),
                {**_hatched(theme.accent), "hatch": "..", "alpha": 0.6},
            )
        )
    width = 0.8 / len(series)
    for i, (heights, colour, label, style) in enumerate(series):
        ax.bar(
            positions + (i - (len(series) - 1) / 2) * width,
            heights,
            width,
            color=colour,
            label=label,
            **style,
        )
    ax.set_xticks(positions, [_short(c, 16) for c in cats], rotation=30, ha="right")
    ax.set_ylabel(_("records"))
    hidden = len(set(b_counts.index) | set(a_counts.index)) - len(cats)
    if hidden > 0:
        ax.set_xlabel(
            _("{column} ({n} more values not shown)").format(column=column, n=number(hidden))
        )
