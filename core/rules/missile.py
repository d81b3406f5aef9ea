"""Missile attacks on the map (002 "Missiles", "Missile accuracy", "Missile fire into combat",
"Misses", "Spoiling attacks"; rules-decisions "Missiles" and "Clarifications for cover,
missiles and manoeuvres"). Every number is a rules-profile field.

- **Range band**: the grid distance between the nearest cells of the two footprints (the
  profile's diagonal rule) against the weapon's short / medium / long range; beyond long
  the target is out of range.
- **Height**: 002 "At medium range they need 1/3 height of the range and at long range they
  need 1/2 the height" (of the distance to the target, RD): under a lower ``map.ceiling_ft``
  that band is out of reach.
- **Hit**: d20 + HR + the weapon's accuracy + the range modifier (short 0, medium −2,
  long −5) ≥ AC + cover (:mod:`core.rules.cover`); the attacker's stun condition applies.
  002 "If firing at a packed group rather than an individual it's always counted as short
  range": 3+ creatures within 5 ft of the target give the short-range modifier.
- **Damage**: the weapon's dice (+ STR when thrown, RD) through AV vs missiles; a flask's
  fire ignores AV.
- **Into melee**: 002 "If the opponent is missed by the bonus to the defence then the friend
  has been hit for a random amount of damage of 1 to weapon damage rating": a miss by no
  more than the friend's bonus hits the friend for one die of the weapon's maximum damage,
  through the friend's AV vs missiles.
- **Misses land** (002 "Misses"): the amount failed by × the weapon's miss distance in the
  direction of a d12 clock (12 straight on beyond the target, clockwise seen from above);
  002 "Missiles lobbed at a character that miss will land 4' beyond the target + the miss
  distance" at long range; a wall on the way stops it (:mod:`core.spatial.flight`). A flask
  leaves burning oil where it lands (on the target when it hits).
- **Flight time**: 002 "the flight time takes 1 segment per range unit ignoring point
  blank": a segment per band beyond short, for spoiling.

- **Injury options** (:mod:`core.rules.injury`; rules.md §14): aiming at a location (the
  missile column), the hit location, critical and fumble rolls, hero points and wound points
  as for a melee attack; a fumble misses by at least 1 and its save and critical event come
  after the miss's own die.
- **Pop-up targets** (002 "Pop-up missile shots": "only enemies waiting for you to pop up
  at that location may target you"): a creature that popped up this round is shot at where
  it popped up by an enemy waiting on that spot (:func:`seen_from`); others see it where it
  stands.

Dice order: the attack d20; against a rising target (002 "Sleep") its +1d8; on a hit the
hit location die (unless aimed), the weapon's damage dice (none on a critical roll) and a
head hit's stun check; on a miss by no more than the firing-into-melee bonus the friend's
damage die; on any other miss the scatter die; on a fumble then the fumble save and its
critical event.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum

import numpy as np
from pydantic import ConfigDict, Field

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, distance_ft
from core.model.injury import HeroUse
from core.model.weapons import MissileKind, Weapon
from core.rules.attack import (
    AttackOptions,
    AttackResult,
    DamageKind,
    IllegalAttackError,
    attack_terms,
    resolve_attack,
    round_terms,
    with_fumble,
)
from core.rules.conditions import helpless
from core.rules.cover import CoverReport, cover_on_map
from core.rules.damage import damage_after_armour, wound_points
from core.rules.holds import weapon_refusal
from core.rules.injury import miss_margin
from core.rules.melee import guard_terms
from core.rules.ratings import armour_value
from core.rules.turns import require_turn
from core.rules.value import RulesValue
from core.rules.weapons import missile_weapons, out_of_hand, strength_to_damage
from core.spatial.cover import Point, Segment
from core.spatial.flight import FloatArray, IntArray, cell_of, flight_ends
from core.spatial.geometry import geometry_of

SEED = "002 Missiles"


class RangeBand(StrEnum):
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"

    @property
    def beyond_short(self) -> int:
        return list(RangeBand).index(self)


class IllegalMissileError(IllegalAttackError):
    """The missile cannot be loosed as asked (no line of fire, out of range, no headroom)."""


class MissileRequest(RulesValue):
    """What the GM declares: who shoots whom, with which weapon (default: the first missile
    weapon the attacker carries), the GM's cover figure if any, a situational modifier."""

    model_config = ConfigDict(extra="forbid")

    attacker: str
    target: str
    weapon: str | None = None
    cover_override: int | None = Field(None, ge=0, le=100)
    modifier: int = Field(0, ge=-50, le=50)
    aim: str | None = Field(None, max_length=40, description="The hit location aimed at")
    hero: HeroUse | None = Field(None, description="A hero point spent on this shot")


