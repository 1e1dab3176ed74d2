"""Import and export speed: calamine against openpyxl on a large sheet, and a large CSV.

Run from the project root::

    python benchmarks/bench_io.py                 # 200,000-row xlsx, 1,000,000-row CSV
    python benchmarks/bench_io.py --xlsx-rows 20000 --csv-rows 100000   # a quick look

The test files are generated in a temporary folder (seeded, 7 columns: integers, decimals,
categories and a date-free mix typical of survey microdata) and deleted afterwards.  Each
step runs once: the figures are wall-clock seconds on this machine, not a statistic.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from openpyxl import Workbook

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.io import read_table, write_release


def make_table(n_rows: int, seed: int = 0) -> pd.DataFrame:
    """Seven columns like a survey extract: ids, ages, weights, incomes, three categories."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "id": np.arange(1, n_rows + 1),
            "age": rng.integers(16, 95, n_rows),
            "weight": rng.gamma(2.0, 50.0, n_rows).round(3),
            "income": rng.lognormal(10, 1, n_rows).round(2),
            "sex": rng.choice(["Female", "Male"], n_rows),
            "region": rng.choice(["North", "South", "East", "West", "Capital"], n_rows),
            "education": rng.choice(["Primary", "Secondary", "Tertiary"], n_rows),
        }
    )


def write_xlsx_openpyxl(table: pd.DataFrame, path: Path) -> None:
    """A plain workbook as Excel users produce it (written with openpyxl, streaming)."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Data")
    sheet.append(list(table.columns))
    for row in table.itertuples(index=False):
        sheet.append([v.item() if isinstance(v, np.generic) else v for v in row])
    book.save(path)


def timed(label: str, func, results: list[tuple[str, float, str]], detail: str = "") -> object:
    start = time.perf_counter()
    value = func()
    seconds = time.perf_counter() - start
    results.append((label, seconds, detail))
    print(f"  {label}: {seconds:.2f} s", flush=True)
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--xlsx-rows", type=int, default=200_000)
    parser.add_argument("--csv-rows", type=int, default=1_000_000)
    parser.add_argument("--skip-openpyxl", action="store_true", help="calamine only")
    args = parser.parse_args(argv)

    results: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        print(f"Generating a {args.xlsx_rows:,}-row × 7-column xlsx ...", flush=True)
        table = make_table(args.xlsx_rows)
        xlsx = tmp / "big.xlsx"
        write_xlsx_openpyxl(table, xlsx)
        size = xlsx.stat().st_size / 1e6
        detail = f"{args.xlsx_rows:,} × 7, {size:.1f} MB"

        imported = timed("xlsx import, read_table (calamine)", lambda: read_table(xlsx),
                         results, detail)  # fmt: skip
        assert imported.data.shape == table.shape
        pd.testing.assert_frame_equal(imported.data, table, check_dtype=False)
        if not args.skip_openpyxl:
            timed(
                "xlsx import, pandas.read_excel (openpyxl)",
                lambda: pd.read_excel(xlsx, engine="openpyxl"),
                results,
                detail,
            )
            timed(
                "xlsx import, pandas.read_excel (calamine)",
                lambda: pd.read_excel(xlsx, engine="calamine"),
                results,
                detail,
            )
        timed("xlsx export, write_release", lambda: write_release(table, tmp / "out.xlsx"),
              results, detail)  # fmt: skip

        print(f"Generating a {args.csv_rows:,}-row × 7-column CSV ...", flush=True)
        big = make_table(args.csv_rows, seed=1)
        csv_path = tmp / "big.csv"
        big.to_csv(csv_path, index=False, sep=";")
        detail = f"{args.csv_rows:,} × 7, {csv_path.stat().st_size / 1e6:.1f} MB"
        imported = timed("CSV import, read_table (sniffed)", lambda: read_table(csv_path),
                         results, detail)  # fmt: skip
        assert imported.data.shape == big.shape
        timed(
            "CSV import, pandas.read_csv (C engine, for reference)",
            lambda: pd.read_csv(csv_path, sep=";", keep_default_na=False),
            results,
            detail,
        )
        timed("CSV export, write_release (+ JSON sidecar)",
              lambda: write_release(big, tmp / "out.csv"), results, detail)  # fmt: skip

    width = max(len(r[0]) for r in results)
    print()
    print(f"{'step':<{width}}  {'seconds':>8}  file")
    print(f"{'-' * width}  {'-' * 8}  {'-' * 24}")
    for label, seconds, detail in results:
        print(f"{label:<{width}}  {seconds:>8.2f}  {detail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
