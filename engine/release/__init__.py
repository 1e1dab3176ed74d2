"""Making a release: everything between the cleaned input and the verified release table.

The confidential buckets (KBS 2015 §6.1), the feasibility arithmetic, the t-close partition
(exact, in blocks, or by households), k-anonymous microaggregation and its improvement pass,
the recoding of the released columns, the noise route (Construction B), the plan that says what
a run will do before it runs, the measures a run reports and the independent check.

This module is the one door: every other part of tclose (the command line, the cluster, the
report, project files, the app through :mod:`engine`, the benchmarks) imports from
``engine.release`` and never from a part below it (an import-linter contract in
``pyproject.toml`` enforces it).  The names are loaded on first use (PEP 562), so importing
this package costs nothing; the compiled kernels (numba) load only when a large file needs
them.

The parts, top layer first; each imports only from the layers below it (``|``: neither imports
the other), which a second contract enforces:

* :mod:`~engine.release.stages`: the pipeline: prepare → plan → anonymize (the bucket route) or
  the noise route → tail (build, verify and measure the table), the survey checks, the
  summary and the guarantees;
* :mod:`~engine.release.households` | :mod:`~engine.release.noise`: survey files (households,
  the classes that respect them, sampling weights) | each column's share of the noise and
  its draws;
* :mod:`~engine.release.buckets`: the confidential buckets, their labels and the search of b;
* :mod:`~engine.release.measures`: information loss, analysis utility, disclosure risk;
* :mod:`~engine.release.columns`: a column's encoding, public labels, missing QI values, the
  released columns;
* :mod:`~engine.release.partition` | :mod:`~engine.release.verify`: the classes' arithmetic
  and partitions on arrays | the independent check of a released table;
* :mod:`~engine.release.model`: the release, its buckets and run summary as dataclasses, what
  is published of them, and their plain words.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.release.buckets import (
        MEAN_SLACK,
        BucketChoice,
        BucketInput,
        BucketValues,
        ConfidentialValues,
        Scale,
        bucket_count,
        ladder,
        make_buckets,
        paper_bucket_count,
        search_sample,
        split_sorted,
    )
    from engine.release.columns import (
        build_release,
        category_order,
        decimals,
        encode_qi,
        inner_range,
        missing_counts,
        numeric_values,
        ordinal_ranks,
        recode_qi,
        release_confidential,
        resolve_columns,
    )
    from engine.release.households import (
        Households,
        check_households,
        clashing_ids,
        find_households,
        household_codes,
        household_partition,
        merge_for_households,
        separate_members,
        survey_columns,
    )
    from engine.release.measures import (
        DEFAULT_THRESHOLD,
        QiSums,
        class_ids,
        compare_risk,
        confidential_loss,
        disclosure_risk,
        sse_sst,
        table_risk,
    )
    from engine.release.model import (
        CONTEXT,
        P_RULE,
        Buckets,
        HouseholdSummary,
        InformationLoss,
        MissingCount,
        Phrase,
        Release,
        RiskSummary,
        RunSummary,
        Verification,
        applied_parameters,
        corrected_phrase,
        declared_public,
        join,
        plan_words,
        public_words,
        shares_text,
        summary_words,
    )
    from engine.release.noise import BoundsRequiredError
    from engine.release.partition import (
        DEFAULT_BLOCK_SIZE,
        LARGE_FILE,
        block_size,
        check_feasible,
        default_rounds,
        form_classes,
        improve_within_bounds,
        layout_counts,
        node_spreads,
        size_candidates,
        size_sample,
        split_nodes,
        spreads_from_sums,
        tclose_blocks,
        tclose_partition,
        use_blocks,
        widest_dimension,
    )
    from engine.release.stages import (
        Fix,
        Plan,
        PlanData,
        anonymize,
        best_partition,
        check_columns,
        check_magnitudes,
        check_numbers,
        check_records,
        check_roles,
        choose_class_size,
        clean_columns,
        named_columns,
        plan,
        plan_data,
        summarise_buckets,
    )
    from engine.release.verify import (
        check_release_columns,
        class_distances,
        failed_bounds,
        group_ids,
        verdict,
        verify_release,
    )

#: public name -> the part of engine.release that defines it
_EXPORTS = {
    "BucketChoice": "engine.release.buckets",
    "ConfidentialValues": "engine.release.buckets",
    "MEAN_SLACK": "engine.release.buckets",
    "Scale": "engine.release.buckets",
    "bucket_count": "engine.release.buckets",
    "ladder": "engine.release.buckets",
    "make_buckets": "engine.release.buckets",
    "paper_bucket_count": "engine.release.buckets",
    "search_sample": "engine.release.buckets",
    "split_sorted": "engine.release.buckets",
    "BucketInput": "engine.release.buckets",
    "BucketValues": "engine.release.buckets",
    "category_order": "engine.release.columns",
    "decimals": "engine.release.columns",
    "encode_qi": "engine.release.columns",
    "inner_range": "engine.release.columns",
    "numeric_values": "engine.release.columns",
    "ordinal_ranks": "engine.release.columns",
    "recode_qi": "engine.release.columns",
    "release_confidential": "engine.release.columns",
    "resolve_columns": "engine.release.columns",
    "build_release": "engine.release.columns",
    "missing_counts": "engine.release.columns",
    "Households": "engine.release.households",
    "check_households": "engine.release.households",
    "clashing_ids": "engine.release.households",
    "find_households": "engine.release.households",
    "household_codes": "engine.release.households",
    "household_partition": "engine.release.households",
    "merge_for_households": "engine.release.households",
    "separate_members": "engine.release.households",
    "survey_columns": "engine.release.households",
    "DEFAULT_THRESHOLD": "engine.release.measures",
    "QiSums": "engine.release.measures",
    "class_ids": "engine.release.measures",
    "compare_risk": "engine.release.measures",
    "confidential_loss": "engine.release.measures",
    "disclosure_risk": "engine.release.measures",
    "sse_sst": "engine.release.measures",
    "table_risk": "engine.release.measures",
    "Buckets": "engine.release.model",
    "CONTEXT": "engine.release.model",
    "HouseholdSummary": "engine.release.model",
    "InformationLoss": "engine.release.model",
    "MissingCount": "engine.release.model",
    "P_RULE": "engine.release.model",
    "Phrase": "engine.release.model",
    "Release": "engine.release.model",
    "RiskSummary": "engine.release.model",
    "RunSummary": "engine.release.model",
    "Verification": "engine.release.model",
    "applied_parameters": "engine.release.model",
    "corrected_phrase": "engine.release.model",
    "declared_public": "engine.release.model",
    "join": "engine.release.model",
    "plan_words": "engine.release.model",
    "public_words": "engine.release.model",
    "shares_text": "engine.release.model",
    "summary_words": "engine.release.model",
    "BoundsRequiredError": "engine.release.noise",
    "DEFAULT_BLOCK_SIZE": "engine.release.partition",
    "LARGE_FILE": "engine.release.partition",
    "check_feasible": "engine.release.partition",
    "default_rounds": "engine.release.partition",
    "form_classes": "engine.release.partition",
    "improve_within_bounds": "engine.release.partition",
    "layout_counts": "engine.release.partition",
    "node_spreads": "engine.release.partition",
    "size_candidates": "engine.release.partition",
    "split_nodes": "engine.release.partition",
    "spreads_from_sums": "engine.release.partition",
    "tclose_blocks": "engine.release.partition",
    "tclose_partition": "engine.release.partition",
    "use_blocks": "engine.release.partition",
    "widest_dimension": "engine.release.partition",
    "size_sample": "engine.release.partition",
    "block_size": "engine.release.partition",
    "Fix": "engine.release.stages",
    "Plan": "engine.release.stages",
    "PlanData": "engine.release.stages",
    "anonymize": "engine.release.stages",
    "best_partition": "engine.release.stages",
    "check_magnitudes": "engine.release.stages",
    "choose_class_size": "engine.release.stages",
    "plan": "engine.release.stages",
    "plan_data": "engine.release.stages",
    "summarise_buckets": "engine.release.stages",
    "check_roles": "engine.release.stages",
    "check_columns": "engine.release.stages",
    "clean_columns": "engine.release.stages",
    "check_records": "engine.release.stages",
    "check_numbers": "engine.release.stages",
    "named_columns": "engine.release.stages",
    "class_distances": "engine.release.verify",
    "failed_bounds": "engine.release.verify",
    "group_ids": "engine.release.verify",
    "verdict": "engine.release.verify",
    "verify_release": "engine.release.verify",
    "check_release_columns": "engine.release.verify",
}

__all__ = [
    "CONTEXT",
    "DEFAULT_BLOCK_SIZE",
    "DEFAULT_THRESHOLD",
    "LARGE_FILE",
    "MEAN_SLACK",
    "P_RULE",
    "BoundsRequiredError",
    "BucketChoice",
    "BucketInput",
    "BucketValues",
    "Buckets",
    "ConfidentialValues",
    "Fix",
    "HouseholdSummary",
    "Households",
    "InformationLoss",
    "MissingCount",
    "Phrase",
    "Plan",
    "PlanData",
    "QiSums",
    "Release",
    "RiskSummary",
    "RunSummary",
    "Scale",
    "Verification",
    "anonymize",
    "applied_parameters",
    "best_partition",
    "block_size",
    "bucket_count",
    "build_release",
    "category_order",
    "check_columns",
    "check_feasible",
    "check_households",
    "check_magnitudes",
    "check_numbers",
    "check_records",
    "check_release_columns",
    "check_roles",
    "choose_class_size",
    "clashing_ids",
    "class_distances",
    "class_ids",
    "clean_columns",
    "compare_risk",
    "confidential_loss",
    "corrected_phrase",
    "decimals",
    "declared_public",
    "default_rounds",
    "disclosure_risk",
    "encode_qi",
    "failed_bounds",
    "find_households",
    "form_classes",
    "group_ids",
    "household_codes",
    "household_partition",
    "improve_within_bounds",
    "inner_range",
    "join",
    "ladder",
    "layout_counts",
    "make_buckets",
    "merge_for_households",
    "missing_counts",
    "named_columns",
    "node_spreads",
    "numeric_values",
    "ordinal_ranks",
    "paper_bucket_count",
    "plan",
    "plan_data",
    "plan_words",
    "public_words",
    "recode_qi",
    "release_confidential",
    "resolve_columns",
    "search_sample",
    "separate_members",
    "shares_text",
    "size_candidates",
    "size_sample",
    "split_nodes",
    "split_sorted",
    "spreads_from_sums",
    "sse_sst",
    "summarise_buckets",
    "summary_words",
    "survey_columns",
    "table_risk",
    "tclose_blocks",
    "tclose_partition",
    "use_blocks",
    "verdict",
    "verify_release",
    "widest_dimension",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.release' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
