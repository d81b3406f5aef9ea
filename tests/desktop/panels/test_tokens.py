"""The Combatants panel: list by side, selection both ways, validated-as-you-type editing
with one undo step per field, derived ratings, adding from the library and removing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.actions.commands import UpdateCombatant
from core.actions.fog import SetGmOnly
from core.io.fileio import load_encounter
from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap
from desktop.document.document import EncounterDocument
from desktop.document.selection import SelectionModel
from desktop.map.scene import MapScene
from desktop.map.style import CONDITION_BADGES
from desktop.panels.combatant_form import CombatantForm
from desktop.panels.tokens import TokenPanel
from desktop.qt import (
    QApplication,
    QEvent,
    QLineEdit,
    QObject,
    QPoint,
    QPointF,
    Qt,
    QTreeWidgetItem,
    QWheelEvent,
    QWidget,
)
from tests.desktop.qt_fixtures import library_combatants

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
DEMO = Path(__file__).parents[3] / "assets" / "demo_encounter.json"


@dataclass
class Setup:
    """Everything the panel needs, kept alive for the whole test."""

    document: EncounterDocument
    scene: MapScene
    selection: SelectionModel
    panel: TokenPanel

    @property
    def encounter(self) -> Encounter:
        return self.document.encounter

    def select(self, token_id: str) -> None:
        self.panel.list.clearSelection()
        self.panel.list.rows[token_id].setSelected(True)

    def type_into(self, qtbot: object, key: str, text: str) -> QLineEdit:
        edit = self.panel.form.edits[key]
        edit.selectAll()
        qtbot.keyClicks(edit, text)  # type: ignore[attr-defined]
        return edit

    def history_index(self) -> int:
        return self.document.history.index

    def rating(self, key: str) -> str:
        return self.panel.ratings.value_text(key)

    def release(self) -> None:
        """A clean stack announces nothing from its destructor (a dirty one would signal
        the half-destroyed document, as the window fixture also avoids)."""
        self.document.history.mark_clean()


Build = Callable[[Encounter], Setup]


def _children(item: QTreeWidgetItem) -> list[tuple[str, ...]]:
    """The rows under ``item`` as tuples of their column texts."""
    rows = []
    for index in range(item.childCount()):
        child = item.child(index)
        assert child is not None
        rows.append(tuple(child.text(c) for c in range(child.treeWidget().columnCount())))
    return rows


@pytest.fixture
def build(qtbot: object) -> Iterator[Build]:
    made: list[Setup] = []

    def make(encounter: Encounter) -> Setup:
        document = EncounterDocument(encounter)
        selection = SelectionModel(document)
        scene = MapScene(document)
        scene.follow_selection(selection)
        panel = TokenPanel(document, selection)
        qtbot.addWidget(panel)  # type: ignore[attr-defined]
        panel.show()
        made.append(Setup(document, scene, selection, panel))
        return made[-1]

    yield make
    for setup in made:
        setup.release()


@pytest.fixture
def demo(build: Build) -> Setup:
    return build(load_encounter(DEMO))


def test_lists_four_party_and_four_opposition(demo: Setup) -> None:
    groups = demo.panel.list.groups
    assert [groups[s].childCount() for s in groups] == [4, 4]
    assert [groups[s].text(0) for s in groups] == ["Party (4)", "Opposition (4)"]
    assert [row[0] for row in _children(groups[Side.PARTY])] == [
        "Brannoc", "Mira", "Sister Hale", "Pip"]
    assert demo.panel.list.rows["brannoc"].text(1) == "42/42"


def test_typing_strength_changes_fd_and_undo_restores_it(demo: Setup, qtbot: object) -> None:
    demo.select("brannoc")
    assert demo.rating("fd") == "FD 18"  # 10 + STR 2 + plate 4 + shield 2
    assert demo.rating("hr") == "HR +5"
    steps = demo.document.history.index
    demo.type_into(qtbot, "strength", "18")
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 18
    assert demo.rating("fd") == "FD 19"
    assert demo.rating("hr") == "HR +6"
    assert demo.document.history.index == steps + 1
    demo.document.undo()
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 17
    assert demo.panel.form.edits["strength"].text() == "17"
    assert demo.rating("fd") == "FD 18"


def test_dexterity_changes_ac_and_the_breakdown_explains_it(demo: Setup, qtbot: object
                                                            ) -> None:
    demo.select("brannoc")
    assert demo.rating("ac") == "AC 13"
    demo.type_into(qtbot, "dexterity", "16")
    assert demo.rating("ac") == "AC 15"
    ac = demo.panel.ratings.items["ac"]
    assert ("DEX modifier", "+2", "ability table") in _children(ac)
    assert "DEX modifier +2" in ac.toolTip(0)


def test_constitution_above_strength_drives_fd(demo: Setup, qtbot: object) -> None:
    demo.select("brannoc")
    demo.type_into(qtbot, "constitution", "18")
    assert demo.rating("fd") == "FD 19"
    assert _children(demo.panel.ratings.items["fd"])[1][:2] == ("CON modifier", "+3")


def test_out_of_range_strength_is_refused_with_the_models_message(demo: Setup, qtbot: object
                                                                 ) -> None:
    demo.select("brannoc")
    steps = demo.document.history.index
    edit = demo.type_into(qtbot, "strength", "25")
    form = demo.panel.form
    assert form.error.text() == "STR must be 3–18"
    assert form.is_marked("strength")
    assert "#c0392b" in edit.styleSheet()
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 17
    assert demo.document.history.index == steps
    assert demo.rating("fd") == "FD 18"
    edit.selectAll()
    qtbot.keyClicks(edit, "16")  # type: ignore[attr-defined]
    assert form.error.text() == ""
    assert not form.is_marked("strength")
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 16


def test_a_non_number_asks_for_a_whole_number(demo: Setup, qtbot: object) -> None:
    demo.select("brannoc")
    demo.type_into(qtbot, "strength", "abc")
    assert demo.panel.form.error.text() == "STR: enter a whole number"
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 17


def test_messages_name_the_field_by_its_label(demo: Setup, qtbot: object) -> None:
    """The GM reads "Hero pts" beside the field, so the message says "Hero pts", not the
    model's "hero_points"."""
    demo.select("brannoc")
    edit = demo.type_into(qtbot, "hero_points", "x")
    assert demo.panel.form.error.text() == "Hero pts: enter a whole number"
    edit.editingFinished.emit()
    assert demo.panel.form.error.text() == "Not applied: Hero pts: enter a whole number"
    name = demo.panel.form.edits["name"]
    name.selectAll()
    qtbot.keyClick(name, Qt.Key.Key_Delete)  # type: ignore[attr-defined]
    # Not pydantic's "String should have at least 1 character" (a GM's walk-through).
    assert demo.panel.form.error.text() == "Name: cannot be empty"


