"""Make the small labelled SPSS and Stata files of ``tests/data`` (run from the repository:
``python -m tests.labelled_fixtures``).

A synthetic household-survey extract with the labels an agency's file carries: variable
labels, value labels (sex, five regions), a user-missing income code (−9 = "Refused"),
measurement levels, a file label and a note.  Seeded, so the files are the same each time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).parent / "data"
N = 400
SEED = 20241
REGIONS = {1: "North", 2: "South", 3: "East", 4: "West", 5: "Centre"}
LABELS = {
    "age": "Age in completed years",
    "sex": "Sex of the respondent",
    "region": "Region of residence",
    "income": "Monthly income from work",
}
VALUE_LABELS = {
    "sex": {1: "Male", 2: "Female"},
    "region": REGIONS,
    "income": {-9: "Refused"},
}


def survey() -> pd.DataFrame:
    rng = np.random.default_rng(SEED)
    age = rng.integers(15, 90, N)
    sex = rng.integers(1, 3, N)
    region = rng.choice(list(REGIONS), N, p=[0.3, 0.25, 0.2, 0.15, 0.1])
    income = np.round(np.exp(6.5 + 0.01 * (age - 15) + 0.2 * (sex == 1) + rng.normal(0, 0.5, N)))
    income[rng.random(N) < 0.05] = -9
    return pd.DataFrame({"age": age, "sex": sex, "region": region, "income": income}).astype(float)


def write(folder: Path = DATA) -> tuple[Path, Path]:
    import pyreadstat

    data = survey()
    sav, dta = folder / "labelled-survey.sav", folder / "labelled-survey.dta"
    pyreadstat.write_sav(
        data, str(sav), file_label="Labour survey extract (synthetic)",
        column_labels=LABELS, note="Synthetic test file of tclose.",
        variable_value_labels=VALUE_LABELS, missing_ranges={"income": [-9]},
        variable_measure={"age": "scale", "sex": "nominal", "region": "nominal",
                          "income": "scale"},
    )  # fmt: skip
    ints = data.astype({"sex": "int32", "region": "int32"})
    pyreadstat.write_dta(
        ints, str(dta), file_label="Labour survey extract (synthetic)", column_labels=LABELS,
        variable_value_labels={k: v for k, v in VALUE_LABELS.items() if k != "income"},
    )  # fmt: skip
    return sav, dta


if __name__ == "__main__":
    print(*write(), sep="\n")
