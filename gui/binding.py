"""Widgets bound to the session: one binding per field, both directions.

A page does not copy values into its widgets, nor read them back from the widgets: each widget
is bound to one value of the session's :class:`~engine.ReleaseParams`, and its binding

* shows the session's value whenever the session changes (whichever page, dialog, fix or
  project changed it) and whenever the page is shown, so a page never shows what the session
  no longer holds;
* writes what the user did to the session (:meth:`gui.state.Session.update`, which validates
  it), the one field the widget stands for and nothing else.

The model is glue's ``echo`` (``connect_value``, ``connect_combo_data``: one call binds one
widget to one property, both ways).  echo itself is not used: it binds widgets to mutable
callback properties, while the session holds one frozen, validated ``ReleaseParams`` that
changes only whole (a change of t clears ε, a mechanism resets the fields it does not read),
so echo would need a second, mutable copy of every field kept in step with it, the very
copy whose drift this module removes; and its Qt helpers come through ``qtpy`` and know the
stock spin boxes, not :class:`~gui.fields.NumberField`, which holds a field's value exactly.

What the user typed that the session refuses (a bound the log scale cannot take, a text that
is not a seed) stays in its field with the reason (:attr:`Bindings.problem`), and is tried
again whenever the session changes; a choice the session refuses (a check box, a radio
button, a list) goes back to the session's value at once and the reason is kept as a notice
(:attr:`Bindings.notice`).  A value shown by a binding is never reported as an edit: the
bindings ignore their own widgets' signals while they show values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QWidget
from shiboken6 import Shiboken

from engine import ReleaseParams, TcloseError, epsilon_from_t, t_from_epsilon
from gui.fields import NumberField
from gui.state import Session

#: what a binding reads of the parameters
Read = Callable[[ReleaseParams], Any]
#: what a binding does with a value the user gave (raises TcloseError or ValueError when the
#: session refuses it)
Write = Callable[[Any], None]


@dataclass(eq=False)
class Binding:
    """One widget showing one value of the session."""

    widget: QWidget
    read: Read
    write: Write
    #: show a value on the widget (never reported as an edit)
    show: Callable[[Any], None]
    #: the value the widget shows now
    shown: Callable[[], Any]
    #: True for a widget the user types in: a refused text stays in it (else it goes back)
    typed: bool = False
    #: the widget's own objection to its text ("" when it reads as a value)
    own_problem: Callable[[], str] = field(default=lambda: "")
    #: why the session refused the user's last value ("" when it took it)
    refused: str = ""
    #: the session's value when it refused (another value there replaces the refused text)
    refused_over: Any = None

    @property
    def problem(self) -> str:
        """Why the widget does not show a value the session holds ("" when it does)."""
        if not self.widget.isEnabled():
            return ""
        return self.own_problem() or self.refused


class Bindings:
    """The bindings of one page (or dialog) to the session.

    ``changed()`` is called after the session changed and every widget shows it, and after
    an edit the session refused: the page then updates what it derives (its plan, its
    notes, which controls are enabled).
    """

    def __init__(
        self, session: Session, owner: QWidget, changed: Callable[[], None] | None = None
    ) -> None:
        self.session = session
        self._owner = owner
        self._changed = changed
        self.bindings: list[Binding] = []
        #: why a choice the user made was not taken (shown, not blocking; "" when none)
        self.notice = ""
        self._showing = False
        self._retrying = False
        session.watch(self._session_changed)

    # --- one binding per kind of widget ----------------------------------------------------
    def add(self, binding: Binding) -> Binding:
        self.bindings.append(binding)
        self._show(binding)
        return binding

    def number(
        self,
        box: NumberField,
        read: Read | None = None,
        write: Write | None = None,
    ) -> Binding:
        """``box`` shows field ``box.name`` (or ``read``) and writes it (or ``write``)."""
        name = box.name
        binding = self.add(
            Binding(
                box,
                read or (lambda p: getattr(p, name)),
                write or (lambda value: self.session.update(**{name: value})),
                box.set_value,
                box.value,
                typed=True,
                own_problem=lambda: box.problem,
            )
        )
        box.edited.connect(lambda value: self.edited(binding, value))
        box.problem_changed.connect(lambda _text: self._after_edit())
        return binding

    def check(self, box: QAbstractButton, read: Read, write: Write) -> Binding:
        """A check box that is on when ``read`` is true."""
        binding = self.add(
            Binding(box, lambda p: bool(read(p)), write, box.setChecked, box.isChecked)
        )
        box.toggled.connect(lambda on: self.edited(binding, bool(on)))
        return binding

    def choice(self, buttons: Mapping[Any, QAbstractButton], read: Read, write: Write) -> Binding:
        """Radio buttons, one per value; the one of the session's value is checked."""

        def shown() -> Any:
            return next((value for value, b in buttons.items() if b.isChecked()), None)

        first = next(iter(buttons.values()))
        binding = self.add(
            Binding(first, read, write, lambda value: buttons[value].setChecked(True), shown)
        )
        for value, button in buttons.items():
            button.toggled.connect(lambda on, v=value: self.edited(binding, v) if on else None)
        return binding

    def combo(self, box: QComboBox, read: Read, write: Write) -> Binding:
        """A list whose items carry the values (``itemData``), as echo's
        ``connect_combo_data``."""
        binding = self.add(
            Binding(
                box,
                read,
                write,
                lambda value: box.setCurrentIndex(max(0, box.findData(value))),
                box.currentData,
            )
        )
        box.currentIndexChanged.connect(lambda _i: self.edited(binding, box.currentData()))
        return binding

    def text(
        self,
        edit: QLineEdit,
        read: Read,
        write: Write,
        *,
        parse: Callable[[str], Any],
        format: Callable[[Any], str],
        on_finish: bool = False,
    ) -> Binding:
        """A text field showing ``format(read(params))``; what the user types is written as
        ``write(parse(text))`` (as it is typed, or once the field is left: ``on_finish``).
        A text that does not parse (ValueError, TcloseError) is the binding's problem."""

        def shown() -> Any:
            try:
                return parse(edit.text())
            except (ValueError, TcloseError):
                return _UNREADABLE

        def write_text(text: str) -> None:
            write(parse(text))

        binding = self.add(
            Binding(edit, read, write_text, lambda value: edit.setText(format(value)), shown, True)
        )
        if on_finish:
            edit.editingFinished.connect(lambda: self.edited(binding, edit.text()))
        else:
            edit.textChanged.connect(lambda text: self.edited(binding, text))
        return binding

    # --- both directions ----------------------------------------------------------------------
    def edited(self, binding: Binding, value: Any) -> None:
        """The user gave ``binding``'s widget ``value``: write it (the session validates)."""
        if self._showing:
            return  # a value this object shows, not an edit
        try:
            binding.write(value)
        except (TcloseError, ValueError) as err:
            message = err.message if isinstance(err, TcloseError) else str(err)
            if binding.typed:
                binding.refused = message
                binding.refused_over = binding.read(self.session.params)
            else:
                binding.refused = ""
                self.notice = message
                self._show(binding)  # a choice the session refused goes back
        else:
            binding.refused = ""
            self.notice = ""
            self._show(binding)  # what the session made of it (a mechanism's level …)
        self._after_edit()

    def show(self) -> None:
        """Every widget shows the session's value (a page calls it when it is shown)."""
        for binding in self.bindings:
            self._show(binding)

    def _show(self, binding: Binding) -> None:
        value = binding.read(self.session.params)
        if binding.typed:
            if binding.refused and _same(value, binding.refused_over):
                return  # the refused text stays with its reason until it is taken or changed
            if binding.own_problem() and binding.widget.hasFocus():
                return  # a text that is not a value stays while the user corrects it
            binding.refused = ""
        if not _same(binding.shown(), value):
            with self.showing():
                binding.show(value)

    @contextmanager
    def showing(self) -> Iterator[None]:
        """Signals of the bound widgets are not edits while a value is being shown."""
        before, self._showing = self._showing, True
        try:
            yield
        finally:
            self._showing = before

    def _session_changed(self, session: Session) -> None:
        if not Shiboken.isValid(self._owner):
            return  # the page is gone (its window closed); the session may outlive it
        self._retry()
        self.show()
        if self._changed is not None:
            self._changed()

    def _retry(self) -> None:
        """A typed value the session refused is tried again once the session changed (a
        bound refused for the log scale is taken once the log scale is off)."""
        if self._retrying:
            return
        self._retrying = True
        try:
            for binding in self.bindings:
                if binding.refused and binding.shown() is not _UNREADABLE:
                    try:
                        binding.write(_widget_value(binding))
                    except (TcloseError, ValueError):
                        continue
                    binding.refused = ""
        finally:
            self._retrying = False

    def _after_edit(self) -> None:
        if self._changed is not None and Shiboken.isValid(self._owner):
            self._changed()

    @property
    def problem(self) -> str:
        """Why a widget the user typed in does not hold a value the session took ("" when
        every widget shows the session's values)."""
        return next((b.problem for b in self.bindings if b.problem), "")


