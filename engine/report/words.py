"""The plain words of a plan and of a run summary, for the report and the app.

They live beside the plan and the summary (:mod:`engine.release.words`), so that the
summary's published metadata can carry its public phrases (the About sheet, the sidecar
JSON); this module is where the report, the command line and the app take them from.
"""

from engine.release import (
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
    "Phrase",
    "corrected_phrase",
    "declared_public",
    "join",
    "plan_words",
    "public_words",
    "shares_text",
    "summary_words",
]
