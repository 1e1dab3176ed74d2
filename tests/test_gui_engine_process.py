"""The helper process that runs engine calls away from the GUI's interpreter lock."""

from __future__ import annotations

import multiprocessing
import os
import time

import pandas as pd
import pytest

from engine import Task
from engine.errors import CancelledError, InputError
from engine.progress import NO_TASK
from gui.engine_process import EngineProcess, EngineProcessError, EngineStartError, Stream
from tests.timing import CANCEL_SECONDS, check_time, retry_once

#: when the tests below press Cancel (seconds after the call started)
CANCEL_AT = 0.3


def add_up(frame: pd.DataFrame, extra: int = 0, *, task=NO_TASK) -> int:
    for i in range(5):
        task.step(i / 5, f"part {i}")
        time.sleep(0.12)
    return int(frame["x"].sum()) + extra


def counts_out_loud(n: int, *, said, task=NO_TASK) -> int:
    """Say each number (and where it was said) as it is counted."""
    for i in range(n):
        said({"i": i, "pid": os.getpid()})
    return os.getpid()


def refuse(*, task=NO_TASK) -> None:
    raise InputError("age: not a number", detail="row 7")


def cooperative_loop(*, task=NO_TASK) -> str:
    for i in range(10_000):
        task.step(i / 10_000, "looping")
        time.sleep(0.001)
    return "finished"


def stubborn(*, task=NO_TASK) -> str:
    time.sleep(30)  # one long call without a single checkpoint
    return "finished"


@pytest.fixture(scope="module")
def helper():
    engine = EngineProcess()
    engine.start()
    yield engine
    engine.stop()


def test_a_stream_argument_brings_each_part_back_while_the_call_runs(helper) -> None:
    """A sweep's points come back one by one from the helper, in order, before its result."""
    heard: list[dict] = []
    pid = helper.call(counts_out_loud, 5, said=Stream(heard.append))
    assert pid != os.getpid()  # counted in the helper
    assert [h["i"] for h in heard] == list(range(5))
    assert {h["pid"] for h in heard} == {pid}


def test_result_progress_and_the_table_sent_once(helper) -> None:
    frame = pd.DataFrame({"x": range(10)})
    messages: list[tuple[float, str]] = []
    assert helper.call(add_up, frame, task=Task(lambda f, m: messages.append((f, m)))) == 45
    assert messages and messages[0][1] == "part 0"
    # the second call with the same table sends only a marker; the helper still has it
    assert helper.call(add_up, frame, extra=1) == 46
    assert helper._last_frame is frame


def test_errors_keep_their_type_message_and_detail(helper) -> None:
    with pytest.raises(InputError) as info:
        helper.call(refuse)
    assert info.value.message == "age: not a number"
    assert info.value.detail == "row 7"
    assert any("In the engine process" in note for note in info.value.__notes__)


@pytest.mark.parametrize(
    "call",
    [cooperative_loop, stubborn],
    ids=["a-cooperative-call", "a-call-stuck-in-one-long-step"],
)
@retry_once
def test_cancel_stops_the_call_and_the_next_call_works(helper, call) -> None:
    """Uncancelled, the loop runs for more than 10 s and the stuck call sleeps for 30 s; the
    stuck one is ended by killing the helper, which must then start again for the next call."""
    started = time.monotonic()
    with pytest.raises(CancelledError):
        helper.call(call, task=Task(cancel=lambda: time.monotonic() - started > CANCEL_AT))
    check_time(time.monotonic() - started - CANCEL_AT, CANCEL_SECONDS, "Cancel")
    assert helper.call(add_up, pd.DataFrame({"x": [1, 2]})) == 3


def read_numbers(n: int, *, task=NO_TASK):
    from engine.io import ImportInfo, ImportResult

    frame = pd.DataFrame({"x": range(n)})
    return ImportResult(frame, ImportInfo("numbers.csv", "csv")), {"analysed": True}


def test_a_table_the_helper_read_is_not_sent_back(helper) -> None:
    result, _ = helper.call(read_numbers, 100)
    assert helper._last_frame is result.data
    assert helper.call(add_up, result.data) == sum(range(100))


def test_without_a_working_helper_calls_run_here(monkeypatch) -> None:
    """A helper that cannot start (e.g. a broken installation) must not break the app."""
    from gui import engine_process

    broken = EngineProcess()
    monkeypatch.setattr(broken, "_ensure_started", lambda: (_ for _ in ()).throw(OSError("no")))
    monkeypatch.setattr(engine_process, "_shared", broken)
    assert engine_process.run_engine(add_up, pd.DataFrame({"x": [2, 3]})) == 5
    assert broken.disabled
    assert engine_process.run_engine(add_up, pd.DataFrame({"x": [4]})) == 4


def die_in_the_helper(*, task=NO_TASK) -> str:
    """Dies like a native crash (an abort, exit 134) in the helper; here it would return."""
    if multiprocessing.parent_process() is not None:
        task.step(0.1, "about to crash")
        os._exit(134)
    return "ran in the app's own process"


def test_a_helper_that_dies_during_a_call_is_not_retried_here(monkeypatch) -> None:
    """A call that kills the helper (a reader's abort) must not be tried again in the app,
    where it would kill the app: the caller gets EngineProcessError, and the next call gets
    a fresh helper."""
    from gui import engine_process

    engine = EngineProcess()
    monkeypatch.setattr(engine_process, "_shared", engine)
    try:
        assert engine.call(add_up, pd.DataFrame({"x": [1, 2]})) == 3  # the helper said ready
        with pytest.raises(EngineProcessError) as info:
            engine_process.run_engine(die_in_the_helper)
        assert not isinstance(info.value, EngineStartError)
        assert "stopped unexpectedly" in str(info.value)
        assert not engine.disabled  # later calls still go to a helper, not to this process
        assert engine_process.run_engine(add_up, pd.DataFrame({"x": [4]})) == 4
    finally:
        engine.stop()
