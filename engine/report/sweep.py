"""The privacy–utility sweep: information loss over a grid of privacy levels and k.

Choosing t (or ε) and k is a trade-off the analyst has to see: stronger privacy (smaller t or
ε, larger k) costs information.  :func:`run_sweep` runs the engine on every point of a grid
and tabulates the information loss and what an analyst keeps (total, group means,
regression); :func:`sweep_figure` draws it against the privacy level, one curve per k (as
the poster of Soria-Comas et al. does for ε from 0.01 to 10).  A third, optional axis is the
number of buckets b ("auto" = searched for each point), which trades confidential detail for
QI homogeneity at the same guarantee.  A point
that cannot be met on the data (KBS 2015 §6.2) is a row with ``feasible=False`` and the reason,
not an error: an infeasible corner is part of the answer.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from engine.errors import InfeasibleError, InputError, VerificationError
from engine.i18n import _
from engine.params import ReleaseParams
from engine.privacy import epsilon_from_t
from engine.progress import NO_TASK, Task
from engine.release import Release

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: the columns of a sweep table, in order
COLUMNS = (
    "t",
    "epsilon",
    "k",
    "buckets",
    "n_buckets",
    "feasible",
    "qi_sse_sst",
    "confidential_sse_sst",
    "total_error",
    "group_mean_error",
    "coefficient_error",
    "achieved_k",
    "achieved_t",
    "n_classes",
    "dominated",
    "seconds",
    "message",
)


def _levels(values: Iterable[Any] | None, name: str) -> list[Any]:
    """The grid's values of one parameter, each checked as that parameter is everywhere."""
    check = ReleaseParams.CONSTRAINTS[name].check
    return sorted({check(name, v) for v in values or ()})


def sweep_grid(
    *,
    ts: Iterable[float] | None = None,
    epsilons: Iterable[float] | None = None,
    ks: Iterable[int],
) -> list[tuple[str, float, int]]:
    """The points ``(level_name, level, k)`` of a grid; exactly one of ts / epsilons."""
    t_list = _levels(ts, "t")
    e_list = _levels(epsilons, "epsilon")
    if bool(t_list) == bool(e_list):
        raise InputError(_("Give the privacy levels of the sweep as t values or as ε values."))
    k_list = _levels(ks, "k")
    if not k_list:
        raise InputError(_("Give the k values of the sweep as whole numbers ≥ 1."))
    name, levels = ("t", t_list) if t_list else ("epsilon", e_list)
    return [(name, level, k) for k in k_list for level in levels]


def information_loss(release: Release) -> tuple[float, float]:
    """(QI SSE/SST, confidential SSE/SST) of a release, as its summary reports them."""
    loss = release.summary.information_loss
    return (
        float(loss.qi_sse_sst) if loss.qi_sse_sst is not None else math.nan,
        float(loss.confidential_sse_sst) if loss.confidential_sse_sst is not None else math.nan,
    )


def utility_measures(release: Release) -> dict[str, float]:
    """One number per analysis measure, averaged over the numeric confidential columns.

    ``total_error`` (signed relative error of the total), ``group_mean_error`` (mean
    relative error of the group means, averaged over the QIs) and ``coefficient_error``
    (median relative error of the regression coefficients); NaN where no column has it.
    """
    found: dict[str, list[float]] = {"total_error": [], "group_mean_error": [],
                                     "coefficient_error": []}  # fmt: skip
    for u in release.summary.analysis_utility.values():
        if u.total_relative_error is not None:
            found["total_error"].append(u.total_relative_error)
        if u.group_mean_mare:
            found["group_mean_error"].append(float(np.mean(list(u.group_mean_mare.values()))))
        if u.regression is not None and u.regression.coefficient_median_relative_error is not None:
            found["coefficient_error"].append(u.regression.coefficient_median_relative_error)
    return {key: float(np.mean(v)) if v else math.nan for key, v in found.items()}


def _bucket_levels(values: Iterable[Any] | None) -> list[int | None]:
    """The b axis: whole numbers ≥ 2 and None for "auto", each checked as n_buckets is."""
    check = ReleaseParams.CONSTRAINTS["n_buckets"].check
    out = {check("n_buckets", v) for v in values or ()}
    return sorted(out, key=lambda b: (b is None, b or 0))


def _achieved_t(release: Release) -> float:
    """The verifier's t; for noise without buckets the summary's (stochastic) t."""
    t = release.verification.t
    if t is None:
        t = release.summary.t
    return float(t) if t is not None else math.nan


