"""One release from one set of parameters: the function the command line, GUI and scripts call.

:func:`anonymize` runs the :class:`~engine.release.Plan` of the data and parameters.  The
bucket mechanism (Construction A, KBS 2015 §6): the plan's buckets, records partitioned into
k-anonymous t-close classes, the release table built and shuffled, and the independent
verifier (:func:`engine.release.verify_release`) reading it back.  A release whose
check fails raises :class:`~engine.errors.VerificationError` and is never returned, so nothing
unverified can be written.  With no confidential column it is plain k-anonymous
microaggregation; a noise mechanism (Construction B) is handed to
:func:`engine.release.stages.noise.noise_release`.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError, InputError
from engine.i18n import _
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.release.columns import encode_qi, partition_by_group
from engine.release.households import (
    household_partition,
    household_size,
    merge_for_households,
    separate_members,
)
from engine.release.measures import QiSums, confidential_loss, released_values, sse_sst
from engine.release.model import Buckets, InformationLoss, Release, RunSummary
from engine.release.partition import (
    LARGE_FILE,
    TRIAL_PASSES,
    block_size,
    compiled_kernels,
    kernel_route,
    kernels_asked,
    max_classes,
    microaggregate,
    nominal_runs,
    one_blas_thread,
    refine_classes,
    refine_passes,
    size_candidates,
    size_sample,
    tclose_blocks,
    tclose_partition,
    trial,
    use_blocks,
)
from engine.release.stages.plan import Plan
from engine.release.stages.plan import plan as make_plan
from engine.release.stages.summarise import summarise_buckets
from engine.release.stages.survey import SurveyClasses, released_buckets, survey_classes
from engine.release.stages.tail import Published, finish, publish, withheld_qi

#: a file on the block route above LARGE_FILE records is refined in this many parts, each in
#: a thread (runs of consecutive class labels: halves of the k-d split; see refine_classes)
REFINE_PARTS = 2


def _k_anonymous_classes(X: np.ndarray, k: int, seed: int | None, task: Task) -> np.ndarray:
    """Classes of ≥ k records without a bucket constraint (k-anonymity only)."""
    return np.asarray(microaggregate(X, k, seed=seed, task=task))


def choose_class_size(
    Xs: np.ndarray,
    cs: np.ndarray,
    counts: np.ndarray,
    k: int,
    t: float,
    *,
    shares: np.ndarray | None = None,
    blocks: bool = False,
    task: Task = NO_TASK,
) -> tuple[int, np.ndarray | None, bool]:
    """(best minimum class size, its refined labels on the sample, whether the block route
    splits a nominal QI as one coordinate) over the candidates.

    ``Xs``/``cs`` are the sample's QIs and buckets (:func:`size_sample`), ``counts`` the whole
    file's bucket counts: each candidate is partitioned on the sample against the file's
    shares, its classes refined (:func:`engine.release.partition.refine_classes`, as the
    file's will be), and the lowest QI loss wins (labels None when no candidate was
    feasible).  The
    sample is partitioned exactly, or in blocks when ``blocks`` (a file on the block route,
    :func:`engine.release.use_blocks`, or a sample smaller than its file, whose classes only
    choose the size) or when it has more than :data:`~engine.release.LARGE_FILE` records: in
    blocks of the file's block size (the classes of such a file are formed block by block, so
    that is what the choice must compare; compiled, it also costs a twentieth of the exact
    partition).
    ``shares`` are the shares the classes answer to when ``counts`` are one group's
    (records alike in their missing QIs) rather than the whole file's.  On the block route,
    when the QIs have a nominal one, the size chosen is tried again with it split as one
    coordinate instead of column by column (``nominal`` of :func:`engine.release.tclose_blocks`),
    and the split that loses less is kept.
    """
    if shares is None:
        shares = counts / counts.sum()
    sizes = size_candidates(counts, k, t)
    partition = tclose_partition
    if blocks or int(counts.sum()) > LARGE_FILE:
        # the refinement loads the compiled kernels anyway: the trials may as well use them
        # (the same classes as numpy's)
        fast = compiled_kernels() is not None
        partition = partial(
            tclose_blocks,
            block_size=block_size(int(counts.sum())),
            refine=0,
            compiled=fast,
        )
    best, best_loss, best_labels = sizes[0], math.inf, None
    sample_counts = np.bincount(cs, minlength=len(shares))
    seen: set[int] = set()

    def refined(split, size: int) -> tuple[float, np.ndarray | None]:
        """The sample's QI loss with classes of ``size`` by ``split``, refined as the file's
        will be (within the bounds of k, not of size)."""
        try:
            labels = trial(split, Xs, cs, size, t, shares=shares, task=task.silent())
        except InfeasibleError:  # the sample's bucket mix can stray from the file's
            return math.inf, None
        labels = refine_classes(
            Xs, labels, cs, t=t, k=k, shares=shares, passes=TRIAL_PASSES, task=task.silent()
        )
        return sse_sst(Xs, labels), labels

    for i, size in enumerate(sizes if len(sizes) > 1 else ()):
        task.step(i / len(sizes), _("Choosing the class size"))
        if size > len(cs):
            continue
        # sizes that leave the sample as many classes give the same partition: one trial
        n_classes = max_classes(sample_counts, t, size, shares)
        if n_classes in seen:
            continue
        seen.add(n_classes)
        loss, labels = refined(partition, size)
        if loss < best_loss - 1e-12:
            best, best_loss, best_labels = size, loss, labels
    # the block route splits a nominal QI column by column or as one coordinate, whichever
    # the sample loses less with at the size chosen (a QI of many categories: blocks of all
    # of them narrower in the other QIs, or blocks of a few of its categories)
    if partition is tclose_partition or not nominal_runs(Xs):
        return best, best_labels, False
    if best_labels is None:
        best_loss, best_labels = refined(partition, best)
    loss, labels = refined(partial(partition, nominal=True), best)
    if loss < best_loss - 1e-12:
        return best, labels, True
    return best, best_labels, False


def best_partition(
    X: np.ndarray,
    codes: np.ndarray,
    k: int,
    t: float,
    *,
    shares: np.ndarray | None = None,
    seed: int | None = None,
    task: Task = NO_TASK,
) -> np.ndarray:
    """The t-close partition with the lowest QI SSE over :func:`size_candidates`, refined.

    Every candidate is at least k, so each result is k-anonymous.  On a large file the
    candidates are compared on a fixed random sample (the choice depends on the bucket shares
    and the local density of the QIs, which a sample keeps), then the winner runs once on all
    records, block-wise (:func:`engine.release.use_blocks`) when the file is large.  The
    classes are then refined (:func:`engine.release.partition.refine_classes`: records of a
    bucket reassigned among the classes, then moves and exchanges within the bounds of t, and
    of k, not of the class size tried).  ``shares`` are the whole file's when ``X`` and
    ``codes`` are one group of it.
    """
    counts = np.bincount(codes, minlength=0 if shares is None else len(shares))
    blocks = use_blocks(X)
    fast = compiled_kernels() is not None  # loaded for the refinement: the same classes
    partition = partial(tclose_blocks, refine=0, compiled=fast) if blocks else tclose_partition
    n = len(codes)
    labels = None
    best = k
    if len(size_candidates(counts, k, t)) > 1 or blocks:
        sample = size_sample(n)
        # a sample smaller than the file only chooses the class size (its classes are not
        # kept): the block route's trials choose it at a fraction of the exact route's cost,
        # and chose the same size on the files of tests/data and a 30,000-record synthetic
        # file (3.5 CPU-s instead of 5.8 for the whole release)
        best, labels, nominal = choose_class_size(
            X[sample], codes[sample], counts, k, t, shares=shares,
            blocks=blocks or len(sample) < n, task=task.sub(0.0, 0.4),
        )  # fmt: skip
        if len(sample) < n:
            labels = None
        if blocks and nominal:
            partition = partial(partition, nominal=True)
    if labels is None:  # else the whole file was the sample: its classes refined further
        labels = trial(
            partition, X, codes, best, t, shares=shares, seed=seed, task=task.sub(0.4, 0.7)
        )
    passes = None  # the exact route's budget; the block route's is its blocks'
    parts = 1
    if blocks:
        passes = refine_passes(n, n / (int(labels.max()) + 1), block=block_size(n))
        # the two halves of the block route's classes are the two halves of its k-d split:
        # refined apart, in two threads, above LARGE_FILE
        parts = REFINE_PARTS if n > LARGE_FILE else 1
    return refine_classes(
        X, labels, codes, t=t, k=k, shares=shares, passes=passes, parts=parts,
        task=task.sub(0.7, 1.0),
    )  # fmt: skip


def missing_groups(plan: Plan) -> tuple[np.ndarray, np.ndarray | None]:
    """The plan's groups of records alike in their missing QIs and the values it withholds
    (one group and nothing withheld when no QI value is missing)."""
    if plan.missing_groups is not None:
        return plan.missing_groups
    return np.zeros(plan.n_records, dtype=np.int64), None


@one_blas_thread
def anonymize(
    data: pd.DataFrame,
    params: ReleaseParams,
    *,
    plan: Plan | None = None,
    task: Task = NO_TASK,
) -> Release:
    """Protect ``data`` as ``params`` say and return the verified release (module doc).

    ``plan`` is what :func:`engine.release.plan` said of this data and these parameters
    (the GUI has it from its privacy page); without it the plan is made here.  Parameters the
    plan found infeasible raise :class:`~engine.errors.InfeasibleError` with its fixes.
    """
    started = time.perf_counter()
    own_plan = plan is None or plan.prepared is None
    if plan is None or plan.prepared is None:
        plan = make_plan(data, params, task=task.sub(0.0, 0.1))
    elif plan.params != params or plan.n_records + plan.n_left_out != len(data):
        raise InputError(_("The plan was made for other parameters or data; plan again."))
    plan.raise_if_infeasible()
    if params.noise:
        from engine.release.stages.noise import noise_release

        return noise_release(data, plan, task=task.sub(0.1, 1.0))
    return _bucket_release(data, plan, started, task, own_plan=own_plan)


def _bucket_release(
    data: pd.DataFrame, plan: Plan, started: float, task: Task, *, own_plan: bool
) -> Release:
    """Construction A: t-close (or k-anonymous) classes over the plan's buckets, released
    and verified (``task``'s progress from 0.1, where :func:`anonymize` left it);
    ``own_plan``: nobody else holds the plan, so its encoded QIs may be dropped early."""
    params, prepared = plan.params, plan.prepared
    assert prepared is not None
    qi, clean = prepared.qi, prepared.clean
    X = (
        plan.encoded
        if plan.encoded is not None
        else encode_qi(clean, qi, prepared.types, prepared.orders, prepared.hierarchies)
    )
    if own_plan:  # nobody else holds the plan: the encoded QIs go once the classes are formed
        plan.encoded = None
    asked = kernels_asked()
    formed = _bucket_classes(X, plan, task)
    classes, homes = formed.classes, formed.homes
    # the route that formed the classes, for the review record (when the kernels were asked)
    route = kernel_route() if kernels_asked() > asked else None
    released_qi = withheld_qi(clean, qi, classes, formed.withheld, prepared.households, homes)
    # the QI sums now, so that the encoded QIs (the largest array) are freed before the
    # release table is built: on a million records that is 176 MB less at the peak
    qi_sums = QiSums.of(X, classes) if formed.qi_loss is None else None
    X = None
    task.step(0.85, _("Building the release"))
    # the bucket means weighted by the weights the release carries
    buckets = released_buckets(plan.bucket_data, params, prepared, classes)
    output = params.confidential_output
    published = publish(
        params,
        prepared,
        classes,
        t=plan.t,
        qi_values=released_qi,
        original=prepared.released_input(data),
        keep=params.keep,
        buckets=buckets,
        released=released_values(buckets, output) if buckets is not None else {},
        released_as={c: f"bucket {output}" for c in prepared.confidential},
        checked=prepared.confidential,
        homes=homes,
        linked=formed.linked,
        task=task.sub(0.85, 0.95),
    )
    # the QI loss of the released file: classes whose released values coincide have merged
    # (household groups: the loss the household partition measured)
    qi_loss = qi_sums.merged(published.groups).loss() if qi_sums is not None else formed.qi_loss
    assert qi_loss is not None
    summary = _bucket_summary(plan, published, classes, qi_loss, homes, started, buckets)
    if route is not None:
        summary = replace(summary, kernels=route.sentence())
    task.step(1.0, _("Done"))
    return finish(
        params, prepared, published, summary, classes, buckets=buckets, warnings=plan.warnings
    )


def _bucket_classes(X: np.ndarray, plan: Plan, task: Task) -> SurveyClasses:
    """The classes of a bucket release (``task``'s progress from 0.1 to 0.85).

    t-close classes over the plan's buckets (k-anonymous ones without buckets) formed apart
    in each group of records alike in which QIs are missing; with household ids released,
    households microaggregated as units (:func:`survey_classes`); or, with household-level
    QIs, classes inside groups of whole households.
    """
    params, prepared = plan.params, plan.prepared
    assert prepared is not None
    qi, clean, types, orders = prepared.qi, prepared.clean, prepared.types, prepared.orders
    t, buckets = plan.t, plan.bucket_data
    households = prepared.households
    # records alike in which QIs are missing form classes together (missing stays missing)
    groups, withheld = missing_groups(plan)
    linked = survey_classes(params, prepared, X, buckets, t, task.sub(0.1, 0.85))
    if linked is not None:
        return linked
    if households is not None and households.level:
        # household-level QIs: classes inside groups of whole households
        codes = None if buckets is None else buckets.codes
        size = params.k
        if codes is not None:
            assert t is not None
            size = household_size(
                clean, qi, types, orders, households, codes, t, params.k,
                size_candidates(np.bincount(codes), params.k, t),
                mode=params.qi_output, task=task.sub(0.1, 0.3),
            )  # fmt: skip
        classes, homes, qi_loss = household_partition(
            clean, qi, types, orders, households, codes, t, params.k, size,
            mode=params.qi_output, task=task.sub(0.3, 0.85),
        )  # fmt: skip
        return SurveyClasses(classes, homes, qi_loss)  # the classes follow the households
    if buckets is not None:
        assert t is not None
        codes, shares = buckets.codes, buckets.shares
        classes = partition_by_group(
            groups,
            lambda rows, sub: best_partition(
                X[rows], codes[rows], params.k, t, shares=shares, seed=params.seed, task=sub
            ),
            task.sub(0.1, 0.85),
        )
    else:
        classes = partition_by_group(
            groups,
            lambda rows, sub: _k_anonymous_classes(X[rows], params.k, params.seed, sub),
            task.sub(0.1, 0.85),
        )
    if households is not None:
        if households.confidential_level and buckets is not None:
            classes = separate_members(X, classes, buckets.codes, households.codes)
        classes = merge_for_households(X, classes, households.codes, params.k)
    return SurveyClasses(classes, None, None, withheld)


def _bucket_summary(
    plan: Plan,
    published: Published,
    classes: np.ndarray,
    qi_loss: float,
    homes: np.ndarray | None,
    started: float,
    buckets: Buckets | None,
) -> RunSummary:
    """The run summary of a bucket release: its guarantees, losses and buckets."""
    params, prepared = plan.params, plan.prepared
    assert prepared is not None
    clean, output = prepared.clean, params.confidential_output
    conf_loss, conf_columns = (
        confidential_loss(clean, buckets, prepared.types, output)
        if buckets is not None
        else (None, {})
    )
    return summarise_buckets(
        params,
        published.verification,
        t=plan.t,
        n_records=len(clean),
        column_types=prepared.types,
        buckets=buckets,
        n_left_out=prepared.n_left_out,
        n_partition_classes=int(classes.max()) + 1 if len(classes) else 0,
        information_loss=InformationLoss(
            qi_sse_sst=qi_loss,
            confidential_sse_sst=conf_loss,
            confidential_columns=conf_columns,
        ),
        warnings=plan.warnings,
        **published.summary_fields(
            params,
            prepared,
            clean,
            prepared.qi,
            buckets=buckets,
            homes=homes,
            risk_before=plan.risk_before,
            started=started,
        ),
    )
