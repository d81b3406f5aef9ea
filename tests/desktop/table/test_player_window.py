"""The players' window on the demo: the same map without GM-only things, fog over what the
party has not seen, following the GM's view or panned on its own, animations played there
too, and following the document (change sets, replace, close)."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from core.actions.base import plan
from core.actions.commands import ChangeSet, MoveToken, ReplaceHazard, toggle_door
from core.actions.fog import SetGmOnly
from core.actions.missile import MissileAction
from core.io.fileio import load_encounter
from core.model.combatant import Combatant
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.rules.missile import MissileRequest
from desktop.mainwindow import MainWindow
from desktop.map.fog_layer import PLAYERS_FOG
from desktop.qt import QColor, QGuiApplication, QPoint, Qt
from desktop.table.controller import screen_key
from desktop.table.player_window import PlayerWindow
from tests.desktop.qt_fixtures import DEMO
from tests.desktop.tools.test_shove import type_dice

# In the demo a wall with a door at x = 12 splits two rooms; Sister Hale stands alone in the
# east room with the Hill Giant, the rest of the party in the west room.
EAST_ROOM_CELL = Cell(20, 12)


@pytest.fixture
def players(qtbot: QtBot, window: MainWindow) -> Iterator[PlayerWindow]:
    window.table.show_player_window(True)
    player_window = window.table.player_window
    assert player_window is not None and player_window.isVisible()
    yield player_window
    player_window.close()


def hale_leaves_the_east_room(window: MainWindow) -> None:
    window.document.push(MoveToken("hale", Cell(10, 8)))  # an Alt-drag through the wall


def fog_at(players: PlayerWindow, cell: Cell) -> QColor:
    return players.scene.fog.cell_colour(cell.x, cell.y)


def aim_shove(qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    """The Ogre (7, 8) shoves Mira (6, 9) south (the GM window's tool, whichever window
    has the keyboard)."""
    viewport, left = window.view.viewport(), Qt.MouseButton.LeftButton
    qtbot.mouseClick(viewport, left, Qt.KeyboardModifier.NoModifier, points.cell(7, 8))
    window.select_tool("shove")
    qtbot.mouseClick(viewport, left, Qt.KeyboardModifier.NoModifier, points.cell(6, 9))
    for aim in ((5, 12), (6, 12)):  # QTest sends no move to where its pointer already is
        qtbot.mouseMove(viewport, points.cell(*aim))


def test_a_token_behind_a_wall_is_on_the_gm_map_only(window: MainWindow,
                                                     players: PlayerWindow) -> None:
    assert "giant" in players.scene.tokens  # Sister Hale sees it
    hale_leaves_the_east_room(window)
    assert "giant" in window.scene.tokens and "giant" not in players.scene.tokens
    assert fog_at(players, EAST_ROOM_CELL) == PLAYERS_FOG.unseen
    assert fog_at(players, Cell(10, 8)).alpha() == 0  # seen now: no fog


def test_a_move_and_what_it_shows_reach_the_views_as_one_change(
        window: MainWindow, players: PlayerWindow) -> None:
    """The explored cells are recorded into the move before any view hears of it: the
    players' view is worked out once per move, and it already shows them."""
    heard: list[ChangeSet] = []
    window.document.changed.connect(heard.append)
    window.document.push(MoveToken("hale", Cell(17, 9)))  # looks round the east room
    assert len(heard) == 1 and heard[0].tokens == {"hale"} and heard[0].fog
    assert window.document.encounter.fog.explored  # recorded into that one change
    assert fog_at(players, EAST_ROOM_CELL).alpha() == 0
    window.document.undo()
    assert len(heard) == 2 and heard[1].tokens == {"hale"} and heard[1].fog
    assert not window.document.encounter.fog.explored


def test_what_was_seen_stays_dimmed_and_undo_forgets_it(window: MainWindow,
                                                        players: PlayerWindow) -> None:
    window.document.push(MoveToken("hale", Cell(17, 9)))  # looks round the east room
    hale_leaves_the_east_room(window)
    assert fog_at(players, EAST_ROOM_CELL) == PLAYERS_FOG.remembered
    assert "giant" not in players.scene.tokens  # remembered cells show no creatures
    labels = window.document.history.labels()
    assert labels == ["Move token", "Move token"]  # recording added no steps
    window.document.undo()
    window.document.undo()
    hale_leaves_the_east_room(window)  # the look round is forgotten with its step
    assert fog_at(players, EAST_ROOM_CELL) == PLAYERS_FOG.unseen


