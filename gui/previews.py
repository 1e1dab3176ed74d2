"""Computing a preview: the release and its figures, in one call that needs no Qt.

The wizard runs :func:`build_preview` in its engine process (see :mod:`gui.engine_process`),
so everything here must be importable without a display and its result must pickle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure

from engine import Plan, Release, ReleaseParams
from engine.progress import NO_TASK, Task
from engine.report import plots
from engine.report.risk import comparison_rows, release_risk
from gui.plot_text import (
    PlotWords,
    before_after_words,
    bucket_words,
    class_size_words,
    closeness_words,
    plot_fonts,
)


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark a progress message for translation (this module runs in the engine process, which
    loads no Qt; the progress panel translates the message when it shows it)."""
    return text


DRAWING = QT_TRANSLATE_NOOP("Progress", "Drawing the previews")
DONE = QT_TRANSLATE_NOOP("Progress", "Done")


@dataclass
class Preview:
    """A release and its figures, all built away from the GUI thread."""

    release: Release
    figures: dict[str, Figure] = field(default_factory=dict)
    before_after: dict[str, Figure] = field(default_factory=dict)
    #: disclosure risk of the original records and of the release: (measure, before, after)
    risk: list[tuple[str, str, str]] = field(default_factory=list)
    #: the plan the release was made from (why the classes came out as they did)
    plan: Plan | None = None
    #: each figure (and each before/after figure) in words and numbers, by the same names
    texts: dict[str, PlotWords] = field(default_factory=dict)
    before_after_texts: dict[str, PlotWords] = field(default_factory=dict)


def settle(figure: Figure, size_px: tuple[int, int] | None) -> Figure:
    """Lay the figure out now, at the size it will be shown, and freeze that layout.

    Constrained layout costs a few hundred milliseconds per draw; done here, away from the
    GUI thread, the window only has to paint.
    """
    if size_px is not None and size_px[0] > 100 and size_px[1] > 100:
        figure.set_size_inches(size_px[0] / figure.dpi, size_px[1] / figure.dpi)
    figure.draw_without_rendering()
    figure.set_layout_engine("none")
    return figure


def _keep(texts: dict[str, PlotWords], name: str, words: PlotWords | None) -> None:
    if words is not None:
        texts[name] = words


def build_preview(
    data: pd.DataFrame,
    params: ReleaseParams,
    task: Task = NO_TASK,
    size_px: tuple[int, int] | None = None,
    theme: plots.Theme = plots.LIGHT,
    font_px: float | None = None,
) -> Preview:
    """Anonymize and draw (figures without pyplot are safe on any thread or process).

    ``theme`` gives the figures the colours of the window they are shown in; ``font_px``
    (the window's text size in pixels) makes their text as large as the window's, so that
    a larger system font enlarges the plots' words too.
    """
    from engine import anonymize, plan

    planned = plan(data, params, task=task.sub(0.0, 0.05))
    release = anonymize(data, params, plan=planned, task=task.sub(0.05, 0.9))
    risk = release_risk(release)
    preview = Preview(release, risk=comparison_rows(risk["before"], risk["after"]), plan=planned)
    builders = {
        "buckets": lambda r: plots.bucket_histogram(r, theme=theme),
        "class_sizes": lambda r: plots.class_size_histogram(r, theme=theme),
        "closeness": lambda r: plots.closeness_heatmap(r, theme=theme),
    }
    words = {"buckets": bucket_words, "class_sizes": class_size_words, "closeness": closeness_words}
    if release.buckets is None and params.confidential:  # noise: show the values themselves
        first = params.confidential[0]
        builders["buckets"] = lambda r: plots.qi_before_after(r, first, theme=theme)
        words["buckets"] = lambda r: before_after_words(r, first)
    with plot_fonts(font_px):
        for i, (name, build) in enumerate(builders.items()):
            task.step(0.9 + 0.02 * i, DRAWING)
            preview.figures[name] = settle(build(release), size_px)
            _keep(preview.texts, name, words[name](release))
        for column in params.qi:
            task.step(0.96, DRAWING)
            ba_size = None if size_px is None else (size_px[0], size_px[1] - 40)
            figure = plots.qi_before_after(release, column, theme=theme)
            preview.before_after[column] = settle(figure, ba_size)
            _keep(preview.before_after_texts, column, before_after_words(release, column))
    task.step(1.0, DONE)
    return preview