class Unreadable:
    """What a text field that does not read as a value shows."""


_UNREADABLE = Unreadable()


def _widget_value(binding: Binding) -> Any:
    widget = binding.widget
    if isinstance(widget, QLineEdit):
        return widget.text()
    return binding.shown()


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return False


# --- the privacy level: t and ε, two views of one level ------------------------------------
#: significant digits an offered level keeps (of its distance from the field's lowest value)
OFFER_DIGITS = 4


def offered(name: str, value: float) -> float:
    """``value`` (a level computed from the other view) as the app offers it for field
    ``name``: rounded to :data:`OFFER_DIGITS` significant digits of its distance from the
    field's lowest value (t from 1, ε from 0), and to at least the field's declared decimals.

    t = 1.01 offers ε = 0.0199 (2 ln 1.01 = 0.019900…), t = 2 offers ε = 1.386, and ε = 0.0005
    offers t = 1.00025, not 1 (which would be another level).
    """
    f = ReleaseParams.describe(name)
    if not math.isfinite(value):
        return value
    low = float(f.low) if f.low is not None else 0.0
    distance = abs(value - low)
    decimals = f.info.decimals
    if distance > 0:
        decimals = max(decimals, OFFER_DIGITS - 1 - math.floor(math.log10(distance)))
    rounded = round(value, decimals)
    return rounded if f.allows(rounded) else value


