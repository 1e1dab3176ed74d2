"""The parts under the round-two hostile cases (``tests/hostile.py``), one promise each.

The corpus runs whole commands; here the functions that keep each promise are checked on
their own: archive parts read in pieces that never grow with the file, a scheduler address
probed without trusting the peer, outputs refused inside an input folder, Parquet columns
made plain, the cluster reading every file as one machine reads it, Dask kept quiet.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import zipfile

import numpy as np
import pandas as pd
import pytest

from engine.errors import InputError, listing
from engine.io import read_table
from engine.io.outputs import OutputError, check_outputs
from tests import hostile_build as build
from tests.hostile import csv_text, rows, write_book, write_csv

# -- archives ----------------------------------------------------------------------------------


def test_sheet_text_is_scanned_in_pieces_that_do_not_grow_with_it(tmp_path):
    from engine.io import extent

    head, tail = b"<worksheet><sheetData><row r='1'>", b"</row></sheetData></worksheet>"
    spaces = b" " * build.MIB
    data = build.raw_deflate(head, spaces, 24, tail)
    size = len(head) + 24 * build.MIB + len(tail)
    crc = build.crc_of(head, spaces, 24, tail)
    path = build.write_zip(tmp_path / "a.zip", [("s.xml", data, crc, size)])
    with zipfile.ZipFile(path) as archive:
        sizes = [len(chunk) for chunk in extent._chunks(archive, "s.xml")]
    assert sum(sizes) == size
    # each piece is one read (plus a tag's start carried over), never the text so far
    assert max(sizes) <= extent._CHUNK + len(head)


def test_a_tag_longer_than_any_sheet_has_is_a_damaged_part(tmp_path, monkeypatch):
    from engine.io import extent

    monkeypatch.setattr(extent, "MAX_TAG", 1 << 20)
    data = b'<c r="A1" s="' + b"1" * (6 << 20) + b'"/>'  # longer than one read
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("s.xml", data)
    with zipfile.ZipFile(path) as archive, pytest.raises(extent.TooLarge, match="longer than"):
        list(extent._chunks(archive, "s.xml"))


def test_a_trimmed_workbook_copy_holds_only_what_the_cells_need(tmp_path):
    from engine.io.extent import measure_workbook, trimmed_copy

    book = write_book(tmp_path / "b.xlsx", {"Data": rows()}, cells=[("Data", "A250300", "x")])
    members = build.members_of(book)
    blob = ("xl/media/image1.png", build.raw_deflate(b"", b"\0" * build.MIB, 64), 0, 64 << 20)
    path = build.write_zip(tmp_path / "in.xlsx", [*members, blob])
    extents = measure_workbook(path)
    assert extents["Data"].stray  # the far cell is left out of the copy
    copy = trimmed_copy(path, extents)
    with zipfile.ZipFile(copy) as archive:
        names = set(archive.namelist())
    assert "xl/media/image1.png" not in names and "docProps/app.xml" not in names
    assert {"xl/workbook.xml", "xl/worksheets/sheet1.xml", "[Content_Types].xml"} <= names
    data = read_table(path).data
    assert len(data) == 120


def test_a_copy_beyond_its_memory_budget_is_refused(tmp_path):
    from engine.io.extent import TooLarge, measure_workbook, trimmed_copy

    book = write_book(tmp_path / "in.xlsx", {"Data": rows(3_000)}, cells=[("Data", "A250300", 1)])
    with pytest.raises(TooLarge, match="unpack to more than"):
        trimmed_copy(book, measure_workbook(book), budget=10_000)


def test_a_padded_list_of_sheets_is_refused_before_calamine_reads_it(tmp_path):
    from engine.io import list_sheets
    from tests.hostile import padded_workbook_part

    path = padded_workbook_part(tmp_path)
    with pytest.raises(InputError, match=r"xl/workbook\.xml unpacks to 2,147,48\d,\d{3} bytes"):
        list_sheets(path)  # what the import page calls first


def test_a_gzip_is_unpacked_within_the_memory_there_is(tmp_path):
    from tests.hostile import wrapping_gzip

    path = wrapping_gzip(tmp_path)
    # the trailer claims 2 MB: the file passes the check up front, the unpacking stops
    with pytest.raises(InputError, match=r"reading it needs more than \d+\.\d MB, and 64\.0 MB"):
        read_table(path, memory_limit=64 << 20)
    small = build.write_gzip(tmp_path / "s.csv.gz", b"a,b\n", b"1,2\n", 1000)
    with pytest.raises(InputError, match="damaged or truncated gzip"):  # its CRC is 0
        read_table(small)


# -- sheets and encodings -------------------------------------------------------------------


def test_hidden_sheets_are_read_when_named_or_when_all_are_hidden(tmp_path):
    import zlib

    from tests.hostile import very_hidden_sheet

    path = very_hidden_sheet(tmp_path)
    chosen = read_table(path)
    assert chosen.info.sheet == "Data" and len(chosen.data) == 120
    assert any("hidden sheet 'Old' was not considered" in n for n in chosen.info.notes)
    assert len(read_table(path, sheet="Old").data) == 600
    # nothing visible (Excel refuses to save that; other programs do not): all sheets compete
    members = []
    for name, data, crc, size in build.members_of(path):
        if name == "xl/workbook.xml":
            xml = zlib.decompress(data, -15).replace(b'state="visible"', b'state="hidden"')
            name, data, crc, size = build.member(name, xml)
        members.append((name, data, crc, size))
    build.write_zip(path, members)
    assert read_table(path).info.sheet == "Old"


@pytest.mark.parametrize("encoding", ["utf-32", "utf-32-le", "utf-32-be", "utf-16-le"])
def test_wide_encodings_are_recognised_with_or_without_a_bom(tmp_path, encoding):
    table = rows()
    table[5][2] = "Nördlich"
    path = tmp_path / "in.csv"
    path.write_bytes(csv_text(table).encode(encoding))
    data = read_table(path).data
    assert list(data.columns) == ["age", "income", "region"] and len(data) == 120
    assert data["region"].iloc[4] == "Nördlich"


def test_a_nul_byte_anywhere_in_a_text_file_is_binary_data(tmp_path):
    table = rows(6_000)
    table[5_500][2] = "N\x00"
    path = write_csv(tmp_path, text=csv_text(table))
    with pytest.raises(InputError, match="does not look like a text"):
        read_table(path)


# -- outputs ----------------------------------------------------------------------------------


def test_outputs_inside_an_input_folder_are_refused_and_neighbours_are_not(tmp_path):
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "part.parquet").write_bytes(b"PAR1")
    inputs = [tmp_path / "ds"]
    for target in ("ds/rel.parquet", "ds/sub/../rel.csv", "ds"):
        with pytest.raises(OutputError) as err:
            check_outputs([tmp_path / target], inputs=inputs)
        assert err.value.reason == "input", target
    (tmp_path / "ds2").mkdir()
    check_outputs([tmp_path / "ds2" / "rel.csv", tmp_path / "ds.csv"], inputs=inputs)


def test_an_output_through_a_link_into_the_input_folder_is_refused(tmp_path):
    (tmp_path / "ds").mkdir()
    (tmp_path / "way").symlink_to(tmp_path / "ds", target_is_directory=True)
    with pytest.raises(OutputError, match="inside the input folder"):
        check_outputs([tmp_path / "way" / "rel.csv"], inputs=[tmp_path / "ds"])


def test_names_in_a_message_are_a_few_and_a_count():
    assert listing(["a", "b"]) == "'a', 'b'"
    assert listing([f"c{i}" for i in range(80_000)], 2) == "'c0', 'c1' and 79,998 more"


# -- Parquet ----------------------------------------------------------------------------------


def test_parquet_columns_are_made_plain_and_said_so(tmp_path):
    from tests.hostile import parquet_types

    result = read_table(parquet_types(tmp_path))
    data, notes = result.data, " ".join(result.info.notes)
    assert json.loads(data["st"].iloc[1]) == {"a": 1, "b": "x"}
    assert json.loads(data["li"].iloc[2]) == [2, 1]
    assert json.loads(data["mp"].iloc[1]) == {"k": 1}
    assert data["bi"].iloc[0] == "c8" and data["utf"].iloc[2] == "éé"
    assert str(data["tz"].iloc[0]) == "2020-01-01 09:00:00"  # the local time of its zone
    assert data["dec"].dtype == float and data["dec"].iloc[3] == 0.75
    assert pd.api.types.is_datetime64_any_dtype(data["day"])
    assert data["tm"].iloc[1] == "01:30:00"
    assert data["du"].iloc[7] == 7.0
    for word in ("time zone +01:00", "JSON text", "hexadecimal", "times of day", "seconds"):
        assert word in notes


def test_whole_decimals_beyond_exact_arithmetic_keep_every_digit(tmp_path):
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    big = [decimal.Decimal(2**60 + i) for i in range(3)]
    small = [decimal.Decimal(i) for i in range(3)]
    table = pa.table({"big": pa.array(big, pa.decimal128(38, 0)),
                      "small": pa.array(small, pa.decimal128(38, 0)),
                      "half": pa.array([1.5, None, 2.0], pa.float16()),
                      "none": pa.array([None] * 3, pa.null()),
                      "cat": pa.array(["a", "b", "a"]).dictionary_encode()})  # fmt: skip
    pq.write_table(table, tmp_path / "d.parquet")
    data = read_table(tmp_path / "d.parquet").data
    assert list(data["big"]) == [str(2**60 + i) for i in range(3)]
    assert data["small"].dtype == np.int64
    assert data["half"].dtype == np.float32 and data["none"].isna().all()
    assert list(data["cat"]) == ["a", "b", "a"]


def test_a_multi_line_library_message_reaches_the_user_as_one_line(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from engine.cli import main

    (tmp_path / "ds").mkdir()
    pq.write_table(pa.table({"age": [1, 2], "x": ["a", "b"]}), tmp_path / "ds" / "a.parquet")
    pq.write_table(pa.table({"age": ["x", "y"], "x": [[1], [2]]}), tmp_path / "ds" / "b.parquet")
    args = ["--qi", "age", "--confidential", "x", "--t", "3", "--k", "2"]
    code = main(["plan", str(tmp_path / "ds"), *args])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Parquet" in err


# -- the cluster ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    from distributed import Client

    with Client(build.scheduler_address()) as c:
        yield c


def _gathered(client, path, options=None) -> pd.DataFrame:
    from engine.distributed.reading import read_parts

    futures, names = read_parts(client, path, None, options)
    parts = client.gather(futures)
    assert all(list(p.columns) == names for p in parts)
    return pd.concat(parts, ignore_index=True)


def test_the_cluster_reads_a_dataset_as_one_machine_does(client, tmp_path):
    from tests.hostile import parquet_types

    path = parquet_types(tmp_path)
    here = read_table(path).data
    there = _gathered(client, path)
    pd.testing.assert_frame_equal(there, here)


def test_the_cluster_reads_a_large_text_file_in_blocks_as_one_machine_does(
    client, tmp_path, monkeypatch
):
    from engine.distributed import reading
    from engine.io import ReadOptions

    monkeypatch.setattr(reading, "BLOCKWISE_BYTES", 0)
    monkeypatch.setattr(reading, "BLOCK_BYTES", 4_096)
    table = [["Survey 2024"], ["age", "income", "région"]]
    table += [[20 + i % 60, f"{1000 + i},{i % 10}", "Nördlich" if i % 7 else "Süd"]
              for i in range(3_000)]  # fmt: skip
    text = "\n".join(";".join(map(str, r)) for r in table) + "\n"
    path = tmp_path / "in.csv"
    path.write_bytes(text.encode("cp1252"))
    here = read_table(path).data
    there = _gathered(client, path)
    assert len(there) == len(here) == 3_000 and list(there.columns) == list(here.columns)
    assert (there["age"].astype(int) == here["age"]).all()
    assert (there["income"].astype(float) == here["income"]).all()
    assert (there["région"] == here["région"]).all()
    # and released from those blocks, verified, every record there
    from engine.distributed.release import anonymize_on_cluster
    from engine.params import ReleaseParams

    params = ReleaseParams(qi=("age", "région"), confidential=("income",), k=5, t=3.0, seed=1)
    release = anonymize_on_cluster(client, path, params)
    assert release.verification.ok and release.summary.n_released == 3_000
    # a NUL byte in a later block is refused with the one-machine sentence
    path.write_bytes(text.encode("cp1252").replace(b"2999", b"29\x0099"))
    with pytest.raises(InputError, match="does not look like a text"):
        client.gather(reading.read_parts(client, path, None, ReadOptions())[0])


def test_the_cluster_reads_what_only_this_computer_reads(client, tmp_path):
    from tests.hostile import encoded, gzip_csv, sav_survey, xlsx_survey

    for make in (encoded("utf-16"), encoded("utf-32-be"), gzip_csv, xlsx_survey, sav_survey):
        folder = tmp_path / make.__name__ / str(id(make))
        folder.mkdir(parents=True)
        path = make(folder)
        pd.testing.assert_frame_equal(_gathered(client, path), read_table(path).data)


def _framed(payload: bytes) -> bytes:
    import struct

    body = struct.pack("<QQ", 1, len(payload)) + payload
    return struct.pack("<Q", len(body)) + body


def test_a_scheduler_address_is_probed_without_trusting_the_peer():
    import msgpack

    from engine.distributed.cluster import probe_scheduler

    assert probe_scheduler(build.scheduler_address())["pickle-protocol"] >= 4
    not_dask = "is not a Dask scheduler"
    cases = {
        b"HTTP/1.1 400 Bad Request\r\n\r\n": not_dask,
        b"\xff" * 64: not_dask,  # an 8-byte length of exabytes
        _framed(msgpack.packb({"compression": None})): not_dask,  # no pickle protocol
        _framed(msgpack.packb(msgpack.ExtType(1, b"x"))): not_dask,  # no extension types
        _framed(b"\xc1"): not_dask,  # not msgpack at all
        None: "did not answer as a Dask scheduler within 0.5 seconds",
    }
    for greeting, message in cases.items():
        with pytest.raises(InputError, match=message):
            probe_scheduler(build.greeting_server(greeting, keep_open=True), timeout=0.5)
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(InputError, match="no Dask scheduler answers there"):
        probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=0.5)


def test_dask_is_quiet_in_a_run_and_logging_comes_back_after(monkeypatch):
    from engine.distributed.cluster import quiet_cluster

    monkeypatch.delenv("TCLOSE_DEBUG", raising=False)
    monkeypatch.delenv("PYTHONWARNINGS", raising=False)
    logger = logging.getLogger("distributed.scheduler")
    with quiet_cluster():
        assert not logger.isEnabledFor(logging.CRITICAL)
        assert os.environ["DASK_LOGGING__DISTRIBUTED"] == "critical"
    assert logger.isEnabledFor(logging.ERROR)
    assert "PYTHONWARNINGS" not in os.environ
    monkeypatch.setenv("TCLOSE_DEBUG", "1")
    with quiet_cluster():
        assert logger.isEnabledFor(logging.ERROR)


# -- projects ----------------------------------------------------------------------------------


def test_a_project_names_where_it_computes_in_one_checked_field(tmp_path):
    from engine.params import ReleaseParams
    from engine.project import load_project, new_project, project_to_dict, save_project

    source = write_csv(tmp_path)
    params = ReleaseParams(qi=("age",), confidential=("income",), k=5, t=3.0)
    project = new_project(source, params)
    path = save_project(project, tmp_path / "p.json")
    assert load_project(path).backend is None
    doc = project_to_dict(project, base=tmp_path)
    for value, backend in [({"cluster": "local:2"}, "local:2"), (None, None),
                           ({"cluster": None}, None)]:  # fmt: skip
        path.write_text(json.dumps({**doc, "backend": value}), encoding="utf-8")
        assert load_project(path).backend == backend
    for bad in (["local"], "local", {"cluster": 4}, {"cluster": "local", "x": 1}):
        path.write_text(json.dumps({**doc, "backend": bad}), encoding="utf-8")
        with pytest.raises(InputError, match="backend must be"):
            load_project(path)


def test_a_project_output_through_a_link_out_of_its_folder_is_outside(tmp_path):
    from engine.project import outside_folder

    (tmp_path / "proj").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "proj" / "out").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    project_file = tmp_path / "proj" / "p.json"
    outside_folder(project_file, tmp_path / "proj" / "sub" / "r.csv", "the release", "-o")
    with pytest.raises(InputError, match="outside the project's folder"):
        outside_folder(project_file, tmp_path / "proj" / "out" / "r.csv", "the release", "-o")
