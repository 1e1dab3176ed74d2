"""``published-safe``: what goes out with a release is computable from the release alone.

A skewed survey with one extreme earner is released with ``--seed 4242`` by every route
(buckets released as means, medians and labels; Laplace noise; randomized response) to every
format (xlsx, CSV, Parquet).  Every number printed in the published files (the About sheet,
the sidecar JSON, the Parquet metadata) must be recomputable from the released file and the
public parameters; none may equal a statistic of the original wage column; the seed appears
in none of them, while the review record and the report still name it.  The same check runs
on a cluster in ``test_distributed.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.io.about import field_label
from engine.params import ReleaseParams
from tests.published import (
    computable,
    corrected_shares,
    cut_points,
    ddi_numbers,
    leaks,
    original_statistics,
    published_documents,
    published_numbers,
    published_text,
    read_release,
    unexplained,
)

SEED = 4242
QI = ["age", "sex", "region"]
EXTREME = 9_876_543.21


def skewed_survey(n: int = 600, seed: int = 11) -> pd.DataFrame:
    """Age, sex, region; a log-normal wage tied to them with one extreme earner; a health
    category for randomized response."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 80, n)
    sex = rng.choice(["F", "M"], n)
    region = rng.choice(["north", "south", "east", "west", "centre"], n)
    wage = np.round(np.exp(9.8 + 0.01 * (age - 18) + 0.2 * (sex == "M") + rng.normal(0, 0.6, n)), 2)
    wage[n // 3] = EXTREME
    health = rng.choice(["good", "fair", "poor", "bad"], n, p=[0.5, 0.3, 0.15, 0.05])
    return pd.DataFrame({"age": age, "sex": sex, "region": region, "wage": wage, "health": health})


def gappy_survey(n: int = 600, seed: int = 11) -> pd.DataFrame:
    """:func:`skewed_survey` with gaps in the quasi-identifiers: 3 % of ages and 6 % of
    regions not given (a few records lack both)."""
    data = skewed_survey(n, seed)
    rng = np.random.default_rng(seed + 1)
    data["age"] = data["age"].astype(float).mask(rng.random(n) < 0.03)
    data["region"] = data["region"].mask(rng.random(n) < 0.06)
    return data


BUCKETS = ["--confidential", "wage", "--t", "2", "--k", "5"]
NOISE = ["--confidential", "wage", "--epsilon", "1", "--k", "5", "--mechanism", "laplace"]
#: (release file, flags): buckets by mean, median and label; Laplace; randomized response
RELEASES = {
    "mean.xlsx": BUCKETS,
    "median.csv": [*BUCKETS, "--confidential-output", "median"],
    "label.parquet": [*BUCKETS[:3], "3", "--k", "10", "--confidential-output", "label"],
    "laplace.xlsx": [*NOISE, "--bounds", "wage=0:200000"],
    "laplace.csv": [*NOISE, "--bounds", "wage=0:200000", "--insensitive"],
    "response.csv": ["--confidential", "health", "--epsilon", "2", "--k", "5",
                     "--mechanism", "laplace", "--categories", "health=good|fair|poor|bad"],
    # from gappy_survey: missing QI values released empty; noise that does not drown the wage
    "gaps.xlsx": BUCKETS,
    "gaps-noise.csv": [*NOISE[:3], "8", *NOISE[4:], "--bounds", "wage=0:200000",
                       "--insensitive"],
}  # fmt: skip
#: the releases made from :func:`gappy_survey`
GAPPY = ("gaps.xlsx", "gaps-noise.csv")


def params_of(flags: list[str]) -> ReleaseParams:
    """The public parameters the flags give (the seed is not one)."""
    values: dict = {"qi": tuple(QI)}
    it = iter(flags)
    for flag in it:
        name = {"buckets": "n_buckets"}.get(flag.lstrip("-"), flag.lstrip("-").replace("-", "_"))
        if name == "insensitive":
            values["insensitive"] = True
            continue
        text = next(it)
        if name == "bounds":
            column, _, span = text.partition("=")
            lo, hi = span.split(":")
            values["bounds"] = {column: (float(lo), float(hi))}
        elif name == "categories":
            column, _, listed = text.partition("=")
            values["categories"] = {column: listed}
        elif name == "confidential":
            values["confidential"] = (text,)
        else:
            values[name] = ReleaseParams.parse(name, text)
    return ReleaseParams(**values)


def saved(data: pd.DataFrame, folder: Path, name: str) -> tuple[pd.DataFrame, Path]:
    """``data`` and the CSV file it is saved as."""
    path = folder / name
    data.to_csv(path, index=False)
    return data, path


@pytest.fixture(scope="module")
def survey(tmp_path_factory) -> tuple[pd.DataFrame, Path]:
    return saved(skewed_survey(), tmp_path_factory.mktemp("published"), "survey.csv")


@pytest.fixture(scope="module")
def gappy(tmp_path_factory) -> tuple[pd.DataFrame, Path]:
    return saved(gappy_survey(), tmp_path_factory.mktemp("published-gaps"), "gappy.csv")


@pytest.fixture(scope="module")
def released(survey, gappy, tmp_path_factory) -> dict[str, tuple[Path, Path, list[str]]]:
    """Every release of :data:`RELEASES`, with its review record; (release, review, flags)."""
    folder = tmp_path_factory.mktemp("releases")
    out = {}
    for name, flags in RELEASES.items():
        _, path = gappy if name in GAPPY else survey
        target, review = folder / name, folder / f"{name}.review.json"
        ddi = folder / f"{name}.ddi.xml"
        argv = ["anonymize", str(path), "-o", str(target), "--qi", ",".join(QI), *flags,
                "--ddi", str(ddi)]  # fmt: skip
        assert main([*argv, "--seed", str(SEED), "--review", str(review)]) == 0
        out[name] = (target, review, flags)
    return out


def check_published(target: Path, flags: list[str], data: pd.DataFrame, column: str) -> None:
    """The bar on one release: no seed, every number computable, no original statistic."""
    assert str(SEED) not in published_text(target)
    docs = published_documents(target)
    meta = next(iter(v for k, v in docs.items() if k != "About sheet"), None)
    if meta is None:  # an xlsx: the column types and draws are in its sheet as words
        types = {c: t for c, t in _types(data, column).items()}
        draws = 1
    else:
        types = meta["column_types"]
        draws = (meta.get("noise") or {}).get("draws", 1)
    noise_columns = ((meta or {}).get("noise") or {}).get("columns") or {}
    categories = {c: d["categories"] for c, d in noise_columns.items() if "categories" in d}
    params = params_of(flags)
    table = read_release(target)
    printed = published_numbers(target)
    assert printed
    # the buckets' cut points are public by design (round numbers between people's values,
    # never one of them): declared in the metadata, not computed from a mean release
    cuts = cut_points(target)
    assert not set(cuts) & set(data[column].astype(str)) if column != "wage" else True
    assert not np.isin(cuts, data[column].to_numpy(dtype=float)).any() if column == "wage" else True
    allowed = [*computable(table, params, types, draws, categories), *cuts]
    unknown = unexplained(printed, allowed)
    assert not unknown, [(p.where, p.text) for p in unknown]
    statistics = original_statistics(data, column, QI) if column == "wage" else {}
    statistics.update(_bucket_statistics(data, column, meta))
    released_values = set(pd.to_numeric(table[column], errors="coerce").dropna())
    found = [(s, p) for s, p in leaks(printed, statistics) if p.value not in released_values]
    assert not found, [(s, p.where, p.text) for s, p in found]


@pytest.mark.parametrize("name", list(RELEASES))
def test_the_ddi_codebook_holds_only_numbers_the_release_gives(survey, gappy, released, name):
    """The DDI beside a release is published too: every number it prints is a released
    frequency, a count of the release, a public cut point or a number the release and its
    public parameters give; none is a statistic of the original wage; never the seed."""
    data, _ = gappy if name in GAPPY else survey
    target, _, flags = released[name]
    ddi = target.with_name(f"{name}.ddi.xml")
    text = ddi.read_text(encoding="utf-8")
    assert str(SEED) not in text
    column = flags[flags.index("--confidential") + 1]
    table = read_release(target)
    types = _types(data, column)
    noise = (published_documents(target).get("sidecar") or {}).get("noise") or {}
    categories = {c: d["categories"] for c, d in (noise.get("columns") or {}).items()
                  if "categories" in d}  # fmt: skip
    allowed = [*computable(table, params_of(flags), types, noise.get("draws", 1), categories)]
    allowed += cut_points(target)
    for col in table.columns:  # the released values and their frequencies
        counts = table[col].value_counts(dropna=True)
        allowed += [float(v) for v in counts.to_numpy()]
        allowed += list(pd.to_numeric(pd.Series(counts.index), errors="coerce").dropna())
    allowed += [len(table), table.shape[1]]
    printed = ddi_numbers(ddi)
    assert printed
    unknown = unexplained(printed, allowed)
    assert not unknown, [(p.where, p.text) for p in unknown]
    statistics = original_statistics(data, column, QI) if column == "wage" else {}
    released_values = set(pd.to_numeric(table[column], errors="coerce").dropna())
    found = [(s, p) for s, p in leaks(printed, statistics) if p.value not in released_values]
    assert not found, [(s, p.where, p.text) for s, p in found]


def _types(data: pd.DataFrame, column: str) -> dict[str, str]:
    kind = "numeric" if column == "wage" else "nominal"
    return {"age": "numeric", "sex": "nominal", "region": "nominal", column: kind}


def _bucket_statistics(data: pd.DataFrame, column: str, meta) -> dict[str, float]:
    """The exact mean, median and SD of the original values in each published bucket, and
    for a category column the original count and share of each category."""
    if column != "wage":
        counts = data[column].value_counts()
        return {f"count of {k}": v for k, v in counts.items()} | {
            f"share of {k}": v / len(data) for k, v in counts.items()
        }
    out: dict[str, float] = {}
    for row in (meta or {}).get("buckets", []):
        lo, hi = row["bounds"]
        x = data[column].to_numpy(dtype=float)
        inside = x[
            (x >= (lo if lo is not None else -np.inf)) & (x < (hi if hi is not None else np.inf))
        ]
        if inside.size > 1:
            out |= {
                f"{row['label']} {s}": float(f(inside))
                for s, f in (("mean", np.mean), ("median", np.median), ("sd", np.std))
            }
    return out


@pytest.mark.parametrize("name", list(RELEASES))
def test_published_files_hold_only_numbers_the_release_gives(survey, gappy, released, name):
    data, _ = gappy if name in GAPPY else survey
    target, _, flags = released[name]
    column = flags[flags.index("--confidential") + 1]
    check_published(target, flags, data, column)


def test_the_review_record_keeps_what_the_published_files_leave_out(released):
    target, review, _ = released["mean.xlsx"]
    record = json.loads(review.read_text(encoding="utf-8"))
    assert record["parameters"]["seed"] == SEED and str(SEED) in record["seed_policy"]
    assert record["record"].startswith("review record") and len(record["input_sha256"]) == 64
    assert record["information_loss"]["confidential_columns"]["wage"]["mean_original"] > 0
    assert record["analysis_utility"]["wage"]["regression"]["coefficients"]
    # the exact bucket statistics stay in the review record; the release holds the rounded
    # means, which one record cannot move by a whole step
    top = record["buckets"][-2] if record["buckets"][-1]["missing"] else record["buckets"][-1]
    assert top["sd"] and top["median"]
    values = set(read_release(target)["wage"])
    assert {b["representative"][0] for b in record["buckets"]} == values


def test_the_report_names_the_seed_and_says_it_is_not_for_publication(survey, tmp_path, capsys):
    _, path = survey
    target, report = tmp_path / "r.csv", tmp_path / "r.html"
    argv = ["anonymize", str(path), "-o", str(target), "--qi", ",".join(QI)]
    argv += ["--confidential", "wage", "--t", "2", "--k", "5", "--seed", str(SEED)]
    assert main([*argv, "--report", str(report), "--anonymous"]) == 0
    html = report.read_text(encoding="utf-8")
    assert str(SEED) in html and "not for publication" in html
    assert str(SEED) not in published_text(target)
    assert "input" not in published_documents(target)["sidecar"]  # anonymous
    err = capsys.readouterr().err
    assert f"the seed {SEED} is left out of the published files" in err and str(report) in err


def test_without_a_seed_the_published_files_say_nothing_of_the_randomness(survey, tmp_path):
    _, path = survey
    target = tmp_path / "r.csv"
    argv = ["anonymize", str(path), "-o", str(target), "--qi", ",".join(QI)]
    assert main([*argv, "--confidential", "wage", "--t", "2", "--k", "5"]) == 0
    sidecar = published_documents(target)["sidecar"]
    assert "seed_policy" not in sidecar and "seed" not in sidecar["parameters"]
    assert sidecar["input"] == "survey.csv"


def test_two_releases_differing_in_one_earner_do_not_give_the_wage_away(survey, tmp_path):
    """N·mean − (N − 1)·mean′ of the top bucket: exact before the rounding rule, now the
    earner's wage only to within the bucket's range."""
    data, _ = survey
    means = []
    for i, frame in enumerate((data, data[data["wage"] != EXTREME])):
        path = tmp_path / f"in{i}.csv"
        frame.to_csv(path, index=False)
        out = tmp_path / f"out{i}.csv"
        argv = ["anonymize", str(path), "-o", str(out), "--qi", ",".join(QI), "--confidential"]
        assert main([*argv, "wage", "--t", "2", "--k", "5", "--buckets", "3"]) == 0
        top = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["buckets"][-1]
        means.append((top["count"], top["representative"][0]))
    (n1, m1), (n0, m0) = means
    assert n1 == n0 + 1
    guess = n1 * m1 - n0 * m0
    assert abs(guess - EXTREME) > 0.05 * EXTREME  # exact (to the cent) before


def test_published_form_is_declared_for_every_summary_field():
    from dataclasses import fields

    from engine.io.about import PUBLIC_KEY
    from engine.mechanisms.response import CorrectedShares
    from engine.release import MissingCount, RunSummary
    from engine.release.model import BucketRow, ClassSizes, NoiseSummary

    for cls in (RunSummary, BucketRow, NoiseSummary, ClassSizes, MissingCount):
        undeclared = [f.name for f in fields(cls) if PUBLIC_KEY not in f.metadata]
        assert not undeclared, f"{cls.__name__}: say whether {undeclared} is published"
    # published whole (a mechanism's dataclass declares nothing): every field is computed from
    # the released answers and the public channel; a new one must be added to the checker
    # (tests/published.py corrected_shares) and here
    assert [f.name for f in fields(CorrectedShares)] == [
        "categories", "n", "released", "estimate", "standard_error",
    ]  # fmt: skip


def test_every_noise_detail_is_declared_published_or_review(released):
    """Every field of the noise fact says whether it is published; the review record holds
    them all, the published files only the public ones."""
    from dataclasses import fields

    from engine.io.about import PUBLIC_KEY
    from engine.release.model import NoiseColumn

    declared = {f.name: f.metadata.get(PUBLIC_KEY) for f in fields(NoiseColumn)}
    assert set(declared.values()) == {True, False}, "say whether each noise fact is published"
    public = {name for name, shown in declared.items() if shown}
    for name in ("laplace.xlsx", "laplace.csv", "response.csv", "gaps-noise.csv"):
        target, review, _ = released[name]
        record = json.loads(review.read_text(encoding="utf-8"))
        sidecar = published_documents(target).get("sidecar")
        for col, details in record["noise"]["columns"].items():
            assert set(details) == set(declared)
            if sidecar is not None:
                assert set(sidecar["noise"]["columns"][col]) == public
    assert {"noise_share", "keep_probability"} <= public
    assert {"mean_original", "share_changed", "typical_size"} <= set(declared) - public


def test_randomized_response_publishes_the_corrected_shares_a_reader_recomputes(released):
    target, review, _ = released["response.csv"]
    sidecar = published_documents(target)["sidecar"]
    shares = sidecar["noise"]["corrected_shares"]["health"]
    categories = sidecar["noise"]["columns"]["health"]["categories"]
    assert shares["categories"] == categories
    n, *rest = corrected_shares(read_release(target)["health"], 2.0, categories)
    m = len(categories)
    assert shares["n"] == n
    assert shares["released"] == pytest.approx(rest[:m], abs=1e-12)
    assert shares["estimate"] == pytest.approx(rest[m : 2 * m], abs=1e-9)
    assert shares["standard_error"] == pytest.approx(rest[2 * m :], abs=1e-9)
    # the corrected estimate is nearer the original shares than the released ones are
    truth = skewed_survey()["health"].value_counts(normalize=True).reindex(categories)
    released_error = np.abs(np.array(shares["released"]) - truth.to_numpy()).sum()
    corrected_error = np.abs(np.array(shares["estimate"]) - truth.to_numpy()).sum()
    assert corrected_error < released_error
    # what the draw changed stays in the review record
    assert "share_changed" not in sidecar["noise"]["columns"]["health"]
    record = json.loads(review.read_text(encoding="utf-8"))
    assert record["noise"]["columns"]["health"]["share_changed"] > 0


def test_missing_qi_values_publish_only_the_cells_released_empty(gappy, released):
    data, _ = gappy
    for name in GAPPY:
        target, review, _ = released[name]
        table = read_release(target)
        record = json.loads(review.read_text(encoding="utf-8"))["missing_qi"]
        assert set(record) == {"age", "region"}
        for col, counts in record.items():
            assert counts["input"] == data[col].isna().sum()
            assert counts["released"] == table[col].isna().sum() >= counts["input"]
        docs = published_documents(target)
        if "sidecar" in docs:
            published = docs["sidecar"]["missing_qi"]
            assert published == {c: {"released": int(table[c].isna().sum())} for c in record}
        else:
            rows = dict(about_rows(target))
            for col in record:
                assert rows[col] == f"{int(table[col].isna().sum())} released empty"
    # the noise route does hold known values back here: its count stays in the review record
    withheld = json.loads(released["gaps-noise.csv"][1].read_text(encoding="utf-8"))
    assert sum(c["withheld"] for c in withheld["missing_qi"].values()) > 0


def about_rows(target: Path) -> list[tuple[str, object]]:
    rows = published_documents(target)["About sheet"]
    return [(str(r[0]).strip(), r[1] if len(r) > 1 else None) for r in rows if r and r[0]]


#: the bucket mechanism's own settings and the noise mechanism's, as the About sheet names them
BUCKET_SETTINGS = tuple(
    field_label(name)
    for name in ("n_buckets", "utility_weight", "confidential_output", "missing_confidential")
)
NOISE_SETTINGS = tuple(
    field_label(name) for name in ("insensitive", "transform", "private_bounds", "resample_until_t")
)


def test_the_about_sheet_of_each_mechanism_holds_only_its_own_settings(released):
    noise = about_rows(released["laplace.xlsx"][0])
    labels = [label for label, _ in noise]
    assert not set(BUCKET_SETTINGS) & set(labels) and "seed" not in labels
    assert field_label("insensitive") in labels  # given (no): it applied
    mechanism = dict(noise)["mechanism"]
    assert "Laplace noise" in str(mechanism) and "randomized response" not in str(mechanism)
    # one t, with its meaning, and the same t as the guarantee states
    ts = [(label, value) for label, value in noise if label.startswith("t ")]
    assert len(ts) == 1 and "stochastic" in ts[0][0] and "Proposition 1" in ts[0][0]
    stated = [str(v) for label, v in noise if label.startswith("stochastic t-closeness")]
    assert stated and f"stochastically {ts[0][1]}-close" in stated[0]
    buckets = [label for label, _ in about_rows(released["mean.xlsx"][0])]
    assert not set(NOISE_SETTINGS) & set(buckets)
    assert field_label("confidential_output") in buckets and field_label("n_buckets") in buckets
    assert sum(label.startswith("t ") for label in buckets) == 1  # asked / achieved


def test_the_review_record_goes_through_the_checked_writer(survey, tmp_path, capsys):
    """Checked before the run like every output: never over the input, the release's own
    sidecar or a file tclose did not write; nothing is written when it is refused."""
    _, path = survey
    target = tmp_path / "r.csv"
    base = ["anonymize", str(path), "-o", str(target), "--qi", ",".join(QI), *BUCKETS]
    foreign = tmp_path / "notes.json"
    foreign.write_text('{"mine": 1}', encoding="utf-8")
    for review in (path, tmp_path / "r.json", foreign, tmp_path / "review.txt"):
        assert main([*base, "--review", str(review)]) == 2
        assert not target.exists()
    assert "review record" in capsys.readouterr().err
    assert foreign.read_text(encoding="utf-8") == '{"mine": 1}'


def test_the_plain_words_are_published_and_checked(released):
    """The summary's public phrases go out with every release (a section of the About sheet,
    ``in_words`` in the sidecar), so the checks above recompute their numbers too."""
    sheet = published_documents(released["mean.xlsx"][0])["About sheet"]
    at = next(i for i, row in enumerate(sheet) if row and row[0] == "In plain words")
    assert str(sheet[at + 1][1]).startswith("The ") and "groups hold at least 5" in sheet[at + 1][1]
    target = released["response.csv"][0]
    words = published_documents(target)["sidecar"]["in_words"]
    assert any("original shares are estimated" in w for w in words)
    assert [p for p in published_numbers(target) if ".in_words" in p.where]


def test_a_kept_column_is_a_key_and_the_release_says_what_it_costs():
    """A column released unchanged is a quasi-identifier to anyone who knows it (SPEC §1):
    the verifier measures k and t with it as a key, from the release alone; the run warns
    when they break, and the published metadata carries them."""
    from engine import anonymize
    from engine.release import group_ids

    rng = np.random.default_rng(4)
    n = 120
    data = pd.DataFrame(
        {
            "age": rng.integers(20, 70, n),
            "sex": rng.choice(["F", "M"], n),
            "income": rng.lognormal(10, 0.5, n).round(2),
            "height": rng.integers(150, 200, n),  # ~50 distinct values: a key
            "region": rng.choice(["N", "S"], n),  # two values: barely a key
        }
    )
    base = {"qi": ("age", "sex"), "confidential": ("income",), "k": 5, "t": 3.0, "seed": 0}
    tall = anonymize(data, ReleaseParams(**base, keep=("height",)))
    cells = group_ids(tall.table, ["age", "sex", "height"])
    assert tall.summary.kept.k == int(np.bincount(cells).min()) < 5
    assert any("('height') single people out" in w for w in tall.warnings)
    assert tall.summary.public_dict()["kept"]["k"] == tall.summary.kept.k
    assert tall.summary.k_achieved >= 5  # the QIs alone still hold k
    plain = anonymize(data, ReleaseParams(**base))
    assert plain.summary.kept is None and plain.summary.public_dict()["kept"] is None
