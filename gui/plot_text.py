"""Each preview plot in words and numbers: the text alternative a screen reader reads.

A plot is a picture; a reader who cannot see it needs what it shows: a name, a sentence
with its point (the range, the extremes, what lies outside the band), and the numbers drawn,
as a table.  These functions read them from the release, as the plots of
:mod:`engine.report.plots` do, so that the words and the picture cannot disagree.

They run where the preview is computed (the engine process, :mod:`gui.previews`): no Qt
here.  The sentences are English templates marked for translation (context ``Plots``) with
their values kept as numbers; :func:`figure_text` translates them in the app and writes the
numbers in the reader's conventions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from engine import Release
    from gui.widgets import FigureText


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for translation (this module runs in the engine process: no Qt)."""
    return text


#: at most this many values of a category are listed in a before/after table
MAX_CATEGORIES = 50
#: a numeric before/after table has this many ranges of equal width
N_BINS = 20


@dataclass(frozen=True)
class Words:
    """An English template with ``{named}`` fields and their values (numbers kept as such)."""

    template: str
    values: dict[str, Any] = field(default_factory=dict)


def data(text: Any) -> Words:
    """A text that is data (a column's name, a bucket's label): shown as it is."""
    return Words("{text}", {"text": str(text)})


@dataclass
class PlotWords:
    """A plot's title and point in words, and its data with a heading per column."""

    title: Words
    point: list[Words]
    columns: list[Words]
    rows: list[tuple[Any, ...]]


def bucket_words(release: Release) -> PlotWords | None:
    """The confidential buckets: each one's label, records and share."""
    summary = release.summary
    if release.buckets is None or not summary.buckets:
        return None
    name = ", ".join(release.params.confidential)
    rows = [(_label(row.label, row.missing), row.count, row.share) for row in summary.buckets]
    # the buckets formed; the missing values' own bucket is counted apart, as the report does
    formed = [r for r, row in zip(rows, summary.buckets, strict=True) if not row.missing] or rows
    missing = len(formed) < len(rows)
    largest = max(formed, key=lambda r: r[1])
    smallest = min(formed, key=lambda r: r[1])
    facts = {"column": name, "b": len(formed)}
    return PlotWords(
        title=Words(
            QT_TRANSLATE_NOOP("Plots", "{column}: {b} buckets and one for missing values")
            if missing
            else QT_TRANSLATE_NOOP("Plots", "{column}: {b} buckets"),
            facts,
        ),
        point=[
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots",
                    "The values of {column} are grouped into {b} buckets of {smallest} to "
                    "{largest} records.",
                ),
                {**facts, "smallest": smallest[1], "largest": largest[1]},
            ),
            *(
                [
                    Words(
                        QT_TRANSLATE_NOOP(
                            "Plots",
                            "The missing values form a bucket of their own, with {count} records.",
                        ),
                        {"count": sum(r[1] for r in rows) - sum(r[1] for r in formed)},
                    )
                ]
                if missing
                else []
            ),
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots", "The largest bucket is {label}, with {count} records ({share})."
                ),
                {"label": largest[0], "count": largest[1], "share": Share(largest[2])},
            ),
        ],
        columns=[
            Words(QT_TRANSLATE_NOOP("Plots", "bucket")),
            Words(QT_TRANSLATE_NOOP("Plots", "records")),
            Words(QT_TRANSLATE_NOOP("Plots", "share")),
        ],
        rows=[(label, count, Share(share)) for label, count, share in rows],
    )


def class_size_words(release: Release) -> PlotWords | None:
    """How many classes have each size, and the k asked for."""
    sizes = np.asarray(release.verification.class_sizes, dtype=np.int64)
    sizes = sizes[sizes > 0]
    if sizes.size == 0:
        return None
    values, counts = np.unique(sizes, return_counts=True)
    commonest = int(values[np.argmax(counts)])
    return PlotWords(
        title=Words(
            QT_TRANSLATE_NOOP("Plots", "{n} classes, smallest {low}, largest {high}"),
            {"n": int(sizes.size), "low": int(sizes.min()), "high": int(sizes.max())},
        ),
        point=[
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots",
                    "How many classes hold each number of records: {n} classes of {low} to "
                    "{high} records; k asked is {k}.",
                ),
                {
                    "n": int(sizes.size),
                    "low": int(sizes.min()),
                    "high": int(sizes.max()),
                    "k": int(release.params.k),
                },
            ),
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots", "The commonest size is {size} records ({count} classes)."
                ),
                {"size": commonest, "count": int(counts.max())},
            ),
        ],
        columns=[
            Words(QT_TRANSLATE_NOOP("Plots", "records per class")),
            Words(QT_TRANSLATE_NOOP("Plots", "classes")),
        ],
        rows=[(int(v), int(c)) for v, c in zip(values, counts, strict=True)],
    )


