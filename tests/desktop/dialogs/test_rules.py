"""The Rules dialog: every profile field with its source, bad values refused with the field
named, and new rules applied as one undoable step."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.actions.commands import SetProfile
from core.model.profile import AbilityBand, DiagonalRule, RulesProfile
from core.model.profile_docs import FIELD_DOCS
from desktop.dialogs.rules import RulesDialog
from desktop.mainwindow import MainWindow
from desktop.qt import QCheckBox, QFormLayout, QLabel, QLineEdit, QSpinBox, Qt, QTextDocument


def test_the_rules_dialog_shows_every_field_with_its_source_and_round_trips(
        window: MainWindow) -> None:
    """Issue 14: "a Rules settings dialog that shows every profile field with its default
    and the seed sentence it comes from"; what it shows comes back unchanged."""
    profile = window.document.encounter.profile
    dialog = RulesDialog(profile, window)
    assert set(dialog.editors) == set(RulesProfile.model_fields) == set(FIELD_DOCS)
    assert "Forceful Defense" in dialog.editors["double_success_prone"].toolTip()
    dialog.accept_if_valid()
    assert dialog.result_profile == profile
    changed = RulesProfile(double_success_margin=8, falls_ignore_av=True,
                           diagonal_rule=DiagonalRule.FIVE, ability_table=(
                               AbilityBand(low=1, high=30, modifier=0),))
    dialog.show_profile(changed)
    dialog.accept_if_valid()
    assert dialog.result_profile == changed


def test_every_rules_label_shows_its_words_not_its_markup(window: MainWindow) -> None:
    """'Fumble save die (roll < level saves)': the "<" made Qt guess plain text, and the
    GM read the label's HTML. Every label on every tab reads as its words and default."""
    dialog = RulesDialog(RulesProfile(), window)
    for name, editor in dialog.editors.items():
        form = editor.parentWidget().layout()
        assert isinstance(form, QFormLayout)
        label = form.labelForField(editor)
        assert isinstance(label, QLabel)
        assert label.textFormat() == Qt.TextFormat.RichText, name
        shown = QTextDocument()
        shown.setHtml(label.text())
        assert shown.toPlainText().split("\n")[0] == FIELD_DOCS[name].label, name
        assert shown.toPlainText().split("\n")[1].startswith("default "), name


def test_the_rules_dialog_refuses_bad_values_and_stays_open(window: MainWindow) -> None:
    dialog = RulesDialog(window.document.encounter.profile, window)
    editor = dialog.editors["die_chain_cap"]
    assert isinstance(editor, QLineEdit)
    editor.setText("3d7")
    dialog.accept_if_valid()
    assert dialog.result_profile is None
    assert dialog.error.text() == ("Largest shove die (Shove tab): '3d7' is not in "
                                   "'Shove die chain'")
    table = dialog.editors["alertness"]
    assert isinstance(table, QLineEdit)
    table.setText("[{oops")
    dialog.accept_if_valid()
    assert dialog.error.text().startswith("States of alert (Surprise tab): not a valid table")


def test_a_rules_error_names_the_label_opens_its_tab_and_marks_the_field(
        window: MainWindow) -> None:
    """'attack_die: 'abc' is not dice' shown over the Shove tab named a field the GM cannot
    see; the message says the label and tab, the tab opens, the field is marked."""
    dialog = RulesDialog(RulesProfile(), window)
    dialog.tabs.setCurrentIndex(0)
    dice = dialog.editors["attack_die"]
    assert isinstance(dice, QLineEdit)
    dice.setText("abc")
    dialog.accept_if_valid()
    text = dialog.error.text()
    assert text.startswith("Attack roll dice (attacks and missiles) (Injury options tab): ")
    assert "attack_die" not in text
    assert dialog.tabs.tabText(dialog.tabs.currentIndex()) == "Injury options"
    assert dice.styleSheet() and not dialog.editors["die_chain_cap"].styleSheet()
    dice.setText("2d8")
    dialog.accept_if_valid()
    assert dialog.result_profile is not None and not dice.styleSheet()


def test_rules_spin_boxes_offer_only_the_models_range(window: MainWindow) -> None:
    dialog = RulesDialog(RulesProfile(), window)
    wounds = dialog.editors["wound_every_points"]
    assert isinstance(wounds, QSpinBox)
    wounds.setValue(0)  # what typing 0 comes to: the box holds its lowest, 1
    assert (wounds.minimum(), wounds.value()) == (1, 1)
    for name, editor in dialog.editors.items():
        if isinstance(editor, QSpinBox):
            meta = RulesProfile.model_fields[name].metadata
            assert editor.minimum() == next(m.ge for m in meta if hasattr(m, "ge")), name
            assert editor.maximum() == next(m.le for m in meta if hasattr(m, "le")), name


def test_clicking_a_checkbox_fields_label_ticks_it(qtbot: QtBot, window: MainWindow) -> None:
    dialog = RulesDialog(RulesProfile(), window)
    box = dialog.editors["wounds"]
    assert isinstance(box, QCheckBox)
    label = box.parentWidget().layout().labelForField(box)
    was = box.isChecked()
    qtbot.mouseClick(label, Qt.MouseButton.LeftButton)
    assert box.isChecked() is not was


def test_new_rules_apply_as_one_step_and_a_table_that_excludes_a_combatant_is_refused(
        window: MainWindow, answer_dialogs: list[str]) -> None:
    document = window.document
    assert document.push(SetProfile(RulesProfile(double_success_margin=8)))
    assert document.encounter.profile.double_success_margin == 8
    narrow = RulesProfile(ability_table=(AbilityBand(low=3, high=15, modifier=0),))
    assert not document.push(SetProfile(narrow))
    assert "strength 17 is outside the ability table (3-15)" in answer_dialogs[-1]
    document.undo()
    assert document.encounter.profile == RulesProfile()
