"""Shove resolution on the grid (000 "Force Rating", "Force Multiplier", "Forceful Defense",
"Terrain Modifiers to Force", "Pit-Stop Rule"; rules-decisions "Shove" 1-13).

:func:`resolve_shove` is a pure function of (encounter, request, dice); it changes nothing.
:class:`core.actions.commands.ApplyShove` applies its result. The dice are drawn in this order:
attack d20; the shove die (standard success only); the Pit-Stop d20 (when a hazard is
reached); the hazard's damage and its own save d20; falling damage; slam damage rolls.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from pydantic import ConfigDict

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant
from core.model.dice import DiceExpression, DiceSource, RollRecord, step_die
from core.model.encounter import Encounter, Token
from core.model.grid import (
    Cell,
    Direction,
    Footprint,
    allowed_directions,
    step_costs_ft,
    straight_away,
)
from core.model.mapmodel import Hazard, HazardEffect, HazardKind, WallKind
from core.model.profile import CreatureCollision, MasteryReduction, RulesProfile
from core.model.tables import SIZES
from core.rules.conditions import roll_penalty, save_terms
from core.rules.damage import damage_after_armour
from core.rules.melee import open_contact
from core.rules.ratings import armour_value, force_defense, force_rating, shove_resist
from core.rules.turns import require_turn
from core.rules.value import RulesValue
from core.spatial.geometry import geometry_of


class IllegalShoveError(ValueError):
    """The shove cannot be attempted as asked (not adjacent, bad direction, ...)."""


class SuccessLevel(StrEnum):
    FAIL = "fail"
    SUCCESS = "success"
    DOUBLE = "double"


class StopReason(StrEnum):
    NONE = "none"
    FULL_DISTANCE = "full distance"
    WALL = "wall"
    CLOSED_DOOR = "closed door"
    WINDOW = "window"
    LEDGE = "ledge"
    CREATURE = "creature"
    HAZARD = "hazard threshold"
    MAP_EDGE = "map edge"


SLAMMING = (StopReason.WALL, StopReason.CLOSED_DOOR, StopReason.WINDOW, StopReason.LEDGE)


class ShoveRequest(RulesValue):
    """What the GM declares."""

    attacker: str
    defender: str
    direction: Direction | None = None
    modifier: int = 0
    ignore_reach: bool = False


class HazardOutcome(RulesValue):
    """A hazard the defender reached: the Pit-Stop save and, on failure, what it did."""

    name: str
    kind: HazardKind
    pit_stop_roll: RollRecord
    pit_stop: Breakdown
    pit_stop_target: int
    saved: bool
    damage_roll: RollRecord | None = None
    own_save_roll: RollRecord | None = None
    own_save_passed: bool | None = None
    fall_ft: int = 0
    fall_roll: RollRecord | None = None
    damage: Breakdown = Breakdown()


class ShoveResult(RulesValue):
    """Everything that happened, step by step, so the GM can see why."""

    attacker: str
    defender: str
    attack_roll: RollRecord
    attack: Breakdown
    target_fd: Breakdown
    margin: int
    level: SuccessLevel
    forceful_defense: bool
    direction: Direction
    shove_die: str | None = None
    die_steps: tuple[Term, ...] = ()
    shove_roll: RollRecord | None = None
    distance: Breakdown = Breakdown()
    distance_ft: int = 0
    path: tuple[Cell, ...] = ()
    moved_ft: float = 0
    stop_reason: StopReason = StopReason.NONE
    stopped_by: str = ""
    unused_ft: float = 0
    slam_rolls: tuple[RollRecord, ...] = ()
    slam_damage: tuple[Breakdown, ...] = ()
    hazard: HazardOutcome | None = None
    prone: bool = False
    defender_av: int = 0
    final_cell: Cell

    @property
    def total_damage(self) -> int:
        hazard = self.hazard.damage.value if self.hazard else 0
        return sum(b.value for b in self.slam_damage) + hazard

    def summary(self) -> str:
        """One line for the log, e.g. "Ogre shoves Mira 10 ft NE — double success, Prone,
        slams the wall: 4 damage (AV 4)"."""
        head = f"{self.attacker} shoves {self.defender}"
        if self.level is SuccessLevel.FAIL:
            return (f"{head} — fails ({self.attack.value} vs FD {self.target_fd.value})")
        if self.distance_ft <= 0:
            head += " — staggered, holds ground"
        elif len(self.path) == 1 and self.stop_reason is StopReason.FULL_DISTANCE:
            head += f" — jostled {self.distance_ft} ft, stays in its space"
        elif len(self.path) > 1:
            head += f" {self.moved_ft:g} ft {self.direction}"
        else:
            head += f" {self.direction}"
        parts = [("double success" if self.level is SuccessLevel.DOUBLE else "success")
                 + (" (Forceful Defense caps it)" if self.forceful_defense else "")]
        if self.prone:
            parts.append("Prone")
        parts += self._stop_summary()
        return f"{head} — " + ", ".join(parts)

    def _stop_summary(self) -> list[str]:
        if self.slam_damage:
            return [f"slams the {self.stopped_by}: {self.total_damage} damage "
                    f"(AV {self.defender_av})"]
        if self.hazard and self.hazard.saved:
            return [f"catches the edge of {self.hazard.name}"]
        if self.hazard:
            return [f"falls into {self.hazard.name}: {self.hazard.damage.value} damage"]
        if self.stop_reason in (StopReason.CREATURE, StopReason.MAP_EDGE, *SLAMMING):
            return [f"stopped by the {self.stopped_by}"]
        return []


