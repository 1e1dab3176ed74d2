"""Fuzzing the CSV reader: any bytes give a table or an InputError, never another exception.

Derandomized under the ``ci`` profile (see conftest) and bounded in size, so that a red run
is reproducible and the file runs in seconds.  The inputs lean towards what breaks readers:
separators, quotes, bare carriage returns, NUL bytes, BOMs, decimal commas and the three
encodings tclose guesses between.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import tempfile
import warnings
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.errors import InputError
from engine.io import read_table

PIECES = [
    *",;\t|\"'\r\n 0123456789abxyz.-+=é€\x00\x1f",
    "\r\n",
    "N/A",
    "1.234,56",
    "sep=;\n",
    "\ufeff",
    "2024-01-31",
    "1e308",
    "-inf",
    '""',
    "007",
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)
ENCODED = st.one_of(
    st.binary(max_size=300),
    st.tuples(TEXT, st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16", "utf-16-le"])).map(
        lambda te: te[0].encode(te[1], errors="replace")
    ),
)


@settings(max_examples=300)
@given(data=ENCODED, name=st.sampled_from(["in.csv", "in.txt", "in.tsv"]))
def test_any_bytes_give_a_table_or_an_input_error(data, name):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning about lost data is a failure too
            try:
                result = read_table(path)
            except InputError as err:
                assert err.message and "\n" not in err.message.strip()
                return
        assert result.info.n_rows == len(result.data) > 0
        assert len(set(result.data.columns)) == result.data.shape[1]
        assert path.read_bytes() == data


HEADERS = st.sampled_from(["a,b\n", "a;b\r\n", "a\tb\r", "b,a,c\n", ""])
#: mostly well-formed rows with hostile pieces mixed in, so that many runs get to a release
ROWS = st.lists(
    st.tuples(
        st.integers(-5, 99),
        st.integers(0, 9),
        st.sampled_from(["", "", "", "", "", "", ",", "\r", '"']),
    ),
    min_size=4,
    max_size=30,
).map(lambda rows: "".join(f"{a},{b}{junk}\n" for a, b, junk in rows))


@settings(max_examples=120)
@given(
    head=HEADERS,
    body=st.one_of(TEXT, ROWS),
    encoding=st.sampled_from(["utf-8", "cp1252", "utf-16"]),
)
def test_tclose_anonymize_on_any_csv_exits_0_2_or_3(head, body, encoding):
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.csv"
        source.write_bytes((head + body).encode(encoding, errors="replace"))
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        out, err = io.StringIO(), io.StringIO()
        args = ["anonymize", str(source), "-o", str(Path(folder) / "out.csv")]
        args += ["--qi", "a", "--confidential", "b", "--t", "2", "--k", "2"]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
        assert code in (0, 2, 3), err.getvalue()
        assert hashlib.sha256(source.read_bytes()).hexdigest() == digest
        left = sorted(p.name for p in Path(folder).iterdir())
        if code == 0:
            assert left == ["in.csv", "out.csv", "out.json"]
        else:
            assert left == ["in.csv"]
            lines = err.getvalue().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("tclose: "), err.getvalue()
