"""The one writer: outputs checked before a run, staged beside their targets, all or none."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from engine.errors import CancelledError, InputError
from engine.io import outputs as outputs_module
from engine.io import write as write_module
from engine.io.outputs import (
    Output,
    OutputError,
    check_outputs,
    json_kind,
    name_problem,
    write_outputs,
)
from engine.io.write import release_outputs, write_release

TABLE = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "data.csv"
    path.write_text("a,b\n1,x\n", encoding="utf-8")
    return path


# -- checking up front --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason", "message"),
    [
        ("no-such-folder/out.csv", "folder", r"the folder .*no-such-folder does not exist"),
        ("x" * 300 + ".csv", "name", r"the file name is too long \(304 characters; at most 255"),
        ("bad\x00name.csv", "name", "NUL character"),
    ],
)
def test_bad_paths_are_refused_before_the_run(tmp_path, name, reason, message):
    with pytest.raises(OutputError, match=message) as err:
        check_outputs([tmp_path / name])
    assert err.value.reason == reason and err.value.exit_code == 2
    assert files_in(tmp_path) == set()


def test_a_file_where_the_folder_should_be(tmp_path):
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match=r": \S*plain is not a folder\. Choose another folder"):
        check_outputs([tmp_path / "plain" / "out.csv"])


def test_a_folder_where_the_file_should_be(tmp_path):
    (tmp_path / "out.csv").mkdir()
    with pytest.raises(OutputError, match=r"out\.csv is a folder; the release needs a file name"):
        check_outputs(release_outputs(tmp_path / "out.csv"))


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("CON.csv", "device name that Windows reserves"),
        ("lpt1", "device name that Windows reserves"),
        ("a:b.csv", "Windows does not allow these characters in a file name: :"),
        ("what?.csv", "characters in a file name: ?"),
        ("trailing.", "ends with a dot or a space"),
    ],
)
def test_windows_name_rules(name, words):
    assert words in name_problem(name, windows=True)
    assert name_problem("résumé 2024 (final).csv", windows=True) == ""


def test_folder_that_cannot_be_written(tmp_path, monkeypatch):
    def refuse(folder, created=None):
        raise PermissionError(errno.EACCES, "Permission denied", str(folder))

    monkeypatch.setattr(outputs_module, "_create_temp", refuse)
    with pytest.raises(OutputError, match=r"cannot write in the folder .* \(permission denied\)"):
        check_outputs([tmp_path / "out.csv"])


@pytest.mark.parametrize("spelling", ["same", "dotdot", "symlink", "hardlink"])
def test_no_output_may_be_the_input(tmp_path, source, spelling):
    (tmp_path / "sub").mkdir()
    target = {
        "same": source,
        "dotdot": tmp_path / "sub" / ".." / "data.csv",
        "symlink": tmp_path / "link.csv",
        "hardlink": tmp_path / "hard.csv",
    }[spelling]
    if spelling == "symlink":
        target.symlink_to(source)
    if spelling == "hardlink":
        os.link(source, target)
    with pytest.raises(OutputError, match="refusing to overwrite the input file") as err:
        check_outputs([Output(target, "summary")], inputs=[source])
    assert err.value.reason == "input"
    assert source.read_text(encoding="utf-8") == "a,b\n1,x\n"


def test_two_outputs_may_not_be_one_file(tmp_path):
    out = tmp_path / "out.csv"
    with pytest.raises(OutputError, match="the summary and the release would be the same file"):
        other = tmp_path / "x" / ".." / "out.csv"
        check_outputs([Output(out, "release"), Output(other, "summary")])
    with pytest.raises(OutputError, match="would be the same file"):  # case differs only
        check_outputs([Output(out, "release"), Output(tmp_path / "OUT.csv", "report")])
    # --summary naming the release's own sidecar
    with pytest.raises(OutputError, match="the summary and the release's metadata file"):
        check_outputs(release_outputs(out, summary=tmp_path / "out.json"))


def test_existing_json_that_tclose_did_not_write_is_kept(tmp_path):
    project = tmp_path / "out.json"
    project.write_text(json.dumps({"format": "tclose-project", "k": 5}), encoding="utf-8")
    with pytest.raises(OutputError, match=r"out\.json: .* would replace a tclose project file"):
        write_release(TABLE, tmp_path / "out.csv")
    assert files_in(tmp_path) == {"out.json"}
    assert json_kind(project) == "project"
    other = tmp_path / "other.json"
    other.write_text('{"totally": "unrelated"}', encoding="utf-8")
    with pytest.raises(OutputError, match="would replace a JSON file tclose did not write") as err:
        write_release(TABLE, tmp_path / "other.csv")
    assert err.value.reason == "not_ours"
    # the GUI asks the user, then allows it explicitly
    write_release(TABLE, tmp_path / "other.csv", replace_foreign=True)
    assert json_kind(other) == "run"


def test_our_own_sidecar_is_replaced(tmp_path):
    write_release(TABLE, tmp_path / "out.csv", metadata={"k": 1})
    write_release(TABLE, tmp_path / "out.csv", metadata={"k": 2})
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["k"] == 2
    assert files_in(tmp_path) == {"out.csv", "out.json"}


def test_read_only_and_locked_files_are_named_up_front(tmp_path, monkeypatch):
    target = tmp_path / "out.csv"
    target.write_text("old", encoding="utf-8")
    monkeypatch.setattr(outputs_module.os, "access", lambda path, mode: False)
    with pytest.raises(OutputError, match=r"out\.csv is read-only"):
        check_outputs([target])
    monkeypatch.undo()

    def held_open(path, mode="r", *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(outputs_module, "open", held_open, raising=False)
    with pytest.raises(OutputError, match=r"out\.csv is open in another program \(such as Excel\)"):
        check_outputs([target])
    assert target.read_text(encoding="utf-8") == "old"


# -- all or none --------------------------------------------------------------------------------


def test_locked_csv_keeps_the_old_sidecar_and_names_the_file(tmp_path, monkeypatch):
    """A CSV export over a file Excel holds open (Windows refuses the rename)."""
    write_release(TABLE, tmp_path / "out.csv", metadata={"k": 1})
    old = {name: (tmp_path / name).read_bytes() for name in ("out.csv", "out.json")}
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst).name == "out.csv":
            raise PermissionError(errno.EACCES, "Access is denied", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(outputs_module.os, "replace", replace)
    locked = r"out\.csv cannot be replaced: it is open in another"
    with pytest.raises(OutputError, match=locked) as e:
        write_release(TABLE.assign(a=[7, 8]), tmp_path / "out.csv", metadata={"k": 2})
    assert "Nothing was written" in str(e.value) and ".~tc" not in str(e.value)
    assert {name: (tmp_path / name).read_bytes() for name in old} == old
    assert files_in(tmp_path) == {"out.csv", "out.json"}


@pytest.mark.parametrize("existed", [True, False])
def test_a_failed_rename_puts_every_file_back(tmp_path, monkeypatch, existed):
    names = ["a.txt", "b.txt", "c.html"]
    if existed:
        for name in names:
            (tmp_path / name).write_text(f"old {name}", encoding="utf-8")
    real_replace = os.replace
    calls: list[str] = []

    def replace(src, dst):
        calls.append(Path(dst).name)
        if Path(dst).name == "c.html":
            raise OSError(errno.EIO, "Input/output error", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(outputs_module.os, "replace", replace)
    failed = r"c\.html: cannot write \(the disk reported an input"
    with (
        pytest.raises(OutputError, match=failed),
        write_outputs([tmp_path / n for n in names]) as st,
    ):
        for name in names:
            st.write_utf8(tmp_path / name, f"new {name}")
    assert "c.html" in calls
    if existed:
        assert {n: (tmp_path / n).read_text(encoding="utf-8") for n in names} == {
            n: f"old {n}" for n in names
        }
        assert files_in(tmp_path) == set(names)
    else:
        assert files_in(tmp_path) == set()


def test_without_hard_links_the_old_file_is_moved_aside_and_back(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    (tmp_path / "b.txt").write_text("old b", encoding="utf-8")

    def no_link(src, dst):
        raise OSError(errno.EPERM, "Operation not permitted")

    real_replace = os.replace

    def replace(src, dst):
        new = Path(src).name.startswith(".~tc") and "new" in Path(src).read_text(encoding="utf-8")
        if Path(dst).name == "b.txt" and new:
            raise OSError(errno.EIO, "Input/output error", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(outputs_module.os, "link", no_link)
    monkeypatch.setattr(outputs_module.os, "replace", replace)
    targets = [tmp_path / "a.txt", tmp_path / "b.txt"]
    with pytest.raises(OutputError, match=r"b\.txt: cannot write"), write_outputs(targets) as st:
        st.write_utf8(tmp_path / "a.txt", "new a")
        st.write_utf8(tmp_path / "b.txt", "new b")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "old a"
    assert (tmp_path / "b.txt").read_text(encoding="utf-8") == "old b"
    assert files_in(tmp_path) == {"a.txt", "b.txt"}


def test_an_error_while_staging_names_the_target(tmp_path, monkeypatch):
    def full(table, tmp, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp))

    monkeypatch.setattr(write_module, "_write_csv", full)
    with pytest.raises(OutputError) as err:
        write_release(TABLE, tmp_path / "out.csv")
    target = tmp_path / "out.csv"
    assert str(err.value) == f"{target}: cannot write (the disk is full). Nothing was written."
    assert files_in(tmp_path) == set()


def test_cancel_while_staging_leaves_the_old_files(tmp_path):
    (tmp_path / "r.html").write_text("old", encoding="utf-8")
    targets = [tmp_path / "r.html", tmp_path / "s.json"]
    with pytest.raises(CancelledError), write_outputs(targets) as stage:
        stage.write_utf8(tmp_path / "r.html", "new")
        raise CancelledError()
    assert files_in(tmp_path) == {"r.html"}
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == "old"


def test_long_names_are_not_pushed_over_the_limit(tmp_path):
    """The temporary name is short (10 characters), whatever the target's length."""
    stem = "n" * (255 - len(".json"))
    written = write_release(TABLE, tmp_path / f"{stem}.csv", metadata={"k": 1})
    assert [p.name for p in written] == [f"{stem}.csv", f"{stem}.json"]
    assert files_in(tmp_path) == {p.name for p in written}