def test_an_out_of_range_number_keeps_the_value_from_before_the_typing(demo: Setup,
                                                                      qtbot: object) -> None:
    """Typing "500" into Hero pts (0-99) applies "5" and "50" on the way; leaving the field
    takes them back with the refused "500", and leaves nothing to redo."""
    demo.select("brannoc")
    before, steps = demo.encounter.token("brannoc").combatant.hero_points, demo.history_index()
    edit = demo.type_into(qtbot, "hero_points", "500")
    form = demo.panel.form
    assert edit.text() == "500" and form.is_marked("hero_points")
    assert form.error.text() == "Hero pts must be 0–99"
    edit.editingFinished.emit()
    assert demo.encounter.token("brannoc").combatant.hero_points == before
    assert edit.text() == str(before) and form.error.text() == "Not applied: Hero pts must be 0–99"
    assert demo.history_index() == steps and not demo.document.history.can_redo
    demo.type_into(qtbot, "hero_points", "40")
    qtbot.keyClick(edit, Qt.Key.Key_Escape)  # type: ignore[attr-defined]
    assert demo.encounter.token("brannoc").combatant.hero_points == before
    assert edit.text() == str(before) and demo.history_index() == steps


def test_leaving_a_refused_field_restores_the_models_value(demo: Setup, qtbot: object
                                                          ) -> None:
    demo.select("brannoc")
    edit = demo.type_into(qtbot, "max_hp", "0")
    assert demo.panel.form.error.text() == "Max HP must be 1–9999"
    edit.editingFinished.emit()
    assert edit.text() == "42"
    assert demo.panel.form.error.text().startswith("Not applied: ")


def test_escape_in_a_refused_field_puts_the_models_value_back(demo: Setup, qtbot: object
                                                              ) -> None:
    demo.select("brannoc")
    steps = demo.document.history.index
    edit = demo.type_into(qtbot, "strength", "25")
    assert demo.panel.form.is_marked("strength")
    qtbot.keyClick(edit, Qt.Key.Key_Escape)  # type: ignore[attr-defined]
    assert edit.text() == "17" and demo.panel.form.error.text() == ""
    assert not demo.panel.form.is_marked("strength")
    assert demo.document.history.index == steps


