"""Group overruns as a core action (002 "Overruns": "the mass of half the group is used";
rules-decisions "Group overrun"): resolved by
:func:`core.rules.group_overrun.resolve_group_overrun`; applied as each mover's action and
walk (recorded as this round's movement, lead first) and the defender's fall — one undo
step, one log entry."""

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
from core.rules.group_overrun import (
    GroupOverrunRequest,
    GroupOverrunResult,
    resolve_group_overrun,
)


@dataclass(frozen=True)
class GroupOverrunAction(Action[GroupOverrunResult]):
    """Several tokens charge through one enemy together."""

    request: GroupOverrunRequest

    name = "group-overrun"
    dice_order = ("the defender's d20 (to stay standing against the whole group); none when "
                  "a knee-high pack swarms past a braced defender")

    def title(self, encounter: Encounter) -> str:
        names = ", ".join(encounter.token(m).name for m in self.request.movers)
        return f"{names} overrun {encounter.token(self.request.defender).name} together"

    def tokens(self) -> frozenset[str]:
        return frozenset({*self.request.movers, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> GroupOverrunResult:
        return resolve_group_overrun(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: GroupOverrunResult) -> list[Command]:
        commands: list[Command] = []
        for way in result.ways:  # lead first: each walks onto a map the earlier ones left
            if not result.swarmed:  # swarming past is movement, not an action (RD)
                commands += spend_action(encounter, way.mover_id)
            if way.passes:
                commands += [MoveToken(way.mover_id, way.path[-1]),
                             RecordMovement(way.mover_id, way.moved_ft, way.path)]
        if not result.stands and not result.swarmed:
            commands += afflict(encounter, result.defender_id, "Group overrun",
                                gained=frozenset({Condition.PRONE}))
        return commands

    def entries(self, encounter: Encounter, result: GroupOverrunResult) -> list[LogEntry]:
        return [LogEntry(kind="overrun", summary=result.summary(), text=result.text(),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: GroupOverrunResult) -> dict[str, Any]:
        return {"summary": result.summary(), "movers": list(result.mover_ids),
                "run_ft": result.run_ft, "stand_total": result.stand.value,
                "target_number": result.target.value, "stands": result.stands,
                "swarmed": result.swarmed,
                "final_cells": {w.mover_id: list(w.path[-1]) for w in result.ways},
                "defender_prone": not result.stands and not result.swarmed}
