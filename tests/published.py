"""What a release publishes, checked number by number (the ``published-safe`` bar).

The published files of a release (the About sheet of an .xlsx, the JSON beside a CSV or
Parquet file, the Parquet file's own metadata) may hold only numbers that a reader can
recompute from the released file and the public parameters.  :func:`published_numbers`
collects every number they print; :func:`computable` recomputes, from the release file and
the parameters alone, every number a reader could; :func:`unexplained` lists the printed
numbers that are none of them.  :func:`original_statistics` are the statistics of the
original confidential column that must never appear (its mean, SD, median, total, SST,
correlations with the quasi-identifiers, regression coefficients, the buckets' exact means,
medians and SDs).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pandas as pd

from engine.io import read_table
from engine.io.write import ABOUT_SHEET, sidecar_path
from engine.params import ReleaseParams
from engine.release import table_risk, verify_release
from engine.release.stages import release_guarantees
from engine.roles import ColumnType

#: a number as the published files print it: 1,234.5, -17, 0.25, 1.2e-05
NUMBER = re.compile(
    r"(?<![\w.])[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])[-−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?"
)
#: citations and names of results: their numbers are a paper's, not the data's
CITATION = re.compile(
    r"(?:Proposition|Theorem|Definition|Section|Table|Figure|Systems|Security|Transactions)"
    r"\s+[\dIVX]+(?:[.-]\w+)?|\b(?:19|20)\d\d\b|\bV-D\b|[A-Za-z]+\s+\d+\s*\(\d{4}\)"
)
#: keys whose text is not about the data: the software, the time of writing, the sources,
#: which document it is, the input's name, the column types of the file
SKIPPED_KEYS = {"software", "written", "source", "record", "input", "columns", "name"}
#: labels of the About sheet whose value is not about the data
SKIPPED_LABELS = {"software", "written", "source", "input file"}
#: numbers that are words of the text ("2·ln t", "1/t", "100 %")
CONSTANTS = (0.0, 1.0, 2.0, 100.0)


@dataclass(frozen=True)
class Printed:
    """One number as a published file prints it, and where."""

    text: str
    where: str

    @property
    def value(self) -> float:
        return float(self.text.replace(",", "").replace("−", "-"))

    @property
    def tolerance(self) -> float:
        """Half a unit of the last digit printed (4 significant digits: 7.309 ± 0.0005)."""
        mantissa = self.text.split("e")[0]
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        scale = 10 ** int(self.text.split("e")[1]) if "e" in self.text else 1
        return 0.5 * 10.0**-decimals * scale + 1e-9


def _numbers_in(text: str, where: str) -> Iterator[Printed]:
    text = CITATION.sub(" ", text)
    for match in NUMBER.finditer(text):
        yield Printed(match.group(), where)


def _walk(value: Any, where: str) -> Iterator[Printed]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            if str(key) not in SKIPPED_KEYS:
                yield from _walk(item, f"{where}.{key}")
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _walk(item, f"{where}[{i}]")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        if math.isfinite(value):
            yield Printed(repr(float(value)) if isinstance(value, float) else str(value), where)
    elif isinstance(value, str):
        yield from _numbers_in(value, where)


def published_documents(release: Path) -> dict[str, Any]:
    """Every published document of the release file ``release``: the sidecar JSON, the
    Parquet metadata (a dict each) and the About sheet (a list of rows)."""
    docs: dict[str, Any] = {}
    if release.suffix == ".xlsx":
        sheet = openpyxl.load_workbook(release, read_only=True)[ABOUT_SHEET]
        docs["About sheet"] = [list(r) for r in sheet.iter_rows(values_only=True)]
    else:
        docs["sidecar"] = json.loads(sidecar_path(release).read_text(encoding="utf-8"))
    if release.suffix == ".parquet":
        import pyarrow.parquet as pq

        meta = pq.read_schema(release).metadata or {}
        docs["Parquet metadata"] = json.loads(meta[b"tclose"].decode("utf-8"))
    return docs


#: DDI elements whose text is not about the data (the software, the date it was written)
DDI_SKIPPED = {"software", "prodDate", "fileName", "titl"}


def ddi_numbers(path: Path) -> list[Printed]:
    """Every number the DDI codebook of a release prints, in its texts and its attributes
    (but the schema's own: its version, the date, the software, the element ids)."""
    import xml.etree.ElementTree as ET

    out: list[Printed] = []
    root = ET.parse(path).getroot()
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag in DDI_SKIPPED or tag == "codeBook":
            continue
        where = f"DDI {tag}"
        if element.text and element.text.strip():
            out += list(_numbers_in(element.text, where))
        for key, value in element.attrib.items():
            if key in ("ID", "files", "name", "date"):
                continue
            out += list(_numbers_in(value, f"{where}@{key}"))
    return out


def published_text(release: Path) -> str:
    """All published documents of ``release`` as one text (to search for a seed)."""
    return json.dumps(published_documents(release), ensure_ascii=False, default=str)


def published_numbers(release: Path) -> list[Printed]:
    out: list[Printed] = []
    for name, doc in published_documents(release).items():
        if name != "About sheet":
            out += _walk(doc, name)
            continue
        for row in doc:
            label = str(row[0]).strip() if row and row[0] is not None else ""
            if label in SKIPPED_LABELS:
                continue
            for cell in row:
                if isinstance(cell, bool) or cell is None:
                    continue
                if isinstance(cell, int | float):
                    out.append(Printed(repr(float(cell)), f"About › {label}"))
                else:
                    out += _numbers_in(str(cell), f"About › {label}")
    return out


def cut_points(release: Path) -> list[float]:
    """The numbers in the published bucket labels (the public cut points of numeric ones)."""
    out: list[float] = []
    for name, doc in published_documents(release).items():
        if name == "About sheet":
            labels = [str(r[0]) for r in doc if r and str(r[0]).startswith(("<", "≥", "["))]
        else:
            labels = [str(b["label"]) for b in doc.get("buckets") or []]
        out += [p.value for label in labels for p in _numbers_in(label, "label")]
    return out


def read_release(path: Path) -> pd.DataFrame:
    return read_table(path).data


def _shares(counts: Iterable[int], n: int) -> list[float]:
    return [c / n for c in counts]


def corrected_shares(
    released: pd.Series, epsilon: float, categories: Iterable[str] | None = None
) -> list[float]:
    """What a reader computes of a randomized-response column: the original shares corrected
    for the random answers and their standard errors, from the released answers and ε alone.

    With keep probability p = (e^ε − 1)/(e^ε − 1 + m) over m categories the channel is
    p·I + (1 − p)/m, so π̂ = (λ̂ − (1 − p)/m)/p and SE = √(λ̂(1 − λ̂)/n)/p, in closed form
    (the engine inverts the channel matrix).  ``categories`` as published, else those the
    release shows.
    """
    present = released.dropna().astype(str)
    names = list(categories) if categories is not None else list(present.unique())
    m, n = len(names), len(present)
    if not m or not n:
        return []
    keep = math.expm1(epsilon) / (math.expm1(epsilon) + m)
    lam = present.value_counts().reindex(names, fill_value=0).to_numpy() / n
    estimate = (lam - (1 - keep) / m) / keep
    error = np.sqrt(lam * (1 - lam) / n) / keep
    return [n, *lam, *estimate, *error]


def noise_shares(released: pd.Series, scales: Iterable[float], log: bool) -> list[float]:
    """The share of the released values' variance the noise makes up, 2·scale²/variance (at
    most 1), for each of the candidate public ``scales`` of the noise."""
    x = pd.to_numeric(released, errors="coerce").dropna().to_numpy(dtype=float)
    if x.size < 2:
        return []
    if log:
        x = np.log1p(np.clip(x, 0.0, None))
    spread = float(x.var())
    return [1.0 if spread <= 0 else min(2 * s * s / spread, 1.0) for s in scales]


def computable(
    table: pd.DataFrame,
    params: ReleaseParams,
    column_types: Mapping[str, str],
    draws: int = 1,
    categories: Mapping[str, list[str]] | None = None,
) -> list[float]:
    """Every number a reader can compute from the released ``table`` and the parameters
    (``column_types`` as published, words; ``draws`` of the noise, the ε accounting;
    ``categories`` of each randomized column as published)."""
    qi, conf = list(params.qi), list(params.confidential)
    n = len(table)
    sizes = table.groupby(qi, dropna=False).size().to_numpy() if qi else np.array([n])
    values, counts = np.unique(sizes, return_counts=True)
    base = [n, len(sizes), sizes.min(), sizes.max(), np.median(sizes), sizes.mean()]
    base += [*values, *counts, n - params.k]
    for key, item in params.to_dict().items():
        if key != "seed":
            base += [x.value for x in _walk(item, key)]
    for col in qi:  # the released values of the quasi-identifiers (the worst class's)
        base += [float(v) for v in pd.to_numeric(table[col], errors="coerce").dropna().unique()]
        base.append(int(table[col].isna().sum()))  # the cells released empty
    check = verify_release(table, qi, conf)
    if check.t is not None and math.isfinite(check.t):
        base.append(check.t)
    for col in conf:
        column = table[col]
        freq = column.value_counts(dropna=False)
        base += [*freq.to_numpy(), *_shares(freq.to_numpy(), n)]
        present = column.dropna()
        base += _shares(present.value_counts().to_numpy(), len(present))
        numeric = pd.to_numeric(present, errors="coerce")
        base += [float(v) for v in numeric.dropna().unique()]
        for label in present.astype(str).unique():
            base += [x.value for x in _numbers_in(label, col)]
        n_categories = len(present.unique())
        if params.noise and params.epsilon is not None:
            eps = params.epsilon / len(conf)
            base += [eps, n_categories]
            # randomized response: e^ε = 1 + n·p / (1 − p) (TIFS 2022, Fig. 4)
            base.append((math.exp(eps) - 1) / (math.exp(eps) - 1 + n_categories))
            if column_types.get(col) in ("nominal", "ordinal"):
                base += corrected_shares(column, eps, (categories or {}).get(col))
            if col in params.bounds:
                lo, hi = params.bounds[col]
                base += [hi - lo, (hi - lo) / eps, (hi - lo) / (params.k * eps)]
                log = params.transform == "log"
                width = math.log1p(hi) - math.log1p(lo) if log else hi - lo
                scales = [width / eps, width / (params.k * eps)]
                base += noise_shares(column, scales, log)
    # the disclosure risk of the release, from its QIs (and its weights and household ids,
    # when it carries them), with its confidential values or without (noisy numbers)
    weight = params.weight if params.weight in table.columns else None
    household = params.household if params.household in table.columns else None
    if weight or household:  # what the verifier reads off the ids and the weight
        survey = verify_release(table, qi, conf, household=household, weight=weight)
        base += [survey.households_k, survey.n_households, survey.pattern_k, survey.linking_t,
                 survey.records_without_id, survey.weight_k, survey.weight_t]  # fmt: skip
    for sensitive in ({*conf} & set(table.columns), ()):
        risk = table_risk(table, qi, sorted(sensitive), weight=weight, household=household)
        base += [x.value for x in _walk(risk.as_dict(), "risk")]
    types = {c: ColumnType(t) for c, t in column_types.items()}
    for g in release_guarantees(
        params, n, class_sizes=sizes, column_types=types,
        achieved_t=None if params.noise else check.t, draws=draws,
    ):  # fmt: skip
        base += [x.value for x in _walk(g.values, "guarantee")]
        base += [x.value for x in _numbers_in(g.statement, "guarantee")]
    derived = list(CONSTANTS)
    for v in (float(b) for b in base if b is not None and math.isfinite(float(b))):
        derived += [v, 100 * v, math.exp(v / 2) if v < 700 else v, math.exp(v) if v < 700 else v]
        if v > 0:
            derived += [math.log(v), 2 * math.log(v)]
    return derived


def unexplained(printed: Iterable[Printed], allowed: Iterable[float]) -> list[Printed]:
    """The printed numbers that none of ``allowed`` explains (to the digits printed, or to
    a millionth: the noise's scale on the mechanism's grid is Δ/ε up to 1e-9)."""
    pool = np.sort(np.asarray([a for a in allowed if math.isfinite(a)], dtype=float))
    out = []
    for p in printed:
        i = np.searchsorted(pool, p.value)
        near = pool[max(i - 1, 0) : i + 1]
        gap = np.min(np.abs(near - p.value)) if near.size else math.inf
        if not gap <= max(p.tolerance, 1e-6 * abs(p.value)):
            out.append(p)
    return out


def original_statistics(data: pd.DataFrame, column: str, qi: list[str]) -> dict[str, float]:
    """The statistics of the original ``column`` an intruder must not find published."""
    x = data[column].to_numpy(dtype=float)
    out = {
        "mean": x.mean(), "sd": x.std(), "sd (n-1)": x.std(ddof=1), "variance": x.var(),
        "variance (n-1)": x.var(ddof=1), "median": float(np.median(x)), "total": x.sum(),
        "sst": float(((x - x.mean()) ** 2).sum()), "min": x.min(), "max": x.max(),
    }  # fmt: skip
    # correlations and regressions on the records whose quasi-identifiers are all given
    data = data[data[qi].notna().all(axis=1)]
    x = data[column].to_numpy(dtype=float)
    design = [np.ones(len(x))]
    names = ["intercept"]
    for q in qi:
        col = data[q]
        if pd.api.types.is_numeric_dtype(col):
            design.append(col.to_numpy(dtype=float))
            names.append(q)
            out[f"correlation with {q}"] = float(np.corrcoef(x, design[-1])[0, 1])
        else:
            for level in sorted(col.unique())[1:]:
                dummy = (col == level).to_numpy(dtype=float)
                design.append(dummy)
                names.append(f"{q} = {level}")
                out[f"correlation with {q} = {level}"] = float(np.corrcoef(x, dummy)[0, 1])
    X = np.column_stack(design)
    for outcome, y in (("log", np.log(x)), ("linear", x)):
        coefficients, *_ = np.linalg.lstsq(X, y, rcond=None)
        out.update(
            {
                f"{outcome} coefficient {n}": float(c)
                for n, c in zip(names, coefficients, strict=True)
            }
        )
    return out


def leaks(printed: Iterable[Printed], statistics: Mapping[str, float]) -> list[tuple[str, Printed]]:
    """(statistic, printed number) pairs where a published number equals a statistic of the
    original data to the digits it prints, with at least three significant digits."""
    out = []
    for p in printed:
        digits = len(re.sub(r"[^0-9]", "", p.text.split("e")[0]).lstrip("0"))
        if digits < 3:
            continue
        for name, value in statistics.items():
            if abs(value - p.value) <= p.tolerance:
                out.append((name, p))
    return out
