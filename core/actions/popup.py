"""Pop-up missile shots as core actions (002 "Pop-up missile shots"): waiting for a foe to pop
up at a spot (a declaration, no dice), and the pop-up itself — the Spot check, the missile
loosed from the spot (its damage, friend hit and burning oil as :class:`MissileAction`), and
the pop-up kept on the round so that only the enemies waiting there may shoot at it there.
Each is one undo step."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.missile import MissileAction
from core.actions.round import EditRound
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.grid import Cell
from core.model.round import PopUp, RoundState, Waiting
from core.rules.missile import IllegalMissileError
from core.rules.popup import PopUpRequest, PopUpResult, resolve_pop_up

M = TypeVar("M", bound=PopUp)


def _this_round(marks: Sequence[M], state: RoundState, token_id: str) -> list[M]:
    """The marks of this round except ``token_id``'s (older rounds' are dropped)."""
    return [m for m in marks if m.round_number == state.round_number and m.token_id != token_id]


@dataclass(frozen=True)
class PopUpAction(Action[PopUpResult]):
    """A shooter pops up from cover at a spot, spots, and shoots."""

    request: PopUpRequest

    name = "pop-up"
    dice_order = ("the Spot d20; when it succeeds the missile's dice (see 'resolve missile')")

    def title(self, encounter: Encounter) -> str:
        shot = self.request.shot
        return (f"{encounter.token(shot.attacker).name} pops up to shoot at "
                f"{encounter.token(shot.target).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.shot.attacker, self.request.shot.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> PopUpResult:
        return resolve_pop_up(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: PopUpResult) -> list[Command]:
        shot = ([] if result.missile is None
                else MissileAction(self.request.shot).effects(encounter, result.missile))
        mark = PopUp(token_id=result.shooter_id, spot=result.spot,
                     round_number=encounter.timeline.round_number)

        def record(state: RoundState) -> RoundState:
            kept = _this_round(state.pop_ups, state, mark.token_id)
            return state.model_copy(update={"pop_ups": [*kept, mark]})

        return [*shot, EditRound(record, "Popped up", frozenset({result.shooter_id}))]

    def entries(self, encounter: Encounter, result: PopUpResult) -> list[LogEntry]:
        lines = [result.summary(), "", f"  Roll: {result.roll.describe()}",
                 f"  Spot: {result.check.describe()} vs {result.target}"]
        entry = LogEntry(kind="pop-up", summary=result.summary(), text="\n".join(lines),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))
        shot = ([] if result.missile is None
                else MissileAction(self.request.shot).entries(encounter, result.missile))
        return [entry, *shot]

    def totals(self, result: PopUpResult) -> dict[str, Any]:
        shot = (None if result.missile is None
                else MissileAction(self.request.shot).totals(result.missile))
        return {"summary": result.summary(), "spot_total": result.check.value,
                "spot_target": result.target, "spotted": result.spotted,
                "spot": list(result.spot), "exposed_to": list(result.exposed_to),
                "missile": shot}


@dataclass(frozen=True)
class WaitResult:
    token_id: str
    name: str
    spot: Cell

    def summary(self) -> str:
        return f"{self.name} waits for a foe to pop up at ({self.spot.x},{self.spot.y})"


@dataclass(frozen=True)
class WaitAction(Action[WaitResult]):
    """A creature waits, this round, for a foe to pop up at a spot (002: "only enemies
    waiting for you to pop up at that location may target you")."""

    token: str
    spot: Cell

    name = "wait"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        return f"{encounter.token(self.token).name} waits for a pop-up"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.token})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> WaitResult:
        token = encounter.token(self.token)
        if not encounter.map.contains(self.spot):
            raise IllegalMissileError(f"({self.spot.x},{self.spot.y}) is not on the map")
        return WaitResult(token.id, token.name, self.spot)

    def effects(self, encounter: Encounter, result: WaitResult) -> list[Command]:
        mark = Waiting(token_id=result.token_id, spot=result.spot,
                       round_number=encounter.timeline.round_number)

        def record(state: RoundState) -> RoundState:
            kept = _this_round(state.waiting, state, mark.token_id)
            return state.model_copy(update={"waiting": [*kept, mark]})

        return [EditRound(record, "Waiting", frozenset({result.token_id}))]

    def entries(self, encounter: Encounter, result: WaitResult) -> list[LogEntry]:
        return [LogEntry(kind="wait", summary=result.summary(), round=round_of(encounter),
                         detail={"token": result.token_id, "spot": list(result.spot)})]

    def totals(self, result: WaitResult) -> dict[str, Any]:
        return {"summary": result.summary(), "token": result.token_id,
                "spot": list(result.spot)}
