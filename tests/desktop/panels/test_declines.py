"""The Resolve panel's offer to decline a critical event: declining replaces the last step by
the same dice with the event declined; when the encounter refuses the replacement, the roll
stands as it was and the GM is told why."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytestqt.qtbot import QtBot

from core.actions.base import plan
from core.actions.commands import Command, MoveToken
from core.actions.critical import CriticalEventAction
from core.io.fileio import load_encounter
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.rules.critical import CriticalResult
from desktop.document.document import EncounterDocument
from desktop.panels.declines import DeclineBox
from desktop.qt import QPushButton, Qt

DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


@dataclass(frozen=True)
class OffTheMapWhenDeclined(CriticalEventAction):
    """A critical event whose declined form puts the party token off the map, which the
    encounter refuses."""

    def effects(self, encounter: Encounter, result: CriticalResult) -> list[Command]:
        if self.declined:
            return [MoveToken(self.party, Cell(-5, -5))]
        return super().effects(encounter, result)


def test_a_refused_decline_keeps_the_roll_and_says_why(qtbot: QtBot) -> None:
    """002 Critical events 2 'Shield damaged' for Brannoc; declining it is refused: the
    shield stays damaged, the step is still done (the same labels, nothing to redo), the
    offer stays and the box says why."""
    document = EncounterDocument(load_encounter(DEMO))
    box = DeclineBox(document)
    qtbot.addWidget(box)
    outcome = plan(OffTheMapWhenDeclined("brannoc", "orc"), document.encounter,
                   ScriptedDice([2, 1]))
    assert document.perform(outcome)
    box.offer(outcome)
    steps, log = document.history.labels(), list(document.encounter.log)
    refusals: list[str] = []
    document.refused.connect(refusals.append)
    decline = next(b for b in box.findChildren(QPushButton) if b.text() == "Decline")
    qtbot.mouseClick(decline, Qt.MouseButton.LeftButton)
    assert refusals and "cannot stand at" in refusals[0]
    assert document.encounter.token("brannoc").combatant.shield_damage == 1
    assert document.history.labels() == steps and not document.history.can_redo
    assert document.history.is_done(outcome.command)
    assert list(document.encounter.log) == log
    assert box.offered == (outcome, document.history.index)
    assert "cannot stand at" in box.message.text()
    assert "stands" in box.message.text()