class Level:
    """The session's privacy level seen as t and as ε.

    The session holds one of them (``params.t`` or ``params.epsilon``); the other is offered,
    computed from it (:func:`offered`).  A value the session held before is offered again
    when the other view still rounds to it, so that t = 2 → ε → t gives 2 back, not 2.0001.
    """

    def __init__(self) -> None:
        self._held: dict[str, float] = {}

    def _remember(self, p: ReleaseParams) -> None:
        if p.t is not None:
            self._held["t"] = p.t
        if p.epsilon is not None:
            self._held["epsilon"] = p.epsilon

    def t(self, p: ReleaseParams) -> float:
        """t as the t box shows it: the session's, or offered from its ε."""
        return self._seen(p, "t", "epsilon", t_from_epsilon, epsilon_from_t)

    def epsilon(self, p: ReleaseParams) -> float:
        """ε as the ε box shows it: the session's, or offered from its t."""
        return self._seen(p, "epsilon", "t", epsilon_from_t, t_from_epsilon)

    def _seen(
        self,
        p: ReleaseParams,
        name: str,
        other: str,
        convert: Callable[[float], float],
        back: Callable[[float], float],
    ) -> float:
        """Field ``name`` of the level: the session's, or offered from the ``other`` field it
        holds (``convert``: other → name; ``back``: name → other)."""
        self._remember(p)
        own, given = getattr(p, name), getattr(p, other)
        if own is not None:
            return own
        assert given is not None
        held = self._held.get(name)
        if held is not None and offered(other, back(held)) == given:
            return held
        return offered(name, convert(given))
