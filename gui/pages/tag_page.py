"""Step 2: say what every column is (role, type, missing-value codes)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from engine import ColumnType, Role
from gui.pages.host import Host
from gui.state import ROLE_HELP, ROLE_LABELS, Session, parse_codes
from gui.widgets import Hint

Index = QModelIndex | QPersistentModelIndex

COL_NAME, COL_TYPE, COL_ROLE, COL_MISSING, COL_DISTINCT, COL_NOTE = range(6)
HEADERS = ["Column", "Type", "Role", "Missing-value codes", "Distinct", "Why / note"]
HEADER_TIPS = [
    "The column's name in the file",
    "How values compare: numeric, ordinal (ordered categories), nominal (categories), date",
    "What the column is for; only quasi-identifiers, confidential and 'other' are released",
    "Values that mean 'missing' in this column, separated by commas (e.g. -1, 99, N/A)",
    "How many different values the column has",
    "Why a role or type was suggested",
]
TYPE_HELP = {
    ColumnType.NUMERIC: "numbers; compared by size",
    ColumnType.ORDINAL: "ordered categories (e.g. education level); compared by rank",
    ColumnType.NOMINAL: "unordered categories (e.g. region); equal or not",
    ColumnType.DATE: "dates; compared as numbers of days",
}
ROLES: list[Role | None] = [None, Role.IDENTIFIER, Role.QI, Role.CONFIDENTIAL, Role.OTHER]


class RolesModel(QAbstractTableModel):
    """One row per column of the session's table; type, role and codes are editable."""

    tags_changed = Signal()

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def reset(self) -> None:
        self.beginResetModel()
        self.endResetModel()

    def _column(self, row: int) -> str:
        return list(self.session.columns)[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.session.columns)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (COL_TYPE, COL_ROLE, COL_MISSING):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

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
                return ctype.value + arrow
            if col == COL_ROLE:
                return ROLE_LABELS[tag] + arrow
            if col == COL_MISSING:
                return ", ".join(s.column_missing(name))
            if col == COL_DISTINCT:
                return f"{info.n_distinct:,}"
            if col == COL_NOTE:
                return info.suggestion or info.guess.note
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_ROLE:
                return ROLE_HELP[tag]
            if col == COL_TYPE:
                return f"{ctype.value}: {TYPE_HELP[ctype]} (guessed: {info.guess.note})"
            if col == COL_NOTE:
                return info.suggestion or info.guess.note
            return HEADER_TIPS[col]
        if role == Qt.ItemDataRole.FontRole and col == COL_ROLE and tag is not None:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_NOTE and info.suggestion:
            from PySide6.QtGui import QBrush, QGuiApplication

            from gui.theme import attention_text

            return QBrush(attention_text(QGuiApplication.palette()))
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        name = self._column(index.row())
        col = index.column()
        if col == COL_TYPE:
            self.session.set_type(name, ColumnType(value))
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
            return HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_TIPS[section]
        return None


def _role_of(text: str) -> Role | None:
    for role, label in ROLE_LABELS.items():
        if text in (label, getattr(role, "value", None)):
            return role
    raise ValueError(f"unknown role {text!r}")


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


class TagPage(QWizardPage):
    """The roles table, session-wide missing codes, and why Next is disabled."""

    def __init__(self, wizard: Host) -> None:
        super().__init__()
        self._wizard = wizard
        self.session = wizard.session
        self.setTitle("2. Tag the columns")
        self.setSubTitle(
            "Give every column a role. A quasi-identifier is a column an intruder may already "
            "know about a person (age, sex, region); a confidential column is the sensitive value "
            "to protect. Columns left 'not released' are dropped."
        )
        self.model = RolesModel(self.session)
        self.model.tags_changed.connect(self._changed)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.AllEditTriggers
            & ~QAbstractItemView.EditTrigger.CurrentChanged
        )
        self.table.setItemDelegateForColumn(
            COL_TYPE, ChoiceDelegate([t.value for t in ColumnType], list(TYPE_HELP.values()), self)
        )
        self.table.setItemDelegateForColumn(
            COL_ROLE,
            ChoiceDelegate([ROLE_LABELS[r] for r in ROLES], [ROLE_HELP[r] for r in ROLES], self),
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.table.verticalHeader().hide()
        self.table.setToolTip(
            "Click a Type, Role or Missing-value cell (or press F2) to change it; "
            "Tab moves to the next cell."
        )
        self.missing = QLineEdit()
        self.missing.setPlaceholderText("e.g. -1, 99, N/A, unknown")
        self.missing.setToolTip(
            "Codes that mean 'missing' in every column, separated by commas; cells holding them "
            "are treated as missing values"
        )
        self.missing.editingFinished.connect(self._missing_edited)
        self.reason = Hint(warning=True)
        self.summary = Hint()

        form = QFormLayout()
        form.addRow("Missing-value codes (all columns):", self.missing)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.reason)

    def initializePage(self) -> None:
        self.model.reset()
        self.missing.setText(", ".join(self.session.params.missing))
        self.table.resizeColumnsToContents()
        for col, width in ((COL_ROLE, 190), (COL_TYPE, 100), (COL_MISSING, 160)):
            self.table.setColumnWidth(col, max(self.table.columnWidth(col), width))
        self._changed()

    def isComplete(self) -> bool:
        return not self.session.tagging_problem()

    def _missing_edited(self) -> None:
        codes = parse_codes(self.missing.text())
        if codes != self.session.params.missing:
            self.session.set_missing(codes)
            self.model.reset()
            self._changed()

    def _changed(self) -> None:
        problem = self.session.tagging_problem()
        self.reason.setText(f"Next is disabled: {problem}" if problem else "")
        self.reason.setVisible(bool(problem))
        s = self.session
        parts = []
        for role, label in (
            (Role.QI, "quasi-identifiers"),
            (Role.CONFIDENTIAL, "confidential"),
            (Role.IDENTIFIER, "identifiers (dropped)"),
            (Role.OTHER, "released unchanged"),
        ):
            names = s.columns_with(role)
            if names:
                parts.append(f"<b>{label}</b>: {', '.join(names)}")
        self.summary.setText("; ".join(parts) if parts else "No column tagged yet.")
        self.completeChanged.emit()
