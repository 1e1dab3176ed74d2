"""Every claim the plan, the report and the About sheet make is checked against the release.

A plan speaks before the partition ("classes will hold 45 records or more on average, each
at least 10"); the verifier reads the released table after it.  Here hypothesis draws real
files (slices of the census-style and Adult files of ``tests/data``, with made-up households),
t, k and b, runs plan → anonymize, and holds each sentence to the verified release: a minimum
is a minimum, an average an average, the cause named is the one that binds, and the counts
and roundings of the plan, the report and the About sheet agree.
"""

from __future__ import annotations

import html
import re
from functools import cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ReleaseParams, anonymize, plan
from engine.errors import InfeasibleError
from engine.io.about import about_rows, field_label
from engine.release import join, plan_words
from engine.report.html import render_report
from engine.text import number

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@cache
def _census() -> pd.DataFrame:
    data = pd.read_csv(
        "tests/data/acs-census-sample.csv.gz", sep=";", na_values=["N/A"], low_memory=False,
        usecols=["Age", "Sex", "Income", "Marital status", "Education"], encoding="utf-8",
    )  # fmt: skip
    return data[data["Income"] != -10000].reset_index(drop=True)


@cache
def _adult() -> pd.DataFrame:
    return pd.read_csv("tests/data/adult.csv.gz", sep=";", encoding="utf-8")


#: (file, quasi-identifiers, confidential column)
FILES = {
    "census-income": (_census, ("Age", "Sex", "Marital status"), "Income"),
    "census-education": (_census, ("Age", "Sex"), "Education"),
    "adult-education": (_adult, ("age", "sex", "race"), "education"),
    "adult-occupation": (_adult, ("age", "marital-status"), "occupation"),
}