class RangeReport(RulesValue):
    """How far, which band, what it costs to hit, how high it must fly, how long."""

    distance_ft: float
    band: RangeBand
    ranges: tuple[int, int, int]
    modifier: int
    packed_by: tuple[str, ...] = ()
    clearance_ft: float = 0
    ceiling_ft: int | None = None
    flight_segments: int = 0

    def describe(self) -> str:
        short, medium, long = self.ranges
        text = (f"{self.distance_ft:g} ft: {self.band.value} range ({short}/{medium}/{long} "
                f"ft), {self.modifier:+d}")
        if self.packed_by:
            text += f" (packed group: {', '.join(self.packed_by)})"
        if self.clearance_ft:
            text += f"; needs {round(self.clearance_ft, 1):g} ft of height"
        return text


class MissileSetup(RulesValue):
    """Everything about the shot before a die is rolled."""

    attacker_id: str
    target_id: str
    weapon: Weapon
    range: RangeReport
    cover: CoverReport
    options: AttackOptions
    terms: tuple[tuple[Term, ...], tuple[Term, ...]]
    bonus: Breakdown
    defence: Breakdown
    helpless: bool

    @property
    def lobbed(self) -> bool:
        return self.range.band is RangeBand.LONG

    @property
    def automatic(self) -> bool:
        """Hit whatever the roll: a helpless target, or a hero point's automatic hit."""
        return self.helpless or self.options.hero is HeroUse.AUTOMATIC_HIT


class FriendHit(RulesValue):
    """The friend in the way, hit by a near miss (and the wound points of that damage)."""

    token_id: str
    name: str
    roll: RollRecord
    damage: Breakdown
    wounds: int = 0


class Landing(RulesValue):
    """Where a miss came down: the point, its cell (None: off the map), how far it flew
    from the target and on which hour of the clock, and the wall that stopped it if one
    did."""

    point: Point
    cell: Cell | None
    clock: int
    distance_ft: float
    lobbed: bool
    wall: Segment | None = None


class MissileResult(RulesValue):
    """A resolved missile: the attack roll and damage, or who or where it hit instead."""

    attacker_id: str
    target_id: str
    weapon: str
    range: RangeReport
    cover: CoverReport
    attack: AttackResult
    friend_hit: FriendHit | None = None
    scatter: RollRecord | None = None
    landing: Landing | None = None
    fire_cell: Cell | None = None

    @property
    def margin(self) -> int:
        return self.attack.to_hit.value - self.attack.target_ac.value

    def summary(self) -> str:
        attack = self.attack
        head = (f"{attack.attacker}'s {self.weapon} at {attack.defender} "
                f"({self.range.band.value} range): {attack.to_hit.value} vs "
                f"{attack.target_ac.value}")
        outcome = attack.outcome()
        if attack.hit:
            return f"{head} — {outcome}"
        if self.friend_hit is not None:
            return (f"{head} — {outcome} and hits {self.friend_hit.name}, "
                    f"{self.friend_hit.damage.value} damage")
        where = self.landing.cell if self.landing else None
        lands = f"lands at ({where.x},{where.y})" if where else "lands off the map"
        return f"{head} — {outcome}, {lands}"


