"""A household survey released on a Dask cluster: whole households on one partition each."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.distributed.release import anonymize_on_cluster
from engine.params import ReleaseParams
from engine.release import verify_release
from tests.survey_data import household_survey

QI = ("commune", "age", "sex")


def test_households_stay_whole_and_are_checked_on_a_cluster(client, tmp_path):
    data = household_survey(300, seed=3)
    path = tmp_path / "survey.parquet"
    data.to_parquet(path, row_group_size=250)  # households straddle the row groups
    params = ReleaseParams(qi=QI, confidential=("illness_days",), t=3.0, k=8, n_buckets=2,
                           household="household", weight="weight", seed=2)  # fmt: skip
    release = anonymize_on_cluster(client, path, params, node_records=300)
    table = pd.concat(client.gather(release.parts), ignore_index=True)
    assert len(table) == len(data)
    assert release.summary.backend["partitions"] >= 2
    # the ids are a fresh numbering, one per household released with one; every household
    # in one commune; the few without an id are counted
    given = table["household"].notna()
    homes = release.summary.households
    # (300 households in two partitions at k = 8: sizes with fewer than 8 households in a
    # partition lose their id)
    assert homes.records_without_id == int((~given).sum()) <= 0.3 * len(table)
    sizes = table[given].groupby("household").size().sort_values().to_numpy()
    assert (
        len(set(table["household"].dropna())) == len(sizes) == 300 - (homes.households_without_id)
    )
    assert (table.groupby("household")["commune"].nunique() == 1).all()
    v = verify_release(table, QI, ["illness_days"], t=3.0, k=8, household="household",
                       household_level=["commune"], weight="weight")  # fmt: skip
    assert v.ok, v.message
    assert v.households_k >= 8 and v.pattern_k >= 8 and v.linking_t <= 3.0 + 1e-9
    assert homes.household_level == ("commune",) and homes.households_k >= 8
    assert homes.pattern_k >= 8
    # one weight per class of a partition (its mean): with the weight as a key the release
    # keeps k and t (checked above), and every class's sum of weights is kept
    assert table["weight"].nunique() < table["weight"].size / 8
    assert table["weight"].sum() == pytest.approx(data["weight"].sum(), rel=1e-6)
    assert release.summary.weight.k >= 8
    assert "households" in release.verification.message
