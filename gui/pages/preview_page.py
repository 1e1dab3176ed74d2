"""Step 4: compute the release in the background and show what it looks like.

What is shown is always the release of the session's present parameters, or visibly not: as
soon as a setting changes, a run starts again or is cancelled, the old figures, numbers and
"Verified" mark are greyed under an "out of date" cover and Next waits for a run with the
settings shown (:attr:`~gui.state.Session.preview_is_current`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizard,
)

from engine import (
    MECHANISMS,
    InfeasibleError,
    Release,
    RunSummary,
    TcloseError,
    summary_words,
)
from engine.io import value_choices
from engine.report.html import analysis_rows, guarantees_html
from gui.accessibility import announce, drop_repeated_names
from gui.binding import Bindings
from gui.engine_process import run_engine
from gui.errors import report_error
from gui.fields import NumberField
from gui.help import HelpButton
from gui.numbers import localize_figures, number, percent, words
from gui.pages.host import Host, Page
from gui.plot_text import figure_text
from gui.previews import Preview, build_preview
from gui.table_model import DataFrameModel
from gui.theme import plot_theme
from gui.widgets import (
    AUTOMATIC,
    ColumnSizer,
    DisclosureButton,
    FigureView,
    Hint,
    StaleCover,
    add_with_label,
    choice_label,
    explained_choice_box,
    rich_text_css,
)

translate = QCoreApplication.translate

#: released rows shown in the preview table (the export writes all of them)
PREVIEW_ROWS = 1000


def qi_output_choices() -> dict[str, tuple[str, str]]:
    """qi_output value → (label, one-line explanation): the engine's one description of the
    values, which the About sheet and the report print too."""
    return value_choices("qi_output")


def confidential_output_choices() -> dict[str, tuple[str, str]]:
    """confidential_output value → (label, one-line explanation), for every value the
    parameters allow (the engine's words, as for :func:`qi_output_choices`)."""
    return value_choices("confidential_output")


class PreviewPage(Page):
    """Figures, achieved guarantees, information loss and released rows; k, b and the release
    format to retry."""

    def __init__(self, wizard: Host) -> None:
        super().__init__(wizard)
        self.preview: Preview | None = None
        self.setTitle(self.tr("4. Preview"))
        self.setSubTitle(
            self.tr(
                "The release is computed on your computer and checked by an independent "
                "verifier. Change k, the buckets or the release format and run again until the "
                "balance suits you."
            )
        )
        # the widgets are made in the order the keyboard reaches them
        controls, release_format = self._settings_rows()
        summary = self._summary_pane()
        self._tabs()
        self._lay_out(controls, release_format, summary)
        drop_repeated_names(self)  # a visible label is the field's name
        if isinstance(wizard, QWizard):
            wizard.currentIdChanged.connect(self._page_changed)

    # --- building ------------------------------------------------------------------------
    def _settings_rows(self) -> tuple[QHBoxLayout, QHBoxLayout]:
        """The settings to retry (k, buckets, Run again, the status) and the release format."""
        self.k = NumberField("k")
        self.n_buckets = NumberField("n_buckets", none_text=choice_label(AUTOMATIC))
        self.rerun = QPushButton(self.tr("&Run again"))
        self.rerun.setToolTip(self.tr("Compute the release again with these settings"))
        self.rerun.clicked.connect(self.run)
        self.qi_output = explained_choice_box(
            qi_output_choices(), self.tr("How the quasi-identifiers are released")
        )
        self.confidential_output = explained_choice_box(
            confidential_output_choices(), self.tr("How the confidential values are released")
        )
        self.format_help = Hint()
        # each control is bound to its value of the session (gui.binding)
        s = self.session
        self.bindings = Bindings(s, self, self._settings_edited)
        self.bindings.number(self.k)
        self.bindings.number(self.n_buckets)
        self.bindings.combo(
            self.qi_output, lambda p: p.qi_output, lambda v: s.update(qi_output=str(v))
        )
        self.bindings.combo(
            self.confidential_output,
            lambda p: p.confidential_output,
            lambda v: s.update(confidential_output=str(v)),
        )
        self.status = Hint()
        controls = QHBoxLayout()
        add_with_label(controls, self.tr("&k:"), self.k)
        add_with_label(controls, self.tr("&Buckets:"), self.n_buckets)
        controls.addWidget(self.rerun)
        controls.addWidget(self.status, 1)
        controls.addWidget(HelpButton("step-4-preview", self))
        release_format = QHBoxLayout()
        add_with_label(release_format, self.tr("&Quasi-identifiers as:"), self.qi_output)
        add_with_label(release_format, self.tr("&Confidential as:"), self.confidential_output)
        release_format.addStretch(1)
        return controls, release_format

    def _summary_pane(self) -> QWidget:
        """What the release achieves, and its guarantees under "Details"."""
        self.summary = QTextBrowser()
        self.summary.setAccessibleName(self.tr("What the release achieves"))
        self.summary.setToolTip(self.tr("What the release achieves, as measured by the verifier"))
        self.summary.setMinimumWidth(280)
        self.details_toggle = DisclosureButton(self.tr("Details: guarantees and their sources"))
        self.details = QTextBrowser()
        self.details.setAccessibleName(self.tr("Guarantees and their sources"))
        self.details.hide()
        self.details_toggle.toggled.connect(self.details.setVisible)
        pane = QWidget()
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary, 3)
        layout.addWidget(self.details_toggle)
        layout.addWidget(self.details, 2)
        return pane

    def _tabs(self) -> None:
        """The tabs of plots and rows: buckets, class sizes, closeness, before / after, and
        the original and released rows."""
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName(self.tr("Plots and rows of the release"))
        self.views: dict[str, FigureView] = {
            "buckets": FigureView(placeholder=self.tr("The bucket histogram appears here.")),
            "class_sizes": FigureView(placeholder=self.tr("The class sizes appear here.")),
            "closeness": FigureView(placeholder=self.tr("The closeness heat map appears here.")),
        }
        self.tabs.addTab(self.views["buckets"], self.tr("Confidential buckets"))
        self.tabs.setTabToolTip(0, self.tr("The confidential values with the bucket boundaries"))
        self.tabs.addTab(self.views["class_sizes"], self.tr("Class sizes"))
        self.tabs.setTabToolTip(1, self.tr("How many records each group (equivalence class) holds"))
        self.tabs.addTab(self.views["closeness"], self.tr("Closeness"))
        self.tabs.setTabToolTip(
            2, self.tr("Per class and bucket: its share in the class divided by its share overall")
        )
        self.tabs.addTab(self._before_after_tab(), self.tr("Before / after"))
        self.tabs.setTabToolTip(
            3, self.tr("A quasi-identifier's distribution before and after recoding")
        )
        self.tabs.addTab(self._rows_tab(), self.tr("Original and released rows"))
        self.tabs.setTabToolTip(
            4,
            self.tr(
                "The first {n} released rows (shuffled, as written), each beside the record it "
                "was made from"
            ).format(n=number(PREVIEW_ROWS)),
        )

    def _before_after_tab(self) -> QWidget:
        """A quasi-identifier to choose, and its distribution before and after recoding."""
        self.qi_choice = QComboBox()
        self.qi_choice.setToolTip(
            self.tr("The quasi-identifier to compare before and after recoding")
        )
        self.qi_choice.currentTextChanged.connect(self._show_before_after)
        self.before_after = FigureView(placeholder=self.tr("A quasi-identifier before and after."))
        tab = QWidget()
        layout = QVBoxLayout(tab)
        qi_row = QHBoxLayout()
        add_with_label(qi_row, self.tr("Quasi-identifier:"), self.qi_choice)
        qi_row.addStretch(1)
        layout.addLayout(qi_row)
        layout.addWidget(self.before_after, 1)
        return tab

    def _rows_tab(self) -> QSplitter:
        """The original and the released rows side by side, scrolling and selecting
        together, row by row."""
        self.original_rows = _table()
        self.original_rows.setAccessibleName(self.tr("Original rows"))
        self.original_model = DataFrameModel()
        self.original_rows.setModel(self.original_model)
        self.rows = _table()
        self.rows.setAccessibleName(self.tr("Released rows"))
        self.rows_model = DataFrameModel(row_limit=PREVIEW_ROWS)
        self.rows.setModel(self.rows_model)
        self.sizers = [ColumnSizer(self.original_rows), ColumnSizer(self.rows)]
        for a, b in ((self.original_rows, self.rows), (self.rows, self.original_rows)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
        self.rows.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.original_rows.selectRow(current.row())
        )
        self.original_rows.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self.rows.selectRow(current.row())
        )
        side = QSplitter(Qt.Orientation.Horizontal)
        side.addWidget(
            _titled(self.tr("Original (for the review, not for publication)"), self.original_rows)
        )
        side.addWidget(_titled(self.tr("Released"), self.rows))
        self.side_by_side = side
        return side

    def _lay_out(
        self, controls: QHBoxLayout, release_format: QHBoxLayout, summary: QWidget
    ) -> None:
        """The settings above; the summary beside the tabs below, under the cover that says
        when they are out of date."""
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(summary)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 5)
        splitter.setSizes([320, 780])
        # the cover lies over the results; it is a child of a plain holder, not of the
        # splitter (which would take it for a third pane)
        self.results = QWidget()
        holder = QVBoxLayout(self.results)
        holder.setContentsMargins(0, 0, 0, 0)
        holder.addWidget(splitter)
        self.stale = StaleCover(self.results)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addLayout(release_format)
        layout.addWidget(self.format_help)
        layout.addWidget(self.results, 1)

    # --- wizard protocol ---------------------------------------------------------------
    def initializePage(self) -> None:
        s = self.session
        self.bindings.show()
        self._enable()
        if not s.preview_is_current:
            self.run()
        else:
            self._show(self.preview)

    def _page_changed(self, _page_id: int) -> None:
        """Shown (Back from the export too): the session's values."""
        if self._wizard.currentPage() is self:
            self.bindings.show()
            self._enable()

    def _enable(self) -> None:
        """A field only some mechanisms read is offered when the chosen one reads it."""
        reads = MECHANISMS[self.session.params.mechanism].fields
        self.n_buckets.setEnabled("n_buckets" in reads)
        self.confidential_output.setEnabled("confidential_output" in reads)
        self._explain_format()

    def first_input(self) -> QWidget:
        """The control the focus starts on when the page is shown: k."""
        return self.k

    def isComplete(self) -> bool:
        return self.session.preview_is_current and not self._wizard.runner.busy

    def cleanupPage(self) -> None:
        self._wizard.runner.cancel()

    @property
    def is_stale(self) -> bool:
        """True when the results on show are not those of the present settings."""
        return self.preview is not None and (
            self._wizard.runner.busy
            or not self.session.preview_is_current
            or self.preview.release is not self.session.release
        )

    # --- running -----------------------------------------------------------------------
    def _explain_format(self) -> None:
        qi = qi_output_choices().get(str(self.qi_output.currentData()), ("", ""))[1]
        conf = confidential_output_choices().get(
            str(self.confidential_output.currentData()), ("", "")
        )[1]
        noise = self.session.params.noise
        if noise:
            conf = self.tr("Confidential: the values themselves, with random noise.")
        self.format_help.setText(f"{qi} {conf}")

    def _settings_edited(self) -> None:
        """The session changed (here or on another page), or an edit was refused: say so;
        the shown release no longer matches and Next waits for a new run."""
        problem = self.bindings.problem or self.bindings.notice
        self._enable()
        if problem:
            self.status.setText(problem)
            self.status.set_warning(True)
        elif not self.session.preview_is_current and not self._wizard.runner.busy:
            self.status.setText(
                self.tr("The settings changed: press Run again to see the release.")
            )
            self.status.set_warning(True)
        self._update_stale()
        self.completeChanged.emit()

    def run(self) -> None:
        s = self.session
        if self._wizard.runner.busy or s.data is None:
            return
        self._settings_edited()
        if self.bindings.problem:
            return
        params, data = s.params, s.data
        view = self.tabs.currentWidget() or self.tabs
        size_px = (view.width(), view.height()) if self.tabs.isVisible() else None
        theme = plot_theme(self.palette())
        font_px = QFontInfo(self.font()).pixelSize()
        self.status.setText(self.tr("Computing the release…"))
        self.status.set_warning(False)
        if self.preview is None:
            self.summary.setHtml(
                "<p>{}</p>".format(
                    self.tr(
                        "What the release achieves (k, t, ε, information loss) appears here "
                        "once it is computed."
                    )
                )
            )
        self.rerun.setEnabled(False)
        self._wizard.runner.start(
            lambda task: run_engine(
                build_preview,
                data,
                params,
                size_px=size_px,
                theme=theme,
                font_px=font_px,
                task=task,
            ),
            title=self.tr("Anonymizing"),
            on_finished=self._finished,
            on_failed=self._failed,
            on_cancelled=self._cancelled,
        )
        self._update_stale()
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
            self.status.setText(
                self.tr("{message} Try: {tips}").format(message=err.message, tips=tips)
            )
        else:
            self.status.setText(
                str(err) if isinstance(err, TcloseError) else self.tr("The run failed.")
            )
        self._update_stale()
        report_error(self, self.tr("Preview"), err, detail)
        self.completeChanged.emit()

    def _cancelled(self) -> None:
        self.rerun.setEnabled(True)
        self.status.setText(self.tr("Cancelled; press Run again to compute the release."))
        self.status.set_warning(True)
        self._update_stale()
        self.completeChanged.emit()

    def _update_stale(self) -> None:
        """Grey the results under an "out of date" cover whenever they are not current."""
        if not self.is_stale:
            self.stale.hide()
            return
        if self._wizard.runner.busy:
            text = self.tr("Out of date: a new release is being computed…")
        else:
            text = self.tr("Out of date: these results are of other settings. Press Run again.")
        self.stale.show_text(text)

    # --- display -------------------------------------------------------------------------
    def _show(self, preview: Preview | None) -> None:
        if preview is None:
            return
        release = preview.release
        noise = release.buckets is None
        self.tabs.setTabText(
            0, self.tr("Confidential values") if noise else self.tr("Confidential buckets")
        )
        # closeness compares each class's share of every bucket with the file's: noise makes
        # no buckets, so there is nothing to show
        self.tabs.setTabVisible(self.tabs.indexOf(self.views["closeness"]), not noise)
        for name, view in self.views.items():
            view.set_figure(preview.figures.get(name), figure_text(preview.texts.get(name)))
        self.qi_choice.blockSignals(True)
        self.qi_choice.clear()
        self.qi_choice.addItems(list(preview.before_after))
        self.qi_choice.blockSignals(False)
        self._show_before_after(self.qi_choice.currentText())
        self.rows_model.set_frame(release.table)
        self.original_model.set_frame(original_rows(release, PREVIEW_ROWS))
        self.side_by_side.widget(0).setVisible(release.source_rows is not None)
        for table in (self.summary, self.details):
            table.document().setDefaultStyleSheet(rich_text_css(table))
        reason = preview.plan.class_sizes.reason if preview.plan is not None else ""
        self.summary.setHtml(self.summary_html(release, preview.risk, reason))
        self.details.setHtml(self.details_html(release))
        v = release.verification
        self.status.setText(v.message)
        if not self.is_stale:
            announce(self, v.message, urgent=not v.ok)
        self.status.set_warning(not v.ok)
        self._update_stale()

    def _show_before_after(self, column: str) -> None:
        if self.preview is not None and column in self.preview.before_after:
            self.before_after.set_figure(
                self.preview.before_after[column],
                figure_text(self.preview.before_after_texts.get(column)),
            )

    @staticmethod
    def details_html(release: Release) -> str:
        """The paper-named results: every guarantee with its assumption and source."""
        summary = release.summary
        rows = []
        if summary.epsilon is not None and summary.epsilon_from == "t":
            rows.append(
                translate("PreviewPage", "ε = {epsilon}, from t (Proposition 3)").format(
                    epsilon=number(summary.epsilon)
                )
            )
        if summary.noise is not None and summary.noise.stochastic_t is not None:
            rows.append(
                translate(
                    "PreviewPage", "stochastically {t}-close (Proposition 1, smallest class)"
                ).format(t=number(summary.noise.stochastic_t))
            )
        head = "".join(f"<p>{html.escape(r)}</p>" for r in rows)
        return head + guarantees_html(summary.guarantees)

    @staticmethod
    def summary_html(
        release: Release, risk: Sequence[tuple[str, str, str]] = (), reason: str = ""
    ) -> str:
        """Plain words first, then the achieved guarantees, information loss and risk."""
        v, p, summary = release.verification, release.params, release.summary
        esc = html.escape
        plain = " ".join(words(p.template, p.values) for p in summary_words(summary))
        mark = "✔" if v.ok else "✘"
        parts = [
            f"<p class='plain'>{esc(plain)}</p>",
            f"<p><b>{mark} {esc(v.message)}</b></p>",
        ]
        if reason and v.k > p.k:
            parts.append(
                "<p><b>{}</b> {}</p>".format(
                    esc(translate("PreviewPage", "Why the groups are larger than k:")), esc(reason)
                )
            )
        parts.extend(_figure_lines(release))
        parts.extend(f"<p>{esc(sentence)}</p>" for sentence in noise_gap_sentences(release))
        notes = [w for w in release.warnings if w != reason]  # the reason is said above
        if notes:
            note_heading = translate("PreviewPage", "Please note")
            parts.append(f"<h4>{esc(note_heading)}</h4><ul>")
            parts.extend(f"<li>{esc(w)}</li>" for w in notes)
            parts.append("</ul>")
        parts.extend(_risk_html(risk))
        parts.extend(_analysis_html(summary))
        parts.extend(_buckets_html(summary))
        parts.append(f"<p class='muted'>{esc(summary.seed_policy)}</p>")
        return "".join(parts)


