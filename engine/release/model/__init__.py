"""The objects of a release and of its account, with their plain words (the lowest layer).

Plain dataclasses and the functions that describe them; nothing here computes a release:

* :mod:`~engine.release.model.release`: :class:`Release` (what a run returns) and
  :class:`Verification` (the independent check of the released table);
* :mod:`~engine.release.model.buckets`: :class:`Buckets`, :class:`BucketStat`,
  :class:`BucketRow`, :data:`P_RULE` and :data:`MIN_BUCKET`;
* :mod:`~engine.release.model.summary`: :class:`RunSummary`, the one typed account of a run,
  and its parts (class sizes, missing values, information loss, noise, utility, households,
  :class:`RiskSummary`);
* :mod:`~engine.release.model.published`: the :data:`PUBLIC` / :data:`REVIEW` markers of what
  is published with a release, :func:`published` and :func:`json_ready`;
* :mod:`~engine.release.model.words`: the plan's and the summary's plain words
  (:class:`Phrase`; the public ones are published).
"""

from engine.release.model.buckets import (
    MIN_BUCKET,
    P_RULE,
    BucketRow,
    Buckets,
    BucketStat,
    bucket_rows,
)
from engine.release.model.published import json_ready
from engine.release.model.release import Release, Verification
from engine.release.model.summary import (
    ClassSizes,
    Coefficient,
    ColumnUtility,
    Correlation,
    HouseholdSummary,
    InformationLoss,
    KeptSummary,
    MissingCount,
    NoiseColumn,
    NoiseSummary,
    Regression,
    RiskComparison,
    RiskSummary,
    RunSummary,
    WeightSummary,
    applied_parameters,
)
from engine.release.model.words import (
    CONTEXT,
    Phrase,
    corrected_phrase,
    declared_public,
    join,
    plan_words,
    public_words,
    shares_text,
    summary_words,
)

__all__ = [
    "CONTEXT",
    "MIN_BUCKET",
    "P_RULE",
    "BucketRow",
    "BucketStat",
    "Buckets",
    "ClassSizes",
    "Coefficient",
    "ColumnUtility",
    "Correlation",
    "HouseholdSummary",
    "InformationLoss",
    "KeptSummary",
    "MissingCount",
    "NoiseColumn",
    "NoiseSummary",
    "Phrase",
    "Regression",
    "Release",
    "RiskComparison",
    "RiskSummary",
    "RunSummary",
    "Verification",
    "WeightSummary",
    "applied_parameters",
    "bucket_rows",
    "corrected_phrase",
    "declared_public",
    "join",
    "json_ready",
    "plan_words",
    "public_words",
    "shares_text",
    "summary_words",
]
