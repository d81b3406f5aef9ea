"""The surprise check as a core action (002 "Surprise"): every party character's Spot
save, logged with the free attacks each failure gives the ambushers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.surprise import SpotSave, alertness_level, spot_saves, surprise_log


@dataclass(frozen=True)
class SurpriseAction(Action[tuple[SpotSave, ...]]):
    """Spot saves against an ambush, at a state of alert and the ambushers' stealth."""

    alertness: str
    stealth_bonus: int = 0
    moved_ft: float = 0

    name = "surprise"
    dice_order = "a d20 Spot save for each party member, in token order"

    def title(self, encounter: Encounter) -> str:
        return "Surprise: Spot saves"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> tuple[SpotSave, ...]:
        return tuple(spot_saves(encounter, self.alertness, self.stealth_bonus, dice,
                                self.moved_ft))

    def effects(self, encounter: Encounter, result: tuple[SpotSave, ...]) -> list[Command]:
        return []

    def entries(self, encounter: Encounter, result: tuple[SpotSave, ...]) -> list[LogEntry]:
        level = alertness_level(encounter.profile, self.alertness)
        entry = surprise_log(list(result), level.name, self.stealth_bonus, self.moved_ft)
        return [entry.model_copy(update={"round": round_of(encounter)})]

    def totals(self, result: tuple[SpotSave, ...]) -> dict[str, Any]:
        return {"summary": surprise_log(list(result), self.alertness,
                                        self.stealth_bonus).summary,
                "saves": {s.token_id: {"total": s.total.value, "target": s.target,
                                       "failure_level": s.failure_level,
                                       "free_attacks": [a.segment for a in s.attacks],
                                       "lost_attacks": len(s.free_attacks) - len(s.attacks)}
                          for s in result}}
