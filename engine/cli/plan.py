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
    read_input,
    read_options,
)
from engine.cli.project_args import (
    add_project_argument,
    project_document,
    project_output,
    start_project,
)
from engine.i18n import N_, _
from engine.release import QI_TOLERANCE, join, plan_words
from engine.text import number, percent

HELP = N_("say what anonymize would do with these flags (buckets, feasibility, guarantees)")
DESCRIPTION = N_(
    "Read INPUT and report, before any release is made, the buckets of the "
    "confidential values, whether k and t (or ε) can be met and the nearest settings "
    "that can, the class sizes to expect, every guarantee with its assumption and the "
    "expected error of the noise. Takes the same flags as anonymize (no output file)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_input_arguments(p)
    p.add_argument("--json", action="store_true", help=_("print the plan as JSON"))
    add_project_argument(p)
    add_release_arguments(p)
    add_cluster_argument(p)


def run(args: argparse.Namespace) -> int:
    from engine.io.outputs import check_outputs, write_outputs
    from engine.release import plan

    params = params_from_args(args)
    backend = parse_cluster(args.cluster)
    outputs = project_output(args)  # checked before the input is read
    check_outputs(outputs, inputs=[args.input])
    project = start_project(args, params, read_options(args), backend=backend)
    if backend.distributed:  # the plan a cluster run makes, from its partitions
        from engine.distributed.run import plan_file

        result = plan_file(backend, args.input, params, options=read_options(args), task=args.task)
    else:
        imported, params, project = read_input(args, params, project, task=args.task)
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
    if project is not None:  # a plan that can be met, kept to be run: tclose run FILE.json
        with write_outputs(outputs, inputs=[args.input]) as stage:
            for path, text in project_document(args, project).items():
                stage.write_utf8(path, text)
        print(_("Project written to {path}.").format(path=args.save_project), file=sys.stderr)
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
        level = ", ".join(homes.household_level) or _("none")
        lines.append(
            _(
                "Households ({column}): {n_households}, up to {largest} persons; every class will"
                " hold records of at least {k} of them. Household-level QIs (released alike for "
                "every member): {level}."
            ).format(
                column=homes.column,
                n_households=number(homes.n_households),
                largest=number(homes.largest),
                k=number(plan.params.k),
                level=level,
            )
        )
    risk = plan.risk_before
    if risk is not None:
        lines.append("")
        how = _("with the sampling weights") if risk.weighted else _("1/class size")
        lines.append(_("Re-identification risk of the original records ({how}):").format(how=how))
        lines.append(
            _(
                "  largest {value}, mean {value2}; {n_unique} records unique on their QIs; "
                "expected re-identifications {value3}."
            ).format(
                value=number(risk.max_risk, 3),
                value2=number(risk.mean_risk, 3),
                n_unique=number(risk.n_unique),
                value3=number(risk.expected_reidentifications, 4),
            )
        )
        if risk.household_risk is not None:
            lines.append(
                _(
                    "  household risk: mean {value}, largest {value2}; {percent} of the "
                    "households unique on their members' QI values."
                ).format(
                    value=number(risk.household_risk, 3),
                    value2=number(risk.household_max_risk, 3),
                    percent=percent(risk.share_household_unique or 0.0),
                )
            )
        # the bound is 1/class size: set it beside the weighted figures only as what it is
        after = (
            _(
                "  After the release every record's risk counted as 1/class size is at most "
                "1/k = {value}; the estimate with the sampling weights is measured after the "
                "run (the report and the preview)."
            )
            if risk.weighted
            else _("  After the release every record's risk is at most 1/k = {value}.")
        )
        lines.append(after.format(value=number(1 / plan.params.k, 3)))
    return lines


def plan_text(plan) -> str:
    """The plan as plain text, one topic per paragraph."""
    p = plan.params
    lines = [_("{n} records; k = {k}").format(n=number(plan.n_records), k=number(p.k))]
    if plan.n_left_out:
        lines[0] = _("{n} records ({left_out} left out); k = {k}").format(
            n=number(plan.n_records), left_out=number(plan.n_left_out), k=number(p.k)
        )
    if plan.t is not None:
        lines[0] += f", t = {number(plan.t)} (ε = {number(plan.epsilon)})"
    elif plan.epsilon is not None:
        lines[0] += _(", ε = {epsilon} ({mechanism} noise)").format(
            epsilon=number(plan.epsilon), mechanism=p.mechanism
        )
    lines[0] += "."
    plain = plan_words(plan)
    if plain:
        lines += ["", _("In plain words") + f": {join(plain)}"]
    lines += _bucket_lines(plan)
    lines += _noise_lines(plan)
    lines += _feasibility_lines(plan)
    for warning in (*plan.review_warnings, *plan.warnings):
        lines.append("")
        lines.append(_("warning: {warning}").format(warning=warning))
    return "\n".join(lines)


def _bucket_lines(plan) -> list[str]:
    """The buckets, and the curve of the search of b that chose them."""
    p = plan.params
    lines: list[str] = []
    if plan.buckets:
        lines.append("")
        how = _("given") if p.n_buckets is not None else _("searched")
        lines.append(
            _(
                "Buckets of {confidential} (b = {n_buckets}, {how}; released as the bucket's "
                "{confidential_output}):"
            ).format(
                confidential=", ".join(p.confidential),
                n_buckets=plan.n_buckets,
                how=how,
                confidential_output=p.confidential_output,
            )
        )
        lines.append(
            f"  {'':<32} {_('records'):>10}  {_('share'):>8}  {_('mean'):>12}  {_('median'):>12}"
        )
        for row in plan.buckets:
            mean = "; ".join(_("withheld") if d else _value(m) for m, d in _pairs(row))
            median = "; ".join(_value(m) for m in row.median) if row.median else ""
            lines.append(
                f"  {row.label:<32} {row.count:>10,}  {percent(row.share):>8}  {mean:>12}  "
                f"{median:>12}"
            )
    if plan.bucket_choices:
        w = p.utility_weight
        lines.append("")
        lines.append(
            _(
                "Choice of b: the least {value} × confidential loss + {value2} × QI loss (the "
                "file's QI loss, estimated from a sample):"
            ).format(value=number(w, 3), value2=number(1 - w, 3))
        )
        lines.append(
            _(
                "  (only b within {percent} of the QI loss of the first b, and with no larger "
                "regression error, may be chosen)"
            ).format(percent=percent(QI_TOLERANCE))
        )
        regression = _("regression error")
        lines.append(
            f"  {'b':>4} {_('buckets'):>8} {_('class size'):>11} {_('QI loss'):>9} "
            f"{_('confidential loss'):>18} {_('score'):>8} {regression:>17}"
        )
        for c in plan.bucket_choices:
            lines.append(
                f"{'*' if c.chosen else ' '} {c.b:>4} {c.n_buckets:>8} "
                f"{c.expected_class_size:>11,} {percent(c.qi_loss):>9} "
                f"{percent(c.confidential_loss):>18} {percent(c.score):>8} "
                f"{percent(c.coefficient_error):>17}"
            )
        chosen = next((c for c in plan.bucket_choices if c.chosen), None)
        if plan.alternatives and chosen is not None:
            lines.append(
                _(
                    "Other good choices, beside b = {n_buckets} (confidential loss {percent}); "
                    "give --buckets B:"
                ).format(n_buckets=chosen.n_buckets, percent=percent(chosen.confidential_loss))
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
                _(
                    "{name}: randomized response over {n_categories} categories at ε = {epsilon};"
                    " each value is kept with probability {percent}."
                ).format(
                    name=col.name,
                    n_categories=col.n_categories,
                    epsilon=number(col.epsilon),
                    percent=percent(col.keep_probability),
                )
            )
            continue
        head = _("{column}: {mechanism} noise at ε = {epsilon}").format(
            column=col.name, mechanism=col.mechanism, epsilon=number(col.epsilon)
        )
        if col.bounds is None:
            lines.append(
                _(
                    "{head}, within bounds estimated privately with ε = {bounds_epsilon}; the "
                    "error is known after the run."
                ).format(head=head, bounds_epsilon=number(col.bounds_epsilon))
            )
        else:
            logged = col.typical_factor is not None
            said = (
                _(
                    "{head} on log(1 + value) within [{bounds}, {bounds2}]; half of the values "
                    "stay within a factor {value} of their true value."
                )
                if logged
                else _(
                    "{head} within [{bounds}, {bounds2}]; expected absolute error "
                    "{expected_abs_error} per value."
                )
            )
            lines.append(
                said.format(
                    head=head,
                    bounds=number(col.bounds[0]),
                    bounds2=number(col.bounds[1]),
                    value=number(col.typical_factor, 3) if logged else "",
                    expected_abs_error="" if logged else number(col.expected_abs_error),
                )
            )
        if col.error_ratio is not None:
            template = (
                _(
                    "  The noise is {ratio} times the spread of the middle half of the values "
                    "({size} on the log scale; above 1 it drowns them)."
                )
                if col.typical_factor is not None
                else _(
                    "  The noise is {ratio} times the spread of the middle half of the values "
                    "({size}; above 1 it drowns them)."
                )
            )
            lines.append(
                template.format(ratio=number(col.error_ratio, 2), size=number(col.typical_size, 3))
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
        text = _("Feasible.")
        if forecast.max_classes:
            text += " " + _(
                "At most {classes} classes, of {average} records or more on average; each "
                "will hold at least {smallest} records."
            ).format(
                classes=number(forecast.max_classes),
                average=number(forecast.average),
                smallest=number(forecast.smallest),
            )
        lines.append(text)
        for fix in feas.fixes:
            flags = join_argv(
                a for key, value in fix.changes.items() for a in field_argv(key, value)
            )
            lines.append(
                _("  suggested: {description} ({flags})").format(
                    description=fix.description, flags=flags
                )
            )
    else:
        lines.append(_("Infeasible: {message}").format(message=feas.message))
        for fix in feas.fixes:
            lines.append(_("  nearest feasible: {description}").format(description=fix.description))
    lines.append("")
    lines.append(_("Guarantees:"))
    for g in plan.guarantees:
        if g.holds:
            lines.append(f"  - {g.name}: {g.statement}")
            lines.append(_("    assumes: {assumption}").format(assumption=g.assumption))
            if g.broken_by:
                lines.append("    " + _("broken by: {what}").format(what=g.broken_by))
    lines.append(_("What does not follow:"))
    for g in plan.guarantees:
        if not g.holds:
            lines.append(f"  - {g.name}: {g.statement}")
    return lines
