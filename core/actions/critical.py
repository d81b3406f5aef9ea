"""Critical events as a core action (002 "Critical events"): the d30 for a tied pair,
acted out on the map — tokens moved together, knocked-down ones Prone — and logged."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.actions.afflict import afflict, restart_timers
from core.actions.base import Action, round_of
from core.actions.commands import ChangeCombatant, Command, PlaceTokens
from core.actions.round import EditRound
from core.model.combatant import Condition
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import MAX_ACTIONS, MAX_EXTRA_ATTACKS, RoundState
from core.rules.critical import CriticalResult, resolve_critical
from core.rules.critical_effects import ROUND_CHANGES, Change, ChangeKind, changed
from core.rules.timeline import timer_for
from core.rules.turns import entry_of


def critical_effects(encounter: Encounter, result: CriticalResult) -> list[Command]:
    """Moves first (all at once: a swap is one placement), then the knock-downs, then the
    changes to the creatures (worked out on each as the step finds it) and to the round."""
    moves: list[Command] = ([PlaceTokens(result.moves, result.event.name)]
                            if result.moves else [])
    prone = frozenset({Condition.PRONE})
    moves += [command for token_id in result.knocked_down
              for command in afflict(encounter, token_id, "Knocked down", gained=prone)]
    return moves + [command for change in result.changes
                    for command in _applied(encounter, change, result.event.name)]


def _applied(encounter: Encounter, change: Change, label: str) -> list[Command]:
    """The commands of one change: to the round's entry (outside a round there is none: the
    change lapses), or to the creature, with a condition's timer."""
    if change.kind in ROUND_CHANGES:
        return [] if entry_of(encounter, change.token_id) is None else [
            EditRound(lambda state: _on_entry(state, change), label,
                      frozenset({change.token_id}))]
    commands: list[Command] = [ChangeCombatant(change.token_id,
                                               lambda c: changed(c, change), label)]
    timer = (timer_for(change.token_id, change.condition, encounter.profile)
             if change.condition is not None else None)
    if timer is not None:
        commands.append(restart_timers([timer]))
    return commands


def _on_entry(state: RoundState, change: Change) -> RoundState:
    entry = state.entry(change.token_id)
    if change.kind is ChangeKind.EXTRA_STRIKE:
        update = {"bonus_strikes": min(entry.bonus_strikes + change.amount, MAX_EXTRA_ATTACKS)}
    else:
        update = {"actions_taken": min(entry.actions_taken + change.amount, MAX_ACTIONS)}
    state.replace_entry(entry.model_copy(update=update))
    return state


def critical_entry(result: CriticalResult, round_number: int | None, cause: str) -> LogEntry:
    """The event's log line; ``cause`` says why it happened (who tied, who fumbled) — a GM
    reading "Critical event 16: Lucky break" alone cannot tell whom it is about."""
    text = "\n".join([cause] + [r.describe() for r in result.rolls] + [result.note])
    return LogEntry(kind="critical", summary=f"{result.summary} — {cause}", text=text,
                    round=round_number,
                    detail={"event": result.event.number, "pair": list(result.pair),
                            "side": result.side.value if result.side else None})


def critical_totals(result: CriticalResult) -> dict[str, Any]:
    return {"event": result.event.number, "name": result.event.name,
            "side": result.side.value if result.side else None, "declined": result.declined,
            "changes": [change.model_dump(mode="json") for change in result.changes],
            "moves": {token: list(cell) for token, cell in result.moves.items()},
            "knocked_down": list(result.knocked_down), "note": result.note}


@dataclass(frozen=True)
class CriticalEventAction(Action[CriticalResult]):
    """A critical event for a party character and an opposition creature (``declined``: the
    GM turned its effect down: it is logged, not applied)."""

    party: str
    foe: str
    declined: bool = False

    name = "critical"
    dice_order = ("the d30 event; the d3 side (1 party, 2 opposition, 3 both) for events "
                  "that affect one character, party or mount; then the event's own dice "
                  "(battlefield shift: d8 direction, d2 × 5 ft)")

    def title(self, encounter: Encounter) -> str:
        return (f"Critical event: {encounter.token(self.party).name} and "
                f"{encounter.token(self.foe).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.party, self.foe})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> CriticalResult:
        pair = (encounter.token(self.party).id, encounter.token(self.foe).id)
        result = resolve_critical(encounter, pair, dice)
        return result.declined_copy() if self.declined else result

    def effects(self, encounter: Encounter, result: CriticalResult) -> list[Command]:
        return critical_effects(encounter, result)

    def entries(self, encounter: Encounter, result: CriticalResult) -> list[LogEntry]:
        names = " and ".join(encounter.token(token_id).name for token_id in result.pair)
        return [critical_entry(result, round_of(encounter), f"called for {names}")]

    def suggestions(self, result: CriticalResult) -> tuple[tuple[int, str], ...]:
        return ((1, f"{result.summary}: {result.note}"),) if result.acts else ()

    def declining(self, numbers: frozenset[int]) -> CriticalEventAction:
        return replace(self, declined=self.declined or 1 in numbers)

    def totals(self, result: CriticalResult) -> dict[str, Any]:
        return {"summary": result.summary, **critical_totals(result)}
