"""Classes of records: how many a bucket mix allows, and forming them.

The arithmetic and the partitions work on arrays (encoded QIs, bucket codes) and know nothing
of columns, files or parameters:

* :mod:`~engine.release.partition.feasibility`: when a class of m records can be t-close
  (the bounds ceil(m·p/t) ≤ n ≤ floor(m·p·t)), the balanced layout, the nearest feasible k
  and t;
* :mod:`~engine.release.partition.sizes`: the class sizes worth trying for given k and t, and
  what a file's size decides (its blocks, the sample its class size is chosen on);
* :mod:`~engine.release.partition.exact`: MDAV with per-bucket caps on the whole file
  (:func:`tclose_partition`);
* :mod:`~engine.release.partition.blocks`: the same partition on a large file, in blocks of a
  stratified k-d split, and the exchanges between neighbouring classes;
* :mod:`~engine.release.partition.compiled`: numba kernels of the block route (imported only
  when used, never by this door);
* :mod:`~engine.release.partition.jit`: loading them, their cache in the user's cache folder,
  and the route a run took (said when it is not the compiled kernels with a cache);
* :mod:`~engine.release.partition.microaggregation`: k-anonymous microaggregation without
  buckets (the noise route);
* :mod:`~engine.release.partition.improve`: the exchange pass that lowers the QI loss;
* :mod:`~engine.release.partition.refine`: the refinement every path's classes go through
  (:func:`refine_classes`: the records of each bucket reassigned among the classes, exact
  exchanges and bounded moves between neighbouring classes, within the t-closeness bounds);
* :mod:`~engine.release.partition.pattern_sweeps`: the loop of the household route's
  refinement (its pattern groups: :mod:`engine.release.households.refine`);
* :mod:`~engine.release.partition.kernels`: whether the compiled kernels run;
* :mod:`~engine.release.partition.blas`: one BLAS thread around the partition;
* :mod:`~engine.release.partition.trials`: trial partitions formed once for a series of
  releases of one file (a sweep's points).

Besides what the other parts use, the door gives the unit tests the kernels they compare with
a plain form (``_pick``, the candidates of a class; ``_Classes``, the exchange pass's state).
"""

from engine.release.partition import pattern_sweeps
from engine.release.partition.blas import one_blas_thread
from engine.release.partition.blocks import (
    COMPILED_MIN_RECORDS,
    capped_mdav,
    form_classes,
    kernel_check,
    node_spreads,
    nominal_runs,
    run_keys,
    split_nodes,
    split_spreads,
    spreads_from_sums,
    tclose_blocks,
    use_blocks,
    widest_dimension,
)
from engine.release.partition.exact import (
    _pick,
    balanced_layout,
    layout_counts,
    principal_order,
    tclose_partition,
)
from engine.release.partition.feasibility import (
    BoundRates,
    check_feasible,
    class_bounds,
    layout_ok,
    max_classes,
    nearest_feasible,
    smallest_t,
)
from engine.release.partition.improve import ClassBounds, _Classes
from engine.release.partition.jit import KernelRoute, kernel_route, kernels_asked
from engine.release.partition.kernels import compiled_kernels
from engine.release.partition.microaggregation import kd_blocks, mdav, microaggregate
from engine.release.partition.neighbours import nearest_points
from engine.release.partition.refine import (
    TRIAL_PASSES,
    bucket_bounds,
    default_rounds,
    improve_within_bounds,
    refine_classes,
    refine_passes,
    transport_step,
)
from engine.release.partition.sizes import (
    DEFAULT_BLOCK_SIZE,
    LARGE_FILE,
    SIZE_SAMPLE,
    block_size,
    class_size_candidates,
    size_candidates,
    size_sample,
    top_size,
)
from engine.release.partition.trials import shared_trials, trial

__all__ = [
    "COMPILED_MIN_RECORDS",
    "DEFAULT_BLOCK_SIZE",
    "LARGE_FILE",
    "SIZE_SAMPLE",
    "TRIAL_PASSES",
    "BoundRates",
    "ClassBounds",
    "KernelRoute",
    "_Classes",
    "_pick",
    "balanced_layout",
    "block_size",
    "bucket_bounds",
    "capped_mdav",
    "check_feasible",
    "class_bounds",
    "class_size_candidates",
    "compiled_kernels",
    "default_rounds",
    "form_classes",
    "improve_within_bounds",
    "kd_blocks",
    "kernel_check",
    "kernel_route",
    "kernels_asked",
    "layout_counts",
    "layout_ok",
    "max_classes",
    "mdav",
    "microaggregate",
    "nearest_feasible",
    "nearest_points",
    "node_spreads",
    "nominal_runs",
    "one_blas_thread",
    "pattern_sweeps",
    "principal_order",
    "refine_classes",
    "refine_passes",
    "run_keys",
    "shared_trials",
    "size_candidates",
    "size_sample",
    "smallest_t",
    "split_nodes",
    "split_spreads",
    "spreads_from_sums",
    "tclose_blocks",
    "tclose_partition",
    "top_size",
    "transport_step",
    "trial",
    "use_blocks",
    "widest_dimension",
]
