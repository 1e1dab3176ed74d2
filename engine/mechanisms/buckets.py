"""The buckets mechanism (Construction A): t-close classes over buckets of the confidential
values (KBS 2015).  The release itself is :func:`engine.release.anonymize.anonymize`."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.errors import InputError
from engine.i18n import N_, _
from engine.mechanisms.base import QT_TRANSLATE_NOOP, Mechanism


class Buckets(Mechanism):
    """t-closeness by bucketization; t or ε (t = exp(ε/2), Proposition 3)."""

    name: ClassVar[str] = "buckets"
    title: ClassVar[str] = N_("buckets (t-closeness by bucketization)")
    noise: ClassVar[bool] = False
    cluster: ClassVar[bool] = True
    fields: ClassVar[tuple[str, ...]] = ("n_buckets", "utility_weight", "confidential_output")
    choice: ClassVar[str] = QT_TRANSLATE_NOOP("mechanisms", "Bu&ckets: t-closeness by grouping")
    note: ClassVar[str] = QT_TRANSLATE_NOOP(
        "mechanisms", "exact guarantee, checked on the released file (default)"
    )
    tooltip: ClassVar[str] = QT_TRANSLATE_NOOP(
        "mechanisms",
        "The confidential values are grouped into buckets and each group keeps every bucket "
        "close to its share in the whole file (t-closeness)",
    )

    @classmethod
    def validate(cls, params: Any) -> None:
        only_noise = [
            name
            for name, used in (
                ("private_bounds", params.private_bounds is not None),
                ("insensitive", params.insensitive),
                ("resample_until_t", params.resample_until_t is not None),
                ("transform", params.transform != "none"),
            )
            if used
        ]
        if only_noise:
            raise InputError(
                _("{only_noise} only apply to a noise mechanism (mechanism 'laplace').").format(
                    only_noise=", ".join(only_noise)
                )
            )

    @classmethod
    def unused(cls, params: Any) -> set[str]:
        return {"utility_weight"} if params.n_buckets is not None else set()


__all__ = ["Buckets"]