def prepare_missile(encounter: Encounter, request: MissileRequest) -> MissileSetup:
    """Every term of the shot (raises :class:`IllegalMissileError` when it cannot be made)."""
    profile = encounter.profile
    attacker, target = encounter.token(request.attacker), encounter.token(request.target)
    if attacker.id == target.id:
        raise IllegalMissileError(f"{attacker.name} cannot shoot at itself")
    # 002 Pop-up missile shots: those waiting "can fire irrespective of initiative".
    require_turn(encounter, attacker.id,
                 free=exposed_at(encounter, attacker, target) is not None)
    weapon = _weapon(encounter, attacker, request.weapon)
    refusal = weapon_refusal(encounter, attacker.id, weapon)
    if refusal:
        raise IllegalMissileError(refusal)
    cover = cover_on_map(encounter, attacker.id, target.id, request.cover_override)
    if not cover.line_of_fire:
        raise IllegalMissileError(f"{attacker.name} has no line of fire to {target.name}: "
                                  f"{cover.describe()}")
    ranged = range_report(encounter, attacker, target, weapon)
    aimed, scarpering = round_terms(encounter, attacker.id, target.id)
    hit = (*aimed, *_hit_terms(weapon, ranged))
    defence = (*scarpering, *cover.terms(), *guard_terms(encounter, target.id))
    strength = strength_to_damage(attacker.combatant, profile,
                                  fired=weapon.missile_kind is MissileKind.FIRED)
    options = AttackOptions(weapon=weapon.name, damage=weapon.damage, modifier=request.modifier,
                            damage_bonus=sum(t.value for t in strength), aim=request.aim,
                            hero=request.hero, special=weapon.special,
                            kind=DamageKind(missile=True, magic=weapon.magic_damage,
                                            damage_type=weapon.damage_type))
    bonus, target_number = attack_terms(attacker.combatant, target.combatant, options, profile,
                                        (hit, defence))
    return MissileSetup(attacker_id=attacker.id, target_id=target.id, weapon=weapon,
                        range=ranged, cover=cover, options=options, terms=(hit, defence),
                        bonus=bonus, defence=target_number,
                        helpless=helpless(target.combatant))


def _weapon(encounter: Encounter, attacker: Token, name: str | None) -> Weapon:
    if name is not None:
        weapon = encounter.weapon(name)
        if not weapon.missile:
            raise IllegalMissileError(f"a {weapon.name} cannot be thrown or fired")
        if gone := out_of_hand(attacker.combatant, weapon.name):
            raise IllegalMissileError(gone)
        return weapon
    carried = missile_weapons(encounter, attacker.combatant)
    if not carried:
        raise IllegalMissileError(f"{attacker.name} carries no missile weapon: name one")
    return carried[0]


def _hit_terms(weapon: Weapon, ranged: RangeReport) -> tuple[Term, ...]:
    label = f"{ranged.band.value.capitalize()} range ({ranged.distance_ft:g} ft)"
    if ranged.packed_by:
        label += ", packed group: as short"
    terms = [Term(label, ranged.modifier, f"{SEED}: range penalty; RD Missiles")]
    if weapon.accuracy:
        terms.append(Term(f"{weapon.name} accuracy", weapon.accuracy, "002 Missile accuracy"))
    return tuple(terms)


def range_report(encounter: Encounter, attacker: Token, target: Token, weapon: Weapon
                 ) -> RangeReport:
    """The band, its modifier (short when firing at a packed group), the height it needs
    under the map's ceiling and its flight time; refused beyond long range or under too low
    a ceiling."""
    profile = encounter.profile
    assert weapon.ranges is not None
    distance = distance_ft(attacker.footprint, target.footprint, profile.cell_size_ft,
                           profile.diagonal_rule)
    bands = [band for band, reach in zip(RangeBand, weapon.ranges, strict=True)
             if distance <= reach]
    if not bands:
        raise IllegalMissileError(f"{target.name} is {distance:g} ft away, beyond the "
                                  f"{weapon.name}'s long range of {weapon.ranges[2]} ft")
    band = bands[0]
    packed = _packed_group(encounter, attacker, target)
    clearance = _clearance(distance, band, encounter)
    modifiers = (profile.short_range_modifier, profile.medium_range_modifier,
                 profile.long_range_modifier)
    return RangeReport(distance_ft=distance, band=band, ranges=weapon.ranges,
                       modifier=modifiers[0 if packed else band.beyond_short],
                       packed_by=tuple(t.name for t in packed), clearance_ft=clearance,
                       ceiling_ft=encounter.map.ceiling_ft,
                       flight_segments=band.beyond_short * profile.flight_segments_per_band)


