"""Column roles and column types: what a column is for, and how its values compare.

See KBS 2015 §2.  A column without a role is dropped; ``other`` columns are released unchanged
only when the user asks for them explicitly, because an untagged column can be a hidden
identifier.  A survey file adds two roles: the ``household`` a person belongs to (released
re-coded, never as it is) and the sampling ``weight`` (how many people of the population a
record stands for; released unchanged by default).
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    IDENTIFIER = "identifier"
    QI = "qi"
    CONFIDENTIAL = "confidential"
    OTHER = "other"
    HOUSEHOLD = "household"
    WEIGHT = "weight"


class ColumnType(StrEnum):
    NUMERIC = "numeric"
    ORDINAL = "ordinal"  # ordered categories: compared by rank
    NOMINAL = "nominal"  # unordered categories: equal or not
    DATE = "date"  # compared as numbers of days
