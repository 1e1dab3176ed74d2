"""Project files: everything needed to redo a release, in one readable JSON file.

A disclosure review board may ask an agency, months later, to show how a file was produced
and to produce it again.  A project file records the input (path and SHA-256 checksum, sheet
and reading options), the role and type of every column, missing-value codes, the privacy
parameters, the mechanism and the seed policy.  ``tclose run PROJECT.json`` replays it
(:mod:`engine.project.replay`); the GUI saves and opens the same files.

The checksum makes a replay honest: if the input file changed since the project was saved,
the replay stops with a message saying so (unless the caller accepts the change explicitly),
because the same parameters on other data give another release.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.errors import InputError, TcloseError, cut, quoted
from engine.i18n import _
from engine.io.files import file_sha256
from engine.io.info import ReadOptions
from engine.io.outputs import Output, write_outputs
from engine.mechanisms import MECHANISMS
from engine.params import ReleaseParams
from engine.progress import NO_TASK, Task
from engine.version import __version__

#: the ``format`` field that marks a tclose project file
FORMAT = "tclose-project"
#: the layout version this module writes (and the newest it reads); 1 had the parameters in
#: sections (roles, types, missing, parameters, mechanism), 2 has ``ReleaseParams.to_dict()``
FORMAT_VERSION = 2


@dataclass(frozen=True)
class InputSpec:
    """Which file a project reads and how."""

    path: Path
    #: SHA-256 of the file's bytes when the project was saved (hex)
    sha256: str
    #: the sheet, separator, encoding, decimal mark and header row; None = detect
    options: ReadOptions = field(default_factory=ReadOptions)


@dataclass(frozen=True)
class Project:
    """A saved release recipe: input, parameters and where the results go."""

    input: InputSpec
    params: ReleaseParams
    #: the released table (.csv or .xlsx); None = the caller chooses
    output: Path | None = None
    #: the HTML release report; None = none
    report: Path | None = None
    #: free text the analyst wants kept with the project (purpose, approvals, ...)
    notes: str = ""
    #: where the release is computed, as ``--cluster`` takes it ("local:4", a scheduler
    #: address); None = this computer.  Not a parameter of the release.
    backend: str | None = None
    #: the tclose version and time that saved the file (informative only)
    saved_by: str = field(default=f"tclose {__version__}", compare=False)
    saved_at: str | None = field(default=None, compare=False)


def new_project(
    input_path: str | Path,
    params: ReleaseParams,
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
    """A project for ``params`` on the file ``input_path`` (its checksum computed now)."""
    path = Path(input_path).resolve()
    options = ReadOptions(
        sep=separator, sheet=sheet, encoding=encoding, decimal=decimal, header_row=header_row
    )
    spec = InputSpec(path, file_sha256(path), options)
    return Project(
        spec,
        params,
        output=Path(output) if output is not None else None,
        report=Path(report) if report is not None else None,
        notes=notes,
    )


# -- the parameters of layout version 1 --------------------------------------------------


def seed_policy(params: ReleaseParams) -> dict[str, Any]:
    """The seed and what it means, for the reader of the file (informative; not read back)."""
    return {
        "seed": params.seed,
        "reproducible": params.seed is not None,
        "note": MECHANISMS[params.mechanism].seed_policy(params.seed)
        + (
            " A replay gives another, equally valid release with the same guarantee."
            if params.seed is None
            else ""
        ),
    }


def _section(doc: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = doc.get(name)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(_("Project file: {name} must be an object.").format(name=name))
    return value


def params_from_version_1(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of a layout-1 file as the dictionary :meth:`ReleaseParams.from_dict` reads.

    Layout 1 kept the same values in readable sections; only the places move, every value is
    then checked by :class:`ReleaseParams` like any other.
    """
    roles = _section(doc, "roles")
    missing = _section(doc, "missing")
    mechanism = _section(doc, "mechanism")
    out: dict[str, Any] = {
        "qi": roles.get("quasi_identifiers", []),
        "confidential": roles.get("confidential", []),
        "identifiers": roles.get("identifiers", []),
        "keep": roles.get("released_unchanged", []),
        "types": doc.get("types") or {},
        "orders": doc.get("orders") or {},
        "missing": missing.get("all_columns", []),
        "column_missing": missing.get("per_column") or {},
        **_section(doc, "parameters"),
        "mechanism": mechanism.get("name", "buckets"),
        "bounds": mechanism.get("bounds") or {},
        "seed": _section(doc, "seed_policy").get("seed"),
    }
    return {key: value for key, value in out.items() if value is not None or key == "seed"}


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
            "sheet": spec.options.sheet,
            "separator": spec.options.sep,
            "encoding": spec.options.encoding,
            "decimal": spec.options.decimal,
            "header_row": spec.options.header_row,
        },
        "params": project.params.to_dict(),
        "seed_policy": seed_policy(project.params),
        "output": {
            "release": str(project.output) if project.output is not None else None,
            "report": str(project.report) if project.report is not None else None,
        },
        "notes": project.notes,
    }
    if project.backend is not None:
        doc["backend"] = {"cluster": project.backend}
    return doc


