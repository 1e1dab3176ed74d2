"""The tag page's "Recoding" box: how the selected column is recoded before the grouping.

Bands at public cut points, a public top and bottom code, and a hierarchy read from a CSV
file or a workbook's sheet (finest level first).  Each control writes back its own field of
the parameters (``bands``, ``top_code``, ``bottom_code``, ``hierarchies``) through
:meth:`Session.update`, which checks it with the engine's words; the box holds no logic of
its own beyond reading the text typed.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from engine import ColumnType, Hierarchy, InputError, hierarchy_of, read_table
from engine.io.formats import open_patterns
from gui.fields import describe_widget
from gui.numbers import number
from gui.state import Session
from gui.widgets import Hint


def _number_text(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else repr(value)


class RecodingBox(QGroupBox):
    """Bands, top and bottom codes and a hierarchy for one column (module doc)."""

    #: a recoding changed (the tag page shows the column's type again)
    changed = Signal()

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.column: str | None = None
        self.bands = QLineEdit()
        self.bands.setPlaceholderText(self.tr("e.g. 15:25:45:65"))
        describe_widget(self.bands, "bands")
        self.top = QLineEdit()
        self.top.setPlaceholderText(self.tr("e.g. 90"))
        describe_widget(self.top, "top_code")
        self.bottom = QLineEdit()
        self.bottom.setPlaceholderText(self.tr("e.g. 0"))
        describe_widget(self.bottom, "bottom_code")
        self.hierarchy = QLabel()
        self.hierarchy.setWordWrap(True)
        self.choose = QPushButton(self.tr("Choose a &hierarchy file…"))
        self.choose.setToolTip(
            self.tr(
                "A CSV file or a workbook whose columns are the levels, the finest first "
                "(commune, district, province), one row per finest value"
            )
        )
        self.remove = QPushButton(self.tr("Remove the hierarchy"))
        self.problem = Hint(warning=True)
        self.problem.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.hierarchy, 1)
        row.addWidget(self.choose)
        row.addWidget(self.remove)
        holder = QWidget()
        holder.setLayout(row)
        form = QFormLayout(self)
        form.addRow(self.tr("Bands (cut points):"), self.bands)
        form.addRow(self.tr("Top code:"), self.top)
        form.addRow(self.tr("Bottom code:"), self.bottom)
        form.addRow(self.tr("Hierarchy:"), holder)
        form.addRow(self.problem)
        self.bands.editingFinished.connect(self._bands_edited)
        self.top.editingFinished.connect(lambda: self._code_edited("top_code", self.top))
        self.bottom.editingFinished.connect(lambda: self._code_edited("bottom_code", self.bottom))
        self.choose.clicked.connect(self._choose)
        self.remove.clicked.connect(lambda: self.set_hierarchy(None))
        self.show_column(None)

    # --- showing -------------------------------------------------------------------------
    def show_column(self, column: str | None) -> None:
        """Show the recodings of ``column`` (None: nothing selected)."""
        self.column = column
        p = self.session.params
        self.setTitle(
            self.tr("Recoding of {column} before the grouping").format(column=column)
            if column
            else self.tr("Recoding before the grouping (select a column)")
        )
        for widget in (self.bands, self.top, self.bottom, self.choose):
            widget.setEnabled(column is not None)
        cuts = p.bands.get(column, ()) if column else ()
        self.bands.setText(":".join(_number_text(c) for c in cuts))
        self.top.setText(_number_text(p.top_code.get(column)) if column else "")
        self.bottom.setText(_number_text(p.bottom_code.get(column)) if column else "")
        rows = p.hierarchies.get(column) if column else None
        self.remove.setEnabled(rows is not None)
        if rows is None:
            self.hierarchy.setText(self.tr("none"))
        else:
            geo = Hierarchy.from_rows(rows)
            self.hierarchy.setText(
                self.tr("{levels} ({n} values at the finest level)").format(
                    levels=html.escape(" → ".join(geo.levels)), n=number(len(geo.paths))
                )
            )
        self.problem.hide()

    def _fail(self, message: str) -> None:
        self.problem.setText(html.escape(message))
        self.problem.show()

    # --- editing -------------------------------------------------------------------------
    def _write(self, field: str, value: dict) -> None:
        try:
            self.session.update(**{field: value})
        except InputError as err:
            self._fail(err.message)
            return
        self.show_column(self.column)
        self.changed.emit()

    def _bands_edited(self) -> None:
        if self.column is None:
            return
        text = self.bands.text().strip()
        bands = dict(self.session.params.bands)
        if text:
            bands[self.column] = text
        else:
            bands.pop(self.column, None)
        if bands != dict(self.session.params.bands):
            self._write("bands", bands)

    def _code_edited(self, field: str, box: QLineEdit) -> None:
        if self.column is None:
            return
        codes = dict(getattr(self.session.params, field))
        text = box.text().strip()
        if text:
            codes[self.column] = text.replace(",", ".")
        else:
            codes.pop(self.column, None)
        if codes != dict(getattr(self.session.params, field)):
            self._write(field, codes)

    def _choose(self) -> None:
        if self.column is None:
            return
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a hierarchy file"), "",
            self.tr("Tables ({patterns})").format(patterns=open_patterns()),
        )  # fmt: skip
        if path:
            self.load(Path(path))

    def load(self, path: Path, sheet: str | None = None) -> None:
        """Read a hierarchy for the selected column from ``path`` (a CSV or a sheet)."""
        try:
            table = read_table(path, sheet=sheet).data
            geo = hierarchy_of(table, path.name)
        except InputError as err:
            self._fail(err.message)
            return
        self.set_hierarchy(geo)

    def set_hierarchy(self, geo: Hierarchy | None) -> None:
        if self.column is None:
            return
        hierarchies = dict(self.session.params.hierarchies)
        if geo is None:
            hierarchies.pop(self.column, None)
        else:
            hierarchies[self.column] = geo.to_rows()
            # codes with a hierarchy are categories, whatever they look like (commune 1101)
            if self.session.column_type(self.column) != ColumnType.NOMINAL:
                self.session.set_type(self.column, ColumnType.NOMINAL)
        self._write("hierarchies", hierarchies)
