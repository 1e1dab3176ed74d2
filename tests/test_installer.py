"""Fast checks of the installer files; the slow bundle build is installer/build_linux.sh.

The PyInstaller spec is executed with stand-ins for PyInstaller's build classes, so a spec
that names a missing file, a wrong entry script or forgets the sample is caught here without
the several-minute build.  The wheelhouse script's commands are parsed with pip's own option
parser, so a misspelt or misplaced flag fails here rather than on an IT desk.
"""

from __future__ import annotations

import os
import plistlib
import re
import shlex
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest
from PIL import Image

from engine.release import Verification

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "installer"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


# --- the PyInstaller spec -----------------------------------------------------------------


class _Recorder:
    """Stands in for one PyInstaller build class; remembers how the spec called it."""

    calls: list[_Recorder]

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.args = args
        self.kwargs = kwargs
        self.calls.append(self)


def _build_classes() -> dict[str, type]:
    classes = {}
    for name in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE"):
        classes[name] = type(name, (_Recorder,), {"calls": []})

    def analysis_init(self: _Recorder, scripts: list[str], **kwargs: object) -> None:
        _Recorder.__init__(self, scripts, **kwargs)
        # as PyInstaller 6 lists them: run-time hooks, then the program script
        self.scripts = [("pyi_rth_inspect", "/hooks/pyi_rth_inspect.py", "PYSOURCE")] + [
            (Path(s).stem, s, "PYSOURCE-1") for s in scripts
        ]
        self.pure, self.binaries, self.datas = [], [], []

    classes["Analysis"].__init__ = analysis_init
    return classes


def _fake_hooks() -> types.ModuleType:
    """PyInstaller.utils.hooks with the four helpers the spec uses, done plainly."""
    import importlib
    import pkgutil

    def collect_submodules(package: str) -> list[str]:
        module = importlib.import_module(package)
        names = [package]
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            names.append(info.name)
        return names

    def collect_data_files(package: str, excludes: list[str] = ()) -> list[tuple[str, str]]:
        base = Path(importlib.import_module(package).__file__).parent
        found = []
        for file in base.rglob("*"):
            if file.is_file() and file.suffix not in {".py", ".pyc"}:
                found.append((str(file), str(file.parent.relative_to(base.parent))))
        return found

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = collect_submodules
    hooks.collect_data_files = collect_data_files
    hooks.collect_dynamic_libs = lambda package, destdir=None, search_patterns=(): []
    hooks.copy_metadata = lambda name: [(f"{name}.dist-info", f"{name}.dist-info")]
    return hooks


def _run_spec(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, object]:
    hooks = _fake_hooks()
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setattr(sys, "path", list(sys.path))
    spec_file = INSTALLER / "tclose.spec"
    namespace: dict[str, object] = {
        "__name__": "__main__",
        "__file__": str(spec_file),
        "SPECPATH": str(INSTALLER),
        "workpath": str(tmp_path / "build"),
        "DISTPATH": str(tmp_path / "dist"),
        **_build_classes(),
    }
    exec(compile(spec_file.read_text(encoding="utf-8"), str(spec_file), "exec"), namespace)
    return namespace


@pytest.fixture
def spec_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, object]:
    """Execute installer/tclose.spec as PyInstaller would; returns its globals."""
    return _run_spec(monkeypatch, tmp_path)


@pytest.fixture
def mac_spec_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, object]:
    """The spec as PyInstaller runs it on macOS (where it also makes the .app bundle)."""
    monkeypatch.delenv("CODESIGN_IDENTITY", raising=False)
    monkeypatch.setattr(sys, "platform", "darwin")
    return _run_spec(monkeypatch, tmp_path)


