"""The shove as a core action (000 "Force Rating", "The Pit-Stop Rule"; rules-decisions
"Shove"): resolved by :func:`core.rules.shove.resolve_shove`, applied as the defender's
move, damage and Prone, logged with every roll."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command, MoveToken
from core.actions.turns import spend_action
from core.model.combatant import Condition
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.report import format_shove
from core.rules.shove import ShoveRequest, ShoveResult, resolve_shove


@dataclass(frozen=True)
class ShoveAction(Action[ShoveResult]):
    """One token shoves another."""

    request: ShoveRequest

    name = "shove"
    dice_order = ("attack d20; the shove die (standard success only); the Pit-Stop d20 (when "
                  "a hazard is reached); the hazard's damage dice and its own save d20; "
                  "falling damage dice; slam damage dice")

    def title(self, encounter: Encounter) -> str:
        request = self.request
        way = f" {request.direction}" if request.direction else ""
        return (f"{encounter.token(request.attacker).name} shoves "
                f"{encounter.token(request.defender).name}{way}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.attacker, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> ShoveResult:
        return resolve_shove(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: ShoveResult) -> list[Command]:
        defender = encounter.token(self.request.defender)
        moves = spend_action(encounter, encounter.token(self.request.attacker).id)
        if result.final_cell != defender.cell:
            moves.append(MoveToken(defender.id, result.final_cell))
        prone = frozenset({Condition.PRONE}) if result.prone else frozenset()
        return moves + afflict(encounter, defender.id, "Shoved", damage=result.total_damage,
                               gained=prone)

    def entries(self, encounter: Encounter, result: ShoveResult) -> list[LogEntry]:
        return [LogEntry(kind="shove", summary=result.summary(), text=format_shove(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: ShoveResult) -> dict[str, Any]:
        hazard = result.hazard.damage.value if result.hazard else 0
        return {
            "summary": result.summary(), "attack_total": result.attack.value,
            "target_number": result.target_fd.value, "margin": result.margin,
            "level": result.level.value, "forceful_defense": result.forceful_defense,
            "distance_ft": result.distance_ft, "moved_ft": result.moved_ft,
            "cells_moved": max(len(result.path) - 1, 0)
            + (1 if result.hazard and not result.hazard.saved else 0),
            "final_cell": list(result.final_cell), "prone": result.prone,
            "damage": {"slam_per_hit": [b.value for b in result.slam_damage],
                       "hazard": hazard, "total": result.total_damage},
        }
