"""The round timeline dock: roll, step through a round, drag a chip, the declaration timer."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from core.actions.attack import AttackAction
from core.actions.base import plan
from core.actions.commands import MoveToken, UpdateCombatant
from core.actions.round import SetSegmentOverride
from core.actions.spoiling import ConcentrateAction
from core.model.combatant import Combatant, Condition
from core.model.dice import ScriptedDice, SeededDice
from core.model.grid import Cell
from core.rules.timeline import (
    acting_order,
    entry_timing,
    roll_initiative,
    ties_with_opposition,
)
from desktop.mainwindow import MainWindow
from desktop.map.items import TokenItem
from desktop.panels.timeline import Chip
from desktop.qt import (
    QDropEvent,
    QLabel,
    QMessageBox,
    QMimeData,
    QPointF,
    Qt,
)


def chips(window: MainWindow) -> dict[str, int]:
    """token id → the segment column its chip is in."""
    found = {}
    for column in window.timeline_panel.columns:
        for chip in column.findChildren(Chip):
            if chip.isVisibleTo(column):
                found[chip.token_id] = column.segment
    return found


def test_roll_step_and_next_round(qtbot: QtBot, window: MainWindow,
                                  answer_yes: list[str]) -> None:
    panel = window.timeline_panel
    qtbot.keyClick(window.view, Qt.Key.Key_I)
    state = window.document.encounter.timeline
    assert state.round_number == 1 and len(state.entries) == 8
    assert panel.buttons["roll"].isHidden()  # under way: rolling again is the menu's
    qtbot.wait(10)
    assert chips(window) == {e.token_id: e.segment for e in state.entries}
    assert window.document.encounter.log[0].kind == "initiative"
    acting = {e.token_id for e in state.entries if e.segment == state.current_segment}
    selected = {i.token_id for i in window.scene.selectedItems() if isinstance(i, TokenItem)}
    assert len(selected) == min(len(acting), 1) and selected <= acting  # a drag moves one
    qtbot.mouseClick(panel.buttons["segment"], Qt.MouseButton.LeftButton)
    assert window.document.encounter.timeline.current_segment == 1
    qtbot.mouseClick(panel.buttons["round"], Qt.MouseButton.LeftButton)
    assert len(answer_yes) == 1 and "would lose the turn" in answer_yes[0]  # asked first
    assert window.document.encounter.timeline.round_number == 2
    assert not panel.buttons["roll"].isHidden()  # round 2's initiative is to roll
    window.document.undo()
    window.document.undo()
    assert window.document.encounter.timeline.current_segment == 0


def test_a_creature_put_to_sleep_mid_round_loses_its_action(window: MainWindow) -> None:
    """A GM's walk-through: ticking Asleep in round 3 left the Hill Giant's chip active."""
    window.timeline_panel.roll()
    giant = window.document.encounter.token("giant").combatant
    window.document.push(UpdateCombatant("giant", giant.model_copy(
        update={"conditions": frozenset({Condition.ASLEEP})})))
    chip = next(c for col in window.timeline_panel.columns for c in col.findChildren(Chip)
                if c.token_id == "giant" and c.isVisibleTo(col))
    assert "(no action)" in chip.text() and "asleep: no action" in chip.toolTip()
    window.document.undo()
    chip = next(c for col in window.timeline_panel.columns for c in col.findChildren(Chip)
                if c.token_id == "giant" and c.isVisibleTo(col))
    assert "(no action)" not in chip.text()


def test_dropping_a_chip_sets_a_gm_override(qtbot: QtBot, window: MainWindow) -> None:
    window.timeline_panel.roll()
    column = window.timeline_panel.columns[9]
    mime = QMimeData()
    mime.setData("application/x-battlemap-token", b"ogre")
    drop = QDropEvent(QPointF(5, 5), Qt.DropAction.MoveAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    column.dropEvent(drop)
    entry = window.document.encounter.timeline.entry("ogre")
    assert entry.segment == 9 and entry.overridden
    qtbot.wait(10)
    assert chips(window)["ogre"] == 9


def test_clicking_a_chip_selects_its_combatant_on_the_map(qtbot: QtBot, window: MainWindow
                                                         ) -> None:
    """A GM's walk-through: clicking the Orc Warrior's chip selected nothing."""
    window.timeline_panel.roll()
    chip = next(c for col in window.timeline_panel.columns for c in col.findChildren(Chip)
                if c.token_id == "orc" and c.isVisibleTo(col))
    assert window.selection.ids != {"orc"}
    qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
    assert window.selection.ids == {"orc"} and "Click: select it" in chip.toolTip()


def test_declaration_timer_counts_down_and_extends(window: MainWindow) -> None:
    panel = window.timeline_panel
    panel.roll()
    assert panel.timer_label.text() == "◷ 2:00"
    panel.clock.timeout.emit()  # one second passes
    assert panel.timer_label.text() == "◷ 1:59"
    panel.add_time()
    assert panel.timer_label.text() == "◷ 3:59"
    panel.seconds_left = 1
    panel.clock.timeout.emit()                      # the countdown runs out: said, not hidden
    assert panel.timer_label.text() == "◷ <b>Time is up</b>"
    assert panel.timer_label.toolTip() == "Declarations are closed"
    assert not panel.clock.isActive()
    panel.next_segment()                            # the first segment played
    assert panel.timer_label.text() == "Round under way"


def test_declarations_end_when_the_first_segment_is_played(window: MainWindow,
                                                          answer_yes: list[str]) -> None:
    """The countdown belongs to the declarations: the next segment ends it, and undoing a
    later round back into this one does not bring it back mid-round."""
    panel = window.timeline_panel
    panel.roll()
    panel.next_segment()
    assert panel.timer_label.text() == "Round under way" and not panel.clock.isActive()
    panel.next_round()  # round 2: declarations again, initiative not rolled yet
    assert panel.timer_label.text() == "◷ 2:00"
    window.document.undo()  # back in round 1, segment 1
    assert panel.timer_label.text() == "Round under way" and not panel.clock.isActive()
    window.document.undo()
    window.document.undo()  # before any initiative
    assert panel.timer_label.text() == ""


def test_the_chips_row_keeps_its_width_as_the_timer_s_text_changes(
        qtbot: QtBot, window: MainWindow) -> None:
    """The timer's texts come and go; the row of chips beside it (and so the map above it)
    keeps its size from the roll to the end of the round."""
    panel = window.timeline_panel
    panel.roll()
    widths = []
    for _ in range(3):
        qtbot.wait(10)  # laid out
        widths.append((panel.timer_label.width(), panel.strip_area.width()))
        panel.next_segment()
    panel.time_up = True
    panel._show_timer()
    qtbot.wait(10)
    widths.append((panel.timer_label.width(), panel.strip_area.width()))
    assert panel.timer_label.text() == "◷ <b>Time is up</b>"
    assert widths == [widths[0]] * 4


def test_a_tie_with_the_opposition_rolls_a_critical_event(window: MainWindow) -> None:
    encounter = window.document.encounter
    seed = next(s for s in range(1, 500)
                if ties_with_opposition(roll_initiative(encounter, SeededDice(s))))
    panel = window.timeline_panel
    window.resolve_panel.seed.setValue(seed)
    panel.roll()
    kinds = [entry.kind for entry in encounter.log]
    assert kinds[0] == "initiative" and "critical" in kinds
    window.document.undo()  # the whole round start is one step
    assert not encounter.log and encounter.timeline.round_number == 0


def test_moving_slides_the_chip_and_greys_it_past_segment_10(
        drag: Callable[..., None], window: MainWindow) -> None:
    encounter = window.document.encounter
    window.document.push(MoveToken("ogre", Cell(20, 12)))  # no evade check on the way
    window.timeline_panel.roll()
    window.document.push(SetSegmentOverride("mira", 5))
    drag((6, 9), [(6, 11), (6, 13)])  # 20 ft: 4 segments, strikes on 9
    entry = encounter.timeline.entry("mira")
    mira = encounter.token("mira").combatant
    assert entry.moved_ft == 20 and entry_timing(entry, mira, encounter.profile).segment == 9
    assert chips(window)["mira"] == 9
    drag((6, 13), [(8, 13), (10, 13)])  # 20 ft more: segment 13 is past 10
    assert not entry_timing(encounter.timeline.entry("mira"), encounter.token("mira").combatant,
                            encounter.profile).attacks
    chip = next(c for col in window.timeline_panel.columns for c in col.findChildren(Chip)
                if c.token_id == "mira" and c.isVisibleTo(col))
    assert chip.greyed and "past 10" in chip.toolTip()


def test_initiative_from_typed_dice(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    window.timeline_panel.roll()
    asked = []
    while panel.pending is not None and len(asked) < 12:
        field = panel.die_fields[-1]
        asked.append(panel.dice_form.labelForField(field).text())
        qtbot.keyClicks(field, "1" if asked[-1].startswith("d3 ") else "4")
        qtbot.keyClick(field, Qt.Key.Key_Return)
    assert asked[0].startswith("d10")
    state = window.document.encounter.timeline
    assert state.round_number == 1 and state.opposition_roll is not None
    assert state.opposition_roll.total == 4
    assert all(e.roll.total == 4 for e in state.entries if e.roll is not None)


def test_surprise_check_logs_each_spot_save(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    window.timeline_panel.surprise("Normal travel", 1)
    for value in (16, 6, 12, 2):  # Brannoc, Mira, Sister Hale, Pip
        field = panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)
    entry = window.document.encounter.log[-1]
    assert entry.kind == "surprise"
    assert entry.summary == "Surprise: Mira, Sister Hale, Pip surprised"
    # Pip: 2 - 2 - 1 = -1, short of 12 by 13: Catastrophic, five free attacks
    assert "Pip: d20 2" in entry.text and "surprised (Catastrophic): 5 free" in entry.text


def test_a_hit_during_a_long_action_spoils_it(qtbot: QtBot, window: MainWindow) -> None:
    window.timeline_panel.roll()
    window.document.push(SetSegmentOverride("brannoc", 0))
    window.timeline_panel.declare_action("brannoc", 3)
    encounter = window.document.encounter
    assert encounter.timeline.entry("brannoc").action_segments == 3
    # the orc waits for Brannoc to start something (002 Spoiling: no perception roll then)
    assert window.document.perform(plan(ConcentrateAction("orc", "brannoc"), encounter,
                                        ScriptedDice([])))
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    panel.begin(AttackAction("orc", "brannoc"))
    for value in (20, 3):
        field = panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)
    assert encounter.log[-2].kind == "attack"
    assert encounter.log[-1].summary == "Brannoc's 3-segment action is spoiled"
    logged = len(encounter.log)
    window.document.undo()  # the hit and the spoiled action are one step
    assert len(encounter.log) == logged - 2


def test_during_a_round_a_drag_moves_only_the_token_under_the_pointer(
        window: MainWindow, drag: Callable[..., None]) -> None:
    """Two selected tokens, a round under way: each creature moves in its own segments and
    rolls its own evade checks, so the drag takes only Pip."""
    window.document.push(MoveToken("kobold", Cell(12, 12)))  # Pip is free to walk off
    window.timeline_panel.roll()
    window.selection.set({"pip", "mira"})
    drag((4, 4), [(4, 5), (4, 6)])
    encounter = window.document.encounter
    assert encounter.token("pip").cell == Cell(4, 6)
    assert encounter.token("mira").cell == Cell(6, 9)
    assert "one at a time" in window.statusBar().currentMessage()



def test_every_chip_is_whole_when_many_act_in_one_segment(qtbot: QtBot, window: MainWindow
                                                          ) -> None:
    """A GM's walk-through: the Ogre, the Hill Giant, Brannoc and Sister Hale in segment 5
    showed half-height chips."""
    window.timeline_panel.roll()
    for token_id in ("ogre", "giant", "brannoc", "hale", "pip"):
        window.document.push(SetSegmentOverride(token_id, 5))
    qtbot.wait(10)
    column = window.timeline_panel.columns[5]
    shown = [c for c in column.findChildren(Chip) if c.isVisibleTo(column)]
    assert len(shown) == 5
    qtbot.waitUntil(lambda: all(c.height() >= c.sizeHint().height() for c in shown))


# --- the folded timeline, newcomers, chips that read right ---------------------------------

def strip_words(window: MainWindow) -> list[str]:
    """The folded row, left to right: segment numbers and chip texts."""
    row = window.timeline_panel.strip.row
    widgets = [row.itemAt(i).widget() for i in range(row.count())]
    return [label.text() for widget in widgets if widget is not None
            for label in ([widget] if isinstance(widget, QLabel)
                          else widget.findChildren(QLabel))]


def test_folded_the_timeline_is_one_row_of_chips_in_acting_order(window: MainWindow) -> None:
    panel = window.timeline_panel
    assert not panel.expanded and not panel.segments.isVisible()
    assert panel.height() < 2 * panel.buttons["roll"].height()  # one row
    window.resolve_panel.seed.setValue(3)
    panel.roll()
    state = window.document.encounter.timeline
    words = strip_words(window)
    for segment, groups in acting_order(state, window.document.encounter):
        first = next(w for w in words if w.startswith(
            window.document.encounter.token(groups[0][0]).name))
        assert words.index(str(segment)) < words.index(first)
    window.actions_by_name["Timeline segments"].setChecked(True)  # Ctrl+J
    assert panel.expanded and panel.segments.isVisible() and not panel.strip_area.isVisible()
    assert window.settings.value("timeline/expanded") in (True, "true")


def test_a_creature_added_mid_round_gets_a_chip_that_says_why_it_has_no_segment(
        window: MainWindow) -> None:
    panel = window.timeline_panel
    panel.roll()
    window.token_panel.add_combatant(Combatant(name="Goblin"))
    chip = next(c for c in panel.strip.findChildren(Chip) if c.text() == "? Goblin")
    assert chip.greyed and "after this round's initiative was rolled" in chip.toolTip()
    (text, roll_in, _), = chip.menu_entries()
    assert text == "Roll initiative for the newcomers"
    roll_in()  # "Roll for me": resolved at once, one undo step
    goblin = window.document.encounter.tokens[-1].id
    assert window.document.encounter.timeline.entry(goblin).segment >= 0
    assert not [c for c in panel.strip.findChildren(Chip) if c.text().startswith("?")
                and c.isVisibleTo(panel.strip)]


def test_next_round_names_who_would_lose_the_turn_and_asks(window: MainWindow) -> None:
    """answered "No" by the fixture: nothing changes."""
    panel = window.timeline_panel
    panel.roll()
    shown: list[str] = []
    QMessageBox.question = staticmethod(  # type: ignore[method-assign]
        lambda _p, title, text, *_: shown.append(text) or QMessageBox.StandardButton.No)
    panel.next_round()
    state = window.document.encounter.timeline
    assert state.round_number == 1 and len(shown) == 1
    later = [window.document.encounter.token(e.token_id).name for e in state.entries
             if e.segment > state.current_segment]
    assert later and all(name in shown[0] for name in later)


def test_chips_elide_long_names_and_mark_a_declared_long_action(window: MainWindow) -> None:
    panel = window.timeline_panel
    brannoc = window.document.encounter.token("brannoc").combatant
    window.document.push(UpdateCombatant("brannoc", brannoc.model_copy(
        update={"name": "Brannoc the Unbreakable of the Northern Marches"})))
    panel.roll()
    panel.declare_action("brannoc", 3)
    chip = next(c for c in panel.strip.findChildren(Chip) if c.token_id == "brannoc"
                and c.isVisibleTo(panel.strip))
    assert "…" in chip.text() and chip.text().startswith("✦3")
    assert "Brannoc the Unbreakable of the Northern Marches" in chip.toolTip()
    assert "dashed" in chip.styleSheet()
    ticked = [text for text, _run, on in chip.menu_entries() if on]
    assert ticked == ["Spell or prayer: 3 segments"]


def test_a_chip_menu_has_the_window_s_colours_not_the_chip_s(window: MainWindow) -> None:
    panel = window.timeline_panel
    panel.roll()
    chip = next(c for c in panel.strip.findChildren(Chip) if c.isVisibleTo(panel.strip))
    menu = chip.menu()
    assert menu.parent() is window and not menu.styleSheet() and len(menu.actions()) == 5
    assert "background" in chip.styleSheet()  # the chip has its side's colour; not its menu
