"""Morale and sleep driven like a GM on the demo encounter: the orc and the kobold fall, the
bar over the map offers the opposition's check (without moving the map), the check goes to
the Resolve panel while the map shows where the ogre and the giant would run, typed dice
break them and they run there in one step that undo takes back; the triggers can be passed
over; a sleeper is woken from the token menu; morale and leadership are edited in the
form. Every number checked comes from core."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken, UpdateCombatant
from core.model.combatant import Condition, Side
from core.model.grid import Cell, Footprint
from core.rules.morale import retreat_plans
from desktop.mainwindow import MainWindow
from desktop.map.morale_items import Walk
from desktop.qt import QMenu, QPoint, Qt

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


@pytest.fixture
def quiet(window: MainWindow) -> MainWindow:
    window.settings.setValue("animation_ms", 0)
    window.resolve_panel.typed_mode.setChecked(True)
    return window


def fell(window: MainWindow, *token_ids: str) -> None:
    """The tokens drop to 0 HP, each as one step (as the Damage… entry does)."""
    for token_id in token_ids:
        before = window.document.encounter.token(token_id).combatant
        window.document.push(UpdateCombatant(token_id, before.model_copy(update={"hp": 0})))


def type_dice(qtbot: QtBot, window: MainWindow, values: list[int]) -> None:
    for value in values:
        field = window.resolve_panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)


def menu_texts(window: MainWindow, token_id: str, monkeypatch: pytest.MonkeyPatch) -> QMenu:
    shown: list[QMenu] = []
    # the offscreen platform cannot pop a menu up: record it instead
    monkeypatch.setattr(QMenu, "popup", lambda menu, _where: shown.append(menu))
    window._token_menu(token_id, QPoint(200, 200))
    return shown[0]


def test_the_bar_offers_the_trigger_when_it_occurs_without_moving_the_map(
        quiet: MainWindow) -> None:
    window, bar = quiet, quiet.morale.bar
    viewport = window.view.viewport().geometry()
    assert bar.isHidden()
    fell(window, "orc")
    assert bar.isHidden()  # one of four down, still two to one
    fell(window, "kobold")
    assert bar.isVisible() and Side.OPPOSITION in bar.texts
    assert bar.texts[Side.OPPOSITION].text().endswith(
        "outnumbered after taking losses; 50% down")
    assert bar.parentWidget() is window.view and window.view.viewport().geometry() == viewport
    assert bar.width() == window.view.viewport().width()
    window.document.undo()
    assert bar.isHidden()


def test_an_edit_that_changes_no_trigger_leaves_the_bar_as_it_is(quiet: MainWindow) -> None:
    """The bar is asked after every edit; the same triggers keep their row (rebuilt, it cost
    every drop on a big map) and it stays shown."""
    window, bar = quiet, quiet.morale.bar
    fell(window, "orc", "kobold")
    row = bar.texts[Side.OPPOSITION]
    window.document.push(MoveToken("mira", Cell(6, 10)))
    assert bar.isVisible() and bar.texts[Side.OPPOSITION] is row


def test_the_bar_stays_as_wide_as_the_map_when_the_view_resizes(quiet: MainWindow) -> None:
    window, bar = quiet, quiet.morale.bar
    fell(window, "orc", "kobold")
    window.view.resize(window.view.width() - 120, window.view.height())
    assert bar.width() == window.view.viewport().width()


def test_check_preview_typed_dice_rout_and_undo(qtbot: QtBot, quiet: MainWindow) -> None:
    window = quiet
    encounter = window.document.encounter
    fell(window, "orc", "kobold")
    plans = retreat_plans(encounter, Side.OPPOSITION)
    qtbot.mouseClick(window.morale.bar.buttons[Side.OPPOSITION][0], LEFT)
    panel, preview = window.resolve_panel, window.morale.preview
    assert panel.pending is window.morale.pending
    assert "Ogre 12 <b>64%</b> · Hill Giant 12 <b>64%</b>" in panel.card.text()
    assert preview.isVisible()
    assert [w.footprints[-1] for w in preview.walks] == [
        Footprint(plans[t].end.x, plans[t].end.y, encounter.token(t).footprint.size)
        for t in ("ogre", "giant")]
    assert all(isinstance(w, Walk) and w.escapes and len(w.footprints) > 1
               for w in preview.walks)
    giant = encounter.token("giant").combatant
    window.document.push(UpdateCombatant("giant", giant.model_copy(update={"morale": 15})))
    assert "Hill Giant 15 <b>85%</b>" in panel.card.text()  # the card follows the edit
    window.document.undo()
    before = {t.id: t.cell for t in encounter.tokens}
    type_dice(qtbot, window, [7, 7])  # 14 against 12: failed by 2, Unlucky
    assert encounter.token("ogre").cell == plans["ogre"].end
    assert encounter.token("giant").cell == plans["giant"].end
    assert encounter.token("giant").combatant.has(Condition.SCARPERING)
    assert not preview.isVisible() and window.morale.bar.isHidden()
    assert encounter.log[-1].summary == ("Opposition morale: 2 of 2 break — Ogre Unlucky, "
                                         "Hill Giant Unlucky")
    window.document.undo()
    assert {t.id: t.cell for t in encounter.tokens} == before
    assert window.morale.bar.isVisible() and not encounter.log


def test_cancel_or_another_action_drops_the_preview(qtbot: QtBot, quiet: MainWindow) -> None:
    window = quiet
    fell(window, "orc", "kobold")
    qtbot.mouseClick(window.morale.bar.buttons[Side.OPPOSITION][0], LEFT)
    assert window.morale.preview.isVisible()
    qtbot.mouseClick(window.resolve_panel.cancel_button, LEFT)
    assert not window.morale.preview.isVisible() and window.morale.pending is None
    window.morale_check()  # Round ▸ Morale check… with nothing selected: the opposition
    assert window.morale.preview.isVisible()
    window.resolve_panel.tray.setText("d6")
    window.resolve_panel.roll_tray()  # another action takes the panel
    assert not window.morale.preview.isVisible()


def test_the_bar_rests_while_its_check_waits_in_the_resolve_panel(qtbot: QtBot,
                                                                  quiet: MainWindow) -> None:
    """Check morale… again would start the waiting check over; No check would pass over the
    triggers it answers. Both rest until it is rolled or dropped, also when a new trigger
    rebuilds the bar."""
    window = quiet
    fell(window, "orc", "kobold")
    check, skip = window.morale.bar.buttons[Side.OPPOSITION]
    qtbot.mouseClick(check, LEFT)
    assert not check.isEnabled() and not skip.isEnabled()
    fell(window, "ogre")  # 75% down: the row is rebuilt with the check still waiting
    check, skip = window.morale.bar.buttons[Side.OPPOSITION]
    assert not check.isEnabled() and not skip.isEnabled()
    qtbot.mouseClick(window.resolve_panel.cancel_button, LEFT)
    assert check.isEnabled() and skip.isEnabled()


def test_a_check_the_gm_calls_says_so(quiet: MainWindow) -> None:
    quiet.morale_check()  # Round ▸ Morale check… with no trigger: the opposition
    assert quiet.resolve_panel.card.text().startswith("For: called by the GM<br>")


def test_no_check_passes_the_triggers_over_until_undone(qtbot: QtBot, quiet: MainWindow
                                                        ) -> None:
    window = quiet
    fell(window, "orc", "kobold")
    qtbot.mouseClick(window.morale.bar.buttons[Side.OPPOSITION][1], LEFT)
    encounter = window.document.encounter
    assert window.morale.bar.isHidden() and encounter.log[-1].kind == "morale"
    assert {t.key for t in encounter.timeline.morale_answered} == {
        "opposition/outnumbered", "opposition/casualties-50"}
    fell(window, "ogre")  # 75% down: a new trigger, offered
    assert window.morale.bar.texts[Side.OPPOSITION].text().endswith("75% down")
    window.document.undo()
    window.document.undo()
    assert window.morale.bar.texts[Side.OPPOSITION].text().endswith(
        "outnumbered after taking losses; 50% down")


def test_a_leaders_fall_is_named_and_the_menu_checks_a_side(
        quiet: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    window = quiet
    giant = window.document.encounter.token("giant").combatant
    window.document.push(UpdateCombatant("giant", giant.model_copy(
        update={"leadership": 2, "hp": 0})))
    assert window.morale.bar.texts[Side.OPPOSITION].text().endswith("leader Hill Giant down")
    menu = menu_texts(window, "orc", monkeypatch)
    entry = next(a for a in menu.actions() if a.text() == "Morale check (opposition)…")
    entry.trigger()
    assert "Orc Warrior 9" in window.resolve_panel.card.text()  # 12 − 3, the leader down


def test_wake_a_sleeper_from_the_token_menu(quiet: MainWindow,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    window = quiet
    encounter = window.document.encounter
    ogre = encounter.token("ogre").combatant
    window.document.push(UpdateCombatant("ogre", ogre.model_copy(
        update={"conditions": frozenset({Condition.ASLEEP})})))
    menu = menu_texts(window, "ogre", monkeypatch)
    next(a for a in menu.actions() if a.text() == "Wake Ogre").trigger()
    assert encounter.token("ogre").combatant.conditions == {Condition.WAKING}
    assert encounter.log[-1].summary == "Ogre is woken: normal combat from round 4"
    assert "Wake Ogre" not in [a.text() for a in menu_texts(window, "ogre",
                                                            monkeypatch).actions()]


def test_morale_and_leadership_in_the_form(qtbot: QtBot, quiet: MainWindow) -> None:
    window = quiet
    window.selection.set({"orc"})
    form = window.token_panel.form
    morale, leader = form.edits["morale"], form.edits["leadership"]
    assert (morale.text(), morale.placeholderText(), leader.text()) == ("", "12", "")
    morale.selectAll()
    qtbot.keyClicks(morale, "25")
    # validated as typed: "25" is refused, and leaving the field takes back the "2" on
    # the way, so the orc keeps the profile's default
    assert form.error.text() == "Morale must be 2–20"
    assert morale.text() == "25" and form.is_marked("morale")
    morale.editingFinished.emit()
    assert window.document.encounter.token("orc").combatant.morale is None
    assert morale.text() == "" and form.error.text() == "Not applied: Morale must be 2–20"
    morale.selectAll()
    qtbot.keyClicks(morale, "9")
    qtbot.keyClicks(leader, "2")
    orc = window.document.encounter.token("orc").combatant
    assert (orc.morale, orc.leadership) == (9, 2)
    morale.selectAll()
    qtbot.keyClick(morale, Qt.Key.Key_Delete)
    assert window.document.encounter.token("orc").combatant.morale is None
    window.selection.set({"mira"})
    assert form.edits["morale"].placeholderText() == "PC"