def test_typing_several_digits_is_one_undo_step(demo: Setup, qtbot: object) -> None:
    demo.select("brannoc")
    steps = demo.document.history.index
    demo.type_into(qtbot, "hp", "35")  # "3" then "35": both valid, one step
    assert demo.encounter.token("brannoc").combatant.hp == 35
    assert demo.document.history.index == steps + 1
    assert demo.panel.list.rows["brannoc"].text(1) == "35/42"
    demo.type_into(qtbot, "hp", "30")  # same field session: still merged
    assert demo.document.history.index == steps + 1
    demo.panel.form.edits["hp"].editingFinished.emit()  # leaving the field ends the step
    demo.type_into(qtbot, "hp", "20")
    assert demo.document.history.index == steps + 2
    demo.document.undo()
    assert demo.encounter.token("brannoc").combatant.hp == 30
    demo.document.undo()
    assert demo.encounter.token("brannoc").combatant.hp == 42


def test_a_size_that_no_longer_fits_is_refused(demo: Setup) -> None:
    demo.select("orc")  # at (9, 5), right beside Brannoc at (10, 5)
    size = demo.panel.form.combos["size"]
    steps = demo.document.history.index
    size.setCurrentIndex(size.findData("large"))
    assert "does not fit where it stands as Large" in demo.panel.form.error.text()
    assert demo.panel.form.is_marked("size")
    assert demo.encounter.token("orc").combatant.size == "medium"
    assert demo.document.history.index == steps


def test_choices_and_ticks_apply_and_refresh_the_ratings(demo: Setup) -> None:
    demo.select("brannoc")
    form = demo.panel.form
    form.checks[Condition.DEFENSIVE_STANCE].setChecked(True)  # Mastery 1 joins FD
    assert demo.encounter.token("brannoc").combatant.has(Condition.DEFENSIVE_STANCE)
    assert demo.rating("fd") == "FD 19"
    assert demo.panel.list.rows["brannoc"].text(2) == "DS"
    armour = form.combos["armour"]
    armour.setCurrentIndex(armour.findData("leather"))
    assert demo.rating("av") == "AV 2"
    assert "Supple: No penalties" in demo.panel.ratings.specials.text()
    side = form.combos["side"]
    side.setCurrentIndex(side.findData("opposition"))
    groups = list(demo.panel.list.groups.values())
    assert [g.childCount() for g in groups] == [3, 5]
    assert demo.panel.list.rows["brannoc"].isSelected()
    assert demo.scene.tokens["brannoc"].isSelected()  # moving the row kept the selection
    assert demo.panel.form.token_id == "brannoc"


def test_a_rename_is_one_step_labelled_with_the_old_name(demo: Setup, qtbot: object) -> None:
    """A walk-through's Edit menu read "Undo Edit B: Name" after renaming Brannoc."""
    demo.select("brannoc")
    steps = demo.document.history.index
    demo.type_into(qtbot, "name", "Bob")
    assert demo.encounter.token("brannoc").combatant.name == "Bob"
    assert demo.document.history.index == steps + 1
    assert demo.document.history.labels()[-1] == "Edit Brannoc: Name"


def test_a_creature_below_0_hp_reads_down(demo: Setup, qtbot: object) -> None:
    """A walk-through saw the Kobold at -3/5 HP with an empty Cond. column and "Conditions:
    none" in its tips, while the timeline said it takes no action."""
    demo.select("kobold")
    demo.type_into(qtbot, "hp", "-3")
    row = demo.panel.list.rows["kobold"]
    assert row.text(2) == "Down"
    assert "Down (-3 HP): no action" in row.toolTip(0)
    assert "Down (-3 HP): no action" in demo.scene.tokens["kobold"].toolTip()
    demo.type_into(qtbot, "hp", "2")
    assert row.text(2) == "" and "no action" not in row.toolTip(0)


