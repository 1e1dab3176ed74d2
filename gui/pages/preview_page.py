"""Step 4: compute the release in the background and show what it looks like."""

from __future__ import annotations

import html
from collections.abc import Sequence

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

from engine import InfeasibleError, Release, TcloseError
from engine.text import number, percent
from gui.engine_process import run_engine
from gui.errors import report_error
from gui.pages.host import Host
from gui.previews import Preview, build_preview
from gui.table_model import DataFrameModel
from gui.theme import plot_theme
from gui.widgets import FigureView, Hint, rich_text_css

#: released rows shown in the preview table (the export writes all of them)
PREVIEW_ROWS = 1000


class PreviewPage(QWizardPage):
    """Figures, achieved guarantees, information loss and released rows; k and b to retry."""

    def __init__(self, wizard: Host) -> None:
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
        self.k.valueChanged.connect(self._settings_edited)
        self.n_buckets.valueChanged.connect(self._settings_edited)
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
        for box in (self.k, self.n_buckets):
            box.blockSignals(True)
        self.k.setValue(s.params.k)
        self.n_buckets.setValue(s.params.n_buckets or 0)
        self.n_buckets.setEnabled(not s.params.noise)
        for box in (self.k, self.n_buckets):
            box.blockSignals(False)
        if not s.preview_is_current:
            self.run()
        else:
            self._show(self.preview)

    def isComplete(self) -> bool:
        return self.session.preview_is_current and not self._wizard.runner.busy

    def cleanupPage(self) -> None:
        self._wizard.runner.cancel()

    # --- running -----------------------------------------------------------------------
    def _settings_edited(self) -> None:
        """k or b changed: the shown release no longer matches; Next waits for a new run."""
        try:
            self.session.update(
                k=int(self.k.value()),
                n_buckets=(int(self.n_buckets.value()) or None)
                if not self.session.params.noise
                else None,
            )
        except TcloseError as err:
            self.status.setText(err.message)
            self.status.set_warning(True)
        else:
            if not self.session.preview_is_current:
                self.status.setText("The settings changed: press Run again to see the release.")
                self.status.set_warning(True)
        self.completeChanged.emit()

    def run(self) -> None:
        s = self.session
        if self._wizard.runner.busy or s.data is None:
            return
        self._settings_edited()
        params, data = s.params, s.data
        view = self.tabs.currentWidget() or self.tabs
        size_px = (view.width(), view.height()) if self.tabs.isVisible() else None
        theme = plot_theme(self.palette())
        self.status.setText("Computing the release…")
        self.status.set_warning(False)
        if self.preview is None:
            self.summary.setHtml(
                "<p>What the release achieves (k, t, ε, information loss) appears here once it "
                "is computed.</p>"
            )
        self.rerun.setEnabled(False)
        self._wizard.runner.start(
            lambda progress, cancel: run_engine(
                build_preview,
                data,
                params,
                size_px=size_px,
                theme=theme,
                progress=progress,
                cancel=cancel,
            ),
            title="Anonymizing",
            on_finished=self._finished,
            on_failed=self._failed,
            on_cancelled=self._cancelled,
        )
        self.completeChanged.emit()

    def _finished(self, preview: Preview) -> None:
        self.rerun.setEnabled(True)
        self.session.release = preview.release
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
        self.summary.document().setDefaultStyleSheet(rich_text_css(self.summary))
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
        v, p, summary = release.verification, release.params, release.summary
        loss = summary.information_loss
        rows: list[tuple[str, str, str]] = [
            ("records", number(v.n_records), ""),
            ("classes", number(v.n_classes), "groups sharing their released QI values"),
            ("k achieved", number(v.k), f"asked {p.k}"),
        ]
        if v.t is not None:
            rows.append(("t achieved", number(v.t), f"asked {number(p.bucket_t)}"))
        if summary.epsilon is not None:
            rows.append(
                ("ε", number(summary.epsilon), "from t" if summary.epsilon_from == "t" else "")
            )
        if summary.epsilon_achieved is not None:
            rows.append(("ε achieved", number(summary.epsilon_achieved), "from t achieved"))
        if summary.noise is not None and summary.noise.stochastic_t is not None:
            rows.append(("stochastic t", number(summary.noise.stochastic_t), "Proposition 1"))
        if loss.qi_sse_sst is not None:
            rows.append(("QI information loss", percent(loss.qi_sse_sst), "SSE/SST"))
        if loss.confidential_sse_sst is not None:
            rows.append(("confidential loss", percent(loss.confidential_sse_sst), "SSE/SST"))
        if summary.seconds is not None:
            rows.append(("time", f"{summary.seconds:.1f} s", ""))
        esc = html.escape
        parts = ["<h3>Release</h3><table cellpadding='3'>"]
        for name, value, note in rows:
            parts.append(
                f"<tr><td>{esc(name)}</td><td align='right'><b>{esc(value)}</b></td>"
                f"<td class='muted'>{esc(note)}</td></tr>"
            )
        parts.append("</table>")
        mark = "✔" if v.ok else "✘"
        parts.append(f"<p><b>{mark} {esc(v.message)}</b></p>")
        if release.warnings:
            parts.append("<h4>Please note</h4><ul>")
            parts.extend(f"<li>{esc(w)}</li>" for w in release.warnings)
            parts.append("</ul>")
        if risk:
            # the panel is narrow: each measure on its own line, original → release below it
            parts.append("<h4>Disclosure risk (original → release)</h4><table cellpadding='1'>")
            for measure, before, after in risk:
                parts.append(
                    f"<tr><td class='muted'>{esc(measure)}</td></tr>"
                    f"<tr><td nowrap>&nbsp;&nbsp;{esc(before)} → <b>{esc(after)}</b></td></tr>"
                )
            parts.append("</table>")
        if summary.buckets:
            parts.append("<h4>Buckets</h4><table cellpadding='2'>")
            for row in summary.buckets:
                parts.append(
                    f"<tr><td>{esc(row.label)}</td><td align='right'>{row.count:,}</td></tr>"
                )
            parts.append("</table>")
        parts.append(f"<p class='muted'>{esc(summary.seed_policy)}</p>")
        return "".join(parts)