def _figure_lines(release: Release) -> list[str]:
    """The achieved guarantees, then (for the review) the information loss and the time:
    one line per figure (a table's narrow columns would break the words)."""
    v, p, summary = release.verification, release.params, release.summary
    loss = summary.information_loss
    rows: list[tuple[str, str, str]] = [
        (translate("PreviewPage", "records"), number(v.n_records), ""),
        (
            translate("PreviewPage", "classes"),
            number(v.n_classes),
            translate("PreviewPage", "groups sharing their released QI values"),
        ),
        (
            translate("PreviewPage", "k achieved"),
            number(v.k),
            translate("PreviewPage", "asked {k}").format(k=number(p.k)),
        ),
    ]
    if v.t is not None:
        rows.append(
            (
                translate("PreviewPage", "t achieved"),
                number(v.t),
                translate("PreviewPage", "asked {t}").format(t=number(p.bucket_t)),
            )
        )
    if summary.epsilon is not None:
        rows.append(("ε", number(summary.epsilon), ""))
    if summary.epsilon_achieved is not None:
        rows.append((translate("PreviewPage", "ε achieved"), number(summary.epsilon_achieved), ""))
    review_rows = len(rows)  # from here on the figures compare with the original data
    if loss.qi_sse_sst is not None:
        rows.append(
            (translate("PreviewPage", "QI information loss"), percent(loss.qi_sse_sst), "SSE/SST")
        )
    if loss.confidential_sse_sst is not None:
        rows.append(confidential_loss_row(loss.confidential_sse_sst))
    for name, figures in loss.confidential_columns.items():
        if summary.noise is not None and "share_changed" in figures:
            rows.append(
                (
                    translate("PreviewPage", "{column}: values changed").format(column=name),
                    percent(figures["share_changed"]),
                    translate("PreviewPage", "randomized response"),
                )
            )
    if summary.seconds is not None:
        rows.append((translate("PreviewPage", "time"), f"{number(summary.seconds, 2)} s", ""))
    esc = html.escape
    review_note = translate(
        "PreviewPage",
        "Compared with the original data below: for the review, not for publication (the "
        "published files hold none of it).",
    )
    line = translate("PreviewPage", "{name}: {value}")
    parts = []
    for i, (name, value, note) in enumerate(rows):
        if i == review_rows:
            parts.append(f"<p class='muted'>{esc(review_note)}</p>")
        muted = f" <span class='muted'>({esc(note)})</span>" if note else ""
        shown = line.format(name=esc(name), value=f"<b>{esc(value)}</b>")
        parts.append(f"<div>{shown}{muted}</div>")
    return parts


