"""Widgets made from the fields of :class:`~engine.ReleaseParams`, bound to one field each.

A widget here is built from its field's declaration (:meth:`ReleaseParams.describe`): the
label becomes its accessible name, the help its tooltip and accessible description, the
constraint its range, the unit its suffix, the declared step its arrows.  It holds the
field's value exactly as the parameters have it and shows every digit of it in the reader's
conventions (:func:`gui.numbers.exact`), so that 2.3456, 1500, 0.0005 or 2,000,000 read and
stay as they are: no range or number of decimals of the widget's own can round them.

The widget tells its page only what the user did (:attr:`NumberField.edited`, with the new
value); the page writes that one field back to the session and nothing else (the model is
glue's state objects bound to thin widgets).  Setting a value from the parameters
(:meth:`NumberField.set_value`) never reports an edit.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, QSize, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QWidget

from engine import InputError, ReleaseParams
from gui import numbers

translate = QCoreApplication.translate


def field_label(name: str) -> str:
    """The name of field ``name`` for people, in the app's language."""
    return translate("params", ReleaseParams.describe(name).info.label)


def field_help(name: str) -> str:
    """What field ``name`` does, in the app's language."""
    return translate("params", ReleaseParams.describe(name).info.help)


def describe_widget(widget: QWidget, name: str) -> None:
    """Give ``widget`` field ``name``'s label as accessible name, its help as tooltip and
    accessible description (for widgets not made here: check boxes, text fields)."""
    widget.setAccessibleName(field_label(name))
    help_text = field_help(name)
    if help_text:
        widget.setToolTip(help_text)
        widget.setAccessibleDescription(help_text)


