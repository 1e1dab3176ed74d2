"""``agency-package``: a labelled SPSS file in gives SPSS and Stata out with their labels,
and a DDI-Codebook 2.5 description beside every release.

The input is ``tests/data/labelled-survey.sav`` (variable labels, value labels for sex and
five regions, income with the user-missing code −9 = "Refused"; made by
``tests/labelled_fixtures.py``).  Each release format is read back: the codes are codes,
the labels are the input's for every released code, the missing code is still declared;
the DDI names every released variable with its label, categories and released frequencies.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest

from engine.cli import main
from engine.errors import InputError
from engine.guidance import guidance_warnings
from engine.io import read_table
from engine.io.codebook import Codebook, Variable, with_codebook
from engine.io.ddi import NAMESPACE, ddi_xml
from engine.io.formats import RELEASE_SUFFIXES, format_for
from engine.params import ReleaseParams
from tests.labelled_fixtures import LABELS, REGIONS

pyreadstat = pytest.importorskip("pyreadstat")  # a core dependency; the message if missing

NS = {"d": NAMESPACE}
QI = ["age", "sex", "region"]
FLAGS = ["--qi", ",".join(QI), "--confidential", "income", "--k", "5", "--t", "2",
         "--seed", "7"]  # fmt: skip


@pytest.fixture(scope="module")
def sav(data_dir) -> Path:
    return data_dir / "labelled-survey.sav"


@pytest.fixture(scope="module")
def released(sav, tmp_path_factory) -> dict[str, Path]:
    """The labelled survey released once to every format that writes, each with a DDI."""
    folder = tmp_path_factory.mktemp("agency")
    out = {}
    for suffix in RELEASE_SUFFIXES:
        target = folder / f"release{suffix}"
        ddi = folder / f"release{suffix}.ddi.xml"
        assert main(["anonymize", str(sav), "-o", str(target), *FLAGS, "--ddi", str(ddi)]) == 0
        out[suffix] = target
    return out


def test_reading_keeps_codes_and_every_label(sav):
    imported = read_table(sav)
    data, book = imported.data, imported.info.codebook
    assert set(data["sex"].dropna()) == {1, 2} and set(data["region"].dropna()) <= set(REGIONS)
    assert {n: book.variable(n).label for n in LABELS} == LABELS
    assert book.variable("region").values == {float(k): v for k, v in REGIONS.items()}
    assert book.variable("income").missing == (-9.0,)
    assert (data["income"] == -9).any()  # the code stays a value, declared missing
    params = with_codebook(ReleaseParams(k=5), book)
    assert params.types == {"sex": "nominal", "region": "nominal"}  # not income: a scale
    assert params.column_missing == {"income": ("-9",)}
    # a type the user gives wins over the file's
    assert with_codebook(ReleaseParams(k=5, types={"sex": "numeric"}), book).types["sex"] == (
        "numeric"
    )


@pytest.mark.parametrize("suffix", [".sav", ".dta"])
def test_bar_sav_in_gives_spss_and_stata_out_with_every_label(released, suffix):
    """The bar: variable labels, and a value label for every released code."""
    reader = pyreadstat.read_dta if suffix == ".dta" else pyreadstat.read_sav
    frame, meta = reader(str(released[suffix]))
    assert list(frame.columns) == ["age", "sex", "region", "income"]
    for name in QI:
        assert meta.column_names_to_labels[name] == LABELS[name]
    for name, labels in (("sex", {1: "Male", 2: "Female"}), ("region", REGIONS)):
        codes = set(frame[name].dropna().astype(int))
        assert codes, name
        given = {int(k): v for k, v in meta.variable_value_labels[name].items()}
        assert codes <= set(given), (name, codes - set(given))  # every released code
        assert {c: given[c] for c in codes} == {c: labels[c] for c in codes}
    # the About text is inside the file: SPSS documents, Stata notes
    assert any("k = " in line or "k-anonym" in line.lower() for line in meta.notes)


def test_spss_out_keeps_the_user_missing_code_and_the_measure(released):
    _, meta = pyreadstat.read_sav(str(released[".sav"]), user_missing=True)
    assert meta.missing_ranges["income"] == [{"lo": -9.0, "hi": -9.0}]
    assert meta.variable_value_labels["income"] == {-9.0: "Refused"}
    assert meta.variable_measure["sex"] == "nominal"
    assert meta.variable_measure["age"] == "scale"


@pytest.mark.parametrize("suffix", RELEASE_SUFFIXES)
def test_every_format_carries_the_labels_back(released, suffix):
    """CSV, TSV, TXT and Parquet keep them in their metadata, a workbook in its codebook
    sheet, SPSS and Stata inside: reading the release gives the labels again."""
    back = read_table(released[suffix])
    book = back.info.codebook
    assert book.variable("region").label == LABELS["region"], suffix
    codes = {float(c) for c in back.data["region"].dropna()}
    assert codes and codes <= set(book.variable("region").values), suffix
    assert all(book.variable("region").values[c] == REGIONS[int(c)] for c in codes)


def test_a_published_codebook_names_only_released_codes():
    table = pd.DataFrame({"region": [1, 1, 3]})
    book = Codebook({"region": Variable("Region", {float(k): v for k, v in REGIONS.items()})})
    released = book.released(table, {"region": "nominal"})
    assert released.variable("region").values == {1.0: "North", 3.0: "East"}
    # the source file's own label and notes stay with the source
    source = Codebook({}, "INTERNAL", ("do not publish",)).released(table, {})
    assert source.label == "" and source.notes == ()


@pytest.mark.parametrize("suffix", [".sav", ".dta", ".csv"])
def test_bar_a_ddi_codebook_beside_each_release_names_every_released_variable(released, suffix):
    target = released[suffix]
    root = ET.parse(target.with_name(target.name + ".ddi.xml")).getroot()
    table = read_table(target).data
    names = [v.get("name") for v in root.iterfind("d:dataDscr/d:var", NS)]
    assert names == [str(c) for c in table.columns]
    region = root.find("d:dataDscr/d:var[@name='region']", NS)
    assert region.findtext("d:labl", namespaces=NS) == LABELS["region"]
    freq = {
        int(c.findtext("d:catValu", namespaces=NS)): (
            c.findtext("d:labl", namespaces=NS),
            int(c.findtext("d:catStat", namespaces=NS)),
        )
        for c in region.iterfind("d:catgry", NS)
    }
    counts = table["region"].value_counts()
    assert freq == {int(k): (REGIONS[int(k)], int(n)) for k, n in counts.items()}
    income = root.find("d:dataDscr/d:var[@name='income']", NS)
    assert income.find("d:invalrng/d:item", NS).get("VALUE") == "-9"
    done = income.findtext("d:derivation/d:drvdesc", namespaces=NS)
    assert "bucket" in done and "cut points" in done
    assert "at least" in region.findtext("d:derivation/d:drvdesc", namespaces=NS)


#: the order of the children the DDI-Codebook 2.5 schema gives each element we write
#: (codebook.xsd: codeBookType, stdyDscrType, varType, catgryType, citationType, …)
SCHEMA_ORDER = {
    "codeBook": ["docDscr", "stdyDscr", "fileDscr", "dataDscr", "otherMat"],
    "docDscr": ["citation", "guide", "docStatus", "docSrc", "controlledVocabUsed", "notes"],
    "stdyDscr": ["citation", "studyAuthorization", "stdyInfo", "studyDevelopment", "method",
                 "dataAccs", "othrStdyMat", "notes"],
    "citation": ["titlStmt", "rspStmt", "prodStmt", "distStmt", "serStmt", "verStmt",
                 "biblCit", "holdings", "notes"],
    "prodStmt": ["producer", "copyright", "prodDate", "prodPlac", "software", "fundAg",
                 "grantNo"],
    "method": ["dataColl", "notes", "anlyInfo", "stdyClas", "dataProcessing",
               "codingInstructions"],
    "useStmt": ["confDec", "specPerm", "restrctn", "contact", "citReq", "deposReq",
                "conditions", "disclaimer"],
    "fileTxt": ["fileName", "fileCitation", "dataFingerprint", "fileCont", "fileStrc",
                "dimensns", "fileType", "format", "filePlac", "dataChck", "ProcStat",
                "dataMsng", "software", "verStmt"],
    "dimensns": ["caseQnty", "varQnty", "logRecL", "recPrCas", "recNumTot"],
    "var": ["location", "labl", "imputation", "security", "embargo", "respUnit", "anlysUnit",
            "qstn", "valrng", "invalrng", "undocCod", "universe", "TotlResp", "sumStat",
            "txt", "stdCatgry", "catgryGrp", "catgry", "codInstr", "verStmt", "concept",
            "derivation", "varFormat", "geomap", "catLevel", "notes"],
    "catgry": ["catValu", "labl", "txt", "catStat", "mrow"],
}  # fmt: skip
#: the attribute values the schema allows
SCHEMA_VALUES = {
    ("var", "intrvl"): {"discrete", "contin"},
    ("var", "nature"): {"nominal", "ordinal", "interval", "ratio", "percent", "other"},
    ("catgry", "missing"): {"Y", "N"},
    ("varFormat", "type"): {"character", "numeric"},
    ("catStat", "type"): {"freq", "percent", "crosstab", "other"},
}


def check_ddi_structure(text: str) -> ET.Element:
    """The DDI-Codebook 2.5 schema's rules for what tclose writes: the namespace and version,
    the required study citation and title, each element's children in the schema's order,
    unique ids, the enumerated attribute values.  (The schema itself is GPL-3 and does not
    ship with tclose's tests: docs/data-formats.md.)"""
    root = ET.fromstring(text)
    assert root.tag == f"{{{NAMESPACE}}}codeBook" and root.get("version") == "2.5"
    assert root.find("d:stdyDscr/d:citation/d:titlStmt/d:titl", NS).text.strip()
    ids = [e.get("ID") for e in root.iter() if e.get("ID")]
    assert len(ids) == len(set(ids))
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        order = SCHEMA_ORDER.get(tag)
        if order is not None:
            children = [c.tag.rpartition("}")[2] for c in element]
            assert all(c in order for c in children), (tag, children)
            positions = [order.index(c) for c in children]
            assert positions == sorted(positions), (tag, children)
        for (owner, key), allowed in SCHEMA_VALUES.items():
            if tag == owner and element.get(key) is not None:
                assert element.get(key) in allowed, (tag, key, element.get(key))
    return root


@pytest.mark.parametrize("suffix", [".sav", ".csv", ".parquet"])
def test_the_ddi_follows_the_ddi_codebook_2_5_schema(released, suffix):
    target = released[suffix]
    root = check_ddi_structure(
        target.with_name(target.name + ".ddi.xml").read_text(encoding="utf-8")
    )
    cases = int(root.findtext("d:fileDscr/d:fileTxt/d:dimensns/d:caseQnty", namespaces=NS))
    assert cases == len(read_table(target).data)
    for var in root.iterfind("d:dataDscr/d:var", NS):
        freqs = [int(c.text) for c in var.iterfind("d:catgry/d:catStat", NS)]
        assert not freqs or sum(freqs) <= cases


def test_hostile_names_and_labels_cannot_inject_markup():
    hostile = '</var><var name="x">&amp;=HYPERLINK("x")\x07'
    table = pd.DataFrame({hostile: [1, 2, 2], "b": ["<b>", "&", "\x00"]})
    book = Codebook({hostile: Variable(label=hostile, values={1.0: hostile})})
    text = ddi_xml(table, {"parameters": {"keep": [hostile, "b"]}}, book, file_name=hostile)
    root = check_ddi_structure(text)
    names = [v.get("name") for v in root.iterfind("d:dataDscr/d:var", NS)]
    assert names == [hostile.replace("\x07", "\ufffd"), "b"]
    assert len(root.findall("d:dataDscr/d:var", NS)) == 2


def test_the_ddi_states_the_method_release_type_and_scenario(sav, tmp_path):
    target, ddi = tmp_path / "out.dta", tmp_path / "out.xml"
    scenario = "A neighbour knows the age, sex and region of a respondent."
    argv = ["anonymize", str(sav), "-o", str(target), *FLAGS, "--ddi", str(ddi),
            "--release-type", "scientific", "--scenario", scenario]  # fmt: skip
    assert main(argv) == 0
    root = ET.parse(ddi).getroot()
    notes = {n.get("subject"): n.text for n in root.iterfind("d:stdyDscr/d:method/d:notes", NS)}
    assert notes["intruder scenario"] == scenario
    statement = notes["statistical disclosure control"]
    assert "scientific-use" in statement and "at least" in statement and "t = " in statement
    assert "Scientific-use" in root.findtext(
        "d:stdyDscr/d:dataAccs/d:useStmt/d:confDec", namespaces=NS
    )


def test_the_ddi_must_be_an_xml_file(sav, tmp_path, capsys):
    argv = ["anonymize", str(sav), "-o", str(tmp_path / "o.csv"), *FLAGS,
            "--ddi", str(tmp_path / "out.txt")]  # fmt: skip
    assert main(argv) == 2
    assert "out.txt: the DDI codebook is an XML file" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # refused before the run: nothing written


def test_the_plan_names_the_guidance_when_k_falls_short():
    public = ReleaseParams(k=3, release_type="public")
    (warning,) = guidance_warnings(public)
    assert "k = 3 is below the k = 5" in warning and "SDC practice guide" in warning
    assert guidance_warnings(ReleaseParams(k=3, release_type="scientific")) == []
    assert guidance_warnings(ReleaseParams(k=2, release_type="licensed"))
    assert guidance_warnings(ReleaseParams(k=2, release_type="enclave")) == []
    assert guidance_warnings(ReleaseParams(k=2)) == []  # not stated: nothing to compare


def test_release_type_and_scenario_are_published(sav, tmp_path):
    import json

    target = tmp_path / "out.csv"
    argv = ["anonymize", str(sav), "-o", str(target), *FLAGS, "--release-type", "licensed",
            "--scenario", "Researchers under contract."]  # fmt: skip
    assert main(argv) == 0
    meta = json.loads(target.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["parameters"]["release_type"] == "licensed"
    assert meta["parameters"]["scenario"] == "Researchers under contract."
    with pytest.raises(InputError, match="release_type must be one of"):
        ReleaseParams(k=5, release_type="open")


def test_formats_are_chosen_by_their_registered_magic(sav, tmp_path):
    fmt, overruled = format_for("x.csv", sav.read_bytes()[:8])
    assert fmt.suffixes == (".sav",) and overruled
    copy = tmp_path / "survey.csv"
    copy.write_bytes(sav.read_bytes())
    result = read_table(copy)
    assert result.info.format == "sav" and result.info.codebook.variable("sex").values
    assert any("despite its name" in n for n in result.info.notes)


def test_stata_in_keeps_its_labels(data_dir):
    imported = read_table(data_dir / "labelled-survey.dta")
    assert imported.info.codebook.variable("region").values[1.0] == "North"
    assert imported.info.codebook.variable("age").label == LABELS["age"]
    assert set(imported.data["region"].dropna().astype(int)) == set(REGIONS)


@pytest.mark.slow
def test_a_cluster_writes_spss_and_stata_with_labels_and_a_ddi(sav, tmp_path):
    for suffix in (".sav", ".csv"):
        target, ddi = tmp_path / f"out{suffix}", tmp_path / f"out{suffix}.xml"
        argv = ["anonymize", str(sav), "-o", str(target), *FLAGS, "--ddi", str(ddi),
                "--cluster", "local:1"]  # fmt: skip
        assert main(argv) == 0
        back = read_table(target)
        assert back.info.codebook.variable("sex").values == {1.0: "Male", 2.0: "Female"}
        names = [v.get("name") for v in ET.parse(ddi).getroot().iterfind("d:dataDscr/d:var", NS)]
        assert names == list(back.data.columns)
