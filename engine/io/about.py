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

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InputError
from engine.i18n import N_, _
from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.text import number, percent

#: the key that says which of the two documents a run's metadata is
RECORD_KEY = "record"
#: the field metadata key by which a summary field declares whether it is published with the
#: release (``engine.release.model.published.PUBLIC`` / ``REVIEW``)
PUBLIC_KEY = "public"
#: parameters for the review record only: with the seed and the public code the noise of a
#: release can be drawn again and subtracted; the columns released although they look like
#: identifiers are the reviewer's to weigh (engine.identifiers)
REVIEW_PARAMETERS = ("seed", "allow_identifier")
#: the key of the published metadata that holds what the release achieves in plain words
#: (the public phrases of :func:`engine.release.model.words.public_words`, in the run's language)
IN_WORDS = "in_words"
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
            _(
                "This is the review record of the run (the seed, statistics of the original data); "
                "it is not published with a release. Write the release with the published "
                "metadata (RunSummary.public_dict()) and keep the review record apart."
            )
        )
    return meta


@dataclass(frozen=True)
class AboutRow:
    """One row of the sheet: a section heading (``value`` None) or a label and its value."""

    label: str
    value: Any = None
    section: bool = False


def field_label(name: str) -> str:
    """The name of :class:`~engine.params.ReleaseParams` field ``name`` for people, in the
    reader's language: the label the field declares (:attr:`ReleaseParams.FIELDS`), the same
    one the app's widgets and the command line's help show."""
    return _(ReleaseParams.describe(name).info.label)


def mechanism_title(name: str) -> str:
    """A registered mechanism in words, in the reader's language (its declared ``title``)."""
    mechanism = MECHANISMS.get(name)
    return _(mechanism.title) if mechanism is not None else name


#: the values of a choice among ways of releasing, each with its short name (a choice in the
#: app) and what it does (the app's explanation, the About sheet's and the report's words)
_CHOICES: dict[str, dict[Any, tuple[str, str]]] = {
    "qi_output": {
        "centroid": (
            N_("one typical value per group"),
            N_(
                "Each group's values are replaced by one typical value (the rounded mean of a "
                "number, the median or most frequent category); a missing value stays empty."
            ),
        ),
        "range": (
            N_("the range of the group"),
            N_(
                "Each group's values are replaced by the range they span (the set of its "
                "categories for a category), rounded outward to public round numbers; a "
                "missing value stays empty."
            ),
        ),
        "common": (
            N_("the value the whole group shares"),
            N_(
                "A category column gives each group the value all its members hold (the "
                "lowest common level of its hierarchy), else “*”; the other columns give one "
                "typical value per group; a missing value stays empty."
            ),
        ),
    },
    "confidential_output": {
        "mean": (
            N_("the bucket's mean"),
            N_(
                "Each value is replaced by the mean of its bucket over the whole file, rounded "
                "so that no one record can be read from it: totals and averages stay close, "
                "and the review report gives the total's error (the median where one or two "
                "records dominate the bucket)."
            ),
        ),
        "median": (
            N_("the bucket's median"),
            N_("Each value is replaced by the median of its bucket over the whole file."),
        ),
        "label": (
            N_("the bucket's label"),
            N_(
                "Each value is replaced by its bucket's label, a range or set of values such "
                "as “20,000 to 40,000”: exactly what the guarantee protects."
            ),
        ),
    },
}


def value_choices(name: str) -> dict[Any, tuple[str, str]]:
    """Every value field ``name`` allows → (its short name, what it does), in the reader's
    language: the one description of a parameter's values, which the app offers as choices
    and the About sheet and the report print (:func:`value_words`).  A value without
    declared words is offered under its own name."""
    declared = _CHOICES.get(name, {})
    allowed = getattr(ReleaseParams.CONSTRAINTS[name], "values", ()) or tuple(declared)
    generic = _("Released as “{value}”.")
    return {
        v: (_(declared[v][0]), _(declared[v][1])) if v in declared
        else (str(v), generic.format(value=v))
        for v in allowed
    }  # fmt: skip