class HazardReach(RulesValue):
    """A hazard the push would enter: a painted region, or a drop in elevation."""

    name: str
    kind: HazardKind
    effect: HazardEffect


class Push(RulesValue):
    """Where a push of ``distance_ft`` in ``direction`` goes, before any save (rules-decisions
    Shove 9-13). Deterministic: the same for the resolver and the odds."""

    path: tuple[Cell, ...]
    moved_ft: float
    unused_ft: float
    stop_reason: StopReason
    stopped_by: str = ""
    hazard: HazardReach | None = None
    hazard_cell: Cell | None = None


def _heights(encounter: Encounter, footprint: Footprint) -> npt.NDArray[np.int32]:
    """The heights of the cells under a footprint on the map (read from the geometry)."""
    x, y, size = footprint
    return geometry_of(encounter).elevation[y:y + size, x:x + size]


def _floor(encounter: Encounter, footprint: Footprint) -> int:
    """The height a creature stands at: the highest cell under it."""
    return int(_heights(encounter, footprint).max())


def _lowest(encounter: Encounter, footprint: Footprint) -> int:
    return int(_heights(encounter, footprint).min())


def step_obstacle(encounter: Encounter, token: Token, here: Footprint, there: Footprint,
              direction: Direction) -> tuple[StopReason, str] | None:
    """What stops a step from ``here`` to ``there``, if anything (walls before creatures)."""
    geometry = geometry_of(encounter)
    leaving = not encounter.map.contains_footprint(there)
    if leaving or geometry.footprint_move_blocked(here, direction) \
            or geometry.footprint_split(there):
        wall = geometry.blocking_wall(here, direction)
        if wall is None and leaving:
            return StopReason.MAP_EDGE, "map edge"
        kind = wall.kind if wall else WallKind.WALL
        reason = {WallKind.DOOR: StopReason.CLOSED_DOOR,
                  WallKind.WINDOW: StopReason.WINDOW}.get(kind, StopReason.WALL)
        return reason, {StopReason.CLOSED_DOOR: "closed door"}.get(reason, kind.value)
    rise = _floor(encounter, there) - _floor(encounter, here)
    if rise >= encounter.profile.drop_hazard_ft:
        return StopReason.LEDGE, f"ledge ({rise} ft up)"
    others = encounter.tokens_overlapping(there, ignore=token.id)
    if others:
        return StopReason.CREATURE, others[0].name
    return None


