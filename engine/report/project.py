"""Project files: everything needed to redo a release, in one readable JSON file.

A disclosure review board may ask an agency, months later, to show how a file was produced
and to produce it again.  A project file records the input (path and SHA-256 checksum, sheet
and reading options), the role and type of every column, missing-value codes, the privacy
parameters, the mechanism and the seed policy.  ``tclose run PROJECT.json`` replays it; the GUI
saves and opens the same files.

The checksum makes a replay honest: if the input file changed since the project was saved,
the replay stops with a message saying so (unless the caller accepts the change explicitly),
because the same parameters on other data give another release.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InputError, TcloseError
from engine.io.outputs import Output, write_outputs
from engine.params import ReleaseParams
from engine.progress import CancelFn, ProgressFn, scaled, step
from engine.roles import ColumnType
from engine.version import __version__

if TYPE_CHECKING:
    from engine.io import ImportInfo
    from engine.release.result import Release

#: the ``format`` field that marks a tclose project file
FORMAT = "tclose-project"
#: the layout version this module writes (and the newest it reads)
FORMAT_VERSION = 1

#: ReleaseParams fields stored under "parameters" (the rest have sections of their own)
_PARAMETERS = (
    "k",
    "t",
    "epsilon",
    "n_buckets",
    "qi_output",
    "confidential_output",
    "joint",
    "insensitive",
    "resample_until_t",
)


@dataclass(frozen=True)
class InputSpec:
    """Which file a project reads and how."""

    path: Path
    #: SHA-256 of the file's bytes when the project was saved (hex)
    sha256: str
    sheet: str | None = None
    separator: str | None = None
    encoding: str | None = None
    decimal: str | None = None
    #: 0-based row of the header (rows above it are title lines); None = detect
    header_row: int | None = None

    def read_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`engine.io.read_table`."""
        return {
            "sheet": self.sheet,
            "sep": self.separator,
            "encoding": self.encoding,
            "decimal": self.decimal,
            "header_row": self.header_row,
        }


@dataclass(frozen=True)
class Project:
    """A saved release recipe: input, configuration and where the results go."""

    input: InputSpec
    config: ReleaseParams
    #: the released table (.csv or .xlsx); None = the caller chooses
    output: Path | None = None
    #: the HTML release report; None = none
    report: Path | None = None
    #: free text the analyst wants kept with the project (purpose, approvals, ...)
    notes: str = ""
    #: the tclose version and time that saved the file (informative only)
    saved_by: str = field(default=f"tclose {__version__}", compare=False)
    saved_at: str | None = field(default=None, compare=False)


# -- checksums --------------------------------------------------------------------------------


