"""Issue 37 in the window, on the demo encounter: what the round allows a creature, driven
like a GM (the Attack tool, the Resolve panel, the round timeline's chips). A refused action
shows its reason and never reaches the history."""

from __future__ import annotations

from types import SimpleNamespace

from pytestqt.qtbot import QtBot

from core.actions.base import plan
from core.actions.commands import SetProfile
from core.actions.critical import CriticalEventAction
from core.actions.round import StartRound
from core.model.combatant import Side
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry, RoundState
from desktop.dialogs.weapons import WeaponsDialog
from desktop.mainwindow import MainWindow
from desktop.panels.context_menus import TokenMenu
from desktop.panels.timeline_chips import Chip
from desktop.qt import QCheckBox, QLineEdit, QMenu, QPushButton, Qt

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
BRANNOC, ORC = Cell(10, 5), Cell(9, 5)


def start_round(window: MainWindow, **brannoc: object) -> None:
    """Round 1: Brannoc's entry as given; the orc on segment 3."""
    assert window.document.push(StartRound(RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="brannoc", **brannoc),
        InitiativeEntry(token_id="orc", side=Side.OPPOSITION, segment=3)])))


def aim_attack(qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    """Brannoc attacks the orc with the Attack tool."""
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*BRANNOC))
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*ORC))


