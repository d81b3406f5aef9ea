"""Combatants: the stats a GM types in (000 "Combat Ratings Quick Reference" inputs).

Validation names the field and the allowed range:

>>> Combatant(name="X", abilities=Abilities(strength=25))
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Abilities
strength
  Value error, strength 25 is outside the ability table (3-18) ...
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_serializer, field_validator

from core.model.grid import Cell
from core.model.limits import MAX_CARRIED_WEAPONS, MAX_PATH_CHARS, Name
from core.model.melee import check_cell
from core.model.portrait import PORTRAIT_KEY
from core.model.profile import RulesProfile
from core.model.tables import ARMOURS, NO_ARMOUR, NO_SHIELD, SHIELDS, Size

DEFAULT_PROFILE = RulesProfile()
NAME_CHARS = 60
HP_FLOOR = -9999
MAX_WOUNDS = 9999
MAX_HERO_POINTS = 99
MAX_SIGHT_FT = 1000
MAX_DENTS = 10
MAX_LUCK = 100
#: What critical events give to the round's end only: a lucky break (16), a lucky opening
#: not yet used (17, 18), a hero point not spent (23). The end of a fight ends them too.
LAPSING: dict[str, object] = {"lucky_break": 0, "lucky_opening": 0, "round_hero_points": 0}


class Side(StrEnum):
    PARTY = "party"
    OPPOSITION = "opposition"


class Condition(StrEnum):
    """Conditions the rules refer to (what each changes: :mod:`core.rules.conditions`).
    Durations live on the timeline."""

    PRONE = "prone"
    DEFENSIVE_STANCE = "defensive_stance"
    STUNNED = "stunned"
    DAZED = "dazed"
    KNOCKDOWN = "knockdown"
    KNOCKED_OUT = "knocked_out"
    SCARPERING = "scarpering"
    AIMING = "aiming"
    BRACED = "braced"
    # Morale failures (002 "Morale"; core.rules.morale)
    SURRENDERED = "surrendered"
    BERSERK = "berserk"
    # Sleep and the rounds of waking (002 "Sleep"; core.rules.sleep)
    ASLEEP = "asleep"
    WAKING = "waking"
    RISING = "rising"
    DEFENDING = "defending"
    # Critical events (002 "Critical events"; core.rules.critical)
    SUBMITTED = "submitted"  # 002 Locks: "Will submit when all SP are lost"
    STYMIED = "stymied"  # 22: no hero points this or next round
    BEFUDDLED = "befuddled"  # 25: if attacked, no skill action next round

    @property
    def label(self) -> str:
        """As the GM reads it: "knocked out"."""
        return self.value.replace("_", " ")


class OutOfHand(BaseModel):
    """A weapon (or the shield) a critical event took out of its owner's hand (002
    "Critical events" 3, 5-7): unusable until the owner spends an action recovering it. A
    dropped one lies on the map at ``cell``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    item: str = Field(min_length=1, max_length=40, description="A weapon's name, or the "
                                                               "shield's key")
    shield: bool = False
    how: str = Field("dropped", pattern="^(dropped|tangled|stuck)$")
    cell: Cell | None = Field(None, description="Where a dropped one lies")

    @field_validator("cell")
    @classmethod
    def _on_a_map(cls, cell: Cell | None) -> Cell | None:
        return None if cell is None else check_cell(cell)

    def describe(self, label: str) -> str:
        """"Long sword dropped at (9,5)", "Short bow tangled"."""
        where = f" at ({self.cell.x},{self.cell.y})" if self.cell is not None else ""
        return f"{label} {self.how}{where}"


