"""The Combat log panel: exporting it as Markdown, from the encounter's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.mainwindow import MainWindow
from desktop.qt import QFileDialog


def test_the_export_dialog_starts_in_the_encounter_s_folder(
        window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36.7: it started in the folder Battlemap was started from."""
    folder = tmp_path / "campaign"
    folder.mkdir()
    assert window.files.save_to(folder / "goblin-ambush.json")
    offered: list[str] = []
    written = folder / "the-log.md"

    def ask(_parent: object, _title: str, start: str, _filter: str) -> tuple[str, str]:
        offered.append(start)
        return str(written), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(ask))
    window.log_panel.export_dialog()
    assert offered == [str(folder / "goblin-ambush-log.md")]
    assert written.read_text("utf-8").startswith("#")
