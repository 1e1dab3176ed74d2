"""Step 3: choose the privacy level (t or ε) and k, and see the engine's plan for them.

Every edit changes the session's :class:`~engine.ReleaseParams` (which validates it); the
engine then plans the run in its helper process (:func:`engine.plan`) and this page shows
that plan as it is: in plain words first (:func:`engine.plan_words`), then whether the file
allows it (with one-click fixes that say what they change), why the classes may come out
larger than k, and, under "Details", every guarantee with its assumption and source.  The
page computes none of these itself, so it cannot show a number the run will not have.
"""

from __future__ import annotations

import dataclasses
import html
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
    QWizard,
)

from engine import MECHANISMS, ReleaseParams, TcloseError, plan_words
from engine import plan as make_plan
from engine.report.html import bucket_choices_html, guarantees_html
from gui.accessibility import announce, drop_repeated_names
from gui.binding import Bindings, Level
from gui.categories_box import CategoriesBox
from gui.engine_process import run_engine
from gui.fields import NumberField, describe_widget, field_help
from gui.fields import field_label as declared_label
from gui.help import HelpButton
from gui.numbers import number, percent, words
from gui.pages.host import Host, Page
from gui.state import format_bounds, parse_bounds
from gui.widgets import (
    AUTOMATIC,
    DisclosureButton,
    Hint,
    Lead,
    check_box,
    choice_box,
    choice_label,
    mnemonic_of,
    mnemonics_under,
    radio_buttons,
    rich_text_css,
    with_mnemonic,
)
from gui.worker import TaskRunner

if TYPE_CHECKING:
    from engine import Fix, Mechanism, Plan

log = logging.getLogger(__name__)

translate = QCoreApplication.translate

#: share of ε spent on private bounds when the user first ticks the box
DEFAULT_PRIVATE_SHARE = 0.10

# the wizard's buttons, whose shortcuts work on every page
WIZARD_BUTTONS = (
    QWizard.WizardButton.BackButton,
    QWizard.WizardButton.NextButton,
    QWizard.WizardButton.CommitButton,
    QWizard.WizardButton.FinishButton,
)
# the options of the noise, which any noise mechanism reads (whether or not it lists them)
NOISE_FIELDS = ("private_bounds", "insensitive", "resample_until_t", "transform")
# the fields of this page that only some mechanisms read (their controls are enabled when
# the mechanism chosen reads them, and choosing one that does not sets them back to their
# defaults); the others of such fields are on the preview page
MECHANISM_FIELDS = ("n_buckets", *NOISE_FIELDS)
# the value each of them takes when it is not given
DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(ReleaseParams) if f.name in MECHANISM_FIELDS
}


def field_label(name: str) -> str:
    """A parameter's name as this page shows it (for "what a fix changed"): its symbol
    where it has one that says it all (t, ε), else its declared label."""
    if name in ("t", "epsilon"):
        return ReleaseParams.describe(name).info.symbol
    return declared_label(name)


def shown_value(name: str, value: Any) -> str:
    if value is None:
        return choice_label(AUTOMATIC) if name == "n_buckets" else "—"
    if name == "private_bounds":
        return percent(value)
    if isinstance(value, bool):
        return translate("PrivacyPage", "on") if value else translate("PrivacyPage", "off")
    if isinstance(value, int | float):
        return number(value)
    return str(value)


