"""What a release promises and achieves, in plain words for a review board.

The guarantees of :mod:`engine.privacy` name their sources ("ε-differential privacy
(Proposition 3)", "stochastically 2-close"); a reader who is not a privacy researcher needs
the same facts first in everyday words: "each group of at least 10 people looks like the
whole file in its income mix, within a factor 2".  These functions say that, from a
:class:`~engine.release.Plan` (before a run) or a
:class:`~engine.release.RunSummary` (after it), and nothing else: every number comes
from the plan or the summary, formatted by :mod:`engine.text`.

Each sentence is a :class:`Phrase`: an English template with named fields and the values
that fill it.  ``phrase.text()`` is the English sentence (the report, the command line);
the desktop app passes its translation function, so the same sentence reads in Spanish or
French.  The templates are marked with :func:`QT_TRANSLATE_NOOP` so that Qt's ``lupdate``
finds them when it collects the app's strings (context ``words``); nothing here imports Qt.

A phrase of a summary knows which summary fields its values come from, and so whether it is
**public**: computed only from fields the summary declares published
(:data:`~engine.release.model.published.PUBLIC`).  The published metadata of a release (the About
sheet, the sidecar JSON) carries the public phrases (:func:`public_words`); the others quote
the review's figures (statistics of the original data, values withheld) and stay in the
report, the command line and the app.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from engine.i18n import _
from engine.io.about import PUBLIC_KEY, REVIEW_PARAMETERS
from engine.params import ReleaseParams
from engine.text import number, percent

if TYPE_CHECKING:
    from engine.mechanisms.response import CorrectedShares

#: a :class:`~engine.release.Plan` and a :class:`~engine.release.RunSummary`,
#: read by attribute: both modules import this one (the summary's published metadata carries
#: its public phrases), so it does not import them
Plan = Any
RunSummary = Any

#: the translation context of the templates in the app's .ts files
CONTEXT = "words"


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name Qt's lupdate knows
    """Mark ``text`` for the app's translation files and return it unchanged."""
    return text


@dataclass(frozen=True)
class Phrase:
    """One sentence: an English ``template`` with ``{named}`` fields, and their values."""

    template: str
    values: dict[str, str] = field(default_factory=dict)
    #: every value (and the choice of the sentence) comes from summary fields declared
    #: published: the phrase may go out with the release (:func:`public_words`)
    public: bool = False

    def text(self, translate: Callable[[str], str] | None = None) -> str:
        """The sentence in the context's language (:mod:`engine.i18n`), or through
        ``translate`` (a template → template function) if given."""
        template = translate(self.template) if translate is not None else _(self.template)
        return template.format(**self.values)


def join(phrases: Iterable[Phrase], translate: Callable[[str], str] | None = None) -> str:
    """The phrases as one paragraph."""
    return " ".join(p.text(translate) for p in phrases)


def declared_public(owner: type, path: str) -> bool:
    """Whether the field at ``path`` ("n_classes", "missing_qi.withheld", "params.k") of the
    summary class ``owner`` (:class:`~engine.release.RunSummary`) is declared
    published.

    Read from the declarations, as :func:`~engine.release.model.published.published` reads them: a
    dataclass that declares some fields publishes only those marked public; one that
    declares none is published whole; of the parameters, all but the review's (the seed).
    """
    for name in path.split("."):
        if owner is ReleaseParams:
            return name not in REVIEW_PARAMETERS
        if not (isinstance(owner, type) and is_dataclass(owner)):
            return True  # a key of a published mapping: published with it
        known = {f.name: f for f in fields(owner)}
        if name not in known:  # a misspelt path must not pass for a review-only one
            raise KeyError(f"{owner.__name__} has no field {name!r}")
        declares = any(PUBLIC_KEY in f.metadata for f in known.values())
        if declares and not known[name].metadata.get(PUBLIC_KEY, False):
            return False
        owner = _item_type(typing.get_type_hints(owner)[name])
    return True


def _item_type(hint: Any) -> Any:
    """The dataclass a field holds: itself, or the items of its dict, tuple or Optional."""
    args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
    if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
        return _item_type(args[0])
    if typing.get_origin(hint) in (dict, tuple, list) and args:
        return _item_type(args[-1] if typing.get_origin(hint) is dict else args[0])
    return hint


