"""A read-only Qt table model over a pandas DataFrame that stays fast on a million rows.

The view asks only for the cells it shows, so the model never converts the frame: it keeps a
reference to each column's array and formats one cell when :meth:`data` is called.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

MISSING_TEXT = "(missing)"

Index = QModelIndex | QPersistentModelIndex


def format_value(value: Any) -> str:
    """The text of one cell: numbers compactly, missing values as ``(missing)``."""
    if value is None or value is pd.NA or value is pd.NaT:
        return MISSING_TEXT
    if isinstance(value, float | np.floating):
        if math.isnan(value):
            return MISSING_TEXT
        if float(value).is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.6g}"
    return str(value)


class DataFrameModel(QAbstractTableModel):
    """Shows ``frame`` (or nothing); ``row_limit`` caps the rows shown (None = all)."""

    def __init__(self, frame: pd.DataFrame | None = None, row_limit: int | None = None) -> None:
        super().__init__()
        self._frame = pd.DataFrame()
        self._columns: list[Any] = []
        self._numeric: list[bool] = []
        self._rows = 0
        self.row_limit = row_limit
        if frame is not None:
            self.set_frame(frame)

    @property
    def frame(self) -> pd.DataFrame:
        return self._frame

    def set_frame(self, frame: pd.DataFrame | None) -> None:
        self.beginResetModel()
        self._frame = pd.DataFrame() if frame is None else frame
        # ``.array`` is a view of each column; indexing it by row is cheap.
        self._columns = [self._frame.iloc[:, i].array for i in range(self._frame.shape[1])]
        self._numeric = [
            pd.api.types.is_numeric_dtype(self._frame.dtypes.iloc[i])
            for i in range(self._frame.shape[1])
        ]
        n = len(self._frame)
        self._rows = n if self.row_limit is None else min(n, self.row_limit)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return format_value(self._columns[index.column()][index.row()])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if self._numeric[index.column()]:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            value = self._columns[index.column()][index.row()]
            if format_value(value) == MISSING_TEXT:
                return QBrush(QColor("#8a8a8a"))
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            if 0 <= section < len(self._columns):
                return str(self._frame.columns[section])
            return None
        return str(section + 1)
