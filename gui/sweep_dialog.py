"""The privacy–utility sweep dialog: try a grid of t (or ε) and k, see the cost, pick a point.

The sweep itself is :func:`engine.report.sweep.run_sweep`; this dialog only collects the grid, runs
the sweep in the engine's helper process (:mod:`gui.engine_process`, as the preview: the
window never waits for it; progress and Cancel in the dialog), shows each point as soon as it
is done (the table and the curves grow), draws the curves with
:func:`engine.report.sweep.sweep_figure`, and lets the user choose a point by clicking it in the
plot or in the table.  "Use this point" emits :attr:`SweepDialog.point_chosen` with
``("t" | "epsilon", value, k)`` and closes; the wizard adopts the parameters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal, Slot
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine import InputError, ReleaseParams, Task
from engine.report.sweep import main_measure, run_sweep, sweep_figure, sweep_grid, sweep_table
from gui.engine_process import Stream, run_engine
from gui.errors import report_error
from gui.numbers import exact, number, parse, parse_whole, reader_locale
from gui.plot_text import figure_text, plot_fonts, sweep_words
from gui.table_model import muted_brush
from gui.widgets import FigureView, Hint, ProgressPanel
from gui.worker import TaskRunner

DEFAULT_T = (1.5, 2.0, 3.0, 5.0, 10.0)
DEFAULT_EPSILON = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0)
DEFAULT_K = (5, 10, 25)

translate = QCoreApplication.translate

_HEADERS = (
    "t",
    "ε",
    "k",
    QT_TRANSLATE_NOOP("SweepDialog", "feasible"),
    QT_TRANSLATE_NOOP("SweepDialog", "QI loss"),
    QT_TRANSLATE_NOOP("SweepDialog", "confidential loss"),
    QT_TRANSLATE_NOOP("SweepDialog", "achieved t"),
    QT_TRANSLATE_NOOP("SweepDialog", "classes"),
    QT_TRANSLATE_NOOP("SweepDialog", "note"),
)


def _separators() -> re.Pattern[str]:
    """Where one number of a list ends: a semicolon or a space, and a comma unless it is the
    reader's decimal mark (then only a comma followed by a space)."""
    if reader_locale().decimalPoint() == ",":
        return re.compile(r";|\s+|,(?=\s)")
    return re.compile(r"[;,\s]+")


def format_numbers(values: Sequence[float]) -> str:
    """``values`` as a list the reader types: "1.5, 2, 3" or "1,5; 2; 3"."""
    separator = "; " if reader_locale().decimalPoint() == "," else ", "
    return separator.join(exact(v) for v in values)


def parse_numbers(text: str, what: str, kind: type = float) -> list:
    """``"1.5, 2;3"`` → [1.5, 2.0, 3.0] (``"1,5; 2; 3"`` for a reader of decimal commas); an
    InputError names the field otherwise."""
    parts = [p.strip(",") for p in _separators().split(text) if p and p.strip(",")]
    try:
        values = [parse_whole(p) if kind is int else kind(parse(p)) for p in parts]
    except ValueError as err:
        message = translate(
            "SweepDialog", "{what}: type numbers separated by commas, e.g. 2, 3, 5."
        )
        raise InputError(message.format(what=what)) from err
    if not values:
        message = translate("SweepDialog", "{what}: type at least one number.")
        raise InputError(message.format(what=what))
    return values


def _cell(value: object) -> str:
    if isinstance(value, bool | np.bool_):
        return translate("SweepDialog", "yes") if value else translate("SweepDialog", "no")
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "—"
    if isinstance(value, float):
        return number(value, 4)
    return str(value)


