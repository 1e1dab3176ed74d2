"""The release pictures: built from a release with known classes and buckets."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from engine.params import ReleaseParams
from engine.release import Buckets, Release, Verification
from engine.report import plots


def hand_built_release(t: float = 2.0, break_class: bool = False) -> Release:
    """Four classes of five over two income buckets, each class 3:2 or 2:3 (ratio 1.2, 0.8).

    With ``break_class`` the first class holds only low incomes (ratio 2 and 0): outside [1/t, t].
    """
    rng = np.random.default_rng(1)
    n = 20
    classes = np.repeat(np.arange(4), 5)
    codes = np.array([0, 0, 0, 1, 1] * 2 + [0, 0, 1, 1, 1] * 2)
    if break_class:
        codes[:5] = 0
        codes[10:15] = [0, 1, 1, 1, 1]
        codes[5:10] = [0, 0, 1, 1, 1]
    income = np.where(codes == 0, rng.uniform(0, 30_000, n), rng.uniform(30_000, 90_000, n))
    age = rng.integers(18, 90, n)
    sex = np.array(["F", "M"] * 10)
    data = pd.DataFrame({"age": age, "sex": sex, "income": income})
    centroid = pd.Series(age).groupby(classes).transform("mean").to_numpy()
    labels = ["[0, 30000)", "[30000, 90000]"]
    table = pd.DataFrame(
        {"age": centroid, "sex": ["F"] * n, "income": np.array(labels, dtype=object)[codes]}
    )
    counts = np.bincount(codes, minlength=2)
    buckets = Buckets(
        labels=labels,
        codes=codes,
        counts=counts,
        bounds=[(0.0, 30_000.0), (30_000.0, 90_000.0)],
        representatives=[(15_000.0,), (60_000.0,)],
    )
    config = ReleaseParams(qi=("age", "sex"), confidential=("income",), k=5, t=t)
    verification = Verification(
        k=5, t=1.2, n_records=n, n_classes=4, class_sizes=np.full(4, 5), ok=True, message="ok"
    )
    return Release(table, config, {}, verification, classes, data, buckets)


def png_bytes(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def test_closeness_matrix_has_the_known_ratios() -> None:
    ratio, sizes = plots.closeness_matrix(hand_built_release())
    # overall shares are 10/20 each; classes hold 3/5 or 2/5 of each bucket
    assert sorted(np.round(ratio[:, 0], 6)) == [0.8, 0.8, 1.2, 1.2]
    assert np.allclose(ratio.sum(axis=1) * 0.5, 1.0)
    assert sizes.tolist() == [5, 5, 5, 5]


def test_heatmap_says_whether_cells_leave_the_band() -> None:
    good = plots.closeness_heatmap(hand_built_release())
    assert "every cell inside the band" in good.axes[0].get_xlabel()
    bad = plots.closeness_heatmap(hand_built_release(t=1.5, break_class=True))
    assert "cells outside the band" in bad.axes[0].get_xlabel()
    assert "[0.667, 1.5]" in bad.axes[0].get_title()


def test_bucket_histogram_draws_the_boundary() -> None:
    fig = plots.bucket_histogram(hand_built_release())
    ax = fig.axes[0]
    dashed = [line.get_xdata()[0] for line in ax.get_lines()]
    assert dashed == [30_000.0]
    assert sum(p.get_height() for p in ax.patches) == 20


def test_class_sizes_and_before_after() -> None:
    release = hand_built_release()
    sizes = plots.class_size_histogram(release)
    assert [p.get_height() for p in sizes.axes[0].patches] == [4]
    numeric = plots.qi_before_after(release, "age")
    heights = [p.get_height() for p in numeric.axes[0].patches]
    assert sum(heights) == 40  # 20 records before, 20 after
    nominal = plots.qi_before_after(release, "sex")
    bars = {p.get_x(): p.get_height() for p in nominal.axes[0].patches}
    assert sorted(bars.values()) == [0, 10, 10, 20]


@pytest.mark.parametrize(
    "build",
    [
        plots.bucket_histogram,
        plots.class_size_histogram,
        plots.closeness_heatmap,
        lambda r: plots.qi_before_after(r, "sex"),
    ],
)
def test_every_figure_renders_to_png(build) -> None:
    data = png_bytes(build(hand_built_release()))
    assert data.startswith(b"\x89PNG") and len(data) > 5_000


def test_class_sizes_are_the_released_classes() -> None:
    """Two formed groups with equal released QI values are one released class of 10."""
    release = hand_built_release()
    release.verification.class_sizes = np.array([10, 10])
    fig = plots.class_size_histogram(release)
    bars = fig.axes[0].patches
    assert [(p.get_x() + p.get_width() / 2, p.get_height()) for p in bars] == [(10, 2)]
    assert "2 classes" in fig.axes[0].get_title()
