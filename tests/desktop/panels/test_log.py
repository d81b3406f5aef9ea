"""The Combat log panel: exporting it as Markdown, from the encounter's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.actions.commands import AppendLog
from core.model.encounter import LogEntry
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


def test_an_opened_log_shows_every_entry_and_its_last_in_sight(window: MainWindow) -> None:
    """A long log is added to the panel at once (an item scrolled to after each of 10,000
    entries took 5 s to open the file), its newest entry in sight; an undo takes it off."""
    encounter = window.document.encounter.model_copy(deep=True)
    encounter.log.extend(LogEntry(kind="note", summary=f"Note {n}", text=f"Note {n}\n\nline")
                         for n in range(300))
    window.document.replace(encounter, None)
    window.log_panel.show()
    tree = window.log_panel.tree
    assert tree.topLevelItemCount() == len(encounter.log)
    last = tree.topLevelItem(tree.topLevelItemCount() - 1)
    assert last.text(0).endswith("Note 299") and last.child(0).text(0) == "line"
    assert tree.viewport().rect().intersects(tree.visualItemRect(last))
    window.document.push(AppendLog(LogEntry(kind="note", summary="One more")))
    assert tree.topLevelItem(tree.topLevelItemCount() - 1).text(0).endswith("One more")
    window.document.undo()
    assert tree.topLevelItemCount() == len(encounter.log)
