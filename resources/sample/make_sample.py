"""Regenerate ``sample-survey.xlsx``: 400 fictitious survey respondents.

Run ``python resources/sample/make_sample.py``.  The people are invented (seeded random
numbers), but the columns relate the way real ones do: income rises with age until
retirement and depends on occupation, children and retired people mostly earn nothing,
chronic conditions become likelier with age.  The sample has no missing incomes on purpose:
a missing confidential value forms a bucket of its own that every class must share, and a
rare one forces a few very large classes, which is the wrong first picture for a newcomer.
A newcomer can tag ``respondent_id`` as an identifier, age/sex/region/occupation as
quasi-identifiers and income/diagnosis as confidential.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from openpyxl import Workbook

N = 400
SEED = 20151120

REGIONS = ["North", "North-East", "East", "Capital", "South", "South-West", "West", "Islands"]
REGION_WEIGHTS = [0.12, 0.10, 0.14, 0.22, 0.15, 0.10, 0.12, 0.05]
OCCUPATIONS = {  # name: (relative pay, share among working-age people)
    "Manager": (2.1, 0.07),
    "Professional": (1.7, 0.18),
    "Technician": (1.3, 0.13),
    "Clerical support": (1.0, 0.10),
    "Service and sales": (0.8, 0.17),
    "Skilled agriculture": (0.7, 0.04),
    "Craft and trades": (1.0, 0.12),
    "Machine operator": (0.95, 0.08),
    "Elementary occupation": (0.65, 0.11),
}
DIAGNOSES = [
    "No condition",
    "Hypertension",
    "Type 2 diabetes",
    "Asthma",
    "Depression",
    "Back pain",
    "Heart disease",
    "Cancer",
]


def make_rows(rng: np.random.Generator) -> list[tuple]:
    rows = []
    occ_names = list(OCCUPATIONS)
    occ_p = np.array([OCCUPATIONS[o][1] for o in occ_names])
    occ_p /= occ_p.sum()
    for i in range(N):
        age = int(np.clip(rng.gamma(6.0, 7.5), 16, 94))
        sex = "F" if rng.random() < 0.51 else "M"
        region = rng.choice(REGIONS, p=REGION_WEIGHTS)
        if age < 18:
            occupation, pay = "Student", 0.0
        elif age >= 67:
            occupation, pay = "Retired", 0.45
        elif rng.random() < 0.08:
            occupation, pay = "Unemployed", 0.25
        else:
            occupation = rng.choice(occ_names, p=occ_p)
            pay = OCCUPATIONS[occupation][0]
        experience = 1.0 + 0.5 * np.tanh((min(age, 60) - 25) / 15)
        if pay == 0.0 or (occupation == "Retired" and rng.random() < 0.3):
            income = 0
        else:
            income = int(round(26000 * pay * experience * rng.lognormal(0, 0.35), -2))
        chronic = 1 / (1 + np.exp(-(age - 55) / 10))
        p = np.array(
            [
                1 - 0.8 * chronic,
                0.30 * chronic,
                0.18 * chronic,
                0.08,
                0.09,
                0.10,
                0.12 * chronic,
                0.06 * chronic,
            ]
        )
        diagnosis = rng.choice(DIAGNOSES, p=p / p.sum())
        rows.append(
            (
                f"R{10000 + i * 7 + int(rng.integers(0, 7))}",
                age,
                sex,
                str(region),
                str(occupation),
                income,
                str(diagnosis),
            )
        )
    return rows


def main(target: Path | None = None) -> Path:
    target = target or Path(__file__).with_name("sample-survey.xlsx")
    wb = Workbook()
    ws = wb.active
    ws.title = "Survey"
    ws.append(["respondent_id", "age", "sex", "region", "occupation", "income", "diagnosis"])
    for row in make_rows(np.random.default_rng(SEED)):
        ws.append(row)
    ws.freeze_panes = "A2"
    wb.save(target)
    return target


if __name__ == "__main__":
    print(main())
