"""The weapon table (rules-decisions "Missiles", "Clarifications ... Weapon damage defaults"):
data, saved with each encounter and editable by the GM; a combatant names the weapons it
carries.

A weapon is used in melee when it has a ``reach_ft``, and thrown or fired when it has
``ranges`` (short, medium, long in feet); a dagger has both.

>>> WEAPONS_BY_NAME["Long bow"].ranges
(70, 140, 210)
>>> WEAPONS_BY_NAME["Dagger"].reach_ft, WEAPONS_BY_NAME["Dagger"].missile_kind
(5, <MissileKind.THROWN: 'thrown'>)
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core.model.dice import DiceExpression
from core.model.limits import Name

MAX_RANGE_FT = 2000
UNARMED = "Unarmed"


class MissileKind(StrEnum):
    """Thrown weapons add the thrower's STR modifier to damage and miss by 1 ft per point
    failed; fired ones do neither and miss by 2 ft per point (rules-decisions "Missiles")."""

    THROWN = "thrown"
    FIRED = "fired"


class DamageType(StrEnum):
    """How a weapon hurts: a bludgeon's head hit can stun (002 "Stunning")."""

    BLUDGEON = "bludgeon"
    EDGE = "edge"
    POINT = "point"
    FIRE = "fire"


class Hands(StrEnum):
    """How a weapon may be held (002 "One or two hands": "Weapons which may be used with more
    than 1 hand gain damage when used with 1½ or 2 hands")."""

    ONE = "one"
    VERSATILE = "versatile"
    TWO = "two"


class Grip(StrEnum):
    """How the attacker holds its weapon for one attack."""

    ONE = "one"
    ONE_AND_HALF = "one_and_half"
    TWO = "two"

    @property
    def label(self) -> str:
        return {Grip.ONE: "one hand", Grip.ONE_AND_HALF: "1½ hands", Grip.TWO: "two hands"}[self]


