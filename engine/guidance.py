"""What the published SDC guidance asks of each release type, and where settings fall short.

An agency fixes the release type and the intruder scenario before it protects a file (IHSN
SDC practice guide, Benschop & Welch, steps 3–4): a public-use file reaches anyone, a
scientific-use or licensed file only registered or named users under an agreement, a data
enclave only people working inside a controlled environment.  The guide says of
k-anonymity (section "Measuring risk", k-anonymity): "In many institutions, typically
required thresholds for k-anonymity are 3 and 5."  tclose takes the higher of the two for a
public-use file, which anyone can match against any other source, and the lower for a
scientific-use or licensed file, whose users sign an agreement not to; an enclave release
has no threshold of its own (its outputs are checked instead).  That assignment is tclose's
reading of the guide, stated as such wherever it is shown (docs/method.md).

:func:`guidance_warnings` is a function of the parameters alone: the plan shows its words
before a run, the report and the summary carry them with the release's other warnings.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.i18n import N_, _
from engine.params import ReleaseParams


@dataclass(frozen=True)
class Guidance:
    """The smallest k the guidance asks for one release type, and where it says so."""

    release_type: str
    #: the smallest k; None = the guidance gives no threshold for this type
    k: int | None
    #: where the figure comes from (a short citation)
    source: str


#: the guidance the plan compares a release with
SOURCE = N_(
    "IHSN/World Bank SDC practice guide (Benschop & Welch), Measuring risk, k-anonymity: "
    "typically required thresholds are 3 and 5"
)
GUIDANCE = {
    "public": Guidance("public", 5, SOURCE),
    "scientific": Guidance("scientific", 3, SOURCE),
    "licensed": Guidance("licensed", 3, SOURCE),
    "enclave": Guidance("enclave", None, SOURCE),
}

#: each release type in words (the plan, the report and the DDI name it so)
RELEASE_TYPE_WORDS = {
    "public": N_("a public-use file"),
    "scientific": N_("a scientific-use file"),
    "licensed": N_("a licensed file"),
    "enclave": N_("a data-enclave file"),
}


def guidance_warnings(params: ReleaseParams) -> list[str]:
    """The sentences that say where ``params`` fall short of the guidance for their
    release type (none when they meet it)."""
    if params.release_type is None:
        return []  # not stated: nothing to compare with
    guide = GUIDANCE[params.release_type]
    out = []
    if guide.k is not None and params.k < guide.k:
        out.append(
            _(
                "k = {k} is below the k = {needed} that the guidance asks of {kind} "
                "({source}); raise k, or choose a release type with narrower access."
            ).format(
                k=params.k,
                needed=guide.k,
                kind=_(RELEASE_TYPE_WORDS[params.release_type]),
                source=_(guide.source),
            )
        )
    return out


__all__ = ["GUIDANCE", "RELEASE_TYPE_WORDS", "SOURCE", "Guidance", "guidance_warnings"]