def run_sweep(
    data: pd.DataFrame,
    params: ReleaseParams,
    *,
    ts: Iterable[float] | None = None,
    epsilons: Iterable[float] | None = None,
    ks: Iterable[int],
    buckets: Iterable[int | str | None] | None = None,
    task: Task = NO_TASK,
    release_fn: Callable[..., Any] | None = None,
    on_point: Callable[[dict[str, Any]], None] | None = None,
    share_trials: bool = True,
) -> pd.DataFrame:
    """Plan and run every (level, k, b) of the grid (:func:`engine.release.plan.plan`, then
    :func:`engine.release.anonymize.anonymize`).

    ``params`` gives everything but the privacy level, k and (with ``buckets``) b: its own
    t/ε/k are replaced.  ``buckets`` is the b axis (numbers, and None or "auto" for the
    search); without it every point has ``params.n_buckets``.  Returns one row per point
    with the columns of :data:`COLUMNS`; for the bucket mechanism both ``t`` and the
    equivalent ``epsilon = 2 ln t`` are filled in.  Cancelling stops the sweep
    (CancelledError); a point the plan finds infeasible is recorded with the plan's reason,
    not raised.  ``release_fn(params, task=)``, when given, computes each point
    instead (a cluster computes it from the file; ``data`` is then None).  ``on_point(row)``,
    when given, receives each row as soon as its point is done (the app shows the points as
    they come: :func:`sweep_table` of the rows so far is the table up to then).
    The trial partitions two points share are formed once (``share_trials=False`` forms
    every one afresh, to measure what sharing saves; the rows are the same).
    """
    from engine.release import shared_trials  # imported here: the engine core is heavy

    levels = sweep_grid(ts=ts, epsilons=epsilons, ks=ks)
    b_axis = _bucket_levels(buckets) if buckets is not None else [params.n_buckets]
    if params.noise and buckets is not None:
        raise InputError(_("The b axis applies to the buckets mechanism only."))
    grid = [(name, level, k, b) for b in b_axis for name, level, k in levels]
    rows: list[dict[str, Any]] = []
    # the points are releases of one file: the trial partitions of the b search and of the
    # class size that two points share are formed once (engine.release.partition.trials)
    with shared_trials() if share_trials else contextlib.nullcontext():
        for i, point in enumerate(grid):
            row = _point_row(data, params, point, i, len(grid), buckets is not None, task,
                             release_fn)  # fmt: skip
            rows.append(row)
            if on_point is not None:
                on_point(dict(row))
    task.step(1.0, _("Sweep done"))
    return sweep_table(rows, grid[0][0] if grid else "t", main_measure(params))


def _point_row(
    data: pd.DataFrame | None,
    params: ReleaseParams,
    point: tuple[str, float, int, int | None],
    i: int,
    n: int,
    b_axis: bool,
    task: Task,
    release_fn: Callable[..., Any] | None,
) -> dict[str, Any]:
    """The row of the sweep's point ``i`` of ``n``: its level, k and b, and its figures (or
    why the data cannot meet it)."""
    from engine.release import anonymize, plan

    name, level, k, b = point
    label = f"{'t' if name == 't' else 'ε'} = {level:g}, k = {k}"
    if b_axis:
        label += f", b = {b if b is not None else 'auto'}"
    task.step(i / n, _("{label} ({value} of {n})").format(label=label, value=i + 1, n=n))
    if name == "t":
        asked = params.replace(t=level, epsilon=None, k=k, n_buckets=b)
    else:
        asked = params.replace(t=None, epsilon=level, k=k, n_buckets=b)
    row: dict[str, Any] = {
        "t": asked.bucket_t if name == "t" or not asked.noise else math.nan,
        "epsilon": level if name == "epsilon" else epsilon_from_t(level),
        "k": k,
        "buckets": "" if asked.noise else str(b) if b is not None else "auto",
    }
    started = time.perf_counter()
    part = task.sub(i / n, (i + 1) / n)
    try:
        if release_fn is not None:
            release = release_fn(asked, task=part)
        else:
            planned = plan(data, asked, task=task.silent())
            planned.raise_if_infeasible()
            release = anonymize(data, asked, plan=planned, task=part)
    except (InfeasibleError, VerificationError) as err:
        row.update(feasible=False, message=err.message)
    else:
        row.update(_measured(release))
    row["seconds"] = round(time.perf_counter() - started, 3)
    return row


def _measured(release: Any) -> dict[str, Any]:
    """A sweep row's figures of one release: its losses, utility, achieved k and t."""
    qi_loss, conf_loss = information_loss(release)
    ver = release.verification
    formed = [b for b in release.summary.buckets if not b.missing]
    return dict(
        feasible=True,
        qi_sse_sst=qi_loss,
        confidential_sse_sst=conf_loss,
        n_buckets=len(formed) if formed else None,
        **utility_measures(release),
        achieved_k=int(ver.k),
        achieved_t=_achieved_t(release),
        n_classes=int(ver.n_classes),
        message="",
    )


