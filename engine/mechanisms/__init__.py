"""The mechanisms of a release, registered by name in :data:`MECHANISMS`, and the noise
primitives of ε-differential privacy (Construction B).

* :mod:`~engine.mechanisms.base` — the contract every mechanism keeps (:class:`Mechanism`);
* :mod:`~engine.mechanisms.guarantee` — what a mechanism's guarantees rest on, in its words
  (:class:`ColumnGuarantee`);
* :mod:`~engine.mechanisms.buckets` and :mod:`~engine.mechanisms.noise` — the two registered
  mechanisms, "buckets" (t-closeness) and "laplace" (noise);
* :mod:`~engine.mechanisms.sampling` — where randomness comes from (OpenDP / OS entropy by
  default, a documented seeded path for audits) and exact integer noise samplers;
* :mod:`~engine.mechanisms.laplace` — clamping + Laplace noise, plain and after insensitive
  microaggregation, and the expected absolute error of the noise;
* :mod:`~engine.mechanisms.bounds` — clamping bounds estimated with DP quantiles, for a column
  whose public bounds are unknown;
* :mod:`~engine.mechanisms.response` — randomized response (uniform and empirical) and the
  ε and t of any channel matrix;

The whole noise release (QIs microaggregated, noise drawn, release verified) is
:func:`engine.release.noise.noise_release`; this package holds only the mechanisms themselves.
To add a mechanism, see "Adding a mechanism" in ``docs/development.md``: its own module, and
one line in :data:`MECHANISMS`.
"""

from engine.mechanisms.base import Mechanism, contract_gaps, registry
from engine.mechanisms.bounds import PrivateBounds, private_bounds
from engine.mechanisms.buckets import Buckets
from engine.mechanisms.guarantee import ColumnGuarantee, GroupBound
from engine.mechanisms.laplace import (
    LaplaceOutcome,
    expected_abs_error,
    insensitive_release,
    laplace_release,
)
from engine.mechanisms.noise import Laplace
from engine.mechanisms.response import (
    ResponseOutcome,
    channel_epsilon,
    channel_t,
    empirical_response,
    randomized_response,
)
from engine.mechanisms.sampling import noise_source

#: every mechanism, by the name ``ReleaseParams.mechanism`` takes (the first is the default);
#: each checked against the contract of :mod:`~engine.mechanisms.base` when registered
MECHANISMS: dict[str, type[Mechanism]] = registry(Buckets, Laplace)

__all__ = [
    "MECHANISMS",
    "Buckets",
    "ColumnGuarantee",
    "GroupBound",
    "Laplace",
    "LaplaceOutcome",
    "Mechanism",
    "PrivateBounds",
    "ResponseOutcome",
    "channel_epsilon",
    "channel_t",
    "contract_gaps",
    "empirical_response",
    "expected_abs_error",
    "insensitive_release",
    "laplace_release",
    "noise_source",
    "private_bounds",
    "randomized_response",
    "registry",
]
