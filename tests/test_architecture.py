"""Guards of the product's architecture and of its dependency pins."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.cli_support import screenshots
from tests.conftest import ROOT


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )


def test_engine_imports_no_qt_and_no_gui() -> None:
    """Importing every engine module must not pull in PySide6 or the gui package."""
    proc = run_python(
        """
        import importlib, pkgutil, sys
        import engine
        for mod in pkgutil.walk_packages(engine.__path__, "engine."):
            if mod.name != "engine.__main__":
                importlib.import_module(mod.name)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in {"PySide6", "gui", "shiboken6"})
        print(",".join(bad))
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"engine imported {proc.stdout.strip()}"


def test_import_contracts_hold() -> None:
    """The import-linter contracts of pyproject.toml (engine below gui, no Qt in engine)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports_command;"
            " sys.exit(lint_imports_command())",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    n = len(declared["tool"]["importlinter"]["contracts"])
    assert n >= 3
    assert f"Contracts: {n} kept, 0 broken." in proc.stdout, proc.stdout


def test_many_signal_emits_do_not_crash() -> None:
    """PySide6 6.12.0 aborts Python 3.11 after a few hundred emits (bool refcount bug)."""
    proc = run_python(
        """
        from PySide6.QtCore import QCoreApplication, QObject, Signal

        class Source(QObject):
            changed = Signal(bool)
            progress = Signal(float, str)

        app = QCoreApplication([])
        src = Source()
        seen = []
        src.changed.connect(lambda v: seen.append(v))
        src.progress.connect(lambda f, m: None)
        for i in range(20_000):
            src.changed.emit(i % 2 == 0)
            src.progress.emit(i / 20_000, "step")
        assert len(seen) == 20_000
        print("ok")
        """
    )
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-2000:]}"
    assert proc.stdout.strip() == "ok"


def test_pyside6_version_is_not_the_broken_one() -> None:
    import PySide6

    assert not PySide6.__version__.startswith("6.12.0"), "PySide6 6.12.0 crashes on Python 3.11"


def test_cli_help_works() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    for command in ("anonymize", "verify"):
        assert command in proc.stdout


@pytest.mark.gui
def test_gui_first_page_renders(tmp_path) -> None:
    """The app starts offscreen and its first page renders to a non-empty picture."""
    proc = screenshots(tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pngs = sorted(tmp_path.glob("*.png"))
    assert pngs, "no screenshot written"
    from PySide6.QtGui import QImage

    image = QImage(str(pngs[0]))
    assert image.width() > 300 and image.height() > 200
    colours = {
        image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)
    }
    assert len(colours) > 5, "the page rendered blank"


def test_sample_workbook_is_bundled(sample_workbook) -> None:
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(str(sample_workbook)).get_sheet_by_index(0).to_python()
    header, body = rows[0], rows[1:]
    assert header == ["respondent_id", "age", "sex", "region", "occupation", "income", "diagnosis"]
    assert 300 <= len(body) <= 600


def test_public_api_names_resolve():
    """Every name the engine exports loads, and ``__all__`` lists exactly those names."""
    import engine

    assert set(engine.__all__) == {"__version__", *engine._EXPORTS}
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_no_import_circles() -> None:
    """No module imports itself through others, type-checking imports included."""
    import grimp

    graph = grimp.build_graph("engine", "gui")
    modules = sorted(graph.modules)
    imported = {m: graph.find_modules_directly_imported_by(m) & set(modules) for m in modules}
    # a module is in a circle when it can reach itself
    circles = []
    for start in modules:
        seen, todo = set(), list(imported[start])
        while todo:
            m = todo.pop()
            if m == start:
                circles.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(imported[m])
    assert circles == []


@pytest.mark.parametrize("container", ["engine", "engine.release"])
def test_every_module_sits_in_a_layer(container: str) -> None:
    """A layers contract checks only the modules it names: every module and package right
    under ``container`` must be named in one of its layers, or an import from it would go
    unchecked."""
    import re
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["type"] == "layers" and c.get("containers") == [container]
    ]
    layered = {name for layer in contract["layers"] for name in re.split(r"[|:]", layer)}
    folder = ROOT.joinpath(*container.split("."))
    present = {
        p.stem if p.is_file() else p.name
        for p in folder.iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert present - {n.strip() for n in layered} == set()
