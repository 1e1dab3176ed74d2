"""The "About this release" sheet of an .xlsx release, as a reader of the release sees it.

A release's metadata is the published part of its run summary (``RunSummary.public_dict()``,
the same dictionary as the JSON sidecar of a CSV or Parquet release, which stays the
machine-readable form): what a reader may know, never the seed or a statistic of the original
data, which belong to the review record (the report, ``--review``).  In a workbook it becomes
a two-column sheet: a label and a value per row, grouped in sections (the release, what was
achieved, the guarantees with their assumptions, the parameters that applied, the buckets,
the noise), numbers formatted as everywhere else (:mod:`engine.text`).  Keys the layout does
not know (a project's name, export notes, metadata from a script) follow in a last section
as "key › sub-key" paths, so nothing a caller passes is dropped.

Both documents carry :data:`RECORD_KEY`, which says which one it is: the writers of a release
refuse metadata marked :data:`REVIEW_RECORD`, so the review record cannot be published by
mistake.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InputError
from engine.mechanisms import MECHANISMS
from engine.text import number, percent

#: the key that says which of the two documents a run's metadata is
RECORD_KEY = "record"
#: the published metadata (About sheet, sidecar JSON, Parquet metadata, ``--summary``)
PUBLISHED = "published metadata: computable from the release and its public parameters"
#: the review record (``--review``): everything, for the disclosure review
REVIEW_RECORD = "review record: for the disclosure review, not for publication"


#: a noise column's released values are "mostly noise" when the noise makes up at least this
#: share of their variance (its variance is then at least the data's own): the About sheet
#: says so, and the run warns (:func:`engine.release.noise.noise_share`)
MOSTLY_NOISE = 0.5


def publishable(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """``metadata`` as a release may carry it; the review record is refused.

    Every writer of a release (its About sheet, sidecar JSON and Parquet metadata) passes its
    metadata through here, so that ``RunSummary.to_dict()`` (the seed, the original data's
    statistics) is never published by mistake: a release takes ``RunSummary.public_dict()``.
    """
    meta = dict(metadata or {})
    if meta.get(RECORD_KEY) == REVIEW_RECORD:
        raise InputError(
            "This is the review record of the run (the seed, statistics of the original data); "
            "it is not published with a release. Write the release with the published "
            "metadata (RunSummary.public_dict()) and keep the review record apart."
        )
    return meta


@dataclass(frozen=True)
class AboutRow:
    """One row of the sheet: a section heading (``value`` None) or a label and its value."""

    label: str
    value: Any = None
    section: bool = False


#: the summary's parameter fields, named for people (in this order)
PARAMETER_NAMES = {
    "mechanism": "mechanism",
    "k": "k (smallest class size)",
    "t": "t",
    "epsilon": "ε (epsilon)",
    "qi": "quasi-identifiers",
    "confidential": "confidential columns",
    "identifiers": "identifiers (not released)",
    "keep": "released unchanged",
    "n_buckets": "number of buckets b",
    "utility_weight": "weight of the confidential loss in the choice of b",
    "joint": "confidential columns bucketed jointly",
    "qi_output": "quasi-identifiers released as",
    "confidential_output": "confidential values released as",
    "missing_confidential": "records with a missing confidential value",
    "missing": "missing-value codes",
    "column_missing": "missing-value codes per column",
    "types": "column types given",
    "orders": "category orders given",
    "bounds": "public bounds",
    "private_bounds": "share of ε for private bounds",
    "insensitive": "insensitive microaggregation first",
    "resample_until_t": "noise redrawn until t-close with t",
    "transform": "scale the noise is added on",
}
#: parameter values, in words
VALUE_WORDS = {
    "missing_confidential": {
        "bucket": "released in a bucket of their own (an empty cell)",
        "drop": "left out of the release",
    },
    "transform": {"none": "the values", "log": "log(1 + value)"},
    "n_buckets": {None: "auto (searched with the class size)"},
}
#: what each kind of t means (the summary's ``t_kind``)
T_MEANINGS = {
    "asked": "t asked",
    "stochastic": "t (stochastic, Proposition 1: the expected shares of every class)",
    "actual (resampled)": "t (actual: the worst class on the release's own buckets)",
}
#: the keys of a run summary this layout shows (anything else goes to the last section)
_SUMMARY_KEYS = {
    RECORD_KEY,
    "software",
    "written",
    "input",
    "mechanism",
    "n_records",
    "n_released",
    "k_achieved",
    "t",
    "t_kind",
    "t_achieved",
    "epsilon",
    "epsilon_from",
    "epsilon_achieved",
    "guarantees",
    "n_classes",
    "class_sizes",
    "buckets",
    "noise",
    "worst_class",
    "worst_bucket",
    "column_types",
    "verification",
    "parameters",
    "missing_qi",
}


def is_run_summary(meta: Mapping[str, Any]) -> bool:
    """True for the dictionary of a run summary (its layout is known)."""
    return isinstance(meta.get("parameters"), Mapping) and "k_achieved" in meta


def about_rows(meta: Mapping[str, Any]) -> list[AboutRow]:
    """The sheet's rows for ``meta``: sections for a run summary, key paths for the rest."""
    if not is_run_summary(meta):
        return [AboutRow(label, value) for label, value in flatten(meta)]
    rows: list[AboutRow] = []
    rows += _release(meta)
    rows += _achieved(meta)
    rows += _guarantees(meta.get("guarantees") or [])
    rows += _parameters(meta["parameters"], meta.get("noise"))
    rows += _buckets(meta.get("buckets") or [])
    rows += _noise(meta.get("noise"))
    rows += _missing_qi(meta.get("missing_qi") or {})
    rest = {k: v for k, v in meta.items() if k not in _SUMMARY_KEYS}
    if rest:
        rows.append(AboutRow("Other", section=True))
        rows += [AboutRow(label, value) for label, value in flatten(rest)]
    return rows