def _info_plist(spec: dict[str, object]) -> dict[str, object]:
    """Contents/Info.plist as PyInstaller 6's BUNDLE writes it, read back with plistlib.

    PyInstaller starts from its own keys -- CFBundleExecutable is the folder's first program,
    and a console flag (taken from the last one) adds LSBackgroundOnly = true -- then applies
    the spec's ``info_plist`` on top.
    """
    (bundle,) = spec["BUNDLE"].calls
    (collect,) = bundle.args
    programs = [arg for arg in collect.args if isinstance(arg, spec["EXE"])]
    keys: dict[str, object] = {
        "CFBundleDisplayName": "tclose",
        "CFBundleName": "tclose",
        "CFBundleIdentifier": bundle.kwargs["bundle_identifier"],
        "CFBundleExecutable": programs[0].kwargs["name"],
        "CFBundleIconFile": Path(bundle.kwargs["icon"]).name,
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundlePackageType": "APPL",
        "CFBundleShortVersionString": bundle.kwargs["version"],
    }
    if programs[-1].kwargs["console"]:
        keys["LSBackgroundOnly"] = True
    else:
        keys["NSHighResolutionCapable"] = True
    keys.update(bundle.kwargs["info_plist"])
    return plistlib.loads(plistlib.dumps(keys))


def test_macos_app_is_a_dock_app_that_finder_offers_for_data_files(
    mac_spec_run: dict[str, object],
) -> None:
    plist = _info_plist(mac_spec_run)
    # a normal app: Dock icon, menu bar, windows in front; it starts the wizard, not the CLI
    assert plist["LSBackgroundOnly"] is False and plist["LSUIElement"] is False
    assert plist["CFBundleExecutable"] == "tclose-gui"
    assert plist["NSHighResolutionCapable"] is True
    assert plist["CFBundleIconFile"] == "tclose.icns"
    assert plist["CFBundleIdentifier"] == "org.tclose.tclose"
    numbers = VERSION.split("+")[0].split(".")[:3]
    assert plist["CFBundleShortVersionString"] == ".".join(numbers)
    assert plist["CFBundleVersion"] == VERSION
    # Finder's "Open With" lists tclose for spreadsheets, CSV and project files, but never
    # makes it their default application
    types = plist["CFBundleDocumentTypes"]
    content = {uti for entry in types for uti in entry["LSItemContentTypes"]}
    assert {
        "org.openxmlformats.spreadsheetml.sheet",
        "public.comma-separated-values-text",
        "public.json",
    } <= content
    extensions = {ext for entry in types for ext in entry["CFBundleTypeExtensions"]}
    assert {"xlsx", "csv", "json"} <= extensions
    assert all(e["CFBundleTypeRole"] == "Viewer" and e["LSHandlerRank"] == "Alternate"
               for e in types)  # fmt: skip


def test_the_macos_bundle_wraps_the_one_folder_app(mac_spec_run: dict[str, object]) -> None:
    (bundle,) = mac_spec_run["BUNDLE"].calls
    assert bundle.kwargs["name"] == "tclose.app"
    assert bundle.args == (mac_spec_run["app_folder"],)
    assert Path(bundle.kwargs["icon"]).suffix == ".icns" and Path(bundle.kwargs["icon"]).is_file()


def test_spec_builds_gui_and_cli_into_one_folder(spec_run: dict[str, object]) -> None:
    (analysis,) = spec_run["Analysis"].calls  # one analysis serves both programs
    assert [Path(s).name for s in analysis.args[0]] == ["tclose_gui.py"]
    exes = {e.kwargs["name"]: e for e in spec_run["EXE"].calls}
    assert set(exes) == {"tclose-gui", "tclose"}
    assert exes["tclose-gui"].kwargs["console"] is False  # windowed app
    assert exes["tclose"].kwargs["console"] is True
    # each program runs PyInstaller's run-time hooks, then its own entry script
    for name, script in (("tclose-gui", "tclose_gui.py"), ("tclose", "tclose_cli.py")):
        scripts = exes[name].args[1]
        assert scripts[0][0] == "pyi_rth_inspect"
        assert Path(scripts[-1][1]).name == script and Path(scripts[-1][1]).is_file()
        assert scripts[-1][2] == "PYSOURCE-1"
    exes = {name: exe.kwargs for name, exe in exes.items()}
    assert Path(exes["tclose-gui"]["icon"]).is_file()
    (collect,) = spec_run["COLLECT"].calls
    assert collect.kwargs["name"] == "tclose"
    assert spec_run["VERSION"] == VERSION


