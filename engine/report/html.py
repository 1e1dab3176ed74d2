"""The release report: one self-contained HTML file a disclosure review board can read.

The report says what was released and why it is safe: the data set, the role of every column,
the parameters and mechanism, the guarantees achieved with the assumptions they rest on (in
plain words, KBS 2015 §3–5 and TIFS 2022), the confidential buckets, the class sizes, the
preview plots, information loss, disclosure risk before and after, software version, date and
seed policy.

It is one HTML file with its images embedded as base64 PNG and its style inline, so that it
opens offline on an air-gapped machine, can be mailed as one attachment, and prints cleanly
(print style sheet: A4, no broken tables or figures).  There is no PDF writer: printing the
HTML to PDF from any browser gives one, and no new dependency is needed for it.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.errors import InputError
from engine.i18n import N_, _, language, ngettext
from engine.io.about import (
    field_label,
    mechanism_title,
    noise_words,
    parameter_rows,
    value_words,
)
from engine.io.outputs import Output, Staging, check_outputs, write_outputs
from engine.progress import NO_TASK, Task
from engine.release import P_RULE, Release, RunSummary, applied_parameters, join, summary_words
from engine.report.risk import DEFAULT_THRESHOLD, RiskSummary, comparison_rows, release_risk
from engine.text import fixed, number, percent
from engine.text import loss as loss_text
from engine.version import __version__

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from engine.io import ImportInfo
    from engine.params import ReleaseParams
    from engine.privacy import Guarantee
    from engine.release import BucketChoice

#: resolution of the embedded figures (sharp on paper, a few hundred kB per report)
FIGURE_DPI = 110


@dataclass
class ReportFigure:
    """One embedded picture: a title for the reader and the PNG bytes."""

    title: str
    png: bytes
    caption: str = ""


# -- small formatting helpers ----------------------------------------------------------------------


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]], right: Sequence[int] = ()) -> str:
    """An HTML table of already-escaped cells; columns listed in ``right`` are numbers."""

    def cls(i: int) -> str:
        return ' class="n"' if i in right else ""

    head = "".join(f"<th{cls(i)}>{_e(h)}</th>" for i, h in enumerate(header))
    body = "".join(
        "<tr>" + "".join(f"<td{cls(i)}>{cell}</td>" for i, cell in enumerate(row)) + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _dl(items: Iterable[tuple[str, Any]]) -> str:
    """A two-column key/value table (already-escaped values)."""
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{v}</td></tr>" for k, v in items)
    return f'<table class="kv"><tbody>{rows}</tbody></table>'


def _cols(names: Sequence[str]) -> str:
    return ", ".join(f"<code>{_e(n)}</code>" for n in names) if names else "—"


# -- figures ---------------------------------------------------------------------------------------


def figure_png(fig: Figure, dpi: int = FIGURE_DPI) -> bytes:
    """PNG bytes of a matplotlib figure (no pyplot: safe on any thread)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white")  # layouts are constrained
    return buf.getvalue()


def preview_figures(release: Release, *, task: Task = NO_TASK) -> list[ReportFigure]:
    """The plots of the GUI's preview page (from :mod:`engine.report.plots`), as PNG.

    A plot that cannot be drawn does not stop the report: the report says which one failed.
    """
    from engine.report import plots  # matplotlib is imported only when a report is written

    makers: list[tuple[str, str, Callable[[], Figure]]] = []
    if release.buckets is not None:
        makers.append(
            (
                _("Confidential buckets"),
                _(
                    "The distribution of the confidential attribute and how it was split into "
                    "buckets."
                ),
                lambda: plots.bucket_histogram(release),
            )
        )
    makers.append(
        (
            _("Class sizes"),
            _("How many equivalence classes have each size; the dashed line marks k."),
            lambda: plots.class_size_histogram(release),
        )
    )
    if release.buckets is not None and release.params.bucket_t is not None:
        makers.append(
            (
                _("Closeness of every class"),
                _(
                    "For each class (row) and bucket (column), the bucket's share in the class "
                    "divided by its share in the whole file; t-closeness keeps every cell inside "
                    "[1/t, t]."
                ),
                lambda: plots.closeness_heatmap(release),
            )
        )
    for col in release.params.qi:
        makers.append(
            (
                _("Quasi-identifier {col}: before and after").format(col=col),
                _("The values of {col} in the input and in the release.").format(col=col),
                lambda col=col: plots.qi_before_after(release, col),
            )
        )
    out = []
    for i, (title, caption, make) in enumerate(makers):
        task.step(i / len(makers), _("Drawing {lower}").format(lower=title.lower()))
        try:
            png = figure_png(make())
        except Exception as err:  # a broken plot must not cost the user the whole report
            out.append(
                ReportFigure(title, b"", _("This plot could not be drawn ({err}).").format(err=err))
            )
        else:
            out.append(ReportFigure(title, png, caption))
    return out


# -- sections --------------------------------------------------------------------------------------


def _values_text(values: Mapping[str, Any]) -> str:
    symbols = {"epsilon": "ε", "n": "N", "group": _("group"), "epsilon_local": _("local ε")}
    return ", ".join(f"{symbols.get(k, k)} = {number(v, 4)}" for k, v in values.items())


def _guarantee_html(release: Release) -> str:
    cfg, ver = release.params, release.verification
    requested = [f"k = {cfg.k}"]
    if cfg.t is not None:
        requested.append(f"t = {number(cfg.t)}")
    if cfg.epsilon is not None:
        requested.append(f"ε = {number(cfg.epsilon)}")
    achieved = [f"k = {number(ver.k)}"]
    if ver.t is not None:
        achieved.append(f"t = {number(ver.t, 4)}")
    parts = [
        _(
            "<p>Requested: {requested}. Achieved, as an independent check read "
            "them off the released file: {achieved}. The statements below use the "
            "achieved values; each holds only under its assumption.</p>"
        ).format(requested=", ".join(requested), achieved=", ".join(achieved))
    ]
    parts.append(guarantees_html(release.summary.guarantees))
    return "\n".join(parts)


