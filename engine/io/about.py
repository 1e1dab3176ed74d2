"""The "About this release" sheet of an .xlsx release, as a reviewer reads it.

A release's metadata is its run summary (``RunSummary.to_dict()``, the same dictionary as
the JSON sidecar of a CSV release, which stays the machine-readable form).  In a workbook it
becomes a two-column sheet: a label and a value per row, grouped in sections (the release,
what was achieved, the guarantees with their assumptions, the parameters, the buckets, the
losses, what an analyst keeps, the noise, the warnings), numbers formatted as everywhere else
(:mod:`engine.text`).  Keys the layout does not know (a project's name, export notes,
metadata from a script) follow in a last section as "key › sub-key" paths, so nothing a
caller passes is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.text import loss as loss_text
from engine.text import number, percent


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
    "missing": "missing-value codes",
    "column_missing": "missing-value codes per column",
    "types": "column types given",
    "orders": "category orders given",
    "bounds": "public bounds",
    "private_bounds": "share of ε for private bounds",
    "insensitive": "insensitive microaggregation first",
    "resample_until_t": "noise redrawn until t-close with t",
    "seed": "seed",
}
#: the mechanisms, in words (the noise route's per-column mechanisms are in its section)
MECHANISM_WORDS = {
    "buckets": "buckets (t-closeness by bucketization)",
    "laplace": "noise (Laplace noise on numbers, randomized response on categories)",
}
#: the keys of a run summary this layout shows (anything else goes to the last section)
_SUMMARY_KEYS = {
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
    "n_partition_classes",
    "class_sizes",
    "buckets",
    "information_loss",
    "noise",
    "worst_class",
    "worst_bucket",
    "seed_policy",
    "column_types",
    "verification",
    "warnings",
    "seconds",
    "parameters",
    "analysis_utility",
    "backend",
    "missing_qi",
    "n_left_out",
}


def is_run_summary(meta: Mapping[str, Any]) -> bool:
    """True for the dictionary of ``RunSummary.to_dict()`` (its layout is known)."""
    return isinstance(meta.get("parameters"), Mapping) and "k_achieved" in meta


def about_rows(meta: Mapping[str, Any]) -> list[AboutRow]:
    """The sheet's rows for ``meta``: sections for a run summary, key paths for the rest."""
    if not is_run_summary(meta):
        return [AboutRow(label, value) for label, value in flatten(meta)]
    rows: list[AboutRow] = []
    rows += _release(meta)
    rows += _achieved(meta)
    rows += _guarantees(meta.get("guarantees") or [])
    rows += _parameters(meta["parameters"])
    rows += _buckets(meta.get("buckets") or [])
    rows += _losses(meta.get("information_loss") or {})
    rows += _utility(meta.get("analysis_utility") or {})
    rows += _noise(meta.get("noise"))
    rows += _missing_qi(meta.get("missing_qi") or {})
    warnings = meta.get("warnings") or []
    if warnings:
        rows.append(AboutRow("Warnings", section=True))
        rows += [AboutRow(f"warning {i}", text) for i, text in enumerate(warnings, start=1)]
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
    rows.append(AboutRow("records in the input", meta.get("n_records")))
    rows.append(AboutRow("records released", meta.get("n_released")))
    if meta.get("n_left_out"):
        rows.append(AboutRow("records left out (a missing confidential value)", meta["n_left_out"]))
    rows.append(AboutRow("independent check", meta.get("verification", "")))
    if meta.get("seed_policy"):
        rows.append(AboutRow("randomness", meta["seed_policy"]))
    backend = meta.get("backend")
    if isinstance(backend, Mapping):
        rows.append(
            AboutRow(
                "computed on",
                f"{backend.get('name', '')}: {_n(backend.get('workers'))} workers, "
                f"{_n(backend.get('partitions'))} partitions",
            )
        )
    if isinstance(meta.get("seconds"), int | float):
        rows.append(AboutRow("time taken", f"{number(meta['seconds'], 3)} s"))
    return rows


def _achieved(meta: Mapping[str, Any]) -> list[AboutRow]:
    params = meta["parameters"]
    rows = [AboutRow("What was achieved", section=True)]
    rows.append(AboutRow("k asked / achieved", f"{_n(params.get('k'))} / {_n(meta['k_achieved'])}"))
    if meta.get("t") is not None:
        kind = f" ({meta['t_kind']})" if meta.get("t_kind") else ""
        rows.append(AboutRow(f"t{kind}", _n(meta["t"])))
    if meta.get("t_achieved") is not None:
        rows.append(AboutRow("t achieved (the worst class)", _n(meta["t_achieved"])))
    if meta.get("epsilon") is not None:
        how = {"t": " (2 ln t, Proposition 3)", "given": " (given)"}.get(
            str(meta.get("epsilon_from")), ""
        )
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