def confidential_loss_row(sse_sst: float) -> tuple[str, str, str]:
    """The confidential loss as a line (name, value, note).  SSE/SST is a share up to 100 %
    while the released values keep the original ones' order of spread; noise can make it far
    larger (the released values vary more around the true ones than these vary among
    themselves), and a percentage beyond 100 % would read as "more than everything lost":
    it is then said as a multiple, with what it means."""
    name = translate("PreviewPage", "confidential loss")
    if sse_sst <= 1:
        return name, percent(sse_sst), "SSE/SST"
    return (
        name,
        translate("PreviewPage", "{times} × the values' own variation").format(
            times=number(sse_sst, 3)
        ),
        translate(
            "PreviewPage",
            "SSE/SST above 100 %: the released values lie further from the true ones than "
            "the true ones lie from their mean",
        ),
    )


def noise_gap_sentences(release: Release) -> list[str]:
    """Why the error a noise release shows differs from the one its plan expected, built
    from the release: the share of values the noise pushed past a public bound (set to the
    bound, which cuts their noise short), and averaging in groups of k (which moves each value
    to its group's mean before the noise)."""
    noise = release.summary.noise
    if noise is None:
        return []
    out = []
    for name, column in noise.columns.items():
        expected, measured = column.expected_abs_error, column.mean_absolute_error
        if expected is None or measured is None or column.bounds is None or expected <= 0:
            continue
        if abs(measured - expected) <= 0.1 * expected:
            continue  # as expected: nothing to explain
        lo, hi = column.bounds
        values = pd.to_numeric(release.table[name], errors="coerce").dropna().to_numpy(float)
        at_bound = float(np.mean((values <= lo) | (values >= hi))) if len(values) else 0.0
        facts = {
            "column": name,
            "expected": number(expected, 3),
            "measured": number(measured, 3),
            "share": percent(at_bound),
            "low": number(lo),
            "high": number(hi),
        }
        if measured < expected and at_bound > 0:
            text = translate(
                "PreviewPage",
                "{column}: the plan expected the noise to move each value by about "
                "±{expected}; the release differs from the true values by {measured} on "
                "average, less, because {share} of the released values were pushed past the "
                "public bounds {low} to {high} and set to the bound, which cuts their noise "
                "short.",
            )
        elif column.mechanism == "insensitive":
            facts["k"] = number(release.params.k)
            text = translate(
                "PreviewPage",
                "{column}: the plan expected the noise to move each value by about "
                "±{expected}; the release differs from the true values by {measured} on "
                "average, more, because each value was first replaced by the mean of its group "
                "of {k} before the noise was added.",
            )
        else:
            continue
        out.append(text.format(**facts))
    return out


