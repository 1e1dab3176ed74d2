"""Step 2: say what every column is (role, type, missing-value codes)."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QFont, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine import ColumnType, Role, find_households
from engine.io import apply_missing
from gui.binding import Bindings
from gui.help import HelpButton
from gui.numbers import number, percent
from gui.pages.host import Host, Page
from gui.recoding_box import RecodingBox
from gui.state import ROLE_LABELS, Session, parse_codes, role_help, role_label
from gui.theme import attention_text
from gui.widgets import Hint

Index = QModelIndex | QPersistentModelIndex
translate = QCoreApplication.translate

COL_NAME, COL_TYPE, COL_ROLE, COL_MISSING, COL_DISTINCT, COL_EMPTY, COL_NOTE = range(7)
HEADERS = [
    QT_TRANSLATE_NOOP("RolesModel", "Column"),
    QT_TRANSLATE_NOOP("RolesModel", "Type"),
    QT_TRANSLATE_NOOP("RolesModel", "Role"),
    QT_TRANSLATE_NOOP("RolesModel", "Missing-value codes"),
    QT_TRANSLATE_NOOP("RolesModel", "Distinct"),
    QT_TRANSLATE_NOOP("RolesModel", "Empty"),
    QT_TRANSLATE_NOOP("RolesModel", "Why / note"),
]
HEADER_TIPS = [
    QT_TRANSLATE_NOOP("RolesModel", "The column's name in the file"),
    QT_TRANSLATE_NOOP(
        "RolesModel",
        "How values compare: numeric, ordinal (ordered categories), nominal (categories), date",
    ),
    QT_TRANSLATE_NOOP(
        "RolesModel",
        "What the column is for; only quasi-identifiers, confidential and 'other' are released",
    ),
    QT_TRANSLATE_NOOP(
        "RolesModel",
        "Values that mean 'missing' in this column, separated by commas (e.g. -1, 99, N/A)",
    ),
    QT_TRANSLATE_NOOP("RolesModel", "How many different values the column has"),
    QT_TRANSLATE_NOOP(
        "RolesModel", "The share of empty cells, once the missing-value codes are declared"
    ),
    QT_TRANSLATE_NOOP("RolesModel", "Why a role or type was suggested"),
]
TYPE_LABELS = {
    ColumnType.NUMERIC: QT_TRANSLATE_NOOP("RolesModel", "numeric"),
    ColumnType.ORDINAL: QT_TRANSLATE_NOOP("RolesModel", "ordinal"),
    ColumnType.NOMINAL: QT_TRANSLATE_NOOP("RolesModel", "nominal"),
    ColumnType.DATE: QT_TRANSLATE_NOOP("RolesModel", "date"),
}
TYPE_HELP = {
    ColumnType.NUMERIC: QT_TRANSLATE_NOOP("RolesModel", "numbers; compared by size"),
    ColumnType.ORDINAL: QT_TRANSLATE_NOOP(
        "RolesModel", "ordered categories (e.g. education level); compared by rank"
    ),
    ColumnType.NOMINAL: QT_TRANSLATE_NOOP(
        "RolesModel", "unordered categories (e.g. region); equal or not"
    ),
    ColumnType.DATE: QT_TRANSLATE_NOOP("RolesModel", "dates; compared as numbers of days"),
}
ROLES: list[Role | None] = [
    None,
    Role.IDENTIFIER,
    Role.QI,
    Role.CONFIDENTIAL,
    Role.OTHER,
    Role.HOUSEHOLD,
    Role.WEIGHT,
]
#: names listed in the summary line per role before "and N more"
LISTED = 12
#: rows the Type/Role/… columns are sized by (a file may have 10,000 columns)
SIZE_SAMPLE = 100
#: records the household-level QIs are looked for in on this page (fast on any file)
HOUSEHOLD_SAMPLE = 200_000


def _tr(text: str) -> str:
    return translate("RolesModel", text)


def type_label(ctype: ColumnType) -> str:
    return _tr(TYPE_LABELS[ctype])


class RolesModel(QAbstractTableModel):
    """One row per column of the session's table; type, role and codes are editable."""

    tags_changed = Signal()

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        #: the column names in order, for the session's columns dict ``_of`` (a new file
        #: brings a new dict)
        self._names: list[str] = []
        self._of: object = None

    def reset(self) -> None:
        self.beginResetModel()
        self._of = None
        self.endResetModel()

    def refresh(self) -> None:
        """Show the session's tags again (changed elsewhere: a project, another page)."""
        if self._of is not self.session.columns:
            self.reset()
        elif self.rowCount():
            last = self.index(self.rowCount() - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def _column(self, row: int) -> str:
        if self._of is not self.session.columns:
            self._names, self._of = list(self.session.columns), self.session.columns
        return self._names[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.session.columns)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (COL_TYPE, COL_ROLE, COL_MISSING):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def empty(self, name: str) -> int | None:
        """How many cells of column ``name`` are empty once its missing codes are declared
        (None when the import did not count them)."""
        suggested = self.session.columns[name].suggested
        if suggested is None or suggested.profile is None:
            return None
        return self.session.n_rows - suggested.profile.n

    def note(self, name: str) -> str:
        """The note of a column: a warning first, then why a role was suggested."""
        s = self.session
        info = s.columns[name]
        if s.role(name) == Role.QI and info.id_like:
            return _tr(
                QT_TRANSLATE_NOOP(
                    "RolesModel",
                    "Looks like an identifier: as a quasi-identifier it singles people out.",
                )
            )
        return info.suggestion or info.guess.note

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        s = self.session
        name = self._column(index.row())
        info = s.columns[name]
        ctype, tag = s.column_type(name), s.role(name)
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            # a small arrow tells that the cell opens a list of choices
            arrow = " ▾" if role == Qt.ItemDataRole.DisplayRole else ""
            if col == COL_NAME:
                return name
            if col == COL_TYPE:
                return type_label(ctype) + arrow
            if col == COL_ROLE:
                return role_label(tag) + arrow
            if col == COL_MISSING:
                return ", ".join(s.column_missing(name))
            if col == COL_DISTINCT:
                return number(info.n_distinct)
            if col == COL_EMPTY:
                empty = self.empty(name)
                return percent(empty / s.n_rows) if empty is not None and s.n_rows else ""
            if col == COL_NOTE:
                return self.note(name)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_DISTINCT, COL_EMPTY):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_EMPTY and self.empty(name) is not None and s.n_rows:
                empty = self.empty(name) or 0
                return _tr(
                    QT_TRANSLATE_NOOP("RolesModel", "{empty} of {rows} cells are empty ({share})")
                ).format(
                    empty=number(empty), rows=number(s.n_rows), share=percent(empty / s.n_rows)
                )
            if col == COL_ROLE:
                return role_help(tag)
            if col == COL_TYPE:
                return _tr(
                    QT_TRANSLATE_NOOP("RolesModel", "{type}: {help} (guessed: {note})")
                ).format(type=type_label(ctype), help=_tr(TYPE_HELP[ctype]), note=info.guess.note)
            if col == COL_NOTE:
                return self.note(name)
            return _tr(HEADER_TIPS[col])
        if role == Qt.ItemDataRole.FontRole and col == COL_ROLE and tag is not None:
            font = QFont()
            font.setBold(True)
            return font
        warned = tag == Role.QI and info.id_like
        if role == Qt.ItemDataRole.FontRole and col == COL_NOTE and warned:
            font = QFont()
            font.setBold(True)
            return font
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and col == COL_NOTE
            and (info.suggestion or warned)
        ):
            return QBrush(attention_text(QGuiApplication.palette()))
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        name = self._column(index.row())
        col = index.column()
        if col == COL_TYPE:
            self.session.set_type(name, value if isinstance(value, ColumnType) else _type_of(value))
        elif col == COL_ROLE:
            role_value = value if isinstance(value, Role) or value is None else _role_of(value)
            self.session.set_role(name, role_value)
        elif col == COL_MISSING:
            self.session.set_column_missing(name, parse_codes(str(value)))
        else:
            return False
        self.dataChanged.emit(self.index(index.row(), 0), self.index(index.row(), COL_NOTE))
        self.tags_changed.emit()
        return True

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return _tr(HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tr(HEADER_TIPS[section])
        return None


def _role_of(text: str) -> Role | None:
    """The role a label stands for (in English or in the app's language, or its value)."""
    for role, label in ROLE_LABELS.items():
        if text in (label, role_label(role), getattr(role, "value", None)):
            return role
    raise ValueError(f"unknown role {text!r}")


def _type_of(text: str) -> ColumnType:
    for ctype in ColumnType:
        if text in (ctype.value, TYPE_LABELS[ctype], type_label(ctype)):
            return ctype
    raise ValueError(f"unknown type {text!r}")


class ChoiceDelegate(QStyledItemDelegate):
    """A combo box editor offering fixed choices (with a tooltip for each)."""

    def __init__(self, choices: list[str], tips: list[str], parent: QWidget | None = None):
        super().__init__(parent)
        self.choices, self.tips = choices, tips

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        box = QComboBox(parent)
        for i, (choice, tip) in enumerate(zip(self.choices, self.tips, strict=True)):
            box.addItem(choice)
            box.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        box.activated.connect(lambda _i, b=box: self.commitData.emit(b))
        return box

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole)))

    def setModelData(self, editor: QWidget, model, index: Index) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)