@st.composite
def releases(draw: st.DrawFn) -> tuple[pd.DataFrame, ReleaseParams]:
    name = draw(st.sampled_from(sorted(FILES)))
    load, qi, confidential = FILES[name]
    n = draw(st.integers(60, 1500))
    seed = draw(st.integers(0, 2**16))
    data = load().sample(n=n, random_state=seed).reset_index(drop=True)
    households = draw(st.booleans())
    if households:  # members of a household sit next to each other, 1 to 5 of them
        sizes = np.random.default_rng(seed).integers(1, 6, size=n)
        data["household"] = np.repeat(np.arange(n), sizes)[:n]
    # k above the households is refused when the file is prepared (test_households)
    most = len(set(data["household"])) if households else n
    k = draw(st.one_of(st.integers(2, 12), st.integers(n // 2 + 1, n)).filter(lambda k: k <= most))
    t = draw(st.sampled_from([1.05, 1.2, 1.5, 1.649, 2.0, 3.0, 6.0]))
    b = draw(st.one_of(st.none(), st.integers(2, 40), st.integers(100, 400)))
    params = ReleaseParams(
        qi=qi,
        confidential=(confidential,),
        k=k,
        t=t,
        n_buckets=b,
        household="household" if households else None,
    )
    return data, params


def _distinct(data: pd.DataFrame, params: ReleaseParams) -> int:
    return len(data[list(params.confidential)].dropna().drop_duplicates())


@settings(max_examples=25)
@given(releases())
def test_every_claim_of_the_plan_holds_in_the_verified_release(case) -> None:
    data, params = case
    planned = plan(data, params)
    if not planned.feasibility.ok:  # then the run refuses too, with the plan's words
        with pytest.raises(InfeasibleError, match=re.escape(planned.feasibility.message)):
            anonymize(data, params, plan=planned)
        return
    sizes = planned.class_sizes
    release = anonymize(data, params, plan=planned)
    assert release.verification.ok
    achieved = release.verification.class_sizes
    n_classes, n = len(achieved), len(release.table)

    # "each at least N" and "Each group of at least N people": a minimum of the release
    assert sizes.smallest <= int(achieved.min())
    words = join(plan_words(planned))
    if sizes.max_classes != 1:
        assert f"Each group of at least {number(sizes.smallest)} people" in words
    # "N records or more on average": the release's mean class
    assert sizes.average <= n / n_classes
    reason = sizes.reason
    for said in re.findall(r"each at least ([\d,]+)", reason):
        assert int(said.replace(",", "")) == sizes.smallest
    for said in re.findall(r"([\d,]+) records or more on average", reason):
        assert int(said.replace(",", "")) == sizes.average <= n / n_classes

    # the cause named is the one that binds
    if sizes.cause == "k":
        assert 2 * params.k > n and n_classes == 1
        assert f"k = {number(params.k)} is more than half" in reason
    elif 2 * params.k > n:
        assert n_classes == 1  # one class whatever else: k is what the plan must name
        assert sizes.cause in ("k", ""), reason
    if sizes.cause in ("rarest", "missing"):
        assert n_classes <= int(release.buckets.counts.min())
    if sizes.cause == "households":
        assert params.household is not None

    # "too few distinct values" only when the values are counted too few
    got = len(release.buckets.counts) - (release.buckets.missing_bucket is not None)
    shortfall = [w for w in planned.warnings if w.startswith("Only ")]
    if params.n_buckets is not None and got < params.n_buckets:
        (said,) = shortfall
        distinct = _distinct(data, params)
        found = re.search(r"has only ([\d,]+) distinct values", said)
        assert bool(found) == (distinct < params.n_buckets), said
        if found:
            assert int(found.group(1).replace(",", "")) == distinct
    else:
        assert not shortfall


@settings(max_examples=8)
@given(releases())
def test_the_plan_the_report_and_the_about_sheet_agree(case) -> None:
    data, params = case
    planned = plan(data, params)
    if not planned.feasibility.ok:
        return
    release = anonymize(data, params, plan=planned)
    report = render_report(release, figures=[])
    rows = about_rows(release.summary.public_dict())
    total = len(release.buckets.counts)
    # the same number of buckets everywhere: the plan's rows, the report's, the sheet's
    assert len(planned.buckets) == total
    assert re.search(rf"\b{number(total)} bucket", report), "report's bucket count"
    labels = {str(b.label) for b in planned.buckets}
    assert sum(1 for r in rows if r.label in labels and r.value) >= total - 1
    # t with one rounding: the plain words, the report's parameters, the sheet's
    shown_t = number(params.t)
    assert f"within a factor {shown_t}" in join(plan_words(planned)) or (
        planned.class_sizes.max_classes == 1
    )
    assert f"<td>{shown_t}</td>" in report
    assert any(r.value == shown_t for r in rows if r.label and "t" in r.label.lower())


def test_the_report_and_the_about_sheet_list_the_same_parameters() -> None:
    """Both tables come from the declared fields: every parameter the sheet lists (b's
    search weight among them) is a row of the report, under the same label."""
    data = _adult().head(600)
    params = ReleaseParams(qi=("age", "sex"), confidential=("education",), k=5, t=2.0)
    release = anonymize(data, params)
    sheet = about_rows(release.summary.public_dict())
    start = next(i for i, r in enumerate(sheet) if r.section and r.label == "Parameters")
    end = next(i for i, r in enumerate(sheet) if r.section and i > start)
    labels = [r.label for r in sheet[start + 1 : end]]
    assert field_label("utility_weight") in labels
    report = render_report(release, figures=[])
    for label in labels:
        assert f"<th>{html.escape(label)}</th>" in report, label


def test_a_household_release_is_promised_no_count_of_classes_it_can_beat() -> None:
    """Households released with ids form classes of unequal sizes: on 60 adult records in 19
    households at t = 1.05, k = 2 the balanced layout allows 2 classes, the release forms 7
    (48 records whose households have no id, and classes of 2); the plan promises only the
    smallest class, which the release meets."""
    data = _adult().sample(n=60, random_state=0).reset_index(drop=True)
    sizes = np.random.default_rng(0).integers(1, 6, size=60)
    data["household"] = np.repeat(np.arange(60), sizes)[:60]
    params = ReleaseParams(
        qi=("age", "marital-status"), confidential=("occupation",), k=2, t=1.05,
        household="household",
    )  # fmt: skip
    planned = plan(data, params)
    release = anonymize(data, params, plan=planned)
    achieved = release.verification.class_sizes
    assert release.verification.ok and len(achieved) > 2
    assert planned.class_sizes.max_classes is None
    assert planned.class_sizes.smallest <= achieved.min()
    assert planned.class_sizes.average <= len(data) / len(achieved)
    assert "on average" not in join(plan_words(planned))
