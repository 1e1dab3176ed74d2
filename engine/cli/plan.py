"""``tclose plan``: what ``tclose anonymize`` would do with the same flags, without doing it.

Prints the plan of :func:`engine.release.plan.plan`: the buckets, whether the parameters can
be met and the nearest settings that can, how large the classes will be and why, every
guarantee with its assumption, the expected error of any noise, and the warnings.  Exit 0
when the release can be made, 3 when the parameters are infeasible on this file (with one
line on stderr, as every failing command).
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.cli.cluster_args import add_cluster_argument, parse_cluster
from engine.cli.flags import field_argv, join_argv
from engine.cli.noise_args import bounds_hint_on_error
from engine.cli.params_args import (
    add_input_arguments,
    add_release_arguments,
    params_from_args,
    read_options,
)
from engine.i18n import _
from engine.report.words import join, plan_words
from engine.text import number, percent

HELP = "say what anonymize would do with these flags (buckets, feasibility, guarantees)"
DESCRIPTION = (
    "Read INPUT and report, before any release is made, the buckets of the "
    "confidential values, whether k and t (or ε) can be met and the nearest settings "
    "that can, the class sizes to expect, every guarantee with its assumption and the "
    "expected error of the noise. Takes the same flags as anonymize (no output file)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_input_arguments(p)
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    add_release_arguments(p)
    add_cluster_argument(p)


def run(args: argparse.Namespace) -> int:
    from engine.io import read_table
    from engine.release import plan

    params = params_from_args(args)
    backend = parse_cluster(args.cluster)
    if backend.distributed:  # the plan a cluster run makes, from its partitions
        from engine.distributed.run import plan_file

        result = plan_file(backend, args.input, params, options=read_options(args), task=args.task)
    else:
        from engine.io.codebook import with_codebook

        imported = read_table(args.input, options=read_options(args), task=args.task)
        params = with_codebook(params, imported.info.codebook)
        with bounds_hint_on_error():
            result = plan(imported.data, params, task=args.task)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(plan_text(result))
    if not result.feasibility.ok:  # the one line every failing command prints
        print(
            _("tclose: infeasible: {reason}").format(reason=result.feasibility.message),
            file=sys.stderr,
        )
        return 3
    return 0


def _value(value) -> str:
    return "—" if value is None else number(value, 4) if not isinstance(value, str) else value


def _pairs(row) -> list:
    return list(zip(row.mean, row.dominated, strict=True))


def survey_text(plan) -> list[str]:
    """The households and the risk of the original records, with the bound after the run."""
    lines: list[str] = []
    homes = plan.households
    if homes is not None:
        lines.append("")
        level = ", ".join(homes.household_level) or "none"
        lines.append(
            f"Households ({homes.column}): {homes.n_households:,}, up to {homes.largest:,} "
            f"persons; every class will hold records of at least {plan.params.k:,} of them. "
            f"Household-level QIs (released alike for every member): {level}."
        )
    risk = plan.risk_before
    if risk is not None:
        lines.append("")
        how = "with the sampling weights" if risk.weighted else "1/class size"
        lines.append(f"Re-identification risk of the original records ({how}):")
        lines.append(
            f"  largest {number(risk.max_risk, 3)}, mean {number(risk.mean_risk, 3)}; "
            f"{risk.n_unique:,} records unique on their QIs; expected re-identifications "
            f"{number(risk.expected_reidentifications, 4)}."
        )
        if risk.household_risk is not None:
            lines.append(
                f"  household risk: mean {number(risk.household_risk, 3)}, largest "
                f"{number(risk.household_max_risk, 3)}; "
                f"{percent(risk.share_household_unique or 0.0)} of the households unique on "
                "their members' QI values."
            )
        lines.append(
            f"  After the release every record's risk is at most 1/k = "
            f"{number(1 / plan.params.k, 3)}."
        )
    return lines


def plan_text(plan) -> str:
    """The plan as plain text, one topic per paragraph."""
    p = plan.params
    lines = [f"{plan.n_records:,} records; k = {p.k}"]
    if plan.n_left_out:
        lines[0] = f"{plan.n_records:,} records ({plan.n_left_out:,} left out); k = {p.k}"
    if plan.t is not None:
        lines[0] += f", t = {number(plan.t)} (ε = {number(plan.epsilon)})"
    elif plan.epsilon is not None:
        lines[0] += f", ε = {number(plan.epsilon)} ({p.mechanism} noise)"
    lines[0] += "."
    plain = plan_words(plan)
    if plain:
        lines += ["", _("In plain words") + f": {join(plain)}"]
    lines += _bucket_lines(plan)
    lines += _noise_lines(plan)
    lines += _feasibility_lines(plan)
    for warning in (*plan.review_warnings, *plan.warnings):
        lines.append("")
        lines.append(f"warning: {warning}")
    return "\n".join(lines)


def _bucket_lines(plan) -> list[str]:
    """The buckets, and the curve of the search of b that chose them."""
    p = plan.params
    lines: list[str] = []
    if plan.buckets:
        lines.append("")
        how = "given" if p.n_buckets is not None else "searched"
        lines.append(
            f"Buckets of {', '.join(p.confidential)} (b = {plan.n_buckets}, {how}; released "
            f"as the bucket's {p.confidential_output}):"
        )
        lines.append(f"  {'':<32} {'records':>10}  {'share':>8}  {'mean':>12}  {'median':>12}")
        for row in plan.buckets:
            mean = "; ".join("withheld" if d else _value(m) for m, d in _pairs(row))
            median = "; ".join(_value(m) for m in row.median) if row.median else ""
            lines.append(
                f"  {row.label:<32} {row.count:>10,}  {percent(row.share):>8}  {mean:>12}  "
                f"{median:>12}"
            )
    if plan.bucket_choices:
        w = p.utility_weight
        lines.append("")
        lines.append(
            f"Choice of b: the least {number(w, 3)} × confidential loss + "
            f"{number(1 - w, 3)} × QI loss (the file's QI loss, estimated from a sample):"
        )
        lines.append(
            f"  {'b':>4} {'buckets':>8} {'class size':>11} {'QI loss':>9} "
            f"{'confidential loss':>18} {'score':>8}"
        )
        for c in plan.bucket_choices:
            lines.append(
                f"{'*' if c.chosen else ' '} {c.b:>4} {c.n_buckets:>8} "
                f"{c.expected_class_size:>11,} {percent(c.qi_loss):>9} "
                f"{percent(c.confidential_loss):>18} {percent(c.score):>8}"
            )
        chosen = next((c for c in plan.bucket_choices if c.chosen), None)
        if plan.alternatives and chosen is not None:
            lines.append(
                f"Other good choices, beside b = {chosen.n_buckets} (confidential loss "
                f"{percent(chosen.confidential_loss)}); give --buckets B:"
            )
            lines.extend(f"  {fix.description}" for fix in plan.alternatives)
    return lines


def _noise_lines(plan) -> list[str]:
    """How each confidential column gets its noise, and its expected error."""
    lines: list[str] = []
    for col in plan.noise:
        lines.append("")
        if col.keep_probability is not None:  # randomized response over categories
            lines.append(
                f"{col.name}: randomized response over {col.n_categories} categories at "
                f"ε = {number(col.epsilon)}; each value is kept with probability "
                f"{percent(col.keep_probability)}."
            )
            continue
        head = f"{col.name}: {col.mechanism} noise at ε = {number(col.epsilon)}"
        if col.bounds is None:
            lines.append(
                f"{head}, within bounds estimated privately with ε = "
                f"{number(col.bounds_epsilon)}; the error is known after the run."
            )
        elif col.typical_factor is not None:
            lines.append(
                f"{head} on log(1 + value) within [{number(col.bounds[0])}, "
                f"{number(col.bounds[1])}]; half of the values stay within a factor "
                f"{number(col.typical_factor, 3)} of their true value."
            )
        else:
            lines.append(
                f"{head} within [{number(col.bounds[0])}, {number(col.bounds[1])}]; expected "
                f"absolute error {number(col.expected_abs_error)} per value."
            )
        if col.error_ratio is not None:
            lines.append(
                f"  The noise is {number(col.error_ratio, 2)} times the spread of the middle "
                f"half of the values ({number(col.typical_size, 3)}"
                + (" on the log scale" if col.typical_factor is not None else "")
                + "; above 1 it drowns them)."
            )
    lines.extend(survey_text(plan))
    return lines


def _feasibility_lines(plan) -> list[str]:
    """Whether the parameters can be met (with fixes), then the guarantees."""
    lines: list[str] = []
    lines.append("")
    feas = plan.feasibility
    if feas.ok:
        forecast = plan.class_sizes
        text = "Feasible."
        if forecast.max_classes:
            text += (
                f" At most {forecast.max_classes:,} classes; the smallest will hold at least "
                f"{forecast.smallest:,} records."
            )
        lines.append(text)
        for fix in feas.fixes:
            flags = join_argv(
                a for key, value in fix.changes.items() for a in field_argv(key, value)
            )
            lines.append(f"  suggested: {fix.description} ({flags})")
    else:
        lines.append(f"Infeasible: {feas.message}")
        for fix in feas.fixes:
            lines.append(f"  nearest feasible: {fix.description}")
    lines.append("")
    lines.append("Guarantees:")
    for g in plan.guarantees:
        if g.holds:
            lines.append(f"  - {g.name}: {g.statement}")
            lines.append(f"    assumes: {g.assumption}")
    lines.append("What does not follow:")
    for g in plan.guarantees:
        if not g.holds:
            lines.append(f"  - {g.name}: {g.statement}")
    return lines
