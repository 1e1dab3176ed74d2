"""The privacy page's choice of mechanism comes from the registry (``engine.MECHANISMS``).

A third mechanism, registered by the test, gets its own radio button with its own texts and a
keyboard shortcut of its own; choosing it writes its name to ``ReleaseParams.mechanism``, and
the page's mechanism-only controls follow the fields it reads, not its name.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from engine import MECHANISMS, Mechanism, ReleaseParams
from engine.params import Options
from gui.pages.privacy_page import WIZARD_BUTTONS
from gui.widgets import mnemonic_of, mnemonics_under, with_mnemonic

pytestmark = pytest.mark.gui


class Rounding(Mechanism):
    """A bucket-like third mechanism: reads the number of buckets, adds no noise."""

    name: ClassVar[str] = "rounding"
    title: ClassVar[str] = "rounding (a test mechanism)"
    noise: ClassVar[bool] = False
    cluster: ClassVar[bool] = False
    fields: ClassVar[tuple[str, ...]] = ("n_buckets",)
    choice: ClassVar[str] = "Rounding: a third mechanism"  # no shortcut: the page picks one
    note: ClassVar[str] = "registered by the test"
    tooltip: ClassVar[str] = "Rounds the confidential values"


class Jitter(Rounding):
    """A noise mechanism that lists none of the noise's options (a noise mechanism reads them)."""

    name: ClassVar[str] = "jitter"
    noise: ClassVar[bool] = True
    fields: ClassVar[tuple[str, ...]] = ()
    choice: ClassVar[str] = "&Jitter: noise of another kind"


def register(monkeypatch: pytest.MonkeyPatch, *mechanisms: type[Mechanism]) -> None:
    for mechanism in mechanisms:
        monkeypatch.setitem(MECHANISMS, mechanism.name, mechanism)
    monkeypatch.setitem(ReleaseParams.CONSTRAINTS, "mechanism", Options(values=tuple(MECHANISMS)))


@pytest.fixture
def page_of(qtbot, monkeypatch):
    """The privacy page of a new window, made with ``mechanisms`` registered besides."""

    def make(*mechanisms: type[Mechanism]):
        from gui.wizard import MainWindow

        register(monkeypatch, *mechanisms)
        window = MainWindow()
        qtbot.addWidget(window)
        page = window.wizard.privacy_page
        page.initializePage()
        return window, page

    return make


def test_a_third_mechanism_is_a_third_choice(page_of) -> None:
    window, page = page_of(Rounding)
    assert list(page.mechanism_buttons) == ["buckets", "laplace", "rounding"]
    button = page.mechanism_buttons["rounding"]
    assert button.text().replace("&", "") == "Rounding: a third mechanism"
    assert button.toolTip() == "Rounds the confidential values"
    assert page.mechanism_notes["rounding"].text() == "registered by the test"
    # its shortcut is a letter of its own: no other label or button of the page uses it
    letter = mnemonic_of(button.text())
    others = [b for name, b in page.mechanism_buttons.items() if name != "rounding"]
    assert letter and letter not in {mnemonic_of(b.text()) for b in others}
    button.setText(button.text().replace("&", ""))
    wizard = window.wizard
    assert letter not in mnemonics_under(page)
    assert letter not in {mnemonic_of(wizard.buttonText(which)) for which in WIZARD_BUTTONS}

    button.setChecked(True)
    assert window.session.params.mechanism == "rounding" and page.mechanism == "rounding"
    # it reads the number of buckets and none of the noise's options
    assert page.n_buckets.isEnabled() and page.by_t.isEnabled()
    assert not page.insensitive.isEnabled() and not page.private_bounds.isEnabled()
    page.set_mechanism("laplace")
    assert window.session.params.mechanism == "laplace" and window.session.params.noise
    assert not page.n_buckets.isEnabled() and page.insensitive.isEnabled()
    page.set_mechanism("rounding")
    assert window.session.params.mechanism == "rounding"
    assert window.session.params.insensitive is False and window.session.params.epsilon


def test_a_noise_mechanism_reads_the_noise_options_it_does_not_list(page_of) -> None:
    window, page = page_of(Jitter)
    assert not page.insensitive.isEnabled()  # the buckets do not read it
    page.set_mechanism("jitter")
    page.insensitive.setChecked(True)  # enabled, and written, for a noise mechanism
    params = window.session.params
    assert params.mechanism == "jitter" and params.epsilon is not None and params.t is None
    assert params.insensitive and params.n_buckets is None
    assert page.mechanism_buttons["jitter"].text() == "&Jitter: noise of another kind"
    assert page.by_epsilon.isChecked() and not page.by_t.isEnabled()
    assert page.insensitive.isEnabled() and page.log_scale.isEnabled()
    assert not page.n_buckets.isEnabled()


def test_with_mnemonic_takes_the_first_free_letter() -> None:
    assert with_mnemonic("Noise", {"n"}) == "N&oise"
    assert with_mnemonic("Bu&ckets", {"c"}) == "Bu&ckets"  # one already: kept
    assert with_mnemonic("Fish && chips", {"f", "i", "s", "h"}) == "Fish && &chips"
    assert with_mnemonic("ab", {"a", "b"}) == "ab"
    assert mnemonic_of("Fish && chips") == "" and mnemonic_of("Tranc&hes") == "h"
