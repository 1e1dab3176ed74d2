"""The privacy–utility sweep: grid checks, infeasible points as rows, the plot, the CLI."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from engine.cli import main
from engine.errors import InputError
from engine.sweep import COLUMNS, pick_point, sweep_figure, sweep_grid


def test_grid_is_sorted_and_deduplicated() -> None:
    grid = sweep_grid(ts=[3, 1.5, 3, 2], ks=[10, 5])
    assert grid == [("t", t, k) for k in (5, 10) for t in (1.5, 2.0, 3.0)]
    assert sweep_grid(epsilons=[1, 0.1], ks=[5])[0] == ("epsilon", 0.1, 5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ks": [5]}, "as t values or as ε values"),
        ({"ts": [2], "epsilons": [1], "ks": [5]}, "as t values or as ε values"),
        ({"ts": [0.5], "ks": [5]}, r"t of the sweep must be a number ≥ 1"),
        ({"epsilons": [0], "ks": [5]}, r"ε of the sweep must be a number > 0"),
        ({"ts": [2], "ks": []}, "whole numbers ≥ 1"),
        ({"ts": [2], "ks": [0]}, "whole numbers ≥ 1"),
        ({"ts": [float("nan")], "ks": [5]}, "must be a number"),
    ],
)
def test_bad_grids_are_clear_errors(kwargs, message) -> None:
    with pytest.raises(InputError, match=message):
        sweep_grid(**kwargs)


def _table() -> pd.DataFrame:
    rows = []
    for k, base in ((5, 0.1), (10, 0.2)):
        for t in (1.5, 2.0, 3.0):
            feasible = not (k == 10 and t == 1.5)
            rows.append(
                {
                    "t": t,
                    "epsilon": 2 * math.log(t),
                    "k": k,
                    "feasible": feasible,
                    "qi_sse_sst": base / t if feasible else math.nan,
                    "confidential_sse_sst": 0.01,
                    "message": "" if feasible else "infeasible",
                }
            )
    table = pd.DataFrame(rows).reindex(columns=list(COLUMNS))
    table.attrs["level"] = "t"
    return table


def test_figure_has_one_curve_per_k_and_marks_infeasible_points() -> None:
    fig = sweep_figure(_table(), highlight=(2.0, 10))
    ax = fig.axes[0]
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels.count("k = 5") == 1 and labels.count("k = 10") == 1
    assert "chosen" in labels
    crosses = [line for line in ax.get_lines() if line.get_marker() == "x"]
    assert len(crosses) == 1 and list(crosses[0].get_xdata()) == [1.5]
    assert "infeasible" in ax.get_title()
    eps_fig = sweep_figure(_table(), level="epsilon")
    assert eps_fig.axes[0].get_xscale() == "log"


def test_pick_point() -> None:
    row = pick_point(_table(), "t", 2.0, 10)
    assert row["qi_sse_sst"] == pytest.approx(0.1)
    with pytest.raises(InputError, match="no point t = 7"):
        pick_point(_table(), "t", 7, 10)


def test_cli_rejects_bad_flags(tmp_path, capsys) -> None:
    data = tmp_path / "d.csv"
    data.write_text("a,b\n1,2\n", encoding="utf-8")
    out = tmp_path / "s.csv"
    base = ["sweep", str(data), "--qi", "a", "--confidential", "b", "-o", str(out)]
    assert main([*base, "--t", "2,x", "--k", "5"]) == 2
    assert "--t takes numbers" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:  # argparse: one line, exit code 2
        main([*base, "--t", "2", "--epsilon", "1", "--k", "5"])
    assert exit_info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err
    assert main([*base[:-1], str(tmp_path / "s.txt"), "--t", "2", "--k", "5"]) == 2
    assert "CSV" in capsys.readouterr().err
    assert not out.exists()


def test_columns_contract() -> None:
    required = {"t", "epsilon", "k", "qi_sse_sst", "confidential_sse_sst", "feasible"}
    assert required <= set(COLUMNS)
    assert np.isclose(_table()["epsilon"].iloc[1], 2 * math.log(2))