def flatten(meta: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``{"guarantee": {"t": 2}}`` -> ``("guarantee › t", 2)``: nested dicts read as paths."""
    for key, value in meta.items():
        label = f"{prefix} › {key}" if prefix else str(key)
        if _is_dataclass_instance(value):
            value = {k: getattr(value, k) for k in value.__dataclass_fields__}
        if isinstance(value, Mapping):
            if value:
                yield from flatten(value, label)
            else:
                yield label, ""
        elif (
            isinstance(value, (list, tuple))
            and value
            and all(isinstance(v, Mapping) or _is_dataclass_instance(v) for v in value)
        ):
            # a list of records (bucket summaries, classes...): one numbered group each
            for i, item in enumerate(value, start=1):
                yield from flatten({str(i): item}, label)
        else:
            yield label, value


def _is_dataclass_instance(value: object) -> bool:
    return hasattr(value, "__dataclass_fields__") and not isinstance(value, type)


# -- sections ----------------------------------------------------------------------------------


def _release(meta: Mapping[str, Any]) -> list[AboutRow]:
    rows = [AboutRow("The release", section=True)]
    for key, label in (("input", "input file"), ("software", "software"), ("written", "written")):
        if meta.get(key):
            rows.append(AboutRow(label, str(meta[key])))
    rows.append(AboutRow("records released", meta.get("n_released")))
    rows.append(AboutRow("independent check", meta.get("verification", "")))
    return rows


def _achieved(meta: Mapping[str, Any]) -> list[AboutRow]:
    """k, the one t the release answers to (with what it means) and ε, the classes."""
    params = meta["parameters"]
    rows = [AboutRow("What was achieved", section=True)]
    rows.append(AboutRow("k asked / achieved", f"{_n(params.get('k'))} / {_n(meta['k_achieved'])}"))
    kind = meta.get("t_kind")
    if kind == "asked" and meta.get("t_achieved") is not None:
        rows.append(
            AboutRow(
                "t asked / achieved (the class farthest from the whole file)",
                f"{_n(meta.get('t'))} / {_n(meta['t_achieved'])}",
            )
        )
    elif meta.get("t") is not None:
        rows.append(AboutRow(T_MEANINGS.get(str(kind), "t"), _n(meta["t"])))
    if meta.get("epsilon") is not None:
        how = {"t": " (2 ln t, Proposition 3)", "given": " (given)"}.get(
            str(meta.get("epsilon_from")), ""
        )
        if kind == "asked" and meta.get("epsilon_achieved") is not None:
            rows.append(
                AboutRow(
                    f"ε{how}, asked / achieved",
                    f"{_n(meta['epsilon'])} / {_n(meta['epsilon_achieved'])}",
                )
            )
        else:
            rows.append(AboutRow(f"ε{how}", _n(meta["epsilon"])))
    rows.append(AboutRow("classes", meta.get("n_classes")))
    sizes = meta.get("class_sizes") or {}
    if sizes:
        rows.append(
            AboutRow(
                "class sizes (smallest, median, largest)",
                f"{_n(sizes.get('min'))}, {_n(sizes.get('median'))}, {_n(sizes.get('max'))}",
            )
        )
    return rows


def _guarantees(items: list[Any]) -> list[AboutRow]:
    if not items:
        return []
    rows = [AboutRow("Guarantees", section=True)]
    for g in (g for g in items if isinstance(g, Mapping) and g.get("holds", True)):
        rows.append(AboutRow(str(g.get("name", "")), str(g.get("statement", ""))))
        if g.get("assumption") and g["assumption"] != "—":
            rows.append(AboutRow("    assumes", str(g["assumption"])))
        if g.get("source"):
            rows.append(AboutRow("    source", str(g["source"])))
    caveats = [g for g in items if isinstance(g, Mapping) and not g.get("holds", True)]
    if caveats:
        rows.append(AboutRow("What does not follow", section=True))
        rows += [AboutRow(str(g.get("name", "")), str(g.get("statement", ""))) for g in caveats]
    return rows


def _parameters(params: Mapping[str, Any], noise: Any = None) -> list[AboutRow]:
    """The parameters as published (those that applied to the mechanism, no seed)."""
    rows = [AboutRow("Parameters", section=True)]
    for key, label in PARAMETER_NAMES.items():
        if key not in params:
            continue
        value = params[key]
        words = VALUE_WORDS.get(key, {})
        if _hashable(value) and value in words:
            value = words[value]
        elif key == "mechanism":
            value = _mechanism_words(str(value), noise)
        elif value in (None, [], {}, ()):
            continue
        rows.append(AboutRow(label, _text(value)))
    for key in sorted(set(params) - set(PARAMETER_NAMES)):
        rows.append(AboutRow(key, _text(params[key])))
    return rows


def _mechanism_words(mechanism: str, noise: Any) -> str:
    """The mechanism in words; for noise, the mechanisms its columns actually got."""
    # the noise route's per-column mechanisms are in its section
    words = MECHANISMS[mechanism].title if mechanism in MECHANISMS else mechanism
    columns = noise.get("columns") if isinstance(noise, Mapping) else None
    if isinstance(columns, Mapping) and columns:
        used = sorted({str(d.get("described")) for d in columns.values() if isinstance(d, Mapping)})
        words += ": " + ", ".join(used)
    return words


def _buckets(buckets: list[Any]) -> list[AboutRow]:
    if not buckets:
        return []
    rows = [AboutRow("Confidential buckets (records, share; the value released)", section=True)]
    for row in (b for b in buckets if isinstance(b, Mapping)):
        parts = [f"{_n(row.get('count'))} records ({percent(row.get('share'))})"]
        values = row.get("representative")
        if values and not row.get("missing"):
            dominated = row.get("dominated") or [False] * len(values)
            shown = [
                _n(v) + (" (the median: p%-rule)" if i < len(dominated) and dominated[i] else "")
                for i, v in enumerate(values)
            ]
            parts.append("released as " + ", ".join(shown))
        rows.append(AboutRow(str(row.get("label", "")), "; ".join(parts)))
    return rows


def _noise(noise: Any) -> list[AboutRow]:
    if not isinstance(noise, Mapping):
        return []
    rows = [AboutRow("Noise", section=True)]
    rows.append(AboutRow("ε spent (bounds once, noise × draws)", _n(noise.get("epsilon_spent"))))
    rows.append(AboutRow("draws", noise.get("draws")))
    for col, details in (noise.get("columns") or {}).items():
        if not isinstance(details, Mapping):
            continue
        text = f"{details.get('described', '')} at ε = {_n(details.get('epsilon'))}"
        bounds = details.get("bounds")
        if isinstance(bounds, list | tuple) and len(bounds) == 2:
            text += f" within [{_n(bounds[0])}, {_n(bounds[1])}] ({details.get('bounds_source')})"
        if details.get("noise_scale") is not None:
            text += f"; noise scale {_n(details['noise_scale'])}"
        if details.get("keep_probability") is not None:
            text += f"; a value is kept with probability {percent(details['keep_probability'])}"
        share = details.get("noise_share")
        if isinstance(share, int | float) and not isinstance(share, bool):
            text += f"; the noise makes up about {percent(share)} of the released values' variance"
            if share >= MOSTLY_NOISE:
                text += " (they are mostly noise)"
        rows.append(AboutRow(str(col), text))
    for col, shares in (noise.get("corrected_shares") or {}).items():
        if not isinstance(shares, Mapping):
            continue
        pairs = zip(shares["categories"], shares["estimate"], shares["standard_error"], strict=True)
        rows.append(
            AboutRow(
                f"{col}: original shares, corrected for the random answers",
                "; ".join(f"{c} {percent(e)} (± {percent(se)})" for c, e, se in pairs),
            )
        )
    return rows


def _missing_qi(counts: Mapping[str, Any]) -> list[AboutRow]:
    """Missing QI values: released empty (and, in a review record's counts, how many of them
    were known values withheld: not in the published metadata)."""
    if not counts:
        return []
    title = "Missing quasi-identifier values (released empty, never filled in)"
    rows = [AboutRow(title, section=True)]
    for col, c in counts.items():
        if isinstance(c, Mapping):
            text = f"{number(c.get('released'))} released empty"
            if c.get("withheld"):
                text += f", of which {number(c['withheld'])} known values withheld"
            rows.append(AboutRow(str(col), text))
    return rows


# -- values --------------------------------------------------------------------------------------


def _hashable(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _n(value: Any, digits: int = 4) -> str:
    if isinstance(value, str):
        return value
    return number(value, digits)


def _text(value: Any) -> Any:
    """A parameter's value for the sheet: lists joined, mappings as "key: value" pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(_text(v)) for v in value)
    if isinstance(value, float):
        return number(value)
    return value
