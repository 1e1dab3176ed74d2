"""``--review`` and ``--anonymous``: the two documents of a run, as the command line writes them.

What goes out with a release (the About sheet, the JSON beside a CSV or Parquet release,
``--summary``) is the published metadata, ``RunSummary.public_dict()``: computable from the
release and its public parameters alone.  Everything else (the seed, the input's checksum,
the losses and analysis measures against the original data, the warnings, the time taken)
is the review record, ``RunSummary.to_dict()``, which ``--review FILE.json`` writes through
the same checked, all-or-nothing writer as the release.  ``--anonymous`` leaves the input
file's name (and a project's) out of the published files too.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import InputError
from engine.i18n import _

if TYPE_CHECKING:
    from engine.io.outputs import Output
    from engine.release import RunSummary


def add_record_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--review",
        metavar="FILE.json",
        help=_(
            "write the review record (seed, input checksum, losses against the original "
            "data): for the disclosure review, not for publication"
        ),
    )
    p.add_argument(
        "--anonymous",
        action="store_true",
        help=_("leave the input file's name out of the published files"),
    )


def json_output(name: str | None, kind: str, refusal: str) -> list[Output]:
    """The JSON file a flag names as an output of ``kind`` to check before the run (none
    when the flag is not given); ``refusal`` (its ``{path}`` filled) when it is not ….json."""
    from engine.io.outputs import Output

    if not name:
        return []
    path = Path(name)
    if path.suffix.lower() != ".json":
        raise InputError(refusal.format(path=path))
    return [Output(path, kind)]


def review_output(args: argparse.Namespace) -> list[Output]:
    """The ``--review`` file as an output to check before the run (none without it)."""
    return json_output(
        getattr(args, "review", None),
        "review",
        _("{path}: the review record is a JSON file; name it ….json."),
    )


def review_record(summary: RunSummary, source: str | Path | None) -> RunSummary:
    """``summary`` with the input's SHA-256 checksum, for the review record."""
    if source is None or not Path(source).is_file():
        return summary
    from engine.io.files import file_sha256

    return replace(summary, input_sha256=file_sha256(source))


def json_text(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def seed_note(
    summary: RunSummary,
    *,
    review: str | Path | None,
    report: str | Path | None,
    project: str | Path | None = None,
) -> str:
    """Where the seed went ("" without one): never to the published files."""
    seed = summary.params.seed
    if seed is None:
        return ""
    kept = [str(p) for p in (review, report) if p]
    places = [_("the review record ({files})").format(files=" + ".join(kept))] if kept else []
    if project:
        places.append(_("the project file ({file})").format(file=project))
    if places:
        where = _("it is written only to {places}").format(places="; ".join(places))
    else:
        where = _("it is written to no file: keep it with the review record (--review FILE.json)")
    return _(
        "note: the seed {seed} is left out of the published files (anyone holding it could "
        "redraw the randomness); {where}."
    ).format(seed=seed, where=where)


__all__ = [
    "add_record_arguments",
    "json_output",
    "json_text",
    "review_output",
    "review_record",
    "seed_note",
]
