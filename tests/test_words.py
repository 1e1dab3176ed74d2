"""Plain words for a review board: what a plan promises and what a run achieved."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from engine import ReleaseParams, anonymize, plan
from engine.release import Phrase, join, plan_words, summary_words
from tests.factories import laplace_params


@pytest.fixture(scope="module")
def survey() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 400
    return pd.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "income": np.round(rng.lognormal(10, 0.7, n), -1),
            "diagnosis": rng.choice(["asthma", "diabetes", "none"], n),
        }
    )


def test_buckets_lead_with_the_group_size_and_the_factor(survey) -> None:
    params = ReleaseParams(qi=("age", "sex"), confidential=("income",), k=10, t=2.0, n_buckets=11)
    p = plan(survey, params)
    text = join(plan_words(p))
    # the fewest people a 2-close group of these 11 buckets can hold: 11 here, not k = 10
    assert p.class_sizes.smallest == 11
    assert text.startswith(
        "Each group of at least 11 people looks like the whole file in its income mix, "
        "within a factor 2."
    )
    assert "singled out by age, sex" in text
    assert "Proposition" not in text and "close" not in text  # no paper names up front


def test_one_class_is_said_first(survey) -> None:
    data = pd.DataFrame({"age": np.arange(18), "diag": ["A"] * 7 + ["B"] * 11})
    p = plan(data, ReleaseParams(qi=("age",), confidential=("diag",), k=2, t=1.0))
    assert p.class_sizes.max_classes == 1
    assert join(plan_words(p)).startswith("At this level the release would be one single group")


def test_noise_says_the_error_and_the_factor(survey) -> None:
    bounds = {"income": (0.0, 200_000.0)}
    categories = {"diagnosis": ("asthma", "diabetes", "none")}
    params = laplace_params(("age",), ("income", "diagnosis"), bounds=bounds, categories=categories)
    text = join(plan_words(plan(survey, params)))
    assert text.startswith("Every combination of age that is released is shared by at least 5")
    assert "income: each value gets random noise, about ±" in text
    assert "between the public limits 0 and 200,000" in text
    assert "diagnosis: each answer is kept with probability" in text
    assert "by at most a factor 2.72 (ε = 1)" in text


def test_private_bounds_are_named(survey) -> None:
    params = ReleaseParams(
        qi=("age",), confidential=("income",), k=5, epsilon=5.0, mechanism="laplace",
        private_bounds=0.5,
    )  # fmt: skip
    # ε = 2.5 for the bounds: enough for the survey's incomes (0.1 would be refused)
    assert "estimated privately" in join(plan_words(plan(survey, params)))


def test_run_summary_words(survey) -> None:
    release = anonymize(
        survey,
        ReleaseParams(qi=("age", "sex"), confidential=("income",), k=10, t=2.0, seed=3),
    )
    text = join(summary_words(release.summary))
    s = release.summary
    assert text.startswith(f"The {s.n_classes:,} groups hold at least {s.k_achieved} people")
    assert "within a factor" in text and "(asked: 2)" in text
    noisy = anonymize(
        survey,
        ReleaseParams(
            qi=("age",), confidential=("diagnosis",), k=5, epsilon=1.0, mechanism="laplace",
            categories={"diagnosis": ("asthma", "diabetes", "none")}, seed=3,
        ),
    )  # fmt: skip
    words = join(summary_words(noisy.summary))
    changed = noisy.summary.information_loss.confidential_columns["diagnosis"]["share_changed"]
    assert f"diagnosis: {100 * changed:.3g} % of the answers were changed at random." in words


def test_a_phrase_goes_through_a_translation() -> None:
    phrase = Phrase("{n} people", {"n": "1,000"})
    assert phrase.text() == "1,000 people"
    assert phrase.text(lambda template: template.replace("people", "personas")) == "1,000 personas"


def test_noise_on_groups_of_k_says_its_price_and_plain_noise_does_not(survey) -> None:
    bounds = {"income": (0.0, 200_000.0)}
    grouped = laplace_params(("age",), ("income",), bounds=bounds).replace(insensitive=True)
    text = join(plan_words(plan(survey, grouped)))
    assert "Averaging in groups of 5 before the noise makes the noise 5 times smaller" in text
    assert "up to a factor 148 more likely, not 2.72" in text  # e^(5·1) against e^1
    plain = join(plan_words(plan(survey, laplace_params(("age",), ("income",), bounds=bounds))))
    assert "Averaging in groups of 5 before the noise" not in plain
