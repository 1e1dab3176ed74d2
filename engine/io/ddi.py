"""A DDI-Codebook 2.5 description of a release: the XML file a data catalogue reads.

Statistical agencies catalogue their public-use files in DDI (the IHSN/World Bank
Microdata Library and NADA read DDI-Codebook 2.5).  :func:`ddi_xml` describes a release
from what is published and nothing else: the released table (its columns, categories and
their released frequencies), the release's codebook (labels, missing codes, measurement
levels) and its published metadata (``RunSummary.public_dict()``: the parameters, k and t
or ε achieved, the buckets' public cut points, the noise's scale, the release type and the
intruder scenario).  The review record (seed, statistics of the original data) never
reaches it: :func:`engine.io.about.publishable` refuses it, as for every published file.

The elements follow the order of the DDI-Codebook 2.5 schema (``codeBook``: ``docDscr``,
``stdyDscr``, ``fileDscr``, ``dataDscr``; ``stdyDscr`` requires ``citation/titlStmt/titl``;
a ``var`` lists ``labl``, ``invalrng``, ``catgry``, ``derivation`` in that order).  The XML
is built with :mod:`xml.etree.ElementTree`, which escapes every text and attribute, and
characters XML cannot hold are replaced, so a column name or a label can never inject
markup.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import InputError
from engine.i18n import _
from engine.io.about import publishable
from engine.io.codebook import Codebook, Variable, code_text
from engine.io.outputs import Staging

NAMESPACE = "ddi:codebook:2_5"
SCHEMA = "http://www.ddialliance.org/Specification/DDI-Codebook/2.5/XMLSchema/codebook.xsd"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
#: a column with at most this many released values lists them as categories
MAX_CATEGORIES = 200
#: characters XML 1.0 cannot hold (control characters other than tab, line feed, return)
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: the DDI ``nature`` of each measurement level
_NATURE = {"nominal": "nominal", "ordinal": "ordinal", "scale": "interval"}


@dataclass
class Tally:
    """What the DDI says of a released table, counted part by part (a cluster release is
    never whole on one computer): its records, and per column whether it is numeric and
    its released values' frequencies (None once it has too many to list)."""

    n_records: int = 0
    numeric: dict[str, bool] = field(default_factory=dict)
    counts: dict[str, pd.Series | None] = field(default_factory=dict)

    def add(self, table: pd.DataFrame) -> Tally:
        """Count one more part (or a whole table); returns itself."""
        self.n_records += len(table)
        for name in table.columns:
            key = str(name)
            column = table[name]
            numeric = pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(
                column
            )
            self.numeric[key] = self.numeric.get(key, numeric) and numeric
            if key in self.counts and self.counts[key] is None:
                continue
            part = column.value_counts(dropna=True, sort=False)
            before = self.counts.get(key)
            merged = part if before is None else before.add(part, fill_value=0)
            self.counts[key] = merged if len(merged) <= _KEEP_COUNTS else None
        return self

    @classmethod
    def of(cls, table: pd.DataFrame) -> Tally:
        return cls().add(table)

    def values(self) -> pd.DataFrame:
        """One row per distinct released value of each column (padded): what
        :meth:`Codebook.released` needs to keep the labels of the released codes."""
        columns = {}
        for name, counts in self.counts.items():
            values = list(counts.index) if counts is not None else []
            columns[name] = pd.Series(values, dtype=float if self.numeric[name] else object)
        return pd.DataFrame(columns)


#: the most distinct values whose frequencies a tally keeps for one column
_KEEP_COUNTS = 5_000


def check_ddi_name(path: str | Path) -> Path:
    """``path`` when it names an XML file, else the one-line message."""
    path = Path(path)
    if path.suffix.lower() != ".xml":
        raise InputError(
            _("{name}: the DDI codebook is an XML file; name it ….xml.").format(name=path.name)
        )
    return path


def ddi_path(release: str | Path) -> Path:
    """The DDI codebook beside a release: ``out.sav`` → ``out.ddi.xml``."""
    release = Path(release)
    return release.with_name(release.stem + ".ddi.xml")