def sweep_table(rows: list[dict[str, Any]], level: str, measure: str) -> pd.DataFrame:
    """The sweep's rows as a table of :data:`COLUMNS`, its dominated points marked (the
    whole sweep's, or the rows done so far)."""
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    table["feasible"] = table["feasible"].astype(bool)
    table["message"] = table["message"].fillna("")
    for col in ("achieved_k", "n_classes", "n_buckets"):
        table[col] = table[col].astype("Int64")
    table["buckets"] = _b_text(table["buckets"])
    table["dominated"] = dominated(table, level, measure)
    table.attrs["level"] = level
    table.attrs["measure"] = measure
    return table


def main_measure(params: ReleaseParams) -> str:
    """The loss a sweep is about: QI loss for buckets (the confidential side is fixed by the
    buckets), the distortion of the confidential values for noise (the QIs do not depend on ε).
    """
    return "confidential_sse_sst" if params.noise else "qi_sse_sst"


def dominated(table: pd.DataFrame, level: str, measure: str = "qi_sse_sst") -> np.ndarray:
    """Per row: is there a feasible point with at least as much privacy that loses less?

    A point (level, k) is dominated by (level', k') when level' ≤ level and k' ≥ k (as strong
    or stronger on both axes) and its ``measure`` is strictly lower; with a b axis, only
    points asked with the same b are compared (b moves loss between the QIs and the
    confidential values at the same guarantee).  For optimal partitions
    this never happens — a t-close partition is t'-close for t' > t, and classes of at least
    k' records are classes of at least k — but the engine's partition is a heuristic, and its
    class sizes stay near max(k, number of buckets): a small k with many buckets can lose more
    than a larger k.  The sweep says so instead of hiding it, so that the user picks the
    better point.
    """
    lv = table[level].to_numpy(float)
    ks = table["k"].to_numpy(float)
    loss = table[measure].to_numpy(float)
    ok = table["feasible"].to_numpy(bool) & ~np.isnan(loss)
    stronger = (lv[None, :] <= lv[:, None] + 1e-12) & (ks[None, :] >= ks[:, None])
    if "buckets" in table:  # b trades one loss for another: compare at the same b only
        b = _b_text(table["buckets"]).to_numpy()
        stronger &= b[None, :] == b[:, None]
    better = loss[None, :] < loss[:, None] - 1e-12
    out = (stronger & better & ok[None, :]).any(axis=1) & ok
    return out


#: the marker of each k's curve, in order (distinct shapes, not only distinct colours)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def sweep_figure(
    table: pd.DataFrame,
    *,
    level: str | None = None,
    measure: str | None = None,
    highlight: tuple[float, int] | None = None,
) -> Figure:
    """Information loss against the privacy level, one curve per k.

    ``level`` is ``"t"`` or ``"epsilon"`` (default: ``table.attrs["level"]`` or t);
    ``highlight`` = (level value, k) rings one point (the one the user picked).  Infeasible
    points are drawn as crosses on the axis so the reader sees where the grid breaks.
    """
    from matplotlib.figure import Figure

    level = level or table.attrs.get("level", "t")
    measure = measure or table.attrs.get("measure", "qi_sse_sst")
    fig = Figure(figsize=(6.4, 4.0), layout="constrained")
    ax = fig.add_subplot()
    ks = sorted(table["k"].unique()) if not table.empty else []
    any_infeasible, any_dominated = _draw_curves(ax, table, level, measure, ks)
    if highlight is not None:
        _draw_highlight(ax, table, level, measure, highlight)
    notes = []
    if any_infeasible:
        notes.append(_("× infeasible"))
    if any_dominated:
        notes.append(_("hollow: a point with more privacy loses less"))
    _label_axes(ax, table, level, measure, notes)
    if ks:
        ax.legend(title=None, loc="best")
    return fig


