"""Readiness to spoil a long action as core actions (002 "Spoiling attacks"): concentrating
on a creature (no dice) and the perception roll to notice its long action; each one undo step
and a log entry, kept on the round as a :class:`core.model.round.Watch`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.round import EditRound
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import RoundState, Watch, WatchKind
from core.rules.spoiling import (
    Concentration,
    PerceptionResult,
    concentrate,
    resolve_perception,
)


@dataclass(frozen=True)
class ConcentrateAction(Action[Concentration]):
    """``watcher`` concentrates on ``target``, waiting for it to start something."""

    watcher: str
    target: str

    name = "concentrate"
    dice_order = "none"

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.watcher).name} concentrates on "
                f"{encounter.token(self.target).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.watcher, self.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> Concentration:
        return concentrate(encounter, self.watcher, self.target)

    def effects(self, encounter: Encounter, result: Concentration) -> list[Command]:
        def put(state: RoundState) -> RoundState:
            state.watches = [w for w in state.watches if not (
                w.token_id == result.watcher_id and w.kind is WatchKind.CONCENTRATING)]
            state.watches.append(Watch(token_id=result.watcher_id, target=result.target_id,
                                       segment=result.segment,
                                       kind=WatchKind.CONCENTRATING))
            return state

        return [EditRound(put, "Concentrate", frozenset({result.watcher_id}))]

    def entries(self, encounter: Encounter, result: Concentration) -> list[LogEntry]:
        return [LogEntry(kind="concentrate", summary=result.summary(),
                         text=f"{result.summary()}\n002 Spoiling attacks: 'The attacker may "
                              "either be concentrating upon and waiting for the target to "
                              "start something or has not acted yet during the round'",
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: Concentration) -> dict[str, Any]:
        return {"summary": result.summary(), "watcher": result.watcher_id,
                "target": result.target_id, "segment": result.segment}


@dataclass(frozen=True)
class PerceptionAction(Action[PerceptionResult]):
    """``watcher`` rolls to notice ``target``'s long action (not an action of its own)."""

    watcher: str
    target: str

    name = "perceive"
    dice_order = "the watcher's perception die (d20)"

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.watcher).name} watches "
                f"{encounter.token(self.target).name}'s long action (perception)")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.watcher, self.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> PerceptionResult:
        return resolve_perception(encounter, self.watcher, self.target, dice)

    def effects(self, encounter: Encounter, result: PerceptionResult) -> list[Command]:
        kind = WatchKind.NOTICED if result.noticed else WatchKind.MISSED
        watch = Watch(token_id=result.watcher_id, target=result.target_id,
                      segment=result.segment, kind=kind)

        def put(state: RoundState) -> RoundState:
            state.watches.append(watch)
            return state

        return [EditRound(put, "Perception roll", frozenset({result.watcher_id}))]

    def entries(self, encounter: Encounter, result: PerceptionResult) -> list[LogEntry]:
        return [LogEntry(kind="perception", summary=result.summary(), text=result.text(),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: PerceptionResult) -> dict[str, Any]:
        return {"summary": result.summary(), "total": result.total.value,
                "target_number": result.difficulty.value, "noticed": result.noticed,
                "segment": result.segment}
