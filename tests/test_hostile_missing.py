"""One blank confidential cell must not collapse a release (missing_confidential).

A record with a missing confidential value is released in a bucket of its own, which every
class must hold: one blank income among 300 records allows a single class.  The plan says
so (and does not blame t), offers leaving those records out as a fix, and with
``missing_confidential="drop"`` the release holds the other records, verified, with the
count stated in the plan, the summary, the report and on the command line.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from engine import InputError, ReleaseParams, anonymize, plan
from engine.cli import main
from engine.release import verify_release


def survey(n: int = 300, blanks: tuple[int, ...] = (7,)) -> pd.DataFrame:
    """Age, income (= 10 × serial, so a released income label names its record's serial)
    and a serial number released unchanged; ``blanks`` are rows without an income."""
    rng = np.random.default_rng(5)
    serial = np.arange(n) + 1000
    income = pd.array(serial * 10, dtype="Int64")
    income[list(blanks)] = pd.NA
    return pd.DataFrame({"age": rng.integers(18, 80, n), "income": income, "serial": serial})


BUCKETS = ReleaseParams(
    qi=("age",),
    confidential=("income",),
    keep=("serial",),
    allow_identifier=("serial",),  # a record number kept on purpose: it tracks the records
    k=5,
    t=3.0,
)


def test_the_plan_blames_the_missing_bucket_and_offers_to_leave_it_out() -> None:
    planned = plan(survey(), BUCKETS)
    assert planned.class_sizes.max_classes == 1
    reason = planned.class_sizes.reason
    assert "the 1 record(s) with a missing confidential value form a bucket" in reason
    assert "Choose a larger t" not in reason
    assert planned.feasibility.ok
    (fix,) = planned.feasibility.fixes
    assert fix.changes == {"missing_confidential": "drop"}
    promised = re.search(r"classes of about (\d+) records instead of 300", fix.description)
    assert promised
    dropped = plan(survey(), fix.apply(BUCKETS))
    assert (dropped.n_records, dropped.n_left_out) == (299, 1)
    # the fix keeps its word: the plan without those records has classes of that size at
    # most (its own search of b may choose buckets that allow smaller ones)
    assert dropped.class_sizes.average <= int(promised.group(1))
    assert dropped.class_sizes.max_classes > 20 and not dropped.feasibility.fixes
    assert any("1 record(s) with a missing value of 'income' are left out" in w for w in
               dropped.warnings)  # fmt: skip


def test_no_fix_when_the_missing_bucket_is_not_what_limits_the_classes() -> None:
    many = tuple(range(0, 300, 4))  # 75 blanks: a bucket as large as the others
    planned = plan(survey(blanks=many), BUCKETS)
    assert not planned.feasibility.fixes


def released_serial_and_income(table: pd.DataFrame) -> list[tuple[int, str]]:
    return list(zip(table["serial"].astype(int), table["income"].astype(str), strict=True))


def label_holds(label: str, value: float) -> bool:
    """Whether a released bucket label ("< 5", "[5, 9)", "≥ 9") holds ``value``."""
    number = r"(-?[\d,.]+)"
    if m := re.fullmatch(rf"< {number}", label):
        return value < float(m[1].replace(",", ""))
    if m := re.fullmatch(rf"≥ {number}", label):
        return value >= float(m[1].replace(",", ""))
    m = re.fullmatch(rf"\[{number}, {number}\)", label)
    assert m, label
    return float(m[1].replace(",", "")) <= value < float(m[2].replace(",", ""))


@pytest.mark.parametrize("blanks", [(7,), (0, 150, 299), (3, 4, 5, 6, 7)])
def test_dropped_records_leave_every_other_record_whole(blanks) -> None:
    data = survey(blanks=blanks)
    release = anonymize(
        data, BUCKETS.replace(missing_confidential="drop", confidential_output="label", seed=3)
    )
    table = release.table
    kept = set(data["serial"]) - set(data["serial"].iloc[list(blanks)])
    assert set(table["serial"]) == kept and len(table) == 300 - len(blanks)
    # each released row still carries its own record's values: its income label holds the
    # income of the serial it carries (income = 10 × serial)
    assert all(label_holds(lab, 10 * s) for s, lab in released_serial_and_income(table))
    assert verify_release(table, ["age"], ["income"], k=5, t=3.0).ok
    summary = release.summary
    assert (summary.n_records, summary.n_released, summary.n_left_out) == (len(kept),) * 2 + (
        len(blanks),
    )
    assert summary.class_sizes.n_classes > 1


def test_dropped_records_with_noise() -> None:
    data = survey(blanks=(1, 2, 3))
    params = ReleaseParams(
        qi=("age",), confidential=("income",), keep=("serial",), allow_identifier=("serial",),
        k=5, epsilon=1.0,
        mechanism="laplace", bounds={"income": (0.0, 20000.0)}, missing_confidential="drop",
        seed=2,
    )  # fmt: skip
    release = anonymize(data, params)
    assert set(release.table["serial"]) == set(data["serial"]) - {1001, 1002, 1003}
    assert release.table["income"].notna().all()
    assert release.summary.n_left_out == 3


def test_nothing_left_to_release_is_an_input_error() -> None:
    data = survey(n=20, blanks=tuple(range(20)))
    with pytest.raises(InputError, match="Every record has a missing confidential value"):
        plan(data, BUCKETS.replace(missing_confidential="drop"))


def test_the_default_keeps_releasing_missing_values_empty() -> None:
    release = anonymize(survey(), BUCKETS.replace(seed=1))
    assert len(release.table) == 300 and release.summary.n_left_out == 0
    assert release.table["income"].isna().sum() + (release.table["income"] == "").sum() == 1


def test_command_line_states_the_count_everywhere(tmp_path, capsys) -> None:
    source = tmp_path / "survey data.csv"
    survey().to_csv(source, index=False)
    base = [str(source), "--qi", "age", "--confidential", "income", "--t", "3", "--k", "5"]
    assert main(["plan", *base]) == 0
    out = capsys.readouterr().out
    assert "suggested: leave out the 1 record(s)" in out and "(--missing-confidential drop)" in out
    args = ["anonymize", *base, "-o", str(tmp_path / "out.csv"), "--missing-confidential", "drop"]
    args += ["--review", str(tmp_path / "s.json"), "--report", str(tmp_path / "r.html")]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Released 299 records")
    assert "1 record(s) with a missing value of 'income' are left out" in captured.err
    summary = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert summary["n_left_out"] == 1 and summary["parameters"]["missing_confidential"] == "drop"
    report = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "records left out (missing confidential value)</th><td>1" in report
    assert main(["plan", *base, "--missing-confidential", "drop"]) == 0
    assert capsys.readouterr().out.startswith("299 records (1 left out); k = 5")
