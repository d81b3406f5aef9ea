"""The melee manoeuvres driven like a GM on the demo encounter: the token menu with odds, a
throw picked on the map, an overrun and an evade from a drag, holds drawn and held tokens
kept in place. Every number checked comes from core (the flows must agree with it)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from core.actions.base import plan
from core.actions.commands import MoveToken
from core.actions.force_back import ForceBackAction
from core.actions.grapple import GrappleAction
from core.model.combatant import Condition
from core.model.dice import ScriptedDice
from core.model.grid import Cell, Direction, Footprint
from core.rules.force_back import ForceBackRequest
from core.rules.grapple import GrappleAttempt, GrappleRequest
from core.rules.manoeuvres import offers
from desktop.mainwindow import MainWindow
from desktop.qt import QMenu, QPoint, QScrollArea, Qt, QWidget
from desktop.tools.manoeuvre import ManoeuvreTool, leading_point
from desktop.tools.manoeuvre_cards import card
from desktop.tools.select import SelectTool
from tests.desktop.qt_fixtures import OffThread

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
THROW_WEST = GrappleRequest(attacker="ogre", defender="mira", attempt=GrappleAttempt.THROW,
                            throw_direction=Direction.W)


@pytest.fixture
def quiet(window: MainWindow) -> MainWindow:
    window.settings.setValue("animation_ms", 0)
    window.resolve_panel.typed_mode.setChecked(True)
    return window


def type_dice(qtbot: QtBot, window: MainWindow, values: list[int]) -> None:
    for value in values:
        field = window.resolve_panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)


def manoeuvres(window: MainWindow) -> ManoeuvreTool:
    tool = window.tools["manoeuvre"]
    assert isinstance(tool, ManoeuvreTool)
    return tool


def test_the_token_menu_lists_manoeuvres_with_their_odds(
        quiet: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    window = quiet
    shown: list[QMenu] = []
    # the offscreen platform cannot pop a menu up: record it instead
    monkeypatch.setattr(QMenu, "popup", lambda menu, _where: shown.append(menu))
    window._token_menu("ogre", QPoint(200, 200))
    texts = [a.text() for a in shown[0].actions()]
    expected = [o.text for o in offers(window.document.encounter, "ogre")]
    assert expected and all(text in texts for text in expected)
    assert any(t.startswith("Throw Mira… — ") for t in texts)
    push = next(o for o in offers(window.document.encounter, "ogre")
                if o.manoeuvre == "force-back" and o.target == "mira")
    moves = f"moves {push.text.rsplit('moves ', 1)[1]}"  # the menu's figure, on the card
    assert push.text.startswith("Force Mira back… — moves ")
    assert moves.replace("moves ", "moves <b>") + "</b>" in card(window.document.encounter,
                                                                 push.request)
    assert "Brace against overruns" in texts
    next(a for a in shown[0].actions() if a.text().startswith("Throw Mira")).trigger()
    assert window.tool_actions["manoeuvre"].isChecked() and manoeuvres(window).choices
    assert manoeuvres(window).hides_map_tips()              # the marks of the landings


def test_throw_into_the_pit_picked_on_the_map(qtbot: QtBot, quiet: MainWindow,
                                              points: SimpleNamespace) -> None:
    window, encounter = quiet, quiet.document.encounter
    dice = [1, 18, 3, 2, 5, 4, 3, 6, 15]  # Mira's first strike misses (002 Brawling)
    expected = plan(GrappleAction(THROW_WEST), encounter, ScriptedDice(dice)).result
    tool = manoeuvres(window)
    window.select_tool("manoeuvre")
    throw = next(o for o in offers(encounter, "ogre") if o.text.startswith("Throw Mira"))
    tool.take(throw)
    marked = {(m.footprint.x, m.footprint.y): m.text for m in tool.marks.marks}
    assert tool.marks.isVisible() and marked[(5, 9)] == "falls 44%"  # the pit, west
    assert marked[(6, 8)] == ""  # plain ground: no label
    assert (7, 9) not in marked  # the ogre's own side
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(5, 9))
    assert isinstance(window.resolve_panel.pending, GrappleAction)
    assert "Into the hazard" in window.resolve_panel.card.text()
    assert "Lands: stays <b>56%</b> · 5 ft W <b>44%</b>" in window.resolve_panel.card.text()
    type_dice(qtbot, window, dice)
    mira = encounter.token("mira")
    assert expected.throw is not None and mira.cell == expected.throw.final_cell
    assert mira.combatant.hp == 22 - expected.throw.total_damage
    assert encounter.log[-1].summary == expected.summary()
    window.document.undo()
    assert encounter.token("mira").cell == Cell(6, 9)


def test_the_next_die_and_the_resolve_button_stay_in_sight_in_a_short_dock(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace) -> None:
    """A GM's walk-through: typing a throw's eight dice in a 900-pixel window, the Resolve
    button went half out of the dock after the seventh."""
    window, panel = quiet, quiet.resolve_panel
    window.resize(1400, 640)
    tool = manoeuvres(window)
    window.select_tool("manoeuvre")
    tool.take(next(o for o in offers(window.document.encounter, "ogre")
                   if o.text.startswith("Throw Mira")))
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(5, 9))
    panel.typed_mode.setChecked(True)
    viewport = panel.findChild(QScrollArea).viewport()

    def in_sight(widget: QWidget) -> bool:
        top = widget.mapTo(viewport, QPoint(0, 0)).y()
        return top >= 0 and top + widget.height() <= viewport.height()

    for value in (1, 18, 3, 2, 5, 4, 3, 6):  # Mira's first strike (002 Brawling), the throw
        field = panel.die_fields[-1]
        assert in_sight(field) and in_sight(panel.resolve_button), len(panel.die_fields)
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)
    assert len(panel.die_fields) == 9 and in_sight(panel.die_fields[-1])
    assert viewport.height() < panel.findChild(QScrollArea).widget().height()  # it scrolled


def test_a_drag_through_an_enemy_offers_an_overrun(qtbot: QtBot, quiet: MainWindow,
                                                   drag: Callable[..., None]) -> None:
    window, encounter = quiet, quiet.document.encounter
    drag((10, 5), [(9, 5), (8, 5), (7, 5)])  # Brannoc west, straight through the orc
    panel = window.resolve_panel
    assert panel.pending is not None and panel.pending.name == "overrun"
    assert encounter.token("brannoc").cell == Cell(10, 5)  # nothing moved yet
    type_dice(qtbot, window, [2])  # 2 + 3 = 5 < 10: the orc goes down
    assert encounter.token("brannoc").cell == Cell(8, 5)
    assert Condition.PRONE in encounter.token("orc").combatant.conditions


def test_cancelling_a_dropped_overrun_takes_its_words_off_the_status_bar(
        qtbot: QtBot, quiet: MainWindow, drag: Callable[..., None]) -> None:
    """A GM's walk-through cancelled the overrun a drag offered and the status bar still
    read "Overrun Kobold: knocked over 75%…"."""
    drag((10, 5), [(9, 5), (8, 5), (7, 5)])  # Brannoc west, straight through the orc
    assert "Overrun Orc Warrior" in quiet.statusBar().currentMessage()
    qtbot.mouseClick(quiet.resolve_panel.cancel_button, LEFT)
    assert quiet.resolve_panel.pending is None and quiet.statusBar().currentMessage() == ""


def test_an_overrun_drag_says_it_ends_past_the_enemy_not_on_the_cell(
        quiet: MainWindow, drag_to: Callable[..., AbstractContextManager[None]]) -> None:
    """A GM's walk-through: the tag read "20 ft · 4 seg · overrun · 55% down" and the mover
    stopped 10 ft on, past the enemy: no cost to a cell the overrun never reaches."""
    with drag_to((10, 5), (7, 5)):                      # Brannoc west through the orc
        label = quiet.scene.path_preview.label.text
        tip = quiet.statusBar().currentMessage()
    assert label.startswith("overrun Orc Warrior · ") and label.endswith("% down")
    assert "ends past it or in contact, not on this cell" in tip


def test_a_drop_before_the_slow_ruling_arrives_still_offers_the_overrun(
        quiet: MainWindow, drag: Callable[..., None], off_thread: OffThread) -> None:
    """The drag's ruling is on the odds worker, which is still busy when the token is
    dropped: the drop works the ruling out itself and misses no overrun."""
    select = quiet.tools["select"]
    assert isinstance(select, SelectTool)
    previews = select.rulings.previews
    off_thread(True)
    busy = threading.Event()
    previews._worker.submit(busy.wait, 30)  # the worker is taken until the drop is done
    drag((10, 5), [(9, 5), (8, 5), (7, 5)])  # Brannoc west, straight through the orc
    busy.set()
    panel = quiet.resolve_panel
    assert panel.pending is not None and panel.pending.name == "overrun"
    assert quiet.document.encounter.token("brannoc").cell == Cell(10, 5)


def test_every_goal_past_the_same_enemy_works_out_the_overrun_once(
        quiet: MainWindow, drag: Callable[..., None]) -> None:
    """Each cell a drag enters past the orc along the same line is the same overrun: its
    odds (~1 ms) are worked out once per state of the document."""
    select = quiet.tools["select"]
    assert isinstance(select, SelectTool)
    drag((10, 5), [(9, 5), (8, 5), (7, 5), (6, 5)])  # Brannoc west, on past the orc
    stamp, memo = select.rulings._overruns
    document = quiet.document
    assert stamp == (document.history, document.revision)
    (request, odds), = memo.items()
    assert request.defender == "orc" and request.direction is Direction.W
    document.push(MoveToken("mira", Cell(6, 10)))  # any edit: odds worked out afresh
    again = select.rulings.overrun_odds(document.encounter, request)
    assert select.rulings._overruns[0] != stamp and again is not odds


def test_shift_drag_goes_around_without_an_overrun(quiet: MainWindow,
                                                   drag: Callable[..., None]) -> None:
    encounter = quiet.document.encounter
    drag((10, 5), [(9, 5), (8, 5), (7, 5)], Qt.KeyboardModifier.ShiftModifier)
    assert quiet.resolve_panel.pending is None
    assert encounter.token("brannoc").cell == Cell(7, 5)


def test_a_drag_past_an_enemy_in_a_round_rolls_the_evade_check(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace) -> None:
    window, encounter = quiet, quiet.document.encounter
    window.resolve_panel.roll_mode.setChecked(True)
    window.timeline_panel.roll()
    window.resolve_panel.typed_mode.setChecked(True)
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, LEFT, NONE, points.cell(6, 9))
    for y in (10, 11, 12):
        qtbot.mouseMove(viewport, points.cell(6, y))
    select = window.tools["select"]
    assert isinstance(select, SelectTool)
    assert [m.text.split(" ")[:2] for m in select.rulings.marks.marks] == [["evade", "Ogre"]]
    assert "1 evade check(s)" in window.scene.path_preview.toolTip()
    qtbot.mouseRelease(viewport, LEFT, NONE, points.cell(6, 12))
    assert window.resolve_panel.pending is not None
    type_dice(qtbot, window, [20])
    assert encounter.token("mira").cell == Cell(6, 12)
    assert encounter.timeline.entry("mira").moved_ft == 15
    assert encounter.log[-1].summary == "Mira moves 15 ft, evading Ogre"


def test_the_evade_checks_words_go_when_the_drag_leaves_them_or_is_cancelled(
        qtbot: QtBot, quiet: MainWindow, points: SimpleNamespace) -> None:
    """A GM's walk-through: "1 evade check(s): all pass 65%" stayed in the status bar after
    an Esc-cancelled drag, and into the next round."""
    window = quiet
    window.resolve_panel.roll_mode.setChecked(True)
    window.timeline_panel.roll()
    viewport = window.view.viewport()
    status = window.statusBar()
    qtbot.mousePress(viewport, LEFT, NONE, points.cell(6, 9))
    for y in (10, 11, 12):
        qtbot.mouseMove(viewport, points.cell(6, y))
    assert "1 evade check(s)" in status.currentMessage()
    qtbot.mouseMove(viewport, points.cell(6, 9))  # back where she stands: nothing to evade
    assert status.currentMessage() == ""
    qtbot.mouseMove(viewport, points.cell(6, 12))
    assert "1 evade check(s)" in status.currentMessage()
    qtbot.keyClick(window.view, Qt.Key.Key_Escape)
    assert status.currentMessage() == ""
    assert window.document.encounter.token("mira").cell == Cell(6, 9)


def test_holds_are_drawn_and_held_tokens_stay(qtbot: QtBot, quiet: MainWindow,
                                              drag: Callable[..., None]) -> None:
    window, encounter = quiet, quiet.document.encounter
    hold = GrappleAction(GrappleRequest(attacker="ogre", defender="mira"))
    window.document.perform(plan(hold, encounter, ScriptedDice([1, 20, 1])))  # Mira misses
    tool = manoeuvres(window)
    assert [link.kind.value for link in tool.links.links] == ["hold"]
    drag((6, 9), [(6, 10), (6, 11)])
    assert encounter.token("mira").cell == Cell(6, 9)
    assert "Mira is held" in window.statusBar().currentMessage()
    window.document.undo()
    assert tool.links.links == []


def test_brace_from_the_menu(quiet: MainWindow) -> None:
    tool = manoeuvres(quiet)
    entry = dict(tool.token_entries("orc"))["Brace against overruns"]
    entry()
    assert Condition.BRACED in quiet.document.encounter.token("orc").combatant.conditions
    assert "Stop bracing" in dict(tool.token_entries("orc"))


def test_a_failed_forcing_back_lowers_the_ac_shown_in_the_ratings(quiet: MainWindow) -> None:
    """Brannoc (HR 5) rolls 1 against the orc's 10 + 2: failed by 6, Bad, two levels: his AC
    13 reads 11 in the Combatants panel until his next action."""
    window, encounter = quiet, quiet.document.encounter
    window.selection.set({"brannoc"})
    ratings = window.token_panel.ratings
    assert ratings.value_text("ac") == "AC 13"
    push = ForceBackAction(ForceBackRequest(attacker="brannoc", defender="orc"))
    window.document.perform(plan(push, encounter, ScriptedDice([1])))
    assert ratings.value_text("ac") == "AC 11"
    window.document.undo()
    assert ratings.value_text("ac") == "AC 13"


def test_forcing_a_huge_creature_back_goes_the_way_clicked(qtbot: QtBot, quiet: MainWindow,
                                                           points: SimpleNamespace) -> None:
    """A GM's walk-through: the Huge giant's choices overlap, their labels were piled on
    the giant, and a click on the cell east of it picked whichever choice holding that cell
    was listed first (north-east). Each choice is now labelled on the cells it newly takes,
    and a click picks the nearest label."""
    window, encounter = quiet, quiet.document.encounter
    tool = manoeuvres(window)
    window.select_tool("manoeuvre")
    tool.take(next(o for o in offers(encounter, "hale")
                   if o.text.startswith("Force Hill Giant back")))
    giant = encounter.token("giant").footprint
    assert len(set(tool.leads)) == len(tool.leads) == len(tool.choices)
    # The status bar says what the marks' percentages are (not the menu's "success").
    assert window.statusBar().currentMessage().endswith(
        "(%: the chance Hill Giant is moved there)")
    east = next(c for c in tool.choices if (c.footprint.x, c.footprint.y) == (giant.x + 1, giant.y))
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE,
                     points.cell(giant.x + giant.size, giant.y + giant.size // 2))
    pending = window.resolve_panel.pending
    assert isinstance(pending, ForceBackAction) and pending.request == east.request


@pytest.mark.parametrize(("choice", "start", "point"), [
    pytest.param(Footprint(1, 0, 3), Footprint(0, 0, 3), (3.5, 1.5), id="huge-east"),
    pytest.param(Footprint(1, -1, 3), Footprint(0, 0, 3), (3.5, -0.5), id="huge-north-east"),
    pytest.param(Footprint(0, 0, 3), Footprint(0, 0, 3), (1.5, 1.5), id="huge-stays"),
    pytest.param(Footprint(4, 5, 1), Footprint(3, 5, 1), (4.5, 5.5), id="medium-east"),
])
def test_a_choice_is_labelled_on_the_cells_it_newly_takes(
        choice: Footprint, start: Footprint, point: tuple[float, float]) -> None:
    assert leading_point(choice, start) == point
