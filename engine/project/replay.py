"""Replaying a project: check its input, read it as the project says, run the release again.

Kept apart from the project file itself (:mod:`engine.project.files`), which the app reads
and writes without the engine's release machinery.
"""

from __future__ import annotations

from engine.io import ImportInfo, read_table
from engine.io.codebook import with_codebook
from engine.progress import NO_TASK, Task
from engine.project.files import InputChangedError, Project, check_input
from engine.release import Release, anonymize


def replay(
    project: Project,
    *,
    accept_changed_input: bool = False,
    task: Task = NO_TASK,
) -> tuple[Release, ImportInfo]:
    """Check the input, read it as the project says and run the release again.

    Returns ``(release, import_info)``.  With a seed in the project the release is the same
    table as the first time; without one it is another draw with the same guarantee.
    """
    try:
        check_input(project, task=task.sub(0.0, 0.05))
    except InputChangedError:
        if not accept_changed_input:
            raise
    imported = read_table(
        project.input.path,
        options=project.input.options,
        task=task.sub(0.05, 0.15),
    )
    # the file's labels say what the saved parameters leave unsaid (labelled codes are
    # categories, user-missing codes are missing), as on the first run
    params = with_codebook(project.params, imported.info.codebook)
    release = anonymize(imported.data, params, task=task.sub(0.15, 1.0))
    return release, imported.info


__all__ = ["replay"]
