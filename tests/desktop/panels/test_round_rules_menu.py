"""Issue 37's rest in the window, on the demo encounter: the surprise free attacks scheduled
on the round and a shield cancelling them, spoiling's perception roll and concentration, and
an overrun by a pack — each reached from a token's menu and resolved in the Resolve panel."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.actions.base import plan
from core.actions.commands import MoveToken
from core.actions.round import StartRound
from core.actions.surprise import SurpriseAction
from core.model.combatant import Side
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.model.round import InitiativeEntry, RoundState, WatchKind
from desktop.mainwindow import MainWindow
from desktop.panels.context_menus import TokenMenu
from desktop.panels.timeline_chips import Chip
from desktop.qt import QMenu


def submenu(window: MainWindow, token_id: str, title: str) -> QMenu:
    menu = TokenMenu(window.document, token_id, [], window)
    window.token_menu = menu  # kept alive while the test triggers its entries
    return next(a.menu() for a in menu.actions() if a.text() == title)


def texts(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if a.text()]


def test_the_orcs_surprise_attack_and_brannocs_shield(qtbot: QtBot,
                                                       window: MainWindow) -> None:
    """Mira (stepped next to the orc) fails her Spot save by 8 (Dreadful): the Orc Warrior's
    three free attacks at segments 1-3. Brannoc (segment 2) attacks the orc first: the one at
    segment 3 is cancelled, and both menus and the orc's chip say so."""
    document = window.document
    assert document.push(MoveToken("mira", Cell(8, 5)))
    assert document.perform(plan(SurpriseAction("Normal travel", 0, 0, (("Mira", "orc"),)),
                                 document.encounter, ScriptedDice([20, 6, 20, 20])))
    assert document.push(StartRound(document.encounter.timeline.model_copy(update={
        "round_number": 1, "entries": [
            InitiativeEntry(token_id="brannoc", segment=2),
            InitiativeEntry(token_id="mira", segment=9),
            InitiativeEntry(token_id="orc", side=Side.OPPOSITION, segment=1)]})))
    orc_menu = submenu(window, "orc", "Surprise attacks")
    assert texts(orc_menu)[0] == ("Surprise attack on Mira (#1, segment 1: +6 to hit, +3 "
                                  "damage)")
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    orc_menu.actions()[0].trigger()
    assert panel.weapon.free.isChecked() and not panel.weapon.free.isEnabled()
    for value in (1,):  # a miss
        panel.die_fields[-1].setText(str(value))
    panel.resolve()
    assert document.encounter.log[-1].kind == "attack"
    # Brannoc engages the orc at segment 2
    from core.actions.attack import AttackAction

    panel.begin(AttackAction("brannoc", "orc"))
    panel.die_fields[-1].setText("2")
    panel.resolve()
    assert document.encounter.log[-1].kind == "shield"
    assert document.encounter.log[-1].summary == ("Brannoc engages Orc Warrior at segment 2: "
                                                  "1 free attack(s) cancelled")
    lines = texts(submenu(window, "mira", "Surprise attacks"))
    assert lines[-1] == ("Surprise attack #3 by Orc Warrior on Mira, segment 3: cancelled: "
                         "Brannoc engaged at segment 2")
    chip = next(c for column in window.timeline_panel.columns
                for c in column.findChildren(Chip) if c.token_id == "orc" and not c.isHidden())
    assert "Surprise attack #3 by Orc Warrior on Mira, segment 3: cancelled" in chip.toolTip()


def test_perception_and_concentration_from_the_menu(qtbot: QtBot, window: MainWindow) -> None:
    """The orc casts for 4 segments from 3; at segment 5 Brannoc notices it on d20 ≥ 10."""
    document = window.document
    assert document.push(StartRound(RoundState(round_number=1, current_segment=5, entries=[
        InitiativeEntry(token_id="brannoc", segment=8),
        InitiativeEntry(token_id="orc", side=Side.OPPOSITION, segment=3, action_segments=4),
        InitiativeEntry(token_id="kobold", side=Side.OPPOSITION, segment=3)])))
    menu = submenu(window, "brannoc", "Long actions")
    lines = texts(menu)
    assert lines[0] == ("Notice Orc Warrior's long action: perception 55% (002 Spoiling "
                        "attacks)")
    assert "Concentrate on Orc Warrior (waiting for it to start something)" in lines
    panel = window.resolve_panel
    panel.typed_mode.setChecked(True)
    menu.actions()[0].trigger()
    panel.die_fields[-1].setText("10")
    panel.resolve()
    assert document.encounter.log[-1].summary.startswith(
        "Brannoc watches Orc Warrior's long action: 10 vs 10 — notices it")
    next(a for a in submenu(window, "brannoc", "Long actions").actions()
         if a.text().startswith("Concentrate on Kobold")).trigger()
    assert [(w.target, w.kind) for w in document.encounter.timeline.watches] == [
        ("orc", WatchKind.NOTICED), ("kobold", WatchKind.CONCENTRATING)]
    assert "Concentrating on Kobold" in texts(submenu(window, "brannoc", "Long actions"))
    document.undo()
    assert len(document.encounter.timeline.watches) == 1


def test_a_pack_overruns_the_kobold_from_the_manoeuvres_menu(qtbot: QtBot,
                                                             window: MainWindow) -> None:
    """Mira steps next to the kobold, across from Pip: the Manoeuvres tool offers their
    overrun together (002 Overruns: 'the mass of half the group'); a 1 knocks it Prone. Pip
    pours through, past Mira, to (7,4); the brazier's fire beyond Pip's place stops Mira,
    who stays in contact."""
    document = window.document
    assert document.push(MoveToken("mira", Cell(6, 4)))
    tool = window.tools["manoeuvre"]
    entries = dict(tool.token_entries("pip"))
    text = next(t for t in entries if t.startswith("Overrun Kobold with the pack (2)"))
    entries[text]()
    panel = window.resolve_panel
    assert panel.title.text().startswith("<b>Pip, Mira overrun Kobold together</b>")
    assert "the mass of half the group" in panel.card.text()
    panel.typed_mode.setChecked(True)
    panel.die_fields[-1].setText("1")
    panel.resolve()
    encounter = document.encounter
    assert encounter.log[-1].summary.endswith("Kobold is knocked Prone; Mira cannot get past")
    assert (encounter.token("pip").cell, encounter.token("mira").cell) == (Cell(7, 4),
                                                                           Cell(6, 4))
    document.undo()
    assert encounter.token("pip").cell == Cell(4, 4)