def test_gm_only_tokens_and_hazards_never_reach_the_players(window: MainWindow,
                                                            players: PlayerWindow) -> None:
    pit = next(h for h in window.document.encounter.map.hazards if h.kind.value == "pit")
    window.document.push(ReplaceHazard(pit, pit.model_copy(update={"gm_only": True})))
    window.document.push(SetGmOnly(["ogre"], True))
    assert [h.hazard.name for h in players.scene.hazard_items] == ["Brazier fire"]
    assert "ogre" not in players.scene.tokens
    assert window.scene.tokens["ogre"].opacity() < 1  # the GM sees it faded
    assert "(hidden)" in next(i.label.text for i in window.scene.hazard_items
                               if i.hazard.name == pit.name)
    window.document.undo()
    assert "ogre" in players.scene.tokens


def test_the_players_see_no_tooltips_no_enemy_hp_and_cannot_select(
        window: MainWindow, players: PlayerWindow) -> None:
    ogre = players.scene.tokens["ogre"]
    assert ogre.toolTip() == "" and not ogre.flags() & ogre.GraphicsItemFlag.ItemIsSelectable
    assert all(item.toolTip() == "" for item in players.scene.hazard_items)
    assert window.scene.tokens["ogre"].toolTip() and window.scene.hazard_items[0].toolTip()


def test_tool_overlays_stay_on_the_gm_map(qtbot: QtBot, window: MainWindow,
                                          players: PlayerWindow,
                                          points: SimpleNamespace) -> None:
    aim_shove(qtbot, window, points)
    gm_kinds = {type(item).__name__ for item in window.scene.items() if item.isVisible()}
    player_kinds = {type(item).__name__ for item in players.scene.items()
                    if item.isVisible()}
    assert "ShovePreview" in gm_kinds
    assert player_kinds <= {"TokenItem", "HazardItem", "ScreenLabel", "WallLayer",
                            "FogLayer", "TokenDots", "HazardTint"}


