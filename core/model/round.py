"""The round's state saved with the encounter: initiative entries, timers (002 "Initiative").

The rules that fill it in are :mod:`core.rules.timeline`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.model.breakdown import Breakdown
from core.model.combatant import Condition, Side
from core.model.dice import RollRecord


class InitiativeEntry(BaseModel):
    """One token's place in the round. ``roll`` is None for the opposition, whose single
    shared roll is :attr:`RoundState.opposition_roll` (002: "one general roll for the
    opposition")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str
    side: Side = Side.PARTY
    roll: RollRecord | None = None
    terms: Breakdown = Breakdown()
    segment: int = 0
    overridden: bool = False
    scarpering: bool = False
    aiming: bool = False
    attack_bonus: int = 0
    defence_bonus: int = 0
    action_segments: int = Field(1, ge=1)
    moved_ft: float = Field(0, ge=0)
    no_action: str = Field("", description="Why the combatant takes no action this round")
    getting_up: bool = Field(False, description="Prone: spends this round getting up")
    notes: tuple[str, ...] = ()


class ConditionTimer(BaseModel):
    """A condition that ends by itself after ``rounds`` more round ends."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str
    condition: Condition
    rounds: int = Field(ge=1)


class RoundState(BaseModel):
    """Where the fight is: round, segment, everyone's initiative, running timers."""

    model_config = ConfigDict(extra="forbid")

    round_number: int = Field(0, ge=0)
    current_segment: int = 0
    entries: list[InitiativeEntry] = Field(default_factory=list)
    opposition_roll: RollRecord | None = None
    timers: list[ConditionTimer] = Field(default_factory=list)
    aimed_last_round: list[str] = Field(default_factory=list)
    declaration_seconds: int = Field(120, ge=0)

    def entry(self, token_id: str) -> InitiativeEntry:
        for entry in self.entries:
            if entry.token_id == token_id:
                return entry
        raise KeyError(f"{token_id!r} has no initiative this round")

    def replace_entry(self, new: InitiativeEntry) -> None:
        self.entries = [new if e.token_id == new.token_id else e for e in self.entries]