def wheel(widget: QWidget, notches: int) -> bool:
    """A mouse-wheel turn over ``widget``: whether the widget took it."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, widget.mapToGlobal(centre), QPoint(), QPoint(0, -120 * notches),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
    return event.isAccepted()


def test_the_wheel_changes_a_choice_only_once_it_has_focus(demo: Setup) -> None:
    """A GM's walk-through scrolled the editor and turned Plate Mail into a Suit Armor."""
    demo.select("brannoc")
    armour = demo.panel.form.combos["armour"]
    before = demo.encounter.token("brannoc").combatant.armour
    assert not wheel(armour, 1)  # passed on: the scroll area scrolls
    assert demo.encounter.token("brannoc").combatant.armour == before
    armour.setFocus()
    assert wheel(armour, 1)
    assert demo.encounter.token("brannoc").combatant.armour != before


def test_selecting_a_row_selects_the_token_and_back(demo: Setup) -> None:
    demo.select("mira")
    assert demo.scene.selectedItems() == [demo.scene.tokens["mira"]]
    assert demo.panel.form.edits["name"].text() == "Mira"
    demo.scene.clearSelection()
    demo.scene.tokens["ogre"].setSelected(True)
    assert demo.panel.list.selected_ids() == ["ogre"]
    assert demo.panel.form.token_id == "ogre"
    assert demo.rating("shove_resist") == "Shove Resist 16"  # Large 4 + ½ HD 2 + STR 3 + FR 7
    demo.scene.tokens["kobold"].setSelected(True)
    assert sorted(demo.panel.list.selected_ids()) == ["kobold", "ogre"]
    assert demo.panel.form.token_id is None  # several: nothing to edit
    assert not demo.panel.form.edits["name"].isEnabled()
    assert demo.panel.form.edits["name"].text() == ""


def test_double_click_asks_to_centre_on_the_token(demo: Setup, qtbot: object) -> None:
    row = demo.panel.list.rows["giant"]
    with qtbot.waitSignal(demo.panel.centre_requested) as blocker:  # type: ignore[attr-defined]
        demo.panel.list.itemDoubleClicked.emit(row, 0)
    assert blocker.args == ["giant"]


