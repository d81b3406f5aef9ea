"""002's injury tables as data, the rules profile's defaults: the hit location table with
its aimed-location modifiers, and the three uses of a hero point.

002 "Hit Location": "Roll 1d10 to determine where you hit" — Head 10, Shoulder & upper arms
9, Upper torso 7-8, Lower Torso 4-6, Thighs 2-3, Lower arms / Shins 1. 002 "Hitting specific
locations": "a skill modifier is applied ... dependent upon the area aimed at", melee and
missile columns. 002 "Critical Locations": "Humanoids are potentially stunned on head
strikes" — the head is the critical location.

>>> [(row.name, row.low, row.high) for row in DEFAULT_HIT_LOCATIONS][-1]
('Head', 10, 10)
>>> location_named(DEFAULT_HIT_LOCATIONS, "head").melee_aim
-10
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from core.model.limits import Name

#: How far an aimed-location modifier may go either way.
MAX_AIM = 50


class HitLocation(BaseModel):
    """One row of the hit location table: the location die's faces ``low``..``high``, the
    modifier to aim at it in melee and with a missile, and whether it is a critical
    location (002 "Critical Locations")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name = Field(min_length=1, max_length=40)
    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)
    melee_aim: int = Field(0, ge=-MAX_AIM, le=MAX_AIM)
    missile_aim: int = Field(0, ge=-MAX_AIM, le=MAX_AIM)
    critical: bool = False

    def aim(self, missile: bool) -> int:
        return self.missile_aim if missile else self.melee_aim


DEFAULT_HIT_LOCATIONS: tuple[HitLocation, ...] = (
    HitLocation(name="Lower arms / Shins", low=1, high=1, melee_aim=-4, missile_aim=-10),
    HitLocation(name="Thighs", low=2, high=3, melee_aim=-2, missile_aim=-8),
    HitLocation(name="Lower torso", low=4, high=6, melee_aim=-3, missile_aim=-6),
    HitLocation(name="Upper torso", low=7, high=8, melee_aim=-4, missile_aim=-8),
    HitLocation(name="Shoulder & upper arms", low=9, high=9, melee_aim=-3, missile_aim=-10),
    HitLocation(name="Head", low=10, high=10, melee_aim=-10, missile_aim=-15, critical=True),
)


def location_named(table: Sequence[HitLocation], name: str) -> HitLocation:
    """The row called ``name`` (any case); ValueError naming the rows otherwise."""
    for row in table:
        if row.name.casefold() == name.strip().casefold():
            return row
    raise ValueError(f"no hit location {name[:40]!r}; choose one of "
                     + ", ".join(row.name for row in table))


def location_rolled(table: Sequence[HitLocation], face: int) -> HitLocation:
    """The row whose faces include ``face``."""
    for row in table:
        if row.low <= face <= row.high:
            return row
    raise ValueError(f"the hit location table has no row for {face}")


class HeroUse(StrEnum):
    """002 "Damage": "A hero point causes either: 1. Double damage 2. Automatic hit (unless
    aiming for a specific location). 3. +10 to hit"."""

    DOUBLE_DAMAGE = "double_damage"
    AUTOMATIC_HIT = "automatic_hit"
    PLUS_TEN = "plus_ten"

    @property
    def label(self) -> str:
        return {HeroUse.DOUBLE_DAMAGE: "double damage", HeroUse.AUTOMATIC_HIT: "automatic hit",
                HeroUse.PLUS_TEN: "+10 to hit"}[self]
