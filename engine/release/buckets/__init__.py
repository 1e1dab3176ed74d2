"""The confidential buckets (KBS 2015 §6.1): how many, where the cuts fall, what is released.

* :mod:`~engine.release.buckets.buckets`: :func:`make_buckets`, the buckets of one or several
  confidential columns (jointly or per column), their labels and statistics; the paper's
  number of buckets for t (:func:`paper_bucket_count`);
* :mod:`~engine.release.buckets.split`: cutting sorted values, categories and value vectors
  into groups of near-equal mass;
* :mod:`~engine.release.buckets.scale`: a numeric or date column's public rounding rule
  (:class:`Scale`), the p%-rule on released means (:func:`dominated`) and what a bucket's
  statistics read of its values (:class:`BucketValues`: in memory, or a cluster's sums);
* :mod:`~engine.release.buckets.search`: the search of the number of buckets b for the least
  combined loss, on a sample partitioned as the file will be.
"""

from engine.release.buckets.buckets import (
    BucketInput,
    bucket_count,
    held_by_enough,
    make_buckets,
    paper_bucket_count,
)
from engine.release.buckets.scale import MEAN_SLACK, BucketValues, Scale, dominated
from engine.release.buckets.search import (
    QI_TOLERANCE,
    BucketChoice,
    ConfidentialValues,
    FrameValues,
    best_choices,
    ladder,
    search_buckets,
    search_sample,
)
from engine.release.buckets.split import split_sorted

__all__ = [
    "MEAN_SLACK",
    "QI_TOLERANCE",
    "BucketChoice",
    "BucketInput",
    "BucketValues",
    "ConfidentialValues",
    "FrameValues",
    "Scale",
    "best_choices",
    "bucket_count",
    "dominated",
    "held_by_enough",
    "ladder",
    "make_buckets",
    "paper_bucket_count",
    "search_buckets",
    "search_sample",
    "split_sorted",
]