def test_add_then_remove(demo: Setup, qtbot: object) -> None:
    demo.panel.placement_hint = lambda: Cell(10, 5)  # Brannoc's cell: search outwards
    ogre = next(t for t in library_combatants() if t.name == "Ogre")
    demo.panel.add_combatant(ogre)
    token = demo.encounter.token("ogre-2")
    assert token.combatant.size == "large"
    assert demo.encounter.can_place(token.footprint, ignore=token.id)
    assert "ogre-2" in demo.scene.tokens
    assert demo.panel.list.groups[token.combatant.side].childCount() == 5
    assert demo.panel.list.selected_ids() == ["ogre-2"]
    assert demo.scene.tokens["ogre-2"].isSelected()
    qtbot.mouseClick(demo.panel.remove_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert all(t.id != "ogre-2" for t in demo.encounter.tokens)
    assert "ogre-2" not in demo.panel.list.rows
    assert "ogre-2" not in demo.scene.tokens
    assert demo.panel.form.token_id is None
    demo.document.undo()
    assert "ogre-2" in demo.panel.list.rows


def test_the_library_and_keep_buttons_ask_the_window(demo: Setup, qtbot: object) -> None:
    with qtbot.waitSignal(demo.panel.library_requested):  # type: ignore[attr-defined]
        demo.panel.add_button.click()
    assert not demo.panel.keep_button.isEnabled()
    demo.selection.set({"giant"})
    with qtbot.waitSignal(demo.panel.keep_requested) as blocker:  # type: ignore[attr-defined]
        demo.panel.keep_button.click()
    assert blocker.args == ["giant"]


def test_new_combatant_is_added_and_editable(demo: Setup, qtbot: object) -> None:
    qtbot.mouseClick(demo.panel.new_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert demo.panel.form.token_id == "new-combatant"
    demo.type_into(qtbot, "name", "Bandit")
    assert demo.encounter.token("new-combatant").name == "Bandit"
    assert demo.panel.list.rows["new-combatant"].text(0) == "Bandit"


def test_library_templates_are_valid_and_varied() -> None:
    templates = library_combatants()
    assert len(templates) >= 10
    assert {"large", "huge", "gargantuan", "small"} <= {t.size.value for t in templates}
    assert {t.side.value for t in templates} == {"party", "opposition"}


def test_free_spot_searches_outward_from_the_hint() -> None:
    enc = Encounter(map=BattleMap(width=6, height=6), tokens=[
        Token(id="a", combatant=Combatant(name="A"), x=2, y=2)])
    assert enc.free_spot(1, Cell(2, 2)) in {Cell(x, y) for x in (1, 2, 3) for y in (1, 2, 3)}
    assert enc.free_spot(1, Cell(4, 4)) == Cell(4, 4)
    assert enc.free_spot(6, Cell(0, 0)) is None


def test_a_change_updates_only_its_row_among_hundreds(build: Build) -> None:
    tokens = [Token(id=f"t{i}", combatant=Combatant(name=f"Goblin {i}",
                                                      side="opposition" if i % 2 else "party"),
                    x=i % 25, y=i // 25) for i in range(500)]
    setup = build(Encounter(map=BattleMap(width=25, height=25), tokens=tokens))
    rows = dict(setup.panel.list.rows)
    hurt = setup.encounter.token("t7").combatant.model_copy(update={"hp": 3})
    setup.document.push(UpdateCombatant("t7", hurt))
    assert setup.panel.list.rows == rows  # the same items: nothing was rebuilt
    assert all(setup.panel.list.rows[k] is item for k, item in rows.items())
    assert setup.panel.list.rows["t7"].text(1) == "3/8"


def test_opening_another_encounter_rebuilds_the_list(demo: Setup) -> None:
    demo.select("mira")
    other = Encounter(map=BattleMap(width=5, height=5), tokens=[
        Token(id="x", combatant=Combatant(name="X"), x=0, y=0)])
    demo.document.replace(other, None)
    assert list(demo.panel.list.rows) == ["x"]
    assert demo.panel.form.token_id is None


def test_remove_takes_every_selected_combatant_in_one_step(demo: Setup) -> None:
    demo.select("kobold")
    demo.panel.list.rows["orc"].setSelected(True)
    assert demo.panel.editing.text() == "2 combatants selected: select one to edit it"
    steps = demo.document.history.index
    demo.panel.remove_selected()
    assert {"kobold", "orc"}.isdisjoint(demo.panel.list.rows)
    assert demo.document.history.index == steps + 1
    demo.document.undo()
    assert {"kobold", "orc"} <= set(demo.panel.list.rows)


def test_a_token_hidden_from_the_players_says_so_in_the_list(demo: Setup) -> None:
    demo.document.push(SetGmOnly(("pip",), True))
    row = demo.panel.list.rows["pip"]
    assert row.text(0) == "Pip (hidden)" and "Hidden from the players" in row.toolTip(0)
    demo.document.undo()
    assert demo.panel.list.rows["pip"].text(0) == "Pip"


def test_condition_badges_are_short_and_none_reads_as_the_start_of_another() -> None:
    """'R' (Scarpering) beside 'Ri' (Rising), 'W' (Waking) beside the HP column's '2W':
    a GM could not tell them apart. Badges stay short for the map's tokens."""
    badges = [text for text, _colour in CONDITION_BADGES.values()]
    assert all(1 <= len(badge) <= 2 for badge in badges)
    assert not [(a, b) for a in badges for b in badges if a != b and b.startswith(a)]


def test_wound_points_read_as_wound_points_beside_hp(demo: Setup) -> None:
    brannoc = demo.encounter.token("brannoc").combatant
    demo.document.push(UpdateCombatant("brannoc", brannoc.model_copy(update={"wounds": 2})))
    assert demo.panel.list.rows["brannoc"].text(1) == "42/42 · 2 wp"


def _inputs(form: CombatantForm) -> list[QWidget]:
    return [*form.edits.values(), *form.combos.values(), *form.checks.values(),
            form.weapons, form.portrait.choose]


def _geometries(panel: QWidget) -> dict[int, tuple[int, int, int, int]]:
    return {id(widget): widget.geometry().getRect() for widget in panel.findChildren(QWidget)}


def _shown_with(demo: Setup, qtbot: object, token_id: str) -> TokenPanel:
    """The panel shown at a dock's size, editing ``token_id``."""
    panel = demo.panel
    panel.resize(380, 700)
    panel.show()
    qtbot.waitExposed(panel)  # type: ignore[attr-defined]
    demo.selection.set({token_id})
    qtbot.wait(1)  # type: ignore[attr-defined]
    return panel


def test_with_nothing_selected_the_form_stays_in_place_empty_and_disabled(
        demo: Setup, qtbot: object) -> None:
    """A click on a token fills the form where it stands: no page of a hundred widgets is
    shown (that laid out and painted the dock twice per click), no widget moves (an empty
    weapons button was taller, and the specials under the ratings shrank: each moved what
    was below and repainted the panel), and nothing stale is left in the fields when the
    selection goes."""
    panel = _shown_with(demo, qtbot, "brannoc")
    where = _geometries(panel)
    assert panel.editing.text() == "Editing Brannoc"
    assert all(widget.isEnabled() for widget in _inputs(panel.form))
    assert panel.form.edits["name"].text() == "Brannoc"
    demo.selection.set(set())
    assert panel.form.isVisible()
    assert not any(widget.isEnabled() for widget in _inputs(panel.form))
    assert panel.editing.text() == "Select a combatant in the list or on the map to edit it"
    assert {e.text() for e in panel.form.edits.values()} == {""}
    assert {c.currentIndex() for c in panel.form.combos.values()} == {-1}
    assert not any(box.isChecked() for box in panel.form.checks.values())
    assert panel.form.portrait.thumbnail.text() == ""
    assert not panel.ratings.specials.text()
    qtbot.wait(1)  # type: ignore[attr-defined]
    assert _geometries(panel) == where
    demo.selection.set({"brannoc"})
    qtbot.wait(1)  # type: ignore[attr-defined]
    assert _geometries(panel) == where


class _LayoutRequests(QObject):
    """Counts the layout requests a widget receives."""

    def __init__(self, watched: QWidget) -> None:
        super().__init__()
        self.count = 0
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.count += event.type() == QEvent.Type.LayoutRequest
        return False


def test_clicking_from_token_to_token_lays_out_neither_the_form_nor_the_ratings(
        demo: Setup, qtbot: object) -> None:
    """Another token's values, weapons and armour specials only repaint what shows them: a
    button's new text (the weapons) laid out the whole form, and a label's (the specials)
    the splitter, the panel and the dock up to the window, on every click."""
    panel = _shown_with(demo, qtbot, "mira")
    form, ratings = _LayoutRequests(panel.form), _LayoutRequests(panel.ratings)
    demo.selection.set({"pip"})
    qtbot.wait(1)  # type: ignore[attr-defined]
    assert panel.form.weapons.listed == "Dagger, Flask of oil"
    assert panel.ratings.specials.text() == "• Slippery: +2 to Escape rolls"
    assert (form.count, ratings.count) == (0, 0)
    demo.selection.set({"brannoc"})  # two lines of specials: there the ratings make room
    qtbot.waitUntil(lambda: ratings.count > 0)  # type: ignore[attr-defined]


def test_the_armour_specials_stay_in_sight_in_a_short_panel(demo: Setup, qtbot: object) -> None:
    """The ratings tree shrinks (it scrolls) so the specials under it are read whole."""
    panel = demo.panel
    panel.resize(380, 600)
    panel.show()
    qtbot.waitExposed(panel)  # type: ignore[attr-defined]
    demo.selection.set({"brannoc"})
    specials = panel.ratings.specials
    qtbot.waitUntil(lambda: specials.height() > 0)  # type: ignore[attr-defined]
    assert specials.text()
    assert specials.visibleRegion().boundingRect().height() == specials.height()


def test_ability_scores_take_what_the_encounter_s_ability_table_allows(
        qtbot: object, demo: Setup) -> None:
    """Issue 36.7: STR 19+ where the profile extends the table; 3-18 where it does not, and
    the field's tip says which."""
    from core.actions.commands import SetProfile
    from core.model.profile import CLASSIC_ABILITY_TABLE, AbilityBand

    demo.select("brannoc")
    demo.type_into(qtbot, "strength", "19")
    assert demo.encounter.token("brannoc").combatant.abilities.strength != 19
    assert "STR must be 3–18" in demo.panel.form.error.text()
    assert "(3 to 18;" in demo.panel.form.edits["strength"].toolTip()
    demo.panel.form.edits["strength"].setText("")
    extended = (*CLASSIC_ABILITY_TABLE, AbilityBand(low=19, high=25, modifier=4))
    assert demo.document.push(SetProfile(demo.encounter.profile.model_copy(
        update={"ability_table": extended})))
    assert demo.selection.ids == {"brannoc"}  # new rules redraw the map, not the selection
    assert "(3 to 25;" in demo.panel.form.edits["strength"].toolTip()
    demo.type_into(qtbot, "strength", "21")
    demo.panel.form.edits["strength"].editingFinished.emit()
    assert demo.encounter.token("brannoc").combatant.abilities.strength == 21
