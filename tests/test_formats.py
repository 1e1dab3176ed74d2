"""The format table (engine.io.formats): every suffix it lists is what the readers, the
writers, the cluster and the app's dialogs accept, and nothing else."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.errors import InputError
from engine.io import read_table, release_outputs, write_release
from engine.io.formats import (
    CLUSTER_SUFFIXES,
    FORMATS,
    RELEASE_SUFFIXES,
    format_of,
    open_patterns,
    suffixes,
)

TABLE = pd.DataFrame({"age": [30, 41, 52], "region": ["north", "south", "east"]})


@pytest.mark.parametrize("suffix", RELEASE_SUFFIXES)
def test_every_release_format_is_written_and_read_back(suffix, tmp_path):
    path = tmp_path / f"release{suffix}"
    written = write_release(TABLE, path, metadata={"note": "test"})
    inside = format_of(path.name).metadata_inside
    assert written == ([path] if inside else [path, path.with_suffix(".json")])
    back = read_table(path).data
    assert list(back.columns) == ["age", "region"]
    assert [int(v) for v in back["age"]] == [30, 41, 52]
    assert [str(v) for v in back["region"]] == ["north", "south", "east"]


def test_unlisted_suffixes_are_refused_by_every_writer(tmp_path):
    from engine.distributed.output import cluster_outputs

    for name in ("release.sas7bdat", "release.pq", "release.html"):
        with pytest.raises(InputError, match="unknown output type"):
            release_outputs(tmp_path / name)
    with pytest.raises(InputError, match="unknown output type"):
        cluster_outputs(tmp_path / "release.ods")
    for suffix in CLUSTER_SUFFIXES:  # a name without a suffix: a Parquet dataset folder
        assert cluster_outputs(tmp_path / f"release{suffix}")[0].path.name == f"release{suffix}"


def test_the_open_dialog_lists_what_the_readers_read():
    listed = open_patterns().split()
    assert listed == [f"*{s}" for s in suffixes()]
    assert len(set(listed)) == len(listed)
    assert {f.reader for f in FORMATS} == {"delimited", "workbook", "stats", "parquet"}
    assert "*.sas7bdat" not in listed  # no reader for it: the dialog no longer offers it


def write_fake(job) -> None:
    """A writer registered by a test: the table as "name|value" lines."""
    lines = ["|".join(map(str, job.table.columns))]
    lines += ["|".join(map(str, row)) for row in job.table.itertuples(index=False)]
    job.target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_fake(job):
    """Its reader: the same lines back (the content, not the name, says it is one)."""
    rows = [line.split("|") for line in job.path.read_text(encoding="utf-8").splitlines()]
    job.info.format = "fake"
    return pd.DataFrame(rows[1:], columns=rows[0])


def test_a_new_format_is_one_registration(tmp_path, monkeypatch):
    """A format is one entry of the table, naming its reader and writer: the release
    writer, the reader and the list of release suffixes take it from there."""
    from engine.io import formats

    fake = formats.FileFormat(
        "Fake", (".fake",), "fake", writes=True, magic=(b"age|",),
        read="tests.test_formats:read_fake", write="tests.test_formats:write_fake",
    )  # fmt: skip
    table = (*formats.FORMATS, fake)
    monkeypatch.setattr(formats, "FORMATS", table)
    path = tmp_path / "release.fake"
    written = write_release(TABLE, path, metadata={"note": "test"})
    assert written == [path, tmp_path / "release.json"]
    copy = tmp_path / "copy.csv"  # named as CSV: its first bytes say what it is
    copy.write_bytes(path.read_bytes())
    back = read_table(copy)
    assert back.info.format == "fake"
    assert back.data["region"].tolist() == ["north", "south", "east"]
