"""Walk every wizard page in one language and collect what a reader sees, to count the
English words left on screen (``tests/test_i18n_walk.py``; also a script:
``QT_QPA_PLATFORM=offscreen python -m tests.language_walk es`` prints the count and the
English words with the text they were found in).

The walk is the screenshot walk's (``gui/screenshots.py``): the bundled sample opened and
tagged, the noise route's plan with its details, then t = 2, k = 5 and the details, the
preview with every tab, and the export.  At each step every visible label, button, tab,
group box, check box, combo box entry, text browser (plain text), table header and every
plot's title, axis labels and legend is collected.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

#: common English words that are not also Spanish or French words ("a", "no", "on", "or",
#: "plus", "classes", "table", "information", "distribution"… are left out on purpose)
ENGLISH = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "in",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "with",
        "for",
        "from",
        "by",
        "at",
        "as",
        "an",
        "not",
        "but",
        "which",
        "what",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "we",
        "you",
        "your",
        "our",
        "his",
        "her",
        "she",
        "him",
        "has",
        "have",
        "had",
        "having",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "shall",
        "each",
        "every",
        "all",
        "any",
        "some",
        "most",
        "more",
        "less",
        "many",
        "much",
        "few",
        "one",
        "two",
        "three",
        "only",
        "also",
        "very",
        "just",
        "about",
        "above",
        "below",
        "between",
        "into",
        "onto",
        "over",
        "under",
        "after",
        "before",
        "because",
        "while",
        "if",
        "so",
        "such",
        "other",
        "same",
        "own",
        "both",
        "either",
        "neither",
        "nor",
        "too",
        "out",
        "up",
        "down",
        "off",
        "again",
        "further",
        "once",
        "here",
        "yes",
        "records",
        "record",
        "people",
        "person",
        "group",
        "groups",
        "value",
        "values",
        "mean",
        "median",
        "range",
        "ranges",
        "bucket",
        "buckets",
        "column",
        "columns",
        "row",
        "rows",
        "file",
        "files",
        "data",
        "release",
        "released",
        "releases",
        "verified",
        "verify",
        "privacy",
        "private",
        "noise",
        "guarantee",
        "guarantees",
        "risk",
        "share",
        "shares",
        "size",
        "sizes",
        "sum",
        "count",
        "counts",
        "number",
        "numbers",
        "level",
        "levels",
        "limit",
        "limits",
        "average",
        "errors",
        "loss",
        "losses",
        "keep",
        "keeps",
        "kept",
        "true",
        "false",
        "missing",
        "empty",
        "known",
        "unknown",
        "least",
        "whole",
        "within",
        "times",
        "answer",
        "answers",
        "changed",
        "random",
        "probability",
        "single",
        "nobody",
        "anyone",
        "everybody",
        "someone",
        "looks",
        "like",
        "tells",
        "little",
        "already",
        "learning",
        "which",
        "equivalence",
        "identifier",
        "identifiers",
        "confidential",
        "household",
        "households",
        "weight",
        "weights",
        "boundaries",
        "dashed",
        "before",
        "after",
        "per",
        "class's",
        "bucket's",
        "overall",
        "expected",
        "achieved",
        "asked",
        "protected",
        "report",
        "sheet",
        "settings",
        "seed",
        "fixed",
        "fresh",
        "noise",
        "cannot",
        "reproduced",
        "design",
        "audit",
        "warning",
        "warnings",
        "fix",
        "fixes",
        "search",
        "searched",
        "chosen",
        "choose",
        "would",
        "smallest",
        "largest",
        "lowest",
        "highest",
        "closest",
        "far",
        "farther",
        "nearest",
        "analysis",
        "analyses",
        "analyst",
        "means",
        "absolute",
        "correlation",
        "correlations",
        "regression",
        "mix",
        "spread",
        "middle",
        "half",
        "drawn",
        "holds",
        "hold",
        "category",
        "categories",
        "answer",
    ]
)

#: widget texts that are data, not the app's words (the sample's column names and values)
DATA_WORDS = frozenset(
    [
        "respondent",
        "id",
        "age",
        "sex",
        "region",
        "occupation",
        "income",
        "diagnosis",
        "sample",
        "survey",
        "xlsx",
        "csv",
    ]
)

WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


#: citations stay as published (journal and paper titles): not counted
CITATIONS = (
    "IEEE Transactions on Information Forensics and Security",
    "Knowledge-Based Systems",
    "From t-closeness to differential privacy and vice versa in data anonymization",
    "When differential privacy implies syntactic privacy",
)


def english_words(texts: list[str]) -> Counter[str]:
    """The English words in ``texts`` (file names and paths left out: they are the user's;
    citations too: they stay as published)."""
    found: Counter[str] = Counter()
    for text in texts:
        text = " ".join(text.split())
        for citation in CITATIONS:
            text = text.replace(citation, " ")
        text = re.sub(r"\S*[/\\]\S*|\S+\.(xlsx|csv|json|html|parquet|png)\b", " ", text)
        for word in WORD.findall(text):
            w = word.lower().strip("'")
            if w.endswith("'s"):
                w = w[:-2]
            if w in ENGLISH and w not in DATA_WORDS:
                found[w] += 1
    return found


def figure_texts(figure) -> list[str]:
    """A matplotlib figure's title, axis labels and legend entries."""
    out = [t.get_text() for t in figure.texts]
    if getattr(figure, "_suptitle", None) is not None:
        out.append(figure._suptitle.get_text())
    for ax in figure.axes:
        out += [ax.get_title(loc) for loc in ("left", "center", "right")]
        out += [ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        if legend is not None:
            out += [t.get_text() for t in legend.get_texts()]
            if legend.get_title() is not None:
                out.append(legend.get_title().get_text())
    return [t for t in out if t]


def visible_texts(root) -> list[str]:
    """Every text a reader sees in ``root``'s visible widgets."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QGroupBox,
        QHeaderView,
        QLabel,
        QLineEdit,
        QTabBar,
        QTextBrowser,
        QWidget,
    )

    from gui.widgets import FigureView

    out: list[str] = []
    if hasattr(root, "windowTitle"):
        out.append(root.windowTitle())
    for widget in root.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel | QAbstractButton):
            out.append(widget.text())
        elif isinstance(widget, QTabBar):
            out += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QGroupBox):
            out.append(widget.title())
        elif isinstance(widget, QComboBox):
            out += [widget.itemText(i) for i in range(widget.count())]
        elif isinstance(widget, QTextBrowser):
            out.append(widget.toPlainText())
        elif isinstance(widget, QLineEdit):
            out.append(widget.placeholderText())
        elif isinstance(widget, QHeaderView) and widget.model() is not None:
            for i in range(widget.count()):
                value = widget.model().headerData(
                    i, widget.orientation(), Qt.ItemDataRole.DisplayRole
                )
                if value is not None:
                    out.append(str(value))
        elif isinstance(widget, FigureView) and widget.figure is not None:
            out += figure_texts(widget.figure)
    # rich text in labels: keep the words, not the tags
    return [re.sub(r"<[^>]+>|&[a-z]+;", " ", t) for t in out if t]


def walk(app, lang: str, folder: Path) -> dict[str, list[str]]:
    """Walk the wizard in ``lang`` (the app's and the engine's) and return each step's texts."""
    from PySide6.QtCore import QCoreApplication

    from gui import i18n
    from gui.screenshots import SAMPLE_ROLES, show_default, show_noise, wait_idle, wait_until
    from gui.wizard import MainWindow

    i18n.install(app, lang)
    steps: dict[str, list[str]] = {}
    window = MainWindow()
    try:
        window.resize(1100, 760)
        window.show()
        wizard = window.wizard

        def collect(name: str) -> None:
            QCoreApplication.processEvents()
            steps[name] = visible_texts(window)

        wait_idle(window)
        collect("0-start")
        wizard.import_page.open_sample()
        wait_idle(window)
        collect("1-import")
        wizard.next()
        for column, role in SAMPLE_ROLES.items():
            if column in window.session.columns:
                window.session.set_role(column, role)
        wizard.tag_page.initializePage()
        collect("2-tag")
        wizard.next()
        privacy = wizard.privacy_page
        show_noise(privacy)
        wait_until(lambda: not privacy.checking)
        collect("3b-privacy-noise")
        show_default(privacy)
        wait_until(lambda: not privacy.checking)
        collect("3-privacy")
        privacy.details_toggle.setChecked(True)
        collect("3c-privacy-details")
        privacy.details_toggle.setChecked(False)
        wizard.next()
        wait_idle(window)
        page = wizard.preview_page
        collect("4-preview")
        for i in range(page.tabs.count()):
            page.tabs.setCurrentIndex(i)
            collect(f"4-preview-tab-{i}")
        page.tabs.setCurrentIndex(0)
        preview = page.preview
        if preview is not None:
            steps["4-preview-figures"] = [
                t for figure in preview.figures.values() for t in figure_texts(figure)
            ] + [t for figure in preview.before_after.values() for t in figure_texts(figure)]
        wizard.next()
        export = wizard.export_page
        export.path.setText(str(folder / "sample-release.xlsx"))
        export.report.setChecked(False)  # its language is tested apart (test_i18n.py), and
        # its plots would double the walk's time
        export.export()
        wait_idle(window)
        collect("5-export")
        steps["exported"] = ["1" if window.session.exported else "0"]
    finally:
        window.close()
        window.deleteLater()
        i18n.install(app, "en")
    return steps


def main(argv: list[str]) -> int:
    import tempfile

    from PySide6.QtWidgets import QApplication

    from gui.screenshots import isolate_settings

    lang = argv[0] if argv else "es"
    app = QApplication.instance() or QApplication([])
    isolate_settings()
    with tempfile.TemporaryDirectory() as folder:
        steps = walk(app, lang, Path(folder))
    total: Counter[str] = Counter()
    for name, texts in steps.items():
        found = english_words(texts)
        total += found
        if found and "-v" in argv:
            print(f"== {name}: {sum(found.values())}")
            for text in texts:
                flat = text.replace("\n", " ")
                for word in english_words([text]):
                    for hit in re.finditer(rf"(?i)\b{word}\b", flat):
                        print("   ", flat[max(0, hit.start() - 70) : hit.end() + 50])
    print(f"{lang}: {sum(total.values())} English words on screen")
    print(" ".join(f"{w}×{n}" for w, n in total.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
