"""Overruns as a core action (002 "Overruns"): resolved by
:func:`core.rules.overrun.resolve_overrun`; applied as the mover's walk (recorded as this
round's movement) and the defender's fall — one undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command, MoveToken
from core.actions.round import RecordMovement
from core.actions.turns import spend_action
from core.model.combatant import Condition
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.manoeuvre_report import format_overrun
from core.rules.overrun import OverrunRequest, OverrunResult, resolve_overrun


@dataclass(frozen=True)
class OverrunAction(Action[OverrunResult]):
    """A token charges through an enemy."""

    request: OverrunRequest

    name = "overrun"
    dice_order = "the defender's d20 (to stay standing); none when a knee-high mover swarms past"

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.request.mover).name} overruns "
                f"{encounter.token(self.request.defender).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.mover, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> OverrunResult:
        return resolve_overrun(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: OverrunResult) -> list[Command]:
        # Swarming past is movement, not the mover's action (RD "Group overrun").
        commands = [] if result.swarmed else spend_action(encounter, result.mover_id)
        if result.final_cell != encounter.token(result.mover_id).cell:
            commands += [MoveToken(result.mover_id, result.final_cell),
                         RecordMovement(result.mover_id, result.moved_ft, result.path)]
        if not result.stands:
            commands += afflict(encounter, result.defender_id, "Overrun",
                                gained=frozenset({Condition.PRONE}))
        return commands

    def entries(self, encounter: Encounter, result: OverrunResult) -> list[LogEntry]:
        return [LogEntry(kind="overrun", summary=result.summary(), text=format_overrun(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: OverrunResult) -> dict[str, Any]:
        return {"summary": result.summary(), "run_ft": result.run_ft,
                "stand_total": result.stand.value, "target_number": result.target.value,
                "stands": result.stands, "final_cell": list(result.final_cell),
                "moved_ft": result.moved_ft, "defender_prone": not result.stands}