def guarantees_html(items: Iterable[Guarantee]) -> str:
    """The guarantees as HTML: what follows, each with its assumption, then what does not.

    One rendering for the report and the GUI's calculator panel; both style the classes
    ``guarantee``, ``vals``, ``assume``, ``source`` and ``caveats`` (the GUI from the palette).
    """
    items = list(items)
    parts = []
    for g in (g for g in items if g.holds):
        numbers = _values_text(g.values)
        parts.append(
            f'<div class="guarantee"><h3>{_e(g.name)}'
            + (f' <span class="vals">({_e(numbers)})</span>' if numbers else "")
            + f"</h3><p>{_e(g.statement)}</p>"
            + (
                _('<p class="assume"><b>Assumption:</b> {assumption}</p>').format(
                    assumption=_e(g.assumption)
                )
                if g.assumption and g.assumption != "—"
                else ""
            )
            + (
                _('<p class="assume"><b>What breaks it:</b> {breaks}</p>').format(
                    breaks=_e(g.broken_by)
                )
                if g.broken_by
                else ""
            )
            + f'<p class="source">{_e(g.source)}</p></div>'
        )
    caveats = [g for g in items if not g.holds]
    if caveats:
        lis = "".join(
            f"<li><b>{_e(g.name)}.</b> {_e(g.statement)} <span class='source'>"
            f"({_e(g.source)})</span></li>"
            for g in caveats
        )
        parts.append(
            _('<div class="caveats"><h3>What does not follow</h3><ul>{lis}</ul></div>').format(
                lis=lis
            )
        )
    return "\n".join(parts)


def bucket_choices_html(choices: Sequence[BucketChoice], weight: float) -> str:
    """The search of b as an HTML table: every b tried with both losses, the chosen one bold.

    The trade-off curve the plan computed, so that an analyst sees what finer buckets cost the
    quasi-identifiers before the run (empty when the user set b).
    """
    if not choices:
        return ""

    def cell(value: float | None) -> str:
        return "—" if value is None else percent(value)

    rows = []
    for c in choices:
        cells = [
            number(c.b), number(c.n_buckets), number(c.expected_class_size),
            cell(c.qi_loss), cell(c.confidential_loss), cell(c.score),
        ]  # fmt: skip
        rows.append([f"<b>{x}</b>" for x in cells] if c.chosen else cells)
    header = [
        "b",
        _("buckets"),
        _("smallest class"),
        _("QI loss"),
        _("confidential loss"),
        _("score"),
    ]
    return (
        '<div class="choices"><h3>'
        + _("Number of buckets")
        + "</h3><p>"
        + _e(
            _(
                "Searched for the least {weight} × confidential loss + {rest} × QI loss (the "
                "file's QI loss, estimated from a sample); the choice in bold."
            ).format(weight=number(weight, 3), rest=number(1 - weight, 3))
        )
        + "</p>"
        + _table(header, rows, right=range(6))
        + "</div>"
    )


def _roles_rows(release: Release) -> list[list[str]]:
    cfg = release.params
    role_of: dict[str, str] = {}
    for cols, role in (
        (cfg.identifiers, _("identifier — not released")),
        (cfg.qi, _("quasi-identifier — recoded per class")),
        (cfg.confidential, _("confidential — protected")),
        (cfg.keep, _("other — released unchanged")),
    ):
        for c in cols:
            role_of[c] = role
    types = _column_types(release)
    rows = []
    for col in release.data.columns:
        role = role_of.get(col, _("untagged — not released"))
        missing = int(release.data[col].isna().sum())
        kind = _(TYPE_WORDS.get(types.get(col, ""), types.get(col, "")))
        rows.append([f"<code>{_e(col)}</code>", _e(role), _e(kind), number(missing)])
    # the identifiers were dropped before the release's data: tagged all the same
    for col in cfg.identifiers:
        if col not in release.data.columns:
            rows.append([f"<code>{_e(col)}</code>", _e(role_of[col]), "", "—"])
    return rows


def _column_types(release: Release) -> dict[str, str]:
    """The type of each column as the run used it (the summary's, then the table's dtype)."""
    types = dict(release.summary.column_types)
    for col in release.data.columns:
        if col not in types:
            kind = release.data[col].dtype.kind
            types[col] = "numeric" if kind in "iuf" else "nominal"
    return types


def _survey_rows(release: Release) -> dict[str, tuple[str, str]]:
    """The households and the sampling weight of a survey file, as the run treated them
    (by the field each row stands for)."""
    homes = release.summary.households
    rows = {}
    if homes is not None:
        level = _cols(homes.household_level) if homes.household_level else _e(_("none"))
        kept = value_words("household_output", homes.output) or homes.output
        text = _(
            "{column}: {n} households; every class holds records of at least {k} of them; "
            "household-level quasi-identifiers, released alike for every member: {level}; "
            "the id is {kept}."
        ).format(
            column=f"<code>{_e(homes.column)}</code>",
            n=number(homes.n_households),
            k=number(homes.households_k),
            level=level,
            kept=_e(kept),
        )
        if homes.pattern_k is not None:
            text += " " + _(
                "Every released id's pattern of classes is shared by at least {k} households; "
                "an intruder who follows an id is left at distance {t} from a member's bucket."
            ).format(
                k=number(homes.pattern_k),
                t=_e(number(homes.linking_t, 4)) if homes.linking_t is not None else "—",
            )
        if homes.records_without_id:
            text += " " + ngettext(
                "{n} record is released without a household id: too few households of its "
                "household's size could share its pattern.",
                "{n} records are released without a household id: too few households of "
                "their household's size could share their pattern.",
                homes.records_without_id,
            ).format(n=number(homes.records_without_id))
        if homes.varied:
            varied = ", ".join(f"{_e(c)} ({number(n)})" for c, n in homes.varied.items())
            text += " " + _(
                "Declared household-level but varying within households: {varied}; each "
                "such household got its members' most frequent value."
            ).format(varied=varied)
        rows["household"] = (field_label("household"), text)
    weight = release.summary.weight
    if weight is not None:
        kept = value_words("weight_output", weight.output) or weight.output
        text = _(
            "{column}: used for the risk estimates and the weighted bucket means; {kept}."
        ).format(column=f"<code>{_e(weight.column)}</code>", kept=_e(kept))
        if weight.k is not None:
            text += " " + _("With the weight as a key the release has k = {k}{t}.").format(
                k=number(weight.k),
                t="" if weight.t is None else _(", t = {t}").format(t=number(weight.t, 4)),
            )
        rows["weight"] = (field_label("weight"), text)
    return rows