class NumberField(QAbstractSpinBox):
    """A number of a :class:`ReleaseParams` field, exact and in the reader's conventions.

    ``none_text`` (e.g. "automatic") is what the box shows for None where None is a value of
    the field; the arrows step by the field's declared step and stop at its range; typing
    accepts the local decimal mark and the English one.  A text that is not a value of the
    field leaves the value as it was and sets :attr:`problem` (the engine's own words), until
    the user corrects it or leaves the box (which then shows the value again).
    """

    #: the user set a new value (None: the ``none_text`` choice)
    edited = Signal(object)
    #: the text typed stopped or started being a value of the field ("" when it is one)
    problem_changed = Signal(str)

    def __init__(
        self,
        name: str,
        parent: QWidget | None = None,
        *,
        none_text: str | None = None,
        grouping: bool = True,
    ) -> None:
        super().__init__(parent)
        #: the declared field (engine.params.Field): label, help, unit, range, step
        self.field = ReleaseParams.describe(name)
        self.name = name
        self._none_text = none_text if self.field.optional else None
        self._grouping = grouping
        self._value: Any = None if self._none_text is not None else self._first()
        self._problem = ""
        info = self.field.info
        self._suffix = f" {info.unit}" if info.unit == "%" else ""
        describe_widget(self, name)
        for end, limit in (("minimum", self.field.low), ("maximum", self.field.high)):
            if limit is not None:
                self.setProperty(end, float(limit) * self.field.info.scale)
        self.setAccelerated(True)
        self.lineEdit().textEdited.connect(self._typed)
        self.editingFinished.connect(self._finished)
        self._show()

    # --- the value ----------------------------------------------------------------------
    def value(self) -> Any:
        """The field's value as the widget holds it (exactly what was set or typed)."""
        return self._value

    def set_value(self, value: Any) -> None:
        """Show ``value`` (from the parameters); never reported as an edit."""
        if value is None and self._none_text is None:
            raise ValueError(f"{self.name} cannot be empty here")
        self._value = value
        self._set_problem("")
        self._show()

    def offer(self, value: float) -> None:
        """Show a value the app computed (t from ε), rounded to the field's declared
        decimals; like :meth:`set_value`, not an edit."""
        decimals = self.field.info.decimals
        rounded = float(round(value, decimals)) if math.isfinite(value) else value
        if not self.field.allows(rounded):
            rounded = value
        self.set_value(int(rounded) if self.field.whole else rounded)

    def setValue(self, value: Any) -> None:
        """Set ``value`` as a user would (reported through :attr:`edited` when it changed)."""
        if value is not None and not self.field.whole:
            value = float(value)
        self.field.constraint.check(self.name, value)
        if not _same(value, self._value):
            self._value = value
            self._set_problem("")
            self._show()
            self.edited.emit(value)

    def specialValueText(self) -> str:
        """What the box shows for None ("" when None is not one of its values)."""
        return self._none_text or ""

    @property
    def problem(self) -> str:
        """Why the text in the box is not a value of the field ("" when it is)."""
        return self._problem

    # --- text ---------------------------------------------------------------------------
    def _locale(self) -> QLocale:
        locale = self.locale()
        return numbers.reader_locale() if locale.language() == QLocale.Language.C else locale

    def text_of(self, value: Any) -> str:
        """How ``value`` reads in this box: every digit, the reader's marks, the unit."""
        if value is None:
            return self._none_text or ""
        scale = self.field.info.scale
        if scale != 1:
            value = _scaled(float(value), scale)
        return numbers.exact(value, self._locale(), grouping=self._grouping) + self._suffix

    def value_of(self, text: str) -> Any:
        """The value ``text`` stands for (InputError in the engine's words otherwise)."""
        stripped = text.strip()
        if self._suffix and stripped.endswith(self._suffix.strip()):
            stripped = stripped[: -len(self._suffix.strip())].strip()
        if self._none_text is not None and (
            not stripped or stripped.lower() == self._none_text.lower()
        ):
            return None
        try:
            if self.field.whole:
                value: Any = numbers.parse_whole(stripped, self._locale())
            else:
                value = numbers.parse(stripped, self._locale()) / self.field.info.scale
        except ValueError:
            raise self.field.constraint.fail(self.name, stripped) from None
        if self.field.info.scale != 1 and not self.field.allows(value):
            # the engine's message names the value the user typed (12 %), not 0.12
            raise InputError(
                translate(
                    "NumberField", "{label} must be more than 0 % and less than 100 %."
                ).format(label=field_label(self.name))
            )
        return self.field.constraint.check(self.name, value)

    def _show(self) -> None:
        self.lineEdit().setText(self.text_of(self._value))
        # what the platform's value interface reads (Qt asks a spin box for these properties)
        value = self._value
        shown = float(value) * self.field.info.scale if value is not None else None
        self.setProperty("value", shown if shown is None or math.isfinite(shown) else None)

    def _set_problem(self, problem: str) -> None:
        if problem != self._problem:
            self._problem = problem
            self.problem_changed.emit(problem)

    def _typed(self, text: str) -> None:
        try:
            value = self.value_of(text)
        except InputError as err:
            self._set_problem(err.message)
            return
        self._set_problem("")
        if not _same(value, self._value):
            self._value = value
            self.edited.emit(value)

    def _finished(self) -> None:
        if self._problem:
            self._set_problem("")
        self._show()

    # --- QAbstractSpinBox ---------------------------------------------------------------
    def validate(self, text: str, pos: int) -> QValidator.State:
        try:
            self.value_of(text)
        except InputError:
            return QValidator.State.Intermediate
        return QValidator.State.Acceptable

    def fixup(self, text: str) -> str:
        return self.text_of(self._value)

    def stepBy(self, steps: int) -> None:
        value = self._stepped(steps)
        if (value is not None or self._value is not None) and not _same(value, self._value):
            self._value = value
            self._set_problem("")
            self._show()
            self.edited.emit(value)
        self.selectAll()

    def _first(self) -> Any:
        """The value a box shows before it is given one (the lowest allowed)."""
        f = self.field
        low = f.low if f.low is not None else 0
        if not f.closed[0]:
            low = low + f.info.step / f.info.scale
        return int(low) if f.whole else float(low)

    def _stepped(self, steps: int) -> Any:
        f = self.field
        step = Decimal(repr(f.info.step / f.info.scale))
        if self._value is None:
            return self._first() if steps > 0 else None
        new = Decimal(repr(self._value)) + steps * step
        value: Any = int(new) if f.whole else float(new)
        if f.allows(value):
            return value
        if f.low is not None and value <= f.low:
            if self._none_text is not None:
                return None
            return self._value if not f.closed[0] else (int(f.low) if f.whole else f.low)
        if f.high is not None and value >= f.high:
            return self._value if not f.closed[1] else (int(f.high) if f.whole else f.high)
        return self._value

    def stepEnabled(self) -> QAbstractSpinBox.StepEnabledFlag:
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.isReadOnly():
            return flags
        if not _same(self._stepped(1), self._value):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        if not _same(self._stepped(-1), self._value):
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        return flags

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        metrics = self.fontMetrics()
        sample = max(
            (self.text_of(self._value), self._none_text or "", "0000000" + self._suffix), key=len
        )
        width = metrics.horizontalAdvance(sample) + 48
        return QSize(max(hint.width(), width), hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def _scaled(value: float, scale: float) -> float:
    """``value × scale`` written with the fewest digits that divide back to ``value`` exactly
    (0.07 → 7, not 7.000000000000001)."""
    product = value * scale
    for digits in range(1, 18):
        candidate = float(f"{product:.{digits}g}")
        if candidate / scale == value:
            return candidate
    return product


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    return a == b and type(a) is type(b)