def _text(value: Any) -> str:
    return _ILLEGAL.sub("\ufffd", str(value))


def _sub(parent: ET.Element, tag: str, text: Any = None, **attrib: Any) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: _text(v) for k, v in attrib.items() if v != ""})
    if text is not None:
        element.text = _text(text)
    return element


def ddi_xml(
    table: pd.DataFrame | Tally,
    metadata: Mapping[str, Any] | None,
    codebook: Codebook,
    *,
    file_name: str,
    title: str = "",
) -> str:
    """The DDI-Codebook 2.5 XML of the release ``table`` (module doc).

    ``table`` may be given as its :class:`Tally` (a cluster's release, counted part by
    part).  ``metadata`` is the release's published metadata, ``codebook`` the release's labels
    (:func:`engine.io.write.released_codebook`), ``file_name`` the release file it
    describes and ``title`` the study's title (by default the release's own).
    """
    meta = publishable(metadata)
    tally = table if isinstance(table, Tally) else Tally.of(table)
    root = ET.Element(
        "codeBook",
        {
            "xmlns": NAMESPACE,
            "xmlns:xsi": XSI,
            "xsi:schemaLocation": f"{NAMESPACE} {SCHEMA}",
            "version": "2.5",
            "ID": "tclose-release",
        },
    )
    title = title or _("Release {name}").format(name=file_name)
    _doc_description(root, meta, title)
    _study_description(root, meta, title)
    _file_description(root, tally, file_name)
    data = _sub(root, "dataDscr")
    params = meta.get("parameters") or {}
    for i, name in enumerate(tally.numeric, 1):
        _variable(data, f"V{i}", name, tally, codebook.variable(name), meta, params)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _citation(parent: ET.Element, meta: Mapping[str, Any], title: str) -> None:
    citation = _sub(parent, "citation")
    titles = _sub(citation, "titlStmt")
    _sub(titles, "titl", title)
    prod = _sub(citation, "prodStmt")
    written = str(meta.get("written", ""))[:10]
    if written:
        _sub(prod, "prodDate", written, date=written)
    _sub(prod, "software", meta.get("software", "tclose"))


def _doc_description(root: ET.Element, meta: Mapping[str, Any], title: str) -> None:
    doc = _sub(root, "docDscr")
    _citation(doc, meta, _("DDI codebook of: {title}").format(title=title))


def _study_description(root: ET.Element, meta: Mapping[str, Any], title: str) -> None:
    study = _sub(root, "stdyDscr")
    _citation(study, meta, title)
    info = _sub(study, "stdyInfo")
    _sub(info, "abstract", method_statement(meta))
    method = _sub(study, "method")
    _sub(method, "notes", method_statement(meta), subject="statistical disclosure control")
    scenario = (meta.get("parameters") or {}).get("scenario") or ""
    if scenario:
        _sub(method, "notes", scenario, subject="intruder scenario")
    access = _sub(study, "dataAccs")
    use = _sub(access, "useStmt")
    _sub(use, "confDec", _release_type_words(meta))
    _sub(use, "conditions", _conditions(meta))


def release_type(meta: Mapping[str, Any]) -> str | None:
    """The release type the published parameters state (None: not stated)."""
    kind = (meta.get("parameters") or {}).get("release_type")
    return str(kind) if kind else None


def _release_type_name(meta: Mapping[str, Any]) -> str:
    from engine.guidance import RELEASE_TYPE_WORDS

    kind = release_type(meta)
    return _(RELEASE_TYPE_WORDS[kind]) if kind in RELEASE_TYPE_WORDS else _("not stated")


def _release_type_words(meta: Mapping[str, Any]) -> str:
    kind = release_type(meta)
    if kind is None:
        return _("The release type was not stated.")
    words = {
        "public": _("Public-use file: anyone may obtain it."),
        "scientific": _("Scientific-use file: for registered researchers under a licence."),
        "licensed": _("Licensed file: for named users under a signed agreement."),
        "enclave": _("Data enclave: used only inside a controlled research environment."),
    }
    return words.get(kind, kind)


