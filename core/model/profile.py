"""The rules profile: every default of ``shared/design/rules-decisions.md`` as one validated model.

Resolvers read numbers from here; nothing rule-related is hard-coded elsewhere. A GM may
change any field and the profile is saved with the encounter.

>>> p = RulesProfile()
>>> p.ability_modifier(18), p.ability_modifier(3), p.ability_modifier(10)
(3, -3, 0)
>>> RulesProfile.model_validate_json(p.model_dump_json()) == p
True
"""

from __future__ import annotations

from enum import StrEnum
from itertools import pairwise
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core.model.dice import DEFAULT_CHAIN, EXACT_OUTCOMES, DiceExpression
from core.model.injury import DEFAULT_HIT_LOCATIONS, HitLocation
from core.model.limits import MAX_BONUS, MAX_FEET, Bonus, Name, Segment
from core.model.tables import ARMOURS, SIZES, Size
from core.model.weapons import DamageType

#: A count, a step or a distance in the rules: 0 or more, far beyond any table.
Steps = Annotated[int, Field(ge=0, le=MAX_BONUS)]
PositiveSteps = Annotated[int, Field(ge=1, le=MAX_BONUS)]
Distance = Annotated[int, Field(ge=1, le=MAX_FEET)]


class DiagonalRule(StrEnum):
    """How a diagonal step is counted (rules-decisions, Shove 9)."""

    FIVE = "5"
    FIVE_TEN_FIVE = "5-10-5"
    EUCLIDEAN = "euclidean"


class MasteryReduction(StrEnum):
    """How Mastery reduces the size penalty to FR (rules-decisions Shove 2; the seed's Shove
    section that would say is missing): one size category per rank, or one point."""

    CATEGORY = "category"
    POINT = "point"


class CreatureCollision(StrEnum):
    """What a shoved creature does on meeting another (rules-decisions, Shove 11)."""

    STOP = "stop"
    SOLID = "solid"


class AbilityBand(BaseModel):
    """Scores ``low``..``high`` inclusive give ``modifier``."""

    model_config = ConfigDict(frozen=True)

    low: int = Field(ge=0, le=MAX_BONUS)
    high: int = Field(ge=0, le=MAX_BONUS)
    modifier: Bonus


class FailureLevel(BaseModel):
    """A named degree of failure from 002: failed by at least ``min_margin``."""

    model_config = ConfigDict(frozen=True)

    name: Name = Field(max_length=60)
    min_margin: PositiveSteps


CLASSIC_ABILITY_TABLE: tuple[AbilityBand, ...] = (
    AbilityBand(low=3, high=3, modifier=-3),
    AbilityBand(low=4, high=5, modifier=-2),
    AbilityBand(low=6, high=8, modifier=-1),
    AbilityBand(low=9, high=12, modifier=0),
    AbilityBand(low=13, high=15, modifier=1),
    AbilityBand(low=16, high=17, modifier=2),
    AbilityBand(low=18, high=18, modifier=3),
)

class AlertnessLevel(BaseModel):
    """A row of 002's "State of alert" table: the party's bonus to the Spot save."""

    model_config = ConfigDict(frozen=True)

    name: Name = Field(max_length=60)
    bonus: Bonus


DEFAULT_ALERTNESS: tuple[AlertnessLevel, ...] = (
    AlertnessLevel(name="Expecting something", bonus=0),
    AlertnessLevel(name="Guard duty", bonus=-1),
    AlertnessLevel(name="Normal travel", bonus=-2),
    AlertnessLevel(name="Totally unexpected", bonus=-4),
)

class MoraleResult(StrEnum):
    """What a failed morale check makes a creature do (002 Morale: "Fail by | Action")."""

    RETREAT = "retreat"
    DROP_AND_RUN = "drop_and_run"
    SURRENDER = "surrender"
    BERSERK = "berserk"


class MoraleRoll(StrEnum):
    """Who rolls a morale check: one 2d10 for the side, read against each creature's own
    score ("Each NPC will have their own morale", 002), or one roll per creature."""

    SIDE = "side"
    CREATURE = "creature"


class MoraleRow(BaseModel):
    """A row of 002's morale table: failing by the failure level ``level`` gives ``result``."""

    model_config = ConfigDict(frozen=True)

    level: Name = Field(max_length=60)
    result: MoraleResult


