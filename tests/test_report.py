"""The release report: self-contained HTML whose numbers and images are the release's."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from engine import Task
from engine.errors import InputError
from engine.params import ReleaseParams
from engine.release import InformationLoss, Release, Verification
from engine.report.html import ReportFigure, figure_png, render_report, write_report
from engine.report.sweep import sweep_figure
from tests.factories import ADULT_QI, disease_buckets, summary_for

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IMG = re.compile(r'<img alt="([^"]*)" src="data:image/png;base64,([A-Za-z0-9+/=]+)">')


def decoded_images(html: str) -> list[tuple[str, np.ndarray]]:
    """Every embedded image: base64 → PNG signature → pixels (matplotlib's PNG reader)."""
    from matplotlib.image import imread

    out = []
    for alt, data in IMG.findall(html):
        raw = base64.b64decode(data, validate=True)
        assert raw.startswith(PNG_SIGNATURE), alt
        pixels = imread(io.BytesIO(raw), format="png")
        assert pixels.ndim == 3 and pixels.shape[0] > 50 and pixels.shape[1] > 50, alt
        out.append((alt, pixels))
    return out


def assert_self_contained(html: str) -> None:
    """Nothing is fetched from anywhere: no links, scripts or remote images."""
    assert "<script" not in html.lower()
    assert "<link" not in html.lower()
    assert not re.search(r'src="(?!data:)', html)
    assert not re.search(r"url\((?!data:)", html)


def hand_release(qi_name: str = "age") -> Release:
    """Ten records in two classes of five; a 3-bucket nominal confidential column."""
    data = pd.DataFrame(
        {
            qi_name: [30, 40, 40, 50, 50, 50, 60, 60, 60, 60],
            "disease": ["flu", "flu", "cold", "flu", "flu", "cold"] + ["cancer"] * 4,
        }
    )
    cfg = ReleaseParams(qi=(qi_name,), confidential=("disease",), k=5, t=2.0, seed=7)
    codes = data["disease"].map({"flu": 0, "cold": 1, "cancer": 2}).to_numpy(np.int64)
    table = pd.DataFrame(
        {
            qi_name: [42.0] * 5 + [58.0] * 5,
            "disease": ["{flu}"] * 4 + ["{cold}", "{cold}"] + ["{cancer}"] * 4,
        }
    )
    verification = Verification(
        k=5,
        t=1.25,
        n_records=10,
        n_classes=2,
        class_sizes=np.array([5, 5]),
        ok=True,
        message="k = 5 and t = 1.25 hold.",
    )
    return Release(
        table=table,
        params=cfg,
        summary=summary_for(
            cfg,
            verification,
            information_loss=InformationLoss(qi_sse_sst=0.125, confidential_sse_sst=0.5),
        ),
        verification=verification,
        classes=np.repeat([0, 1], 5),
        data=data,
        buckets=disease_buckets(codes),
    )


@pytest.fixture(scope="module")
def one_figure() -> ReportFigure:
    table = pd.DataFrame(
        {
            "t": [2.0, 3.0],
            "epsilon": [1.39, 2.2],
            "k": [5, 5],
            "feasible": [True, True],
            "qi_sse_sst": [0.2, 0.1],
            "confidential_sse_sst": [0.1, 0.1],
        }
    )
    return ReportFigure("Sweep", figure_png(sweep_figure(table)), "a test figure")


def test_hand_release_report_sections_and_numbers(one_figure: ReportFigure) -> None:
    html = render_report(hand_release(), figures=[one_figure])
    assert_self_contained(html)
    for heading in (
        "Data set",
        "Parameters and mechanism",
        "Guarantees achieved",
        "Confidential buckets",
        "Equivalence classes",
        "Plots",
        "Information loss",
        "Disclosure risk before and after",
        "Reproducibility",
    ):
        assert f". {heading}</h2>" in html, heading
    assert "achieved k = 5, t = 1.25" in html
    # ε = 2 ln 1.25 = 0.446 under the stated assumption
    assert "ε = 0.446" in html and "Assumption:" in html
    assert "prior" in html  # the assumption in words
    assert "12.5 %" in html  # QI information loss from the summary
    assert "Fixed seed 7" in html and "confidential as the data" in html
    assert "@media print" in html and "@page" in html
    assert len(decoded_images(html)) == 1
    # it shows the original file's distributions: it says, before anything else, not to publish it
    banner = html.index("not for publication")
    assert banner < html.index("Independent check") < html.index(". Data set</h2>")


def test_risk_table_shows_before_and_after() -> None:
    html = render_report(hand_release(), figures=[])
    risk = html[html.index("Disclosure risk before and after") :]
    # before: age 30 is unique (1 of 10 records); after: two classes of five
    row = re.search(r"records unique on their QI values</td>(.*?)</tr>", risk).group(1)
    assert "1 (10.0 %)" in row and "0 (0.0 %)" in row


def test_user_text_is_escaped() -> None:
    html = render_report(hand_release(qi_name="<b>age</b>"), figures=[])
    assert "<b>age</b>" not in html
    assert "&lt;b&gt;age&lt;/b&gt;" in html


def test_broken_figure_is_reported_not_fatal() -> None:
    html = render_report(hand_release(), figures=[ReportFigure("Bad", b"", "could not be drawn")])
    assert "could not be drawn" in html and not decoded_images(html)


def test_write_report_needs_html_suffix(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="HTML"):
        write_report(hand_release(), tmp_path / "report.pdf")


@pytest.fixture(scope="module")
def adult_report(unpacked, tmp_path_factory) -> tuple[Release, str, Path]:
    """adult.csv at t = 2, k = 10 (the issue's example), its report written to disk."""
    from engine.io import read_table
    from engine.release import anonymize

    imported = read_table(unpacked("adult.csv.gz"))
    config = ReleaseParams(qi=ADULT_QI, confidential=("salary-class",), k=10, t=2.0, seed=11)
    release = anonymize(imported.data, config)
    path = write_report(
        release, tmp_path_factory.mktemp("report") / "adult.html", input_info=imported.info
    )
    return release, path.read_text(encoding="utf-8"), unpacked("adult.csv.gz")


def test_adult_report_states_achieved_k_and_t(adult_report) -> None:
    release, html, source = adult_report
    ver = release.verification
    assert ver.ok and ver.k >= 10 and ver.t is not None and 1 <= ver.t <= 2
    assert f"achieved k = {ver.k:,}, t = {ver.t:.4g}." in html
    assert f't-closeness <span class="vals">(t = {ver.t:.4g})</span>' in html
    assert "Release report — adult.csv" in html
    assert "The other 3 columns of the file were not tagged and not released." in html
    import hashlib

    assert hashlib.sha256(source.read_bytes()).hexdigest() in html
    assert_self_contained(html)


def test_adult_report_images_decode(adult_report) -> None:
    release, html, _ = adult_report
    images = decoded_images(html)
    # buckets, class sizes, closeness heat map, and one before/after plot per QI
    assert len(images) == 3 + len(release.params.qi)
    titles = [alt for alt, _ in images]
    assert "Closeness of every class" in titles
    assert "could not be drawn" not in html


def test_adult_report_risk_matches_the_risk_module(adult_report) -> None:
    from engine.report.risk import release_risk

    release, html, _ = adult_report
    risk = release_risk(release)
    before, after = risk["before"], risk["after"]
    assert before.n_unique > 1000 and after.n_unique == 0  # adult has many QI uniques
    assert f"{before.n_unique:,} ({100 * before.share_unique:.1f} %)" in html
    assert after.max_risk <= 1 / release.verification.k
    # attribute disclosure stays within t of the prior (t-closeness, KBS 2015 Definition 4)
    assert after.max_attribute_share <= release.verification.t * after.prior_max_share + 1e-9


def test_write_report_beside_the_release_with_progress(tmp_path: Path) -> None:
    from engine.errors import CancelledError
    from engine.report.html import report_path

    target = report_path(tmp_path / "release.xlsx")
    assert target == tmp_path / "release-report.html"
    seen: list[float] = []
    write_report(hand_release(), target, task=Task(lambda f, m: seen.append(f)))
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert len(decoded_images(target.read_text(encoding="utf-8"))) == 4  # 3 + one QI
    again = tmp_path / "cancelled.html"
    with pytest.raises(CancelledError):
        write_report(hand_release(), again, task=Task(cancel=lambda: True))
    assert not again.exists()


def test_the_identifier_is_listed_as_tagged_not_as_untagged(tmp_path) -> None:
    """The identifiers are dropped before the release is made, but the user tagged them: the
    roles table names them, and the count of untagged columns leaves them out."""
    from engine.io import ImportInfo
    from engine.release import anonymize

    rng = np.random.default_rng(8)
    data = pd.DataFrame(
        {
            "person": [f"P{i:04d}" for i in range(120)],
            "age": rng.integers(20, 70, 120),
            "income": rng.lognormal(10, 0.5, 120).round(0),
            "notes": ["x"] * 120,
        }
    )
    params = ReleaseParams(qi=("age",), confidential=("income",), identifiers=("person",), k=5,
                           t=3.0, seed=1)  # fmt: skip
    release = anonymize(data, params)
    info = ImportInfo(tmp_path / "survey.csv", "csv", n_rows=120, n_columns=4)
    html = write_report(release, tmp_path / "r.html", input_info=info).read_text(encoding="utf-8")
    assert "<code>person</code></td><td>identifier — not released" in html
    assert "The other 1 column of the file was not tagged and not released." in html
