"""Tools › Settings: the language and the colour scheme (kept in QSettings).

Both take effect the next time tclose starts: every window is built in one language, and a
restart is how the platform's own dialogs follow too.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QVBoxLayout,
    QWidget,
)

from gui import settings
from gui.i18n import LANGUAGES
from gui.widgets import Hint


class SettingsDialog(QDialog):
    """Language (automatic, English, Español, Français) and colour scheme (automatic, light,
    dark); OK saves them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.language = QComboBox()
        self.language.addItem(self.tr("Automatic (the system's language)"), "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language())))
        self.language.setToolTip(
            self.tr("The language of the app; messages from the engine stay in English")
        )
        self.scheme = QComboBox()
        self.scheme.addItem(self.tr("Automatic (as the system)"), "")
        self.scheme.addItem(self.tr("Light"), "light")
        self.scheme.addItem(self.tr("Dark"), "dark")
        self.scheme.setCurrentIndex(max(0, self.scheme.findData(settings.color_scheme())))
        form = QFormLayout()
        form.addRow(self.tr("&Language:"), self.language)
        form.addRow(self.tr("&Colours:"), self.scheme)
        note = Hint(self.tr("Changes take effect the next time tclose starts."))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def accept(self) -> None:
        settings.set_language(str(self.language.currentData()))
        settings.set_color_scheme(str(self.scheme.currentData()))
        super().accept()
