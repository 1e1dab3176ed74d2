"""Help › User guide: ``docs/user-guide.md`` shown offline, and a "?" on every wizard page.

The guide is the same Markdown file as in the repository, with its screenshots; Qt renders it
(:meth:`QTextBrowser.setSource` with the Markdown resource type), so there is no web view and
no network.  An installed app finds the guide among its resources (the wheel and the
installer copy ``docs/*.md`` and ``docs/images`` there); a source checkout reads ``docs/``.
A page's "?" opens the guide at its section: sections are named by the slug of their heading,
as on GitHub ("Step 5: Export" → ``step-5-export``).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import (
    QDesktopServices,
    QImage,
    QPixmap,
    QTextCursor,
    QTextDocument,
    QTextImageFormat,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

import resources

GUIDE = "user-guide.md"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def guide_path(folder: Path | None = None) -> Path:
    """The user guide file (FileNotFoundError when the app was installed without it)."""
    return (folder or resources.docs_folder()) / GUIDE


class GuideBrowser(QTextBrowser):
    """A QTextBrowser for the Markdown docs: local links stay inside, others open outside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._follow)
        self.setMinimumWidth(400)
        #: the section to keep at the top while the pictures are fitted to the window (until
        #: the user scrolls)
        self._pinned: str | None = None
        self._images: dict[str, QImage] = {}
        self._images_of: QTextDocument | None = None
        self.verticalScrollBar().actionTriggered.connect(self._unpin)

    def open_file(self, path: Path, section: str = "") -> None:
        """Show the Markdown file ``path`` and scroll to the heading whose slug is ``section``."""
        self.setSearchPaths([str(path.parent)])
        self.setSource(QUrl.fromLocalFile(str(path)), QTextDocument.ResourceType.MarkdownResource)
        self.fit_images()
        self.go_to(section)

    def headings(self) -> dict[str, int]:
        """slug → position of every heading of the shown document."""
        out: dict[str, int] = {}
        block = self.document().begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0:
                out.setdefault(slug(block.text()), block.position())
            block = block.next()
        return out

    def go_to(self, section: str) -> bool:
        """Scroll the heading ``section`` (a slug) to the top; False when there is none."""
        position = self.headings().get(section) if section else None
        self._pinned = section or None
        if position is None:
            self.verticalScrollBar().setValue(0)
            return False
        cursor = QTextCursor(self.document())
        cursor.setPosition(position)
        self.setTextCursor(cursor)
        self._scroll_to(position)
        return True

    def _scroll_to(self, position: int) -> None:
        document = self.document()
        block = document.findBlock(position)
        top = document.documentLayout().blockBoundingRect(block).top()
        self.verticalScrollBar().setValue(round(top))

    def _unpin(self, _action: int) -> None:
        self._pinned = None

    def wheelEvent(self, event) -> None:
        self._pinned = None
        super().wheelEvent(event)

    def fit_images(self) -> None:
        """Scale every image down to the width of the view (the screenshots are wide)."""
        document = self.document()
        available = max(200, self.viewport().width() - 40)
        block = document.begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                it += 1
                fmt = fragment.charFormat()
                if not fmt.isImageFormat():
                    continue
                image = fmt.toImageFormat()
                original = self._original(image.name())
                if original is None:
                    continue
                width = min(original.width(), available)
                # a smoothly scaled copy: the document would scale the picture pixel by pixel
                scaled = original.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
                # the document keys its resources by the name resolved against its base URL
                document.addResource(
                    QTextDocument.ResourceType.ImageResource,
                    document.baseUrl().resolved(QUrl(image.name())),
                    scaled,
                )
                sized = QTextImageFormat(image)
                sized.setWidth(scaled.width())
                sized.setHeight(scaled.height())
                cursor = QTextCursor(document)
                cursor.setPosition(fragment.position())
                cursor.setPosition(
                    fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor
                )
                cursor.setCharFormat(sized)
            block = block.next()

    def _original(self, name: str) -> QImage | None:
        """The picture ``name`` at its own size (loaded once per document)."""
        if self._images_of is not self.document():
            self._images, self._images_of = {}, self.document()
        if name not in self._images:
            resource = self.loadResource(QTextDocument.ResourceType.ImageResource.value, QUrl(name))
            image = QImage(resource) if isinstance(resource, (QImage, QPixmap)) else QImage()
            if image.isNull() and isinstance(resource, (bytes, bytearray, QByteArray)):
                image.loadFromData(bytes(resource))
            # the docs' pictures have a palette of colours; smooth scaling needs true colour
            self._images[name] = image.convertToFormat(QImage.Format.Format_ARGB32)
        image = self._images[name]
        return None if image.isNull() or image.width() <= 0 else image

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_images()
        if self._pinned:
            position = self.headings().get(self._pinned)
            if position is not None:
                self._scroll_to(position)

    def _follow(self, url: QUrl) -> None:
        if url.isRelative() or url.isLocalFile():
            current = Path(self.source().toLocalFile())
            target = (
                current
                if not url.path()
                else (current.parent / url.path()).resolve()
                if url.isRelative()
                else Path(url.toLocalFile())
            )
            if target.suffix.lower() == ".md" and target.is_file():
                if target != current:
                    self.open_file(target)
                self.go_to(url.fragment())
                return
        QDesktopServices.openUrl(url)


class GuideWindow(QDialog):
    """The user guide in a window of its own (one for the app, raised when asked again)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("tclose user guide"))
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.resize(900, 720)
        self.browser = GuideBrowser(self)
        self.browser.setAccessibleName(self.tr("tclose user guide"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)

    def show_section(self, section: str = "", folder: Path | None = None) -> None:
        path = guide_path(folder)
        if Path(self.browser.source().toLocalFile()) != path:
            self.browser.open_file(path, section)
        else:
            self.browser.go_to(section)
        self.show()
        self.raise_()
        self.activateWindow()


def _main_window(widget: QWidget | None) -> QWidget | None:
    return widget.window() if widget is not None else QApplication.activeWindow()


def open_guide(parent: QWidget | None = None, section: str = "") -> GuideWindow:
    """Open (or raise) the guide window of ``parent``'s main window at ``section``."""
    owner = _main_window(parent)
    window = owner.findChild(GuideWindow) if owner is not None else None
    if window is None:
        window = GuideWindow(owner)
    window.show_section(section)
    return window


class HelpButton(QToolButton):
    """The "?" of a page: opens the user guide at the page's section."""

    def __init__(self, section: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.section = section
        self.setText("?")
        self.setToolTip(self.tr("Open the user guide at this step (F1)"))
        self.setAccessibleName(self.tr("Help for this step"))
        self.setAutoRaise(False)
        self.clicked.connect(lambda: open_guide(self, self.section))
