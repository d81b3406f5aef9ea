"""The window follows the document: pending actions and tool state never outlive the
encounter or the tokens they name; refused edits never reach the history; one history."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from pytestqt.qtbot import QtBot

from core.actions.commands import AddToken, MoveToken
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant
from core.model.encounter import Token
from core.model.grid import Cell
from desktop.mainwindow import MainWindow
from desktop.qt import Qt
from desktop.tools.shove import ShoveTool

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


def test_a_pending_shove_is_dropped_when_another_encounter_is_opened(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace, tmp_path: Path) -> None:
    """Issue defect: Resolve after File > Open applied the old map's shove."""
    window.settings.setValue("animation_ms", 0)
    other = load_encounter(DEMO)
    other.put_token(other.token("mira").at(Cell(6, 12)))
    path = tmp_path / "moved.json"
    save_encounter(other, path)
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))      # the ogre
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))      # Mira
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(3, 9))      # confirm west
    panel = window.resolve_panel
    assert panel.pending is not None
    assert window.files.open_path(path)
    assert panel.pending is None and "dropped" in panel.message.text()
    qtbot.mouseClick(panel.resolve_button, LEFT)
    mira = window.document.encounter.token("mira")
    assert (mira.cell, mira.combatant.hp) == (Cell(6, 12), 22)
    assert not window.document.encounter.log
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool) and (tool.attacker, tool.target) == (None, None)


def test_undoing_the_shove_attackers_arrival_resets_the_tool(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    """Issue defect: the tool kept the undone attacker's id and raised UnknownTokenError."""
    window.document.push(AddToken(Token(id="troll", combatant=Combatant(name="Troll"),
                                        x=7, y=10)))
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool)
    window.select_tool("shove")
    tool.start("troll", "mira")
    assert tool.target == "mira"
    window.document.undo()
    assert (tool.attacker, tool.target) == (None, None) and not tool.preview.isVisible()
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(6, 9))  # no exception
    assert tool.attacker == "mira"


def test_a_moved_target_is_checked_again(window: MainWindow) -> None:
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool)
    window.select_tool("shove")
    tool.start("ogre", "mira")
    assert tool.target == "mira"
    window.document.push(MoveToken("mira", Cell(6, 13)))   # out of the ogre's reach
    assert tool.target is None and tool.attacker == "ogre"
    assert "not adjacent" in window.statusBar().currentMessage()


def test_a_refused_resize_never_reaches_the_history(window: MainWindow,
                                                    answer_dialogs: list[str]) -> None:
    """Issue defect: Resize to 5×5 on the demo added a step, marked the file modified and
    showed nothing; Undo then raised."""
    from core.actions.commands import ResizeMap

    assert not window.document.push(ResizeMap(5, 5))
    assert window.document.history.index == 0 and not window.document.modified
    assert answer_dialogs and "inside 5×5 first" in answer_dialogs[-1]
    assert window.actions_by_name["Undo"].isEnabled() is False
    window.document.undo()  # nothing to undo: no error
    assert window.document.encounter.map.width == 24


def test_the_history_dock_lists_steps_and_jumps(window: MainWindow) -> None:
    window.document.push(MoveToken("mira", Cell(6, 11)))
    window.document.push(MoveToken("pip", Cell(4, 6)))
    view = window.history_dock.widget()
    assert [view.item(r).text() for r in range(view.count())] == [
        "‹Opened›", "Move token", "Move token"]
    view.setCurrentRow(0)
    assert window.document.encounter.token("mira").cell == Cell(6, 9)
    assert window.actions_by_name["Redo"].text() == "&Redo Move token"
    view.setCurrentRow(2)
    assert window.document.encounter.token("pip").cell == Cell(4, 6)


def test_selection_is_one_model_for_map_and_list(window: MainWindow) -> None:
    window.selection.set({"pip"})
    assert [i.token_id for i in window.scene.selectedItems()] == ["pip"]  # type: ignore[attr-defined]
    assert window.token_panel.list.selected_ids() == ["pip"]
    window.token_panel.list.rows["mira"].setSelected(True)
    assert window.selection.ids == {"pip", "mira"}
    assert {i.token_id for i in window.scene.selectedItems()} == {"pip", "mira"}  # type: ignore[attr-defined]


def test_undo_and_redo_say_which_step_they_took(window: MainWindow) -> None:
    """A GM's walk-through: after Ctrl+Z the status bar still gave the reason a drop was
    refused before it; undo and redo now say what they did."""
    window.document.push(MoveToken("mira", Cell(6, 11)))
    window.statusBar().showMessage("Brannoc cannot move to (9, 5): Orc Warrior is in the way")
    window.actions_by_name["Undo"].trigger()
    assert window.document.encounter.token("mira").cell == Cell(6, 9)
    assert window.statusBar().currentMessage() == "Undone: Move token"
    window.actions_by_name["Redo"].trigger()
    assert window.document.encounter.token("mira").cell == Cell(6, 11)
    assert window.statusBar().currentMessage() == "Redone: Move token"
    window.actions_by_name["Redo"].trigger()  # nothing to redo: said nothing new
    assert window.statusBar().currentMessage() == "Redone: Move token"
