"""Step 4: compute the release in the background and show what it looks like."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from engine.errors import InfeasibleError, TcloseError
from engine.release.result import Release
from engine.report import plots
from gui.engine_process import run_engine
from gui.errors import report_error
from gui.previews import Preview, build_preview
from gui.table_model import DataFrameModel
from gui.widgets import FigureView, Hint

if TYPE_CHECKING:
    from gui.wizard import TcloseWizard

#: released rows shown in the preview table (the export writes all of them)
PREVIEW_ROWS = 1000


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if math.isinf(value):
            return "∞"
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    return html.escape(str(value))


class PreviewPage(QWizardPage):
    """Figures, achieved guarantees, information loss and released rows; k and b to retry."""

    def __init__(self, wizard: TcloseWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.preview: Preview | None = None
        self.setTitle("4. Preview")
        self.setSubTitle(
            "The release is computed on your computer and checked by an independent verifier. "
            "Change k or the number of buckets and run again until the balance suits you."
        )
        self.k = QSpinBox()
        self.k.setRange(1, 1_000_000)
        self.k.setToolTip("Smallest group size k")
        self.n_buckets = QSpinBox()
        self.n_buckets.setRange(0, 1000)  # 0 shows as "automatic"
        self.n_buckets.setSpecialValueText("automatic")
        self.n_buckets.setToolTip(
            "How many buckets the confidential values are grouped into; 'automatic' uses the "
            "best number for t (t + 1). More buckets keep more detail but are harder to balance."
        )
        self.rerun = QPushButton("&Run again")
        self.rerun.setToolTip("Compute the release again with these settings")
        self.rerun.clicked.connect(self.run)
        self.status = Hint()
        controls = QHBoxLayout()
        controls.addWidget(QLabel("&k:"))
        controls.itemAt(0).widget().setBuddy(self.k)
        controls.addWidget(self.k)
        buckets_label = QLabel("&Buckets:")
        buckets_label.setBuddy(self.n_buckets)
        controls.addWidget(buckets_label)
        controls.addWidget(self.n_buckets)
        controls.addWidget(self.rerun)
        controls.addWidget(self.status, 1)

        self.summary = QTextBrowser()
        self.summary.setToolTip("What the release achieves, as measured by the verifier")
        self.summary.setMinimumWidth(240)
        self.tabs = QTabWidget()
        self.views: dict[str, FigureView] = {
            "buckets": FigureView(placeholder="The bucket histogram appears here."),
            "class_sizes": FigureView(placeholder="The class sizes appear here."),
            "closeness": FigureView(placeholder="The closeness heat map appears here."),
        }
        self.tabs.addTab(self.views["buckets"], "Confidential buckets")
        self.tabs.setTabToolTip(0, "The confidential values with the bucket boundaries")
        self.tabs.addTab(self.views["class_sizes"], "Class sizes")
        self.tabs.setTabToolTip(1, "How many records each group (equivalence class) holds")
        self.tabs.addTab(self.views["closeness"], "Closeness")
        self.tabs.setTabToolTip(
            2, "Per class and bucket: its share in the class divided by its share overall"
        )
        self.qi_choice = QComboBox()
        self.qi_choice.setToolTip("The quasi-identifier to compare before and after recoding")
        self.qi_choice.currentTextChanged.connect(self._show_before_after)
        self.before_after = FigureView(placeholder="A quasi-identifier before and after.")
        ba = QWidget()
        ba_layout = QVBoxLayout(ba)
        ba_layout.addWidget(self.qi_choice)
        ba_layout.addWidget(self.before_after, 1)
        self.tabs.addTab(ba, "Before / after")
        self.tabs.setTabToolTip(3, "A quasi-identifier's distribution before and after recoding")
        self.rows = QTableView()
        self.rows_model = DataFrameModel(row_limit=PREVIEW_ROWS)
        self.rows.setModel(self.rows_model)
        self.rows.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.rows.verticalHeader().setDefaultSectionSize(22)
        for header in (self.rows.horizontalHeader(), self.rows.verticalHeader()):
            header.setResizeContentsPrecision(50)  # size columns by a sample, not every row
        self.rows.setToolTip(f"The first {PREVIEW_ROWS:,} released rows (already shuffled)")
        self.tabs.addTab(self.rows, "Released rows")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.summary)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 5)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(splitter, 1)

    # --- wizard protocol ---------------------------------------------------------------
    def initializePage(self) -> None:
        s = self.session
        self.k.setValue(s.k)
        self.n_buckets.setValue(s.n_buckets or 0)
        self.n_buckets.setEnabled(s.mechanism == "buckets")
        if not s.preview_is_current:
            self.run()
        else:
            self._show(self.preview)

    def isComplete(self) -> bool:
        return self.session.preview_is_current and not self._wizard.runner.busy

    def cleanupPage(self) -> None:
        self._wizard.runner.cancel()

    # --- running -----------------------------------------------------------------------
    def run(self) -> None:
        s = self.session
        if self._wizard.runner.busy or s.data is None:
            return
        s.k = int(self.k.value())
        s.n_buckets = int(self.n_buckets.value()) or None
        try:
            config = s.config()
        except TcloseError as err:
            self.status.setText(err.message)
            self.status.set_warning(True)
            return
        data = s.data
        s.invalidate()
        view = self.tabs.currentWidget() or self.tabs
        size_px = (view.width(), view.height()) if self.tabs.isVisible() else None
        self.status.setText("Computing the release…")
        self.status.set_warning(False)
        if self.preview is None:
            self.summary.setHtml(
                "<p style='color:#666'>What the release achieves (k, t, ε, information loss) "
                "appears here once it is computed.</p>"
            )
        self.rerun.setEnabled(False)
        self._wizard.runner.start(
            lambda progress, cancel: run_engine(
                build_preview, data, config, size_px=size_px, progress=progress, cancel=cancel
            ),
            title="Anonymizing",
            on_finished=self._finished,
            on_failed=self._failed,
            on_cancelled=self._cancelled,
        )
        self.completeChanged.emit()

    def _finished(self, preview: Preview) -> None:
        self.rerun.setEnabled(True)
        s = self.session
        s.release, s.release_config = preview.release, preview.config
        self.preview = preview
        self._show(preview)
        self.completeChanged.emit()

    def _failed(self, err: BaseException, detail: str) -> None:
        self.rerun.setEnabled(True)
        self.status.set_warning(True)
        if isinstance(err, InfeasibleError) and err.alternatives:
            tips = "; ".join(alt.description for alt in err.alternatives)
            self.status.setText(f"{err.message} Try: {tips}")
        else:
            self.status.setText(str(err) if isinstance(err, TcloseError) else "The run failed.")
        report_error(self, "Preview", err, detail)
        self.completeChanged.emit()

    def _cancelled(self) -> None:
        self.rerun.setEnabled(True)
        self.status.setText("Cancelled; press Run again to compute the release.")
        self.status.set_warning(True)
        self.completeChanged.emit()

    # --- display -------------------------------------------------------------------------
    def _show(self, preview: Preview | None) -> None:
        if preview is None:
            return
        release = preview.release
        noise = release.buckets is None
        self.tabs.setTabText(0, "Confidential values" if noise else "Confidential buckets")
        for name, view in self.views.items():
            view.set_figure(preview.figures.get(name))
        self.qi_choice.blockSignals(True)
        self.qi_choice.clear()
        self.qi_choice.addItems(list(preview.before_after))
        self.qi_choice.blockSignals(False)
        self._show_before_after(self.qi_choice.currentText())
        self.rows_model.set_frame(release.table)
        self.rows.resizeColumnsToContents()
        self.summary.setHtml(self.summary_html(release, preview.risk))
        v = release.verification
        self.status.setText(v.message)
        self.status.set_warning(not v.ok)

    def _show_before_after(self, column: str) -> None:
        if self.preview is not None and column in self.preview.before_after:
            self.before_after.set_figure(self.preview.before_after[column])

    @staticmethod
    def summary_html(release: Release, risk: Sequence[tuple[str, str, str]] = ()) -> str:
        """The achieved guarantees, information loss and disclosure risk of the release."""
        v = release.verification
        cfg = release.config
        summary = release.summary or {}
        loss = summary.get("information_loss") or {}
        rows: list[tuple[str, Any, str]] = [
            ("records", v.n_records, ""),
            ("classes", v.n_classes, "groups sharing their released QI values"),
            ("k achieved", v.k, f"asked {cfg.k}"),
        ]
        if v.t is not None:
            rows.append(("t achieved", float(v.t), f"asked {_fmt(cfg.bucket_t)}"))
        eps = summary.get("epsilon", cfg.epsilon)
        if eps is not None:
            rows.append(("ε", float(eps), "from t" if summary.get("epsilon_from") == "t" else ""))
        if summary.get("epsilon_achieved") is not None:
            rows.append(("ε achieved", float(summary["epsilon_achieved"]), "from t achieved"))
        if "qi_sse_sst" in loss:
            rows.append(
                ("QI information loss", f"{100 * float(loss['qi_sse_sst']):.1f} %", "SSE/SST")
            )
        if "confidential_sse_sst" in loss:
            rows.append(
                (
                    "confidential loss",
                    f"{100 * float(loss['confidential_sse_sst']):.1f} %",
                    "SSE/SST",
                )
            )
        if summary.get("seconds") is not None:
            rows.append(("time", f"{float(summary['seconds']):.1f} s", ""))
        parts = ["<h3>Release</h3><table cellpadding='3'>"]
        for name, value, note in rows:
            parts.append(
                f"<tr><td>{html.escape(name)}</td><td align='right'><b>{_fmt(value)}</b></td>"
                f"<td style='color:#666'>{html.escape(str(note))}</td></tr>"
            )
        parts.append("</table>")
        colour = "#1a7f37" if v.ok else "#a31515"
        mark = "✔" if v.ok else "✘"
        parts.append(f"<p style='color:{colour}'>{mark} {html.escape(v.message)}</p>")
        warnings = list(release.warnings)
        if warnings:
            parts.append("<h4>Please note</h4><ul>")
            parts.extend(f"<li>{html.escape(w)}</li>" for w in warnings)
            parts.append("</ul>")
        if risk:
            # the panel is narrow: each measure on its own line, original → release below it
            parts.append("<h4>Disclosure risk (original → release)</h4><table cellpadding='1'>")
            for measure, before, after in risk:
                parts.append(
                    f"<tr><td style='color:#555'>{html.escape(measure)}</td></tr>"
                    f"<tr><td nowrap>&nbsp;&nbsp;{html.escape(before)} → "
                    f"<b>{html.escape(after)}</b></td></tr>"
                )
            parts.append("</table>")
        if release.buckets is not None:
            parts.append("<h4>Buckets</h4><table cellpadding='2'>")
            labels = plots.bucket_labels(release)
            for label, count in zip(labels, release.buckets.counts, strict=False):
                cell = html.escape(str(label))
                parts.append(f"<tr><td>{cell}</td><td align='right'>{int(count):,}</td></tr>")
            parts.append("</table>")
        notes = [summary.get("epsilon_assumption"), summary.get("seed_policy")]
        notes = [str(n) for n in notes if n]
        if notes:
            parts.append(
                "<p style='color:#666; font-size:small'>"
                + "<br>".join(html.escape(n) for n in notes)
                + "</p>"
            )
        return "".join(parts)