def file_sha256(
    path: str | Path,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> str:
    """SHA-256 of a file's bytes, read in chunks (input files can be large)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        digest = hashlib.sha256()
        done = 0
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
                done += len(chunk)
                step(progress, cancel, done / size if size else 1.0, f"Checking {path.name}")
    except OSError as err:
        raise InputError(f"{path}: cannot be read ({err.strerror or err}).") from err
    return digest.hexdigest()


def new_project(
    input_path: str | Path,
    config: ReleaseParams,
    *,
    sheet: str | None = None,
    separator: str | None = None,
    encoding: str | None = None,
    decimal: str | None = None,
    header_row: int | None = None,
    output: str | Path | None = None,
    report: str | Path | None = None,
    notes: str = "",
) -> Project:
    """A project for ``config`` on the file ``input_path`` (its checksum computed now)."""
    path = Path(input_path).resolve()
    spec = InputSpec(path, file_sha256(path), sheet, separator, encoding, decimal, header_row)
    return Project(
        spec,
        config,
        output=Path(output) if output is not None else None,
        report=Path(report) if report is not None else None,
        notes=notes,
    )


# -- ReleaseParams <-> JSON ----------------------------------------------------------------------


def config_to_dict(config: ReleaseParams) -> dict[str, Any]:
    """The configuration in readable sections: roles, types, missing, parameters, ..."""
    return {
        "roles": {
            "quasi_identifiers": list(config.qi),
            "confidential": list(config.confidential),
            "identifiers": list(config.identifiers),
            "released_unchanged": list(config.keep),
        },
        "types": {col: str(ColumnType(t)) for col, t in config.types.items()},
        "orders": {col: list(order) for col, order in config.orders.items()},
        "missing": {
            "all_columns": list(config.missing),
            "per_column": {col: list(c) for col, c in config.column_missing.items()},
        },
        "parameters": {name: getattr(config, name) for name in _PARAMETERS},
        "mechanism": {
            "name": config.mechanism,
            "bounds": {col: [lo, hi] for col, (lo, hi) in config.bounds.items()},
        },
        "seed_policy": seed_policy(config.seed),
    }


def seed_policy(seed: int | None) -> dict[str, Any]:
    """The seed and what it means, in words for the reader of the file."""
    if seed is None:
        return {
            "seed": None,
            "reproducible": False,
            "note": "Fresh randomness on every run: a replay gives another, equally valid "
            "release (the parameters and the guarantee are the same).",
        }
    return {
        "seed": int(seed),
        "reproducible": True,
        "note": "A fixed seed makes the run reproducible for audits. Anyone who knows the "
        "seed can reproduce the random choices, so keep it as confidential as the data.",
    }


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"Project file: {where} must be a list of texts.")
    return tuple(value)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"Project file: {where} must be an object of column: value.")
    return value


def config_from_dict(data: Mapping[str, Any]) -> ReleaseParams:
    """The inverse of :func:`config_to_dict` (clear InputErrors for hand-edited mistakes)."""
    roles = _mapping(data.get("roles"), "roles")
    try:
        types = {col: ColumnType(t) for col, t in _mapping(data.get("types"), "types").items()}
    except ValueError as err:
        allowed = ", ".join(t.value for t in ColumnType)
        raise InputError(f"Project file: unknown column type ({err}); use {allowed}.") from err
    orders = {
        col: _str_list(o, f"orders.{col}")
        for col, o in _mapping(data.get("orders"), "orders").items()
    }
    missing = _mapping(data.get("missing"), "missing")
    params = dict(_mapping(data.get("parameters"), "parameters"))
    unknown = sorted(set(params) - set(_PARAMETERS))
    if unknown:
        raise InputError(f"Project file: unknown parameter(s) {', '.join(unknown)}.")
    if "k" not in params:
        raise InputError("Project file: the parameters lack k.")
    mechanism = _mapping(data.get("mechanism"), "mechanism")
    bounds = {}
    for col, b in _mapping(mechanism.get("bounds"), "mechanism.bounds").items():
        if not (isinstance(b, list) and len(b) == 2):
            raise InputError(f"Project file: bounds of {col} must be [low, high].")
        bounds[col] = (float(b[0]), float(b[1]))
    seed = _mapping(data.get("seed_policy"), "seed_policy").get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError(f"Project file: the seed must be a whole number or null, not {seed!r}.")
    return ReleaseParams(
        qi=_str_list(roles.get("quasi_identifiers"), "roles.quasi_identifiers"),
        confidential=_str_list(roles.get("confidential"), "roles.confidential"),
        identifiers=_str_list(roles.get("identifiers"), "roles.identifiers"),
        keep=_str_list(roles.get("released_unchanged"), "roles.released_unchanged"),
        types=types,
        orders=orders,
        missing=_str_list(missing.get("all_columns"), "missing.all_columns"),
        column_missing={
            col: _str_list(c, f"missing.per_column.{col}")
            for col, c in _mapping(missing.get("per_column"), "missing.per_column").items()
        },
        mechanism=mechanism.get("name", "buckets"),
        bounds=bounds,
        seed=seed,
        **params,
    )


# -- Project <-> JSON ----------------------------------------------------------------------------


def _relative(path: Path, base: Path) -> str | None:
    try:
        return Path(os.path.relpath(path, base)).as_posix()
    except ValueError:  # another drive on Windows
        return None


def project_to_dict(project: Project, *, base: Path | None = None) -> dict[str, Any]:
    """The JSON document of a project; paths also stored relative to ``base`` (its folder)."""
    spec = project.input
    path = Path(spec.path).resolve()
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "saved_by": f"tclose {__version__}",
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "input": {
            "path": str(path),
            "relative_path": _relative(path, base) if base is not None else None,
            "sha256": spec.sha256,
            "sheet": spec.sheet,
            "separator": spec.separator,
            "encoding": spec.encoding,
            "decimal": spec.decimal,
            "header_row": spec.header_row,
        },
        **config_to_dict(project.config),
        "output": {
            "release": str(project.output) if project.output is not None else None,
            "report": str(project.report) if project.report is not None else None,
        },
        "notes": project.notes,
    }
    return doc


def _header_row(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"Project file: header_row must be a row number ≥ 0, not {value!r}.")
    return value


def project_from_dict(doc: Mapping[str, Any], *, base: Path | None = None) -> Project:
    """The inverse of :func:`project_to_dict`; relative output paths resolve against ``base``."""
    if doc.get("format") != FORMAT:
        raise InputError("This is not a tclose project file (its 'format' field is missing).")
    version = doc.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise InputError(
            f"This project file has layout version {version}; this tclose reads up to "
            f"{FORMAT_VERSION}. Open it with a newer tclose."
        )
    inp = _mapping(doc.get("input"), "input")
    if not inp.get("path") or not inp.get("sha256"):
        raise InputError("Project file: the input needs a path and a sha256 checksum.")
    path = Path(inp["path"])
    rel = inp.get("relative_path")
    if base is not None and rel and not path.is_file() and (base / rel).is_file():
        path = (base / rel).resolve()  # the folder moved with its data
    spec = InputSpec(
        path=path,
        sha256=str(inp["sha256"]).lower(),
        sheet=inp.get("sheet"),
        separator=inp.get("separator"),
        encoding=inp.get("encoding"),
        decimal=inp.get("decimal"),
        header_row=_header_row(inp.get("header_row")),
    )
    out = _mapping(doc.get("output"), "output")

    def resolve(p: str | None) -> Path | None:
        if not p:
            return None
        q = Path(p)
        return q if q.is_absolute() or base is None else base / q

    return Project(
        spec,
        config_from_dict(doc),
        output=resolve(out.get("release")),
        report=resolve(out.get("report")),
        notes=str(doc.get("notes") or ""),
        saved_by=str(doc.get("saved_by", "")),
        saved_at=doc.get("saved_at"),
    )


def save_project(project: Project, path: str | Path, *, replace_foreign: bool = False) -> Path:
    """Write ``project`` as indented JSON to ``path`` (``.json`` added when absent).

    Written atomically by :mod:`engine.io.outputs`: never over the project's input file, and
    over an existing JSON file only when it is a project or tclose's own output (unless
    ``replace_foreign``, after the user has confirmed it).
    """
    path = Path(path)
    if path.suffix.lower() != ".json":
        path = path.with_name(path.name + ".json")
    doc = project_to_dict(project, base=path.resolve().parent)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    output = Output(path, "project", replace_foreign)
    with write_outputs([output], inputs=[project.input.path]) as stage:
        stage.write_text(path, text)
    return path


def load_project(path: str | Path) -> Project:
    """Read a project file (does not yet look at the input file; see :func:`check_input`)."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise InputError(f"{path}: no such project file.") from err
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: cannot be read as a project file ({err}).") from err
    except json.JSONDecodeError as err:
        raise InputError(
            f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})."
        ) from err
    if not isinstance(doc, dict):
        raise InputError(f"{path}: not a tclose project file.")
    try:
        return project_from_dict(doc, base=path.resolve().parent)
    except TcloseError as err:
        raise InputError(f"{path}: {err.message}") from err


