"""The repository keeps its own promises: the README is short and its commands are the ones CI
runs, every link and picture in the documentation exists, and every test names its encodings."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "tests" / "data" / "README.md"]

INSTALL_AND_START = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/tclose-gui --sample"
)
RUN_THE_TESTS = (
    'python3 -m venv .venv && .venv/bin/pip install -q -e ".[test]" && .venv/bin/python -m pytest'
    " -n auto --dist worksteal"
)

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def prose(path: Path) -> str:
    """The Markdown of ``path`` without code, where brackets are not links."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return _INLINE_CODE.sub("", text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE)}


def local_links(path: Path) -> list[str]:
    return [
        target
        for target in _LINK.findall(prose(path))
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)  # http:, mailto: …
    ]


def test_the_readme_is_short_and_has_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move detail into docs/"
    assert INSTALL_AND_START in lines
    assert RUN_THE_TESTS in lines
    # .ci/run takes the test command from the README: it must find this line first
    first = next(line for line in lines if re.match(r"^python3 -m venv .venv && .*pytest", line))
    assert first == RUN_THE_TESTS


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_image_exists(page: Path) -> None:
    broken = []
    for target in local_links(page):
        file_part, _, anchor = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with that anchor in {linked.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_table_of_contents_lists_every_page_and_every_picture_is_used() -> None:
    listed = {Path(t.partition("#")[0]).name for t in local_links(DOCS / "README.md")}
    pages = {p.name for p in DOCS.glob("*.md")} - {"README.md"}
    assert pages <= listed, f"docs/README.md does not list {sorted(pages - listed)}"
    used = {
        (page.parent / t).resolve() for page in PAGES for t in local_links(page) if "images/" in t
    }
    pictures = set((DOCS / "images").glob("*.png"))
    assert pictures, "docs/images holds the screenshots the guide shows"
    assert {p.resolve() for p in pictures} <= used, "a picture in docs/images is not used"


# --------------------------------------------------------------------------- encodings

#: modules whose ``open(name, mode)`` takes the mode second, like the built-in
_MODULE_OPENERS = {"gzip", "bz2", "lzma", "io", "codecs"}


def _text_opens_without_encoding(tree: ast.AST) -> list[int]:
    """Lines of open()/Path.open()/read_text()/write_text() calls in text mode without encoding."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            mode_position: int | None = 1
        elif isinstance(func, ast.Attribute) and func.attr in {"read_text", "write_text"}:
            mode_position = None
        elif isinstance(func, ast.Attribute) and func.attr == "open":
            receiver = func.value.id if isinstance(func.value, ast.Name) else ""
            if receiver == "Image":  # Pillow opens images, always binary
                continue
            mode_position = 1 if receiver in _MODULE_OPENERS else 0
        else:
            continue
        keywords = {k.arg for k in node.keywords}
        if "encoding" in keywords or None in keywords:  # named, or passed on with **kwargs
            continue
        if mode_position is not None:
            mode = next((k.value for k in node.keywords if k.arg == "mode"), None)
            if mode is None and len(node.args) > mode_position:
                mode = node.args[mode_position]
            if isinstance(mode, ast.Constant) and "b" in str(mode.value):
                continue
        lines.append(node.lineno)
    return lines


def test_every_text_file_a_test_opens_names_its_encoding() -> None:
    """Windows opens text as cp1252 unless told otherwise; the tests must hold there too."""
    missing = [
        f"{path.name}:{line}"
        for path in sorted((ROOT / "tests").glob("*.py"))
        for line in _text_opens_without_encoding(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not missing, "open/read_text/write_text without encoding= at " + ", ".join(missing)


def test_the_encoding_check_finds_what_it_should() -> None:
    found = _text_opens_without_encoding(
        ast.parse(
            "open(p)\n"
            "p.read_text()\n"
            "p.write_text('x')\n"
            "p.open('w')\n"
            "gzip.open(p, 'rt')\n"
            "open(p, 'rb')\n"
            "p.open('rb')\n"
            "gzip.open(p, 'rb')\n"
            "p.read_text(encoding='utf-8')\n"
            "open(p, 'w', encoding='utf-8')\n"
            "Image.open(p)\n"
        )
    )
    assert found == [1, 2, 3, 4, 5]