def _parameters(params: Mapping[str, Any]) -> list[AboutRow]:
    rows = [AboutRow("Parameters", section=True)]
    for key, label in PARAMETER_NAMES.items():
        if key not in params:
            continue
        value = params[key]
        if value in (None, [], {}, ()) and key not in ("n_buckets", "t", "epsilon"):
            continue
        if key == "n_buckets" and value is None:
            value = "auto (searched with the class size)"
        elif key == "mechanism":
            value = MECHANISM_WORDS.get(str(value), value)
        elif value is None:
            continue
        rows.append(AboutRow(label, _text(value)))
    for key in sorted(set(params) - set(PARAMETER_NAMES)):
        rows.append(AboutRow(key, _text(params[key])))
    return rows


def _buckets(buckets: list[Any]) -> list[AboutRow]:
    if not buckets:
        return []
    rows = [AboutRow("Confidential buckets (records, share; mean, median, SD)", section=True)]
    for row in (b for b in buckets if isinstance(b, Mapping)):
        parts = [f"{_n(row.get('count'))} records ({percent(row.get('share'))})"]
        means, medians, sds = row.get("mean") or [], row.get("median") or [], row.get("sd") or []
        dominated = row.get("dominated") or [False] * len(means)
        for i, median in enumerate(medians):
            if median is None:
                continue
            mean = "withheld (p%-rule)" if dominated[i] else _n(means[i])
            sd = _n(sds[i]) if i < len(sds) and sds[i] is not None else "—"
            parts.append(f"mean {mean}, median {_n(median)}, SD {sd}")
        rows.append(AboutRow(str(row.get("label", "")), "; ".join(parts)))
    return rows


def _losses(loss: Mapping[str, Any]) -> list[AboutRow]:
    rows = [AboutRow("Information lost (0 % keeps everything; SSE/SST)", section=True)]
    if loss.get("qi_sse_sst") is not None:
        rows.append(AboutRow("quasi-identifiers", loss_text(loss["qi_sse_sst"])))
    if loss.get("confidential_sse_sst") is not None:
        rows.append(AboutRow("confidential values", loss_text(loss["confidential_sse_sst"])))
    return rows if len(rows) > 1 else []


def _utility(utility: Mapping[str, Any]) -> list[AboutRow]:
    if not utility:
        return []
    rows = [AboutRow("What an analyst keeps (original against released)", section=True)]
    for col, u in utility.items():
        if not isinstance(u, Mapping):
            continue
        rows.append(AboutRow(f"{col}: released as", str(u.get("released_as", ""))))
        if u.get("total_relative_error") is not None:
            rows.append(AboutRow(f"{col}: error of the total", percent(u["total_relative_error"])))
        if u.get("variance_ratio") is not None:
            rows.append(AboutRow(f"{col}: variance kept", _n(u["variance_ratio"], 3)))
        for qi, err in (u.get("group_mean_mare") or {}).items():
            rows.append(AboutRow(f"{col}: error of the means by {qi}", percent(err)))
        for c in u.get("correlations") or []:
            rows.append(
                AboutRow(
                    f"{col}: correlation with {c.get('qi')}",
                    f"{_corr(c.get('original'))} → {_corr(c.get('released'))}",
                )
            )
        reg = u.get("regression")
        if isinstance(reg, Mapping) and reg.get("coefficient_median_relative_error") is not None:
            rows.append(
                AboutRow(
                    f"{col}: regression of {reg.get('outcome')} on the QIs, coefficient error",
                    percent(reg["coefficient_median_relative_error"]),
                )
            )
        if u.get("share_changed") is not None:
            rows.append(AboutRow(f"{col}: values changed", percent(u["share_changed"])))
    return rows


def _noise(noise: Any) -> list[AboutRow]:
    if not isinstance(noise, Mapping):
        return []
    rows = [AboutRow("Noise", section=True)]
    rows.append(AboutRow("ε spent (bounds once, noise × draws)", _n(noise.get("epsilon_spent"))))
    rows.append(AboutRow("draws", noise.get("draws")))
    if noise.get("stochastic_t") is not None:
        rows.append(AboutRow("stochastic t at the smallest class", _n(noise["stochastic_t"])))
    for col, details in (noise.get("columns") or {}).items():
        if not isinstance(details, Mapping):
            continue
        text = f"{details.get('mechanism', '')} at ε = {_n(details.get('epsilon'))}"
        bounds = details.get("bounds")
        if isinstance(bounds, list | tuple) and len(bounds) == 2:
            text += f" within [{_n(bounds[0])}, {_n(bounds[1])}] ({details.get('bounds_source')})"
        if details.get("keep_probability") is not None:
            text += f"; a value is kept with probability {percent(details['keep_probability'])}"
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
    """Missing QI values: released empty, of them withheld (known values hidden)."""
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


def _corr(value: Any) -> str:
    """A correlation to three decimals (0.006, not 6.37e-03)."""
    return _n(round(value, 3) if isinstance(value, int | float) else value)


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
