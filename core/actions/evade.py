"""A move past enemies as a core action (002 "Evading"): resolved by
:func:`core.rules.evade.resolve_evade`; applied as the walk (recorded as this round's
movement) and the damage of the hit that stopped it — one undo step.

Why a separate action and not part of :class:`core.actions.move.MoveAction`: a plain move
rolls no dice (group moves, GM placements, the CLI's ``move``), while an evade rolls a check
per enemy passed and may stop short. The select tool hands a single token's drag during a
round to this action when the path asks for checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command, MoveToken
from core.actions.round import RecordMovement
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.evade import EvadeRequest, EvadeResult, resolve_evade
from core.rules.manoeuvre_report import format_evade


@dataclass(frozen=True)
class EvadeAction(Action[EvadeResult]):
    """One token moves past enemies, evading each."""

    request: EvadeRequest

    name = "evade"
    dice_order = ("a d20 for each enemy passed, in path order, until one fails; then that "
                  "enemy's weapon damage")

    def title(self, encounter: Encounter) -> str:
        return f"Move {encounter.token(self.request.mover).name} past its enemies"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.mover})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> EvadeResult:
        return resolve_evade(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: EvadeResult) -> list[Command]:
        commands: list[Command] = []
        if result.final_cell != encounter.token(result.mover_id).cell:
            commands += [MoveToken(result.mover_id, result.final_cell),
                         RecordMovement(result.mover_id, result.moved_ft, result.path)]
        if result.hit is not None:
            commands += afflict(encounter, result.mover_id, "Hit while evading",
                                damage=result.hit.damage.value)
        return commands

    def entries(self, encounter: Encounter, result: EvadeResult) -> list[LogEntry]:
        return [LogEntry(kind="evade", summary=result.summary(), text=format_evade(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: EvadeResult) -> dict[str, Any]:
        return {"summary": result.summary(), "final_cell": list(result.final_cell),
                "moved_ft": result.moved_ft,
                "checks": [{"enemy": r.check.enemy, "cell": list(r.check.cell),
                            "total": r.total.value, "target": r.check.target,
                            "passed": r.passed} for r in result.rolls],
                "damage": {"total": result.hit.damage.value if result.hit else 0}}