class TagPage(Page):
    """The roles table, session-wide missing codes, and why Next is disabled."""

    def __init__(self, wizard: Host) -> None:
        super().__init__(wizard)
        self.setTitle(self.tr("2. Tag the columns"))
        self.setSubTitle(
            self.tr(
                "Give every column a role. A quasi-identifier is a column an intruder may "
                "already know about a person (age, sex, region); a confidential column is the "
                "sensitive value to protect. Columns left 'not released' are dropped."
            )
        )
        # the widgets are made in the order the keyboard reaches them
        self._roles_table()
        self._code_fields()
        self.reason = Hint(warning=True)
        self.warning = Hint(warning=True)
        self.warning.hide()
        #: why a code or name typed was not taken
        self.refused = Hint(warning=True)
        self.refused.hide()
        self.summary = Hint()
        # the household-level QIs found in the data (shown when a household column is tagged)
        self.households = Hint()
        self.households.hide()
        self._households_key: tuple | None = None
        # how the selected column is recoded before the grouping (bands, codes, hierarchy)
        self.recoding = RecodingBox(self.session, self)
        self.recoding.changed.connect(self._recoded)
        self.table.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._column_selected(current.row())
        )
        self._lay_out()
        # the codes and the household-level QIs are bound to the session (gui.binding)
        s = self.session
        self.bindings = Bindings(s, self, self._session_changed)
        codes = {"parse": parse_codes, "format": ", ".join, "on_finish": True}
        self.bindings.text(self.missing, lambda p: p.missing, s.set_missing, **codes)
        self.bindings.text(
            self.level,
            lambda p: p.household_level,
            lambda names: s.update(household_level=names),
            **codes,
        )

    # --- building ------------------------------------------------------------------------
    def _roles_table(self) -> None:
        """The columns with their type, role and missing-value codes, edited in place."""
        self.model = RolesModel(self.session)
        self.model.tags_changed.connect(self._changed)
        self.table = QTableView()
        self.table.setAccessibleName(self.tr("Columns and their roles"))
        self.table.setModel(self.model)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.AllEditTriggers
            & ~QAbstractItemView.EditTrigger.CurrentChanged
        )
        # Tab leaves the table (to the missing-value codes and Next); arrows move in it
        self.table.setTabKeyNavigation(False)
        self.table.setItemDelegateForColumn(
            COL_TYPE,
            ChoiceDelegate(
                [type_label(t) for t in ColumnType], [_tr(TYPE_HELP[t]) for t in ColumnType], self
            ),
        )
        self.table.setItemDelegateForColumn(
            COL_ROLE,
            ChoiceDelegate([role_label(r) for r in ROLES], [role_help(r) for r in ROLES], self),
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setResizeContentsPrecision(SIZE_SAMPLE)
        self.table.verticalHeader().hide()
        self.table.setToolTip(
            self.tr(
                "Click a Type, Role or Missing-value cell (or press F2) to change it; the "
                "arrow keys move between cells, Tab leaves the table."
            )
        )

    def _code_fields(self) -> None:
        """The missing-value codes of every column, and the household-level QIs."""
        self.missing = QLineEdit()
        self.missing.setPlaceholderText(self.tr("e.g. -1, 99, N/A, unknown"))
        self.missing.setToolTip(
            self.tr(
                "Codes that mean 'missing' in every column, separated by commas; cells holding "
                "them are treated as missing values"
            )
        )
        self.level = QLineEdit()
        self.level.setPlaceholderText(self.tr("e.g. dwelling, district"))
        self.level.setAccessibleName(self.tr("Household-level quasi-identifiers"))
        self.level.setToolTip(
            self.tr(
                "Quasi-identifiers to release alike for every member of a household, besides "
                "those found constant within every household; separated by commas"
            )
        )

    def _lay_out(self) -> None:
        """The table; the codes and help below it; then what the tags make and why Next is
        disabled."""
        form = QFormLayout()
        form.addRow(self.tr("Missing-value codes (all columns):"), self.missing)
        form.addRow(self.tr("Also household-level:"), self.level)
        self._level_row = form.rowCount() - 1
        self._form = form
        bottom = QHBoxLayout()
        bottom.addLayout(form, 1)
        bottom.addWidget(HelpButton("step-2-tag-the-columns", self))
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.recoding)
        layout.addLayout(bottom)
        layout.addWidget(self.summary)
        layout.addWidget(self.households)
        layout.addWidget(self.refused)
        layout.addWidget(self.warning)
        layout.addWidget(self.reason)

    def initializePage(self) -> None:
        self.model.reset()
        self.bindings.show()
        self._column_selected(self.table.currentIndex().row())
        self.table.resizeColumnsToContents()
        for col, width in ((COL_ROLE, 190), (COL_TYPE, 100), (COL_MISSING, 160)):
            self.table.setColumnWidth(col, max(self.table.columnWidth(col), width))
        self._changed()

    def first_input(self) -> QWidget:
        """The control the focus starts on when the page is shown: the roles table."""
        return self.table

    def isComplete(self) -> bool:
        return not self.session.tagging_problem()

    def _recoded(self) -> None:
        """A recoding changed: the column's type may have too (a hierarchy makes it nominal)."""
        current = self.table.currentIndex()
        self.model.reset()
        self.table.setCurrentIndex(current)
        self._changed()

    def _column_selected(self, row: int) -> None:
        """Show the recodings of the column whose row is current."""
        names = list(self.session.columns)
        self.recoding.show_column(names[row] if 0 <= row < len(names) else None)

    def _show_households(self) -> None:
        """Which QIs are household-level (constant within every household), when a household
        column is tagged: they are released alike for every member."""
        s = self.session
        p = s.params
        key = (p.household, p.qi, p.household_level, p.missing, tuple(p.column_missing.items()))
        if key == self._households_key:
            return
        self._households_key = key
        self._form.setRowVisible(self._level_row, p.household is not None)
        if p.household is None or s.data is None:
            self.households.hide()
            return
        # the first records suffice to show it (the run finds them on the whole file)
        columns = [p.household, *p.qi]
        data = apply_missing(s.data[columns].head(HOUSEHOLD_SAMPLE), p.missing,
                             {c: v for c, v in p.column_missing.items() if c in p.qi})  # fmt: skip
        found = find_households(data[p.household], data[list(p.qi)], p.qi, p.household_level)
        level = ", ".join(html.escape(c) for c in found.level) or self.tr("none")
        text = self.tr(
            "{households} households. <b>Household-level</b> (the same for every member, "
            "released alike for all of them): {level}."
        ).format(households=number(found.n_households), level=level)
        nearly = [
            self.tr("{name} ({share} of households)").format(
                name=html.escape(c), share=percent(share)
            )
            for c, share in found.nearly.items()
        ]
        if nearly:
            text += " " + self.tr(
                "Nearly household-level: {names}; name them under 'Also household-level' "
                "to release them alike."
            ).format(names=", ".join(nearly))
        self.households.setText(text)
        self.households.show()

    def _session_changed(self) -> None:
        """The session changed (here or elsewhere): the table and the notes follow."""
        problem = self.bindings.problem
        self.refused.setVisible(bool(problem))
        self.refused.setText(html.escape(problem))
        self.model.refresh()
        self._changed()

    def _listed(self, names: tuple[str, ...]) -> str:
        shown = ", ".join(html.escape(n) for n in names[:LISTED])
        if len(names) > LISTED:
            shown += " " + self.tr("and {n} more").format(n=number(len(names) - LISTED))
        return shown

    def _changed(self) -> None:
        problem = self.session.tagging_problem()
        self.reason.setText(
            self.tr("Next is disabled: {problem}").format(problem=problem) if problem else ""
        )
        self.reason.setVisible(bool(problem))
        s = self.session
        parts = []
        for role, label in (
            (Role.QI, self.tr("quasi-identifiers")),
            (Role.CONFIDENTIAL, self.tr("confidential")),
            (Role.IDENTIFIER, self.tr("identifiers (dropped)")),
            (Role.OTHER, self.tr("released unchanged")),
            (Role.HOUSEHOLD, self.tr("household (released re-coded)")),
            (Role.WEIGHT, self.tr("sampling weight")),
        ):
            names = s.columns_with(role)
            if names:
                parts.append(f"<b>{html.escape(label)}</b>: {self._listed(names)}")
        self.summary.setText("; ".join(parts) if parts else self.tr("No column tagged yet."))
        self._show_households()
        id_like = tuple(c for c in s.columns_with(Role.QI) if s.columns[c].id_like)
        self.warning.setVisible(bool(id_like))
        if id_like:
            self.warning.setText(
                self.tr(
                    "{names}: nearly every value is different, as in an identifier. As a "
                    "quasi-identifier such a column singles people out and the groups must "
                    "blur it almost entirely; if it names a person, tag it identifier."
                ).format(names=self._listed(id_like))
            )
        self.completeChanged.emit()
