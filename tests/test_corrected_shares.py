"""Randomized response: the original shares, corrected from the release alone (issue 28, item 2).

The released shares of a randomized column drift towards equal shares; the channel is public,
so the unbiased estimate λ̂·P⁻¹ and its standard error are published with the release.  Data:
the race column of the adult data set (86 % White, 10 % Black, three rare categories).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from engine import ReleaseParams, anonymize, read_table, write_release
from engine.io.about import about_rows
from engine.mechanisms.response import (
    corrected_shares,
    randomized_response,
    uniform_channel,
)
from engine.mechanisms.sampling import noise_source
from engine.release import summary_words
from engine.report.html import render_report


@pytest.fixture(scope="module")
def adult(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "adult.csv.gz", sep=";").iloc[:2000]


def test_corrected_shares_fall_within_two_standard_errors_of_the_original_ones(adult):
    categories = sorted(adult["race"].unique())
    codes = adult["race"].map({c: i for i, c in enumerate(categories)}).to_numpy()
    original = np.bincount(codes, minlength=len(categories)) / len(codes)
    source = noise_source(28)
    estimates, inside = [], []
    for _ in range(300):
        outcome = randomized_response(codes, len(categories), 1.0, source)
        shares = corrected_shares(outcome.codes, outcome.channel, categories)
        assert shares is not None
        est, se = np.array(shares.estimate), np.array(shares.standard_error)
        estimates.append(est)
        inside.append(np.abs(est - original) <= 2 * se)
    coverage = np.mean(inside, axis=0)
    assert (coverage >= 0.9).all(), coverage  # about 95 % for every category
    # unbiased: the mean of 300 estimates is within 4 of its own standard errors
    spread = np.std(estimates, axis=0) / np.sqrt(len(estimates))
    assert (np.abs(np.mean(estimates, axis=0) - original) <= 4 * spread).all()
    # while the raw released shares are far off: the 10 % of Black answers read about 18 %
    assert abs(np.array(shares.released)[categories.index("Black")] - 0.18) < 0.03


def test_the_corrected_shares_are_published_and_computable_from_the_released_file(adult, tmp_path):
    params = ReleaseParams(
        qi=("age", "sex"),
        confidential=("race",),
        k=5,
        epsilon=1.0,
        mechanism="laplace",
        categories={
            "race": ("Amer-Indian-Eskimo", "Asian-Pac-Islander", "Black", "Other", "White")
        },
    )
    release = anonymize(adult, params)
    path = tmp_path / "release.csv"
    write_release(release.table, path, metadata=release.summary.public_dict())
    published = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    shares = published["noise"]["corrected_shares"]["race"]
    keep = published["noise"]["columns"]["race"]["keep_probability"]
    # the file and the published channel alone give the same numbers
    released = read_table(path).data["race"]
    codes = released.map({c: i for i, c in enumerate(shares["categories"])}).to_numpy()
    channel = uniform_channel(keep, len(shares["categories"]))
    again = corrected_shares(codes, channel, shares["categories"])
    assert again is not None
    assert np.allclose(again.estimate, shares["estimate"])
    assert np.allclose(again.standard_error, shares["standard_error"])
    # and every reader shows them: the preview's words, the About sheet, the report
    words = " ".join(p.text() for p in summary_words(release.summary))
    assert "original shares are estimated at White" in words
    about = {row.label: row.value for row in about_rows(published)}
    assert about["race: original shares, corrected for the random answers"].startswith(
        "Amer-Indian-Eskimo"
    )
    html = render_report(release, figures=())
    assert "Shares of <code>race</code> after randomized response" in html
