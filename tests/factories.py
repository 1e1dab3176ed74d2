"""Hand-built releases for tests of what reads a release (report, plots, risk, GUI panels)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.params import ReleaseParams
from engine.release import Buckets, InformationLoss, RunSummary, Verification
from engine.release.model import ClassSizes
from engine.release.stages import release_guarantees
from engine.text import seed_text

#: the keys every run summary's JSON (``summary.to_dict()``, ``--summary``) promises its
#: readers, the same for both mechanisms
SUMMARY_KEYS = (
    "parameters", "mechanism", "n_records", "n_released", "k_achieved", "t", "t_kind",
    "t_achieved", "epsilon", "guarantees", "n_classes", "class_sizes", "buckets",
    "information_loss", "noise", "seed_policy", "verification", "warnings", "seconds",
)  # fmt: skip

#: the quasi-identifiers of the adult data set's published t-closeness examples
ADULT_QI = ("age", "sex", "race", "marital-status", "education")


def disease_buckets(codes: np.ndarray) -> Buckets:
    """The buckets of a toy nominal column (0 flu, 1 cold, 2 cancer), one value a bucket."""
    return Buckets(
        labels=["{flu}", "{cold}", "{cancer}"],
        codes=codes,
        counts=np.bincount(codes),
        bounds=[{"flu"}, {"cold"}, {"cancer"}],
        representatives=[("flu",), ("cold",), ("cancer",)],
    )


def laplace_params(
    qi: tuple[str, ...], confidential: tuple[str, ...], **fields: Any
) -> ReleaseParams:
    """Noise-route parameters: Laplace, k = 5 and ε = 1 unless ``fields`` say otherwise.

    Most noise tests share this set-up; written once, each test shows only what it is about
    (its bounds, its ε, its seed).
    """
    values: dict[str, Any] = {"k": 5, "epsilon": 1.0, "mechanism": "laplace", **fields}
    return ReleaseParams(qi=qi, confidential=confidential, **values)


def summary_for(params: ReleaseParams, verification: Verification, **fields: Any) -> RunSummary:
    """A plausible :class:`RunSummary` of a hand-built release; ``fields`` override any field."""
    sizes = np.asarray(verification.class_sizes)
    values: dict[str, Any] = {
        "params": params,
        "software": "tclose test",
        "mechanism": params.mechanism,
        "n_records": int(verification.n_records),
        "n_released": int(verification.n_records),
        "k_achieved": int(verification.k),
        "t": params.bucket_t,
        "t_kind": "asked",
        "t_achieved": verification.t,
        "epsilon": params.epsilon,
        "epsilon_from": "given" if params.epsilon is not None else "t",
        "epsilon_achieved": None,
        "guarantees": tuple(
            release_guarantees(
                params,
                int(verification.n_records),
                class_sizes=sizes,
                achieved_t=verification.t,
            )
        ),
        "n_classes": int(verification.n_classes),
        "n_partition_classes": int(verification.n_classes),
        "class_sizes": ClassSizes.of(sizes),
        "buckets": (),
        "information_loss": InformationLoss(None, None),
        "noise": None,
        "worst_class": None,
        "worst_bucket": None,
        "seed_policy": seed_text(params.seed, noise=params.noise),
        "column_types": {},
        "verification": verification.message,
    }
    values.update(fields)
    return RunSummary(**values)


def toy_partition_input(n: int, n_buckets: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """QIs (a normal, a skewed and a three-valued column, standardized) and buckets related
    to the first of them, so that classes must mix regions of the space."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=n), rng.gamma(2.0, size=n), rng.integers(0, 3, n)])
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    codes = np.digitize(X[:, 0] + rng.normal(scale=0.7, size=n), [-0.8, 0.0, 0.8])
    return X, np.minimum(codes, n_buckets - 1)
