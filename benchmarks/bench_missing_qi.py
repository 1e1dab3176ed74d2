"""Missing quasi-identifier values: how many are missing, released empty and withheld.

    TCLOSE_DATA=/path/to/data python -m benchmarks.bench_missing_qi

On the ACS sample (QIs Age, Sex, Education, Workclass, Military service; confidential Income
with -10000 "not applicable" as its missing code; t = 2, k = 5), with the records of missing
Income kept as a bucket of their own (the default) and left out (``drop``): per QI the values
missing in the input, released empty and withheld
(:mod:`engine.release.columns.missing_qi`), counted on the released table, with the seconds
of the whole run and the verifier's k and t.
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from benchmarks.data import absent, real_data
from engine import ReleaseParams, anonymize, verify_release

QI = ("Age", "Sex", "Education", "Workclass", "Military service")


def main() -> int:
    path = real_data("acs-census-sample.csv")
    if path is None:
        print(absent("acs-census-sample.csv", "the ACS case"))
        return 0
    data = pd.read_csv(path, sep=";", low_memory=False)
    print(f"{'missing Income':<16} {'QI':<18} {'input':>8} {'released':>9} {'withheld':>9}")
    for how in ("bucket", "drop"):
        params = ReleaseParams(
            qi=QI,
            confidential=("Income",),
            k=5,
            t=2.0,
            column_missing={"Income": ("-10000",)},
            missing_confidential=how,
        )
        started = time.process_time()
        release = anonymize(data, params)
        seconds = time.process_time() - started
        check = verify_release(release.table, QI, ["Income"], t=2.0, k=5)
        for col, count in release.summary.missing_qi.items():
            assert int(release.table[col].isna().sum()) == count.released
            print(
                f"{how:<16} {col:<18} {count.input:>8,} {count.released:>9,} {count.withheld:>9,}"
            )
        print(f"{how:<16} verified k = {check.k}, t = {check.t:.3f}; {seconds:.1f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