class FlaskEffect(BaseModel):
    """What a flask leaves where it lands: a fire hazard of one cell for a few rounds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    damage: str = "1d6"
    rounds: int = Field(3, ge=1, le=100)

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        DiceExpression.parse(value)
        return value


class SpecialDamage(BaseModel):
    """Poison and the like (002 "Special Damage"): dice that ignore AV, dealt only when the
    hit penetrates the armour; ``note`` says what else it does (the GM plays it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field("Poison", min_length=1, max_length=40)
    damage: str = "d4"
    note: str = Field("", max_length=200)

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        DiceExpression.parse(value)
        return value


class Weapon(BaseModel):
    """One row of the weapon table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name = Field(min_length=1, max_length=40)
    damage: str = "d6"
    damage_type: DamageType = DamageType.EDGE
    reach_ft: int | None = Field(None, ge=0, le=60, description="Melee reach; None: no melee")
    missile_kind: MissileKind | None = None
    ranges: tuple[int, int, int] | None = Field(
        None, description="Short, medium and long range in feet")
    miss_ft_per_point: int = Field(0, ge=0, le=20)
    accuracy: int = Field(0, ge=-10, le=10)
    dagger_size: bool = Field(False, description="Usable while held in a grapple (002)")
    magic_damage: bool = Field(False, description="Ignores AV (fire from a flask)")
    flask: FlaskEffect | None = None
    hands: Hands = Field(Hands.ONE, description="One hand, versatile, or two hands only")
    two_hand_damage: str = Field("d3", description="Damage bonus with two hands (002: "
                                                   "'d3 / +d6', weapon dependent)")
    special: SpecialDamage | None = Field(None, description="Special damage through armour "
                                                            "only (002 Special Damage)")

    @field_validator("damage", "two_hand_damage")
    @classmethod
    def _dice(cls, value: str) -> str:
        DiceExpression.parse(value)
        return value

    @model_validator(mode="after")
    def _uses(self) -> Weapon:
        if self.ranges is not None:
            short, medium, long = self.ranges
            if not 0 < short <= medium <= long <= MAX_RANGE_FT:
                raise ValueError(f"{self.name}: ranges must rise, 1..{MAX_RANGE_FT} ft "
                                 f"(got {short}/{medium}/{long})")
            if self.missile_kind is None:
                raise ValueError(f"{self.name}: a weapon with ranges is thrown or fired")
        elif self.missile_kind is not None:
            raise ValueError(f"{self.name}: a thrown or fired weapon needs its ranges")
        if self.reach_ft is None and self.ranges is None:
            raise ValueError(f"{self.name}: give a melee reach, ranges, or both")
        return self

    @property
    def melee(self) -> bool:
        return self.reach_ft is not None

    @property
    def missile(self) -> bool:
        return self.ranges is not None

    @property
    def grips(self) -> tuple[Grip, ...]:
        """The grips it may be used with (the first is the one taken by default)."""
        return {Hands.ONE: (Grip.ONE,), Hands.TWO: (Grip.TWO,),
                Hands.VERSATILE: tuple(Grip)}[self.hands]


def _missile(name: str, damage: str, kind: MissileKind, ranges: tuple[int, int, int],
             **extra: object) -> Weapon:
    miss = 1 if kind is MissileKind.THROWN else 2
    return Weapon.model_validate({"name": name, "damage": damage, "missile_kind": kind,
                                  "ranges": ranges, "miss_ft_per_point": miss,
                                  "damage_type": DamageType.POINT, **extra})


THROWN, FIRED = MissileKind.THROWN, MissileKind.FIRED

#: RD "Missiles" and "Weapon damage defaults" for the missile weapons; common melee weapons
#: (the seeds name no melee damage table: ordinary dice for each, interpreted). Grips (002
#: "One or two hands"; which weapon takes which is interpreted): long sword, battle axe and
#: spear one or more hands (+d3 with two); great club and halberd two hands only (+d6).
DEFAULT_WEAPONS: tuple[Weapon, ...] = (
    Weapon(name=UNARMED, damage="d2", damage_type=DamageType.BLUDGEON, reach_ft=5,
           dagger_size=True),
    _missile("Dagger", "d4", THROWN, (10, 20, 30), reach_ft=5, dagger_size=True),
    Weapon(name="Short sword", damage="d6", reach_ft=5),
    Weapon(name="Long sword", damage="d8", reach_ft=5, hands=Hands.VERSATILE),
    Weapon(name="Battle axe", damage="d8", reach_ft=5, hands=Hands.VERSATILE),
    Weapon(name="Mace", damage="d6", damage_type=DamageType.BLUDGEON, reach_ft=5),
    Weapon(name="Club", damage="d4", damage_type=DamageType.BLUDGEON, reach_ft=5),
    Weapon(name="Great club", damage="2d6", damage_type=DamageType.BLUDGEON, reach_ft=10,
           hands=Hands.TWO, two_hand_damage="d6"),
    Weapon(name="Spear", damage="d6", damage_type=DamageType.POINT, reach_ft=10,
           hands=Hands.VERSATILE),
    Weapon(name="Halberd", damage="d10", reach_ft=10, hands=Hands.TWO, two_hand_damage="d6"),
    _missile("Javelin", "d6", THROWN, (20, 40, 60), reach_ft=5),
    _missile("Sling", "d4", FIRED, (40, 80, 160), damage_type=DamageType.BLUDGEON),
    _missile("Short bow", "d6", FIRED, (50, 100, 150)),
    _missile("Long bow", "d8", FIRED, (70, 140, 210)),
    _missile("Light crossbow", "d8", FIRED, (60, 120, 180), accuracy=1),
    _missile("Heavy crossbow", "d10", FIRED, (80, 160, 240), accuracy=1),
    _missile("Flask of oil", "1d6", THROWN, (10, 30, 50), damage_type=DamageType.FIRE,
             magic_damage=True, flask=FlaskEffect()),
)

WEAPONS_BY_NAME: dict[str, Weapon] = {w.name: w for w in DEFAULT_WEAPONS}