def _clearance(distance: float, band: RangeBand, encounter: Encounter) -> float:
    """The clear height the band needs (002: ⅓ of the range at medium, ½ at long)."""
    profile, ceiling = encounter.profile, encounter.map.ceiling_ft
    divisor = {RangeBand.SHORT: None, RangeBand.MEDIUM: profile.medium_clearance_divisor,
               RangeBand.LONG: profile.long_clearance_divisor}[band]
    if divisor is None:
        return 0
    needed = distance / divisor
    if ceiling is not None and ceiling < needed:
        raise IllegalMissileError(
            f"{distance:g} ft is {band.value} range, which needs {round(needed, 1):g} ft of clear "
            f"height (1/{divisor} of the distance, 002 Missiles); the ceiling is {ceiling} "
            "ft: out of reach")
    return needed


def _packed_group(encounter: Encounter, attacker: Token, target: Token) -> list[Token]:
    """The creatures within ``packed_group_ft`` of the target when there are enough of them
    to make a packed group (the attacker does not count)."""
    profile = encounter.profile
    reach = max(1, math.ceil(profile.packed_group_ft / profile.cell_size_ft))
    close = [t for t in encounter.neighbours(target, reach) if t.id != attacker.id
             and distance_ft(t.footprint, target.footprint, profile.cell_size_ft,
                             profile.diagonal_rule) <= profile.packed_group_ft]
    return close if len(close) >= profile.packed_group_count else []


def seen_from(encounter: Encounter, request: MissileRequest) -> Encounter:
    """The encounter as the shooter sees it: a target that popped up this round at a spot
    the shooter (an enemy) waits on stands on that spot (002 "Pop-up missile shots": "only
    enemies waiting for you to pop up at that location may target you. They can fire
    irrespective of initiative"); otherwise the encounter as it is."""
    shooter, target = encounter.token(request.attacker), encounter.token(request.target)
    spot = exposed_at(encounter, shooter, target)
    if spot is None or spot == target.cell:
        return encounter
    seen = encounter.scratch_copy()
    problem = seen.placement_problem([target.at(spot)])
    if problem:
        raise IllegalMissileError(f"{target.name} popped up at ({spot.x},{spot.y}), which is "
                                  f"taken now: {problem}")
    seen.put_token(target.at(spot))
    return seen


def exposed_at(encounter: Encounter, shooter: Token, target: Token) -> Cell | None:
    """Where ``target`` popped up this round, when ``shooter`` is an enemy waiting there."""
    state = encounter.timeline
    spots = [p.spot for p in state.pop_ups
             if p.token_id == target.id and p.round_number == state.round_number]
    if not spots or shooter.combatant.side is target.combatant.side:
        return None
    exposed = set(target.at(spots[-1]).footprint.cells())
    watching = any(w.token_id == shooter.id and w.round_number == state.round_number
                   and w.spot in exposed for w in state.waiting)
    return spots[-1] if watching else None


def resolve_missile(encounter: Encounter, request: MissileRequest, dice: DiceSource
                    ) -> MissileResult:
    """Loose the missile: hit and damage, or the friend in the way, or where it lands; a
    fumble's save and critical event last."""
    encounter = seen_from(encounter, request)
    result = _loosed(encounter, request, dice)
    pair = (result.attacker_id, result.target_id)
    return result.model_copy(update={"attack": with_fumble(encounter, result.attack, pair,
                                                           dice)})


def _loosed(encounter: Encounter, request: MissileRequest, dice: DiceSource
            ) -> MissileResult:
    setup = prepare_missile(encounter, request)
    attacker = encounter.token(setup.attacker_id)
    target = encounter.token(setup.target_id)
    attack = resolve_attack(attacker.combatant, target.combatant, setup.options,
                            encounter.profile, dice, round_terms=setup.terms)
    result = MissileResult(attacker_id=attacker.id, target_id=target.id,
                           weapon=setup.weapon.name, range=setup.range, cover=setup.cover,
                           attack=attack)
    if attack.hit:
        return _flask(result, setup, nearest_cell(target, setup.cover.origin))
    margin = miss_margin(attack.target_ac.value - attack.to_hit.value)
    cover = setup.cover
    if cover.friend_id is not None and margin <= cover.friend_bonus:
        friend = encounter.token(cover.friend_id)
        hit = _friend_hit(encounter, setup, friend, dice)
        return _flask(result.model_copy(update={"friend_hit": hit}), setup,
                      nearest_cell(friend, cover.origin))
    roll = dice.roll(encounter.profile.scatter_die, f"{attacker.name}'s miss: clock direction")
    landing = landings(encounter, setup, [margin], [roll.total])[0]
    return _flask(result.model_copy(update={"scatter": roll, "landing": landing}), setup,
                  landing.cell)


