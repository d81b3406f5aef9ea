"""Issue 14 in the window, driven like a GM on the demo encounter: the Rules settings switch the
injury options on; Brannoc attacks the orc aiming at its head with a hero point (the Attack
tool and the Resolve panel's form); Mira pops up from cover to shoot the kobold, who waits for
her there (the Missile tool); wounds and hero points in the Combatants panel; grips in the
Weapons dialog."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import SetProfile, UpdateCombatant
from core.actions.popup import PopUpAction
from core.model.grid import Cell
from core.model.injury import DEFAULT_HIT_LOCATIONS, HeroUse
from core.model.profile import RulesProfile
from core.model.weapons import Grip, Hands
from desktop.dialogs.rules import RulesDialog
from desktop.dialogs.weapons import WeaponsDialog
from desktop.mainwindow import MainWindow
from desktop.panels.resolve import MIN_WIDTH_PX
from desktop.qt import QApplication, QComboBox, QLineEdit, QPoint, QScrollArea, Qt
from desktop.tools.missile import MissileTool

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
KOBOLD, BRANNOC, ORC, MIRA = Cell(5, 4), Cell(10, 5), Cell(9, 5), Cell(6, 9)
INJURY = RulesProfile(hit_location=True, head_hits_stun=True, wounds=True, critical_roll=True,
                      fumble=True, hero_points=True)


@pytest.fixture
def injured(window: MainWindow) -> MainWindow:
    """The demo with the injury options on and two hero points for Brannoc."""
    window.settings.setValue("animation_ms", 0)
    document = window.document
    assert document.push(SetProfile(INJURY))
    brannoc = document.encounter.token("brannoc")
    assert document.push(UpdateCombatant(brannoc.id, brannoc.combatant.model_copy(
        update={"hero_points": 2})))
    return window


def choose(box: QComboBox, data: str) -> None:
    index = box.findData(data)
    assert index >= 0, f"{data!r} not offered"
    box.setCurrentIndex(index)


def test_the_rules_dialog_shows_and_round_trips_the_injury_fields(window: MainWindow) -> None:
    dialog = RulesDialog(RulesProfile(), window)
    for name in ("hit_location", "hit_locations", "head_hits_stun", "highest_die_damage",
                 "wounds", "attack_die", "critical_roll", "fumble", "hero_points",
                 "grip_hit_bonus", "popup_spot_target"):
        assert name in dialog.editors
    assert "Roll 1d10" in dialog.editors["hit_location"].toolTip()
    table = dialog.editors["hit_locations"]
    assert isinstance(table, QLineEdit) and '"name": "Head"' in table.text()
    changed = INJURY.model_copy(update={"attack_die": "2d8", "hit_locations": (
        *DEFAULT_HIT_LOCATIONS[:-1], DEFAULT_HIT_LOCATIONS[-1].model_copy(
            update={"melee_aim": -8}))})
    dialog.show_profile(changed)
    dialog.accept_if_valid()
    assert dialog.result_profile == changed
    table.setText(table.text().replace('"high": 10', '"high": 9'))
    dialog.accept_if_valid()
    assert dialog.error.text().startswith(
        "Hit location table (faces, aim modifiers, critical) (Hit location tab): must cover 1-10")


def test_an_aimed_attack_with_a_hero_point_is_one_step(qtbot: QtBot, injured: MainWindow,
                                                       points: SimpleNamespace) -> None:
    window = injured
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*BRANNOC))
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*ORC))
    panel = window.resolve_panel
    form = panel.weapon
    assert form.isVisible() and form.aim.isVisible() and form.hero.isVisible()
    assert form.weapon_box.currentData() == "Long sword" and form.grip.isEnabled()
    # Each grip says the die it adds (a Great club's "2d6" rolled a third d6 unexplained).
    assert [form.grip.itemText(i) for i in range(form.grip.count())] == [
        "one hand", "1½ hands +d3", "two hands +d3"]
    assert "Hit <b>65%</b>" in panel.card.text()  # d20 + 5 vs AC 13
    choose(form.grip, Grip.TWO.value)
    choose(form.aim, "Head")
    choose(form.hero, HeroUse.PLUS_TEN.value)
    assert "d20 +6 vs AC <b>13</b> · Hit <b>70%</b>" in panel.card.text()
    assert "lands on the head" in panel.card.text()
    panel.typed_mode.setChecked(True)
    for value in ("12", "5", "3"):  # aimed: no location die; long sword d8 + d3 two-handed
        panel.die_fields[-1].setText(value)
        panel.resolve()
    encounter = window.document.encounter
    entry = encounter.log[-1]
    assert entry.summary.startswith("Brannoc attacks Orc Warrior: 18 vs AC 13 — hits the head")
    assert encounter.token("brannoc").combatant.hero_points == 1
    orc = encounter.token("orc").combatant
    assert orc.hp < orc.max_hp and orc.wounds == 1
    window.document.undo()
    assert window.document.encounter.token("brannoc").combatant.hero_points == 2
    assert window.document.encounter.token("orc").combatant.wounds == 0


def test_a_refused_combination_disables_resolve_until_it_is_changed(
        qtbot: QtBot, injured: MainWindow, points: SimpleNamespace) -> None:
    """A GM's walk-through: aim + a hero point's automatic hit was refused on Resolve, and
    the red line stayed after switching to +10."""
    viewport, panel = injured.view.viewport(), injured.resolve_panel
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*BRANNOC))
    qtbot.keyClick(injured.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*ORC))
    choose(panel.weapon.aim, "Head")
    choose(panel.weapon.hero, HeroUse.AUTOMATIC_HIT.value)
    assert "does not work when aiming" in panel.card.text()
    assert not panel.resolve_button.isEnabled()
    panel.message.setText("Cannot resolve: a hero point's automatic hit does not work")
    choose(panel.weapon.hero, HeroUse.PLUS_TEN.value)
    assert panel.resolve_button.isEnabled() and panel.message.text() == ""
    assert "does not work" not in panel.card.text()


def test_the_form_offers_no_aim_or_hero_point_while_they_are_off(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*BRANNOC))
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*ORC))
    form = window.resolve_panel.weapon
    assert form.isVisible() and not form.aim.isVisible() and not form.hero.isVisible()
    assert not form.labels[form.aim].isVisible()
    choose(form.weapon_box, "")  # typed dice: the damage box and magic come back
    assert form.damage_dice.isVisible() and not form.grip.isEnabled()
    window.select_tool("missile")
    tool = window.tools["missile"]
    assert isinstance(tool, MissileTool)
    qtbot.waitUntil(tool.pop_up.isVisible)
    assert not tool.aim_box.isVisible() and not tool.hero_box.isVisible()


def test_a_pop_up_from_cover_against_a_waiting_kobold(qtbot: QtBot, injured: MainWindow,
                                                      points: SimpleNamespace) -> None:
    window = injured
    viewport = window.view.viewport()
    window.select_tool("missile")
    tool = window.tools["missile"]
    assert isinstance(tool, MissileTool)
    qtbot.waitUntil(lambda: tool.aim_box.isVisible() and tool.hero_box.isVisible())
    dict(tool.token_entries("kobold"))["Wait for a pop-up… (Kobold)"]()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 10))
    waiting = window.document.encounter.timeline.waiting
    assert [(w.token_id, w.spot) for w in waiting] == [("kobold", Cell(6, 10))]
    assert "Kobold waits for a foe to pop up at (6,10)" in window.statusBar().currentMessage()
    window.statusBar().showMessage("Undone: Wait", 1)  # a passing message that ends
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() != "Undone: Wait")
    assert window.statusBar().currentMessage() == ""  # a report: neither it nor the question
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*MIRA))
    tool.pop_up.setChecked(True)
    assert "pops up — click where" in window.statusBar().currentMessage()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(9, 9))  # too far: refused
    assert tool.spot is None
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(7, 9))  # the ogre's: refused at once
    assert tool.spot is None
    assert "cannot pop up at (7,9): Ogre in the way" in window.statusBar().currentMessage()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(6, 10))
    assert tool.spot == Cell(6, 10)
    # The pointer may rest on the kobold from an earlier test: a move onto the point it is
    # at sends no event, so it leaves first.
    qtbot.mouseMove(viewport, points.cell(9, 9))
    qtbot.mouseMove(viewport, points.cell(*KOBOLD))
    assert "Pop-up at (6,10): Spot 9 <b>60%</b>" in window.resolve_panel.card.text()
    qtbot.mouseClick(viewport, LEFT, NONE, points.cell(*KOBOLD))
    pending = window.resolve_panel.pending
    assert isinstance(pending, PopUpAction) and pending.request.spot == Cell(6, 10)
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    for value in ("15", "14", "5", "4"):  # Spot 15; 14 hits; location 5; d6 4 - AV 1 = 3
        panel.die_fields[-1].setText(value)
        panel.resolve()
    entry = next(e for e in window.document.encounter.log if e.kind == "pop-up")
    assert entry.summary == ("Mira pops up at (6,10): Spot 15 vs 9 — Mira's Short bow at "
                             "Kobold (short range): 16 vs 12 — hits the lower torso, 3 damage; "
                             "exposed to Kobold")
    assert window.document.encounter.token("mira").cell == MIRA  # she ducked back


def test_wounds_and_hero_points_in_the_combatants_panel(qtbot: QtBot, injured: MainWindow
                                                        ) -> None:
    panel = injured.token_panel
    panel.list.select_ids({"brannoc"})
    form = panel.form
    assert form.edits["hero_points"].text() == "2"
    form.edits["hero_points"].setText("3")
    form._edited("hero_points")
    assert injured.document.encounter.token("brannoc").combatant.hero_points == 3
    form.edits["wounds"].setText("-1")
    form._edited("wounds")
    assert form.error.text() == "Wounds must be 0–9999"
    brannoc = injured.document.encounter.token("brannoc")
    assert injured.document.push(UpdateCombatant(brannoc.id, brannoc.combatant.model_copy(
        update={"wounds": 4})))
    row = panel.list.rows["brannoc"]
    assert row.text(1).endswith(" · 4 wp") and "wound points 4" in row.toolTip(1)


def test_the_weapons_dialog_edits_grips(window: MainWindow) -> None:
    dialog = WeaponsDialog(window.document, window)
    names = [w.name for w in dialog.table]
    dialog.list.setCurrentRow(names.index("Halberd"))
    hands = dialog.fields["hands"]
    assert isinstance(hands, QComboBox) and hands.currentText() == Hands.TWO.value
    hands.setCurrentText(Hands.VERSATILE.value)
    bonus = dialog.fields["two_hand_damage"]
    assert isinstance(bonus, QLineEdit) and bonus.text() == "d6"
    bonus.setText("2x")
    bonus.textEdited.emit("2x")
    assert dialog.invalid and "two_hand_damage" in dialog.error.text()
    bonus.setText("d4")
    bonus.textEdited.emit("d4")
    dialog.apply()
    halberd = window.document.encounter.weapon("Halberd")
    assert (halberd.hands, halberd.two_hand_damage) == (Hands.VERSATILE, "d4")


def test_the_attack_form_fits_the_narrow_resolve_dock(qtbot: QtBot, injured: MainWindow,
                                                      points: SimpleNamespace) -> None:
    """At the dock's narrowest the Grip read "one hanc" and the typed-dice fields ran past
    the right edge: every field now ends inside the dock and each choice shows whole."""
    window = injured
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(*BRANNOC))
    qtbot.keyClick(window.view, Qt.Key.Key_K)
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, points.cell(*ORC))
    panel, form = window.resolve_panel, window.resolve_panel.weapon
    panel.typed_mode.setChecked(True)
    window.resizeDocks([window.resolve_dock], [MIN_WIDTH_PX], Qt.Orientation.Horizontal)
    QApplication.processEvents()  # the layouts settle at the new width
    viewport = panel.findChild(QScrollArea).viewport()
    fields = [form.weapon_box, form.grip, form.hit_modifier, form.aim, form.hero,
              *panel.die_fields]
    for field in fields:
        assert field.isVisible()
        assert field.mapTo(viewport, QPoint(field.width(), 0)).x() <= viewport.width()
    for box in (form.grip, form.hero):
        for index in range(box.count()):
            text = box.itemText(index)
            assert box.width() >= box.fontMetrics().horizontalAdvance(text) + 24, text