def _backend(value: Any) -> str | None:
    """The ``backend`` field: null, or ``{"cluster": "local" | "local:N" | "tcp://HOST:PORT"}``."""
    if value is None:
        return None
    cluster = value.get("cluster") if isinstance(value, Mapping) else None
    if (
        not isinstance(value, Mapping)
        or set(value) - {"cluster"}
        or not (cluster is None or isinstance(cluster, str))
    ):
        raise InputError(
            _(
                'Project file: backend must be {{"cluster": "local"}}, {{"cluster": "local:N"}} '
                'or {{"cluster": "tcp://HOST:PORT"}} (or null), not {value}.'
            ).format(value=json.dumps(value)[:80])
        )
    if cluster is None or not cluster.strip():
        return None
    from engine.distributed.cluster import parse_cluster  # light: Dask is imported on use

    try:
        parse_cluster(cluster)
    except InputError as err:
        raise InputError(
            _("Project file: backend.cluster: {reason}").format(reason=err.message)
        ) from err
    return cluster.strip()


def _header_row(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            _("Project file: header_row must be a row number ≥ 0, not {value}.").format(
                value=repr(value)
            )
        )
    return value


def _text(section: Mapping[str, Any], key: str, where: str) -> str | None:
    value = section.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(
            _("Project file: {where}.{key} must be a text or null, not {value}.").format(
                where=where, key=key, value=repr(value)
            )
        )
    return value


#: the top-level fields of a layout-2 project file
_KEYS = frozenset(
    {"format", "format_version", "saved_by", "saved_at", "input", "params", "seed_policy"}
    | {"output", "notes"}
    # where the release is computed ({"cluster": "local:4"}), read by `tclose run`; not a
    # parameter of the release (engine.distributed.cluster.Backend)
    | {"backend"}
)