def _flask(result: MissileResult, setup: MissileSetup, cell: Cell | None) -> MissileResult:
    if setup.weapon.flask is None or cell is None:
        return result
    return result.model_copy(update={"fire_cell": cell})


def _friend_hit(encounter: Encounter, setup: MissileSetup, friend: Token, dice: DiceSource
                ) -> FriendHit:
    faces = friend_die(setup.weapon)
    roll = dice.roll(f"d{faces}", f"near miss hits {friend.name}")
    av = armour_value(friend.combatant, missile=True).value
    damage = damage_after_armour(roll.total, av, encounter.profile,
                                 magic=setup.weapon.magic_damage)
    return FriendHit(token_id=friend.id, name=friend.name, roll=roll, damage=damage,
                     wounds=wound_points(damage.value, encounter.profile))


def friend_die(weapon: Weapon) -> int:
    """The faces of "one die of the weapon's maximum damage" (RD)."""
    return max(2, DiceExpression.parse(weapon.damage).maximum)


def nearest_cell(token: Token, point: Point) -> Cell:
    """The token's cell nearest a point (where a missile coming from there strikes)."""
    return min(token.footprint.cells(),
               key=lambda c: (c.x + 0.5 - point[0]) ** 2 + (c.y + 0.5 - point[1]) ** 2)


def landings(encounter: Encounter, setup: MissileSetup, margins: Sequence[int],
             faces: Sequence[int]) -> list[Landing]:
    """Where misses by ``margins`` in the clock directions ``faces`` come down."""
    points, walls, feet = landing_points(encounter, setup, margins, faces)
    stops = geometry_of(encounter).sight_walls()
    return [Landing(point=(x, y), cell=_on_map(encounter, (x, y)), clock=face,
                    distance_ft=foot, lobbed=setup.lobbed,
                    wall=stops[wall].points if wall >= 0 else None)
            for (x, y), wall, foot, face in zip(points.tolist(), walls.tolist(), feet.tolist(),
                                                faces, strict=True)]


def landing_points(encounter: Encounter, setup: MissileSetup, margins: Sequence[int],
                   faces: Sequence[int]) -> tuple[FloatArray, IntArray, FloatArray]:
    """The landing points (rows x, y), the row of the sight wall that stopped each (−1:
    none) and the miss distances in feet, all at once (the odds ask for every pair of
    margin and clock face; the resolver for its one)."""
    profile, weapon = encounter.profile, setup.weapon
    sides = DiceExpression.parse(profile.scatter_die).dice[0]
    origin, aim = np.array(setup.cover.origin), np.array(setup.cover.aim)
    ahead = (aim - origin) / np.hypot(*(aim - origin))
    half = encounter.token(setup.target_id).footprint.size / 2
    feet = np.array(margins, dtype=np.float64) * weapon.miss_ft_per_point
    angle = 2 * math.pi * np.array(faces, dtype=np.float64) / sides
    cos, sin = np.cos(angle), np.sin(angle)
    # Clockwise on the screen (y grows downwards) is the usual rotation matrix.
    turned = np.stack([ahead[0] * cos - ahead[1] * sin, ahead[0] * sin + ahead[1] * cos], -1)
    cells = feet / profile.cell_size_ft
    if setup.lobbed:  # 4 ft beyond the target's far side, then the miss distance
        beyond = _to_edge(ahead, half) + profile.lobbed_beyond_ft / profile.cell_size_ft
        aims = aim + ahead * beyond + turned * cells[:, None]
    else:  # the miss distance from the target's side it passes
        aims = aim + turned * (_to_edge(turned, half) + cells)[:, None]
    points, walls = flight_ends(geometry_of(encounter), setup.cover.origin, aims)
    return points, walls, feet


def _to_edge(direction: FloatArray, half: float) -> FloatArray:
    """How far (cells) a ray from the centre of a square of half side ``half`` goes along
    each unit ``direction`` before it leaves the square: a miss is measured from the
    target's side, so a near miss of a Large ogre does not land on the ogre."""
    distance: FloatArray = half / np.abs(direction).max(axis=-1)
    return distance


def _on_map(encounter: Encounter, point: Point) -> Cell | None:
    cell = cell_of(point)
    return cell if encounter.map.contains(cell) else None
