"""Step 3: choose the privacy level (t or ε) and k, with every guarantee that follows."""

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

from engine.errors import TcloseError
from engine.roles import Role
from gui import engine_bridge
from gui.engine_process import run_engine
from gui.state import parse_bounds
from gui.widgets import Hint
from gui.worker import TaskRunner

if TYPE_CHECKING:
    from gui.wizard import TcloseWizard

log = logging.getLogger(__name__)

MECHANISMS = {
    "buckets": "Buckets: t-closeness by grouping (exact guarantee, default)",
    "laplace": "Noise: ε-differential privacy on the confidential values",
}


class PrivacyPage(QWizardPage):
    """t/ε toggle, k, mechanism; live calculator; feasibility with one-click fixes."""

    def __init__(self, wizard: TcloseWizard) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.setTitle("3. Privacy level")
        self.setSubTitle(
            "Choose how close each group's confidential values must stay to the whole file's "
            "(t, or ε of differential privacy) and the smallest group size k."
        )
        self._counts_cache: dict[Any, Any] = {}
        self._feasible = True
        #: computes bucket counts for the feasibility check off the GUI thread
        self._checker = TaskRunner(self)

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
            "separated by commas). Without them the data's own minimum and maximum are used, "
            "and those are disclosed by the release."
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
        feas_box = QGroupBox("Feasibility on this file")
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
        s = self.session
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
        self.t.setValue(s.t)
        self.epsilon.setValue(s.epsilon)
        self.k.setValue(s.k)
        self.by_epsilon.setChecked(s.use_epsilon)
        self.by_t.setChecked(not s.use_epsilon)
        self.mechanism.setCurrentIndex(max(0, self.mechanism.findData(s.mechanism)))
        self.bounds.setText(", ".join(f"{c}={lo:g}:{hi:g}" for c, (lo, hi) in s.bounds.items()))
        self.insensitive.setChecked(s.insensitive)
        self.seed.setText("" if s.seed is None else str(s.seed))
        for w in widgets:
            w.blockSignals(False)
        self._counts_cache.clear()
        self.refresh()

    def isComplete(self) -> bool:
        return self._feasible and self._config_problem() == ""

    def validatePage(self) -> bool:
        self._timer.stop()
        self._checker.cancel()
        return True

    @property
    def checking(self) -> bool:
        """True while the feasibility check waits for the engine."""
        return self._checker.busy or self._timer.isActive()

    def cleanupPage(self) -> None:
        self._timer.stop()
        self._checker.cancel()

    # --- reacting to edits -------------------------------------------------------------
    def _edited(self, *_args: Any) -> None:
        self._store()
        if self._wizard.currentPage() is self:
            self._timer.start()

    def _store(self) -> None:
        s = self.session
        s.t = float(self.t.value())
        s.epsilon = float(self.epsilon.value())
        s.k = int(self.k.value())
        s.mechanism = str(self.mechanism.currentData())
        noise = s.mechanism != "buckets"
        if noise and not self.by_epsilon.isChecked():
            self.by_epsilon.blockSignals(True)
            self.by_epsilon.setChecked(True)
            self.by_epsilon.blockSignals(False)
        s.use_epsilon = self.by_epsilon.isChecked()
        s.insensitive = self.insensitive.isChecked() and noise
        text = self.seed.text().strip()
        s.seed = int(text) if text.lstrip("-").isdigit() else None
        self.t.setEnabled(not s.use_epsilon)
        self.by_t.setEnabled(not noise)
        self.epsilon.setEnabled(s.use_epsilon)
        self.insensitive.setEnabled(noise)
        self.bounds.setEnabled(noise)
        try:
            s.bounds = parse_bounds(self.bounds.text())
        except ValueError:
            s.bounds = {}

    def _config_problem(self) -> str:
        if self.session.mechanism != "buckets":
            try:
                bounds = parse_bounds(self.bounds.text())
            except ValueError as err:
                return str(err)
            unknown = sorted(set(bounds) - set(self.session.columns_with(Role.CONFIDENTIAL)))
            if unknown:
                return f"Bounds are for confidential columns; not one: {', '.join(unknown)}."
        text = self.seed.text().strip()
        if text and not text.lstrip("-").isdigit():
            return "The seed must be a whole number (or empty)."
        try:
            self.session.config()
        except TcloseError as err:
            return err.message
        return ""

    def refresh(self) -> None:
        """Recompute the calculator and the feasibility check for the current values."""
        self._store()
        s = self.session
        problem = self._config_problem()
        try:
            config = s.config()
        except TcloseError:
            config = None
        self._show_guarantees(config)
        self._check_feasibility(config, problem)
        self.completeChanged.emit()

    def _show_guarantees(self, config) -> None:
        s = self.session
        try:
            rows = engine_bridge.guarantees(
                t=None if s.use_epsilon else s.t,
                epsilon=s.epsilon if s.use_epsilon else None,
                k=s.k,
                n=s.n_rows,
                mechanism=s.mechanism,
                class_sizes=(
                    s.release.verification.class_sizes
                    if s.preview_is_current and s.release
                    else None
                ),
            )
        except TcloseError as err:
            self.calculator.setHtml(f"<p>{html.escape(err.message)}</p>")
            return
        self.calculator.setHtml(guarantees_html(rows))

    def _check_feasibility(self, config, problem: str) -> None:
        self._clear_fixes()
        if problem or config is None:
            self._feasible = False
            self.feasibility.setText(f"Next is disabled: {problem}")
            self.feasibility.set_warning(True)
            return
        if config.mechanism != "buckets":
            self._feasible = True
            self.feasibility.setText(
                f"Every group will hold at least k = {config.k} records; the confidential values "
                f"get noise for ε = {config.epsilon:g}."
            )
            self.feasibility.set_warning(False)
            return
        t = float(config.bucket_t)
        ready, counts = self._bucket_counts(config, t)
        if not ready:
            self._feasible = False
            self.feasibility.setText("Checking what this file allows…")
            self.feasibility.set_warning(False)
            return
        result = engine_bridge.check_feasible(counts, t, config.k)
        self._feasible = result.ok
        if result.ok:
            detail = ""
            if counts is not None:
                detail = (
                    f" The confidential values fall into {len(counts)} buckets "
                    f"(smallest holds {int(min(counts)):,} records)."
                )
            n = int(sum(counts)) if counts is not None else 0
            if result.max_classes and n // result.max_classes > config.k:
                smallest = n // result.max_classes
                detail += (
                    f" With t = {t:.4g} there can be at most {result.max_classes:,} classes, so "
                    f"each will hold at least {smallest:,} records (more than k = {config.k}): "
                    "the rarest bucket limits the number of classes. A larger t or fewer "
                    "buckets gives smaller classes."
                )
            if not result.checked:
                detail = " (Feasibility is checked when the preview runs.)"
                self.feasibility.setText(f"t = {t:.4g}, k = {config.k}.{detail}")
            else:
                self.feasibility.setText(f"t = {t:.4g} and k = {config.k} can be met.{detail}")
            self.feasibility.set_warning(False)
            return
        self.feasibility.setText(
            f"Next is disabled: {result.message} Nearest settings that work:"
            if result.alternatives
            else f"Next is disabled: {result.message}"
        )
        self.feasibility.set_warning(True)
        for label, params in result.alternatives:
            button = QPushButton(label)
            button.setToolTip(f"Use these settings: {params}")
            button.clicked.connect(lambda _checked=False, p=params: self.apply(p))
            self.fixes.insertWidget(self.fixes.count() - 1, button)

    def _bucket_counts(self, config, t: float) -> tuple[bool, Any]:
        """(ready, counts): counts come from the engine process, computed in the background."""
        s = self.session
        n_buckets = s.n_buckets
        key = (
            config.confidential,
            tuple(sorted(config.types.items())),
            config.missing,
            tuple(sorted(config.column_missing.items())),
            n_buckets,
            engine_bridge.bucket_count(t),
        )
        if key in self._counts_cache:
            return True, self._counts_cache[key]
        if not self._checker.busy and s.data is not None:
            data = s.data

            def done(counts: Any) -> None:
                self._counts_cache[key] = counts
                self._refresh_if_shown()

            def failed(err: BaseException, detail: str) -> None:
                # a failed check must not block the wizard: the run checks again
                if not isinstance(err, TcloseError):
                    log.error("bucket counts for the feasibility check failed:\n%s", detail)
                self._counts_cache[key] = None
                self._refresh_if_shown()

            self._checker.start(
                lambda progress, cancel: run_engine(
                    engine_bridge.bucket_counts_task,
                    data,
                    config,
                    n_buckets,
                    progress=progress,
                    cancel=cancel,
                ),
                title="Checking feasibility",
                on_finished=done,
                on_failed=failed,
                on_cancelled=self._refresh_if_shown,
            )
        return False, None

    def _refresh_if_shown(self) -> None:
        if self._wizard.currentPage() is self:
            self.refresh()

    def _clear_fixes(self) -> None:
        while self.fixes.count() > 1:
            item = self.fixes.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()

    def apply(self, params: dict[str, Any]) -> None:
        """Adopt a suggested feasible setting (the one-click fix)."""
        if "k" in params:
            self.k.setValue(int(params["k"]))
        if "t" in params and params["t"] is not None:
            self.by_t.setChecked(True)
            self.t.setValue(float(params["t"]))
        if "epsilon" in params and params["epsilon"] is not None:
            self.by_epsilon.setChecked(True)
            self.epsilon.setValue(float(params["epsilon"]))
        if "n_buckets" in params:
            self.session.n_buckets = params["n_buckets"]
        self.refresh()