#: parameter values, in words (the About sheet and the report)
VALUE_WORDS = {
    "missing_confidential": {
        "bucket": N_("released in a bucket of their own (an empty cell)"),
        "drop": N_("left out of the release"),
    },
    "transform": {
        "none": N_("no: the noise is added to the values"),
        "log": N_("yes: the noise is added to log(1 + value)"),
    },
    "confidential_output": {
        value: description
        for value, (_label, description) in _CHOICES["confidential_output"].items()
    },
    "qi_output": {
        value: description for value, (_label, description) in _CHOICES["qi_output"].items()
    },
    "n_buckets": {None: N_("auto (searched with the class size)")},
    "household_output": {
        "recode": N_("re-coded (a fresh random numbering)"),
        "none": N_("left out"),
    },
    "weight_output": {
        "class": N_("its class's mean weight (the weight never splits a class)"),
        "keep": N_("released unchanged (a key like a quasi-identifier)"),
        "none": N_("left out"),
    },
    "joint": {True: N_("jointly (one bucket per tuple)"), False: N_("per column")},
}


def value_words(name: str, value: Any) -> str | None:
    """What ``value`` of field ``name`` means, in words (None when it has no words)."""
    words = VALUE_WORDS.get(name, {})
    return _(words[value]) if _hashable(value) and value in words else None


#: how a noise column was released (the summary's ``mechanism`` of a column), in words
NOISE_WORDS = {
    "Laplace noise": N_("Laplace noise"),
    "Laplace noise on log(1 + value)": N_("Laplace noise on log(1 + value)"),
    "insensitive microaggregation + Laplace noise": N_(
        "insensitive microaggregation + Laplace noise"
    ),
    "insensitive microaggregation + Laplace noise on log(1 + value)": N_(
        "insensitive microaggregation + Laplace noise on log(1 + value)"
    ),
    "randomized response": N_("randomized response"),
    "public": N_("public"),
    "private": N_("private"),
}
_PRIVATE_BOUNDS = re.compile(
    r"private \(DP quantiles (?P<quantiles>[^,]+), ε = (?P<epsilon>[^)]+)\)"
)


def noise_words(text: Any) -> str:
    """A noise column's mechanism or bounds' origin as the summary names it, in the reader's
    language ("Laplace noise", "private (DP quantiles 0.25/0.75, ε = 0.1)")."""
    text = str(text)
    if text in NOISE_WORDS:
        return _(NOISE_WORDS[text])
    found = _PRIVATE_BOUNDS.fullmatch(text)
    if found:
        return _("private (DP quantiles {quantiles}, ε = {epsilon})").format(**found.groupdict())
    return text


