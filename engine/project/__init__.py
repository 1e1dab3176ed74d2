"""Project files: a release recipe saved as JSON (:mod:`engine.project.files`), and its
replay (:func:`engine.project.replay.replay`, imported from there: it needs the engine's
release machinery, which the app's project dialogs do not)."""

from engine.io.files import file_sha256
from engine.project.files import (
    FORMAT,
    FORMAT_VERSION,
    InputChangedError,
    InputSpec,
    Project,
    check_input,
    load_project,
    new_project,
    outside_folder,
    params_from_version_1,
    project_from_dict,
    project_text,
    project_to_dict,
    save_project,
    seed_policy,
    with_input,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "InputChangedError",
    "InputSpec",
    "Project",
    "check_input",
    "file_sha256",
    "load_project",
    "new_project",
    "outside_folder",
    "params_from_version_1",
    "project_from_dict",
    "project_text",
    "project_to_dict",
    "save_project",
    "seed_policy",
    "with_input",
]
