"""Between fights in the window (desktop/panels/evening.py and its dialogs): the bestiary
surviving a restart, a bad bestiary refused untouched, the library adding numbered
creatures, the next encounter with the party carried across, the Universal VTT export, and
the replay scrubber (the live encounter untouched)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.io.bestiary import load_bestiary
from core.io.fileio import encounter_to_json, load_encounter, save_encounter
from core.io.uvtt import import_uvtt_file
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap
from desktop.dialogs.evening import NewEncounterDialog, NextEncounterDialog
from desktop.dialogs.replay import ReplayDialog
from desktop.mainwindow import MainWindow
from desktop.qt import QDialog, QSettings

DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


def _window(qtbot: QtBot, data: Path, settings: Path) -> MainWindow:
    window = MainWindow(load_encounter(DEMO), None, data,
                        QSettings(str(settings), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    return window


def _close(window: MainWindow) -> None:
    window.document.history.mark_clean()
    window.close()


def test_the_bestiary_survives_a_restart(qtbot: QtBot, tmp_path: Path,
                                          answer_yes: list[str]) -> None:
    first = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    assert first.evening.save_to_bestiary("giant") == ""
    _close(first)
    second = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    library = second.evening.open_library()
    assert [t.name for t in second.evening.store.mine.templates] == ["Hill Giant"]
    library.search.setText("giant")
    library.select("Hill Giant")
    assert [t.name for t in library.selected("mine")] == ["Hill Giant"]
    assert len(library.selected()) == 2  # yours and the bundled one
    assert load_bestiary(tmp_path / "data" / "bestiary.json").names() == ["Hill Giant"]
    library.close()
    _close(second)


def test_a_bad_bestiary_is_refused_and_left_as_it_was(qtbot: QtBot, tmp_path: Path,
                                                      answer_dialogs: list[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "bestiary.json").write_text('{"schema": "battlemap.bestiary", "version": 7}')
    window = _window(qtbot, data, tmp_path / "s.ini")
    assert window.evening.save_to_bestiary("giant") != ""  # the first the store reads
    library = window.evening.open_library()
    assert "format version 7" in library.message.text()
    assert (data / "bestiary.json").read_text().endswith('"version": 7}')
    bad = tmp_path / "import.json"
    bad.write_text('{"schema": "battlemap.bestiary", "version": 1, "templates": [{}]}')
    library.import_file(bad)
    assert "Not imported" in library.message.text() and "combatant" in library.message.text()
    library.close()
    _close(window)


def test_the_library_adds_numbered_creatures_and_manages_yours(
        qtbot: QtBot, tmp_path: Path, answer_yes: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    library = window.evening.open_library(Cell(3, 3))
    library.grouping.setCurrentText("Level")
    library.search.setText("kobo")
    library.select("Kobold")
    library.count.setValue(3)
    library.add_selected()
    kobolds = sorted(t.name for t in window.document.encounter.tokens
                     if t.name.startswith("Kobold"))
    assert kobolds == ["Kobold 1", "Kobold 2", "Kobold 3", "Kobold 4"]  # the demo had one
    assert library.message.text() == "Added 3 × Kobold"
    window.document.undo()
    assert [t.name for t in window.document.encounter.tokens].count("Kobold") == 1
    window.evening.save_to_bestiary("giant")
    library.search.clear()
    library.select("Hill Giant")
    from desktop.qt import QInputDialog
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Stone Giant",
                                                                               True)))
    library.rename_selected()
    assert window.evening.store.mine.names() == ["Stone Giant"]
    export = tmp_path / "shared.json"
    monkeypatch.setattr("desktop.panels.bestiary.QFileDialog.getSaveFileName",
                        staticmethod(lambda *a, **k: (str(export), "")))
    library.export_selected()
    library.select("Stone Giant")
    library.delete_selected()
    assert window.evening.store.mine.names() == []
    library.import_file(export)
    assert window.evening.store.mine.names() == ["Stone Giant"]
    library.close()
    _close(window)


def test_next_encounter_saves_the_old_one_and_brings_the_party(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    window.files.save_to(tmp_path / "fight1.json")
    mira = window.document.encounter.token("Mira")
    hurt = mira.combatant.model_copy(update={
        "hp": 3, "conditions": frozenset({Condition.STUNNED, Condition.AIMING})})
    from core.actions.commands import UpdateCombatant
    window.document.push(UpdateCombatant(mira.id, hurt))
    new = Encounter(name="Bridge", map=BattleMap(width=12, height=8), tokens=[
        Token(id="troll", combatant=Combatant(name="Troll", side="opposition"), x=9, y=1)])
    save_encounter(new, tmp_path / "bridge.json")

    def answer(dialog: NextEncounterDialog) -> int:
        for row in range(dialog.party.count()):  # only Mira comes along
            item = dialog.party.item(row)
            if not item.text().startswith("Mira"):
                item.setCheckState(item.checkState().Unchecked)
        dialog.drop_x.setValue(2)
        dialog.drop_y.setValue(4)
        return QDialog.DialogCode.Accepted.value

    monkeypatch.setattr(NextEncounterDialog, "exec", answer)
    assert window.evening.next_encounter(tmp_path / "bridge.json")
    saved = load_encounter(tmp_path / "fight1.json")
    assert saved.token("Mira").combatant.hp == 3  # the old encounter was saved first
    encounter = window.document.encounter
    assert encounter.name == "Bridge" and window.document.path is None
    assert [t.name for t in encounter.tokens] == ["Troll", "Mira"]
    arrived = encounter.token("Mira")
    assert arrived.cell == Cell(2, 4) and arrived.combatant.hp == 3
    assert arrived.combatant.conditions == {Condition.STUNNED}
    assert "mira" in window.scene.tokens or arrived.id in window.scene.tokens
    window.files.save_to(tmp_path / "bridge-played.json")
    assert load_encounter(tmp_path / "bridge-played.json").token("Mira").combatant.hp == 3
    _close(window)


def test_a_new_encounter_from_the_library_shows_the_balance(qtbot: QtBot, tmp_path: Path
                                                            ) -> None:
    window = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    store = window.evening.store
    dialog = NewEncounterDialog(Encounter(map=BattleMap(width=20, height=10)),
                                [*store.mine.templates, *store.bundled.templates], window)
    dialog.add("Fighter")
    dialog.add("Kobold", 4)
    assert "Party 1 standing, 3 levels, 24 HP" in dialog.balance.text()
    assert "Opposition 4 standing" in dialog.balance.text()
    dialog.accept()
    assert dialog.result_encounter is not None
    names = [t.name for t in dialog.result_encounter.tokens]
    assert names[0] == "Fighter" and sorted(names[1:]) == [f"Kobold {i}" for i in range(1, 5)]
    _close(window)


def test_export_uvtt_from_the_window_round_trips(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    assert window.evening.export_uvtt(tmp_path / "demo.dd2vtt")
    again = import_uvtt_file(tmp_path / "demo.dd2vtt").encounter
    assert len(again.map.walls) == len(window.document.encounter.map.walls)
    assert again.map.background is not None
    _close(window)


def test_the_replay_shows_each_step_read_only(qtbot: QtBot, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window(qtbot, tmp_path / "data", tmp_path / "s.ini")
    window.show()
    ogre = window.document.encounter.token("Ogre")
    window.document.push(MoveToken(ogre.id, Cell(ogre.x + 1, ogre.y)))
    window.timeline_panel.roll()
    live = encounter_to_json(window.document.encounter)
    window.evening.replay()
    dialog = window.evening.replay_dialog
    assert isinstance(dialog, ReplayDialog)
    assert dialog.slider.maximum() == 2 and dialog.slider.value() == 2
    assert dialog.highlighted() and "nitiative" in dialog.highlighted()[0]
    dialog.slider.setValue(0)
    assert dialog.scene.tokens[ogre.id].pos() != window.scene.tokens[ogre.id].pos()
    assert dialog.document.encounter.token(ogre.id).cell == ogre.cell
    assert dialog.highlighted() == []
    assert dialog.log.count() == 0
    assert encounter_to_json(window.document.encounter) == live
    assert window.document.history.index == 2
    written = dialog.export_to(tmp_path)
    assert [p.name for p in written] == ["replay-000.png", "replay-001.png",
                                         "replay-002.png", "replay.gif"]
    from PIL import Image
    with Image.open(tmp_path / "replay.gif") as gif:
        assert gif.n_frames == 3
    assert dialog.slider.value() == 0  # the shown step is back after the export
    dialog.close()
    _close(window)