def _draw_curves(
    ax: Axes, table: pd.DataFrame, level: str, measure: str, ks: list[Any]
) -> tuple[bool, bool]:
    """One curve per k (and per b, when the table has several): feasible points joined,
    dominated ones hollow, infeasible ones crosses on the axis.  Returns whether any point
    was infeasible and whether any was dominated (the axis label explains the marks)."""
    import matplotlib

    b_values = [""]
    if "buckets" in table and not table.empty:
        b_values = sorted(set(_b_text(table["buckets"])), key=_b_order)
    styles = ["-", "--", ":", "-."]
    cmap = matplotlib.colormaps["viridis"]
    colours = [cmap(x) for x in np.linspace(0.05, 0.85, max(len(ks), 1))]
    any_infeasible = any_dominated = False
    # every curve differs by its marker (one per k) and its line (one per b, else per k) as
    # well as by its colour: the plot reads in black and white and without colour vision
    curves = [
        (c, k, j, i, b)
        for j, (c, k) in enumerate(zip(colours, ks, strict=False))
        for i, b in enumerate(b_values)
    ]
    for colour, k, j, i, b in curves:
        part = table[table["k"] == k]
        if len(b_values) > 1:
            part = part[_b_text(part["buckets"]) == b]
        part = part.sort_values(level)
        ok = part[part["feasible"]]
        label = f"k = {k}" + (f", b = {b}" if len(b_values) > 1 else "")
        marker = MARKERS[j % len(MARKERS)]
        ax.plot(
            ok[level],
            ok[measure],
            marker=marker,
            color=colour,
            linestyle=styles[(i if len(b_values) > 1 else j) % len(styles)],
            label=label,
        )
        if "dominated" in part:
            dom = ok[ok["dominated"].astype(bool)]
            if len(dom):
                any_dominated = True
                ax.plot(
                    dom[level],
                    dom[measure],
                    linestyle="none",
                    marker=marker,
                    markersize=9,
                    markerfacecolor="white",
                    markeredgecolor=colour,
                )
        bad = part[~part["feasible"]]
        if len(bad):
            any_infeasible = True
            ax.plot(
                bad[level],
                np.zeros(len(bad)),
                linestyle="none",
                marker="x",
                color=colour,
                markersize=8,
                clip_on=False,
            )
    return any_infeasible, any_dominated


def _draw_highlight(
    ax: Axes, table: pd.DataFrame, level: str, measure: str, highlight: tuple[float, int]
) -> None:
    """Ring the point the user picked, (level value, k), if it is feasible."""
    lv, hk = highlight
    hit = table[(np.isclose(table[level], lv)) & (table["k"] == hk) & table["feasible"]]
    if len(hit):
        ax.plot(
            hit[level],
            hit[measure],
            marker="o",
            markersize=14,
            markerfacecolor="none",
            markeredgecolor="#c44e52",
            markeredgewidth=2,
            linestyle="none",
            label=_("chosen"),
        )


def _label_axes(ax: Axes, table: pd.DataFrame, level: str, measure: str, notes: list[str]) -> None:
    """Axis names (the marks' meanings under the level's), scales and the title.  The loss
    axis turns logarithmic where it spans more than two decades (noise, over ε)."""
    names = {
        "qi_sse_sst": _("QI information loss (SSE/SST)"),
        "confidential_sse_sst": _("confidential distortion (SSE/SST)"),
        "total_error": _("relative error of the total"),
        "group_mean_error": _("relative error of the group means"),
        "coefficient_error": _("relative error of the regression coefficients"),
    }
    if level == "epsilon":
        ax.set_xscale("log")
        xlabel = _("ε (larger = weaker privacy)")
    else:
        xlabel = _("t (larger = weaker privacy)")
    ax.set_xlabel(xlabel + ("\n" + ";  ".join(notes) if notes else ""))
    ax.set_ylabel(names.get(measure, measure))
    values = table.loc[table["feasible"], measure].to_numpy(float)
    values = values[np.isfinite(values) & (values > 0)]
    if values.size and values.max() > 100 * values.min():
        ax.set_yscale("log")  # noise: the loss spans decades over ε
    else:
        ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.set_title(_("Information loss against privacy level"))


def _b_text(column: pd.Series) -> pd.Series:
    """The b column as text ("" where a table has none, as for noise)."""
    return column.astype(object).where(column.notna(), "").astype(str)


def _b_order(b: str) -> tuple[int, int, str]:
    """Numbers of buckets in order, then the words ("auto") in alphabetical order: the curves
    come in the same order in every process, whatever the string hashing."""
    return (1, 0, b) if not b.isdigit() else (0, int(b), "")


def pick_point(
    table: pd.DataFrame, level: str, value: float, k: int, buckets: str | None = None
) -> Mapping[str, Any]:
    """The sweep row of (value, k[, b]) — the point a user picked — or InputError if absent."""
    hit = table[np.isclose(table[level].astype(float), value) & (table["k"] == k)]
    if buckets is not None and "buckets" in table:
        hit = hit[_b_text(hit["buckets"]) == str(buckets)]
    if hit.empty:
        raise InputError(
            _("The sweep has no point {level} = {value:g}, k = {k}.").format(
                level=level, value=value, k=k
            )
        )
    return hit.iloc[0].to_dict()
