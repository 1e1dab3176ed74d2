"""tclose engine: everything that reads, protects, verifies and writes microdata.

The engine is plain Python on numpy, pandas and scipy.  It knows nothing of Qt or of the
``gui`` package (an import-linter contract in ``pyproject.toml`` enforces this), so scripts,
the ``tclose`` command line, the desktop app and the tests all call the same functions.

A script needs only the names below::

    from engine import ReleaseParams, anonymize, plan, read_table, verify_release

:data:`MECHANISMS` (name → :class:`Mechanism`) lists the registered mechanisms, with what a
chooser of them shows (the desktop app builds its choice from it).

A long call takes ``task=Task(progress, cancel)``: ``progress(fraction, message)`` hears how
far it got, and ``cancel()`` returning True stops it with :class:`CancelledError`.

They are loaded on first use (PEP 562), so ``import engine.errors`` or ``tclose --help`` do
not pay for numpy, pandas and scipy.  The parts, lowest first: :mod:`engine.io` (files in and
out), :mod:`engine.mechanisms` (noise), :mod:`engine.release` (making and checking a release),
:mod:`engine.report` (report, plots, risk, sweep, projects) and :mod:`engine.cli`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports
from engine.version import __version__

if TYPE_CHECKING:
    from engine.errors import (
        CancelledError,
        InfeasibleError,
        InputError,
        TcloseError,
        VerificationError,
    )
    from engine.io import read_table, write_release
    from engine.mechanisms import MECHANISMS, Mechanism
    from engine.params import ReleaseParams
    from engine.privacy import Guarantee, epsilon_from_t, t_from_epsilon
    from engine.progress import Task
    from engine.recoding import Hierarchy, hierarchy_of
    from engine.release import (
        Buckets,
        Fix,
        Households,
        Phrase,
        Plan,
        Release,
        RunSummary,
        Verification,
        anonymize,
        find_households,
        kernel_check,
        plan,
        plan_words,
        summary_words,
        verify_release,
    )
    from engine.roles import ColumnType, Role

#: public name -> module that defines it
_EXPORTS = {
    "CancelledError": "engine.errors",
    "InfeasibleError": "engine.errors",
    "InputError": "engine.errors",
    "TcloseError": "engine.errors",
    "VerificationError": "engine.errors",
    "read_table": "engine.io",
    "write_release": "engine.io",
    "MECHANISMS": "engine.mechanisms",
    "Mechanism": "engine.mechanisms",
    "ReleaseParams": "engine.params",
    "Guarantee": "engine.privacy",
    "epsilon_from_t": "engine.privacy",
    "t_from_epsilon": "engine.privacy",
    "Task": "engine.progress",
    "Hierarchy": "engine.recoding",
    "hierarchy_of": "engine.recoding",
    "anonymize": "engine.release",
    "Phrase": "engine.release",
    "plan_words": "engine.release",
    "summary_words": "engine.release",
    "Households": "engine.release",
    "find_households": "engine.release",
    "kernel_check": "engine.release",
    "Fix": "engine.release",
    "Plan": "engine.release",
    "plan": "engine.release",
    "Buckets": "engine.release",
    "Release": "engine.release",
    "RunSummary": "engine.release",
    "Verification": "engine.release",
    "verify_release": "engine.release",
    "ColumnType": "engine.roles",
    "Role": "engine.roles",
}

__all__ = [
    "MECHANISMS",
    "Buckets",
    "CancelledError",
    "ColumnType",
    "Fix",
    "Guarantee",
    "Hierarchy",
    "Households",
    "InfeasibleError",
    "InputError",
    "Mechanism",
    "Phrase",
    "Plan",
    "Release",
    "ReleaseParams",
    "Role",
    "RunSummary",
    "Task",
    "TcloseError",
    "Verification",
    "VerificationError",
    "__version__",
    "anonymize",
    "epsilon_from_t",
    "find_households",
    "hierarchy_of",
    "kernel_check",
    "plan",
    "plan_words",
    "read_table",
    "summary_words",
    "t_from_epsilon",
    "verify_release",
    "write_release",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), __all__)