def test_a_shove_slides_the_token_on_both_maps(qtbot: QtBot, window: MainWindow,
                                               players: PlayerWindow,
                                               points: SimpleNamespace) -> None:
    window.settings.setValue("animation_ms", 2000)
    aim_shove(qtbot, window, points)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, points.cell(6, 12))
    type_dice(qtbot, window, [20])  # 10 ft south
    animation = window.animation
    assert animation is not None and animation.state() == animation.State.Running
    animation.setCurrentTime(animation.duration() // 2)
    gm_item, player_item = window.scene.tokens["mira"], players.scene.tokens["mira"]
    assert gm_item.pos() == player_item.pos()
    assert gm_item.pos() != window.scene.renderer.cell_rect(Cell(6, 11)).topLeft()
    animation.setCurrentTime(animation.duration())
    end = window.scene.renderer.cell_rect(Cell(6, 11)).topLeft()
    assert gm_item.pos() == end and player_item.pos() == end


def test_it_follows_the_gm_view_until_panned_there(qtbot: QtBot, window: MainWindow,
                                                   players: PlayerWindow) -> None:
    window.view.zoom_by(2.5)
    window.view.centre_on_cell(Cell(6, 9))
    assert players.centre().x() == pytest.approx(window.view.mapToScene(
        window.view.viewport().rect().center()).x(), abs=30)
    middle = players.view.viewport().rect().center()
    qtbot.mouseClick(players.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, middle)
    assert players.following  # a click (a hand on the table's screen) is no pan
    qtbot.mousePress(players.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, middle)
    qtbot.mouseMove(players.view.viewport(), middle + QPoint(40, 0))
    assert not players.following
    assert not window.table.actions["Players follow my view"].isChecked()
    here = players.centre()
    window.view.centre_on_cell(Cell(18, 4))
    assert players.centre() == here
    window.table.actions["Players follow my view"].trigger()
    assert players.following
    assert players.centre().x() > here.x()


def test_it_refits_when_the_gm_window_is_resized(qtbot: QtBot, window: MainWindow,
                                               players: PlayerWindow) -> None:
    """A GM's walk-through: narrowing the GM window (the whole map still in view, so no
    scroll bar moved) left the players' map at the old area."""
    window.view.fit_map()
    window.view.zoom_by(0.4)  # the map well inside the view: no scroll bars
    gm_area = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    before = players.view.mapToScene(players.view.viewport().rect()).boundingRect()
    window.resize(window.width() * 3 // 4, window.height())
    qtbot.waitUntil(lambda: window.view.mapToScene(
        window.view.viewport().rect()).boundingRect() != gm_area)
    after = players.view.mapToScene(players.view.viewport().rect()).boundingRect()
    assert after != before

    def gm_centre() -> float:
        return window.view.mapToScene(window.view.viewport().rect().center()).x()

    # The narrow window also puts the tool options on a row of their own: a second
    # layout pass, which the players' map follows too.
    qtbot.waitUntil(lambda: abs(players.centre().x() - gm_centre()) <= 30)


def test_esc_leaves_full_screen_and_closing_the_gm_window_closes_it(
        qtbot: QtBot, window: MainWindow, players: PlayerWindow) -> None:
    players.showFullScreen()
    qtbot.waitUntil(players.isFullScreen)
    qtbot.keyClick(players.view, Qt.Key.Key_Escape)  # the map has the keyboard
    qtbot.waitUntil(lambda: not players.isFullScreen())
    qtbot.keyClick(players.view, Qt.Key.Key_F11)
    qtbot.waitUntil(players.isFullScreen)
    window.close()
    qtbot.waitUntil(lambda: not players.isVisible())
    assert not window.table.actions["Player window"].isChecked()


def test_a_new_encounter_resets_the_players_map(window: MainWindow,
                                                players: PlayerWindow) -> None:
    hale_leaves_the_east_room(window)
    assert "giant" not in players.scene.tokens
    window.document.replace(load_encounter(DEMO), None)
    assert "giant" in players.scene.tokens
    assert set(players.scene.tokens) <= {t.id for t in window.document.encounter.tokens}


def test_opening_a_door_shows_the_room_beyond(window: MainWindow,
                                              players: PlayerWindow) -> None:
    window.document.push(MoveToken("hale", Cell(11, 7)))  # by the door, on the west side
    assert "giant" not in players.scene.tokens
    door = next(w for w in window.document.encounter.map.walls if w.kind.value == "door")
    window.document.push(toggle_door(door))
    assert fog_at(players, Cell(14, 7)).alpha() == 0


def test_the_chosen_screen_and_turn_are_remembered(window: MainWindow) -> None:
    screen = QGuiApplication.screens()[-1]
    window.table.choose_screen(screen_key(screen))
    players = window.table.player_window
    assert players is not None and players.isVisible() and players.screen() == screen
    assert window.settings.value("player/screen") == screen_key(screen)
    window.table.actions["Turn players' map 90°"].trigger()
    assert players.scene.renderer.quarter_turns == 1
    assert window.scene.renderer.quarter_turns == 0  # the GM's map stays as it is
    players.close()
    window.table.show_player_window(True)
    assert window.table.player_window is players and players.scene.renderer.quarter_turns == 1
    players.close()


def test_what_a_new_party_member_sees_is_recorded_in_its_add_step(
        window: MainWindow, players: PlayerWindow) -> None:
    hale_leaves_the_east_room(window)
    window._add_at(Combatant(name="Scout"), EAST_ROOM_CELL)  # a group: Add Scout
    assert window.document.history.labels()[-1] == "Add Scout"
    assert fog_at(players, Cell(14, 4)).alpha() == 0
    window.document.undo()
    assert fog_at(players, Cell(14, 4)) == PLAYERS_FOG.unseen
    assert len(window.document.history.labels()) == 2  # the move, and the add to redo


@pytest.mark.parametrize("hidden", [False, True])
def test_a_missile_flies_in_the_players_window_unless_its_shooter_is_hidden(
        window: MainWindow, players: PlayerWindow, hidden: bool) -> None:
    """The kobold slings at Brannoc: the players see the flight and its mark unless the GM
    hid the kobold from them (a flight would give it away)."""
    if hidden:
        window.document.push(SetGmOnly(("kobold",), True))
    outcome = plan(MissileAction(MissileRequest(attacker="kobold", target="brannoc")),
                   window.document.encounter, ScriptedDice([20, 4]))
    before = len(players.scene.items())
    window._show_result(outcome)
    assert (len(players.scene.items()) > before) is not hidden
    assert len(window.scene.items()) > 0 and window.animation is not None