def _parameter_rows(release: Release) -> list[tuple[str, str]]:
    """The parameters that applied to the run: the About sheet's rows
    (:func:`~engine.io.about.parameter_rows`, from the declared fields, in their order), a
    few of them told at more length for the review (the noise each column got, the count of
    buckets and who chose it, the households and the weight, the bounds and where they came
    from, the missing-value codes), and t = exp(ε/2) when ε drives buckets."""
    cfg = release.params
    noise = release.summary.public_dict().get("noise")
    survey = _survey_rows(release)
    bounds = _bounds_rows(release)
    longer: dict[str, list[tuple[str, str]]] = {
        "mechanism": [(field_label("mechanism"), _e(_mechanism_words(release)))],
        "bounds": bounds,
        **{name: [row] for name, row in survey.items()},
    }
    if release.buckets is not None:
        longer["n_buckets"] = [(field_label("n_buckets"), _buckets_text(release))]
    if cfg.missing or cfg.column_missing:
        codes = ", ".join(f"<code>{_e(c)}</code>" for c in cfg.missing) or "—"
        for col, cs in cfg.column_missing.items():
            codes += f"; {_e(col)}: " + ", ".join(f"<code>{_e(c)}</code>" for c in cs)
        longer["missing"] = [(field_label("missing"), codes)]
        longer["column_missing"] = []
    longer.update(_recoding_rows(cfg))
    rows: list[tuple[str, str]] = []
    shown = set()
    for name, label, value in parameter_rows(applied_parameters(cfg), noise):
        if name in longer:
            rows.extend(longer[name])
            shown.add(name)
        else:
            rows.append((label, _e(number(value) if isinstance(value, int) else value)))
        if name == "epsilon" and release.buckets is not None:  # buckets answer to exp(ε/2)
            rows.append(("t = exp(ε/2)", number(cfg.bucket_t)))
    if "bounds" not in shown:  # estimated privately: no public bounds were given
        rows.extend(bounds)
    return rows


