"""Shared test set-up: offscreen Qt, hypothesis profiles, paths to the real data sets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Qt must never look for a display, in CI or on a developer's machine.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")

# "ci" is derandomized so that a red run is reproducible; CI sets CI=true.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=60,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def project_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data sets beside the project (``../shared/data``)."""
    if not SHARED_DATA.is_dir():
        pytest.fail(f"the shared data sets are missing: expected them in {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def sample_workbook() -> Path:
    from resources import SAMPLE_WORKBOOK

    return SAMPLE_WORKBOOK