def _risk_html(risk: Sequence[tuple[str, str, str]]) -> list[str]:
    """The disclosure risk before and after (for the review); the panel is narrow: each
    measure on its own line, original → release below it."""
    if not risk:
        return []
    esc = html.escape
    heading = translate("PreviewPage", "Disclosure risk (original → release; for the review)")
    return _narrow_table(
        heading,
        [
            (
                esc(measure),
                f"{esc(localize_figures(before))} → <b>{esc(localize_figures(after))}</b>",
            )
            for measure, before, after in risk
        ],
    )


def _narrow_table(heading: str, rows: Sequence[tuple[str, str]]) -> list[str]:
    """A table for the narrow panel under ``heading``: each row's name (HTML) on its own line,
    its value (HTML) indented below it."""
    parts = [f"<h4>{html.escape(heading)}</h4><table cellpadding='1'>"]
    for name, value in rows:
        parts.append(
            f"<tr><td class='muted'>{name}</td></tr><tr><td nowrap>&nbsp;&nbsp;{value}</td></tr>"
        )
    parts.append("</table>")
    return parts


def _analysis_html(summary: RunSummary) -> list[str]:
    """What an analyst keeps: totals, variances, group means, correlations, regression; the
    engine's rows are HTML already (column, measure, value), one line each here."""
    utility = analysis_rows(summary)
    if not utility:
        return []
    heading = translate(
        "PreviewPage",
        "What an analysis keeps (original → release; for the review, not for publication)",
    )
    return _narrow_table(
        heading,
        [
            (f"{column} {measure}", f"<b>{localize_figures(value)}</b>")
            for column, measure, value in utility
        ],
    )


def _buckets_html(summary: RunSummary) -> list[str]:
    """The buckets of the confidential values and their counts."""
    if not summary.buckets:
        return []
    heading = translate("PreviewPage", "Buckets")
    parts = [f"<h4>{html.escape(heading)}</h4><table cellpadding='2'>"]
    for row in summary.buckets:
        parts.append(
            f"<tr><td>{html.escape(row.label)}</td><td align='right'>{number(row.count)}</td></tr>"
        )
    parts.append("</table>")
    return parts


def original_rows(release: Release, limit: int) -> pd.DataFrame | None:
    """The records the first ``limit`` released rows were made from, in the released order
    and with the released columns (None when the release does not say)."""
    if release.source_rows is None:
        return None
    rows = release.source_rows[:limit]
    columns = [c for c in release.table.columns if c in release.data.columns]
    return release.data[columns].iloc[rows].reset_index(drop=True)


def _table() -> QTableView:
    view = QTableView()
    view.setTabKeyNavigation(False)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(22)
    for header in (view.horizontalHeader(), view.verticalHeader()):
        header.setResizeContentsPrecision(50)  # size columns by a sample, not every row
    return view


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(f"<b>{html.escape(title)}</b>")
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box
