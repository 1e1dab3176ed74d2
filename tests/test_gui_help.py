"""Help › User guide and the "?" of each page: the guide opens offline, with its pictures, at
the page's section, from a source checkout and from an installed copy of tclose."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument

from gui.help import GuideBrowser, GuideWindow, HelpButton, guide_path, slug
from gui.wizard import PAGE_SECTIONS, MainWindow
from tests.test_installer import spec_run  # noqa: F401  (the spec, executed)

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parent.parent


def test_slugs_are_github_s() -> None:
    assert slug("Step 5: Export") == "step-5-export"
    assert slug("Choosing t and k: the privacy–utility sweep") == (
        "choosing-t-and-k-the-privacyutility-sweep"
    )
    assert slug("Construction B (noise)") == "construction-b-noise"


def images_of(document: QTextDocument) -> list[str]:
    names = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                names.append(fmt.toImageFormat().name())
            it += 1
        block = block.next()
    return names


def test_the_guide_has_a_section_for_every_page_and_all_its_pictures(qtbot) -> None:
    browser = GuideBrowser()
    qtbot.addWidget(browser)
    browser.open_file(guide_path())
    assert set(PAGE_SECTIONS.values()) <= set(browser.headings())
    names = images_of(browser.document())
    assert len(names) >= 5
    for name in names:
        image = browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
        assert image is not None and not image.isNull(), f"{name} does not load"


def test_each_page_s_question_mark_opens_its_section(qtbot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    pages = [window.wizard.page(pid) for pid in PAGE_SECTIONS]
    for pid, page in zip(PAGE_SECTIONS, pages, strict=True):
        buttons = page.findChildren(HelpButton)
        assert len(buttons) == 1, f"page {pid} has no ? button"
        assert buttons[0].section == PAGE_SECTIONS[pid]
        buttons[0].click()
        guide = window.findChild(GuideWindow)
        assert guide is not None and guide.isVisible()
        cursor = guide.browser.textCursor()
        assert slug(cursor.block().text()) == PAGE_SECTIONS[pid]
    assert len(window.findChildren(GuideWindow)) == 1  # one guide window, raised again


def test_f1_opens_the_guide_at_the_current_page(qtbot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    guide = window.open_guide()
    assert guide is not None and slug(guide.browser.textCursor().block().text()) == (
        "step-1-import"
    )


def test_links_to_other_documents_open_inside(qtbot) -> None:
    browser = GuideBrowser()
    qtbot.addWidget(browser)
    browser.open_file(guide_path())
    browser.anchorClicked.emit(QUrl("method.md"))
    assert Path(browser.source().toLocalFile()).name == "method.md"


def test_the_installer_bundles_the_guide(spec_run) -> None:  # noqa: F811
    datas = spec_run["Analysis"].calls[0].kwargs["datas"]
    targets = {(Path(src).name, dest) for src, dest in datas}
    assert ("*.md", "resources/docs") in targets
    assert ("*.png", "resources/docs/images") in targets
    for src, _dest in datas:
        if "docs" in Path(src).parts:
            assert list(Path(src).parent.glob(Path(src).name)), f"{src} matches nothing"


@pytest.mark.slow
def test_the_guide_opens_from_an_installed_wheel(tmp_path) -> None:
    """Build the wheel (as the wheelhouse does), unpack it as pip would into site-packages,
    and open the guide from there in a fresh interpreter that cannot see the checkout."""
    source = tmp_path / "src"
    for name in ("engine", "gui", "resources", "docs"):
        shutil.copytree(
            ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("tclose-*.whl")
    site = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    assert (site / "resources" / "docs" / "user-guide.md").is_file()
    assert (site / "resources" / "docs" / "images" / "import.png").is_file()
    check = textwrap.dedent(
        """
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from pathlib import Path
        import resources
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QTextDocument
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from gui.help import GuideWindow, guide_path
        folder = Path(resources.docs_folder())
        window = GuideWindow()
        window.show_section("step-3-privacy-level")
        document = window.browser.document()
        image = document.resource(
            QTextDocument.ResourceType.ImageResource, QUrl("images/privacy.png")
        )
        print(folder)
        print(Path(window.browser.source().toLocalFile()))
        print(window.browser.textCursor().block().text())
        print(image is not None and not image.isNull())
        """
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    run = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    folder, source_file, heading, image_ok = run.stdout.strip().splitlines()[-4:]
    assert Path(folder) == site / "resources" / "docs", "the guide was not read from the wheel"
    assert Path(source_file) == site / "resources" / "docs" / "user-guide.md"
    assert heading == "Step 3: Privacy level"
    assert image_ok == "True"