#: 002's morale table as printed: it has no Dreadful row, and a level without a row counts
#: as the level below it (RD "Dreadful counts as Bad").
DEFAULT_MORALE_RESULTS: tuple[MoraleRow, ...] = (
    MoraleRow(level="Unlucky", result=MoraleResult.RETREAT),
    MoraleRow(level="Bad", result=MoraleResult.DROP_AND_RUN),
    MoraleRow(level="Appalling", result=MoraleResult.SURRENDER),
    MoraleRow(level="Catastrophic", result=MoraleResult.BERSERK),
)

#: rules-decisions "Pummelling": the metal body armours of 000's table.
METAL_ARMOURS: tuple[str, ...] = ("scale", "chain_mail", "banded", "plate_mail", "suit_armor",
                                  "elven_chain", "dwarven_plate")

#: RD "Sizes": 'Footprint on a 5 ft grid: Tiny, Small, Medium = 1 cell; Large 2×2; Huge
#: 3×3; Gargantuan 4×4' — cells across, smallest size first (000's table order).
DEFAULT_FOOTPRINTS: tuple[int, ...] = tuple(SIZES[size].footprint for size in Size)
MAX_FOOTPRINT = 10  # cells across: a 50 ft creature on a 5 ft grid

DEFAULT_FAILURE_LEVELS: tuple[FailureLevel, ...] = (
    FailureLevel(name="Unlucky", min_margin=1),
    FailureLevel(name="Bad", min_margin=4),
    FailureLevel(name="Dreadful", min_margin=7),
    FailureLevel(name="Appalling", min_margin=10),
    FailureLevel(name="Catastrophic", min_margin=13),
)



