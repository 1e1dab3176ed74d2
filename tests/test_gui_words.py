"""What the app says is built from the facts: no empty heading, no loss beyond 100 % without
its meaning, the gap between a noise plan's expected error and the release's explained, the
buckets counted as the report counts them, bounds refused in the app's words."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from engine import InputError, ReleaseParams, anonymize
from gui.pages.preview_page import PreviewPage, confidential_loss_row, noise_gap_sentences
from gui.plot_text import bucket_words, figure_text
from gui.state import Session, parse_bounds

pytestmark = pytest.mark.gui


def survey(n: int = 600, seed: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    income = np.round(rng.exponential(9_000, n), -2)
    income[:40] = np.nan
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["f", "m"], n),
            "income": income,
        }
    )


def test_no_empty_please_note_heading():
    release = anonymize(
        survey(), ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=2.0)
    )
    reason = "the reason said above"
    only_reason = dataclasses.replace(release, warnings=[reason])
    assert "Please note" not in PreviewPage.summary_html(only_reason, reason=reason)
    some = dataclasses.replace(release, warnings=[reason, "a note of its own"])
    html = PreviewPage.summary_html(some, reason=reason)
    assert "Please note" in html and "a note of its own" in html


def test_a_loss_beyond_100_percent_is_said_as_a_multiple_with_its_meaning():
    assert confidential_loss_row(0.25)[1] == "25 %"
    _name, value, note = confidential_loss_row(493.11)
    assert value == "493 × the values' own variation" and "%" not in value
    assert "further from the true ones" in note


def test_the_gap_between_the_expected_and_the_measured_noise_is_explained():
    data = survey()
    params = ReleaseParams(
        qi=("age", "sex"),
        confidential=("income",),
        k=5,
        epsilon=0.5,
        mechanism="laplace",
        bounds={"income": (0.0, 250_000.0)},
        seed=3,
    )
    release = anonymize(data, params)
    column = release.summary.noise.columns["income"]
    assert column.mean_absolute_error < 0.9 * column.expected_abs_error
    (sentence,) = noise_gap_sentences(release)
    values = pd.to_numeric(release.table["income"], errors="coerce").dropna()
    at_bound = ((values <= 0) | (values >= 250_000)).mean()
    assert f"{100 * at_bound:.3g} %" in sentence.replace(" %", " %")
    assert "pushed past the public bounds 0 to 250,000" in sentence
    assert PreviewPage.summary_html(release).count("cuts their noise short") == 1


def test_the_buckets_are_counted_as_the_report_counts_them():
    release = anonymize(
        survey(),
        ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=2.0, n_buckets=4),
    )
    assert release.buckets.missing_bucket is not None
    formed = len(release.buckets.counts) - 1
    text = figure_text(bucket_words(release))
    assert text.title == f"income: {formed} buckets and one for missing values"
    assert f"grouped into {formed} buckets" in text.description
    assert "a bucket of their own, with 40 records" in text.description
    from engine.report.plots import bucket_histogram

    figure = bucket_histogram(release)
    assert f"{formed} buckets and one for missing values" in figure.axes[0].get_title()


def test_bounds_in_the_wrong_order_are_refused_without_the_largest_number():
    """The session's words are the engine's (the same from a flag, a project or the app):
    bounds in the wrong order say so, not "numbers between -1e+150 and 1e+150"."""
    session = Session()
    session.update(qi=("age",), confidential=("income",), t=None, epsilon=1.0)
    session.update(mechanism="laplace")
    with pytest.raises(InputError) as err:
        session.update(bounds=parse_bounds("income=5:1"))
    assert err.value.message == "bounds['income'] must be [low, high] with low < high, not [5, 1]."


def test_the_import_page_promises_only_formats_the_app_reads(window):
    from engine.io.formats import FORMATS

    subtitle = window.wizard.import_page.subTitle()
    named = subtitle[subtitle.index("(") + 1 : subtitle.index(")")].split(", ")
    assert named == ["CSV", "Excel", "OpenDocument", "Parquet", "SPSS", "Stata"]
    for name in named:
        assert any(name in fmt.label for fmt in FORMATS), name
