"""A read-only Qt table model over a pandas DataFrame that stays fast on a million rows.

The view asks only for the cells it shows, so the model never converts the frame: it keeps a
reference to each column's array and formats one cell when :meth:`data` is called.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QGuiApplication

from gui.numbers import reader_locale
from gui.theme import muted_text

MISSING_TEXT = "(missing)"

Index = QModelIndex | QPersistentModelIndex


def format_value(value: Any, point: str = ".") -> str:
    """The text of one cell: numbers compactly (with the reader's decimal mark ``point``),
    missing values as ``(missing)``.  Texts are shown as they are, whatever they hold."""
    if value is None or value is pd.NA or value is pd.NaT:
        return MISSING_TEXT
    if isinstance(value, float | np.floating):
        if math.isnan(value):
            return MISSING_TEXT
        if float(value).is_integer() and abs(value) < 1e15:
            return str(int(value))
        # six significant digits, but never an exponent for a number a spreadsheet shows in
        # full (an income of 1234567.5 is not 1.23457e+06): millions keep two decimals
        text = f"{value:.6g}" if abs(value) < 1e6 else f"{value:.2f}".rstrip("0").rstrip(".")
        return text.replace(".", point) if point != "." else text
    return str(value)


def missing_text() -> str:
    """How a missing value reads in the app's language."""
    return QCoreApplication.translate("DataFrameModel", "(missing)")


_muted: dict[int, QBrush] = {}


def muted_brush() -> QBrush:
    """The muted text colour of the application's palette (cached per palette)."""
    palette = QGuiApplication.palette()
    key = palette.cacheKey()
    if key not in _muted:
        _muted.clear()
        _muted[key] = QBrush(muted_text(palette))
    return _muted[key]


class DataFrameModel(QAbstractTableModel):
    """Shows ``frame`` (or nothing); ``row_limit`` caps the rows shown (None = all)."""

    def __init__(self, frame: pd.DataFrame | None = None, row_limit: int | None = None) -> None:
        super().__init__()
        self._frame = pd.DataFrame()
        #: each column's array, fetched when the view first asks for one of its cells (a
        #: table of 10,000 columns must not cost 10,000 look-ups before it shows)
        self._arrays: dict[int, Any] = {}
        self._numeric: dict[int, bool] = {}
        #: per date column: whether it holds dates without times (shown as dates, not
        #: "1942-10-07 00:00:00"); decided once per column, when it is first shown
        self._dates_only: dict[int, bool] = {}
        self._rows = 0
        self.row_limit = row_limit
        #: the reader's decimal mark (the cells are shown, never written, with it)
        self._point = reader_locale().decimalPoint()
        if frame is not None:
            self.set_frame(frame)

    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    def set_frame(self, frame: pd.DataFrame | None) -> None:
        self.beginResetModel()
        self._frame = pd.DataFrame() if frame is None else frame
        self._arrays, self._numeric, self._dates_only = {}, {}, {}
        self._point = reader_locale().decimalPoint()
        n = len(self._frame)
        self._rows = n if self.row_limit is None else min(n, self.row_limit)
        self.endResetModel()

    def _array(self, column: int) -> Any:
        array = self._arrays.get(column)
        if array is None:
            # ``.array`` is a view of the column; indexing it by row is cheap
            array = self._arrays[column] = self._frame.iloc[:, column].array
        return array

    def _is_numeric(self, column: int) -> bool:
        numeric = self._numeric.get(column)
        if numeric is None:
            dtype = self._frame.dtypes.iloc[column]
            numeric = self._numeric[column] = pd.api.types.is_numeric_dtype(dtype)
        return numeric

    def _is_dates_only(self, column: int) -> bool:
        only = self._dates_only.get(column)
        if only is None:
            values = self._frame.iloc[:, column]
            only = pd.api.types.is_datetime64_any_dtype(values.dtype) and bool(
                (values.dropna() == values.dropna().dt.normalize()).all()
            )
            self._dates_only[column] = only
        return only

    def text(self, row: int, column: int) -> str:
        """The text of one cell as the table shows it."""
        value = self.value(row, column)
        if isinstance(value, pd.Timestamp) and self._is_dates_only(column):
            return value.date().isoformat()
        return format_value(value, self._point)

    def value(self, row: int, column: int) -> Any:
        """The raw value of one cell."""
        return self._array(column)[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._frame.shape[1]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            text = self.text(index.row(), index.column())
            return missing_text() if text == MISSING_TEXT else text
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if self._is_numeric(index.column()):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        missing = role == Qt.ItemDataRole.ForegroundRole and (
            format_value(self.value(index.row(), index.column())) == MISSING_TEXT
        )
        if missing:
            return muted_brush()
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            if 0 <= section < self._frame.shape[1]:
                return str(self._frame.columns[section])
            return None
        return str(section + 1)