class RulesProfile(BaseModel):
    """Every number and either/or of rules-decisions.md, with its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Ability modifiers (rules-decisions "Ability modifiers")
    ability_table: tuple[AbilityBand, ...] = Field(CLASSIC_ABILITY_TABLE, max_length=101)

    # Shove (rules-decisions "Shove")
    size_penalty_per_category: Steps = 4
    double_success_margin: PositiveSteps = 10
    die_chain: tuple[str, ...] = Field(DEFAULT_CHAIN, min_length=1, max_length=20)
    die_chain_cap: str = "2d8"
    fr_points_per_die_step: PositiveSteps = 3
    higher_ground_die_steps: Steps = 1
    higher_ground_resist: Bonus = 2
    difficult_terrain_resist: Bonus = 2
    slippery_bonus_ft: Bonus = 2
    double_success_distance_ft: int = Field(10, ge=0, le=MAX_FEET)
    double_success_prone: bool = True
    direction_spread_deg: int = Field(90, ge=0, le=180)
    slam_rolls_per_fr_points: PositiveSteps = 2
    slam_min_rolls: int = Field(1, ge=0, le=20)
    slam_min_unused_ft: int = Field(1, ge=1, le=MAX_FEET)
    slam_av_per_die: bool = False
    falls_ignore_av: bool = False
    mastery_reduction: MasteryReduction = MasteryReduction.CATEGORY
    creature_collision: CreatureCollision = CreatureCollision.STOP
    drop_hazard_ft: Distance = 10
    fall_die: str = "d6"
    fall_feet_per_die: Distance = 10
    reach_required: bool = True
    defensive_stance_fd_per_mastery: Steps = 1

    # Grid (rules-decisions "Shove" 9, "Sizes")
    cell_size_ft: int = Field(5, ge=1, le=100)
    diagonal_rule: DiagonalRule = DiagonalRule.FIVE_TEN_FIVE
    size_footprints: tuple[Annotated[int, Field(ge=1, le=MAX_FOOTPRINT)], ...] = Field(
        DEFAULT_FOOTPRINTS, min_length=len(Size), max_length=len(Size))

    # Attack and damage
    penetration_points: Steps = 1

    # Cover (002 "Cover & concealment"; rules-decisions "Cover from the map")
    cover_step_percent: int = Field(20, ge=1, le=100)
    cover_bonus_per_20_percent: Bonus = 1
    arrow_slit_visible_percent: int = Field(5, ge=0, le=50)
    arrow_slit_bonus: int = Field(10, ge=0, le=30)
    concealment_percent: int = Field(20, ge=0, le=100)

    # Missiles (002 "Missiles", "Missile fire into combat", "Misses"; rules-decisions)
    short_range_modifier: int = Field(0, ge=-20, le=20)
    medium_range_modifier: int = Field(-2, ge=-20, le=20)
    long_range_modifier: int = Field(-5, ge=-20, le=20)
    medium_clearance_divisor: int = Field(3, ge=1, le=20)
    long_clearance_divisor: int = Field(2, ge=1, le=20)
    packed_group_count: int = Field(3, ge=1, le=20)
    packed_group_ft: int = Field(5, ge=0, le=60)
    into_melee_bonus: int = Field(2, ge=0, le=20)
    lobbed_beyond_ft: int = Field(4, ge=0, le=100)
    scatter_die: str = "d12"
    flight_segments_per_band: int = Field(1, ge=0, le=10)

    # Round timeline (002 and rules-decisions "Round timeline")
    initiative_die: str = "d10"
    initiative_min_segment: Segment = 0
    initiative_max_segment: Segment = 11
    movement_ft_per_segment: Distance = 5
    last_attack_segment: Segment = 10
    scarper_initiative: Segment = 1
    scarper_defence_bonus: Bonus = 2
    aiming_attack_bonus: Bonus = 3
    critical_event_die: str = "d30"
    critical_side_die: str = "d3"
    lucky_break_die: str = "d6"
    lucky_opening_die: str = "d6"
    really_lucky_opening_die: str = "d10"
    shift_direction_die: str = "d8"
    shift_distance_die: str = "d2"
    shift_ft_per_point: int = Field(5, ge=1, le=100)
    critical_retreat_ft: int = Field(10, ge=0, le=MAX_FEET)
    shield_damage_penalty: int = Field(1, ge=0, le=10)
    armour_dent_penalty: int = Field(1, ge=0, le=10)
    stymied_rounds: int = Field(2, ge=1, le=100)
    befuddled_rounds: int = Field(1, ge=1, le=100)
    befuddled_attacked_rounds: int = Field(2, ge=1, le=100)
    wild_opening_multiplier: int = Field(2, ge=1, le=10)
    declaration_seconds: int = Field(120, ge=0, le=86_400)
    declaration_extra_seconds: int = Field(120, ge=1, le=3600)
    declaration_seconds_per_creature: int = Field(120, ge=0, le=3600)
    failure_levels: tuple[FailureLevel, ...] = Field(DEFAULT_FAILURE_LEVELS, max_length=20)

    # Conditions (rules-decisions "Conditions"; 002 stunning table)
    dazed_penalty: int = Field(-2, ge=-100, le=0)
    stunned_penalty: int = Field(-4, ge=-100, le=0)
    knockdown_penalty: int = Field(-6, ge=-100, le=0)
    prone_defence_penalty: int = Field(-5, ge=-100, le=0)
    ko_rounds: int = Field(1, ge=1, le=100)
    catastrophic_ko_rounds: int = Field(30, ge=1, le=1000)

    # Surprise (002 "Surprise"; the reading of the bonuses is rules-decisions-style default)
    surprise_spot_target: int = Field(12, ge=2, le=30)
    alertness: tuple[AlertnessLevel, ...] = Field(DEFAULT_ALERTNESS, max_length=20)
    surprise_hit_bonus: Bonus = 2
    surprise_damage_per_level: Bonus = 1
    # RD "Shielding the surprised": "+2 × (L − k + 1) to hit" (off: +2 on every attack)
    surprise_hit_per_level: bool = True
    # RD "Shielding the surprised": an unsurprised creature engaging the ambusher first
    # cancels its later free attacks
    surprise_shielding: bool = True

    # Spoiling (002 "Spoiling attacks": "If you are not concentrating then a perception roll
    # must be made to notice the movements of the caster. For each segment that the action
    # is performed the perception roll difficulty reduces by one"; the seed gives no base:
    # 002's "standard (12)" Spot save)
    spoiling_needs_notice: bool = True
    spoil_perception_target: int = Field(12, ge=2, le=40)
    spoil_perception_per_segment: int = Field(1, ge=0, le=20)
    spoil_perception_die: str = "d20"
    spoil_perception_segments: int = Field(1, ge=0, le=10)

    # Vision (the product's own reading: the seeds have no light rules; docs/vision.md)
    dim_sight_ft: int = Field(30, ge=0, le=1000)

    # Melee manoeuvres (002 "Multiple Attackers", "Charge opponent", "Overruns", "Forcing
    # opponents back", "Evading", "Grappling", "Stunning"; rules-decisions "Melee manoeuvres")
    multiple_attackers_bonus: int = Field(1, ge=0, le=10)
    multiple_attackers_min: int = Field(2, ge=2, le=20)
    force_back_base: int = Field(10, ge=0, le=40)
    force_back_ft_per_point: int = Field(1, ge=0, le=20)
    force_back_ac_per_level: int = Field(1, ge=0, le=10)
    run_over_ft: int = Field(10, ge=0, le=300)
    sprint_over_ft: int = Field(20, ge=0, le=300)
    run_bonus: int = Field(2, ge=0, le=20)
    sprint_bonus: int = Field(4, ge=0, le=20)
    charge_per_size_category: int = Field(2, ge=0, le=20)
    overrun_base: int = Field(10, ge=0, le=40)
    overrun_per_speed_step: int = Field(2, ge=0, le=20)
    overrun_per_size_category: int = Field(4, ge=0, le=20)
    overrun_braced: int = Field(3, ge=0, le=20)
    knee_high_size: Size = Size.TINY
    # 002 Overruns: "In the case of many smaller creatures the mass of half the group is
    # used"; RD "Group overrun": + ⌊log2⌊N/2⌋⌋ size categories (mass doubles per category)
    group_overrun_share: int = Field(2, ge=1, le=20)
    group_overrun_mass_per_category: int = Field(2, ge=2, le=20)
    evade_target: int = Field(12, ge=2, le=40)
    stun_check_base: int = Field(10, ge=0, le=40)
    throw_figure: int = Field(3, ge=0, le=20)
    takedown_figure: int = Field(3, ge=0, le=20)
    lock_figure: int = Field(5, ge=0, le=20)
    improve_lock_figure: int = Field(4, ge=0, le=20)
    escape_figure: int = Field(4, ge=0, le=20)
    escape_figure_holder_changing: int = Field(2, ge=0, le=20)
    throw_damage: str = "d2"
    lock_damage: str = "d4"
    pin_attack_bonus: int = Field(1, ge=0, le=10)

    # Morale (002 "Morale"; rules-decisions "Injury, morale and the rest")
    default_morale: int = Field(12, ge=2, le=20)
    morale_dice: str = "2d10"
    morale_roll: MoraleRoll = MoraleRoll.SIDE
    leader_down_modifier: int = Field(-3, ge=-20, le=0)
    outnumbered_ratio: int = Field(2, ge=1, le=20)
    casualty_percents: tuple[Annotated[int, Field(ge=1, le=100)], ...] = Field(
        (50, 75), max_length=10)
    morale_results: tuple[MoraleRow, ...] = Field(DEFAULT_MORALE_RESULTS, min_length=1,
                                                  max_length=20)

    # Sleep (002 "Sleep")
    waking_rounds: int = Field(1, ge=1, le=100)
    rising_rounds: int = Field(1, ge=1, le=100)
    defending_rounds: int = Field(1, ge=1, le=100)
    rising_attack_die: str = "d8"
    waking_damage_multiplier: int = Field(2, ge=1, le=10)
    # Injury options, all off by default (002 "Hit Location", "Hitting specific locations",
    # "Damage", "Critical Locations", "Critical Roll", "Fumble", "One or two hands";
    # rules-decisions "Injury, morale and the rest")
    hit_location: bool = False
    hit_location_die: str = "d10"
    hit_locations: tuple[HitLocation, ...] = Field(DEFAULT_HIT_LOCATIONS, min_length=1,
                                                   max_length=20)
    head_hits_stun: bool = False
    stunning_damage_types: tuple[DamageType, ...] = Field((DamageType.BLUDGEON,),
                                                          max_length=len(DamageType))
    highest_die_damage: bool = False
    wounds: bool = False
    wound_every_points: int = Field(5, ge=1, le=100)
    attack_die: str = "d20"
    critical_roll: bool = False
    critical_location_multiplier: int = Field(2, ge=1, le=10)
    fumble: bool = False
    fumble_save_die: str = "d10"
    hero_points: bool = False
    hero_hit_bonus: int = Field(10, ge=0, le=50)
    hero_damage_multiplier: int = Field(2, ge=1, le=10)
    grip_hit_bonus: int = Field(1, ge=0, le=10)
    one_and_half_grip_damage: str = "d3"
    popup_spot_target: int = Field(9, ge=2, le=30)
    non_humanoid_critical_multiplier: int = Field(2, ge=1, le=10)
    special_penetration_margin: int = Field(2, ge=0, le=20)

    # Declarations and defence (002 "Multiple Attacks", "Defence - Melee", "Parry", "Dodging
    # instead of parrying", "Not attacking", "Size Effects"; rules-decisions "Parry and dodge")
    multiple_attack_penalty: int = Field(3, ge=0, le=20)
    stand_to_defend_bonus: int = Field(2, ge=0, le=20)
    parry_and_dodge: bool = False
    defence_base: int = Field(11, ge=0, le=40)
    parry_size_modifiers: tuple[Bonus, ...] = Field((-1, -2, 0, 1, 2, 3), min_length=6,
                                                    max_length=6)
    dodge_size_modifiers: tuple[Bonus, ...] = Field((3, 2, 0, -1, -2, -3), min_length=6,
                                                    max_length=6)
    dodge_unprotected_penalty: int = Field(-2, ge=-20, le=0)

    # Unarmed combat (002 "Unarmed Combat", "Pummelling"; rules-decisions "Pummelling")
    metal_armours: tuple[str, ...] = Field(METAL_ARMOURS, max_length=len(ARMOURS))
    martial_arts_dice: tuple[str, ...] = Field(("d2", "d4", "d6", "d8", "d10", "d12"),
                                               min_length=1, max_length=20)
    martial_arts_levels_per_die: int = Field(3, ge=1, le=40)

    @field_validator("ability_table")
    @classmethod
    def _bands_ordered(cls, bands: tuple[AbilityBand, ...]) -> tuple[AbilityBand, ...]:
        if not bands:
            raise ValueError("ability_table needs at least one band")
        for band, following in pairwise(bands):
            if band.high + 1 != following.low:
                raise ValueError(
                    f"ability_table bands must be contiguous: {band.high} then {following.low}"
                )
        return bands

    @field_validator("fall_die", "initiative_die", "critical_event_die", "die_chain_cap",
                     "throw_damage", "lock_damage", "morale_dice", "rising_attack_die",
                     "one_and_half_grip_damage")
    @classmethod
    def _dice(cls, die: str) -> str:
        DiceExpression.parse(die)
        return die

    @field_validator("casualty_percents")
    @classmethod
    def _percents_rising(cls, percents: tuple[int, ...]) -> tuple[int, ...]:
        if list(percents) != sorted(set(percents)):
            raise ValueError(f"casualty_percents must rise, each once (got {list(percents)})")
        return percents

    @field_validator("scatter_die", "hit_location_die", "spoil_perception_die",
                     "fumble_save_die", "critical_side_die",
                     "shift_direction_die", "lucky_break_die", "lucky_opening_die",
                     "really_lucky_opening_die", "shift_distance_die")
    @classmethod
    def _one_die(cls, die: str) -> str:
        expression = DiceExpression.parse(die)
        if len(expression.dice) != 1 or expression.modifier:
            raise ValueError(f"must be one die such as d12 (got {die!r})")
        return die

    @field_validator("attack_die")
    @classmethod
    def _one_set(cls, die: str) -> str:
        """One set of like dice (d20, 2d8): its highest and lowest faces are the natural
        critical and fumble (002 "Rolling a double 8 is counted as a critical")."""
        expression = DiceExpression.parse(die)
        if len(expression.groups) != 1 or expression.modifier:
            raise ValueError(f"must be one set of like dice such as d20 or 2d8 (got {die!r})")
        if expression.support_size > EXACT_OUTCOMES:
            raise ValueError(f"{die} has {expression.support_size:,} possible totals; the "
                             f"odds enumerate at most {EXACT_OUTCOMES:,}")
        return die

    @model_validator(mode="after")
    def _locations_cover_the_die(self) -> RulesProfile:
        """Each face of the location die falls in exactly one row; names are unique."""
        faces = DiceExpression.parse(self.hit_location_die).dice[0]
        rows = sorted(self.hit_locations, key=lambda row: row.low)
        covered = [face for row in rows for face in range(row.low, row.high + 1)]
        if covered != list(range(1, faces + 1)):
            raise ValueError(f"hit_locations must cover 1-{faces} of the "
                             f"{self.hit_location_die} once each, in rows low ≤ high")
        names = [row.name.casefold() for row in rows]
        if len(set(names)) != len(names):
            raise ValueError("hit_locations: two rows share a name")
        return self

    @field_validator("metal_armours")
    @classmethod
    def _known_armours(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [name for name in names if name not in ARMOURS]
        if unknown:
            raise ValueError(f"unknown armour {unknown[0]!r}; choose from {', '.join(ARMOURS)}")
        return names

    @field_validator("die_chain", "martial_arts_dice")
    @classmethod
    def _chain_dice(cls, chain: tuple[str, ...]) -> tuple[str, ...]:
        for die in chain:
            DiceExpression.parse(die)
        return chain

    @model_validator(mode="after")
    def _cap_on_chain(self) -> RulesProfile:
        if self.die_chain_cap not in self.die_chain:
            raise ValueError(f"die_chain_cap {self.die_chain_cap!r} is not in die_chain")
        if self.sprint_over_ft < self.run_over_ft:
            raise ValueError(f"sprint_over_ft {self.sprint_over_ft} is below run_over_ft "
                             f"{self.run_over_ft}")
        return self

    @field_validator("size_footprints")
    @classmethod
    def _footprints_grow(cls, cells: tuple[int, ...]) -> tuple[int, ...]:
        """A larger size never holds fewer cells than a smaller one."""
        if list(cells) != sorted(cells):
            raise ValueError(f"size_footprints must not shrink from one size to the next "
                             f"(got {list(cells)}, Tiny first)")
        return cells

    def footprint(self, size: Size) -> int:
        """Cells across a creature of ``size`` takes on the grid (RD "Sizes")."""
        return self.size_footprints[size.rank]

    @model_validator(mode="after")
    def _segments_ordered(self) -> RulesProfile:
        if self.initiative_min_segment >= self.initiative_max_segment:
            raise ValueError(f"initiative_min_segment {self.initiative_min_segment} must be "
                             f"below initiative_max_segment {self.initiative_max_segment}")
        return self

    @model_validator(mode="after")
    def _morale_rows_named(self) -> RulesProfile:
        """Each morale row names a failure level, and the first level has one (a level
        without a row counts as the one below it)."""
        levels = [level.name for level in self.failure_levels]
        for row in self.morale_results:
            if row.level not in levels:
                raise ValueError(f"morale_results: {row.level!r} is not a failure level "
                                 f"({', '.join(levels)})")
        if levels and levels[0] not in {row.level for row in self.morale_results}:
            raise ValueError(f"morale_results needs a row for {levels[0]!r}, the first "
                             "failure level")
        return self

    @property
    def ability_range(self) -> tuple[int, int]:
        return self.ability_table[0].low, self.ability_table[-1].high

    def ability_modifier(self, score: int) -> int:
        """The modifier for an ability score; ValueError outside the table."""
        for band in self.ability_table:
            if band.low <= score <= band.high:
                return band.modifier
        low, high = self.ability_range
        raise ValueError(f"ability score {score} is outside the table ({low}-{high})")

    def failure_level(self, margin: int) -> str | None:
        """The named degree for failing by ``margin`` (None when it did not fail)."""
        named = [lvl.name for lvl in self.failure_levels if margin >= lvl.min_margin]
        return named[-1] if named else None

    def failure_rank(self, margin: int) -> int:
        """How many failure levels failing by ``margin`` is worth: 0 when it did not fail,
        1 for the first degree (Unlucky), and so on."""
        return sum(1 for lvl in self.failure_levels if margin >= lvl.min_margin)
