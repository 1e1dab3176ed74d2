"""``agency-package``, hierarchy clause: with ``--hierarchy commune=FILE`` a release never
gives a person a commune they do not live in, so no commune is released for more persons
than live there; k and t hold on the recoded values, as the verifier reads them.

Data: ``tests/data/commune-survey.csv.gz`` (5,908 persons, 1,600 households, 96 communes)
and its commune → district → province table ``tests/data/commune-hierarchy.csv``
(``tests/commune_fixtures.py``).
"""

from __future__ import annotations

import pandas as pd
import pytest

from engine import ReleaseParams, anonymize, verify_release
from engine.cli import main
from engine.recoding import ROOT, Hierarchy, value_text

pytestmark = pytest.mark.slow

QI = ("age", "sex", "education", "commune")
TYPES = {"commune": "nominal", "sex": "nominal", "education": "ordinal"}


@pytest.fixture(scope="module")
def survey(data_dir) -> pd.DataFrame:
    return pd.read_csv(data_dir / "commune-survey.csv.gz")


@pytest.fixture(scope="module")
def rows(data_dir) -> list[list[str]]:
    table = pd.read_csv(data_dir / "commune-hierarchy.csv", dtype=str)
    return [list(table.columns), *table.to_numpy().tolist()]


def release(survey, rows, *, hierarchy: bool, households: bool = True, **changes):
    params = ReleaseParams(
        qi=QI, confidential=("income",), k=5, t=3.0, types=TYPES, seed=3,
        hierarchies={"commune": rows} if hierarchy else {},
        **({"household": "household", "weight": "weight"} if households else {}),
        **changes,
    )  # fmt: skip
    return anonymize(survey, params)


@pytest.mark.parametrize("households", [True, False])
def test_bar_a_hierarchy_never_releases_a_commune_for_more_persons_than_live_there(
    survey, rows, households
):
    geo = Hierarchy.from_rows(rows)
    out = release(survey, rows, hierarchy=True, households=households)
    own = survey["commune"].map(value_text).to_numpy()[out.source_rows]
    shown = out.table["commune"].map(value_text).to_numpy()
    # every released value is a unit of the hierarchy that holds the person's own commune
    for o, s in zip(own, shown, strict=True):
        assert s == ROOT or o in geo.finest_under(s), (o, s)
    lives = pd.Series(own).value_counts()
    released = pd.Series(shown).value_counts()
    for commune, n in released.items():
        if commune in geo.paths:
            assert n <= lives[commune], commune
    # and the guarantee still holds on the recoded values, read from the released table
    check = verify_release(out.table, QI, ("income",), t=3.0, k=5)
    assert check.ok and check.k >= 5 and check.t <= 3.0


def test_without_the_hierarchy_the_modal_commune_misplaces_people(survey, rows):
    """What the hierarchy is for: today's release gives people a commune they do not live
    in (the test above could not fail if this never happened)."""
    out = release(survey, rows, hierarchy=False)
    own = survey["commune"].map(value_text).to_numpy()[out.source_rows]
    shown = out.table["commune"].map(value_text).to_numpy()
    assert (own != shown).sum() > 0.1 * len(own)


def test_the_hierarchy_distance_keeps_classes_inside_the_geography(survey, rows):
    """Most persons keep their commune or their district: the classes are formed with the
    hierarchy's distance, not across the country."""
    geo = Hierarchy.from_rows(rows)
    out = release(survey, rows, hierarchy=True)
    shown = out.table["commune"].map(value_text)
    levels = shown.map(geo.level_of)
    assert (levels <= 1).mean() > 0.5
    assert (levels == 0).any() and (shown != ROOT).mean() > 0.9


def test_bands_and_codes_are_released_and_verified(survey, rows):
    out = release(
        survey, rows, hierarchy=True, bands={"age": (15.0, 25.0, 45.0, 65.0)},
        top_code={"age": 80.0},
    )  # fmt: skip
    bands = {"< 15", "[15, 25)", "[25, 45)", "[45, 65)", "≥ 65"}
    assert set(out.table["age"].dropna()) <= bands
    assert verify_release(out.table, QI, ("income",), t=3.0, k=5).ok


def test_common_output_without_a_hierarchy_releases_only_shared_values(survey, rows):
    out = release(survey, rows, hierarchy=False, households=False, qi_output="common")
    own = survey["sex"].to_numpy()[out.source_rows]
    shown = out.table["sex"].map(value_text).to_numpy()
    for o, s in zip(own, shown, strict=True):
        assert s in (ROOT, value_text(o))


def test_the_command_line_reads_the_hierarchy_file(data_dir, tmp_path, survey):
    source = tmp_path / "survey.csv"
    survey.to_csv(source, index=False)
    target, ddi = tmp_path / "release.sav", tmp_path / "release.xml"
    argv = ["anonymize", str(source), "-o", str(target), "--qi", ",".join(QI),
            "--confidential", "income", "--k", "5", "--t", "3", "--household", "household",
            "--weight", "weight", "--type", "commune=nominal", "--type", "sex=nominal",
            "--hierarchy", f"commune={data_dir / 'commune-hierarchy.csv'}",
            "--ddi", str(ddi)]  # fmt: skip
    assert main(argv) == 0
    import pyreadstat

    frame, _ = pyreadstat.read_sav(str(target))
    lives = survey["commune"].map(value_text).value_counts()
    for commune, n in frame["commune"].value_counts().items():
        if commune in lives.index:
            assert n <= lives[commune]
    text = ddi.read_text(encoding="utf-8")
    assert "commune → district → province" in text


def test_a_cluster_refuses_what_it_does_not_recode(survey, rows, tmp_path, capsys):
    source = tmp_path / "survey.csv"
    survey.head(200).to_csv(source, index=False)
    argv = ["anonymize", str(source), "-o", str(tmp_path / "out.csv"), "--qi", "age,commune",
            "--confidential", "income", "--k", "5", "--t", "3", "--bands", "age=15:65",
            "--cluster", "local:1"]  # fmt: skip
    assert main(argv) == 2
    assert "on this computer only" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()