def _conditions(meta: Mapping[str, Any]) -> str:
    return _(
        "The released values were protected before publication (see the method statement); "
        "do not attempt to identify any person."
    )


def method_statement(meta: Mapping[str, Any]) -> str:
    """The method in one paragraph, with k, t or ε and the release type (published facts)."""
    parts = [
        _("Released with tclose ({mechanism}); release type: {kind}.").format(
            mechanism=meta.get("mechanism", ""), kind=_release_type_name(meta)
        )
    ]
    k = meta.get("k_achieved")
    if k is not None:
        parts.append(
            _(
                "Quasi-identifiers were microaggregated into classes of at least {k} records "
                "(k-anonymity)."
            ).format(k=k)
        )
    t = meta.get("t_achieved")
    if t is not None and not meta.get("noise"):
        parts.append(
            _(
                "Confidential values were replaced by their bucket, so that in every class "
                "each bucket's share is within a factor t = {t} of its share in the whole "
                "file (t-closeness)."
            ).format(t=_num(t))
        )
    eps = meta.get("epsilon")
    if meta.get("noise"):
        parts.append(
            _(
                "Confidential values were given random noise with ε = {epsilon} "
                "(ε-differential privacy of each value)."
            ).format(epsilon=_num(eps))
        )
    elif meta.get("epsilon_achieved") is not None:
        parts.append(
            _("Under the assumptions of t-closeness this is ε = {epsilon} (ε = 2·ln t).").format(
                epsilon=_num(meta["epsilon_achieved"])
            )
        )
    return " ".join(parts)


def _num(value: Any) -> str:
    try:
        return f"{float(value):.4g}"
    except (TypeError, ValueError):
        return str(value)


def _file_description(root: ET.Element, tally: Tally, file_name: str) -> None:
    fd = _sub(root, "fileDscr", ID="F1")
    txt = _sub(fd, "fileTxt")
    _sub(txt, "fileName", file_name)
    dims = _sub(txt, "dimensns")
    _sub(dims, "caseQnty", tally.n_records)
    _sub(dims, "varQnty", len(tally.numeric))


def _variable(
    parent: ET.Element,
    ident: str,
    name: str,
    tally: Tally,
    var: Variable,
    meta: Mapping[str, Any],
    params: Mapping[str, Any],
) -> None:
    numeric = tally.numeric[name]
    measure = var.measure or ("scale" if numeric else "nominal")
    element = _sub(
        parent, "var", ID=ident, name=name, files="F1",
        intrvl="contin" if measure == "scale" else "discrete", nature=_NATURE[measure],
    )  # fmt: skip
    if var.label:
        _sub(element, "labl", var.label)
    if var.missing:
        invalid = _sub(element, "invalrng")
        for code in var.missing:
            _sub(invalid, "item", VALUE=code_text(code) if not isinstance(code, str) else code)
    for code, label, count, missing in _categories(tally.counts[name], var, measure):
        cat = _sub(element, "catgry", missing="Y" if missing else "")
        _sub(cat, "catValu", code)
        if label:
            _sub(cat, "labl", label)
        _sub(cat, "catStat", count, type="freq")
    done = treatment(name, meta, params)
    if done:
        derivation = _sub(element, "derivation")
        _sub(derivation, "drvdesc", done)
    _sub(element, "varFormat", type="numeric" if numeric else "character", schema="other")


def _categories(
    counts: pd.Series | None, var: Variable, measure: str
) -> list[tuple[str, str, int, bool]]:
    """(code, label, released frequency, missing) for each released category of a
    categorical column (or a labelled one); none for a continuous column."""
    if counts is None or (measure == "scale" and not var.values):
        return []
    if len(counts) > MAX_CATEGORIES and not var.values:
        return []
    out = []
    for value, count in sorted(counts.items(), key=lambda item: _order(item[0])):
        code = _key(value)
        label = var.values.get(code, "") if code is not None else ""
        shown = code_text(code) if isinstance(code, float) else str(value)
        out.append((shown, label, int(count), code in var.missing))
    return out