def closeness_words(release: Release) -> PlotWords | None:
    """Per class and bucket, the bucket's share in the class over its share overall."""
    from engine.report.plots import bucket_labels, closeness_matrix

    t = release.params.bucket_t
    if release.buckets is None or t is None:
        return None
    ratio, sizes = closeness_matrix(release)
    if ratio.size == 0:
        return None
    low, high = 1.0 / t, t
    outside = (ratio < low * (1 - 1e-9)) | (ratio > high * (1 + 1e-9))
    labels = bucket_labels(release)
    point = [
        Words(
            QT_TRANSLATE_NOOP(
                "Plots",
                "For each of {classes} classes and {b} buckets: the bucket's share in the "
                "class divided by its share in the whole file. The ratios lie between {lowest} "
                "and {highest}; t allows {low} to {high}.",
            ),
            {
                "classes": int(ratio.shape[0]),
                "b": int(ratio.shape[1]),
                "lowest": float(np.nanmin(ratio)),
                "highest": float(np.nanmax(ratio)),
                "low": low,
                "high": high,
            },
        ),
        Words(QT_TRANSLATE_NOOP("Plots", "Every ratio is inside the band."))
        if not outside.any()
        else Words(
            QT_TRANSLATE_NOOP("Plots", "{cells} ratios are outside the band."),
            {"cells": int(outside.sum())},
        ),
    ]
    rows = [
        (i + 1, int(size), *(float(x) for x in ratio[i]))
        for i, size in enumerate(sizes.astype(np.int64))
    ]
    return PlotWords(
        title=Words(
            QT_TRANSLATE_NOOP("Plots", "Bucket share in each class ÷ share in the whole file")
        ),
        point=point,
        columns=[
            Words(QT_TRANSLATE_NOOP("Plots", "class")),
            Words(QT_TRANSLATE_NOOP("Plots", "records")),
            *(data(label) for label in labels),
        ],
        rows=rows,
    )


def before_after_words(release: Release, column: str) -> PlotWords | None:
    """One column before and after the release: counts per range or per value."""
    from engine.report.plots import inner_range  # the range the plot spans, the same

    if column not in release.data.columns or column not in release.table.columns:
        return None
    before, after = release.data[column], release.table[column]
    b = pd.to_numeric(before, errors="coerce")
    a = pd.to_numeric(after, errors="coerce")
    numeric = b.notna().sum() > 0 and b.notna().sum() == before.notna().sum()
    numeric = numeric and a.notna().sum() == after.notna().sum()
    title = Words(QT_TRANSLATE_NOOP("Plots", "{column}: before and after"), {"column": column})
    columns_before_after = [
        Words(QT_TRANSLATE_NOOP("Plots", "before")),
        Words(QT_TRANSLATE_NOOP("Plots", "after")),
    ]
    if numeric:
        bv, av = b.dropna().to_numpy(float), a.dropna().to_numpy(float)
        lo, hi = inner_range(bv)
        edges = np.linspace(lo, hi if hi > lo else lo + 1, N_BINS + 1)
        bc, _ = np.histogram(np.clip(bv, lo, hi), edges)
        ac, _ = np.histogram(np.clip(av, lo, hi), edges)
        point = [
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots",
                    "{column} before and after the release: mean {mean_before} → {mean_after}, "
                    "median {median_before} → {median_after}.",
                ),
                {
                    "column": column,
                    "mean_before": float(bv.mean()) if bv.size else None,
                    "mean_after": float(av.mean()) if av.size else None,
                    "median_before": float(np.median(bv)) if bv.size else None,
                    "median_after": float(np.median(av)) if av.size else None,
                },
            )
        ]
        rows = [
            (Range(float(edges[i]), float(edges[i + 1])), int(bc[i]), int(ac[i]))
            for i in range(N_BINS)
        ]
        heading = Words(QT_TRANSLATE_NOOP("Plots", "range"))
    else:
        bc = before.astype("string").fillna("(missing)").value_counts()
        ac = after.astype("string").fillna("(missing)").value_counts()
        values = list(dict.fromkeys([*bc.index, *ac.index]))
        shown = values[:MAX_CATEGORIES]
        top = ac.index[0] if len(ac) else ""
        point = [
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots",
                    "{column} before and after the release: {before} distinct values before, "
                    "{after} after; the commonest after is {top} ({count} records).",
                ),
                {
                    "column": column,
                    "before": len(bc),
                    "after": len(ac),
                    "top": str(top),
                    "count": int(ac.iloc[0]) if len(ac) else 0,
                },
            )
        ]
        if len(values) > len(shown):
            point.append(
                Words(
                    QT_TRANSLATE_NOOP("Plots", "The table lists the first {n} of {total} values."),
                    {"n": len(shown), "total": len(values)},
                )
            )
        rows = [(str(v), int(bc.get(v, 0)), int(ac.get(v, 0))) for v in shown]
        heading = Words(QT_TRANSLATE_NOOP("Plots", "value"))
    return PlotWords(title, point, [heading, *columns_before_after], rows)