def test_an_attack_past_segment_ten_shows_why_and_is_never_recorded(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    """002 Movement: initiative 6 and 45 ft moved is segment 15: no attack this round."""
    start_round(window, segment=6, moved_ft=45)
    aim_attack(qtbot, window, points)
    panel, document = window.resolve_panel, window.document
    assert "segment 15 is past 10" in panel.card.text()
    assert not panel.resolve_button.isEnabled()
    steps, orc = document.history.labels(), document.encounter.token("orc").combatant
    panel.resolve()  # Enter in a dice field reaches here even with the button off
    assert panel.message.text().startswith("Brannoc has no attack this round")
    assert document.history.labels() == steps
    assert document.encounter.token("orc").combatant == orc
    panel.weapon.free.setChecked(True)  # a free attack a rule grants is still possible
    assert panel.resolve_button.isEnabled()


def test_the_chip_of_a_creature_that_has_acted_says_so(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    start_round(window, segment=2)
    aim_attack(qtbot, window, points)
    panel = window.resolve_panel
    panel.resolve()
    chip = next(c for column in window.timeline_panel.columns
                for c in column.findChildren(Chip) if c.token_id == "brannoc" and not c.isHidden())
    assert chip.text() == "✓ Brannoc"
    assert "Acted: 1 of 1 action" in chip.toolTip()
    aim_attack(qtbot, window, points)
    assert "Brannoc has already acted this round" in panel.card.text()


def test_no_pummelling_against_the_orcs_scale(qtbot: QtBot, window: MainWindow,
                                              points: SimpleNamespace) -> None:
    """002 Pummelling: 'You can't pummel against metal armour.' Bare hands are offered after
    Brannoc's weapons; against the orc's Scale they are refused before any roll."""
    aim_attack(qtbot, window, points)
    panel, form = window.resolve_panel, window.resolve_panel.weapon
    labels = [form.weapon_box.itemText(i) for i in range(form.weapon_box.count())]
    assert labels == ["Long sword (d8)", "Javelin (d6)", "Unarmed (d2)", "Typed dice"]
    form.weapon_box.setCurrentIndex(2)
    assert "Orc Warrior wears Scale, metal armour" in panel.card.text()
    assert not panel.resolve_button.isEnabled()
    form.weapon_box.setCurrentIndex(0)
    assert panel.resolve_button.isEnabled()


def round_menu(window: MainWindow) -> QMenu:
    menu = TokenMenu(window.document, "brannoc", [], window)
    return next(a.menu() for a in menu.actions() if a.text() == "This round")


def test_the_token_menu_declares_two_attacks_or_standing_to_defend(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    """002 Multiple Attacks (−3 each and to its defence) and Not attacking (+2), as the
    GM declares them from Brannoc's menu; the orc's attack then meets AC 13 − 3."""
    start_round(window, segment=2)
    texts = [a.text() for a in round_menu(window).actions()]
    assert texts == ["One attack", "2 attacks (−3 to each and to its defence)",
                     "3 attacks (−6 to each and to its defence)",
                     "4 attacks (−9 to each and to its defence)",
                     "Stand to defend (+2 against melee, no attack)"]
    next(a for a in round_menu(window).actions() if a.text().startswith("2 attacks")).trigger()
    encounter = window.document.encounter
    assert encounter.timeline.entry("brannoc").extra_attacks == 1
    assert encounter.log[-1].summary.startswith("Brannoc declares 2 attacks this round")
    assert round_menu(window).actions()[1].isChecked()
    aim_attack(qtbot, window, points)
    assert "d20 +2 vs AC <b>13</b>" in window.resolve_panel.card.text()  # HR +5, −3
    window.resolve_panel.resolve()
    refusals: list[str] = []
    window.document.refused.connect(refusals.append)
    actions = round_menu(window).actions()
    assert actions[-1].text() == "Acted: 1 of 2 actions" and not actions[-1].isEnabled()
    next(a for a in actions if a.text().startswith("Stand to defend")).trigger()
    assert refusals == ["Brannoc has already acted this round: declarations come before it "
                        "acts"]


def test_a_critical_event_can_be_declined_after_the_roll(qtbot: QtBot, window: MainWindow
                                                         ) -> None:
    """Typed dice: Brannoc 5 and the opposition 5 tie on segment 5; the d30 5 and the d3 1
    make Brannoc drop his long sword (002 Critical events 5). The sword lies on the map, his
    menu offers to recover it, and the Resolve panel offers to decline the event: declined,
    it is logged and the sword is back in his hand, in the same one step."""
    panel, document = window.resolve_panel, window.document
    panel.typed_mode.setChecked(True)
    window.timeline_panel.roll()
    for value in (5, 9, 10, 10, 5, 5, 1):
        field = panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)
    brannoc = document.encounter.token("brannoc").combatant
    assert [o.item for o in brannoc.out_of_hand] == ["Long sword"]
    assert [label.text for label in window.scene.dropped.labels["brannoc"]] == ["⚔ Long sword"]
    assert "Recover the Long sword dropped at (10,5) (an action)" in [
        a.text() for a in round_menu(window).actions()]
    assert panel.declines.isVisible()
    steps = len(document.history.labels())
    decline = next(b for b in panel.declines.findChildren(QPushButton) if b.isVisible())
    qtbot.mouseClick(decline, LEFT)
    encounter = document.encounter
    assert encounter.token("brannoc").combatant.out_of_hand == ()
    assert "brannoc" not in window.scene.dropped.labels
    assert encounter.log[-1].text.endswith("— declined by the GM")
    assert len(document.history.labels()) == steps and not panel.declines.isVisible()


def test_a_damaged_shield_is_repaired_from_the_token_menu(window: MainWindow) -> None:
    """002 Critical events 2 'Shield damaged ( -1 Def) (New shield required)': Brannoc's AC
    13 − 1 until the GM repairs it."""
    document = window.document
    assert document.perform(plan(CriticalEventAction("brannoc", "orc"), document.encounter,
                                 ScriptedDice([2, 1])))
    assert document.encounter.token("brannoc").combatant.shield_damage == 1
    menu = TokenMenu(document, "brannoc", [], window)
    next(a for a in menu.actions() if a.text() == "Repair shield and armour").trigger()
    assert document.encounter.token("brannoc").combatant.shield_damage == 0
    assert document.history.labels()[-1] == "Repair Brannoc's shield and armour"


def test_declaration_time_stops_at_two_minutes_a_creature(window: MainWindow) -> None:
    """002 Initiative: '... though this should not exceed 2 minutes per creature': the demo's
    four foes allow four presses of "+2 min"; the fifth says why not."""
    panel = window.timeline_panel
    panel.roll()
    refusals: list[str] = []
    window.document.refused.connect(refusals.append)
    for _ in range(5):
        panel.add_time()
    assert panel.seconds_left == 120 + 4 * 120
    assert refusals == ["No more declaration time: at most 2 min per creature the GM "
                        "plays (002 Initiative)"]


def test_the_declaration_time_buttons_say_the_profiles_numbers(window: MainWindow) -> None:
    document, panel = window.document, window.timeline_panel
    assert panel.buttons["extra"].text() == "+2 min"
    profile = document.encounter.profile.model_copy(update={
        "declaration_extra_seconds": 90, "declaration_seconds_per_creature": 300})
    assert document.push(SetProfile(profile))
    assert panel.buttons["extra"].text() == "+1 min 30 s"
    assert "at most 5 min per creature" in panel.buttons["extra"].toolTip()


def test_armour_by_location_and_special_damage_from_the_window(window: MainWindow) -> None:
    """002 Damage ('if they are wearing armour where you hit'), Critical Locations, Special
    Damage: with hit locations on, the orc's menu leaves its thighs bare and makes it a
    non-humanoid; the Weapons dialog gives the club a poison that only works through
    armour."""
    document = window.document
    assert document.push(SetProfile(RulesProfile(hit_location=True)))
    menu = TokenMenu(document, "orc", [], window)
    body = next(a.menu() for a in menu.actions() if a.text() == "Armour and body")
    texts = [a.text() for a in body.actions() if a.text()]
    assert texts[0] == "Armour covers: Head" and all(a.isChecked() for a in body.actions()
                                                     if a.isCheckable())
    next(a for a in body.actions() if a.text() == "Armour covers: Thighs").trigger()
    orc = document.encounter.token("orc").combatant
    assert orc.armour_gaps == ("Thighs",)
    assert document.history.labels()[-1] == "Orc Warrior's Thighs: bare"
    body = next(a.menu() for a in TokenMenu(document, "orc", [], window).actions()
                if a.text() == "Armour and body")
    next(a for a in body.actions() if a.text().startswith("Humanoid")).trigger()
    assert not document.encounter.token("orc").combatant.humanoid
    dialog = WeaponsDialog(document, window)
    dialog.list.setCurrentRow([w.name for w in dialog.table].index("Club"))
    special = dialog.fields["special"]
    assert isinstance(special, QCheckBox)
    special.setChecked(True)
    dice = dialog.fields["special_damage"]
    assert isinstance(dice, QLineEdit)
    dice.setText("2d4")
    dice.textEdited.emit("2d4")
    dialog.apply()
    club = document.encounter.weapon("Club")
    assert club.special is not None and club.special.damage == "2d4"


def test_a_pummel_meets_an_armed_defenders_first_strike(qtbot: QtBot, window: MainWindow,
                                                        points: SimpleNamespace) -> None:
    """002 Brawling: the ogre puts down its club to pummel Mira, who holds her short sword:
    the card says she strikes first, and the log has her strike before his."""
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 8))  # the ogre
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 9))  # Mira
    panel, form = window.resolve_panel, window.resolve_panel.weapon
    form.weapon_box.setCurrentIndex(form.weapon_box.findData("Unarmed"))
    assert "Mira strikes first with its Short sword (002 Brawling)" in panel.card.text()
    panel.resolve()
    summaries = [entry.summary for entry in window.document.encounter.log[-2:]]
    assert summaries[0].startswith("First strike (002 Brawling): Mira attacks Ogre")
    assert summaries[1].startswith("Ogre attacks Mira")


