"""The export page publishes only the published metadata, says where the seed went, and can
leave the input file's name out; the preview labels original-data figures for the review."""

from __future__ import annotations

import json

import pytest

from tests.test_gui_wizard import (
    SAMPLE_ROLES,
    choose,
    export,
    next_enabled,
    open_file,
    preview,
    tag,
)

pytestmark = pytest.mark.gui

SEED = 97531


def test_a_seeded_anonymous_export_publishes_neither_seed_nor_input_name(
    qtbot, window, sample_workbook, tmp_path
) -> None:
    open_file(qtbot, window, sample_workbook)
    tag(window, SAMPLE_ROLES)
    choose(qtbot, window, t=2.0, k=5)
    page = window.wizard.privacy_page
    page.seed.setText(str(SEED))
    page.refresh()
    qtbot.waitUntil(lambda: not page.checking, timeout=30_000)
    assert next_enabled(window) and window.session.params.seed == SEED
    preview(qtbot, window)
    summary = window.wizard.preview_page.summary.toPlainText()
    assert "for the review, not for publication" in summary
    window.wizard.export_page.anonymous.setChecked(True)
    files = export(qtbot, window, tmp_path / "release.csv")
    sidecar = (tmp_path / "release.json").read_text(encoding="utf-8")
    assert str(SEED) not in sidecar and "sample-survey" not in sidecar
    meta = json.loads(sidecar)
    assert meta["record"].startswith("published") and "information_loss" not in meta
    report = next(f for f in files if f.suffix == ".html").read_text(encoding="utf-8")
    assert str(SEED) in report and "sample-survey" in report  # the review record keeps both
    result = window.wizard.export_page.result.text()
    assert f"The seed {SEED} is not in the published files" in result
    assert "release-report.html" in result