def _hazard_entered(encounter: Encounter, here: Footprint, there: Footprint
                    ) -> HazardReach | None:
    """A painted hazard the step newly enters, or an elevation drop past the threshold."""
    index = geometry_of(encounter).hazard_index  # the first hazard of each cell, or −1
    current = set(here.cells())
    inside = {int(index[c.y, c.x]) for c in current}
    for cell in there.cells():
        number = int(index[cell.y, cell.x])
        if cell in current or number < 0 or number in inside:
            continue
        hazard = encounter.map.hazards[number]
        if not any(c in hazard.cells for c in current):  # not in it already (overlaps)
            return _reach_of(hazard)
    drop = _floor(encounter, here) - _lowest(encounter, there)
    if drop >= encounter.profile.drop_hazard_ft:
        return HazardReach(name=f"a {drop} ft drop", kind=HazardKind.CLIFF,
                           effect=HazardEffect(fall_ft=drop, damage_type="falling"))
    return None


def _reach_of(hazard: Hazard) -> HazardReach:
    return HazardReach(name=hazard.name, kind=hazard.kind, effect=hazard.effect)


def plan_push(encounter: Encounter, token: Token, direction: Direction, distance_ft: float
              ) -> Push:
    """Walk the defender's footprint step by step. A step is taken while the distance left
    is at least half its cost (round half up, rules-decisions Shove 9)."""
    profile = encounter.profile
    here = token.footprint
    path, moved, remaining = [here], 0.0, float(distance_ft)
    for cost in step_costs_ft(_repeat(direction), profile.cell_size_ft, profile.diagonal_rule):
        there = here.moved(direction)
        if remaining * 2 < cost:
            done = Push(path=_cells(path), moved_ft=moved, unused_ft=0,
                        stop_reason=StopReason.FULL_DISTANCE)
            return _short_of_a_cell(encounter, token, (here, there, direction), remaining, done)
        obstacle = step_obstacle(encounter, token, here, there, direction)
        if obstacle is not None:
            return Push(path=_cells(path), moved_ft=moved, unused_ft=remaining,
                        stop_reason=obstacle[0], stopped_by=obstacle[1])
        hazard = _hazard_entered(encounter, here, there)
        if hazard is not None:
            return Push(path=_cells(path), moved_ft=moved, unused_ft=remaining,
                        stop_reason=StopReason.HAZARD, stopped_by=hazard.name, hazard=hazard,
                        hazard_cell=Cell(there.x, there.y))
        path.append(there)
        here, moved, remaining = there, moved + cost, remaining - cost
    raise AssertionError("unreachable: the step generator is infinite")


def _short_of_a_cell(encounter: Encounter, token: Token,
                     step: tuple[Footprint, Footprint, Direction], remaining: float,
                     done: Push) -> Push:
    """The distance left is too short for another cell. Against a wall (or a solid thing)
    what is left still slams, if it is at least ``slam_min_unused_ft``: "Any unused
    distance of 1 ft or more against the wall slams (a 2 ft push flush against a wall
    slams; a Tiny creature can be slammed)" (rules-decisions Shove 10)."""
    if remaining < encounter.profile.slam_min_unused_ft:
        return done
    obstacle = step_obstacle(encounter, token, *step)
    if obstacle is None or not _solid(obstacle[0], encounter.profile):
        return done
    return done.model_copy(update={"unused_ft": remaining, "stop_reason": obstacle[0],
                                   "stopped_by": obstacle[1]})


def _solid(reason: StopReason, profile: RulesProfile) -> bool:
    """Walls, closed doors, windows and ledges are solid; creatures when the profile says."""
    return reason in SLAMMING or (reason is StopReason.CREATURE
                                  and profile.creature_collision is CreatureCollision.SOLID)


def _repeat(direction: Direction) -> Iterator[Direction]:
    while True:
        yield direction


def _cells(path: list[Footprint]) -> tuple[Cell, ...]:
    return tuple(Cell(fp.x, fp.y) for fp in path)


