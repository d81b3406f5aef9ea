"""The GM's fog controls: reveal and hide by brush and rectangle (one undo step a stroke),
fog on or off, clearing the hand edits, darkness, the tinted preview; hiding tokens and
hazards from the players; darkvision in the combatant form."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytestqt.qtbot import QtBot

from core.model.mapmodel import Darkness
from desktop.dialogs.edits import HazardDialog
from desktop.mainwindow import MainWindow
from desktop.map.fog_layer import GM_FOG
from desktop.panels.context_menus import TokenMenu
from desktop.qt import QCheckBox, QComboBox, QPushButton, Qt
from desktop.tools.fog import FogTool


@pytest.fixture
def fog(window: MainWindow) -> FogTool:
    window.select_tool("fog")
    tool = window.tools["fog"]
    assert isinstance(tool, FogTool)
    return tool


def cells(layer: tuple[tuple[int, int, int], ...]) -> set[tuple[int, int]]:
    return {(x + i, y) for x, y, length in layer for i in range(length)}


def option(tool: FogTool, kind: type, name: str = "") -> object:
    widgets = [action.defaultWidget() for action in tool.option_actions()]
    return next(w for w in widgets if isinstance(w, kind)
                and (not name or name in (w.accessibleName(), getattr(w, "text", str)())))


def test_a_brush_stroke_reveals_cells_as_one_step(window: MainWindow, fog: FogTool,
                                                  drag: Callable[..., None]) -> None:
    drag((1, 1), [(2, 1), (3, 1)])
    assert cells(window.document.encounter.fog.revealed) == {(1, 1), (2, 1), (3, 1)}
    assert window.document.history.labels() == ["Reveal area"]
    window.document.undo()
    assert window.document.encounter.fog.revealed == ()


def test_alt_hides_and_a_shift_drag_fills_a_rectangle(window: MainWindow, fog: FogTool,
                                                      drag: Callable[..., None]) -> None:
    drag((1, 1), [(2, 2)], Qt.KeyboardModifier.ShiftModifier)
    assert cells(window.document.encounter.fog.revealed) == {(1, 1), (2, 1), (1, 2), (2, 2)}
    drag((2, 2), [(2, 3)], Qt.KeyboardModifier.AltModifier)
    fog_state = window.document.encounter.fog
    assert cells(fog_state.hidden) == {(2, 2), (2, 3)} and (2, 2) not in cells(
        fog_state.revealed)
    assert window.document.history.labels() == ["Reveal area", "Hide area"]


def test_the_bar_turns_fog_off_clears_hand_edits_and_sets_darkness(
        window: MainWindow, fog: FogTool, drag: Callable[..., None]) -> None:
    document = window.document
    drag((1, 1), [(1, 2)])
    fog_on = option(fog, QCheckBox, "Fog on")
    assert isinstance(fog_on, QCheckBox)
    fog_on.setChecked(False)
    assert not document.encounter.fog.enabled
    assert not window.table.actions["Fog of war on"].isChecked()
    clear = option(fog, QPushButton, "Clear hand edits")
    assert isinstance(clear, QPushButton)
    clear.click()
    assert document.encounter.fog.revealed == ()
    darkness = option(fog, QComboBox, "Darkness")
    assert isinstance(darkness, QComboBox)
    darkness.setCurrentText("dark")
    assert document.encounter.map.darkness is Darkness.DARK
    assert "Shift+O tints what they cannot see" in window.statusBar().currentMessage()
    assert document.history.labels()[-3:] == ["Fog of war off",
                                              "Clear revealed and hidden areas",
                                              "Darkness: dark"]
    document.undo()
    document.undo()
    document.undo()
    assert fog_on.isChecked() and darkness.currentText() == "daylight"  # the bar follows


def test_the_preview_tints_what_the_players_cannot_see(qtbot: QtBot, window: MainWindow,
                                                       fog: FogTool) -> None:
    preview = fog.preview
    assert preview.isVisible()
    assert preview.cell_colour(0, 0) == GM_FOG.unseen  # outside the walls
    assert preview.cell_colour(10, 5).alpha() == 0  # Brannoc's cell
    window.select_tool("select")
    qtbot.waitUntil(lambda: not preview.isVisible())  # another tool: no tint
    window.table.actions["Show players' fog"].trigger()
    assert preview.isVisible() and window.settings.value("fog/preview") in (True, "true")


def test_the_token_menu_hides_a_token_from_the_players_and_undo_shows_it(
        window: MainWindow) -> None:
    menu = TokenMenu(window.document, "ogre", [], window)
    hide = next(a for a in menu.actions() if a.text() == "Hide from players")
    hide.trigger()
    assert window.document.encounter.token("ogre").gm_only
    menu = TokenMenu(window.document, "ogre", [], window)
    assert any(a.text() == "Show to players" for a in menu.actions())
    window.document.undo()
    assert not window.document.encounter.token("ogre").gm_only


def test_the_hazard_dialog_hides_a_hazard_from_the_players(window: MainWindow) -> None:
    pit = next(h for h in window.document.encounter.map.hazards if h.kind.value == "pit")
    dialog = HazardDialog(pit.cells, pit, window)
    assert not dialog.gm_only.isChecked()
    dialog.gm_only.setChecked(True)
    assert dialog.build().gm_only
    assert HazardDialog(pit.cells, dialog.build(), window).gm_only.isChecked()


def test_darkvision_is_edited_in_the_combatant_form(qtbot: QtBot, window: MainWindow) -> None:
    window.selection.set({"mira"})
    form = window.token_panel.form
    edit = form.edits["darkvision_ft"]
    edit.selectAll()
    qtbot.keyClicks(edit, "60")
    assert window.document.encounter.token("mira").combatant.darkvision_ft == 60
    assert window.document.history.labels() == ["Edit Mira: Darkv. ft"]  # as the form says
    edit.selectAll()
    qtbot.keyClicks(edit, "-5")
    assert form.is_marked("darkvision_ft")
    assert window.document.encounter.token("mira").combatant.darkvision_ft == 60