def _said(summary: RunSummary, template: str, values: dict[str, str], *reads: str) -> Phrase:
    """A phrase of ``summary`` whose values come from its fields ``reads``."""
    return Phrase(template, values, public=all(declared_public(type(summary), r) for r in reads))


def _names(columns: Sequence[str]) -> str:
    """Column names as a list in any language: "age, sex, region"."""
    return ", ".join(str(c) for c in columns)


def _factor(epsilon: float) -> str:
    """e^ε, the most any one person's presence can change the chance of a release."""
    try:
        return number(math.exp(epsilon), 3)
    except OverflowError:
        return "∞"


def plan_words(plan: Plan) -> list[Phrase]:
    """What a release with this plan will promise, in plain words, most important first."""
    p = plan.params
    # the fewest people any group holds: k, or the t-close minimum when that is larger
    k = number(plan.class_sizes.smallest if plan.n_records else p.k)
    out: list[Phrase] = []
    if not plan.feasibility.ok:
        return out
    qis = _names(p.qi)
    columns = _names(p.confidential)
    one_class = plan.class_sizes.max_classes == 1
    if one_class:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "At this level the release would be one single group of all {n} people: "
                    "every quasi-identifier would be replaced by one value for everybody.",
                ),
                {"n": number(plan.n_records)},
            )
        )
    elif p.confidential and not p.noise and plan.t is not None:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "Each group of at least {k} people looks like the whole file in its "
                    "{columns} mix, within a factor {t}.",
                ),
                {"k": k, "columns": columns, "t": number(plan.t)},
            )
        )
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "So learning which group someone is in tells little more about their "
                    "{columns} than the whole file already does, and nobody can be singled "
                    "out by {qis}.",
                ),
                {"columns": columns, "qis": qis},
            )
        )
    else:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "Every combination of {qis} that is released is shared by at least {k} "
                    "people, so nobody can be singled out by them.",
                ),
                {"qis": qis, "k": k},
            )
        )
    if not one_class and plan.class_sizes.average > p.k and plan.class_sizes.reason:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "The groups will hold {average} people or more on average (k = {k} was asked).",
                ),
                {"average": number(plan.class_sizes.average), "k": number(p.k)},
            )
        )
    out += _noise_words(plan, columns)
    return out


def _noise_words(plan: Plan, columns: str) -> list[Phrase]:
    """What the noise of a plan does to each column, what ε means, and what groups cost."""
    p = plan.params
    out: list[Phrase] = []
    for column in plan.noise:
        out.append(_noise_phrase(column))
        if column.error_ratio is not None and column.error_ratio > 1:  # noise drowns values
            out.append(_drowned_phrase(column))
    if plan.noise and plan.epsilon is not None:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "Whether or not any one person is in the file changes the chance of any "
                    "released {columns} value by at most a factor {factor} (ε = {epsilon}).",
                ),
                {
                    "columns": columns,
                    "factor": _factor(plan.epsilon),
                    "epsilon": number(plan.epsilon, 3),
                },
            )
        )
    grouped = [c for c in plan.noise if _grouped(c)]
    if grouped:
        out.append(
            Phrase(
                QT_TRANSLATE_NOOP(
                    "words",
                    "Averaging in groups of {k} before the noise makes the noise {k} times "
                    "smaller. The price: one person's own released value, compared with "
                    "anybody else's, may be up to a factor {factor_k} more likely, not {factor} "
                    "(e^(k·ε) instead of e^ε), and the people who share a group are visibly "
                    "linked.",
                ),
                {
                    "k": number(p.k),
                    "factor_k": _factor(grouped[0].epsilon_local),
                    "factor": _factor(grouped[0].epsilon),
                },
            )
        )
    return out


def _grouped(column) -> bool:
    """Whether a column's noise sits on groups of records (its per-record ε is larger than
    the noise's): read off the column's facts, whatever the mechanism is called."""
    return column.epsilon_local > column.epsilon


def _drowned_phrase(column) -> Phrase:
    """The noise would drown the column's values: what that means and what helps."""
    values = {"column": str(column.name), "ratio": number(column.error_ratio, 2)}
    if _grouped(column):
        return Phrase(
            QT_TRANSLATE_NOOP(
                "words",
                "Even so, that noise is {ratio} times as large as the spread of the middle half "
                "of the {column} values: the released values would be mostly noise. Narrower "
                "public limits, the buckets mechanism or a larger ε would keep more of them.",
            ),
            values,
        )
    return Phrase(
        QT_TRANSLATE_NOOP(
            "words",
            "That noise is {ratio} times as large as the spread of the middle half of the "
            "{column} values: the released values would be mostly noise. Averaging in groups "
            "of k before the noise, narrower public limits, the buckets mechanism or a larger "
            "ε would keep more of them.",
        ),
        values,
    )