class ShoveSetup(RulesValue):
    """Everything about a shove that does not depend on the dice."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    attacker: Token
    defender: Token
    direction: Direction
    attack_terms: Breakdown
    target_fd: Breakdown
    forceful_defense_possible: bool
    shove_die: str
    die_steps: tuple[Term, ...]
    distance_terms: Breakdown
    max_displacement_ft: int
    slippery_ft: int
    slam_count: int
    defender_av: int
    save_terms: tuple[Term, ...]


def prepare_shove(encounter: Encounter, request: ShoveRequest) -> ShoveSetup:
    """Check the shove is possible and work out every dice-independent term."""
    attacker, defender = encounter.token(request.attacker), encounter.token(request.defender)
    if attacker.id == defender.id:
        raise IllegalShoveError(f"{attacker.name} cannot shove itself")
    require_turn(encounter, attacker.id)
    profile = encounter.profile
    if profile.reach_required and not request.ignore_reach:
        _check_reach(encounter, attacker, defender)
    direction = _direction(attacker, defender, request.direction, profile)
    a, d = attacker.combatant, defender.combatant
    attack_fr, defend_fr = force_rating(a, profile).value, force_rating(d, profile).value
    att_floor, def_floor = (_floor(encounter, attacker.footprint),
                            _floor(encounter, defender.footprint))
    die, die_steps = shove_die(encounter, attacker, defender)
    size_spec = SIZES[d.size]
    return ShoveSetup(
        attacker=attacker, defender=defender, direction=direction,
        attack_terms=_attack_terms(a, d, attack_fr, request.modifier, profile),
        target_fd=force_defense(d, profile),
        forceful_defense_possible=defend_fr > attack_fr,
        shove_die=die, die_steps=die_steps,
        distance_terms=_distance_terms(encounter, defender, attack_fr, def_floor > att_floor),
        max_displacement_ft=size_spec.max_displacement_ft,
        slippery_ft=profile.slippery_bonus_ft if _on_slippery(encounter, defender) else 0,
        slam_count=max(profile.slam_min_rolls, attack_fr // profile.slam_rolls_per_fr_points),
        defender_av=armour_value(d).value, save_terms=save_terms(d, profile),
    )


def _check_reach(encounter: Encounter, attacker: Token, defender: Token) -> None:
    gap = attacker.footprint.gap(defender.footprint)
    if gap != 0:
        raise IllegalShoveError(
            f"{attacker.name} is not adjacent to {defender.name} "
            f"({gap} cell(s) between them); move closer first")
    if not open_contact(encounter, attacker.footprint, defender.footprint):
        raise IllegalShoveError(f"a wall stands between {attacker.name} and {defender.name}")


def shove_die(encounter: Encounter, attacker: Token, defender: Token
              ) -> tuple[str, tuple[Term, ...]]:
    """The defender's size die stepped up by the attacker's FR and higher ground (000 "The
    Force Multiplier", "Terrain Modifiers to Force"), and the steps taken."""
    profile = encounter.profile
    higher = _floor(encounter, attacker.footprint) > _floor(encounter, defender.footprint)
    steps = _die_steps(force_rating(attacker.combatant, profile).value, higher, profile)
    die = step_die(SIZES[defender.combatant.size].shove_die, sum(t.value for t in steps),
                   profile.die_chain, profile.die_chain_cap)
    return die, steps


def _direction(attacker: Token, defender: Token, wanted: Direction | None,
               profile: RulesProfile) -> Direction:
    if wanted is None:
        return straight_away(attacker.footprint, defender.footprint)
    allowed = allowed_directions(attacker.footprint, defender.footprint,
                                 profile.direction_spread_deg)
    if wanted not in allowed:
        raise IllegalShoveError(
            f"{wanted} is not within {profile.direction_spread_deg}° of straight away from "
            f"{attacker.name}; allowed: {', '.join(allowed)}")
    return wanted


def _attack_terms(a: Combatant, d: Combatant, attack_fr: int, modifier: int,
                  profile: RulesProfile) -> Breakdown:
    """FR + situational − 4 per size category the defender is larger, less one category
    per Mastery rank (000 "Size and FR interaction"; rules-decisions Shove 2)."""
    terms = [Term("FR bonus", attack_fr, "000 Force Rating: d20 + FR vs FD"),
             *roll_penalty(a, profile)]
    if modifier:
        terms.append(Term("Situational", modifier, "GM"))
    larger = d.size.rank - a.size.rank
    if larger > 0:
        label = f"Size: {larger} categor{'y' if larger == 1 else 'ies'} larger"
        if a.mastery_rank:
            label += f", Mastery {a.mastery_rank}"
        terms.append(Term(label, size_penalty(larger, a.mastery_rank, profile),
                          "000 Size and FR interaction"))
    return Breakdown.of(*terms)


def size_penalty(larger: int, mastery: int, profile: RulesProfile) -> int:
    """−4 per size category the defender is larger, less Mastery: one category per rank
    by default, or one point per rank (``mastery_reduction``); never a bonus. 000: "This
    penalty is reduced by Mastery rank as described in the Wrestling and Shove sections"
    (sections the seed does not include)."""
    per = profile.size_penalty_per_category
    if profile.mastery_reduction is MasteryReduction.POINT:
        return -max(0, per * larger - mastery)
    return -per * max(0, larger - mastery)


def _die_steps(attack_fr: int, higher_ground: bool, profile: RulesProfile
               ) -> tuple[Term, ...]:
    steps = []
    per = profile.fr_points_per_die_step
    if attack_fr >= per:
        steps.append(Term(f"FR +{attack_fr}: one step per {per} points", attack_fr // per,
                          "000 The Force Multiplier"))
    if higher_ground and profile.higher_ground_die_steps:
        steps.append(Term("Attacker on higher ground", profile.higher_ground_die_steps,
                          "000 Terrain Modifiers to Force"))
    return tuple(steps)


def _distance_terms(encounter: Encounter, defender: Token, attack_fr: int,
                    defender_higher: bool) -> Breakdown:
    """Attacker FR − Shove Resist (with terrain) — the shove die is added when rolled
    (rules-decisions Shove 5)."""
    profile = encounter.profile
    terms = [Term("Attacker FR", attack_fr, "rules-decisions Shove 5")]
    terms += [Term(f"Resist: {t.name}", -t.value, t.source)
              for t in shove_resist(defender.combatant, profile).terms]
    if defender_higher:
        terms.append(Term("Resist: defender on higher ground", -profile.higher_ground_resist,
                          "000 Terrain Modifiers to Force"))
    if any(encounter.map.terrain_at(c).adds_resist for c in defender.footprint.cells()):
        terms.append(Term("Resist: difficult terrain", -profile.difficult_terrain_resist,
                          "000 Terrain Modifiers to Force"))
    return Breakdown.of(*terms)


def _on_slippery(encounter: Encounter, token: Token) -> bool:
    return any(encounter.map.terrain_at(c).slippery for c in token.footprint.cells())


def success_level(setup: ShoveSetup, d20: int, profile: RulesProfile
                  ) -> tuple[SuccessLevel, bool]:
    """The level for a d20 roll, and whether Forceful Defense capped a double
    (000 "Forceful Defense"; rules-decisions Shove 3)."""
    margin = d20 + setup.attack_terms.value - setup.target_fd.value
    if margin < 0:
        return SuccessLevel.FAIL, False
    if margin >= profile.double_success_margin:
        if setup.forceful_defense_possible:
            return SuccessLevel.SUCCESS, True
        return SuccessLevel.DOUBLE, False
    return SuccessLevel.SUCCESS, False


def push_distance(setup: ShoveSetup, level: SuccessLevel, die_total: int | None,
                  profile: RulesProfile) -> Breakdown:
    """Feet pushed: die + FR − Resist clamped to 0..Max Displacement; on a Double Success
    the greater of 10 ft and the defender's Max Displacement ("A double never moves a
    creature less than a standard success could"); then the slippery bonus
    (rules-decisions Shove 5-7)."""
    if level is SuccessLevel.DOUBLE:
        feet = max(profile.double_success_distance_ft, setup.max_displacement_ft)
        label = ("Double Success" if feet == profile.double_success_distance_ft
                 else f"Double Success: Max Displacement {feet} ft")
        distance = Breakdown.of(Term(label, feet, "rules-decisions Shove 6"))
    else:
        assert die_total is not None
        distance = Breakdown.of(Term(f"Shove die ({setup.shove_die})", die_total,
                                     "rules-decisions Shove 5"), *setup.distance_terms.terms)
        cap = setup.max_displacement_ft
        if distance.value > cap:
            distance = distance.plus(Term(f"Capped at Max Displacement {cap} ft",
                                          cap - distance.value,
                                          "000 Size table"))
        elif distance.value < 0:
            distance = distance.plus(Term("Not below 0", -distance.value,
                                          "rules-decisions Shove 5"))
    if setup.slippery_ft:
        distance = distance.plus(Term("Slippery surface", setup.slippery_ft,
                                      "000 Terrain Modifiers to Force"))
    return distance


def resolve_shove(encounter: Encounter, request: ShoveRequest, dice: DiceSource
                  ) -> ShoveResult:
    """Resolve a shove without changing the encounter."""
    profile = encounter.profile
    setup = prepare_shove(encounter, request)
    a, d = setup.attacker.name, setup.defender.name
    roll = dice.roll("d20", f"{a} shove (FR vs FD)")
    level, capped = success_level(setup, roll.total, profile)
    attack = Breakdown.of(Term("d20", roll.total, "000 Force Rating"), *setup.attack_terms.terms)
    base = {"attacker": a, "defender": d, "attack_roll": roll, "attack": attack,
            "target_fd": setup.target_fd, "margin": attack.value - setup.target_fd.value,
            "level": level, "forceful_defense": capped, "direction": setup.direction,
            "defender_av": setup.defender_av}
    if level is SuccessLevel.FAIL:
        return ShoveResult(**base, final_cell=setup.defender.cell)
    shove_roll = (dice.roll(setup.shove_die, f"{a} shove die")
                  if level is SuccessLevel.SUCCESS else None)
    distance = push_distance(setup, level, shove_roll.total if shove_roll else None, profile)
    push = plan_push(encounter, setup.defender, setup.direction, distance.value)
    hazard = (_resolve_hazard(setup, push, profile, dice) if push.hazard else None)
    slam_roll, slam_hits = _slam(setup, push, profile, dice)
    final = push.path[-1] if hazard is None or hazard.saved else push.hazard_cell
    assert final is not None
    return ShoveResult(
        **base, shove_die=setup.shove_die, die_steps=setup.die_steps, shove_roll=shove_roll,
        distance=distance, distance_ft=distance.value, path=push.path, moved_ft=push.moved_ft,
        stop_reason=push.stop_reason, stopped_by=push.stopped_by, unused_ft=push.unused_ft,
        slam_rolls=(slam_roll,) if slam_roll else (), slam_damage=slam_hits,
        hazard=hazard, final_cell=final,
        prone=level is SuccessLevel.DOUBLE and profile.double_success_prone)


def slams(push: Push, profile: RulesProfile) -> bool:
    """A push slams when a wall, closed door or solid object stops it with at least
    ``slam_min_unused_ft`` left (rules-decisions Shove 10-11)."""
    return _solid(push.stop_reason, profile) and push.unused_ft >= profile.slam_min_unused_ft


def slam_dice(setup: ShoveSetup) -> DiceExpression:
    """The slam: the shove die rolled max(1, ⌊FR / 2⌋) times (000: "take Shove Die damage
    per 2 points of attacker's FR for unused travel distance")."""
    die = DiceExpression.parse(setup.shove_die)
    return DiceExpression(groups=tuple((count * setup.slam_count, faces)
                                       for count, faces in die.groups),
                          modifier=die.modifier * setup.slam_count)


def slam_damage(roll: RollRecord, av: int, profile: RulesProfile) -> tuple[Breakdown, ...]:
    """"The impact is one hit: add the dice, then apply AV once" (rules-decisions Shove 10;
    the profile's ``slam_av_per_die`` sends each die through AV instead)."""
    if profile.slam_av_per_die:
        return tuple(damage_after_armour(value, av, profile) for value in roll.values)
    return (damage_after_armour(roll.total, av, profile),)


def _slam(setup: ShoveSetup, push: Push, profile: RulesProfile, dice: DiceSource
          ) -> tuple[RollRecord | None, tuple[Breakdown, ...]]:
    if not slams(push, profile):
        return None, ()
    roll = dice.roll(slam_dice(setup), f"slam damage ({setup.slam_count} × {setup.shove_die})")
    return roll, slam_damage(roll, setup.defender_av, profile)


def pit_stop_target(setup: ShoveSetup) -> int:
    return setup.defender.combatant.death_ray_save


def _resolve_hazard(setup: ShoveSetup, push: Push, profile: RulesProfile, dice: DiceSource
                    ) -> HazardOutcome:
    """The Pit-Stop rule: save vs Death Ray to stop at the edge; on failure the hazard's
    own effect applies (000 "The Pit-Stop Rule"; rules-decisions Shove 12-13). Both saves
    take the defender's stun condition (rules-decisions "Conditions")."""
    assert push.hazard is not None
    return pit_stop(setup.defender, push.hazard, profile, dice)


def pit_stop(defender: Token, reach: HazardReach, profile: RulesProfile, dice: DiceSource
             ) -> HazardOutcome:
    """The Pit-Stop save of a creature about to be moved into ``reach`` and, when it fails,
    the hazard's own damage, save and fall (through its AV; both saves take its condition)."""
    saves = save_terms(defender.combatant, profile)
    av = armour_value(defender.combatant).value
    target = defender.combatant.death_ray_save
    roll = dice.roll("d20", f"{defender.name} Pit-Stop save vs Death Ray")
    saving = Breakdown.of(Term("d20", roll.total, "000 The Pit-Stop Rule"), *saves)
    outcome = {"name": reach.name, "kind": reach.kind, "pit_stop_roll": roll,
               "pit_stop": saving, "pit_stop_target": target}
    if saving.value >= target:
        return HazardOutcome(**outcome, saved=True)
    effect = reach.effect
    terms: list[Term] = []
    damage_roll = dice.roll(effect.damage, f"{reach.name} damage") if effect.damage else None
    own_roll, own_passed = None, None
    if damage_roll is not None:
        raw = damage_roll.total
        if effect.save_target is not None:
            own_roll = dice.roll("d20", f"{reach.name} save")
            own_passed = own_roll.total + sum(t.value for t in saves) >= effect.save_target
        terms += list(hazard_damage_terms(raw, own_passed, effect, av, profile))
    fall_roll = _fall_roll(effect.fall_ft, profile, dice)
    if fall_roll is not None:
        terms += fall_terms(effect.fall_ft, fall_roll.total, av, profile)
    return HazardOutcome(**outcome, saved=False, damage_roll=damage_roll,
                         own_save_roll=own_roll, own_save_passed=own_passed,
                         fall_ft=effect.fall_ft, fall_roll=fall_roll,
                         damage=Breakdown.of(*terms))


def save_modifier(setup: ShoveSetup) -> int:
    """What the defender's condition adds to its saves (0 or a penalty)."""
    return sum(term.value for term in setup.save_terms)


def fall_terms(fall_ft: int, rolled: int, av: int, profile: RulesProfile) -> tuple[Term, ...]:
    """Falling damage, through AV as one hit ("AV applies to all physical damage", 000;
    rules-decisions Shove 13) unless the profile's ``falls_ignore_av``."""
    fall = Term(f"Fall {fall_ft} ft", rolled, "rules-decisions Shove 13")
    if profile.falls_ignore_av:
        return (fall,)
    armoured = damage_after_armour(rolled, av, profile).value
    return fall, Term(f"Armour against the fall (AV {av})", armoured - rolled,
                      "000 AV applies to all physical damage")


def hazard_damage_terms(raw: int, own_passed: bool | None, effect: HazardEffect, av: int,
                        profile: RulesProfile) -> tuple[Term, ...]:
    """The hazard's damage after its own save (half or none) and, if physical, armour."""
    terms = [Term(f"Hazard damage ({effect.damage})", raw, "hazard effect")]
    if own_passed:
        kept = raw // 2 if effect.save_halves else 0
        terms.append(Term("Hazard save passed", kept - raw, "hazard effect"))
    after = sum(t.value for t in terms)
    if effect.through_armour and after > 0:
        armoured = damage_after_armour(after, av, profile).value
        terms.append(Term(f"Armour (AV {av})", armoured - after, "000 AV Damage Resolution"))
    return tuple(terms)


def fall_dice(fall_ft: int, profile: RulesProfile) -> str | None:
    """1 die per full ``fall_feet_per_die`` fallen (rules-decisions Shove 13)."""
    count = fall_ft // profile.fall_feet_per_die
    return f"{count}{profile.fall_die}" if count else None


def _fall_roll(fall_ft: int, profile: RulesProfile, dice: DiceSource) -> RollRecord | None:
    expression = fall_dice(fall_ft, profile)
    return dice.roll(expression, f"falling {fall_ft} ft") if expression else None