def test_a_declined_event_of_rolled_dice_is_not_logged_as_typed_in(window: MainWindow
                                                                    ) -> None:
    """"Roll for me": the step made anew without the event keeps the dice as rolled (the
    log said "typed in" of dice the app had rolled)."""
    panel, document = window.resolve_panel, window.document
    panel.roll_mode.setChecked(True)
    for seed in range(300):  # the first seed whose roll ties and offers a decline
        panel.seed.setValue(seed)
        window.timeline_panel.roll()
        if panel.declines.isVisible():
            break
        document.undo()
    assert panel.declines.isVisible()
    decline = next(b for b in panel.declines.findChildren(QPushButton) if b.isVisible())
    decline.click()
    assert any(e.text.endswith("— declined by the GM") for e in document.encounter.log)
    assert not any("typed in" in entry.text for entry in document.encounter.log)


def test_the_decline_offer_stays_greyed_after_a_later_step_until_it_is_undone(
        qtbot: QtBot, window: MainWindow) -> None:
    """A GM's walk-through: the critical event's Decline vanished at the next segment."""
    panel, document = window.resolve_panel, window.document
    panel.typed_mode.setChecked(True)
    window.timeline_panel.roll()
    for value in (5, 9, 10, 10, 5, 5, 1):  # Brannoc drops his sword (as above)
        field = panel.die_fields[-1]
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Qt.Key.Key_Return)
    buttons = [b for b in panel.declines.findChildren(QPushButton) if b.isVisible()]
    window.timeline_panel.next_segment()
    assert panel.declines.isVisible() and not any(b.isEnabled() for b in buttons)
    assert "undo back to this roll" in panel.declines.message.text()
    document.undo()  # the segment: the roll is the last step again
    assert all(b.isEnabled() for b in buttons) and panel.declines.message.text() == ""
    document.undo()  # the roll itself
    assert not panel.declines.isVisible()
