"""Declarations for the round as a core action (002 "Multiple Attacks", "Not attacking";
rules-decisions "One action each"): how many attacks a creature makes this round, or that
it stands to defend — on its initiative entry, one undo step, logged. No dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.round import EditRound
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import RoundState
from core.rules.turns import Declaration, declare


@dataclass(frozen=True)
class DeclareAction(Action[Declaration]):
    """``token`` declares ``attacks`` attacks this round, or standing to defend."""

    token: str
    attacks: int = 1
    defend: bool = False

    name = "declare"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        return f"{encounter.token(self.token).name} declares"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.token})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> Declaration:
        return declare(encounter, self.token, self.attacks, self.defend)

    def effects(self, encounter: Encounter, result: Declaration) -> list[Command]:
        def declared(state: RoundState) -> RoundState:
            entry = state.entry(result.token_id)
            state.replace_entry(entry.model_copy(update={
                "extra_attacks": result.attacks - 1, "stands_to_defend": result.defend}))
            return state

        return [EditRound(declared, "Declaration", frozenset({result.token_id}))]

    def entries(self, encounter: Encounter, result: Declaration) -> list[LogEntry]:
        return [LogEntry(kind="declare", summary=result.summary(), round=round_of(encounter),
                         detail=result.model_dump(mode="json"))]

    def totals(self, result: Declaration) -> dict[str, Any]:
        return {"summary": result.summary(), "attacks": result.attacks,
                "defend": result.defend, "penalty": result.penalty}