# -- checking and replaying ------------------------------------------------------------------------


class InputChangedError(InputError):
    """The project's input file is not the one the project was saved with."""


def check_input(
    project: Project,
    *,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> str:
    """Compare the input file with the saved checksum; returns the file's current checksum.

    Raises :class:`InputChangedError` when the file differs and InputError when it is gone.
    """
    path = Path(project.input.path)
    if not path.is_file():
        raise InputError(
            f"The project's input file {path} is not there; put it back or open the "
            "project in the GUI and choose the file again."
        )
    current = file_sha256(path, progress=progress, cancel=cancel)
    if current != project.input.sha256:
        raise InputChangedError(
            f"The input file {path.name} changed since the project was saved (its SHA-256 "
            f"checksum is {current[:12]}…, the project expects {project.input.sha256[:12]}…); "
            "the same parameters would give another release. Restore the original file, or "
            "accept the change explicitly (tclose run --accept-changed-input).",
        )
    return current


def with_input(project: Project, input_path: str | Path) -> Project:
    """The project pointed at another (or an updated) input file, its checksum recomputed."""
    path = Path(input_path).resolve()
    return replace(project, input=replace(project.input, path=path, sha256=file_sha256(path)))


def replay(
    project: Project,
    *,
    accept_changed_input: bool = False,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
) -> tuple[Release, ImportInfo]:
    """Check the input, read it as the project says and run the release again.

    Returns ``(release, import_info)``.  With a seed in the project the release is the same
    table as the first time; without one it is another draw with the same guarantee.
    """
    from engine.io import read_table
    from engine.release.anonymize import anonymize  # imported here: the engine core is heavy

    try:
        check_input(project, progress=scaled(progress, 0.0, 0.05), cancel=cancel)
    except InputChangedError:
        if not accept_changed_input:
            raise
    imported = read_table(
        project.input.path,
        **project.input.read_options(),
        progress=scaled(progress, 0.05, 0.15),
        cancel=cancel,
    )
    release = anonymize(
        imported.data, project.config, progress=scaled(progress, 0.15, 1.0), cancel=cancel
    )
    return release, imported.info
