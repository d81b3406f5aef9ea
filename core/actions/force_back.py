"""Forcing back as a core action (002 "Forcing opponents back"): resolved by
:func:`core.rules.force_back.resolve_force_back`; applied as the defender's (and a following
attacker's) move, a hazard's damage, or the attacker's lowered guard — one undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict, lower_guard
from core.actions.base import Action, round_of
from core.actions.commands import Command, PlaceTokens
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.grid import Cell
from core.rules.force_back import ForceBackRequest, ForceBackResult, resolve_force_back
from core.rules.manoeuvre_report import format_force_back


@dataclass(frozen=True)
class ForceBackAction(Action[ForceBackResult]):
    """One token tries to force another back."""

    request: ForceBackRequest

    name = "force-back"
    dice_order = ("the attacker's d20; the Pit-Stop d20 and the hazard's dice when the walk "
                  "reaches a hazard")

    def title(self, encounter: Encounter) -> str:
        request = self.request
        return (f"{encounter.token(request.attacker).name} forces "
                f"{encounter.token(request.defender).name} back")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.attacker, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> ForceBackResult:
        return resolve_force_back(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: ForceBackResult) -> list[Command]:
        moves: dict[str, Cell] = {}
        if result.final_cell != encounter.token(result.defender_id).cell:
            moves[result.defender_id] = result.final_cell
        if result.attacker_cell is not None:
            moves[result.attacker_id] = result.attacker_cell
        commands = spend_action(encounter, result.attacker_id)
        if moves:
            commands.append(PlaceTokens(moves, "Forced back"))
        commands += afflict(encounter, result.defender_id, "Forced back", damage=result.damage)
        if result.ac_penalty is not None:
            commands.append(lower_guard(result.ac_penalty))
        return commands

    def entries(self, encounter: Encounter, result: ForceBackResult) -> list[LogEntry]:
        return [LogEntry(kind="force-back", summary=result.summary(),
                         text=format_force_back(result), detail=result.model_dump(mode="json"),
                         round=round_of(encounter))]

    def totals(self, result: ForceBackResult) -> dict[str, Any]:
        return {
            "summary": result.summary(), "attack_total": result.attack.value,
            "target_number": result.target.value, "margin": result.margin,
            "distance_ft": result.distance_ft, "moved_ft": result.moved_ft,
            "final_cell": list(result.final_cell),
            "attacker_cell": list(result.attacker_cell) if result.attacker_cell else None,
            "stopped_by": result.stopped_by, "slam": False,
            "ac_penalty": result.ac_penalty.value if result.ac_penalty else 0,
            "damage": {"hazard": result.damage, "total": result.damage},
        }
