"""Waking a sleeper as a core action (002 "Sleep": "When waking characters from sleep to
fight it requires 1/2 round of shaking or a loud noise"): Asleep gives way to Waking, whose
timer then steps it through Rising and Defending to normal combat at the rounds' ends
(:func:`core.rules.sleep.wake_schedule`). A sleeper that takes damage wakes the same way
(:func:`core.actions.afflict.afflict`). One undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action
from core.actions.commands import Command
from core.actions.waking import wake_entry
from core.model.combatant import Condition
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.sleep import WakeStage, wake_schedule


@dataclass(frozen=True)
class WakeAction(Action[tuple[WakeStage, ...]]):
    """Wake a sleeping token."""

    target: str

    name = "wake"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        return f"Wake {encounter.token(self.target).name}"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> tuple[WakeStage, ...]:
        combatant = encounter.token(self.target).combatant
        return wake_schedule(combatant, encounter.profile, encounter.timeline.round_number)

    def effects(self, encounter: Encounter, result: tuple[WakeStage, ...]) -> list[Command]:
        return afflict(encounter, encounter.token(self.target).id, self.title(encounter),
                       gained=frozenset({Condition.WAKING}),
                       lost=frozenset({Condition.ASLEEP}))

    def entries(self, encounter: Encounter, result: tuple[WakeStage, ...]) -> list[LogEntry]:
        return [wake_entry(encounter, encounter.token(self.target).id, "is woken")]

    def totals(self, result: tuple[WakeStage, ...]) -> dict[str, Any]:
        return {"stages": {s.condition.value: [s.first, s.last] for s in result},
                "normal_from_round": result[-1].last + 1}

