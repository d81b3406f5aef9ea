"""Recovering a weapon or shield out of hand as a core action (002 "Critical events" 3, 5-7):
the creature's action this round, one undo step, logged. No dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import ChangeCombatant, Command
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.recover import Recovery, recover


@dataclass(frozen=True)
class RecoverAction(Action[Recovery]):
    """``token`` takes back ``item`` (its first one out of hand when None)."""

    token: str
    item: str | None = None

    name = "recover"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        return f"{encounter.token(self.token).name} recovers"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.token})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> Recovery:
        return recover(encounter, self.token, self.item)

    def effects(self, encounter: Encounter, result: Recovery) -> list[Command]:
        back = result.item
        return [*spend_action(encounter, result.token_id), ChangeCombatant(
            result.token_id, lambda c: c.model_copy(update={
                "out_of_hand": tuple(o for o in c.out_of_hand if o != back)}), "Recover")]

    def entries(self, encounter: Encounter, result: Recovery) -> list[LogEntry]:
        return [LogEntry(kind="recover", summary=result.summary(), round=round_of(encounter),
                         detail=result.model_dump(mode="json"))]

    def totals(self, result: Recovery) -> dict[str, Any]:
        return {"summary": result.summary(), "item": result.label}