def project_from_dict(doc: Mapping[str, Any], *, base: Path | None = None) -> Project:
    """The inverse of :func:`project_to_dict`; relative output paths resolve against ``base``."""
    if doc.get("format") != FORMAT:
        raise InputError(_("This is not a tclose project file (its 'format' field is missing)."))
    version = doc.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise InputError(
            _("Project file: format_version must be a whole number ≥ 1, not {value}.").format(
                value=repr(version)
            )
        )
    if version > FORMAT_VERSION:
        raise InputError(
            _(
                "This project file has layout version {version}; this tclose reads versions 1 "
                "to {latest}. Open it with a newer tclose."
            ).format(version=version, latest=FORMAT_VERSION)
        )
    unknown = sorted(set(doc) - _KEYS) if version >= 2 else []
    if unknown:
        raise InputError(
            _("Project file: unknown field(s) {unknown}; a project has {known}.").format(
                unknown=", ".join(map(repr, unknown)), known=", ".join(sorted(_KEYS))
            )
        )
    inp = _section(doc, "input")
    path_text, sha = _text(inp, "path", "input"), _text(inp, "sha256", "input")
    if not path_text or not sha:
        raise InputError(_("Project file: the input needs a path and a sha256 checksum."))
    path = Path(path_text)
    rel = _text(inp, "relative_path", "input")
    if base is not None and rel and not path.is_file() and (base / rel).is_file():
        path = (base / rel).resolve()  # the folder moved with its data
    options = ReadOptions(
        sheet=_text(inp, "sheet", "input"),
        sep=_text(inp, "separator", "input"),
        encoding=_text(inp, "encoding", "input"),
        decimal=_text(inp, "decimal", "input"),
        header_row=_header_row(inp.get("header_row")),
    )
    spec = InputSpec(path, sha.lower(), options)
    out = _section(doc, "output")
    raw = params_from_version_1(doc) if version == 1 else doc.get("params")
    if raw is None:
        raise InputError(_("Project file: the parameters ('params') are missing."))
    params = ReleaseParams.from_dict(raw)
    if not params.qi:  # as `--qi` must name a column, and as the app saves no project without
        raise InputError(
            _(
                "Project file: qi names no column; a release needs one or more "
                "quasi-identifiers, as --qi does on the command line."
            )
        )

    def resolve(p: str | None) -> Path | None:
        if not p:
            return None
        q = Path(p)
        return q if q.is_absolute() or base is None else base / q

    return Project(
        spec,
        params,
        output=resolve(_text(out, "release", "output")),
        report=resolve(_text(out, "report", "output")),
        notes=_text(doc, "notes", "project") or "",
        backend=_backend(doc.get("backend")),
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
    output = Output(path, "project", replace_foreign)
    with write_outputs([output], inputs=[project.input.path]) as stage:
        stage.write_utf8(path, project_text(project, path))
    return path


def project_text(project: Project, path: str | Path) -> str:
    """The text of ``project`` saved as ``path`` (its paths also relative to that folder):
    what :func:`save_project` writes, for a caller that stages it with other files."""
    doc = project_to_dict(project, base=Path(path).resolve().parent)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


class _DuplicateKey(ValueError):
    """A JSON object names the same key twice (``{"k": 5, "k": 1}``)."""

    def __init__(self, key: str, first: Any, second: Any) -> None:
        super().__init__(key)
        self.key, self.first, self.second = key, first, second


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refusing a key given twice: ``json.loads`` would keep
    the last value without a word, so ``"k": 5, "k": 1`` would silently release k = 1."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key, out[key], value)
        out[key] = value
    return out


def _shown(value: Any) -> str:
    """A JSON value as a message quotes it: short."""
    return cut(json.dumps(value, ensure_ascii=False), 40)


def load_project(path: str | Path) -> Project:
    """Read a project file (does not yet look at the input file; see :func:`check_input`).

    Read as strictly as the command line reads its flags: a key given twice is refused (a
    flag's value cannot be two things either), and every parameter goes through
    :meth:`ReleaseParams.from_dict`, whose sentences are the flags' own.
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_unique_keys)
    except _DuplicateKey as err:
        raise InputError(
            _(
                "{path}: the key {key} is given twice ({first}, then {second}); a project "
                "file gives each key once, so that it cannot say two things."
            ).format(
                path=path, key=quoted(err.key), first=_shown(err.first), second=_shown(err.second)
            )
        ) from None
    except FileNotFoundError as err:
        raise InputError(_("{path}: no such project file.").format(path=path)) from err
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(
            _("{path}: cannot be read as a project file ({reason}).").format(path=path, reason=err)
        ) from err
    except RecursionError as err:
        raise InputError(
            _("{path}: nested too deeply to be a tclose project file.").format(path=path)
        ) from err
    except json.JSONDecodeError as err:
        raise InputError(
            _("{path}: not valid JSON (line {line}, column {column}: {reason}).").format(
                path=path, line=err.lineno, column=err.colno, reason=err.msg
            )
        ) from err
    if not isinstance(doc, dict):
        raise InputError(_("{path}: not a tclose project file.").format(path=path))
    try:
        return project_from_dict(doc, base=path.resolve().parent)
    except TcloseError as err:
        raise InputError(f"{path}: {err.message}") from err


# -- checking and replaying ------------------------------------------------------------------------


def outside_folder(project_file: str | Path, target: Path, what: str, flag: str) -> None:
    """Refuse a ``target`` (the project's release or report) outside the project file's
    folder: a project received from someone else must not replace a file elsewhere on this
    computer (``"release": "../victim.csv"``).  The user confirms such a place by naming it
    on the command line (``flag``)."""
    folder = Path(os.path.realpath(Path(project_file).parent))
    place = Path(os.path.realpath(target))
    if place.parent == folder or folder in place.parents:
        return
    raise InputError(
        _(
            "{name} would write {what} to {target}, outside the project's "
            "folder {folder}. A project writes only in its own folder unless you confirm the "
            "place: give it on the command line ({flag} {target})."
        ).format(name=Path(project_file).name, what=what, target=target, folder=folder, flag=flag)
    )


class InputChangedError(InputError):
    """The project's input file is not the one the project was saved with."""


def check_input(project: Project, *, task: Task = NO_TASK) -> str:
    """Compare the input file with the saved checksum; returns the file's current checksum.

    Raises :class:`InputChangedError` when the file differs and InputError when it is gone.
    """
    path = Path(project.input.path)
    if not path.is_file():
        raise InputError(
            _(
                "The project's input file {path} is not there; put it back or open the "
                "project in the GUI and choose the file again."
            ).format(path=path)
        )
    current = file_sha256(path, task=task)
    if current != project.input.sha256:
        raise InputChangedError(
            _(
                "The input file {name} changed since the project was saved (its SHA-256 checksum "
                "is {current}…, the project expects {sha256}…); the same parameters would give "
                "another release. Restore the original file, or accept the change explicitly "
                "(tclose run --accept-changed-input)."
            ).format(name=path.name, current=current[:12], sha256=project.input.sha256[:12]),
        )
    return current


def with_input(project: Project, input_path: str | Path) -> Project:
    """The project pointed at another (or an updated) input file, its checksum recomputed."""
    path = Path(input_path).resolve()
    return replace(project, input=replace(project.input, path=path, sha256=file_sha256(path)))