class Abilities(BaseModel):
    """The six ability scores. Their range is the rules profile's ability table (3-18 by
    default, rules-decisions "Ability modifiers"); validate with ``context={"profile": p}``
    to check against another profile."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strength: int = 10
    dexterity: int = 10
    constitution: int = 10
    intelligence: int = 10
    wisdom: int = 10
    charisma: int = 10

    @field_validator("*")
    @classmethod
    def _in_table(cls, score: int, info: ValidationInfo) -> int:
        profile = (info.context or {}).get("profile") or DEFAULT_PROFILE
        low, high = profile.ability_range
        if not low <= score <= high:
            raise ValueError(
                f"{info.field_name} {score} is outside the ability table ({low}-{high})")
        return score


class Combatant(BaseModel):
    """Everything the ratings are derived from (derived in :mod:`core.rules.ratings`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name = Field(min_length=1, max_length=NAME_CHARS)
    side: Side = Side.PARTY
    size: Size = Size.MEDIUM
    abilities: Abilities = Abilities()
    level: int = Field(1, ge=0, le=40, description="Level or Hit Dice")
    hr_slots: int = Field(0, ge=0, le=20, description="Class Skill slots invested in HR")
    fr_slots: int = Field(0, ge=0, le=20, description="Class Skill slots invested in FR")
    hr_magic: int = Field(0, ge=-10, le=10, description="Magic bonus to HR")
    fr_magic: int = Field(0, ge=-10, le=10, description="Magic bonus to FR")
    armour: str = NO_ARMOUR
    shield: str = NO_SHIELD
    technique_ac: int = Field(0, ge=-10, le=10, description="Active defensive techniques")
    mastery_rank: int = Field(0, ge=0, le=10)
    death_ray_save: int = Field(14, ge=2, le=20, description="Save vs Death Ray number")
    max_hp: int = Field(8, ge=1, le=9999)
    hp: int = Field(8, ge=HP_FLOOR, le=9999)
    conditions: frozenset[Condition] = frozenset()
    reach_ft: int = Field(5, ge=0, le=60, description="Natural reach (weapons may add)")
    weapons: tuple[Name, ...] = Field((), max_length=MAX_CARRIED_WEAPONS,
                                     description="Names in the encounter's weapon table")
    initiative_modifier: int = Field(0, ge=-10, le=10)
    martial_artist: bool = Field(False, description="Trained in takedowns and locks (002)")
    darkvision_ft: int = Field(0, ge=0, le=MAX_SIGHT_FT,
                               description="Sees unlit cells this near (docs/vision.md)")
    image: Name | None = Field(None, max_length=MAX_PATH_CHARS,
                              description="An image file's path (older files; see portrait)")
    portrait: str | None = Field(None, pattern=PORTRAIT_KEY,
                                 description="Key of the encounter's embedded portrait")
    morale: int | None = Field(None, ge=2, le=20, description=(
        "002 Morale: 2d10 ≤ this passes; None: the profile's default_morale for the "
        "opposition, no check for a party member (a player character)"))
    leadership: int | None = Field(None, ge=-10, le=10, description=(
        "A leader: its side's morale gains this while it stands; None: not a leader"))
    dropped_weapons: tuple[Annotated[Name, Field(max_length=40)], ...] = Field(
        (), max_length=MAX_CARRIED_WEAPONS,
        description="Weapons dropped in a panic (a failed morale check)")
    wounds: int = Field(0, ge=0, le=MAX_WOUNDS,
                        description="Wound points taken (002 'every 5th point')")
    hero_points: int = Field(0, ge=0, le=MAX_HERO_POINTS, description="Hero points to spend")
    alert: int = Field(0, ge=-10, le=10, description="002 Parry and Dodge: the Alert skill")
    armour_gaps: tuple[Annotated[str, Field(min_length=1, max_length=40)], ...] = Field(
        (), max_length=20, description=("Hit locations its armour leaves bare (002 Damage: "
                                        "'if they are wearing armour where you hit')"))
    humanoid: bool = Field(True, description=("002 Critical Locations: humanoids may be "
                                              "stunned, others take double damage"))
    shield_damage: int = Field(0, ge=0, le=MAX_DENTS, description=(
        "Critical event 2, shield damaged: −1 defence each, until repaired"))
    armour_dents: int = Field(0, ge=0, le=MAX_DENTS, description=(
        "Critical event 4, armour dented: −1 AC each (not AV), until repaired"))
    out_of_hand: tuple[OutOfHand, ...] = Field((), max_length=13, description=(
        "Weapons and the shield a critical event took out of hand"))
    lucky_break: int = Field(0, ge=0, le=MAX_LUCK, description=(
        "Critical event 16: to AC and saves until the round ends"))
    lucky_opening: int = Field(0, ge=0, le=MAX_LUCK, description=(
        "Critical events 17, 18: to its next attack this round"))
    round_hero_points: int = Field(0, ge=0, le=MAX_HERO_POINTS, description=(
        "Critical event 23: hero points usable this round only"))
    dodge_skill: int = Field(0, ge=0, le=20, description="002 Dodging: the Dodge skill")

    @field_validator("armour")
    @classmethod
    def _known_armour(cls, value: str) -> str:
        if value not in ARMOURS:
            raise ValueError(f"unknown armour {value!r}; choose one of {', '.join(ARMOURS)}")
        return value

    @field_validator("shield")
    @classmethod
    def _known_shield(cls, value: str) -> str:
        if value != NO_SHIELD and value not in SHIELDS:
            choices = ", ".join([NO_SHIELD, *SHIELDS])
            raise ValueError(f"unknown shield {value!r}; choose one of {choices}")
        return value

    @field_serializer("conditions")
    def _in_order(self, conditions: frozenset[Condition]) -> list[Condition]:
        """Sorted: a set's order follows PYTHONHASHSEED, and saved bytes must not."""
        return sorted(conditions)

    @property
    def has_shield(self) -> bool:
        return self.shield != NO_SHIELD

    @property
    def has_lapsing(self) -> bool:
        """Whether it holds a boon that lapses when the round ends (:data:`LAPSING`)."""
        return any(getattr(self, name) for name in LAPSING)

    def lapsed(self) -> Combatant:
        """This combatant after the round — or the fight — ends: the boons of
        :data:`LAPSING` are gone (the one place that knows which fields lapse)."""
        return self.model_copy(update=LAPSING) if self.has_lapsing else self

    def has(self, condition: Condition) -> bool:
        return condition in self.conditions

    def hurt(self, damage: int, conditions: frozenset[Condition] = frozenset()) -> Combatant:
        """This combatant after taking ``damage`` (HP never below the schema's floor) and
        gaining ``conditions``."""
        return self.model_copy(update={"hp": max(self.hp - damage, HP_FLOOR),
                                       "conditions": self.conditions | conditions})

    def wounded(self, points: int) -> Combatant:
        """This combatant with ``points`` more wound points (never beyond the schema's
        bound)."""
        return self.model_copy(update={"wounds": min(self.wounds + points, MAX_WOUNDS)})

    def healed(self, amount: int) -> Combatant:
        """This combatant after healing ``amount`` hit points, never above its maximum."""
        return self.model_copy(update={"hp": min(self.hp + amount, max(self.max_hp, self.hp))})

    def toggled(self, condition: Condition) -> Combatant:
        """This combatant with ``condition`` switched on or off."""
        return self.model_copy(update={"conditions": self.conditions ^ {condition}})