def test_spec_bundles_the_sample_and_the_whole_app(spec_run: dict[str, object]) -> None:
    gui = spec_run["Analysis"].calls[0].kwargs
    targets = {(Path(src).name, dest) for src, dest in gui["datas"]}
    assert ("sample-survey.xlsx", "resources/sample") in targets
    assert ("tclose.png", "resources/icons") in targets
    assert not any(src.endswith(".py") for src, _ in gui["datas"])
    assert {"gui.smoke", "gui.app", "engine.io.read", "engine.cli.verify"} <= set(
        gui["hiddenimports"]
    )
    assert {"QtAgg", "Agg"} <= set(gui["hooksconfig"]["matplotlib"]["backends"])


def test_spec_excludes_unused_qt_and_tests(spec_run: dict[str, object]) -> None:
    excludes = set(spec_run["Analysis"].calls[0].kwargs["excludes"])
    assert {"pytest", "hypothesis", "tkinter", "PySide6.QtNetwork", "PySide6.QtQml"} <= excludes
    # test sub-packages found on disk, e.g. scipy's
    assert "scipy.stats.tests" in excludes and "pandas.tests" in excludes
    # nothing the app needs
    needed = {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "numpy.testing", "pydoc"}
    assert not needed & excludes


# --- the offline wheelhouse ---------------------------------------------------------------


def _dry_run(
    *args: str, cwd: Path = ROOT, pip_venv: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable}
    if pip_venv is not None:
        env["WHEELHOUSE_PIP_VENV"] = str(pip_venv)
    command = ["bash", str(INSTALLER / "wheelhouse.sh"), "--dry-run", *args]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def _pip_is_recent() -> bool:
    """Whether the pip running these tests can check a wheelhouse for another Python."""
    from importlib.metadata import version

    return tuple(int(p) for p in version("pip").split(".")[:2]) >= (24, 2)


def _commands(stdout: str) -> tuple[list[list[str]], list[str]]:
    """The dry run's three pip commands and the lines for the offline machine.

    With an older pip the three commands come after the two that make a private venv with a
    newer one, and run that venv's Python.
    """
    lines = stdout.splitlines()
    marker = lines.index("# on the offline machine:")
    commands = [shlex.split(line) for line in lines[:marker] if not line.startswith("#")]
    return commands, lines[marker + 1 :]