class PrivacyPage(Page):
    """t/ε toggle, k, mechanism, bounds, categories; the engine's plan in words, fixes and
    guarantees."""

    def __init__(self, wizard: Host) -> None:
        super().__init__(wizard)
        self.setTitle(self.tr("3. Privacy level"))
        self.setSubTitle(
            self.tr(
                "Choose how close each group's confidential values must stay to the whole "
                "file's (t, or ε of differential privacy) and the smallest group size k."
            )
        )
        #: plans received for the session's data, by parameters
        self._plans: dict[ReleaseParams, Plan] = {}
        #: why the engine could not plan some parameters (a column it cannot use, …)
        self._problems: dict[ReleaseParams, str] = {}
        #: plans the run off the GUI thread
        self._planner = TaskRunner(self)
        #: the parameters of the plan asked for last
        self._planning: ReleaseParams | None = None
        #: the privacy level as t and as ε (two views of the session's one level)
        self.level = Level()

        # the widgets are made in the order the keyboard reaches them
        params = self._parameters_box()
        feasibility = self._feasibility_box()
        self.explain = self._explain_box()
        words_box = self._words_box()
        self._lay_out(params, feasibility, words_box)
        drop_repeated_names(self)  # a visible label is the field's name
        self._give_mnemonics()

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.refresh)
        #: every widget bound to its value of the session
        self.bindings = Bindings(self.session, self, self._changed)
        self._bind()
        self._enable()
        if isinstance(wizard, QWizard):
            wizard.currentIdChanged.connect(self._page_changed)

    # --- building ------------------------------------------------------------------------
    def _level_widgets(self) -> None:
        """The privacy level (t or ε, as a pair of radio buttons with their boxes) and k."""
        self.by_t, self.by_epsilon = radio_buttons(
            self,
            (self.tr("&t (t-closeness)"), field_help("t")),
            (self.tr("&ε (differential privacy)"), field_help("epsilon")),
        )
        # the boxes are made from the parameters' declared fields: their range, step, unit,
        # name and help are the engine's, and they hold any valid value exactly
        self.t = NumberField("t")
        self.epsilon = NumberField("epsilon")
        self.k = NumberField("k")

    def _mechanism_choice(self) -> QWidget:
        """One radio button per registered mechanism, each with the line that says what it
        does (a combo box would cut the longer labels of the translations); the texts are
        the mechanism's own (:attr:`engine.Mechanism.choice`, ``note``, ``tooltip``)."""
        mechanisms = list(MECHANISMS.values())
        buttons = radio_buttons(
            self,
            *(
                (translate("mechanisms", m.choice), translate("mechanisms", m.tooltip))
                for m in mechanisms
            ),
        )
        #: the radio button and the note of each mechanism, by name
        self.mechanism_buttons = {m.name: b for m, b in zip(mechanisms, buttons, strict=True)}
        self.mechanism_notes = {m.name: Hint(translate("mechanisms", m.note)) for m in mechanisms}
        buttons[0].setChecked(True)  # the first registered is the default
        box = QVBoxLayout()
        box.setSpacing(0)
        indent = self.style().pixelMetric(QStyle.PixelMetric.PM_ExclusiveIndicatorWidth) + 8
        for name, button in self.mechanism_buttons.items():
            note = self.mechanism_notes[name]
            note.setIndent(indent)
            box.addWidget(button)
            if note.text():
                box.addWidget(note)
        return _wrap(box)

    def _noise_widgets(self) -> None:
        """The number of buckets, the noise's options, the public bounds and categories, and
        the seed."""
        self.n_buckets = NumberField("n_buckets", none_text=choice_label(AUTOMATIC))
        # a one-click fix may choose it too: the page shows it, so it can be seen and undone
        self.drop_missing = QCheckBox(
            self.tr("Leave out the records whose confidential value is missing")
        )
        describe_widget(self.drop_missing, "missing_confidential")
        self.insensitive = check_box(
            self.tr("Average in groups of k before adding noise (less noise)"),
            field_help("insensitive"),
        )
        self.log_scale = check_box(
            self.tr("Noise in proportion to each value (log scale)"), field_help("transform")
        )
        self.bounds = QLineEdit()
        self.bounds.setPlaceholderText(self.tr("e.g. income=0:250000"))
        describe_widget(self.bounds, "bounds")
        self.private_bounds = check_box(
            self.tr("Estimate missing bounds privately, using"), field_help("private_bounds")
        )
        self.private_share = NumberField("private_bounds")
        self.private_share.set_value(DEFAULT_PRIVATE_SHARE)  # offered when ticked
        # one field of public categories per category column of a noise release
        self.categories = CategoriesBox(self.session)
        # a seed is a code, not a quantity: a text field (a spin box would be read as "0")
        self.seed = QLineEdit()
        self.seed.setPlaceholderText(self.tr("empty = fresh randomness (recommended)"))
        describe_widget(self.seed, "seed")

    def _release_widgets(self) -> None:
        """Who may obtain the file and the intruder scenario (published with the release;
        the plan compares k with the guidance for the type)."""
        self.release_type = choice_box(
            {
                None: self.tr("not stated"),
                "public": self.tr("public-use file (anyone)"),
                "scientific": self.tr("scientific-use file (registered researchers)"),
                "licensed": self.tr("licensed file (named users, an agreement)"),
                "enclave": self.tr("data enclave (a controlled environment)"),
            },
            field_help("release_type"),
        )
        describe_widget(self.release_type, "release_type")
        self.scenario = QLineEdit()
        self.scenario.setPlaceholderText(self.tr("e.g. a neighbour who knows age, sex and region"))
        self.scenario.setMaxLength(1000)
        describe_widget(self.scenario, "scenario")

    def _parameters_box(self) -> QGroupBox:
        """The "Parameters" box: every setting of the page, in one form."""
        self._level_widgets()
        mechanism = self._mechanism_choice()
        self._noise_widgets()
        self._release_widgets()
        params = QGroupBox(self.tr("Parameters"))
        form = QFormLayout(params)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("Privacy level:"), _row(self.by_t, self.t))
        form.addRow("", _row(self.by_epsilon, self.epsilon))
        form.addRow(self.tr("Smallest group size &k:"), self.k)
        form.addRow(self.tr("Mechanism:"), mechanism)
        form.addRow(self.tr("Number of &buckets:"), self.n_buckets)
        form.addRow("", self.drop_missing)
        form.addRow("", self.insensitive)
        form.addRow("", self.log_scale)
        form.addRow(self.tr("Public bounds:"), self.bounds)
        self.private_share_label = QLabel(self.tr("of ε"))
        private = _row(self.private_bounds, self.private_share, self.private_share_label)
        private.layout().addStretch(1)
        form.addRow("", private)
        form.addRow(self.tr("Public categories:"), self.categories)
        form.setRowVisible(self.categories, False)  # shown for a category column with noise
        self._form = form
        form.addRow(self.tr("Random seed:"), self.seed)
        form.addRow(self.tr("Release type:"), self.release_type)
        form.addRow(self.tr("Intruder scenario:"), self.scenario)
        return params

    def _feasibility_box(self) -> QGroupBox:
        """The "What this file allows" box: the plan's verdict, its one-click fixes, and what
        the last fix changed."""
        self.one_class = Hint(warning=True)
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        self.one_class_icon = Hint()
        self.one_class_icon.setPixmap(icon.pixmap(32, 32))
        one_row = QHBoxLayout()
        one_row.addWidget(self.one_class_icon, 0, Qt.AlignmentFlag.AlignTop)
        one_row.addWidget(self.one_class, 1)
        self.one_class_box = _wrap(one_row)
        self.one_class_box.hide()
        self.feasibility = Hint()
        # its texts are HTML with the engine's words escaped: shown as such even when they
        # hold no tag (else Qt guesses plain text and prints "&#x27;" for an apostrophe)
        self.feasibility.setTextFormat(Qt.TextFormat.RichText)
        self.class_sizes = Hint()
        self.class_sizes.hide()
        self.applied = Hint()
        self.applied.hide()
        self.fixes = QHBoxLayout()
        self.fixes.addStretch(1)
        box = QGroupBox(self.tr("What this file allows"))
        layout = QVBoxLayout(box)
        layout.addWidget(self.one_class_box)
        layout.addWidget(self.feasibility)
        layout.addWidget(self.class_sizes)
        layout.addLayout(self.fixes)
        layout.addWidget(self.applied)
        return box

    def _explain_box(self) -> QGroupBox:
        """The "What k, t and ε mean" box."""
        box = QGroupBox(self.tr("What k, t and ε mean"))
        text = Hint(
            self.tr(
                "<b>k</b>: records are grouped so that each released combination of "
                "quasi-identifier values (columns an intruder may already know, such as age "
                "or region) is shared by at least k people; nobody can be singled out by them."
                "<br><br><b>t</b>: the confidential values are grouped into buckets; inside "
                "every group each bucket's share stays between 1/t and t times its share in "
                "the whole file, so learning someone's group tells little about their "
                "confidential value.<br><br><b>ε</b>: the same promise stated as differential "
                "privacy; smaller is more private."
            )
        )
        QVBoxLayout(box).addWidget(text)
        return box

    def _words_box(self) -> QGroupBox:
        """The "In plain words" box, and the guarantees with their sources under "Details"
        (laid out below it)."""
        self.summary = Lead()
        self.summary.setToolTip(self.tr("What the chosen parameters promise, in plain words"))
        self.details_toggle = DisclosureButton(
            self.tr("Details: guarantees, assumptions and sources")
        )
        self.details_toggle.toggled.connect(self._toggle_details)
        self.details = QTextBrowser()
        self.details.setAccessibleName(self.tr("Guarantees, assumptions and sources"))
        self.details.setOpenExternalLinks(False)
        self.details.setToolTip(
            self.tr(
                "What the chosen parameters guarantee, under which assumption, and the paper "
                "that proves it"
            )
        )
        self.details.hide()
        box = QGroupBox(self.tr("In plain words"))
        layout = QHBoxLayout(box)
        layout.addWidget(self.summary, 1)
        layout.addWidget(HelpButton("step-3-privacy-level", self), 0, Qt.AlignmentFlag.AlignTop)
        return box

    def _lay_out(self, params: QWidget, feasibility: QWidget, words_box: QWidget) -> None:
        """Settings and what the file allows on the left; plain words, details and what the
        letters mean on the right."""
        left = QVBoxLayout()
        left.addWidget(params)
        left.addWidget(feasibility)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(words_box)
        right.addWidget(self.details_toggle)
        right.addWidget(self.details, 1)
        right.addWidget(self.explain)
        self._right_stretch = QWidget()
        right.addWidget(self._right_stretch, 1)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 5)
        layout.addLayout(right, 4)

    def _give_mnemonics(self) -> None:
        """A mechanism whose choice has no keyboard shortcut gets a letter that no other label
        or button of the page, nor the wizard's Back or Next, uses."""
        for button in self.mechanism_buttons.values():
            if not mnemonic_of(button.text()):
                taken = mnemonics_under(self)
                if isinstance(self._wizard, QWizard):
                    taken |= {
                        mnemonic_of(self._wizard.buttonText(which)) for which in WIZARD_BUTTONS
                    }
                button.setText(with_mnemonic(button.text(), taken))

    def _bind(self) -> None:
        """Each widget is bound to its value of the session (:mod:`gui.binding`): it shows
        the session's value whenever that changes, and writes back what the user did."""
        s, b, level = self.session, self.bindings, self.level
        b.choice(
            {"t": self.by_t, "epsilon": self.by_epsilon},
            lambda p: "t" if p.epsilon is None else "epsilon",
            self._level_chosen,
        )
        b.number(self.t, level.t, lambda v: s.update(t=v, epsilon=None))
        b.number(self.epsilon, level.epsilon, lambda v: s.update(epsilon=v, t=None))
        b.number(self.k)
        b.choice(self.mechanism_buttons, lambda p: p.mechanism, self._mechanism_chosen)
        b.number(self.n_buckets)
        b.check(
            self.drop_missing,
            lambda p: p.missing_confidential == "drop",
            lambda on: s.update(missing_confidential="drop" if on else "bucket"),
        )
        b.check(self.insensitive, lambda p: p.insensitive, lambda on: s.update(insensitive=on))
        b.check(
            self.log_scale,
            lambda p: p.transform == "log",
            lambda on: s.update(transform="log" if on else "none"),
        )
        b.text(
            self.bounds,
            lambda p: dict(p.bounds),
            lambda bounds: s.update(bounds=bounds),
            parse=parse_bounds,
            format=format_bounds,
        )
        self.categories.bind(b)  # each column's field joins the page's bindings
        b.check(
            self.private_bounds,
            lambda p: p.private_bounds is not None,
            lambda on: s.update(private_bounds=self.private_share.value() if on else None),
        )
        b.number(
            self.private_share,
            lambda p: self.private_share.value() if p.private_bounds is None else p.private_bounds,
            lambda v: s.update(private_bounds=v) if s.params.private_bounds is not None else None,
        )
        b.text(
            self.seed,
            lambda p: p.seed,
            lambda seed: s.update(seed=seed),
            parse=lambda text: ReleaseParams.parse("seed", text),
            format=lambda seed: "" if seed is None else str(seed),
        )
        b.combo(self.release_type, lambda p: p.release_type, lambda v: s.update(release_type=v))
        b.text(
            self.scenario,
            lambda p: p.scenario,
            lambda text: s.update(scenario=text),
            parse=str,
            format=str,
        )

    # --- wizard protocol ---------------------------------------------------------------
    def initializePage(self) -> None:
        self._plans.clear()
        self._problems.clear()
        self.applied.hide()
        self.bindings.show()
        self.refresh()

    def _page_changed(self, _page_id: int) -> None:
        """Shown (Back from the preview too): the session's values and their plan."""
        if self._wizard.currentPage() is self:
            self.bindings.show()
            self._enable()
            self.refresh()

    def first_input(self) -> QWidget:
        """The control the focus starts on: the box of the privacy level."""
        return self.t if self.t.isEnabled() else self.epsilon

    @property
    def mechanism(self) -> str:
        """The name of the mechanism chosen (a key of :data:`engine.MECHANISMS`)."""
        return self.session.params.mechanism

    def set_mechanism(self, mechanism: str) -> None:
        """Choose ``mechanism`` as the user does (its radio button)."""
        self.mechanism_buttons[mechanism].setChecked(True)

    @property
    def chosen(self) -> type[Mechanism]:
        """The class of the mechanism chosen."""
        return MECHANISMS[self.mechanism]

    def uses(self, field: str, mechanism: str | None = None) -> bool:
        """Whether ``mechanism`` (default: the one chosen) reads ``field`` (one of
        :data:`MECHANISM_FIELDS`): its control is enabled only then.  A noise mechanism
        reads the noise's options."""
        chosen = MECHANISMS[mechanism or self.mechanism]
        return field in chosen.fields or (chosen.noise and field in NOISE_FIELDS)

    def isComplete(self) -> bool:
        plan = self.current_plan
        return not self.problem and plan is not None and plan.feasibility.ok

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

    # --- what a choice writes ------------------------------------------------------------
    def _level_chosen(self, view: str) -> None:
        """t or ε chosen as the level's view: the session takes the level the other box
        shows (the same level, in the other unit)."""
        p = self.session.params
        if view == "epsilon":
            self.session.update(epsilon=self.level.epsilon(p), t=None)
        else:
            self.session.update(t=self.level.t(p), epsilon=None)

    def _mechanism_chosen(self, mechanism: str) -> None:
        """The mechanism changed: a noise mechanism takes the level as ε (the same level: t
        = 1.01 becomes ε = 0.0199), and the fields of this page that it does not read go
        back to their defaults."""
        p = self.session.params
        changes: dict[str, Any] = {"mechanism": mechanism}
        if MECHANISMS[mechanism].noise and p.epsilon is None:
            changes.update(epsilon=self.level.epsilon(p), t=None)
        for field in MECHANISM_FIELDS:
            if not self.uses(field, mechanism):
                changes[field] = DEFAULTS[field]
        self.session.update(**changes)

    @property
    def problem(self) -> str:
        """Why the widgets do not hold valid parameters ("" when they do)."""
        return self.bindings.problem

    def _changed(self) -> None:
        """The session changed, or an edit was refused: what the page derives follows."""
        self._enable()
        self.applied.setVisible(bool(self.bindings.notice))
        if self.bindings.notice:
            self.applied.setText(
                self.tr("Not changed: {reason}").format(reason=html.escape(self.bindings.notice))
            )
        if self._wizard.currentPage() is self:
            self._timer.start()
        self.completeChanged.emit()

    def _enable(self) -> None:
        p = self.session.params
        noise = self.chosen.noise
        self.by_t.setEnabled(not noise)
        self.t.setEnabled(not noise and p.epsilon is None)
        self.epsilon.setEnabled(noise or p.epsilon is not None)
        self.n_buckets.setEnabled(self.uses("n_buckets"))
        self.drop_missing.setEnabled(not noise)
        self.insensitive.setEnabled(self.uses("insensitive"))
        self.log_scale.setEnabled(self.uses("transform"))
        private = self.uses("private_bounds")
        self.private_bounds.setEnabled(private)
        self.private_share.setEnabled(private and p.private_bounds is not None)
        self.private_share_label.setEnabled(private)
        columns = self.categories.show_columns(noise)
        self._form.setRowVisible(self.categories, bool(columns))

    def refresh(self) -> None:
        """Show the plan of the present parameters (asking the engine for it if need be)."""
        self._clear_fixes()
        if self.problem:
            self._show_problem(self.problem)
        elif self.session.data is not None:
            plan = self.current_plan
            if self.session.params in self._problems:
                self._show_problem(self._problems[self.session.params])
            elif plan is None:
                self._request_plan()
                self._show_waiting()
            else:
                self._show_plan(plan)
        self.completeChanged.emit()

    def _request_plan(self) -> None:
        s = self.session
        params, data = s.params, s.data
        if data is None or (self._planner.busy and self._planning == params):
            return  # asked already (a newer request cancels an older one)
        self._planning = params

        def done(plan: Plan) -> None:
            self._plans[params] = plan
            self._refresh_if_shown()

        def failed(err: BaseException, detail: str) -> None:
            if isinstance(err, TcloseError):
                self._problems[params] = err.message
            else:
                log.error("planning the release failed:\n%s", detail)
                self._problems[params] = self.tr("The plan could not be made; see the log.")
            self._refresh_if_shown()

        if params in self._problems:
            self._show_problem(self._problems[params])
            return
        self._planner.start(
            lambda task: run_engine(make_plan, data, params, task=task),
            title=self.tr("Planning the release"),
            on_finished=done,
            on_failed=failed,
            on_cancelled=self._refresh_if_shown,
        )

    def _refresh_if_shown(self) -> None:
        if self._wizard.currentPage() is self:
            self.refresh()

    # --- showing ---------------------------------------------------------------------------
    def _set_rich(self, browser: QTextBrowser, body: str) -> None:
        browser.document().setDefaultStyleSheet(rich_text_css(browser))
        browser.setHtml(body)

    def _show_waiting(self) -> None:
        self.feasibility.setText(self.tr("Checking what this file allows…"))
        self.feasibility.set_warning(False)
        self.one_class_box.hide()
        self.class_sizes.hide()

    def _show_problem(self, problem: str) -> None:
        text = self.tr("Next is disabled: {problem}").format(problem=html.escape(problem))
        if text != self.feasibility.text():
            announce(self, self.tr("Next is disabled: {problem}").format(problem=problem))
        self.feasibility.setText(text)
        self.feasibility.set_warning(True)
        self.one_class_box.hide()
        self.class_sizes.hide()
        self.summary.setText("")
        self._set_rich(self.details, "")

    def _show_plan(self, plan: Plan) -> None:
        self._set_rich(
            self.details,
            guarantees_html(plan.guarantees)
            + bucket_choices_html(plan.bucket_choices, plan.params.utility_weight),
        )
        feas = plan.feasibility
        if not feas.ok:
            problem = feas.message
            if feas.fixes:
                problem += " " + self.tr("Nearest settings that work:")
            self._show_problem(problem)
            for fix in feas.fixes:
                self._add_fix(fix)
            return
        self.summary.setText("\n".join(words(p.template, p.values) for p in plan_words(plan)))
        reason = plan.class_sizes.reason
        one_class = plan.class_sizes.max_classes == 1
        self.one_class_box.setVisible(one_class)
        if one_class:
            self.one_class.setText(
                self.tr("Only one class: {reason}").format(reason=html.escape(reason))
            )
        self.class_sizes.setVisible(bool(reason) and not one_class)
        if reason and not one_class:
            self.class_sizes.setText(
                self.tr("Why the groups will be larger than k: {reason}").format(
                    reason=html.escape(reason)
                )
            )
        self.feasibility.setText(self.plan_text(plan))
        self.feasibility.set_warning(bool(plan.review_warnings))  # noise drowns the values
        for fix in plan.alternatives:  # the next best numbers of buckets, one click each
            self._add_fix(fix)

    def plan_text(self, plan: Plan) -> str:
        """What the plan says about this file, in a few sentences for the feasibility box."""
        p = plan.params
        parts = []
        if plan.t is not None:
            parts.append(
                self.tr("t = {t} (ε = {epsilon}) and k = {k} can be met.").format(
                    t=number(plan.t), epsilon=number(plan.epsilon), k=number(p.k)
                )
            )
        else:
            parts.append(
                self.tr("Every group will hold at least k = {k} records.").format(k=number(p.k))
            )
        if plan.buckets:
            smallest = min(plan.buckets, key=lambda b: b.count)
            parts.append(
                self.tr(
                    "The confidential values fall into {b} buckets (the smallest, {label}, "
                    "holds {count} records)."
                ).format(
                    b=number(len(plan.buckets)),
                    label=html.escape(smallest.label),
                    count=number(smallest.count),
                )
            )
        for col in plan.noise:
            if col.keep_probability is not None:
                text = self.tr(
                    "{column}: randomized response; each value is kept with probability "
                    "{keep}, otherwise replaced at random."
                )
            elif col.expected_abs_error is not None:
                text = self.tr(
                    "{column}: Laplace noise for ε = {epsilon}, about ±{error} per value "
                    "on average."
                )
            elif col.typical_factor is not None:
                text = self.tr(
                    "{column}: Laplace noise for ε = {epsilon} on the log scale; half of the "
                    "values stay within a factor {factor} of their true value."
                )
            else:
                text = self.tr(
                    "{column}: Laplace noise for ε = {epsilon}; the bounds are estimated "
                    "privately when the release is made, so the error is known only then."
                )
            # each sentence takes the numbers it names (str.format ignores the others)
            parts.append(
                text.format(
                    column=html.escape(col.name),
                    epsilon=number(col.epsilon),
                    keep=percent(col.keep_probability),
                    error=number(col.expected_abs_error),
                    factor=number(col.typical_factor),  # written as t is
                )
            )
        parts.extend(self.survey_sentences(plan))
        reason = plan.class_sizes.reason
        # quote=False: the box may show plain text, where &#x27; would read as such
        parts.extend(html.escape(w, quote=False) for w in plan.review_warnings)
        parts.extend(html.escape(w, quote=False) for w in plan.warnings if w != reason)
        return " ".join(parts)

    def survey_sentences(self, plan: Plan) -> list[str]:
        """The households and the risk before the release, for a survey file (household or
        weight tagged); nothing otherwise."""
        p, homes, risk = plan.params, plan.households, plan.risk_before
        parts = []
        if homes is not None:
            level = ", ".join(html.escape(c) for c in homes.household_level) or self.tr("none")
            parts.append(
                self.tr(
                    "Every group will hold records of at least {k} of the {n} households; "
                    "released alike for all members of a household: {level}."
                ).format(k=number(p.k), n=number(homes.n_households), level=level)
            )
        if risk is not None and (homes is not None or risk.weighted):
            text = self.tr(
                "Risk of the original records: {expected} expected re-identifications (largest "
                "risk {largest})"
            ).format(
                expected=number(risk.expected_reidentifications, 3),
                largest=number(risk.max_risk, 3),
            )
            if risk.household_risk is not None:
                text += self.tr(", household risk {risk} on average").format(
                    risk=number(risk.household_risk, 3)
                )
            parts.append(
                text
                + self.tr("; after the release each record's risk is at most 1/k = {r}.").format(
                    r=number(1 / p.k, 3)
                )
            )
        return parts

    def _toggle_details(self, shown: bool) -> None:
        self.details.setVisible(shown)
        self._right_stretch.setVisible(not shown)
        self.explain.setVisible(not shown)

    def _add_fix(self, fix: Fix) -> None:
        button = QPushButton(fix.description)
        changes = ", ".join(
            f"{field_label(k)} = {shown_value(k, v)}" for k, v in fix.changes.items()
        )
        button.setToolTip(self.tr("Use these settings: {changes}").format(changes=changes))
        button.clicked.connect(lambda _checked=False, f=fix: self.apply(f))
        self.fixes.insertWidget(self.fixes.count() - 1, button)

    def _clear_fixes(self) -> None:
        while self.fixes.count() > 1:
            item = self.fixes.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()

    def apply(self, fix: Fix) -> None:
        """Adopt a suggested feasible setting (the one-click fix) and say what it changed."""
        before = self.session.params
        try:
            self.session.update(**fix.changes)
        except TcloseError as err:
            self._show_problem(err.message)
            return
        after = self.session.params
        changed = [
            self.tr("{field} from {old} to {new}").format(
                field=field_label(name),
                old=shown_value(name, getattr(before, name)),
                new=shown_value(name, getattr(after, name)),
            )
            for name in fix.changes
            if getattr(before, name) != getattr(after, name)
        ]
        self.refresh()
        self.applied.setText(
            self.tr("Changed: {changes}.").format(changes="; ".join(changed))
            if changed
            else self.tr("The settings already were these.")
        )
        self.applied.show()


def _wrap(layout) -> QWidget:
    widget = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    widget.setLayout(layout)
    return widget


def _row(*widgets: QWidget) -> QWidget:
    """``widgets`` side by side, as one field of a form."""
    layout = QHBoxLayout()
    for widget in widgets:
        layout.addWidget(widget)
    return _wrap(layout)