#: the sweep's measures by name (engine.report.sweep), as the plot's axis names them
MEASURES = {
    "qi_sse_sst": QT_TRANSLATE_NOOP("Plots", "QI information loss (SSE/SST)"),
    "confidential_sse_sst": QT_TRANSLATE_NOOP("Plots", "confidential distortion (SSE/SST)"),
    "total_error": QT_TRANSLATE_NOOP("Plots", "relative error of the total"),
    "group_mean_error": QT_TRANSLATE_NOOP("Plots", "relative error of the group means"),
    "coefficient_error": QT_TRANSLATE_NOOP(
        "Plots", "relative error of the regression coefficients"
    ),
}


def sweep_words(table: pd.DataFrame, level: str, measure: str) -> PlotWords | None:
    """The privacy–utility sweep: the loss at every point, the best and the infeasible."""
    if table.empty:
        return None
    symbol = "ε" if level == "epsilon" else "t"
    feasible = table[table["feasible"].astype(bool)]
    ks = ", ".join(str(int(k)) for k in sorted(table["k"].unique()))
    measure_words = Words(MEASURES.get(measure, "{text}"), {"text": measure})
    point = [
        Words(
            QT_TRANSLATE_NOOP(
                "Plots",
                "{measure} against {symbol}, a curve for each k ({ks}): {points} points, "
                "{bad} of them infeasible.",
            ),
            {
                "measure": measure_words,
                "symbol": symbol,
                "ks": ks,
                "points": len(table),
                "bad": int(len(table) - len(feasible)),
            },
        )
    ]
    losses = pd.to_numeric(feasible[measure], errors="coerce")
    if losses.notna().any():
        best = feasible.loc[losses.idxmin()]
        point.append(
            Words(
                QT_TRANSLATE_NOOP(
                    "Plots", "The least loss, {loss}, is at {symbol} = {value} and k = {k}."
                ),
                {
                    "loss": float(losses.min()),
                    "symbol": symbol,
                    "value": float(best[level]),
                    "k": int(best["k"]),
                },
            )
        )
    rows = [
        (
            float(row[level]),
            int(row["k"]),
            Words(QT_TRANSLATE_NOOP("Plots", "yes"))
            if row["feasible"]
            else Words(QT_TRANSLATE_NOOP("Plots", "no")),
            float(row[measure]) if row["feasible"] else None,
        )
        for _, row in table.sort_values(["k", level]).iterrows()
    ]
    return PlotWords(
        title=Words(
            QT_TRANSLATE_NOOP("Plots", "Information loss against {symbol}"), {"symbol": symbol}
        ),
        point=point,
        columns=[
            data(symbol),
            data("k"),
            Words(QT_TRANSLATE_NOOP("Plots", "feasible")),
            measure_words,
        ],
        rows=rows,
    )


@contextmanager
def plot_fonts(font_px: float | None, dpi: float = 100.0) -> Iterator[None]:
    """Matplotlib's text at the window's text size (never smaller than its own default), so
    that a larger system font enlarges the plots' words too."""
    import matplotlib

    if font_px is None or font_px <= 0:
        yield
        return
    points = max(float(matplotlib.rcParams["font.size"]), font_px * 72.0 / dpi)
    with matplotlib.rc_context({"font.size": points}):
        yield


@dataclass(frozen=True)
class Share:
    """A share in [0, 1], shown as a percentage."""

    value: float


@dataclass(frozen=True)
class Range:
    """A range of values, shown "low – high"."""

    low: float
    high: float


def _label(label: str, missing: bool) -> str:
    return "(missing)" if missing and not str(label).strip() else str(label)


# --- in the app --------------------------------------------------------------------------


def render(words: Words) -> str:
    """``words`` in the app's language, its numbers in the reader's conventions."""
    from PySide6.QtCore import QCoreApplication

    template = QCoreApplication.translate("Plots", words.template)
    return template.format(**{k: _shown(v) for k, v in words.values.items()})


def _shown(value: Any) -> str:
    from gui.numbers import number, percent

    if isinstance(value, Words):
        return render(value)
    if isinstance(value, Share):
        return percent(value.value)
    if isinstance(value, Range):
        return f"{number(value.low)} – {number(value.high)}"
    if isinstance(value, bool) or value is None:
        return number(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return number(value)
    return str(value)


def figure_text(words: PlotWords | None) -> FigureText | None:
    """The :class:`~gui.widgets.FigureText` of a plot, in the app's language."""
    from gui.widgets import FigureText

    if words is None:
        return None
    table = pd.DataFrame(
        [[_cell(v) for v in row] for row in words.rows],
        columns=_unique([render(c) for c in words.columns]),
    )
    return FigureText(render(words.title), " ".join(render(p) for p in words.point), table)


def _cell(value: Any) -> Any:
    """A table cell: numbers stay numbers (the table shows them the reader's way)."""
    if isinstance(value, (Share, Range, Words)):
        return _shown(value)
    return value


def _unique(names: list[str]) -> list[str]:
    """Column headings made distinct (two buckets may read alike once shortened)."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out
