"""The About sheet and the report name what they show from the declarations: every parameter
by the label its field declares (``ReleaseParams.FIELDS``), the mechanism by its registered
title (``MECHANISMS[name].title``), in English and in Spanish; the About sheet says the run
summary's public phrases, and no phrase that quotes a review-only figure."""

from __future__ import annotations

import html
import re

import openpyxl
import pytest

from engine import ReleaseParams, anonymize
from engine.i18n import _, use_language
from engine.io import write_release
from engine.io.about import IN_WORDS, about_rows, field_label
from engine.mechanisms import MECHANISMS, Buckets
from engine.release import P_RULE, RunSummary, declared_public, public_words, summary_words
from engine.report import html as report_html
from engine.report.html import render_report
from engine.text import percent
from tests.test_published import gappy_survey

QI = ("age", "sex", "region")


@pytest.fixture(scope="module")
def releases():
    """A bucket release and a noise release (Laplace after grouping, randomized response)
    of a survey with gaps in its quasi-identifiers."""
    data = gappy_survey(300)
    buckets = ReleaseParams(qi=QI, confidential=("wage",), t=2, k=5, seed=1, missing=("-9",))
    noise = ReleaseParams(
        qi=QI, confidential=("wage", "health"), epsilon=8, k=5, mechanism="laplace",
        bounds={"wage": (0, 200000)}, insensitive=True, seed=1, missing=("-9",),
        categories={"health": ("good", "fair", "poor", "bad")},
    )  # fmt: skip
    return {"buckets": anonymize(data, buckets), "laplace": anonymize(data, noise)}


def parameter_rows(rows):
    """The rows of the About sheet's "Parameters" section."""
    start = next(i for i, r in enumerate(rows) if r.section and r.label == _("Parameters"))
    end = next((i for i, r in enumerate(rows) if r.section and i > start), len(rows))
    return rows[start + 1 : end]


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", ["buckets", "laplace"])
def test_the_about_sheet_names_each_parameter_by_its_declared_label(releases, name, lang):
    release = releases[name]
    meta = release.summary.public_dict()
    with use_language(lang):
        rows = parameter_rows(about_rows(meta))
        labels = {field: _(info.label) for field, info in ReleaseParams.FIELDS.items()}
        mechanism_title = _(MECHANISMS[name].title)
    shown = {r.label: r.value for r in rows}
    published = meta["parameters"]
    # every row is a field's declared label, and every published field with a value has one
    assert set(shown) <= {labels[f] for f in published}
    for field, value in published.items():
        if value not in (None, [], {}):
            assert labels[field] in shown, field
    assert str(shown[labels["mechanism"]]).startswith(mechanism_title)
    if lang == "es":  # the labels are translated, not the English ones
        assert labels["k"] != ReleaseParams.FIELDS["k"].label and labels["k"] in shown


def test_a_third_mechanism_is_named_by_its_own_title(releases, monkeypatch):
    class Third(Buckets):
        name = "third"
        title = "a third way"

    monkeypatch.setitem(MECHANISMS, "third", Third)
    meta = releases["buckets"].summary.public_dict()
    meta["parameters"]["mechanism"] = "third"
    rows = {r.label: r.value for r in parameter_rows(about_rows(meta))}
    assert rows[field_label("mechanism")] == "a third way"


def report_parameters(text: str) -> dict[str, str]:
    """The report's section 2 as {row name: value}."""
    section = text.split("<h2>2.")[1].split("<h2>3.")[0]
    return dict(re.findall(r"<tr><th>(.*?)</th><td>(.*?)</td></tr>", section))


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", ["buckets", "laplace"])
def test_the_report_names_each_parameter_by_its_declared_label(releases, name, lang):
    release = releases[name]
    cfg = release.params
    with use_language(lang):
        rows = report_parameters(render_report(release, figures=[]))
        label = {f: html.escape(_(info.label)) for f, info in ReleaseParams.FIELDS.items()}
        derived = {"t = exp(ε/2)"}
        for col in cfg.confidential:
            derived |= {
                html.escape(_(text).format(col=col))
                for text in (
                    "bounds of {col}",
                    "expected absolute error of the noise on {col}",
                    "noise on log(1 + {col})",
                )
            }
        title = html.escape(_(MECHANISMS[name].title))
    assert set(rows) - derived <= set(label.values())
    expected = ["mechanism", "k", "qi_output", "missing"]
    expected += ["t", "n_buckets", "confidential_output"] if name == "buckets" else ["epsilon"]
    for field in expected:
        assert label[field] in rows, field
    assert rows[label["mechanism"]].startswith(title)
    if name == "laplace":  # another mechanism's settings are not shown
        assert label["confidential_output"] not in rows and label["n_buckets"] not in rows


def test_the_about_sheet_says_the_public_phrases_and_no_review_one(releases, tmp_path):
    summary = releases["laplace"].summary
    phrases = summary_words(summary)
    public = [p for p in phrases if p.public]
    review = [p for p in phrases if not p.public]
    # the groups, the corrected shares of health; the review's: the values withheld from the
    # quasi-identifiers, the answers changed, the error of the noise on the wage
    assert len(public) == 2 and len(review) >= 3
    assert public == public_words(summary)
    for lang in ("en", "es"):
        with use_language(lang):
            meta = summary.public_dict()
            said = [p.text() for p in summary_words(summary) if p.public]
            unsaid = [p.text() for p in summary_words(summary) if not p.public]
            assert meta[IN_WORDS] == said
            target = tmp_path / f"{lang}.xlsx"
            write_release(releases["laplace"].table, target, metadata=meta)
        book = openpyxl.load_workbook(target, read_only=True)
        cells = {str(c) for row in book.worksheets[1].iter_rows(values_only=True) for c in row}
        assert all(text in cells for text in said)
        assert not any(text in cells for text in unsaid)
        if lang == "es":
            assert said[0] != public[0].text()  # in the reader's language


def test_a_phrase_is_public_only_when_every_field_it_reads_is():
    assert declared_public(RunSummary, "n_classes") and declared_public(RunSummary, "params.k")
    assert declared_public(RunSummary, "noise.corrected_shares") and declared_public(
        RunSummary, "missing_qi.released"
    )
    assert not declared_public(RunSummary, "params.seed") and not declared_public(
        RunSummary, "missing_qi.withheld"
    )
    assert not declared_public(RunSummary, "information_loss.confidential_columns")
    assert not declared_public(RunSummary, "noise.columns.grid") and declared_public(
        RunSummary, "noise.columns.epsilon"
    )
    with pytest.raises(KeyError):
        declared_public(RunSummary, "no_such_field")


def test_the_p_rule_is_quoted_from_its_constant(releases, monkeypatch):
    text = render_report(releases["buckets"], figures=[])
    assert f"p = {percent(P_RULE)}" in text
    monkeypatch.setattr(report_html, "P_RULE", 0.2)
    assert f"p = {percent(0.2)}" in render_report(releases["buckets"], figures=[])