def _key(value: Any) -> float | str | None:
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return str(value)


def _order(value: Any) -> tuple[int, float, str]:
    key = _key(value)
    return (0, key, "") if isinstance(key, float) else (1, 0.0, str(value))


def treatment(name: str, meta: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    """What the release did to column ``name``, from the published metadata alone."""
    k = meta.get("k_achieved")
    done = [text for text in _recoding(name, params) if text]
    if name in (params.get("qi") or ()):
        output = params.get("qi_output", "centroid")
        levels = ((params.get("hierarchies") or {}).get(name) or [[]])[0]
        if levels:
            how = _(
                "the finest level of its hierarchy ({levels}) that every member of its class "
                "holds ('*': none)"
            ).format(levels=" → ".join(map(str, levels)))
        elif output == "range":
            how = _("its class's range")
        elif output == "common":
            how = _("the value every member of its class holds ('*' where they differ)")
        else:
            how = _("its class's typical value")
        done.append(
            _(
                "Quasi-identifier: microaggregated into classes of at least {k} records; each "
                "record shows {how}."
            ).format(k=k, how=how)
        )
        return " ".join(done)
    if name in (params.get("confidential") or ()):
        noise = meta.get("noise") or {}
        column = (noise.get("columns") or {}).get(name)
        if column:
            scale = column.get("noise_scale")
            text = _("Confidential: {described}").format(described=column.get("described", ""))
            if scale is not None:
                text += " " + _("Noise scale {scale}.").format(scale=_num(scale))
            return text
        cuts = _cut_points(meta.get("buckets") or (), name, params)
        done.append(
            _(
                "Confidential: replaced by its bucket (t-closeness); the buckets' public cut "
                "points: {cuts}."
            ).format(cuts=cuts or _("categories grouped"))
        )
        return " ".join(done)
    if name == params.get("household"):
        return _("Household: a fresh random numbering in this release; it links no record "
                 "to the source.")  # fmt: skip
    if name == params.get("weight"):
        return _("Sampling weight.")
    if name in (params.get("keep") or ()):
        return " ".join(done) or _("Released unchanged.")
    return " ".join(done)


def _recoding(name: str, params: Mapping[str, Any]) -> list[str]:
    """What was done to column ``name`` before the grouping (public codes and cut points)."""
    out = []
    top = (params.get("top_code") or {}).get(name)
    bottom = (params.get("bottom_code") or {}).get(name)
    if top is not None:
        out.append(_("Top-coded at {value}.").format(value=_num(top)))
    if bottom is not None:
        out.append(_("Bottom-coded at {value}.").format(value=_num(bottom)))
    cuts = (params.get("bands") or {}).get(name)
    if cuts:
        out.append(
            _("Recoded into bands at the public cut points {cuts}.").format(
                cuts=", ".join(_num(c) for c in cuts)
            )
        )
    return out


def _cut_points(buckets: Any, name: str, params: Mapping[str, Any]) -> str:
    confidential = list(params.get("confidential") or ())
    if not buckets:
        return ""
    labels = [str(b.get("label", "")) for b in buckets if not b.get("missing")]
    if len(confidential) == 1:
        return "; ".join(labels)
    return "; ".join(labels)  # joint buckets: each label names every column's interval


def stage_ddi(
    stage: Staging,
    path: str | Path,
    table: pd.DataFrame | Tally,
    metadata: Mapping[str, Any] | None,
    codebook: Codebook,
    *,
    release: str | Path,
) -> Path:
    """Write the DDI codebook of a release to ``path`` with the other outputs of ``stage``."""
    path = check_ddi_name(path)
    stage.write_utf8(path, ddi_xml(table, metadata, codebook, file_name=Path(release).name))
    return path


__all__ = [
    "NAMESPACE",
    "Tally",
    "check_ddi_name",
    "ddi_path",
    "ddi_xml",
    "method_statement",
    "stage_ddi",
]
