"""What melee manoeuvres leave on the round: grappling holds and a forcing-back attacker's
lowered guard (002 "Grappling", "Forcing opponents back"). Saved in the round's state
(:class:`core.model.round.RoundState`); the rules that make and read them are
:mod:`core.rules.grapple`, :mod:`core.rules.holds` and :mod:`core.rules.force_back`.

>>> hold = Hold(holder="a", held="b", kind=HoldKind.LOCK, lock_damage=3,
...             holder_cell=Cell(0, 0), held_cell=Cell(1, 0))
>>> Hold.model_validate_json(hold.model_dump_json()) == hold
True
"""

from __future__ import annotations

from enum import StrEnum
from itertools import pairwise

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.model.grid import Cell
from core.model.limits import MAX_MAP_CELLS, MAX_ROUND, Lines

MAX_LOCK_DAMAGE = 1000
MIN_PENALTY = -100


def check_cell(cell: Cell) -> Cell:
    """ValueError unless ``cell`` lies within the largest map."""
    if not (0 <= cell.x < MAX_MAP_CELLS and 0 <= cell.y < MAX_MAP_CELLS):
        raise ValueError(f"cell {tuple(cell)} is outside any map (0-{MAX_MAP_CELLS - 1})")
    return cell


def check_walk(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """ValueError unless ``cells`` are map cells, each a king's step from the one before."""
    for cell in cells:
        check_cell(cell)
    for a, b in pairwise(cells):
        if max(abs(a.x - b.x), abs(a.y - b.y)) != 1:
            raise ValueError(f"{tuple(a)} to {tuple(b)} is not one step")
    return cells


class HoldKind(StrEnum):
    """002 Grappling: "a mutual standing hold" (both held), a takedown's pin on the floor, a
    lock that hurts each round."""

    HOLD = "hold"
    PIN = "pin"
    LOCK = "lock"


class Hold(BaseModel):
    """One grapple in place. It lasts while both creatures stand where it was taken (a move,
    a shove or a throw that separates them ends it) and until an escape breaks it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    holder: str = Field(max_length=60)
    held: str = Field(max_length=60)
    kind: HoldKind = HoldKind.HOLD
    lock_damage: int = Field(0, ge=0, le=MAX_LOCK_DAMAGE,
                             description="A lock's damage each round (rolled once)")
    holder_cell: Cell
    held_cell: Cell

    @field_validator("holder_cell", "held_cell")
    @classmethod
    def _on_a_map(cls, cell: Cell) -> Cell:
        return check_cell(cell)


class AcPenalty(BaseModel):
    """A lowered AC that lasts until the creature's next action: until it strikes in round
    ``until_round`` (or that round ends)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str = Field(max_length=60)
    value: int = Field(le=0, ge=MIN_PENALTY)
    until_round: int = Field(ge=1, le=MAX_ROUND + 1)
    reason: Lines = Field("", max_length=120)