#: what each kind of t means (the summary's ``t_kind``)
T_MEANINGS = {
    "asked": N_("t asked"),
    "stochastic": N_("t (stochastic, Proposition 1: the expected shares of every class)"),
    "actual (resampled)": N_("t (actual: the worst class on the release's own buckets)"),
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
    "risk",
    "households",
    "weight",
    "kept",
    # the headline figures repeat the risk section's
    "expected_reidentifications",
    "household_risk",
    IN_WORDS,
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
    rows += _in_words(meta.get(IN_WORDS) or [])
    rows += _guarantees(meta.get("guarantees") or [])
    rows += _parameters(meta["parameters"], meta.get("noise"))
    rows += _buckets(meta.get("buckets") or [])
    rows += _noise(meta.get("noise"))
    rows += _missing_qi(meta.get("missing_qi") or {})
    rows += _households(meta.get("households"))
    rows += _weight(meta.get("weight"))
    rows += _kept(meta.get("kept"))
    rows += _risk((meta.get("risk") or {}).get("after"))
    rest = {k: v for k, v in meta.items() if k not in _SUMMARY_KEYS}
    if rest:
        rows.append(AboutRow(_("Other"), section=True))
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
    rows = [AboutRow(_("The release"), section=True)]
    for key, label in (
        ("input", _("input file")),
        ("software", _("software")),
        ("written", _("written")),
    ):
        if meta.get(key):
            rows.append(AboutRow(label, str(meta[key])))
    rows.append(AboutRow(_("records released"), meta.get("n_released")))
    rows.append(AboutRow(_("independent check"), meta.get("verification", "")))
    return rows


def _achieved(meta: Mapping[str, Any]) -> list[AboutRow]:
    """k, the one t the release answers to (with what it means) and ε, the classes."""
    params = meta["parameters"]
    rows = [AboutRow(_("What was achieved"), section=True)]
    rows.append(
        AboutRow(_("k asked / achieved"), f"{_n(params.get('k'))} / {_n(meta['k_achieved'])}")
    )
    kind = meta.get("t_kind")
    if kind == "asked" and meta.get("t_achieved") is not None:
        rows.append(
            AboutRow(
                _("t asked / achieved (the class farthest from the whole file)"),
                f"{_n(meta.get('t'))} / {_n(meta['t_achieved'])}",
            )
        )
    elif meta.get("t") is not None:
        rows.append(AboutRow(_(T_MEANINGS.get(str(kind), "t")), _n(meta["t"])))
    if meta.get("epsilon") is not None:
        how = {"t": _(" (2 ln t, Proposition 3)"), "given": _(" (given)")}.get(
            str(meta.get("epsilon_from")), ""
        )
        if kind == "asked" and meta.get("epsilon_achieved") is not None:
            rows.append(
                AboutRow(
                    _("ε{how}, asked / achieved").format(how=how),
                    f"{_n(meta['epsilon'])} / {_n(meta['epsilon_achieved'])}",
                )
            )
        else:
            rows.append(AboutRow(_("ε{how}").format(how=how), _n(meta["epsilon"])))
    rows.append(AboutRow(_("classes"), meta.get("n_classes")))
    sizes = meta.get("class_sizes") or {}
    if sizes:
        rows.append(
            AboutRow(
                _("class sizes (smallest, median, largest)"),
                f"{_n(sizes.get('min'))}, {_n(sizes.get('median'))}, {_n(sizes.get('max'))}",
            )
        )
    return rows


def _in_words(phrases: list[Any]) -> list[AboutRow]:
    """What the release achieves in plain words: the summary's public phrases, one a row."""
    if not phrases:
        return []
    return [AboutRow(_("In plain words"), section=True)] + [
        AboutRow("", str(phrase)) for phrase in phrases
    ]


def _guarantees(items: list[Any]) -> list[AboutRow]:
    if not items:
        return []
    rows = [AboutRow(_("Guarantees"), section=True)]
    for g in (g for g in items if isinstance(g, Mapping) and g.get("holds", True)):
        rows.append(AboutRow(str(g.get("name", "")), str(g.get("statement", ""))))
        if g.get("assumption") and g["assumption"] != "—":
            rows.append(AboutRow("    " + _("assumes"), str(g["assumption"])))
        if g.get("broken_by"):
            rows.append(AboutRow("    " + _("broken by"), str(g["broken_by"])))
        if g.get("source"):
            rows.append(AboutRow("    " + _("source"), str(g["source"])))
    caveats = [g for g in items if isinstance(g, Mapping) and not g.get("holds", True)]
    if caveats:
        rows.append(AboutRow(_("What does not follow"), section=True))
        rows += [AboutRow(str(g.get("name", "")), str(g.get("statement", ""))) for g in caveats]
    return rows


def _parameters(params: Mapping[str, Any], noise: Any = None) -> list[AboutRow]:
    """The parameters as published (those that applied to the mechanism, no seed), each
    named by its declared label, in the order the fields are declared."""
    rows = [AboutRow(_("Parameters"), section=True)]
    rows += [AboutRow(label, value) for _name, label, value in parameter_rows(params, noise)]
    return rows


def parameter_rows(params: Mapping[str, Any], noise: Any = None) -> list[tuple[str, str, Any]]:
    """(field, label, value) of every parameter in ``params`` (a ``to_dict()`` form, e.g.
    :func:`~engine.release.applied_parameters`), in the order the fields are declared.

    The one list of a release's parameters in words: the About sheet shows it, the report
    builds its parameter table from it, so a new field appears in both without an edit.
    Each is named by its declared label (:func:`field_label`), its value in words where the
    field declares words for it (:func:`value_words`), the mechanism by its title and the
    noise its columns got; empty values are left out, unknown keys follow by name.
    """
    rows: list[tuple[str, str, Any]] = []
    for key in ReleaseParams.FIELDS:
        if key not in params:
            continue
        value = params[key]
        words = value_words(key, value)
        if words is not None:
            value = words
        elif key == "mechanism":
            value = _mechanism_words(str(value), noise)
        elif key == "hierarchies" and isinstance(value, Mapping) and value:
            value = _hierarchy_words(value)
        elif value in (None, [], {}, ()):
            continue
        rows.append((key, field_label(key), _text(value)))
    for key in sorted(set(params) - set(ReleaseParams.FIELDS)):
        rows.append((key, key, _text(params[key])))
    return rows


def _hierarchy_words(hierarchies: Mapping[str, Any]) -> str:
    """Each hierarchy by its levels and size (the whole table is in the JSON metadata)."""
    parts = []
    for column, table in hierarchies.items():
        levels = " → ".join(str(v) for v in table[0]) if table else ""
        parts.append(
            _("{column}: {levels} ({n} values at the finest level)").format(
                column=column, levels=levels, n=max(len(table) - 1, 0)
            )
        )
    return "; ".join(parts)


def _mechanism_words(mechanism: str, noise: Any) -> str:
    """The mechanism in words; for noise, the mechanisms its columns actually got."""
    words = mechanism_title(mechanism)
    columns = noise.get("columns") if isinstance(noise, Mapping) else None
    if isinstance(columns, Mapping) and columns:
        used = sorted({str(d.get("described")) for d in columns.values() if isinstance(d, Mapping)})
        words += ": " + ", ".join(noise_words(u) for u in used)
    return words


def _buckets(buckets: list[Any]) -> list[AboutRow]:
    if not buckets:
        return []
    rows = [AboutRow(_("Confidential buckets (records, share; the value released)"), section=True)]
    for row in (b for b in buckets if isinstance(b, Mapping)):
        parts = [
            _("{count} records ({share})").format(
                count=_n(row.get("count")), share=percent(row.get("share"))
            )
        ]
        values = row.get("representative")
        if values and not row.get("missing"):
            dominated = row.get("dominated") or [False] * len(values)
            shown = [
                _n(v) + (_(" (the median: p%-rule)") if i < len(dominated) and dominated[i] else "")
                for i, v in enumerate(values)
            ]
            parts.append(_("released as ") + ", ".join(shown))
        rows.append(AboutRow(str(row.get("label", "")), "; ".join(parts)))
    return rows


def _noise(noise: Any) -> list[AboutRow]:
    if not isinstance(noise, Mapping):
        return []
    rows = [AboutRow(_("Noise"), section=True)]
    rows.append(AboutRow(_("ε spent (bounds once, noise × draws)"), _n(noise.get("epsilon_spent"))))
    rows.append(AboutRow(_("draws"), noise.get("draws")))
    for col, details in (noise.get("columns") or {}).items():
        if not isinstance(details, Mapping):
            continue
        text = _("{mechanism} at ε = {epsilon}").format(
            mechanism=noise_words(details.get("described", "")), epsilon=_n(details.get("epsilon"))
        )
        bounds = details.get("bounds")
        if isinstance(bounds, list | tuple) and len(bounds) == 2:
            text += _(" within [{low}, {high}] ({bounds_source})").format(
                low=_n(bounds[0]),
                high=_n(bounds[1]),
                bounds_source=noise_words(details.get("bounds_source")),
            )
        if details.get("noise_scale") is not None:
            text += _("; noise scale {noise_scale}").format(noise_scale=_n(details["noise_scale"]))
        if details.get("keep_probability") is not None:
            text += _("; a value is kept with probability {keep_probability}").format(
                keep_probability=percent(details["keep_probability"])
            )
        share = details.get("noise_share")
        if isinstance(share, int | float) and not isinstance(share, bool):
            text += _("; the noise makes up about {share} of the released values' variance").format(
                share=percent(share)
            )
            if share >= MOSTLY_NOISE:
                text += _(" (they are mostly noise)")
        rows.append(AboutRow(str(col), text))
    for col, shares in (noise.get("corrected_shares") or {}).items():
        if not isinstance(shares, Mapping):
            continue
        pairs = zip(shares["categories"], shares["estimate"], shares["standard_error"], strict=True)
        rows.append(
            AboutRow(
                _("{col}: original shares, corrected for the random answers").format(col=col),
                "; ".join(f"{c} {percent(e)} (± {percent(se)})" for c, e, se in pairs),
            )
        )
    return rows


def _missing_qi(counts: Mapping[str, Any]) -> list[AboutRow]:
    """Missing QI values: released empty (and, in a review record's counts, how many of them
    were known values withheld: not in the published metadata)."""
    if not counts:
        return []
    title = _("Missing quasi-identifier values (released empty, never filled in)")
    rows = [AboutRow(title, section=True)]
    for col, c in counts.items():
        if isinstance(c, Mapping):
            text = _("{released} released empty").format(released=number(c.get("released")))
            if c.get("withheld"):
                text += _(", of which {withheld} known values withheld").format(
                    withheld=number(c["withheld"])
                )
            rows.append(AboutRow(str(col), text))
    return rows


def _households(households: Any) -> list[AboutRow]:
    """The households of a survey file: how the release keeps them (the published part of
    the run's household summary)."""
    if not isinstance(households, Mapping):
        return []
    rows = [AboutRow(_("Households"), section=True)]
    column = str(households.get("column", ""))
    kept = value_words("household_output", households.get("output"))
    rows.append(AboutRow(_("household id ({column})").format(column=column), kept or ""))
    if households.get("households_k") is not None:
        rows.append(AboutRow(_("fewest households in a class"), number(households["households_k"])))
    level = households.get("household_level") or []
    rows.append(
        AboutRow(_("released alike for every member of a household"), ", ".join(level) or _("none"))
    )
    if households.get("pattern_k") is not None:
        rows.append(
            AboutRow(
                _("fewest households sharing a released id's pattern of classes"),
                number(households["pattern_k"]),
            )
        )
    if households.get("linking_t") is not None:
        rows.append(
            AboutRow(
                _("largest distance left of a member's bucket by following the household id"),
                number(households["linking_t"], 4),
            )
        )
    if households.get("records_without_id"):
        rows.append(
            AboutRow(
                _("records released without a household id (too few households like theirs)"),
                number(households["records_without_id"]),
            )
        )
    alike = households.get("confidential_level") or []
    if alike:
        rows.append(
            AboutRow(
                _(
                    "confidential columns shared by a household (its members kept in "
                    "different classes)"
                ),
                ", ".join(alike),
            )
        )
    return rows


def _weight(weight: Any) -> list[AboutRow]:
    """The sampling weight: how it is released and the k and t with it as a key."""
    if not isinstance(weight, Mapping):
        return []
    rows = [AboutRow(_("Sampling weight"), section=True)]
    column = str(weight.get("column", ""))
    rows.append(
        AboutRow(
            _("weight ({column})").format(column=column),
            value_words("weight_output", weight.get("output")) or "",
        )
    )
    if weight.get("k") is not None:
        rows.append(AboutRow(_("k with the weight as a key"), number(weight["k"])))
    if weight.get("t") is not None:
        rows.append(AboutRow(_("t with the weight as a key"), number(weight["t"], 4)))
    return rows


def _kept(kept: Any) -> list[AboutRow]:
    """The columns released unchanged and the k and t with them as keys."""
    if not isinstance(kept, Mapping):
        return []
    rows = [AboutRow(_("Columns released unchanged"), section=True)]
    rows.append(AboutRow(_("columns"), ", ".join(map(str, kept.get("columns") or ()))))
    rows.append(AboutRow(_("k with these columns as keys"), number(kept.get("k"))))
    t = kept.get("t")
    if t is not None:
        infinite = str(t) == "inf" or (isinstance(t, float) and math.isinf(t))
        shown = _("infinite") if infinite else number(t, 4)
        rows.append(AboutRow(_("t with these columns as keys"), shown))
    return rows


def _risk(risk: Any) -> list[AboutRow]:
    """The disclosure risk of the release itself (a reader recomputes it from the file: its
    quasi-identifiers, and the weights and household ids where the run used them)."""
    if not isinstance(risk, Mapping):
        return []
    title = _("Disclosure risk of the release (matching on the quasi-identifiers)")
    rows = [AboutRow(title, section=True)]
    weighted = risk.get("weighted")
    how = _("from the sampling weights, Benedetti–Franconi") if weighted else _("1 / class size")
    rows.append(
        AboutRow(
            _("records unique on their quasi-identifiers"),
            f"{number(risk.get('n_unique'))} ({percent(risk.get('share_unique'))})",
        )
    )
    rows.append(
        AboutRow(
            _("re-identification risk of a record, largest / mean ({how})").format(how=how),
            f"{_n(risk.get('max_risk'))} / {_n(risk.get('mean_risk'))}",
        )
    )
    rows.append(
        AboutRow(_("expected re-identifications"), _n(risk.get("expected_reidentifications")))
    )
    rows.append(
        AboutRow(
            _("records with a risk above {threshold}").format(threshold=_n(risk.get("threshold"))),
            f"{number(risk.get('n_above'))} ({percent(risk.get('share_above'))})",
        )
    )
    if risk.get("max_attribute_share") is not None:
        rows.append(
            AboutRow(
                _("largest share of one confidential bucket in a class (in the whole release)"),
                f"{percent(risk['max_attribute_share'])} ({percent(risk.get('prior_max_share'))})",
            )
        )
    if risk.get("n_households") is not None:
        rows.append(AboutRow(_("households"), number(risk["n_households"])))
        rows.append(
            AboutRow(
                _("household risk, mean / largest (1 − Π(1 − risk of each member))"),
                f"{_n(risk.get('household_risk'))} / {_n(risk.get('household_max_risk'))}",
            )
        )
        rows.append(
            AboutRow(
                _("households unique on their members' quasi-identifiers"),
                f"{number(risk.get('n_household_unique'))} "
                f"({percent(risk.get('share_household_unique'))})",
            )
        )
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
        return _("yes") if value else _("no")
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(str(_text(v)) for v in value)
    if isinstance(value, float):
        return number(value)
    return value
