"""Critical events as a core action (002 "Critical events"): the d30 for a tied pair,
acted out on the map — tokens moved together, knocked-down ones Prone — and logged."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command, PlaceTokens
from core.model.combatant import Condition
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.critical import CriticalResult, resolve_critical


def critical_effects(encounter: Encounter, result: CriticalResult) -> list[Command]:
    """Moves first (all at once: a swap is one placement), then the knock-downs."""
    moves: list[Command] = ([PlaceTokens(result.moves, result.event.name)]
                            if result.moves else [])
    prone = frozenset({Condition.PRONE})
    return moves + [command for token_id in result.knocked_down
                    for command in afflict(encounter, token_id, "Knocked down", gained=prone)]


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
            "side": result.side.value if result.side else None,
            "moves": {token: list(cell) for token, cell in result.moves.items()},
            "knocked_down": list(result.knocked_down), "note": result.note}


@dataclass(frozen=True)
class CriticalEventAction(Action[CriticalResult]):
    """A critical event for a party character and an opposition creature."""

    party: str
    foe: str

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
        return resolve_critical(encounter, pair, dice)

    def effects(self, encounter: Encounter, result: CriticalResult) -> list[Command]:
        return critical_effects(encounter, result)

    def entries(self, encounter: Encounter, result: CriticalResult) -> list[LogEntry]:
        names = " and ".join(encounter.token(token_id).name for token_id in result.pair)
        return [critical_entry(result, round_of(encounter), f"called for {names}")]

    def totals(self, result: CriticalResult) -> dict[str, Any]:
        return {"summary": result.summary, **critical_totals(result)}
