"""Rolling initiative as a core action (002 "Initiative", "Critical events"): the round's
initiative and a critical event for each character tied with the opposition, started and
acted out as one step."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.actions.base import Action
from core.actions.commands import Command
from core.actions.critical import critical_effects, critical_entry, critical_totals
from core.actions.round import NextRound, StartRound
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import RoundState
from core.rules.critical import CriticalResult, roll_critical_events
from core.rules.holds import locks_at_round_end
from core.rules.timeline import (
    RoundEnd,
    end_round,
    initiative_log,
    join_round,
    newcomers,
    roll_initiative,
)


@dataclass(frozen=True)
class RoundStart:
    """A rolled round: its initiative and the critical events its ties produced."""

    state: RoundState
    events: tuple[CriticalResult, ...]


@dataclass(frozen=True)
class InitiativeAction(Action[RoundStart]):
    """Roll initiative for everyone on the map; the critical events numbered in ``declined``
    (1 = the first rolled) are rolled and logged but not applied (the GM declined them)."""

    declined: frozenset[int] = frozenset()

    name = "initiative"
    dice_order = ("a d10 for each party member in token order, then one d10 for the whole "
                  "opposition; then, for each party member tied with the opposition, the "
                  "critical event's dice (d30, d3 side, the event's own dice)")

    def title(self, encounter: Encounter) -> str:
        return f"Round {max(encounter.timeline.round_number, 1)} initiative"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> RoundStart:
        state = roll_initiative(encounter, dice)
        return RoundStart(state, tuple(roll_critical_events(encounter, state, dice,
                                                            self.declined)))

    def effects(self, encounter: Encounter, result: RoundStart) -> list[Command]:
        commands: list[Command] = [StartRound(result.state)]
        for event in result.events:
            commands += critical_effects(encounter, event)
        return commands

    def entries(self, encounter: Encounter, result: RoundStart) -> list[LogEntry]:
        number = result.state.round_number
        return [initiative_log(result.state, encounter),
                *(critical_entry(event, number, tie_cause(encounter, result.state, event.pair))
                  for event in result.events)]

    def suggestions(self, result: RoundStart) -> tuple[tuple[int, str], ...]:
        return tuple((number, f"{event.summary}: {event.note}")
                     for number, event in enumerate(result.events, start=1) if event.acts)

    def declining(self, numbers: frozenset[int]) -> InitiativeAction:
        return replace(self, declined=self.declined | numbers)

    def totals(self, result: RoundStart) -> dict[str, Any]:
        return {"summary": f"Round {result.state.round_number} initiative",
                "round": result.state.round_number,
                "segments": {e.token_id: e.segment for e in result.state.entries},
                "critical_events": [critical_totals(e) for e in result.events]}


def tie_cause(encounter: Encounter, state: RoundState, pair: tuple[str, str]) -> str:
    """"Brannoc and Ogre tied at segment 3" (002: "when a character has the same initiative
    as the opposition")."""
    party, foe = (encounter.token(token_id).name for token_id in pair)
    return f"{party} and {foe} tied at segment {state.entry(pair[0]).segment}"


@dataclass(frozen=True)
class JoinRoundAction(Action[RoundState]):
    """Roll initiative for the creatures added to the map after the round's roll."""

    name = "join-round"
    dice_order = ("a d10 for each party newcomer in token order, then one d10 for the "
                  "opposition if the round had none")

    def title(self, encounter: Encounter) -> str:
        names = ", ".join(token.name for token in newcomers(encounter))
        return f"Round {encounter.timeline.round_number}: initiative for {names}"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> RoundState:
        return join_round(encounter, dice)

    def effects(self, encounter: Encounter, result: RoundState) -> list[Command]:
        return [StartRound(result)]

    def entries(self, encounter: Encounter, result: RoundState) -> list[LogEntry]:
        joined = {entry.token_id for entry in encounter.timeline.entries}
        lines = [f"{encounter.token(e.token_id).name}: {e.terms.describe()} → segment "
                 f"{e.segment}" for e in result.entries if e.token_id not in joined]
        return [LogEntry(kind="initiative", round=result.round_number,
                         summary=self.title(encounter),
                         text="\n".join(lines))]

    def totals(self, result: RoundState) -> dict[str, Any]:
        return {"summary": "Joined the round", "round": result.round_number,
                "segments": {e.token_id: e.segment for e in result.entries}}


@dataclass(frozen=True)
class NextRoundAction(Action[RoundEnd]):
    """End the round (:class:`core.actions.round.NextRound`): locks hurt (and force
    submission), timers tick, stun conditions step down, the risen stand. No dice; its log
    lines are the command's own."""

    name = "next-round"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        locks = "; ".join(lock.entry.summary for lock in locks_at_round_end(encounter))
        ended = f"Round {encounter.timeline.round_number} ends"
        return f"{ended}: {locks}" if locks else ended

    def resolve(self, encounter: Encounter, dice: DiceSource) -> RoundEnd:
        return end_round(encounter)

    def effects(self, encounter: Encounter, result: RoundEnd) -> list[Command]:
        return [NextRound()]

    def entries(self, encounter: Encounter, result: RoundEnd) -> list[LogEntry]:
        return []

    def totals(self, result: RoundEnd) -> dict[str, Any]:
        return {"summary": f"Round {result.state.round_number}",
                "round": result.state.round_number,
                "conditions": {token: sorted(c) for token, c in result.conditions.items()}}
