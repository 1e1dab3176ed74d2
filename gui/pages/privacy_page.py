"""Step 3: choose the privacy level (t or ε) and k, and see the engine's plan for them.

Every edit changes the session's :class:`~engine.ReleaseParams` (which validates it); the
engine then plans the run in its helper process (:func:`engine.plan`) and this page shows
that plan as it is: the buckets, feasibility with one-click fixes, the class sizes to expect,
every guarantee with its assumption and the expected error of any noise.  The page computes
none of these itself, so it cannot show a number the run will not have.
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from engine import ReleaseParams, TcloseError, epsilon_from_t, t_from_epsilon
from engine import plan as make_plan
from engine.report.html import guarantees_html
from engine.text import number, percent
from gui.engine_process import run_engine
from gui.pages.host import Host
from gui.state import parse_bounds
from gui.widgets import Hint, rich_text_css
from gui.worker import TaskRunner

if TYPE_CHECKING:
    from engine import Fix, Plan

log = logging.getLogger(__name__)

MECHANISMS = {
    "buckets": "Buckets: t-closeness by grouping (exact guarantee, default)",
    "laplace": "Noise: ε-differential privacy on the confidential values",
}


class PrivacyPage(QWizardPage):
    """t/ε toggle, k, mechanism; the engine's plan with fixes and guarantees."""

    def __init__(self, wizard: Host) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.setTitle("3. Privacy level")
        self.setSubTitle(
            "Choose how close each group's confidential values must stay to the whole file's "
            "(t, or ε of differential privacy) and the smallest group size k."
        )
        #: plans received for the session's data, by parameters
        self._plans: dict[ReleaseParams, Plan] = {}
        #: why the engine could not plan some parameters (a column it cannot use, …)
        self._problems: dict[ReleaseParams, str] = {}
        #: why the widgets do not make valid parameters ("" when they do)
        self._problem = ""
        #: plans the run off the GUI thread
        self._planner = TaskRunner(self)

        self.by_t = QRadioButton("&t (t-closeness)")
        self.by_t.setToolTip(
            "t ≥ 1: inside every group, each confidential bucket's share may be at most t times "
            "(and at least 1/t of) its share in the whole file. Smaller t = more privacy."
        )
        self.by_epsilon = QRadioButton("&ε (differential privacy)")
        self.by_epsilon.setToolTip(
            "ε > 0: the privacy budget of differential privacy; smaller ε = more privacy. "
            "With buckets, t = exp(ε/2)."
        )
        group = QButtonGroup(self)
        group.addButton(self.by_t)
        group.addButton(self.by_epsilon)
        self.t = QDoubleSpinBox()
        self.t.setRange(1.0, 1000.0)
        self.t.setDecimals(3)
        self.t.setSingleStep(0.1)
        self.t.setToolTip(self.by_t.toolTip())
        self.epsilon = QDoubleSpinBox()
        self.epsilon.setRange(0.001, 50.0)
        self.epsilon.setDecimals(3)
        self.epsilon.setSingleStep(0.1)
        self.epsilon.setToolTip(self.by_epsilon.toolTip())
        self.k = QSpinBox()
        self.k.setRange(1, 1_000_000)
        self.k.setToolTip(
            "k: every released combination of quasi-identifier values is shared by at least k "
            "records, so no one can be singled out by them."
        )
        self.mechanism = QComboBox()
        for key, label in MECHANISMS.items():
            self.mechanism.addItem(label, key)
        self.mechanism.setToolTip(
            "How the confidential values are protected: grouped into buckets (t-closeness) or "
            "released with random noise (ε-differential privacy)"
        )
        self.insensitive = QCheckBox("Average in groups of k before adding noise (less noise)")
        self.insensitive.setToolTip(
            "Insensitive microaggregation: noise of scale Δ/(k·ε) instead of Δ/ε for the same ε"
        )
        self.bounds = QLineEdit()
        self.bounds.setPlaceholderText("e.g. income=0:250000")
        self.bounds.setToolTip(
            "Public lower and upper limits of each numeric confidential column (COLUMN=LOW:HIGH, "
            "separated by commas), known without looking at the data (e.g. from the "
            "questionnaire). The noise is calibrated to them."
        )
        self.seed = QLineEdit()
        self.seed.setPlaceholderText("empty = fresh randomness (recommended)")
        self.seed.setToolTip(
            "A whole number makes the run reproducible for an audit; the release is then only "
            "as private as the seed is secret"
        )

        params = QGroupBox("Parameters")
        form = QFormLayout(params)
        row_t = QHBoxLayout()
        row_t.addWidget(self.by_t)
        row_t.addWidget(self.t)
        row_e = QHBoxLayout()
        row_e.addWidget(self.by_epsilon)
        row_e.addWidget(self.epsilon)
        form.addRow("Privacy level:", _wrap(row_t))
        form.addRow("", _wrap(row_e))
        form.addRow("Smallest group size &k:", self.k)
        form.addRow("Mechanism:", self.mechanism)
        form.addRow("", self.insensitive)
        form.addRow("Public bounds:", self.bounds)
        form.addRow("Random seed:", self.seed)

        self.feasibility = Hint()
        self.fixes = QHBoxLayout()
        self.fixes.addStretch(1)
        feas_box = QGroupBox("What this file allows")
        feas_layout = QVBoxLayout(feas_box)
        feas_layout.addWidget(self.feasibility)
        feas_layout.addLayout(self.fixes)

        self.calculator = QTextBrowser()
        self.calculator.setOpenExternalLinks(False)
        self.calculator.setToolTip(
            "What the chosen parameters guarantee, and under which assumption"
        )
        calc_box = QGroupBox("What this guarantees")
        QVBoxLayout(calc_box).addWidget(self.calculator)

        explain = QGroupBox("In plain words")
        explain_text = Hint(
            "<b>k</b>: records are grouped so that each released combination of "
            "quasi-identifier values (columns an intruder may already know, such as age or "
            "region) is shared by at least k people; nobody can be singled out by them.<br><br>"
            "<b>t</b>: the confidential values are grouped into buckets; inside every group "
            "each bucket's share stays between 1/t and t times its share in the whole file, so "
            "learning someone's group tells little about their confidential value.<br><br>"
            "<b>ε</b>: the same promise stated as differential privacy; smaller is more private."
        )
        QVBoxLayout(explain).addWidget(explain_text)

        left = QVBoxLayout()
        left.addWidget(params)
        left.addWidget(feas_box)
        left.addWidget(explain)
        left.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 2)
        layout.addWidget(calc_box, 3)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.refresh)
        for signal in (
            self.t.valueChanged,
            self.epsilon.valueChanged,
            self.k.valueChanged,
            self.by_t.toggled,
            self.mechanism.currentIndexChanged,
            self.insensitive.toggled,
            self.bounds.textChanged,
            self.seed.textChanged,
        ):
            signal.connect(self._edited)

    # --- wizard protocol ---------------------------------------------------------------
    def initializePage(self) -> None:
        self._plans.clear()
        self._problems.clear()
        self.show_params()
        self.refresh()

    def show_params(self) -> None:
        """Set the widgets from the session's parameters (without reacting to it)."""
        p = self.session.params
        widgets = (
            self.t,
            self.epsilon,
            self.k,
            self.by_t,
            self.by_epsilon,
            self.mechanism,
            self.bounds,
            self.insensitive,
            self.seed,
        )
        for w in widgets:
            w.blockSignals(True)
        if p.t is not None:
            self.t.setValue(p.t)
            self.epsilon.setValue(epsilon_from_t(p.t))
        if p.epsilon is not None:
            self.epsilon.setValue(p.epsilon)
            if not p.noise:
                self.t.setValue(t_from_epsilon(p.epsilon))
        self.k.setValue(p.k)
        self.by_epsilon.setChecked(p.epsilon is not None)
        self.by_t.setChecked(p.epsilon is None)
        self.mechanism.setCurrentIndex(max(0, self.mechanism.findData(p.mechanism)))
        if p.bounds:
            self.bounds.setText(", ".join(f"{c}={lo:g}:{hi:g}" for c, (lo, hi) in p.bounds.items()))
        self.insensitive.setChecked(p.insensitive)
        self.seed.setText("" if p.seed is None else str(p.seed))
        for w in widgets:
            w.blockSignals(False)
        self._enable()

    def isComplete(self) -> bool:
        plan = self.current_plan
        return not self._problem and plan is not None and plan.feasibility.ok

    def validatePage(self) -> bool:
        self._timer.stop()
        self._planner.cancel()
        return True

    @property
    def checking(self) -> bool:
        """True while the plan for the present parameters is still being made."""
        return self._planner.busy or self._timer.isActive()

    @property
    def current_plan(self) -> Plan | None:
        return self._plans.get(self.session.params)

    def cleanupPage(self) -> None:
        self._timer.stop()
        self._planner.cancel()

    # --- reacting to edits -------------------------------------------------------------
    def _edited(self, *_args: Any) -> None:
        self._store()
        if self._wizard.currentPage() is self:
            self._timer.start()

    def _enable(self) -> None:
        noise = self.mechanism.currentData() != "buckets"
        self.by_t.setEnabled(not noise)
        self.t.setEnabled(not noise and self.by_t.isChecked())
        self.epsilon.setEnabled(noise or self.by_epsilon.isChecked())
        self.insensitive.setEnabled(noise)
        self.bounds.setEnabled(noise)

    def _store(self) -> None:
        """Turn the widgets into parameters; keep why they do not make valid ones."""
        noise = self.mechanism.currentData() != "buckets"
        if noise and not self.by_epsilon.isChecked():
            self.by_epsilon.blockSignals(True)
            self.by_epsilon.setChecked(True)
            self.by_epsilon.blockSignals(False)
        self._enable()
        try:
            changes: dict[str, Any] = {
                "k": int(self.k.value()),
                "mechanism": str(self.mechanism.currentData()),
                "seed": ReleaseParams.parse("seed", self.seed.text()),
                "insensitive": noise and self.insensitive.isChecked(),
                "resample_until_t": self.session.params.resample_until_t if noise else None,
                "n_buckets": None if noise else self.session.params.n_buckets,
            }
            if self.by_epsilon.isChecked():
                changes.update(t=None, epsilon=float(self.epsilon.value()))
            else:
                changes.update(t=float(self.t.value()), epsilon=None)
            try:
                changes["bounds"] = parse_bounds(self.bounds.text()) if noise else {}
            except ValueError as err:
                raise TcloseError(str(err)) from None
            self.session.update(**changes)
        except TcloseError as err:
            self._problem = err.message
        else:
            self._problem = ""

    def refresh(self) -> None:
        """Show the plan of the present parameters (asking the engine for it if need be)."""
        self._store()
        self._clear_fixes()
        if self._problem:
            self._show_problem(self._problem)
        elif self.session.data is not None:
            plan = self.current_plan
            if self.session.params in self._problems:
                self._show_problem(self._problems[self.session.params])
            elif plan is None:
                self._request_plan()
                self.feasibility.setText("Checking what this file allows…")
                self.feasibility.set_warning(False)
            else:
                self._show_plan(plan)
        self.completeChanged.emit()

    def _request_plan(self) -> None:
        s = self.session
        params, data = s.params, s.data
        if self._planner.busy or data is None:
            return

        def done(plan: Plan) -> None:
            self._plans[params] = plan
            self._refresh_if_shown()

        def failed(err: BaseException, detail: str) -> None:
            if isinstance(err, TcloseError):
                self._problems[params] = err.message
            else:
                log.error("planning the release failed:\n%s", detail)
                self._problems[params] = "The plan could not be made; see the log."
            self._refresh_if_shown()

        if params in self._problems:
            self._show_problem(self._problems[params])
            return
        self._planner.start(
            lambda progress, cancel: run_engine(
                make_plan, data, params, progress=progress, cancel=cancel
            ),
            title="Planning the release",
            on_finished=done,
            on_failed=failed,
            on_cancelled=self._refresh_if_shown,
        )

    def _refresh_if_shown(self) -> None:
        if self._wizard.currentPage() is self:
            self.refresh()

    # --- showing ---------------------------------------------------------------------------
    def _show_problem(self, problem: str) -> None:
        self.feasibility.setText(f"Next is disabled: {problem}")
        self.feasibility.set_warning(True)

    def _show_plan(self, plan: Plan) -> None:
        self.calculator.document().setDefaultStyleSheet(rich_text_css(self.calculator))
        self.calculator.setHtml(guarantees_html(plan.guarantees))
        feas = plan.feasibility
        if not feas.ok:
            more = " Nearest settings that work:" if feas.fixes else ""
            self._show_problem(feas.message + more)
            for fix in feas.fixes:
                self._add_fix(fix)
            return
        self.feasibility.setText(plan_words(plan))
        self.feasibility.set_warning(False)

    def _add_fix(self, fix: Fix) -> None:
        button = QPushButton(fix.description)
        changes = ", ".join(f"{k} = {v}" for k, v in fix.changes.items())
        button.setToolTip(f"Use these settings: {changes}")
        button.clicked.connect(lambda _checked=False, f=fix: self.apply(f))
        self.fixes.insertWidget(self.fixes.count() - 1, button)

    def _clear_fixes(self) -> None:
        while self.fixes.count() > 1:
            item = self.fixes.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()

    def apply(self, fix: Fix) -> None:
        """Adopt a suggested feasible setting (the one-click fix)."""
        try:
            self.session.update(**fix.changes)
        except TcloseError as err:
            self._show_problem(err.message)
            return
        self.show_params()
        self.refresh()


def plan_words(plan: Plan) -> str:
    """What the plan says, in a few sentences for the feasibility box."""
    p = plan.params
    parts = []
    if plan.t is not None:
        level = f"t = {number(plan.t)} (ε = {number(plan.epsilon)})"
        parts.append(f"{level} and k = {p.k} can be met.")
    else:
        parts.append(f"Every group will hold at least k = {p.k} records.")
    if plan.buckets:
        smallest = min(plan.buckets, key=lambda b: b.count)
        parts.append(
            f"The confidential values fall into {len(plan.buckets)} buckets (the smallest, "
            f"{html.escape(smallest.label)}, holds {smallest.count:,} records)."
        )
    for col in plan.noise:
        if col.expected_abs_error is not None:
            parts.append(
                f"{html.escape(col.name)}: noise for ε = {number(col.epsilon)}, about "
                f"±{number(col.expected_abs_error)} per value on average."
            )
        else:
            parts.append(
                f"{html.escape(col.name)}: each value is kept with probability "
                f"{percent(col.keep_probability)}, otherwise replaced at random."
            )
    parts.extend(html.escape(w) for w in plan.warnings)
    return " ".join(parts)


def _wrap(layout) -> QWidget:
    widget = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    widget.setLayout(layout)
    return widget
