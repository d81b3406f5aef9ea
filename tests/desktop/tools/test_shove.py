"""The shove and attack flow driven like a GM: pick, aim, preview, type dice, resolve, undo."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken, UpdateCombatant
from core.model.combatant import Condition
from core.model.grid import Cell
from core.rules.odds import shove_odds
from core.rules.shove import ShoveRequest
from desktop.mainwindow import MainWindow
from desktop.map.shove_overlay import alpha_for, percent
from desktop.panels.resolve import IDLE_TEXT
from desktop.qt import QApplication, QEvent, QFormLayout, Qt
from desktop.tools.shove import AIM_PROMPT, ShoveTool
from tests.desktop.qt_fixtures import OffThread

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


@pytest.fixture
def quiet(window: MainWindow) -> MainWindow:
    window.settings.setValue("animation_ms", 0)
    return window


def aim_shove(qtbot: QtBot, window: MainWindow, points: SimpleNamespace,
              cells: tuple[Cell, Cell, Cell]) -> None:
    """Select the attacker, choose the Shove tool, click the target, aim, confirm."""
    attacker, target, aim = cells
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*attacker))
    qtbot.keyClick(window.view, Qt.Key.Key_S)
    assert window.tool_actions["shove"].isChecked()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*target))
    qtbot.mouseMove(viewport, points.cell(*aim))
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*aim))


def type_dice(qtbot: QtBot, window: MainWindow, values: list[int]) -> None:
    """Choose "I rolled" and type each die the panel asks for, pressing Enter."""
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    for value in values:
        field = panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)


def test_slam_into_a_closed_door(qtbot: QtBot, quiet: MainWindow,
                                 points: SimpleNamespace) -> None:
    window = quiet
    encounter = window.document.encounter
    window.document.push(MoveToken("pip", Cell(10, 7)))
    window.document.push(MoveToken("ogre", Cell(8, 6)))
    aim_shove(qtbot, window, points, (Cell(8, 6), Cell(10, 7), Cell(13, 7)))
    # d20 20: double success (10 ft E); the door at x = 12 stops Pip after 5 ft: 3 slam
    # dice of the d8 (Small d4 stepped twice by FR +7), one hit: 3 + 2 + 4 = 9, AV 0
    type_dice(qtbot, window, [20, 3, 2, 4])
    pip = encounter.token("pip")
    assert pip.cell == Cell(11, 7)
    assert pip.combatant.hp == 11 - 9
    assert Condition.PRONE in pip.combatant.conditions
    assert window.resolve_panel.result.toPlainText().startswith(entry_summary := (
        "Ogre shoves Pip 5 ft E"))
    entry = encounter.log[-1]
    assert entry.summary == ("Ogre shoves Pip 5 ft E — double success, Prone, slams the "
                             "closed door: 9 damage (AV 0)")
    assert "Slam: slam damage (3 × d8): 3d8 → 3 (d8) + 2 (d8) + 4 (d8) = 9" in entry.text
    assert window.log_panel.tree.topLevelItemCount() == 1
    window.document.undo()
    assert encounter.token("pip").cell == Cell(10, 7)
    assert encounter.token("pip").combatant.hp == 11
    assert window.resolve_panel.result.toPlainText() == "", f"{entry_summary} still shown"
    assert Condition.PRONE not in encounter.token("pip").combatant.conditions
    assert not encounter.log and window.log_panel.tree.topLevelItemCount() == 0
    window.document.redo()                     # the result comes back with its step
    assert window.resolve_panel.result.toPlainText().startswith(entry_summary)


def test_pit_stop_failure_drops_into_the_pit(qtbot: QtBot, quiet: MainWindow,
                                             points: SimpleNamespace) -> None:
    window = quiet
    aim_shove(qtbot, window, points, (Cell(7, 8), Cell(6, 9), Cell(3, 9)))
    # 9 + 7 = 16 vs FD 11: success; d10 5 + 7 - 5 = 7, capped at 5 ft: the pit is next;
    # Pit-Stop 3 vs Death Ray 12 fails; spikes d6 4 (AV 2: 2), fall 20 ft: 2d6 2 + 6 = 8,
    # one hit through AV 2: 6
    type_dice(qtbot, window, [9, 5, 3, 4, 2])
    form = window.resolve_panel.dice_form
    labels = [form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget().text()
              for row in range(form.rowCount())]
    assert labels[-2:] == ["d6 · falling 20 ft", "d6 · falling 20 ft (die 2)"]
    type_dice(qtbot, window, [6])
    mira = window.document.encounter.token("mira")
    assert mira.cell == Cell(5, 9)
    assert mira.combatant.hp == 22 - 8
    assert "falls into Spiked pit: 8 damage" in window.document.encounter.log[-1].summary


def test_preview_shading_matches_the_core_odds(qtbot: QtBot, quiet: MainWindow,
                                               points: SimpleNamespace) -> None:
    window = quiet
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))
    qtbot.mouseMove(viewport, points.cell(6, 13))  # aim south: within 90° of west
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool)
    odds = shove_odds(window.document.encounter,
                      ShoveRequest(attacker="ogre", defender="mira", direction="S"))
    assert tool.preview.isVisible() and tool.preview.odds == odds
    assert tool.preview.shading() == {c: alpha_for(p) for c, p in odds.landing.items()}
    assert "Fail <b>15%</b>" in window.resolve_panel.card.text()
    # a GM's walk-through: "Success 50%" and not a cell moved; the card says how often it moves
    assert f"Pushed back <b>{percent(odds.moved)}</b>" in window.resolve_panel.card.text()
    qtbot.mouseMove(viewport, points.cell(2, 9))  # back to west: the pit is in play
    assert "Into Spiked pit" in window.resolve_panel.card.text()


def test_an_impossible_die_value_is_refused(qtbot: QtBot, quiet: MainWindow,
                                            points: SimpleNamespace) -> None:
    window = quiet
    aim_shove(qtbot, window, points, (Cell(7, 8), Cell(6, 9), Cell(3, 9)))
    type_dice(qtbot, window, [9, 11])  # the shove die is a d10
    panel = window.resolve_panel
    assert "11 is not a face of a d10" in panel.message.text()
    assert "border" in panel.die_fields[1].styleSheet()
    assert window.document.encounter.token("mira").cell == Cell(6, 9)
    assert not window.document.encounter.log


def test_a_refusal_never_moves_the_resolve_button(qtbot: QtBot, quiet: MainWindow,
                                                  points: SimpleNamespace) -> None:
    """A GM's walk-through: the message above the buttons grew with a refusal and pushed
    Resolve down, so the next click landed on empty space. It is below them now."""
    window = quiet
    aim_shove(qtbot, window, points, (Cell(7, 8), Cell(6, 9), Cell(3, 9)))
    panel = window.resolve_panel
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    panel.typed_mode.setChecked(True)
    type_dice(qtbot, window, [9])
    before = panel.resolve_button.mapTo(panel, panel.resolve_button.rect().topLeft())
    type_dice(qtbot, window, [11])  # the shove die is a d10: refused
    assert "11 is not a face of a d10" in panel.message.text()
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    assert panel.resolve_button.mapTo(panel, panel.resolve_button.rect().topLeft()) == before


def test_the_dice_boxes_take_digits_and_clear_the_last_refusal(qtbot: QtBot, quiet: MainWindow,
                                                               points: SimpleNamespace) -> None:
    """A GM's walk-through: letters were taken and refused only at Resolve, and a refusal
    stayed while the GM typed the new value."""
    window = quiet
    aim_shove(qtbot, window, points, (Cell(7, 8), Cell(6, 9), Cell(3, 9)))
    type_dice(qtbot, window, [25])
    panel = window.resolve_panel
    assert "25 is not a face of a d20" in panel.message.text()
    field = panel.die_fields[0]
    field.clear()
    qtbot.keyClicks(field, "x1y2")
    assert field.text() == "12" and panel.message.text() == ""
    qtbot.keyClicks(field, "vmkbo")  # refused letters are not tool keys either
    assert field.text() == "12" and window.tool_actions["shove"].isChecked()


def test_a_target_out_of_reach_is_explained(qtbot: QtBot, quiet: MainWindow,
                                            points: SimpleNamespace) -> None:
    window = quiet
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira, next to the Ogre
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool) and tool.attacker == "ogre"
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)  # no aim at Mira; the Ogre stays
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(10, 5))  # Brannoc, far away
    message = window.statusBar().currentMessage()
    # how to shove with someone else (a GM's walk-through clicked the next creature to act)
    assert "not adjacent" in message and message.endswith("— Esc chooses another attacker")
    assert tool.target is None


def test_a_sleeping_ogre_cannot_shove(qtbot: QtBot, quiet: MainWindow,
                                     points: SimpleNamespace) -> None:
    window, viewport = quiet, quiet.view.viewport()
    ogre = window.document.encounter.token("ogre").combatant
    window.document.push(UpdateCombatant("ogre", ogre.model_copy(
        update={"conditions": frozenset({Condition.ASLEEP})})))
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira, next to it
    assert "Cannot shove: Ogre cannot act: asleep" in window.statusBar().currentMessage()
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool) and tool.target is None


def test_attack_rolls_for_me_and_logs(qtbot: QtBot, quiet: MainWindow,
                                      points: SimpleNamespace) -> None:
    window = quiet
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))
    panel = window.resolve_panel
    assert panel.weapon.isVisible()
    seed = panel.seed.value()
    qtbot.mouseClick(panel.resolve_button, LEFT)
    entry = window.document.encounter.log[-1]
    assert entry.kind == "attack" and entry.summary.startswith("Ogre attacks Mira")
    assert panel.seed.value() == seed + 1
    assert "Target AC" in panel.result.toPlainText()


def test_a_click_skips_the_push_animation(qtbot: QtBot, window: MainWindow,
                                          points: SimpleNamespace) -> None:
    window.settings.setValue("animation_ms", 2000)  # long enough to catch it mid-way
    aim_shove(qtbot, window, points, (Cell(7, 8), Cell(6, 9), Cell(6, 12)))
    type_dice(qtbot, window, [20])  # double success: 10 ft south, Prone
    item, end = window.scene.tokens["mira"], window.scene.renderer.cell_rect(Cell(6, 11))
    animation = window.animation
    assert animation is not None and animation.state() == animation.State.Running
    animation.setCurrentTime(animation.duration() // 4)  # part-way along, whatever the load
    assert item.pos() != end.topLeft()
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(15, 14))
    assert animation.state() == animation.State.Stopped
    assert item.pos() == end.topLeft()


def test_slow_odds_come_from_the_worker_and_follow_an_edit_made_meanwhile(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace, off_thread: OffThread) -> None:
    """Odds that took a while are worked out off the GUI thread; a bystander steps into the
    landing cell before they are shown: the odds shown are those of the map as it is."""
    window = quiet
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    window.select_tool("shove")
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool)
    said: list[str] = []
    tool.status.connect(said.append)
    off_thread(True)
    with qtbot.waitSignal(tool.status, check_params_cb=lambda text: text == AIM_PROMPT):
        qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira: shoved west
        assert said[-1] == "Shove: working out the odds…" and not tool.preview.isVisible()
        window.document.push(MoveToken("pip", Cell(5, 9)))  # into the landing cell
    request = ShoveRequest(attacker="ogre", defender="mira", direction="W")
    odds = shove_odds(window.document.encounter, request)
    assert tool.preview.isVisible() and tool.preview.odds == odds
    assert dict(odds.landing) == {Cell(6, 9): 1}  # Pip's cell: Mira cannot be moved into it


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen tip's raise()
def test_no_hover_tip_covers_the_odds_while_a_shove_is_aimed(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace) -> None:
    """A GM's walk-through: the spiked pit's tip sat over the landing odds being aimed."""
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    window, viewport = quiet, quiet.view.viewport()
    mira = points.cell(6, 9)

    def hover_tip() -> bool:
        QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, mira,
                                                    viewport.mapToGlobal(mira)))
        shown = QToolTip.isVisible() and "Mira" in QToolTip.text()
        QToolTip.hideText()
        return shown

    assert hover_tip()                                      # the Select tool: Mira's tip
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))
    window.select_tool("shove")
    assert hover_tip()                                      # no target yet: tips as usual
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))
    assert window.tools["shove"].hides_map_tips() and not hover_tip()
    missile = window.tools["missile"]                       # a shooter hovers its targets
    window.select_tool("missile")
    missile.start(None)
    assert not missile.hides_map_tips()
    missile.start("ogre")
    assert missile.hides_map_tips()


def test_esc_gives_up_the_aim_and_its_odds_card(qtbot: QtBot, quiet: MainWindow,
                                                 points: SimpleNamespace) -> None:
    """A GM's walk-through pressed Esc while aiming and still read "Ogre shoves Mira … move
    the pointer to aim" and its odds in the Resolve panel. An attack left waiting there is
    not the Shove tool's to throw away."""
    window, viewport, panel = quiet, quiet.view.viewport(), quiet.resolve_panel
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))     # the Ogre
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))     # Mira: aiming
    qtbot.mouseMove(viewport, points.cell(5, 10))
    qtbot.waitUntil(lambda: "move the pointer to aim" in panel.title.text())
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert panel.title.text() == IDLE_TEXT and not panel.card.text()
    window.select_tool("attack")                                  # the Ogre attacks Mira
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))
    attack = panel.pending
    assert attack is not None
    window.select_tool("shove")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert panel.pending is attack


def test_the_selected_token_is_offered_as_the_attacker_not_taken(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace) -> None:
    """Issue 36.7: the selected token was silently taken as the shover."""
    window, viewport = quiet, quiet.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira, beside the Ogre
    window.select_tool("shove")
    tool = window.tools["shove"]
    assert isinstance(tool, ShoveTool) and tool.attacker is None and tool.offered == "mira"
    window.statusBar().clearMessage()  # the tool's own hint is over: its question shows
    assert window.statusBar().currentMessage() == (
        "Shove: Mira (selected) shoves? Click its target — or click another attacker")
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(10, 5))  # Brannoc, not next to Mira
    assert tool.attacker == "brannoc" and tool.offered is None and tool.target is None
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)  # another attacker
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))  # the Ogre: the attacker
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira: its target
    assert (tool.attacker, tool.target) == ("ogre", "mira")
