"""Morale as core actions (002 "Morale"): the check, resolved by
:func:`core.rules.morale.resolve_morale` and acted out on the map as one undo step — the
runners walk their retreat paths (the feet count towards the round) and scarper, the
panicked drop their weapons (kept in ``dropped_weapons``), the rest surrender or go
berserk, and the triggers it answers are marked on the round; and the GM passing a trigger
over without a check. Undo brings the triggers back to be offered again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command, PlaceTokens, UpdateCombatant
from core.actions.round import EditRound, RecordMovement
from core.model.combatant import Combatant, Side
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.limits import MAX_CARRIED_WEAPONS
from core.model.morale import MoraleTrigger
from core.model.round import RoundState
from core.rules.morale import (
    CreatureMorale,
    IllegalMoraleError,
    MoraleCheck,
    MoraleRequest,
    resolve_morale,
)
from core.rules.morale_report import format_morale


def _side_name(side: Side) -> str:
    return "Party" if side is Side.PARTY else "Opposition"


def mark_answered(triggers: tuple[MoraleTrigger, ...]) -> list[Command]:
    """The round's edit recording ``triggers`` as answered (none when there are none)."""
    if not triggers:
        return []
    return [EditRound(lambda state: _with_answered(state, triggers), "Morale triggers answered")]


def _with_answered(state: RoundState, triggers: tuple[MoraleTrigger, ...]) -> RoundState:
    known = state.morale_answered
    return state.model_copy(update={
        "morale_answered": known + [t for t in dict.fromkeys(triggers) if t not in known]})


@dataclass(frozen=True)
class MoraleAction(Action[MoraleCheck]):
    """A side checks its morale (answering the triggers named in the request)."""

    request: MoraleRequest

    name = "morale"
    dice_order = ("the morale dice (2d10): one roll for the side, read against each "
                  "creature's own score — or, with the profile's morale_roll 'creature', one "
                  "roll per creature in token order")

    def title(self, encounter: Encounter) -> str:
        return f"{_side_name(self.request.side)} morale check"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> MoraleCheck:
        return resolve_morale(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: MoraleCheck) -> list[Command]:
        runners = [c for c in result.creatures if len(c.path) > 1]
        commands: list[Command] = []
        if runners:
            commands.append(PlaceTokens({c.token_id: c.path[-1] for c in runners}, "Retreat"))
            commands += [RecordMovement(c.token_id, c.cost_ft, c.path) for c in runners]
        commands += [UpdateCombatant(c.token_id, _broken(encounter, c), f"Morale: {c.name}")
                     for c in result.creatures if c.condition is not None]
        return commands + mark_answered(result.triggers)

    def entries(self, encounter: Encounter, result: MoraleCheck) -> list[LogEntry]:
        return [LogEntry(kind="morale", summary=result.summary(), text=format_morale(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: MoraleCheck) -> dict[str, Any]:
        return {"summary": result.summary(), "side": result.side.value,
                "triggers": [t.key for t in result.triggers],
                "retreat_budget_ft": result.budget_ft,
                "creatures": {c.token_id: _creature_totals(c) for c in result.creatures}}


def _broken(encounter: Encounter, creature: CreatureMorale) -> Combatant:
    """The combatant after its failure: the result's condition, its weapons dropped."""
    before = encounter.token(creature.token_id).combatant
    assert creature.condition is not None
    update: dict[str, Any] = {"conditions": before.conditions | {creature.condition}}
    if creature.dropped:
        kept = tuple(dict.fromkeys((*before.dropped_weapons, *creature.dropped)))
        update |= {"weapons": (), "dropped_weapons": kept[-MAX_CARRIED_WEAPONS:]}
    return before.model_copy(update=update)


def _creature_totals(creature: CreatureMorale) -> dict[str, Any]:
    return {"score": creature.score.value, "roll": creature.roll.total,
            "failed_by": creature.failed_by, "level": creature.level,
            "result": creature.result.value if creature.result else None,
            "path": [list(c) for c in creature.path], "cost_ft": creature.cost_ft,
            "dropped": list(creature.dropped),
            "condition": creature.condition.value if creature.condition else None}


@dataclass(frozen=True)
class PassMoraleAction(Action[tuple[MoraleTrigger, ...]]):
    """The GM passes triggers over without a check (None: all those pending for the side):
    they are not offered again."""

    side: Side
    triggers: tuple[MoraleTrigger, ...] | None = None

    name = "morale-pass"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        return f"{_side_name(self.side)} morale: no check"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> tuple[MoraleTrigger, ...]:
        triggers = MoraleRequest(side=self.side, triggers=self.triggers).answering(encounter)
        if not triggers:
            raise IllegalMoraleError(f"no morale trigger of the {self.side.value} to pass over")
        return triggers

    def effects(self, encounter: Encounter, result: tuple[MoraleTrigger, ...]
                ) -> list[Command]:
        return mark_answered(result)

    def entries(self, encounter: Encounter, result: tuple[MoraleTrigger, ...]
                ) -> list[LogEntry]:
        what = "; ".join(t.describe() for t in result) or "nothing"
        return [LogEntry(kind="morale", summary=f"{self.title(encounter)} ({what})",
                         text="  The GM passed the morale triggers over (002 Morale)",
                         round=round_of(encounter))]

    def totals(self, result: tuple[MoraleTrigger, ...]) -> dict[str, Any]:
        return {"passed": [t.key for t in result]}