class SweepDialog(QDialog):
    """Run a sweep for ``data`` with ``params`` (all but the privacy level and k), pick a point."""

    #: ("t" or "epsilon", value, k) of the point the user chose
    point_chosen = Signal(str, float, int)
    #: a point of the running sweep is done (its row; emitted from the worker thread)
    point_done = Signal(object)

    def __init__(
        self,
        data: pd.DataFrame,
        params: ReleaseParams,
        parent: QWidget | None = None,
        *,
        use_epsilon: bool | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Privacy–utility sweep"))
        self.resize(900, 680)
        self.data = data
        self.params = params
        if use_epsilon is None:
            use_epsilon = params.epsilon is not None or params.noise
        self.level = "epsilon" if use_epsilon else "t"
        self.measure = main_measure(params)
        self.table: pd.DataFrame | None = None
        self.chosen: tuple[str, float, int] | None = None
        self.runner = TaskRunner(self, delay_ms=0)
        #: the rows of the running sweep done so far, and how many points it has
        self._rows: list[dict] = []
        self._points = 0
        self.point_done.connect(self._point_done)

        symbol = "ε" if use_epsilon else "t"
        self.levels_edit = QLineEdit(format_numbers(DEFAULT_EPSILON if use_epsilon else DEFAULT_T))
        self.levels_edit.setToolTip(
            self.tr("The {symbol} values to try, separated by commas").format(symbol=symbol)
        )
        self.k_edit = QLineEdit(format_numbers(DEFAULT_K))
        self.k_edit.setToolTip(self.tr("The k values to try (one curve each), separated by commas"))
        self.run_button = QPushButton(self.tr("Run sweep"))
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.start)
        form = QFormLayout()
        form.addRow(self.tr("{symbol} values:").format(symbol=symbol), self.levels_edit)
        form.addRow(self.tr("k values:"), self.k_edit)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addWidget(self.run_button, 0, Qt.AlignmentFlag.AlignBottom)

        self.progress = ProgressPanel(self.runner, self)
        self.hint = Hint(
            self.tr(
                "Every point is a full anonymization run, so a large grid on a large file takes "
                "a while. Lower curves lose less information; points further left protect "
                "more. Click a point in the plot or a row in the table, then “Use this point”."
            )
        )
        self.figure_view = FigureView(self, placeholder=self.tr("Run the sweep to see the curves."))
        self.results = QTableWidget(0, len(_HEADERS), self)
        self.results.setAccessibleName(self.tr("Points of the sweep"))
        self.results.setHorizontalHeaderLabels([self.tr(h) for h in _HEADERS])
        self.results.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results.verticalHeader().setVisible(False)
        self.results.itemSelectionChanged.connect(self._row_selected)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.figure_view)
        split.addWidget(self.results)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        self.status = QLabel("")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Close
        )
        self.use_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.use_button.setText(self.tr("Use this point"))
        self.use_button.setEnabled(False)
        self.buttons.accepted.connect(self._use)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.hint)
        layout.addWidget(self.progress)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.runner.busy_changed.connect(self._busy)

    # --- running ---------------------------------------------------------------------------
    def grid(self) -> tuple[list[float], list[int]]:
        """The levels and ks typed in (InputError with a clear message when they are not)."""
        symbol = "ε" if self.level == "epsilon" else "t"
        levels = parse_numbers(
            self.levels_edit.text(), self.tr("{symbol} values").format(symbol=symbol)
        )
        ks = parse_numbers(self.k_edit.text(), self.tr("k values"), int)
        if self.level == "t":
            sweep_grid(ts=levels, ks=ks)
        else:
            sweep_grid(epsilons=levels, ks=ks)
        return levels, ks

    def start(self) -> None:
        """Start the sweep on the worker thread (ignored while one runs)."""
        if self.runner.busy:
            return
        try:
            levels, ks = self.grid()
        except InputError as err:
            report_error(self, self.tr("Sweep"), err)
            return
        data, params, level = self.data, self.params, self.level
        kwargs = {"ts": levels} if level == "t" else {"epsilons": levels}
        stream = Stream(self.point_done.emit)  # each row, back on the GUI thread

        def work(task: Task) -> pd.DataFrame:
            return run_engine(run_sweep, data, params, ks=ks, task=task, on_point=stream, **kwargs)

        self._rows = []
        self._points = len(levels) * len(set(ks))
        self.status.setText("")
        title = self.tr("Sweep")
        self.runner.start(
            work,
            title=title,
            on_finished=self._finished,
            on_failed=lambda err, detail: report_error(self, title, err, detail),
            on_cancelled=self._cancelled,
        )

    def cancel(self) -> None:
        self.runner.cancel()

    def _busy(self, busy: bool) -> None:
        self.run_button.setEnabled(not busy)
        self.levels_edit.setEnabled(not busy)
        self.k_edit.setEnabled(not busy)

    @Slot(object)
    def _point_done(self, row: dict) -> None:
        """A point is done: the table and the curves show the points so far."""
        if not self.runner.busy:
            return  # a point of a sweep cancelled meanwhile
        self._rows.append(row)
        table = sweep_table(self._rows, self.level, self.measure)
        self.table = table
        self._fill_table(table)
        self._draw()
        self.status.setText(
            self.tr("{done} of {points} points done…").format(
                done=number(len(self._rows)), points=number(self._points)
            )
        )

    def _cancelled(self) -> None:
        done = len(self._rows)
        self.status.setText(
            self.tr("Sweep cancelled after {done} of {points} points; those are shown.").format(
                done=number(done), points=number(self._points)
            )
            if done
            else self.tr("Sweep cancelled.")
        )

    def _finished(self, table: pd.DataFrame) -> None:
        self.table = table
        self.chosen = None
        self.use_button.setEnabled(False)
        self._fill_table(table)
        self._draw()
        n_bad = int((~table["feasible"]).sum())
        self.status.setText(
            self.tr("{points} points, {bad} infeasible (crosses on the axis).").format(
                points=number(len(table)), bad=number(n_bad)
            )
            if n_bad
            else self.tr("{points} points, all feasible.").format(points=number(len(table)))
        )

    # --- showing and picking -----------------------------------------------------------------
    def _fill_table(self, table: pd.DataFrame) -> None:
        self.results.blockSignals(True)
        self.results.setRowCount(len(table))
        cols = (
            "t",
            "epsilon",
            "k",
            "feasible",
            "qi_sse_sst",
            "confidential_sse_sst",
            "achieved_t",
            "n_classes",
        )
        for r, (_, row) in enumerate(table.iterrows()):
            if not row["feasible"]:
                note = str(row["message"])
            elif bool(row.get("dominated", False)):
                note = self.tr("a point with more privacy loses less")
            else:
                note = ""
            for c, name in enumerate((*cols, "note")):
                item = QTableWidgetItem(note if name == "note" else _cell(row[name]))
                if not row["feasible"]:
                    item.setForeground(muted_brush())
                    item.setToolTip(str(row["message"]))
                self.results.setItem(r, c, item)
        self.results.resizeColumnsToContents()
        self.results.blockSignals(False)

    def _draw(self) -> None:
        if self.table is None:
            return
        highlight = (self.chosen[1], self.chosen[2]) if self.chosen else None
        with plot_fonts(QFontInfo(self.font()).pixelSize()):
            fig = sweep_figure(
                self.table, level=self.level, measure=self.measure, highlight=highlight
            )
        words = sweep_words(self.table, self.level, self.measure)
        self.figure_view.set_figure(fig, figure_text(words))
        if self.figure_view.canvas is not None:
            self.figure_view.canvas.mpl_connect("button_press_event", self._clicked)

    def select(self, value: float, k: int) -> bool:
        """Choose the feasible point (value, k); False when the sweep has no such point."""
        if self.table is None:
            return False
        t = self.table
        hits = np.flatnonzero(
            np.isclose(t[self.level].to_numpy(float), value)
            & (t["k"].to_numpy() == k)
            & t["feasible"].to_numpy(bool)
        )
        if not len(hits):
            return False
        row = int(hits[0])
        self.chosen = (self.level, float(t[self.level].iloc[row]), int(k))
        self.use_button.setEnabled(True)
        self.results.blockSignals(True)
        self.results.selectRow(row)
        self.results.blockSignals(False)
        symbol = "ε" if self.level == "epsilon" else "t"
        loss = t[self.measure].iloc[row]
        self.status.setText(
            self.tr("Chosen: {symbol} = {value}, k = {k} (loss {loss}).").format(
                symbol=symbol, value=number(self.chosen[1]), k=number(k), loss=number(loss, 3)
            )
        )
        self._draw()
        return True

    def _row_selected(self) -> None:
        rows = self.results.selectionModel().selectedRows()
        if self.table is None or not rows:
            return
        row = self.table.iloc[rows[0].row()]
        if not row["feasible"]:
            self.status.setText(self.tr("Infeasible: {message}").format(message=row["message"]))
            self.use_button.setEnabled(False)
            return
        self.select(float(row[self.level]), int(row["k"]))

    def _clicked(self, event) -> None:
        """Pick the feasible point nearest the click (in screen distance)."""
        if self.table is None or event.inaxes is None or event.x is None:
            return
        ok = self.table[self.table["feasible"]]
        if ok.empty:
            return
        ax = event.inaxes
        xy = ax.transData.transform(np.column_stack([ok[self.level], ok[self.measure]]))
        nearest = int(np.argmin(np.hypot(xy[:, 0] - event.x, xy[:, 1] - event.y)))
        self.select(float(ok[self.level].iloc[nearest]), int(ok["k"].iloc[nearest]))

    def _use(self) -> None:
        if self.chosen is None:
            return
        level, value, k = self.chosen
        self.point_chosen.emit(level, value, k)
        self.accept()

    def reject(self) -> None:
        """Closing cancels a running sweep first (the worker stops at its next checkpoint)."""
        if self.runner.busy:
            self.runner.cancel()
            self.runner.wait(10000)
        super().reject()