def _wrap(layout) -> QWidget:
    widget = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    widget.setLayout(layout)
    return widget


def guarantees_html(rows: list[engine_bridge.GuaranteeRow]) -> str:
    """The calculator panel: what follows (with its assumption), then what does not."""
    esc = html.escape
    parts = []
    positive = [r for r in rows if r.holds]
    negative = [r for r in rows if not r.holds]
    for row in positive:
        parts.append(
            "<div style='margin-bottom:10px'>"
            f"<b>{esc(row.name)}</b>"
            + (
                f" &nbsp;<span style='font-size:large; color:#1f4e9a'>{esc(row.value)}</span>"
                if row.value
                else ""
            )
            + (f"<br>{esc(row.statement)}" if row.statement else "")
            + (
                f"<br><span style='color:#555'><i>Assumes:</i> {esc(row.assumption)}</span>"
                if row.assumption and row.assumption != "—"
                else ""
            )
            + (
                f"<br><span style='color:#888; font-size:small'>{esc(row.source)}</span>"
                if row.source
                else ""
            )
            + "</div>"
        )
    if negative:
        parts.append("<p style='color:#8a4b00'><b>What does not follow</b></p>")
        for row in negative:
            parts.append(
                "<div style='margin-bottom:8px; color:#6b4a00'>"
                f"<b>{esc(row.name)}</b>"
                + (f"<br>{esc(row.statement)}" if row.statement else "")
                + (
                    f"<br><span style='color:#888; font-size:small'>{esc(row.source)}</span>"
                    if row.source
                    else ""
                )
                + "</div>"
            )
    return "".join(parts)
