"""ε-differential privacy for confidential values by noise (Construction B).

* :mod:`~engine.mechanisms.sampling` — where randomness comes from (OpenDP / OS entropy by
  default, a documented seeded path for audits) and exact integer noise samplers;
* :mod:`~engine.mechanisms.laplace` — clamping + Laplace noise, plain and after insensitive
  microaggregation;
* :mod:`~engine.mechanisms.response` — randomized response (uniform and empirical) and the
  ε and t of any channel matrix;

The whole noise release (QIs microaggregated, noise drawn, release verified) is
:func:`engine.release.noise.noise_release`; this package holds only the mechanisms themselves.
"""

from engine.mechanisms.laplace import LaplaceOutcome, insensitive_release, laplace_release
from engine.mechanisms.response import (
    ResponseOutcome,
    channel_epsilon,
    channel_t,
    empirical_response,
    randomized_response,
)
from engine.mechanisms.sampling import noise_source

__all__ = [
    "LaplaceOutcome",
    "ResponseOutcome",
    "channel_epsilon",
    "channel_t",
    "empirical_response",
    "insensitive_release",
    "laplace_release",
    "noise_source",
    "randomized_response",
]