def _noise_phrase(column) -> Phrase:
    name = str(column.name)
    if column.keep_probability is not None:
        return Phrase(
            QT_TRANSLATE_NOOP(
                "words",
                "{column}: each answer is kept with probability {keep}, otherwise replaced by "
                "a category drawn at random.",
            ),
            {"column": name, "keep": percent(column.keep_probability)},
        )
    if column.bounds is None:
        return Phrase(
            QT_TRANSLATE_NOOP(
                "words",
                "{column}: each value gets random noise; its lowest and highest possible "
                "values are estimated privately from the data first.",
            ),
            {"column": name},
        )
    lo, hi = column.bounds
    if column.typical_factor is not None:
        return Phrase(
            QT_TRANSLATE_NOOP(
                "words",
                "{column}: each value gets random noise in proportion to its size: half of "
                "the values stay within a factor {factor} of their true value, and every value "
                "stays between the public limits {low} and {high}.",
            ),
            {
                "column": name,
                "factor": number(column.typical_factor, 3),
                "low": number(lo),
                "high": number(hi),
            },
        )
    return Phrase(
        QT_TRANSLATE_NOOP(
            "words",
            "{column}: each value gets random noise, about ±{error} on average, and stays "
            "between the public limits {low} and {high}.",
        ),
        {
            "column": name,
            "error": number(column.expected_abs_error, 3),
            "low": number(lo),
            "high": number(hi),
        },
    )


def summary_words(summary: RunSummary) -> list[Phrase]:
    """What a finished release achieves, in plain words, as the verifier measured it."""
    p = summary.params
    out: list[Phrase] = []
    columns = _names(p.confidential)
    values = {
        "groups": number(summary.n_classes),
        "k": number(summary.k_achieved),
        "columns": columns,
    }
    if p.confidential and summary.noise is None and summary.t_achieved is not None:
        if summary.n_classes <= 1:
            out.append(
                _said(
                    summary,
                    QT_TRANSLATE_NOOP(
                        "words",
                        "The release is one single group of all {n} people: every "
                        "quasi-identifier holds one value for everybody.",
                    ),
                    {"n": number(summary.n_released)},
                    "n_released",
                    "n_classes",
                    "noise",
                    "t_achieved",
                    "params.confidential",
                )
            )
        else:
            out.append(
                _said(
                    summary,
                    QT_TRANSLATE_NOOP(
                        "words",
                        "The {groups} groups hold at least {k} people each, and each looks "
                        "like the whole file in its {columns} mix within a factor {t} "
                        "(asked: {asked}).",
                    ),
                    {
                        **values,
                        "t": number(summary.t_achieved),
                        "asked": number(summary.t),
                    },
                    "n_classes",
                    "k_achieved",
                    "params.confidential",
                    "noise",
                    "t_achieved",
                    "t",
                )
            )
    else:
        out.append(
            _said(
                summary,
                QT_TRANSLATE_NOOP("words", "The {groups} groups hold at least {k} people each."),
                values,
                "n_classes",
                "k_achieved",
            )
        )
    out += _missing_qi_words(summary)
    out += _error_words(summary)
    return out


def public_words(summary: RunSummary) -> list[Phrase]:
    """The phrases of :func:`summary_words` that may go out with the release: computed only
    from published fields (the About sheet and the sidecar JSON carry them)."""
    return [phrase for phrase in summary_words(summary) if phrase.public]


def _missing_qi_words(summary: RunSummary) -> list[Phrase]:
    """How the missing quasi-identifier values were released, per column (the review's
    counts: the values missing in the input, the known values withheld)."""
    out: list[Phrase] = []
    for name, count in summary.missing_qi.items():
        values = {
            "column": str(name),
            "missing": number(count.input),
            "withheld": number(count.withheld),
        }
        if count.withheld:
            template = QT_TRANSLATE_NOOP(
                "words",
                "{column}: the {missing} missing values are released empty, none filled in; "
                "{withheld} known values are released empty too, so that the groups could "
                "form.",
            )
        else:
            template = QT_TRANSLATE_NOOP(
                "words",
                "{column}: the {missing} missing values are released empty, none filled in.",
            )
        out.append(_said(summary, template, values, "missing_qi.input", "missing_qi.withheld"))
    return out


