"""What is published with a release and what stays in the review record.

A run is told in two documents, as statistical agencies do: the **published metadata**, which
goes out with the release (the About sheet, the JSON beside a CSV or Parquet release, the
Parquet file's own metadata), and the **review record** for the disclosure review board (the
HTML report, the project file, ``--review``).  Every field of a summary and of a bucket row
says which it belongs to (:data:`PUBLIC` or :data:`REVIEW` in its declaration);
:func:`published` keeps the public part of a value and :func:`json_ready` turns any of them
into JSON types.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, fields, is_dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from engine.io.about import (
    PUBLIC_KEY,
)


def json_ready(value: Any) -> Any:
    """``value`` with numpy scalars, tuples, sets and timestamps turned into JSON types.

    Infinite and NaN floats become the strings "inf", "-inf" and null, which every JSON
    reader accepts (``json.dumps`` would otherwise write the non-standard ``Infinity``).
    """
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(json_ready(v) for v in value)
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return str(value)


#: field metadata of a summary field that is published with the release (About sheet, sidecar
#: JSON, Parquet metadata): computable from the released file and the public parameters alone
PUBLIC = MappingProxyType({PUBLIC_KEY: True})


#: field metadata of a summary field for the review record only (report, project,
#: ``--review``): it tells of the original data or of the run (the seed, losses, timings)
REVIEW = MappingProxyType({PUBLIC_KEY: False})


def published(value: Any) -> Any:
    """The published part of ``value``: of a summary dataclass the fields declared
    :data:`PUBLIC` (recursively), of a list or dict that of each item; anything else as it is.

    A dataclass that declares nothing (a :class:`~engine.privacy.Guarantee`) is published
    whole, by its ``to_dict`` if it has one.
    """
    if is_dataclass(value) and not isinstance(value, type):
        declared = [f for f in fields(value) if PUBLIC_KEY in f.metadata]
        if not declared:
            return value.to_dict() if hasattr(value, "to_dict") else asdict(value)
        out = {}
        for f in declared:
            if f.metadata[PUBLIC_KEY]:
                out[f.name] = published(getattr(value, f.name))
        return out
    if isinstance(value, (list, tuple)):
        return [published(v) for v in value]
    if isinstance(value, Mapping):
        return {k: published(v) for k, v in value.items()}
    return value