def _recoding_rows(cfg: ReleaseParams) -> dict[str, list[tuple[str, str]]]:
    """The recodings before the grouping, by field: each hierarchy's levels, the bands' cut
    points, the top and bottom codes."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for col, table in cfg.hierarchies.items():
        levels = " → ".join(table[0])
        text = _("{column}: {levels} ({n} values at the finest level)").format(
            column=col, levels=levels, n=number(len(table) - 1)
        )
        rows.setdefault("hierarchies", []).append((field_label("hierarchies"), _e(text)))
    for name in ("bands", "top_code", "bottom_code"):
        values = getattr(cfg, name)
        if values:
            text = "; ".join(
                f"{col}: " + (":".join(number(c) for c in v) if isinstance(v, tuple) else number(v))
                for col, v in values.items()
            )
            rows[name] = [(field_label(name), _e(text))]
    return rows


def _buckets_text(release: Release) -> str:
    """How many confidential buckets the release has, and who chose that number."""
    cfg, b = release.params, release.buckets
    assert b is not None
    n_b = len(b.counts) - (b.missing_bucket is not None)
    if cfg.n_buckets:
        how = _(" (chosen by the user)")
    else:
        how = " " + _(
            "(searched together with the class size for the least {weight} × "
            "confidential loss + {rest} × QI loss)"
        ).format(weight=number(cfg.utility_weight, 3), rest=number(1 - cfg.utility_weight, 3))
    total = len(b.counts)  # the count the plan, the app and the About sheet show
    if b.missing_bucket is not None:
        count = _("{total} buckets: {n} of values and one for missing values").format(
            total=number(total), n=number(n_b)
        )
    else:
        count = ngettext("{total} bucket", "{total} buckets", total).format(total=number(total))
    return f"{count}{how}"


def _bounds_rows(release: Release) -> list[tuple[str, str]]:
    """The clamping bounds of every numeric column, where they came from, the ε they cost."""
    params, noise = release.params, release.summary.noise
    used = dict(noise.bounds) if noise is not None else dict(params.bounds)
    columns = noise.columns if noise is not None else {}
    rows = []
    for col, (lo, hi) in used.items():
        words = noise_words(columns[col].bounds_source if col in columns else "public")
        rows.append(
            (
                _("bounds of {col}").format(col=_e(col)),
                _("[{lo}, {hi}] ({words})").format(
                    lo=_cut_text(lo), hi=_cut_text(hi), words=_e(words)
                ),
            )
        )
    if noise is not None and noise.bounds_epsilon > 0 and params.epsilon is not None:
        rows.append(
            (
                field_label("private_bounds"),
                _(
                    "{bounds_epsilon} of ε = {epsilon} (DP quantiles); the noise gets "
                    "{noise_epsilon}"
                ).format(
                    bounds_epsilon=number(noise.bounds_epsilon),
                    epsilon=number(params.epsilon),
                    noise_epsilon=number(params.epsilon - noise.bounds_epsilon),
                ),
            )
        )
    for col, details in columns.items():
        error = details.expected_abs_error
        factor = details.typical_factor
        if isinstance(error, int | float):
            rows.append(
                (
                    _("expected absolute error of the noise on {col}").format(col=_e(col)),
                    number(error, 6),
                )
            )
        elif isinstance(factor, int | float):
            rows.append(
                (
                    _("noise on log(1 + {col})").format(col=_e(col)),
                    _("half of the values within a factor {factor} of the true value").format(
                        factor=number(factor, 3)
                    ),
                )
            )
    return rows


#: the column types, in words
TYPE_WORDS = {
    "numeric": N_("numeric"),
    "nominal": N_("nominal"),
    "ordinal": N_("ordinal"),
    "date": N_("date"),
}
#: how a bucketed column was released (``ColumnUtility.released_as``), in words; a noise
#: column's is its mechanism's description (:func:`~engine.io.about.noise_words`)
RELEASED_AS = {
    "bucket mean": N_("bucket mean"),
    "bucket median": N_("bucket median"),
    "bucket label": N_("bucket label"),
}


def _mechanism_words(release: Release) -> str:
    """The mechanism's declared title and, where noise was drawn, what each confidential
    column got."""
    words = mechanism_title(release.params.mechanism)
    noise = release.summary.noise
    if noise is None:
        return words
    by_how: dict[str, list[str]] = {}
    for col in release.params.confidential:
        how = noise_words(noise.columns[col].described) if col in noise.columns else _("noise")
        by_how.setdefault(how, []).append(col)
    parts = [
        _("{how} on {cols}").format(how=how, cols=", ".join(cols)) for how, cols in by_how.items()
    ]
    return words + ": " + "; ".join(parts) if parts else words


def _cut_text(value: Any) -> str:
    """A public cut point in full (a label's boundary is exact, not a few digits)."""
    if isinstance(value, float | int | np.floating | np.integer):
        v = float(value)
        return fixed(v, 0) if v.is_integer() and abs(v) < 1e15 else number(v, 10)
    return _e(str(value))


def _span_text(lo: Any, hi: Any) -> str:
    """A bucket's span between its public cut points (None: open-ended)."""
    if lo is None and hi is None:
        return _("all values")
    if lo is None:
        return _("below {hi}").format(hi=_cut_text(hi))
    if hi is None:
        return _("{lo} and above").format(lo=_cut_text(lo))
    return _("{lo} to {hi}").format(lo=_cut_text(lo), hi=_cut_text(hi))


def _bucket_rows(release: Release) -> list[list[str]]:
    """Per bucket: label, span, records, share, then per column mean, median and SD."""
    b = release.buckets
    assert b is not None
    shares = b.shares
    rows = []
    for j, label in enumerate(b.labels):
        bound = b.bounds[j] if j < len(b.bounds) else None
        if isinstance(bound, tuple) and len(bound) == 2:
            bound_text = _span_text(*bound)
        elif isinstance(bound, set | frozenset | list):
            bound_text = "; ".join(_e(v) for v in sorted(map(str, bound)))
        else:
            bound_text = "—"
        if j == b.missing_bucket:
            bound_text = _("missing values")
        stats = b.stats[j] if b.stats is not None else None
        reps = b.representatives[j] if j < len(b.representatives) else ()
        if stats is None:
            stats = tuple(None for _ in reps)
        means, medians, sds = [], [], []
        for rep, stat in zip(reps, stats, strict=True):
            if stat is None:
                medians.append(_cut_text(rep) if rep is not None else "—")
                means.append("—")
                sds.append("—")
                continue
            medians.append(_cut_text(stat.median))
            numeric = isinstance(stat.median, int | float) or stat.sd is not None
            if stat.dominated:
                means.append(_("withheld: the median is released (p%-rule)"))
            else:
                means.append(_cut_text(stat.mean) if numeric else "—")
            sds.append(number(stat.sd, 2) if stat.sd is not None else "—")
        rows.append(
            [
                _e(label),
                bound_text,
                number(int(b.counts[j])),
                percent(float(shares[j])),
                "<br>".join(means),
                "<br>".join(medians),
                "<br>".join(sds),
            ]
        )
    return rows


def _released_sentence(release: Release) -> str:
    cols = ", ".join(release.params.confidential)
    output = release.params.confidential_output
    if output == "label":
        return _("{cols}: each record carries its bucket's label.").format(cols=cols)
    if output == "median":
        return _("{cols}: each record carries its bucket's median.").format(cols=cols)
    return _("{cols}: each record carries its bucket's mean.").format(cols=cols)


def analysis_rows(summary: RunSummary) -> list[list[str]]:
    """Per confidential column: (column, measure, value) of the analysis utility, as HTML."""
    rows: list[list[str]] = []
    for col, u in summary.analysis_utility.items():
        name = f"<code>{_e(col)}</code>"

        def add(measure: str, value: str, name: str = name) -> None:
            rows.append([name, _e(measure), _e(value)])

        how = u.released_as
        add(_("released as"), _(RELEASED_AS[how]) if how in RELEASED_AS else noise_words(how))
        if u.total_relative_error is not None:
            add(_("total: relative error"), percent(u.total_relative_error))
        weighted = summary.weighted_totals.get(col)
        if weighted is not None:
            error = weighted["relative_error"]
            add(
                _("weighted total Σ weight × value: original → released"),
                f"{number(weighted['original'])} → {number(weighted['released'])}"
                + (
                    " " + _("({error} off)").format(error=percent(error))
                    if error is not None
                    else ""
                ),
            )
        if u.variance_ratio is not None:
            add(_("variance: released / original"), number(u.variance_ratio, 3))
        for qi, err in u.group_mean_mare.items():
            add(_("means by {qi}: mean relative error").format(qi=qi), percent(err))
        for c in u.correlations:
            add(
                _("correlation with {qi}: original → released").format(qi=c.qi),
                f"{_corr(c.original)} → {_corr(c.released)}",
            )
        if u.regression is not None and u.regression.coefficient_median_relative_error is not None:
            add(
                _(
                    "regression of {outcome} on the QIs ({n} records): median relative error "
                    "of the coefficients"
                ).format(outcome=u.regression.outcome, n=number(u.regression.n_records)),
                percent(u.regression.coefficient_median_relative_error),
            )
        if u.share_changed is not None:
            add(_("share of values changed"), percent(u.share_changed))
    return rows


def missing_qi_rows(summary: RunSummary) -> list[list[str]]:
    """Per QI with missing values: missing in the input, released empty, withheld."""
    return [
        [f"<code>{_e(col)}</code>", number(m.input), number(m.released), number(m.withheld)]
        for col, m in summary.missing_qi.items()
    ]


def corrected_share_rows(release: Release) -> dict[str, list[list[str]]]:
    """Per randomized-response column: category, original, released and corrected shares."""
    noise = release.summary.noise
    out: dict[str, list[list[str]]] = {}
    for col, c in (noise.corrected_shares if noise is not None else {}).items():
        original = release.data[col].dropna().astype(str).value_counts(normalize=True)
        out[col] = [
            [
                _e(cat),
                percent(float(original.get(cat, 0.0))),
                percent(c.released[i]),
                f"{percent(c.estimate[i])} (± {percent(c.standard_error[i])})",
            ]
            for i, cat in enumerate(c.categories)
        ]
    return out


def _corr(value: float | None) -> str:
    """A correlation to three decimals (0.006, not 6.37e-03)."""
    return number(round(value, 3) if value is not None else None, 3)


def coefficient_rows(summary: RunSummary) -> dict[str, list[list[str]]]:
    """Per confidential column, the regression's coefficients: term, original, released."""
    out = {}
    for col, u in summary.analysis_utility.items():
        if u.regression is None:
            continue
        scale = max(abs(v) for c in u.regression.coefficients for v in (c.original, c.released))

        def fmt(v: float, scale: float = scale) -> str:
            # a coefficient zero up to rounding (a term collinear with others) reads 0
            return _e(number(v if abs(v) > 1e-9 * scale else 0.0, 3))

        out[col] = [
            [_e(c.term), fmt(c.original), fmt(c.released)] for c in u.regression.coefficients
        ]
    return out


def _class_size_rows(release: Release) -> tuple[list[tuple[str, str]], list[list[str]]]:
    sizes = np.asarray(release.verification.class_sizes, dtype=np.int64)
    if sizes.size == 0:
        return [(_("classes"), "0")], []
    stats = [
        (_("classes"), number(int(sizes.size))),
        (_("smallest (achieved k)"), number(int(sizes.min()))),
        (_("median"), number(float(np.median(sizes)))),
        (_("mean"), number(float(sizes.mean()), 3)),
        (_("largest"), number(int(sizes.max()))),
    ]
    values, counts = np.unique(sizes, return_counts=True)
    if len(values) > 12:  # fold the long tail into ranges that grow by about √2
        lo, hi = int(sizes.min()), int(sizes.max())
        edges = [lo]
        while edges[-1] <= hi:
            edges.append(max(edges[-1] + 1, round(edges[-1] * math.sqrt(2))))
        rows = []
        for a, b in itertools.pairwise(edges):
            mask = (sizes >= a) & (sizes < b)
            if mask.any():
                label = f"{a}" if b == a + 1 else f"{a}–{b - 1}"
                rows.append([label, number(int(mask.sum())), number(int(sizes[mask].sum()))])
        return stats, rows
    rows = [
        [number(int(v)), number(int(c)), number(int(v * c))]
        for v, c in zip(values, counts, strict=True)
    ]
    return stats, rows


#: readable names of information-loss figures a summary may carry
_LOSS_NAMES = {
    "qi_sse_sst": N_(
        "quasi-identifiers: share of their variation lost (0 = nothing, 1 = all; SSE/SST)"
    ),
    "confidential_sse_sst": N_(
        "confidential values: distortion, as a share of their variation (0 = unchanged; SSE/SST)"
    ),
}
#: readable names of the per-column statistics of the confidential columns
_COLUMN_STAT_NAMES = {
    "sse_sst": N_("distortion, as a share of the variation (SSE/SST)"),
    "share_changed": N_("share of values changed"),
    "mean_absolute_error": N_("mean absolute error"),
    "mean_original": N_("mean before"),
    "mean_released": N_("mean after"),
    "variance_original": N_("variance before"),
    "variance_released": N_("variance after"),
    "correlation": N_("correlation of before and after"),
}


#: per-column statistics that are shares (printed in %)
_SHARES = {"sse_sst", "share_changed"}


def information_loss_rows(summary: RunSummary) -> list[tuple[str, str]]:
    """The overall information-loss figures of a run summary, named for people."""
    loss = summary.information_loss
    rows = []
    for key, name in _LOSS_NAMES.items():
        value = getattr(loss, key)
        if isinstance(value, int | float):
            rows.append((_(name), _e(loss_text(value))))
    return rows


def column_loss_rows(summary: RunSummary) -> list[list[str]]:
    """Per confidential column: (column, statistic, value) rows of the run summary."""
    rows: list[list[str]] = []
    for col, stats in summary.information_loss.confidential_columns.items():
        if not isinstance(stats, Mapping):
            continue
        for key, value in stats.items():
            if isinstance(value, int | float):
                name = _(_COLUMN_STAT_NAMES.get(key, key.replace("_", " ")))
                text = (
                    loss_text(value)
                    if key == "sse_sst"
                    else percent(value)
                    if key in _SHARES
                    else number(value, 4)
                )
                rows.append([f"<code>{_e(col)}</code>", _e(name), _e(text)])
    return rows


# -- the document ----------------------------------------------------------------------------------

_CSS = """
:root { --ink: #1d2430; --muted: #5b6474; --line: #d5dae1; --accent: #2b5797; --ok: #1e7b34;
        --bad: #b3261e; --soft: #f3f6fa; }
* { box-sizing: border-box; }
body { font-family: "Segoe UI", "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       line-height: 1.45; margin: 0; background: white; }
main { max-width: 60rem; margin: 0 auto; padding: 2rem 2.5rem 3rem; }
h1 { font-size: 1.7rem; margin: 0 0 .2rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .6rem; padding-bottom: .25rem;
     border-bottom: 2px solid var(--accent); color: var(--accent); }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p.sub { color: var(--muted); margin: 0 0 1rem; }
code { font-family: Consolas, "DejaVu Sans Mono", monospace; font-size: .92em;
       background: var(--soft); padding: 0 .2em; border-radius: 3px; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; font-size: .92rem; }
th, td { text-align: left; padding: .3rem .55rem; border-bottom: 1px solid var(--line);
         vertical-align: top; }
thead th { background: var(--soft); border-bottom: 2px solid var(--line); }
table.kv th { width: 34%; font-weight: 600; color: var(--muted); }
th.n, td.n { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { border: 1px solid var(--line); border-left: 6px solid var(--ok); padding: .8rem 1rem;
           background: #f4faf5; margin: 1rem 0; }
.verdict.bad { border-left-color: var(--bad); background: #fdf3f2; }
.verdict strong { font-size: 1.05rem; }
.guarantee { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .9rem;
             margin: .6rem 0; break-inside: avoid; }
.guarantee h3 { margin: 0 0 .3rem; color: var(--accent); }
.guarantee p { margin: .2rem 0; }
.assume { color: var(--muted); }
.source, .vals { color: var(--muted); font-size: .85rem; font-weight: normal; }
.caveats { border: 1px solid #e6c9a8; background: #fffaf3; border-radius: 6px;
           padding: .5rem .9rem; margin: .8rem 0; break-inside: avoid; }
.caveats h3 { margin: .2rem 0; color: #8a5a00; }
.caveats li { margin: .25rem 0; }
.assume b { color: var(--ink); }
.warnings { border-left: 6px solid #d08b00; background: #fff8e6; padding: .6rem 1rem; }
.internal { border-left: 4px solid var(--line); padding: .3rem .8rem; }
figure { margin: 1rem 0; break-inside: avoid; text-align: center; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: .88rem; margin-top: .3rem; text-align: left; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1.2rem; }
.grid figure { margin: .5rem 0; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: .85rem;
         border-top: 1px solid var(--line); padding-top: .6rem; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  main { max-width: none; padding: 0; }
  body { font-size: 10pt; }
  h2 { break-after: avoid; }
  table, .guarantee, figure, .verdict { break-inside: avoid; }
  .grid { grid-template-columns: 1fr 1fr; }
  a { color: inherit; text-decoration: none; }
}
@media (max-width: 700px) { .grid { grid-template-columns: 1fr; } }
"""


def render_report(
    release: Release,
    *,
    input_info: ImportInfo | None = None,
    input_checksum: str | None = None,
    figures: Sequence[ReportFigure] | None = None,
    risk: Mapping[str, RiskSummary] | None = None,
    risk_threshold: float = DEFAULT_THRESHOLD,
    generated_at: datetime | None = None,
    title: str | None = None,
) -> str:
    """The report as one HTML string (figures and risk computed here unless given).

    Each section of the report is built by one function below, in the order a reader
    meets them; this one gathers what several of them share (the time, the file's name).
    """
    when = (generated_at or datetime.now(UTC)).astimezone(UTC)
    if figures is None:
        figures = preview_figures(release)
    if risk is None:
        risk = release_risk(release, threshold=risk_threshold)
    name = Path(input_info.path).name if input_info is not None else _("the input table")
    title = title or _("Release report — {name}").format(name=name)
    parts = [
        *_heading_section(release, title, when),
        *_data_set_section(release, name, input_info, input_checksum),
        *_parameters_section(release),
        *_guarantees_section(release),
        *_buckets_section(release),
        *_classes_section(release),
        *_plots_section(figures),
        *_loss_section(release),
        *_utility_section(release),
        *_risk_section(release, risk),
        *_reproducibility_section(release, when),
    ]
    return _document(title, "\n".join(parts))


def _heading_section(release: Release, title: str, when: datetime) -> list[str]:
    """The title, what the report is for, the independent check's verdict, the warnings."""
    ver = release.verification
    parts = [f"<h1>{_e(title)}</h1>"]
    parts.append(
        _(
            '<p class="sub">Produced by tclose {version} on {when:%Y-%m-%d %H:%M} '
            "UTC · {n_records} records released</p>"
        ).format(version=_e(__version__), when=when, n_records=number(ver.n_records))
    )
    parts.append(
        _(
            '<p class="internal"><strong>For the disclosure review, not for publication.</strong> '
            "This report describes the original file (its distributions, unique records, the seed "
            "policy, losses against the original values) so that a reviewer can judge the "
            "release; publish the released file with its own metadata (the About sheet, or the "
            "JSON beside it), which holds only what the release and its public parameters give, "
            "but not this report.</p>"
        )
    )
    verdict_cls = "verdict" if ver.ok else "verdict bad"
    t_text = f", t = {number(ver.t, 4)}" if ver.t is not None else ""
    parts.append(
        _(
            '<div class="{verdict_cls}"><strong>Independent check: {outcome} — '
            "achieved k = {k}{t_text}.</strong><br>{message}</div>"
        ).format(
            verdict_cls=verdict_cls,
            outcome=_("passed") if ver.ok else _("FAILED"),
            k=number(ver.k),
            t_text=t_text,
            message=_e(ver.message),
        )
    )
    if release.warnings:
        items = "".join(f"<li>{_e(w)}</li>" for w in release.warnings)
        parts.append(
            _('<div class="warnings"><strong>Warnings</strong><ul>{items}</ul></div>').format(
                items=items
            )
        )
    return parts


def _data_set_section(
    release: Release, name: str, input_info: ImportInfo | None, input_checksum: str | None
) -> list[str]:
    """1. The input file, the records and columns released, the role and type of each."""
    parts = [_("<h2>1. Data set</h2>")]
    rows: list[tuple[str, str]] = [(_("file"), _e(name))]
    if input_info is not None:
        rows.append((_("format"), _e(input_info.format)))
        if input_info.sheet:
            rows.append((_("sheet"), _e(input_info.sheet)))
        rows.append(
            (
                _("rows × columns read"),
                f"{number(input_info.n_rows)} × {number(input_info.n_columns)}",
            )
        )
    if input_checksum:
        rows.append((_("SHA-256 of the file"), f"<code>{_e(input_checksum)}</code>"))
    rows.append((_("records released"), number(release.verification.n_records)))
    if release.summary.n_left_out:
        rows.append(
            (
                _("records left out (missing confidential value)"),
                number(release.summary.n_left_out),
            )
        )
    rows.append((_("columns released"), _cols(list(release.table.columns))))
    parts.append(_dl(rows))
    if input_info is not None and input_info.notes:
        parts.append("<ul>" + "".join(f"<li>{_e(n)}</li>" for n in input_info.notes) + "</ul>")

    parts.append(_("<h3>Roles and types of the columns</h3>"))
    role_rows = _roles_rows(release)
    parts.append(_table([_("column"), _("role"), _("type"), _("missing values")], role_rows))
    if input_info is not None and input_info.n_columns > len(role_rows):
        dropped = input_info.n_columns - len(role_rows)
        parts.append(
            ngettext(
                "<p>The other {dropped} column of the file was not tagged and not released.</p>",
                "<p>The other {dropped} columns of the file were not tagged and not released.</p>",
                dropped,
            ).format(dropped=number(dropped))
        )
    return parts


def _parameters_section(release: Release) -> list[str]:
    """2. The parameters and the mechanism."""
    return [_("<h2>2. Parameters and mechanism</h2>"), _dl(_parameter_rows(release))]


def _guarantees_section(release: Release) -> list[str]:
    """3. What the release achieves in plain words (every phrase of the summary, the
    review's figures included), what was asked and achieved, the guarantees that follow."""
    parts = [_("<h2>3. Guarantees achieved</h2>")]
    plain = summary_words(release.summary)
    if plain:
        parts.append(_("<p><b>In plain words:</b> {words}</p>").format(words=_e(join(plain))))
    parts.append(_guarantee_html(release))
    return parts


def _buckets_section(release: Release) -> list[str]:
    """4. The confidential buckets (a bucket release only)."""
    if release.buckets is None:
        return []
    parts = [_("<h2>4. Confidential buckets</h2>")]
    parts.append(
        _(
            "<p>The confidential values ({confidential}) were replaced by the "
            "bucket they fall in; each class holds every bucket in nearly the "
            "whole file's proportion. Bucket boundaries are public round numbers "
            "chosen between neighbouring values (the coarsest that separates "
            "them), never a person's value; the outer buckets are open-ended or "
            "end at the public bounds, and every printed mean or median stays "
            "inside the central 99 % of the column.</p>"
        ).format(confidential=_cols(release.params.confidential))
    )
    parts.append(
        _table(
            [
                _("label"),
                _("values"),
                _("records"),
                _("share"),
                _("mean"),
                _("median"),
                _("SD"),
            ],
            _bucket_rows(release),
            right=(2, 3, 4, 5, 6),
        )
    )
    parts.append(
        _(
            "<p>Mean, median and standard deviation (SD, two significant digits) are over the "
            "whole bucket in the whole file, never over part of a class. A bucket mean is a "
            "sum "
            "of people's values: each value counts within the bucket's range (an open end at "
            "the central 99 % rounded outward), and the mean is rounded to a step that one "
            "record cannot cross (the range's width over the bucket's records, on the 1–2–5 "
            "series), so that two releases differing in one person do not give that person's "
            "value away. A median is rounded one digit finer than the bucket's cut points, "
            "so it is never one person's value. Only the value the release holds is published; "
            "the other figures of this table describe the original data and are for the "
            "review. Where one or two records make up nearly all of a bucket's sum "
            "(p%-rule, p = {p}), their values could be told from its mean: the mean and SD "
            "are withheld there and the median is released instead. "
        ).format(p=percent(P_RULE))
        + _e(_released_sentence(release))
        + "</p>"
    )
    return parts


def _classes_section(release: Release) -> list[str]:
    """5. The equivalence classes: their sizes, and the missing quasi-identifier values."""
    parts = [_("<h2>5. Equivalence classes</h2>")]
    stats, size_rows = _class_size_rows(release)
    parts.append(_dl(stats))
    if size_rows:
        parts.append(
            _table([_("class size"), _("classes"), _("records")], size_rows, right=(0, 1, 2))
        )
    if release.summary.missing_qi:
        parts.append(
            _(
                "<h3>Missing quasi-identifier values</h3><p>A missing value is released empty, "
                "never filled in. A class holds records that agree on which quasi-identifiers are "
                "missing; where too few agree, known values are released empty too (withheld).</p>"
            )
        )
        parts.append(
            _table(
                [
                    _("quasi-identifier"),
                    _("missing in the input"),
                    _("released empty"),
                    _("withheld"),
                ],
                missing_qi_rows(release.summary),
                right=(1, 2, 3),
            )
        )
    return parts


def _plots_section(figures: Sequence[ReportFigure]) -> list[str]:
    """6. The preview plots, embedded as PNG (or why one could not be drawn)."""
    parts = [_("<h2>6. Plots</h2>")]
    if not figures:
        parts.append(_("<p>No plots.</p>"))
        return parts
    parts.append('<div class="grid">')
    for fig in figures:
        if fig.png:
            data = base64.b64encode(fig.png).decode("ascii")
            img = f'<img alt="{_e(fig.title)}" src="data:image/png;base64,{data}">'
        else:
            img = ""
        parts.append(
            _("<figure>{img}<figcaption><b>{title}.</b> {caption}</figcaption></figure>").format(
                img=img, title=_e(fig.title), caption=_e(fig.caption)
            )
        )
    parts.append("</div>")
    return parts


def _loss_section(release: Release) -> list[str]:
    """7. The information lost, overall and per confidential column."""
    parts = [_("<h2>7. Information loss</h2>")]
    loss_rows = information_loss_rows(release.summary)
    if not loss_rows:
        parts.append(_("<p>The run did not report information-loss figures.</p>"))
        return parts
    parts.append(
        _(
            "<p>SSE/SST: the squared distance of the released values from the original ones, "
            "as a share of the data's total variation (QIs standardised; for categories, a "
            "changed value counts 1).</p>"
        )
    )
    parts.append(_dl(loss_rows))
    per_column = column_loss_rows(release.summary)
    if per_column:
        parts.append(
            _table([_("confidential column"), _("measure"), _("value")], per_column, right=(2,))
        )
    return parts


def _utility_section(release: Release) -> list[str]:
    """8. What an analyst keeps: the analyses of the confidential columns, the regression
    coefficients, and the corrected shares of randomized-response columns."""
    parts: list[str] = []
    utility = analysis_rows(release.summary)
    if utility:
        parts.append(_("<h2>8. What an analyst keeps</h2>"))
        parts.append(
            _(
                "<p>What analysts compute from a public-use file, on the original records and on "
                "the released ones (quasi-identifiers at their class's typical value; records "
                "with a missing confidential value left out). Group means are by category, or by "
                "fifths of a numeric quasi-identifier. The regression is ordinary least squares "
                "of the column (on a log scale where it is positive and skewed) on all "
                "quasi-identifiers.</p>"
            )
        )
        parts.append(
            _table([_("confidential column"), _("measure"), _("value")], utility, right=(2,))
        )
        for col, coefficients in coefficient_rows(release.summary).items():
            parts.append(
                _("<h3>Regression coefficients of <code>{col}</code></h3>").format(col=_e(col))
            )
            parts.append(
                _table([_("term"), _("original"), _("released")], coefficients, right=(1, 2))
            )
    for col, rows in corrected_share_rows(release).items():
        parts.append(
            _("<h3>Shares of <code>{col}</code> after randomized response</h3>").format(col=_e(col))
        )
        parts.append(
            _(
                "<p>The released shares are pulled towards equal shares by the random answers. "
                "The corrected shares undo that on average, from the released answers and the "
                "public chance of keeping an answer alone (so anyone can compute them); ± is one "
                "standard error. The original shares are for this review only.</p>"
            )
        )
        parts.append(
            _table(
                [_("category"), _("original"), _("released"), _("corrected (± standard error)")],
                rows,
                right=(1, 2, 3),
            )
        )
    return parts


def _risk_section(release: Release, risk: Mapping[str, RiskSummary]) -> list[str]:
    """9. The disclosure risk of the original records and of the release."""
    intro = _(
        "<p>Measured on the table alone: a class is a set of records with the same "
        "quasi-identifier values. Before = the original records, after = the release."
    )
    if release.buckets is not None:
        intro += _(" Attribute disclosure compares the confidential buckets on both sides.")
    return [
        _("<h2>9. Disclosure risk before and after</h2>"),
        intro + "</p>",
        _table(
            [_("measure"), _("before"), _("after")],
            [[_e(c) for c in row] for row in comparison_rows(risk["before"], risk["after"])],
            right=(1, 2),
        ),
    ]


def _reproducibility_section(release: Release, when: datetime) -> list[str]:
    """10. The software, the time, the seed policy; the methods' sources."""
    repro: list[tuple[str, str]] = [
        (_("software"), f"tclose {_e(__version__)}"),
        (_("report written"), f"{when:%Y-%m-%d %H:%M:%S} UTC"),
        (_("seed policy"), _e(release.summary.seed_policy)),
    ]
    seconds = release.summary.seconds
    if seconds is not None:
        repro.append((_("time taken"), f"{fixed(seconds, 1)} s"))
    return [
        _("<h2>10. Reproducibility</h2>"),
        _dl(repro),
        _(
            "<footer>Methods: Domingo-Ferrer &amp; Soria-Comas, <i>From t-closeness to "
            "differential privacy and vice versa in data anonymization</i>, Knowledge-Based "
            "Systems 74 (2015); Ekenstedt et al., <i>When differential privacy implies "
            "syntactic privacy</i>, IEEE TIFS 17 (2022). To print or save as PDF, use the "
            "browser's Print command.</footer>"
        ),
    ]


def _document(title: str, body: str) -> str:
    """The whole HTML document around the report's body (style inline, in the language)."""
    return (
        f'<!DOCTYPE html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="generator" content="tclose {_e(__version__)}">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
        f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def report_path(release_path: str | Path) -> Path:
    """Where the report of a release file goes: beside it, ``<name>-report.html``."""
    release_path = Path(release_path)
    return release_path.with_name(f"{release_path.stem}-report.html")


def write_report(
    release: Release,
    path: str | Path,
    *,
    input_info: ImportInfo | None = None,
    stage: Staging | None = None,
    task: Task = NO_TASK,
) -> Path:
    """Write the HTML release report to ``path`` and return it.

    With ``input_info`` (from :func:`engine.io.read_table`) the report names the input file
    and records its SHA-256 checksum (and is never written over it).  Drawing the plots
    takes a few seconds on a large file; ``task`` works as everywhere in the
    engine.  With ``stage`` (from :func:`engine.io.outputs.write_outputs`) the report is
    committed together with the caller's other files, all or none.
    """
    path = Path(path)
    if path.suffix.lower() not in {".html", ".htm"}:
        raise InputError(_("{path}: the report is an HTML file; name it ….html.").format(path=path))
    output = Output(path, "report")
    source = input_info.path if input_info is not None else None
    if stage is None:
        check_outputs([output], inputs=[source])  # before the plots, which take a while
    checksum = None
    if input_info is not None and Path(input_info.path).is_file():
        from engine.io.files import file_sha256

        checksum = file_sha256(input_info.path, task=task.sub(0, 0.1))
    figures = preview_figures(release, task=task.sub(0.1, 0.95))
    task.step(0.95, _("Writing the report"))
    text = render_report(release, input_info=input_info, input_checksum=checksum, figures=figures)
    if stage is None:
        with write_outputs([output], inputs=[source]) as own:
            own.write_utf8(path, text)
    else:
        stage.write_utf8(path, text)
    task.step(1.0, _("Report written"))
    return path
