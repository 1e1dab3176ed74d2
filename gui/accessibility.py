"""What a screen reader is told about a window: every control's name, every plot's text.

Assistive technology (NVDA and Narrator on Windows, VoiceOver on macOS, Orca on Linux) reads
a window through the platform's accessibility API, which Qt feeds from
:class:`~PySide6.QtGui.QAccessibleInterface`: a role, a name and a description per object.
A control that takes the keyboard focus but has no name is announced as "edit" or "spin
box" and nothing more; a plot is a picture unless it says what it shows.  :func:`audit`
walks a window the way the platform does and lists every such problem, so that a test (and
``tclose-gui --screenshots``, which writes what it found beside the pictures) can insist on
none.

What counts, in the words of EN 301 549 clause 11 (WCAG 2.1 applied to software):

* 4.1.2 Name, Role, Value: every control that takes the focus has an accessible name (its
  buddy label, its own text, or an accessible name set in code).  A combo box's current
  item is its value, not its name: it needs a label or a name of its own.
* 1.1.1 Non-text content: every plot (:class:`~gui.widgets.FigureView`) carries an
  accessible description that says what it shows, and its data as a table the keyboard
  can reach.

:func:`announce` tells a screen reader of a status that changed where the focus is not
(4.1.3 Status messages): a verified run, a written file, why Next is disabled.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QComboBox, QLabel, QWidget


@dataclass(frozen=True)
class Control:
    """One object as the accessibility API presents it."""

    #: the widget's class and object name, and where it sits (its named ancestors)
    kind: str
    where: str
    role: str
    name: str
    description: str
    #: whether the keyboard can reach it with Tab (else only by click or not at all)
    focusable: bool

    def line(self) -> str:
        desc = f" — {self.description[:80]}" if self.description else ""
        return f"{self.role:<14} {self.name or '(no name)'!r}{desc}  [{self.kind} in {self.where}]"


@dataclass(frozen=True)
class Problem:
    """Something a screen-reader user cannot know: an unnamed control, a silent plot."""

    control: Control
    what: str

    def __str__(self) -> str:
        return f"{self.what}: {self.control.kind} in {self.control.where}"


def _label_for(widget: QWidget) -> str:
    """The text of a label whose buddy is ``widget`` (searched among its siblings)."""
    parent = widget.parentWidget()
    if parent is None:
        return ""
    for label in parent.findChildren(QLabel, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if label.buddy() is widget:
            return label.text()
    return ""


def _where(widget: QWidget) -> str:
    """The chain of named (or titled) ancestors, for a message that finds the widget."""
    parts = []
    w: QWidget | None = widget.parentWidget()
    while w is not None and len(parts) < 3:
        title = w.objectName() or (w.title() if hasattr(w, "title") and callable(w.title) else "")
        if title and not title.startswith("qt_"):
            parts.append(str(title))
        w = w.parentWidget()
    return " / ".join(parts) or type(widget.window()).__name__


def describe(widget: QWidget) -> Control | None:
    """How the accessibility API presents ``widget`` (None when it presents nothing)."""
    iface = QAccessible.queryAccessibleInterface(widget)
    if iface is None or not iface.isValid():
        return None
    name = (iface.text(QAccessible.Text.Name) or "").strip()
    if isinstance(widget, QComboBox) and not (widget.accessibleName() or _label_for(widget)):
        name = ""  # Qt falls back on the current item: a value, not a name
    return Control(
        kind=type(widget).__name__ + (f"#{widget.objectName()}" if widget.objectName() else ""),
        where=_where(widget),
        role=iface.role().name,
        name=name,
        description=(iface.text(QAccessible.Text.Description) or "").strip(),
        focusable=bool(widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value),
    )


def controls(root: QWidget) -> list[tuple[QWidget, Control]]:
    """Every control of ``root``'s window that the keyboard reaches (Tab), as the platform
    sees it, shown or not (a control hidden now shows in another state of the page).

    A widget whose focus goes to the control it is part of (a spin box's editor) is
    presented by that control; a container whose focus goes to a part of it (a tab widget
    and its tab bar) is a focusable object of its own on the platform and needs a name too.
    The popups of combo boxes are windows of their own.
    """
    out = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value:
            continue  # the keyboard never reaches it (a label selectable by mouse …)
        proxy = widget.focusProxy()
        if proxy is not None and not widget.isAncestorOf(proxy):
            continue  # a part of another control (a spin box's editor): that one speaks
        if widget.window() is not root.window():
            continue
        control = describe(widget)
        if control is not None:
            out.append((widget, control))
    return out


def audit(root: QWidget) -> list[Problem]:
    """The accessibility problems of ``root`` and everything in it (empty: none)."""
    from gui.widgets import FigureView  # the plots' own check: description and data

    problems = []
    for _, control in controls(root):
        if not control.name:
            problems.append(Problem(control, "a control without an accessible name"))
    for view in [root, *root.findChildren(QWidget)]:
        if not isinstance(view, FigureView) or view.window() is not root.window():
            continue
        control = describe(view)
        if control is None:
            continue
        if not view.accessibleDescription().strip():
            problems.append(Problem(control, "a plot without a description"))
        if view.figure is not None and not view.has_table:
            problems.append(Problem(control, "a plot without its data as a table"))
    return problems


def announce(widget: QWidget, message: str, *, urgent: bool = False) -> None:
    """Have a screen reader say ``message`` (a status that changed without the focus moving:
    a run verified, a file written, why Next is disabled), as EN 301 549 11.4.1.3 asks.

    ``urgent`` interrupts what is being read (an error); otherwise the message waits its turn.
    """
    text = " ".join(message.split())
    if not text:
        return
    event = QAccessibleAnnouncementEvent(widget, text)
    event.setPoliteness(
        QAccessible.AnnouncementPoliteness.Assertive
        if urgent
        else QAccessible.AnnouncementPoliteness.Polite
    )
    QAccessible.updateAccessibility(event)


def _plain(text: str) -> str:
    return " ".join(text.replace("&", "").replace(":", "").split()).casefold()


def drop_repeated_names(root: QWidget) -> int:
    """Let a label that names its buddy be the buddy's only name.

    A field made from a declared parameter carries the parameter's label as its accessible
    name; where a visible label next to it says the same ("Number of buckets:"), a screen
    reader would read both ("Number of buckets: number of buckets spin button").  The
    field's own name is cleared then, and the platform takes the label's text.  Returns how
    many names were dropped.
    """
    dropped = 0
    for label in root.findChildren(QLabel):
        buddy = label.buddy()
        if buddy is None or buddy.parentWidget() is not label.parentWidget():
            continue  # the platform finds a label among its buddy's siblings only
        if buddy.accessibleName() and _plain(buddy.accessibleName()) == _plain(label.text()):
            buddy.setAccessibleName("")
            dropped += 1
    return dropped


def report(root: QWidget) -> str:
    """Every focusable control of ``root`` with its role, name and description, then the
    problems (what ``--screenshots`` writes for a page)."""
    lines = [c.line() for _, c in controls(root)]
    problems = audit(root)
    lines.append(f"-- {len(lines)} controls, {len(problems)} problems")
    lines.extend(f"PROBLEM {p}" for p in problems)
    return "\n".join(lines)
