"""The privacy page's public categories: one line per nominal or ordinal confidential column.

On the noise route a category column gets randomized response, which draws from the
column's public categories: declared, never read off the data (one person's rare category
would show in the release).  This box holds one text field per such column (``cold|flu|HIV``,
the form of ``--categories`` and of a project file), each bound to the column's entry of the
session's ``categories`` (:mod:`gui.binding`), as the bounds' field is bound to ``bounds``:
it shows the session's value whenever that changes, and what the user types is read by the
engine's own reader (:func:`gui.state.parse_categories`) and checked by the parameters, with
the words the command line and a project file get.

The fields are made the first time their column needs one and are kept (hidden and disabled
when their column is not a category column of a noise release), so that every binding keeps
its widget.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QLineEdit, QWidget

from engine import ColumnType
from gui.binding import Bindings
from gui.fields import field_help
from gui.state import Session, format_categories, parse_categories

#: the column types whose values are categories (randomized response on the noise route)
CATEGORY_TYPES = (ColumnType.NOMINAL, ColumnType.ORDINAL)


class CategoriesBox(QWidget):
    """A text field of public categories per category column of a noise release."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        #: the page's bindings, which every field joins (:meth:`bind`)
        self.bindings: Bindings | None = None
        #: the text field of each column that has had one, by column name
        self.edits: dict[str, QLineEdit] = {}
        self._labels: dict[str, QLabel] = {}
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.setVisible(False)

    def bind(self, bindings: Bindings) -> None:
        """Bind every field, present and to come, with the page's ``bindings``: their
        problems are the page's, and they show the session's values with the page's."""
        self.bindings = bindings

    def columns(self, noise: bool) -> list[str]:
        """The confidential columns whose categories the release needs (none without noise)."""
        s = self.session
        if not noise or s.data is None:
            return []
        return [
            c
            for c in s.params.confidential
            if c in s.columns and s.column_type(c) in CATEGORY_TYPES
        ]

    def show_columns(self, noise: bool) -> list[str]:
        """Show a field for every category column of a noise release, and only those;
        returns their names."""
        wanted = self.columns(noise) if self.bindings is not None else []
        for column in wanted:
            if column not in self.edits:
                self._add(column)
        for column, edit in self.edits.items():
            shown = column in wanted
            self.form.setRowVisible(edit, shown)
            edit.setEnabled(shown)  # a hidden field's text is no problem of the page
            if shown:
                edit.setPlaceholderText(self._placeholder(column))
        self.setVisible(bool(wanted))
        return wanted

    def _placeholder(self, column: str) -> str:
        """What an empty field says: an ordinal column's declared order where it has one."""
        order = self.session.params.orders.get(column)
        if order:
            return self.tr("empty = its declared order, {order}").format(
                order=format_categories(order)
            )
        return self.tr("e.g. cold|flu|HIV")

    def _add(self, column: str) -> None:
        edit = QLineEdit()
        edit.setAccessibleName(self.tr("Public categories of {column}").format(column=column))
        help_text = field_help("categories")
        edit.setToolTip(help_text)
        edit.setAccessibleDescription(help_text)
        label = QLabel(self.tr("{column}:").format(column=column))
        label.setBuddy(edit)
        self.form.addRow(label, edit)
        self.edits[column] = edit
        self._labels[column] = label
        assert self.bindings is not None
        self.bindings.text(
            edit,
            lambda p: tuple(p.categories.get(column, ())),
            lambda categories: self._write(column, categories),
            parse=lambda text: parse_categories(column, text),
            format=format_categories,
        )

    def _write(self, column: str, categories: tuple[str, ...]) -> None:
        """The column's categories into the session (an empty field: none declared)."""
        declared = dict(self.session.params.categories)
        if categories:
            declared[column] = categories
        else:
            declared.pop(column, None)
        self.session.update(categories=declared)