def _error_words(summary: RunSummary) -> list[Phrase]:
    """How far the noise moved each confidential column (the review's figures), and the
    corrected shares of a randomized column (computed from the release: published)."""
    out: list[Phrase] = []
    corrected = summary.noise.corrected_shares if summary.noise is not None else {}
    for name, figures in summary.information_loss.confidential_columns.items():
        if "share_changed" in figures and summary.noise is not None:
            out.append(
                _said(
                    summary,
                    QT_TRANSLATE_NOOP(
                        "words", "{column}: {share} of the answers were changed at random."
                    ),
                    {"column": str(name), "share": percent(figures["share_changed"])},
                    "information_loss.confidential_columns",
                )
            )
            if name in corrected:
                out.append(corrected_phrase(summary, str(name), corrected[name]))
        elif "mean_absolute_error" in figures:
            out.append(_measured_error(summary, str(name), figures["mean_absolute_error"]))
    return out


def _measured_error(summary: RunSummary, name: str, measured: float) -> Phrase:
    """How far the released values of a noise column lie from the true ones, set beside the
    error the noise alone has on average (the plan's ±), with what makes them differ: the
    clamping of the noisy values to the public limits brings values back (less error), the
    averaging in groups and the values clamped before the noise add their own (more)."""
    values = {"column": name, "error": number(measured, 3)}
    column = summary.noise.columns.get(name) if summary.noise is not None else None
    expected = getattr(column, "expected_abs_error", None)
    reads = ("information_loss.confidential_columns", "noise.columns")
    if expected is None or column.bounds is None:
        return _said(
            summary,
            QT_TRANSLATE_NOOP(
                "words",
                "{column}: the released values differ from the true ones by {error} on average.",
            ),
            values,
            *reads,
        )
    values |= {
        "expected": number(expected, 3),
        "low": number(column.bounds[0]),
        "high": number(column.bounds[1]),
    }
    if measured <= expected:
        template = QT_TRANSLATE_NOOP(
            "words",
            "{column}: the released values differ from the true ones by {error} on average, "
            "less than the ±{expected} the noise alone adds on average: a noisy value beyond "
            "the public limits {low} and {high} is clamped back to them, which brings it "
            "closer to the true one.",
        )
    else:
        template = QT_TRANSLATE_NOOP(
            "words",
            "{column}: the released values differ from the true ones by {error} on average, "
            "more than the ±{expected} the noise alone adds on average: values outside the "
            "public limits {low} and {high} are clamped to them before the noise, and "
            "values averaged in groups lose their own detail.",
        )
    return _said(summary, template, values, *reads)


# categories named in a sentence of corrected shares (the commonest first)
SHARES_SHOWN = 6


def shares_text(corrected: CorrectedShares, shown: int = SHARES_SHOWN) -> str:
    """ "afam about 8.1 % (± 0.9 %), white about 75 % (± 1.1 %), …": the estimated original
    shares, commonest first, each with its standard error."""
    order = sorted(range(len(corrected.categories)), key=lambda i: -corrected.estimate[i])
    parts = [
        f"{corrected.categories[i]} {percent(max(corrected.estimate[i], 0.0))} "
        f"(± {percent(corrected.standard_error[i])})"
        for i in order[:shown]
    ]
    more = len(order) - shown
    return ", ".join(parts) + (", … " + _("({n} more)").format(n=number(more)) if more > 0 else "")


def corrected_phrase(summary: RunSummary, column: str, corrected: CorrectedShares) -> Phrase:
    """The shares an analyst should use for a randomized column, in one sentence (from the
    released answers and the public channel alone: published)."""
    return _said(
        summary,
        QT_TRANSLATE_NOOP(
            "words",
            "{column}: the shares in the file are pulled towards equal shares by the random "
            "answers; corrected for that (from the released answers and the public chance of "
            "keeping one), the original shares are estimated at {shares}.",
        ),
        {"column": column, "shares": shares_text(corrected)},
        "noise.corrected_shares",
    )


__all__ = [
    "CONTEXT",
    "Phrase",
    "corrected_phrase",
    "declared_public",
    "join",
    "plan_words",
    "public_words",
    "shares_text",
    "summary_words",
]
