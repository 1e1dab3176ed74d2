"""Fuzzing the Parquet reader and the cluster path as the one-machine path is fuzzed.

* **Parquet**: tables of every Arrow type a file can hold (nested, binary, time zones,
  decimals, durations, dictionaries, nulls, extremes; names repeated, empty or accented),
  written as a file or a two-part dataset, read by :func:`engine.io.read_table` and released
  by ``tclose anonymize`` with columns of those types in every role.
* **The cluster**: the survey in every format and encoding one machine reads (and with a NUL
  byte), released with ``--cluster`` on a shared local Dask cluster, outputs drawn from those
  that must be refused (the input, a file inside an input folder, the summary over the
  release); and a survey in eight partitions with any mix of the flags whose checks both
  routes run (weights, declared types, kept identifiers, households), which must give one
  machine's verdict and line.

The promises, as in ``tests/test_fuzz_cli.py``: the exit code is 0, 2 or 3, never 1; no
traceback and no library log line; a failure is one line starting "tclose: " and leaves the
folder as it was; the input's checksum never changes.  And the cluster reads what one
machine reads: a file one machine releases is released on the cluster, a file it refuses is
refused there with exit 2.  Derandomized under the ``ci`` profile with few examples.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.io import read_table
from tests.hostile import csv_text, rows, write_book
from tests.hostile_build import scheduler_address
from tests.test_fuzz_cli import run_cli
from tests.test_hostile_io import LIBRARY_NOISE, sha256, snapshot

N_ROWS = 40
#: examples per run (few, so that CI stays fast; set HOSTILE_FUZZ_EXAMPLES for a deep run)
EXAMPLES = int(os.environ.get("HOSTILE_FUZZ_EXAMPLES", "0")) or None


def check_outcome(code: int, out: str, err: str) -> None:
    assert code in (0, 2, 3), err
    assert not LIBRARY_NOISE.search(err), err
    if code:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tclose: "), err
        assert "internal error" not in lines[0], err
    else:
        assert out.startswith("Released "), out


# -- Parquet -----------------------------------------------------------------------------------

ZONES = ["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu", "+05:30"]
TEXTS = st.one_of(
    st.none(), st.sampled_from(["", " ", "=1+1", "N/A", "é", "a,b", '"q"', "\x00", "007"]),
    st.text(max_size=6),
)  # fmt: skip


def _kinds():
    import pyarrow as pa

    ints = st.integers(-(2**63), 2**63 - 1)
    floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
    stamps = st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 1, 1))
    return {
        "int": (pa.int64(), st.one_of(st.none(), ints, st.integers(0, 5))),
        "uint": (pa.uint64(), st.one_of(st.none(), st.integers(0, 2**64 - 1))),
        "float": (pa.float64(), st.one_of(st.none(), floats, st.integers(0, 9).map(float))),
        "half": (pa.float16(), st.one_of(st.none(), st.floats(-1e3, 1e3, width=16))),
        "text": (pa.string(), TEXTS),
        "large": (pa.large_string(), TEXTS),
        "bool": (pa.bool_(), st.one_of(st.none(), st.booleans())),
        "date": (pa.date32(), st.one_of(st.none(), st.dates())),
        "stamp": (pa.timestamp("us"), st.one_of(st.none(), stamps)),
        "zoned": (None, st.one_of(st.none(), stamps)),  # the zone is drawn per column
        "duration": (
            pa.duration("ms"),
            st.one_of(st.none(), st.timedeltas(dt.timedelta(days=-9999), dt.timedelta(days=9999))),
        ),
        "time": (pa.time64("us"), st.one_of(st.none(), st.times())),
        "decimal": (
            pa.decimal128(20, 2),
            st.one_of(
                st.none(),
                st.decimals(-(10**17), 10**17, places=2, allow_nan=False, allow_infinity=False),
            ),
        ),
        "whole": (
            pa.decimal128(38, 0),
            st.one_of(st.none(), st.integers(-(10**30), 10**30).map(decimal.Decimal)),
        ),
        "bytes": (pa.binary(), st.one_of(st.none(), st.binary(max_size=4))),
        "list": (
            pa.list_(pa.int64()),
            st.one_of(st.none(), st.lists(st.integers(0, 3), max_size=3)),
        ),
        "struct": (
            pa.struct([("a", pa.int64()), ("b", pa.string())]),
            st.one_of(st.none(), st.fixed_dictionaries({"a": st.integers(0, 2), "b": TEXTS})),
        ),
        "map": (
            pa.map_(pa.string(), pa.int64()),
            st.one_of(
                st.none(), st.lists(st.tuples(st.sampled_from("kl"), st.integers(0, 2)), max_size=2)
            ),
        ),
        "category": ("dictionary", TEXTS),
        "null": (pa.null(), st.none()),
    }


KINDS = _kinds()
NAMES = ["age", "income", "a", "b", "", "é x", "age", "1", "income "]


@st.composite
def parquet_table(draw):
    """An Arrow table of 2 to 5 columns of drawn kinds (names may repeat), 1 to N_ROWS rows."""
    import pyarrow as pa

    n = draw(st.integers(1, N_ROWS))
    names, arrays = [], []
    for _ in range(draw(st.integers(2, 5))):
        kind = draw(st.sampled_from(sorted(KINDS)))
        arrow_type, values = KINDS[kind]
        cells = draw(st.lists(values, min_size=n, max_size=n))
        if kind == "zoned":
            zone = draw(st.sampled_from(ZONES))
            array = pa.array(cells, pa.timestamp("us")).cast(pa.timestamp("us", tz=zone))
        elif kind == "category":
            array = pa.array(cells, pa.string()).dictionary_encode()
        else:
            array = pa.array(cells, arrow_type)
        arrays.append(array)
        names.append(draw(st.sampled_from(NAMES)) if draw(st.booleans()) else f"c{len(names)}")
    return pa.table(arrays, names=names)


def write_parquet_input(table, folder: Path, dataset: bool) -> Path:
    import pyarrow.parquet as pq

    if not dataset:
        pq.write_table(table, folder / "in.parquet")
        return folder / "in.parquet"
    (folder / "ds").mkdir()
    half = table.num_rows // 2
    pq.write_table(table.slice(0, half), folder / "ds" / "part-0.parquet")
    pq.write_table(table.slice(half), folder / "ds" / "part-1.parquet")
    return folder / "ds"


@settings(max_examples=EXAMPLES or 25, suppress_health_check=[HealthCheck.too_slow])
@given(table=parquet_table(), dataset=st.booleans(), roles=st.data())
def test_any_parquet_file_is_read_and_released_or_refused_in_one_line(table, dataset, roles):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = write_parquet_input(table, folder, dataset)
        digest = sha256(source)
        try:
            result = read_table(source)
        except InputError as err:
            assert err.message and "\n" not in err.message.strip()
            names = []
        else:
            assert len(result.data) == table.num_rows
            names = [c for c in result.data.columns if str(c).strip()]
        # the release, with the file's columns in drawn roles (a name that does not exist,
        # or repeats, is refused in one line like any other)
        pool = names or ["age"]
        qi = roles.draw(st.sampled_from(pool))
        confidential = roles.draw(st.sampled_from(pool))
        keep = roles.draw(st.sampled_from(["", *pool]))
        args = ["anonymize", str(source), "-o", str(folder / "out.csv"), "--qi", qi]
        args += ["--confidential", confidential, "--t", "3", "--k", "2", "--seed", "1"]
        args += ["--keep", keep] if keep and keep not in (qi, confidential) else []
        before = snapshot(folder)
        code, out, err = run_cli(args)
        check_outcome(code, out, err)
        assert sha256(source) == digest
        if code:
            assert snapshot(folder) == before, "a failed run changed or left files"


# -- the cluster -------------------------------------------------------------------------------

FORMATS = ["utf-8", "utf-8-sig", "cp1252", "utf-16", "utf-32", "nul", "gzip", "xlsx", "parquet",
           "dataset"]  # fmt: skip
#: outputs of a cluster release: fine ones, and those that must be refused before any work
OUTPUTS = ["out.csv", "out.parquet", "rel", "out.xlsx", "INPUT", "ds/rel.parquet", "ds/rel",
           "gone/out.csv", "out.html"]  # fmt: skip
SUMMARIES = [None, "s.json", "out.csv", "out.json", "INPUT", "ds/s.json", "gone/s.json"]


def write_survey(folder: Path, form: str, n: int) -> Path:
    """The survey (an accented region now and then) as ``form``."""
    import gzip

    table = rows(n)
    for row in table[1::5]:
        row[2] = "Süd"
    if form == "xlsx":
        return write_book(folder / "in.xlsx", {"Data": table})
    if form in ("parquet", "dataset"):
        import pandas as pd
        import pyarrow as pa

        frame = pd.DataFrame(table[1:], columns=table[0])
        return write_parquet_input(pa.Table.from_pandas(frame), folder, form == "dataset")
    text = csv_text(table)
    if form == "gzip":
        path = folder / "in.csv.gz"
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        return path
    if form == "nul":
        text = text.replace("Süd", "S\x00d", 1)
    path = folder / "in.csv"
    path.write_bytes(text.encode("utf-8" if form == "nul" else form))
    return path


def _target(name: str | None, folder: Path, source: Path) -> str | None:
    if name is None:
        return None
    return str(source) if name == "INPUT" else str(folder / name)


@pytest.mark.slow
@settings(max_examples=EXAMPLES or 10, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(FORMATS),
    n=st.integers(70, 150),  # ages repeat (60 values): not an identifier in disguise
    k=st.integers(2, 10),
    t=st.sampled_from(["1.5", "2", "3", "10"]),
    output=st.sampled_from(OUTPUTS),
    summary=st.sampled_from(SUMMARIES),
)
def test_the_cluster_keeps_every_promise_and_reads_what_one_machine_reads(
    form, n, k, t, output, summary
):
    address = scheduler_address()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = write_survey(folder, form, n)
        digest = sha256(source)
        target = _target(output, folder, source)
        release = ["--qi", "age,region", "--confidential", "income", "--t", t, "--k", str(k)]
        args = ["anonymize", str(source), "-o", target, *release, "--seed", "1"]
        if summary is not None:
            args += ["--summary", _target(summary, folder, source)]
        before = snapshot(folder)
        code, out, err = run_cli([*args, "--cluster", address])
        check_outcome(code, out, err)
        assert sha256(source) == digest
        if code:
            assert snapshot(folder) == before, "a failed run changed or left files"
        elif output in ("out.csv", "out.parquet", "rel", "out.xlsx"):
            # the release verifies the same on the cluster and on one machine
            check = ["verify", target, "--qi", "age,region", "--confidential", "income"]
            found = [run_cli(check), run_cli([*check, "--cluster", address])]
            assert [c for c, _, _ in found] == [0, 0], found
            alone, there = (json.loads(o) for _, o, _ in found)
            assert (alone["k"], alone["t"], alone["n_records"]) == (
                there["k"], there["t"], there["n_records"]) and alone["k"] >= k  # fmt: skip
        # one machine, on the same file (its outputs beside the cluster's): a file one
        # machine reads is read on the cluster, a file it refuses is refused there
        alone = folder / "alone"
        alone.mkdir()
        code_one, _, err_one = run_cli(
            ["anonymize", str(source), "-o", str(alone / "out.csv"), *release, "--seed", "1"]
        )
        assert sha256(source) == digest
        assert (code_one == 2) == ("binary data" in err_one or form == "nul"), err_one
        if output == "out.csv" and summary is None:  # outputs that are fine on both routes
            assert code == code_one or code_one == 3, (err, err_one)
            if code_one == 2:
                assert err.strip() == err_one.strip(), (err, err_one)


# -- the cluster refuses what one machine refuses ----------------------------------------------

#: flags whose checks must give the same verdict and the same line on both routes
CHECKED = [
    "--keep pid", "--keep email", "--keep note", "--keep region", "--weight w", "--weight w0",
    "--weight wt", "--weight wbig", "--type income=date", "--type region=numeric",
    "--type nope=numeric", "--type age=date", "--household hid", "--allow-identifier pid",
    "--missing-confidential drop", "--missing=1000",
]  # fmt: skip


@pytest.mark.slow
@settings(max_examples=EXAMPLES or 12, suppress_health_check=[HealthCheck.too_slow])
@given(flags=st.lists(st.sampled_from(CHECKED), min_size=1, max_size=3, unique=True))
def test_the_cluster_gives_one_machine_s_verdict_on_its_checks(flags):
    """Any mix of weights, declared types, kept columns and households: the cluster (eight
    partitions) exits as one machine does, and a refusal is the same line."""
    from tests.test_hostile_meaning import survey_parts

    address = scheduler_address()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = survey_parts(folder)
        words = " ".join(flags).split()
        base = ["--qi", "age", "--confidential", "income", "--t", "3", "--k", "5", "--seed", "1"]
        found = []
        for where, cluster in (("one", []), ("dask", ["--cluster", address])):
            argv = ["anonymize", str(source), "-o", str(folder / f"{where}.csv"), *base, *words]
            found.append(run_cli([*argv, "-q", *cluster]))
        (one, _one_out, one_err), (dask, dask_out, dask_err) = found
        check_outcome(dask, dask_out, dask_err)
        assert one == dask or (one == 0 and "not available with --cluster" in dask_err), (
            flags, one_err, dask_err,
        )  # fmt: skip
        if one == dask == 2:
            assert one_err.strip() == dask_err.strip(), flags