def test_file_name_too_long_at_write_time_is_said_clearly(tmp_path, monkeypatch):
    def too_long(folder, created=None):
        raise OSError(errno.ENAMETOOLONG, "File name too long", str(folder) + "/.~tcabcdef")

    with write_outputs([tmp_path / "ok.txt"]) as stage:
        monkeypatch.setattr(outputs_module, "_create_temp", too_long)
        with pytest.raises(OutputError, match=r"ok\.txt: cannot write \(the file name or path is"):
            stage.temp(tmp_path / "ok.txt")
        monkeypatch.undo()
        stage.write_utf8(tmp_path / "ok.txt", "fine")


def test_a_symbolic_link_is_written_through(tmp_path):
    real = tmp_path / "real.html"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    with write_outputs([link]) as stage:
        stage.write_utf8(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


def test_permissions_of_a_replaced_file_are_kept(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    with write_outputs([target]) as stage:
        stage.write_utf8(target, "new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_release_outputs_names_every_file(tmp_path):
    outs = release_outputs(tmp_path / "r.csv", report=tmp_path / "r.html", summary="s.json")
    assert [(o.path.name, o.kind) for o in outs] == [
        ("r.csv", "release"),
        ("r.json", "metadata"),
        ("r.html", "report"),
        ("s.json", "summary"),
    ]
    assert [o.kind for o in release_outputs("r.xlsx")] == ["release"]
    with pytest.raises(InputError, match=r"r\.pdf: unknown output type"):
        release_outputs("r.pdf")
    with pytest.raises(InputError, match=r"the report is an HTML file"):
        release_outputs("r.csv", report="r.txt")


def test_an_interruption_right_after_a_temporary_file_appears_leaves_nothing(tmp_path, monkeypatch):
    """SIGTERM or Ctrl+C can arrive between any two steps, also between creating a temporary
    file and noting it: the file is noted before it exists, so it is removed all the same."""
    real_close = os.close

    def interrupted(fd):
        real_close(fd)
        raise KeyboardInterrupt  # as a signal arriving just after the file was made

    with pytest.raises(KeyboardInterrupt), write_outputs([tmp_path / "out.csv"]) as stage:
        monkeypatch.setattr(outputs_module.os, "close", interrupted)
        stage.temp(tmp_path / "out.csv")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_new_folder_is_staged_and_committed_like_a_file(tmp_path):
    """A dataset folder (the cluster's output named without a suffix) goes through the same
    writer: staged as a hidden folder beside its target, renamed at the commit, committed
    with the other outputs or not at all, and never written over something that appeared."""
    from engine.io.outputs import Output, OutputError, write_outputs

    target, summary = tmp_path / "release", tmp_path / "summary.json"
    with write_outputs([Output(target, "release"), Output(summary, "summary")]) as stage:
        folder = stage.temp_folder(target)
        (folder / "part-00000.parquet").write_bytes(b"PAR1")
        stage.write_utf8(summary, "{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release", "summary.json"]
    assert (target / "part-00000.parquet").read_bytes() == b"PAR1"

    other = tmp_path / "other"
    with pytest.raises(RuntimeError), write_outputs([Output(other, "release")]) as stage:
        (stage.temp_folder(other) / "part-00000.parquet").write_bytes(b"PAR1")
        raise RuntimeError("cancelled")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release", "summary.json"]

    with (
        pytest.raises(OutputError, match="appeared while"),
        write_outputs([Output(other, "release"), Output(tmp_path / "s2.json", "summary")]) as stage,
    ):
        stage.temp_folder(other)
        stage.write_utf8(tmp_path / "s2.json", "{}")
        other.mkdir()  # another program made it meanwhile
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "release", "summary.json"]
    assert not any(other.iterdir())