@pytest.fixture
def plain_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let pip's parser see only the command line: no pip.conf, no PIP_* variables."""
    for name in [n for n in os.environ if n.startswith("PIP_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # pip then reads no config file


def _pip_options(argv: list[str]) -> tuple[str, object, list[str]]:
    """Parse ``python -m pip COMMAND ...`` (or ``python installer/target_pip.py COMMAND ...``,
    pip with the target's markers) with pip's own parser (a bad flag exits)."""
    from pip._internal.commands import create_command

    if argv[1] == str(INSTALLER / "target_pip.py"):
        argv = [argv[0], "-m", "pip", *argv[2:]]
    assert argv[1:3] == ["-m", "pip"], argv
    command = create_command(argv[3])
    options, args = command.parse_args(argv[4:])
    return argv[3], options, args


@pytest.mark.parametrize(
    ("target", "expected_tags"),
    [
        ("win_amd64", ["win_amd64"]),
        ("macos_arm64", ["macosx_13_0_arm64"]),
        ("macosx_14_0_x86_64", ["macosx_14_0_x86_64"]),
        ("linux_x86_64", ["manylinux_2_34_x86_64", "manylinux_2_17_x86_64"]),
    ],
)
def test_wheelhouse_commands_are_well_formed(
    tmp_path: Path, target: str, expected_tags: list[str], plain_pip: None
) -> None:
    dest = tmp_path / "wheels"
    pip_venv = tmp_path / "pip-venv"
    done = _dry_run(
        "--platform", target, "--python-version", "3.12", "--dest", str(dest), pip_venv=pip_venv
    )
    assert done.returncode == 0, done.stderr
    assert not dest.exists() and not pip_venv.exists()  # a dry run writes nothing
    commands, offline = _commands(done.stdout)
    python = sys.executable
    if not _pip_is_recent():  # a private venv with pip >= 24.2 first
        venv, upgrade = commands[:2]
        assert venv == [sys.executable, "-m", "venv", str(pip_venv)]
        python = str(pip_venv / "bin" / "python")
        assert upgrade == [python, "-m", "pip", "install", "--quiet", "--upgrade", "pip>=24.2"]
        commands = commands[2:]
    assert len(commands) == 3 and len(offline) == 2
    assert all(command[0] == python for command in commands)
    # the download and its check judge environment markers as the target would
    assert [c[1] for c in commands[1:]] == [str(INSTALLER / "target_pip.py")] * 2

    name, build, args = _pip_options(commands[0])
    assert name == "wheel" and args == [str(ROOT)]
    assert build.ignore_dependencies and build.wheel_dir == str(dest)

    name, download, args = _pip_options(commands[1])
    assert name == "download"
    wheel = dest / f"tclose-{VERSION}-py3-none-any.whl"
    assert args == [f"tclose[stats] @ {wheel.as_uri()}"]
    assert download.format_control.only_binary == {":all:"}
    assert set(expected_tags) <= set(download.platforms)
    assert download.python_version == (3, 12)
    assert download.implementation == "cp" and download.abis == ["cp312"]
    assert download.download_dir == str(dest)

    name, check, args = _pip_options(commands[2])
    assert name == "install" and args == ["tclose[stats]"]
    assert check.dry_run and check.ignore_installed
    assert check.no_index and check.find_links == [str(dest)]
    assert check.platforms == download.platforms

    # what IT staff type on the offline machine (cmd.exe syntax for a Windows target)
    venv_line, install_line = offline
    assert " -m venv " in venv_line and venv_line.rstrip('"').endswith("tclose-env")
    assert install_line.endswith(
        f' -m pip install --no-index --find-links "{dest}" "tclose[stats]"'
    )
    python = install_line.split(" -m pip ")[0].strip('"')
    assert python.endswith("python.exe" if target.startswith("win") else "bin/python")


def test_wheelhouse_in_a_folder_with_spaces_and_accents(tmp_path: Path, plain_pip: None) -> None:
    """The wheel's file:// URL is percent-encoded, and pip reads it back as the same path."""
    from pip._internal.req.constructors import install_req_from_line

    dest = tmp_path / "Mes données" / "wheel house ε"
    done = _dry_run("--dest", str(dest), pip_venv=tmp_path / "pip-venv")
    assert done.returncode == 0, done.stderr
    commands, offline = _commands(done.stdout)
    requirement = commands[-2][-1]
    assert " " not in requirement.split(" @ ")[1]  # a URL: no raw space, no raw accent
    assert requirement.split(" @ ")[1].isascii()
    req = install_req_from_line(requirement)
    assert req.name == "tclose" and req.extras == {"stats"}
    assert Path(req.link.file_path) == dest / f"tclose-{VERSION}-py3-none-any.whl"
    assert offline[-1].endswith(f'--find-links "{dest}" "tclose[stats]"')
    assert _pip_options(commands[-1])[1].find_links == [str(dest)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--platform", "amiga"], "unknown target 'amiga'"),
        (["--python-version", "311"], "takes a version like 3.11"),
        (["--colour"], "unknown option --colour"),
    ],
)
def test_wheelhouse_rejects_bad_input_in_one_line(args: list[str], message: str) -> None:
    done = _dry_run(*args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def _numba_requirement() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (line,) = [d for d in project["dependencies"] if d.startswith("numba")]
    return line


@pytest.mark.parametrize(
    ("tag", "wanted"),
    [
        ("win_amd64", True),
        ("macosx_13_0_arm64", True),
        ("manylinux_2_34_x86_64", True),
        ("manylinux2014_aarch64", True),
        ("macosx_13_0_x86_64", False),  # Intel Macs: no numba wheel after 0.62.1
    ],
)
def test_wheelhouse_judges_numba_by_the_target_not_this_machine(
    tmp_path: Path, tag: str, wanted: bool, plain_pip: None
) -> None:
    """An offline resolve of numba's requirement alone, from an empty folder: it succeeds
    exactly where the target's markers leave numba out."""
    (tmp_path / "empty").mkdir()
    done = subprocess.run(
        [sys.executable, str(INSTALLER / "target_pip.py"), "install", "--dry-run",
         "--ignore-installed", "--no-index", "--find-links", str(tmp_path / "empty"),
         "--only-binary=:all:", "--platform", tag, "--python-version", "3.11",
         "--implementation", "cp", "--abi", "cp311", "--target", str(tmp_path / "t"),
         _numba_requirement()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if wanted:
        assert done.returncode != 0 and "numba" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert "Ignoring numba" in done.stdout + done.stderr


def test_target_markers_follow_the_platform_tag() -> None:
    sys.path.insert(0, str(INSTALLER))
    try:
        from target_pip import target_environment
    finally:
        sys.path.remove(str(INSTALLER))
    env = target_environment(["download", "--platform", "win_amd64", "--python-version", "3.12"])
    assert env["sys_platform"] == "win32" and env["platform_machine"] == "AMD64"
    assert env["python_version"] == "3.12" and env["platform_system"] == "Windows"
    env = target_environment(["--platform=macosx_13_0_x86_64", "--python-version", "311"])
    assert (env["sys_platform"], env["platform_machine"]) == ("darwin", "x86_64")
    assert env["python_version"] == "3.11"
    env = target_environment(["--platform", "manylinux_2_17_aarch64"])
    assert (env["sys_platform"], env["platform_machine"]) == ("linux", "aarch64")
    assert target_environment(["download", "numpy"]) == {}


def test_spec_bundles_numba_where_it_is_installed(spec_run: dict[str, object]) -> None:
    import importlib.util

    hidden = spec_run["hiddenimports"]
    assert "engine.release.partition.compiled" in hidden
    assert ("numba" in hidden) == (importlib.util.find_spec("numba") is not None)


def test_wheelhouse_without_extras_into_a_relative_folder(tmp_path: Path) -> None:
    done = _dry_run("--extras", "", "--dest", "wheels", cwd=tmp_path, pip_venv=tmp_path / "v")
    commands, _ = _commands(done.stdout)
    wheel, download, check = commands[-3:]
    assert wheel[-3:] == ["--wheel-dir", str(tmp_path / "wheels"), str(ROOT)]
    assert download[-1].startswith(f"tclose @ {(tmp_path / 'wheels').as_uri()}/tclose-")
    assert check[-1] == "tclose"


def test_install_text_runs_the_smoke_test_where_it_can_print() -> None:
    """On Windows the app is windowed (no console): the check runs python.exe -m gui."""
    script = (INSTALLER / "wheelhouse.sh").read_text(encoding="utf-8")
    windows, other = script.split('if [ "$OS" = windows ]; then', 1)[1].split("else", 1)
    windows_check = re.search(r'CHECK_CMD="(.*)"\n', windows).group(1)
    assert "python.exe" in windows_check and windows_check.endswith("-m gui --smoke-test")
    assert "tclose-gui.exe" not in windows_check
    assert re.search(r'CHECK_CMD="(.*)"\n', other).group(1).endswith("tclose-gui --smoke-test")
    assert "Check the install:   $CHECK_CMD" in script


def test_gui_module_runs_the_smoke_test_in_a_console(tmp_path: Path) -> None:
    """``python -m gui --smoke-test``, what INSTALL.txt tells Windows users to run, on cp1252."""
    done = subprocess.run(
        [sys.executable, "-m", "gui", "--smoke-test"],
        cwd=tmp_path,
        env={
            **os.environ,
            "PYTHONIOENCODING": "cp1252",
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": str(ROOT),
        },
        capture_output=True,
        timeout=600,
        check=False,
    )
    out = done.stdout.decode("cp1252")
    assert done.returncode == 0, done.stderr.decode("cp1252", errors="replace")
    assert out.startswith("tclose smoke test passed:") and "Laplace eps = 1" in out


def test_console_program_runs_the_smoke_test(tmp_path: Path) -> None:
    """The bundled console ``tclose --smoke-test`` (Windows' app has no console to print to)."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "QT_QPA_PLATFORM": "offscreen",
           "PYTHONPATH": str(ROOT)}  # fmt: skip
    script = str(INSTALLER / "tclose_cli.py")
    done = subprocess.run(
        [sys.executable, script, "--smoke-test"],
        cwd=tmp_path, env=env, capture_output=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode("cp1252", errors="replace")
    assert done.stdout.decode("cp1252").startswith("tclose smoke test passed:")
    # everything else is the command line
    done = subprocess.run(
        [sys.executable, script, "--version"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == f"tclose {VERSION}"


# --- icons --------------------------------------------------------------------------------


def test_icons_exist_in_every_size() -> None:
    icons = ROOT / "resources" / "icons"
    for size in (16, 32, 48, 256, 1024):
        with Image.open(icons / f"tclose-{size}.png") as png:
            assert png.size == (size, size) and png.mode == "RGBA"
    with Image.open(icons / "tclose.ico") as ico:
        assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= ico.info["sizes"]
    with Image.open(icons / "tclose.icns") as icns:
        assert icns.size == (1024, 1024)


# --- the smoke test the bundle runs -------------------------------------------------------


@pytest.mark.gui
def test_smoke_test_passes_in_process(qapp, capsys: pytest.CaptureFixture[str]) -> None:
    from gui.smoke import run_smoke_test

    assert run_smoke_test(qapp) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("tclose smoke test passed: 400 records of sample-survey.xlsx")
    assert "(read by the engine process)" in line
    assert "t = " in line and "(asked 2)" in line and "verified ok" in line
    assert "Laplace ε = 1: k = " in line  # the OpenDP path ran in this process too
    # the compiled kernels ran on their own (the sample is too small for them), and the line
    # says which route ran
    import importlib.util

    if importlib.util.find_spec("numba") is not None:
        assert "compiled kernels (numba " in line
    else:
        assert "numpy route" in line
    assert "classes, the same as the numpy route" in line


@pytest.mark.parametrize(
    ("system", "machine"),
    [("win32", "AMD64"), ("win32", "ARM64"), ("linux", "x86_64"), ("linux", "aarch64"),
     ("darwin", "arm64"), ("darwin", "x86_64"), ("linux", "ppc64le")],
)  # fmt: skip
def test_the_smoke_test_expects_numba_where_pyproject_installs_it(system, machine) -> None:
    from packaging.requirements import Requirement

    from gui.smoke import numba_expected

    marker = Requirement(_numba_requirement()).marker
    wanted = marker.evaluate({"sys_platform": system, "platform_machine": machine})
    assert numba_expected(system, machine) == wanted


@pytest.mark.gui
def test_smoke_test_fails_when_the_compiled_kernels_should_run_and_do_not(
    qapp, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.release import KernelRoute
    from gui.smoke import run_smoke_test

    missing = KernelRoute(False, None, "numba is not installed here")
    monkeypatch.setattr("engine.kernel_check", lambda: (missing, 300, True))
    monkeypatch.setattr("gui.smoke.numba_expected", lambda: True)  # a Windows build, say
    assert run_smoke_test(qapp) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("tclose smoke test FAILED:") and "numpy route" in line


@pytest.mark.gui
def test_smoke_test_fails_when_the_release_does_not_verify(
    qapp, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from gui.smoke import run_smoke_test

    def broken_verifier(table, qi, confidential, *, t=None, k=None) -> Verification:
        return Verification(
            k=1, t=9.0, n_records=len(table), n_classes=len(table),
            class_sizes=np.ones(len(table), dtype=int), ok=False, message="class 3 has 1 record",
        )  # fmt: skip

    # the engine's own check of every release (anonymize reads its table back)
    monkeypatch.setattr("engine.release.stages.tail.verify_release", broken_verifier)
    assert run_smoke_test(qapp) == 1
    assert "FAILED" in capsys.readouterr().out


@pytest.mark.gui
def test_smoke_test_reports_a_broken_install_in_one_line(
    qapp, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import resources
    from gui.smoke import run_smoke_test

    monkeypatch.setattr(resources, "SAMPLE_WORKBOOK", ROOT / "resources" / "missing.xlsx")
    assert run_smoke_test(qapp) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("tclose smoke test FAILED:")


@pytest.mark.gui
def test_smoke_test_fails_when_the_engine_process_cannot_start(
    qapp, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the wizard would quietly fall back to in-process calls; the smoke test must not
    from gui import engine_process
    from gui.smoke import run_smoke_test

    def refuse(self, fn, *args, **kwargs):
        raise engine_process.EngineStartError("blocked by endpoint security")

    monkeypatch.setattr(engine_process.EngineProcess, "call", refuse)
    assert run_smoke_test(qapp) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line == "tclose smoke test FAILED: EngineStartError: blocked by endpoint security"
