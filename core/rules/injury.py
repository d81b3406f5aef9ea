"""002's injury options in an attack, each a rules-profile switch (off by default; rules-decisions
"Injury, morale and the rest"), and the weapon grips:

- **Aiming at a location** (002 "Hitting specific locations": "a skill modifier is applied
  ... dependent upon the area aimed at"): the row's melee or missile modifier to the hit
  roll; a hit lands there (:func:`aim_terms`, :func:`hit_location`).
- **Hit location** (002 "Hit Location": "Roll 1d10 to determine where you hit"): on a hit
  that was not aimed, the location die picks the row.
- **Critical and fumble rolls** (002 "Critical Roll": "Rolling a double 8 is counted as a
  critical and automatically causes maximum damage. A critical roll on a critical location
  causes double damximum damage"; "Fumble"): the attack dice all at their top face (a
  natural 20 on the d20, RD; a double 8 on 2d8) or all showing 1 (:func:`natural`).
- **Hero points** (002 "Damage": "A hero point causes either: 1. Double damage 2. Automatic
  hit (unless aiming for a specific location). 3. +10 to hit") — :func:`hero_terms`.
- **Grips** (002 "One or two hands": 1½ hands +d3 damage and +1 to hit; 2 hands "d3 / +d6"
  damage, weapon dependent, and +1 to hit unless the weapon needs two hands anyway) —
  :func:`grip_terms`.

>>> p = RulesProfile(hit_location=True)
>>> [(t.name, t.value) for t in aim_terms(p, "Head", missile=True)]
[('Aimed at the head', -15)]
>>> from core.model.dice import ScriptedDice
>>> hit_location(p, None, ScriptedDice([8]), "Ann").name
'Upper torso'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.injury import HeroUse, location_named, location_rolled
from core.model.profile import RulesProfile
from core.model.weapons import Grip, Hands, Weapon
from core.rules.damage import maximum_damage, roll_damage
from core.rules.value import RulesValue

AIMING = "002 Hitting specific locations"
HERO = "002 Damage: a hero point causes"
HANDS = "002 One or two hands"


class IllegalInjuryError(ValueError):
    """An injury option asked for that the profile or the combatant does not allow."""


class Natural(StrEnum):
    """An attack roll whose dice all show their top face, or all show 1."""

    CRITICAL = "critical"
    FUMBLE = "fumble"


class LocationHit(RulesValue):
    """Where a hit landed: the row, and the location die (None when aimed there)."""

    name: str
    critical: bool
    roll: RollRecord | None = None

    @property
    def aimed(self) -> bool:
        return self.roll is None


def aim_terms(profile: RulesProfile, aim: str | None, missile: bool) -> tuple[Term, ...]:
    """The aimed-location modifier (melee or missile column); refused while the profile
    rolls no hit location."""
    if aim is None:
        return ()
    if not profile.hit_location:
        raise IllegalInjuryError("aiming at a location needs the hit location roll (Map ▸ "
                                 "Rules settings ▸ Hit location)")
    row = location_named(profile.hit_locations, aim)
    column = "missile" if missile else "melee"
    return (Term(f"Aimed at the {row.name.lower()}", row.aim(missile),
                 f"{AIMING}: {column} modifier"),)


def hit_location(profile: RulesProfile, aim: str | None, dice: DiceSource, who: str
                 ) -> LocationHit | None:
    """Where a hit lands: the aimed row, else the location die's row; None when the
    profile rolls no location."""
    if not profile.hit_location:
        return None
    if aim is not None:
        row = location_named(profile.hit_locations, aim)
        return LocationHit(name=row.name, critical=row.critical)
    roll = dice.roll(profile.hit_location_die, f"{who} hit location")
    row = location_rolled(profile.hit_locations, roll.total)
    return LocationHit(name=row.name, critical=row.critical, roll=roll)


def natural(roll: RollRecord, profile: RulesProfile) -> Natural | None:
    """A critical (every attack die at its top face) when ``critical_roll`` is on; a fumble
    (every die showing 1) when ``fumble`` is on."""
    if profile.critical_roll and roll.values == roll.faces:
        return Natural.CRITICAL
    if profile.fumble and all(value == 1 for value in roll.values):
        return Natural.FUMBLE
    return None


class AttackFace(NamedTuple):
    """One total of the attack dice: its probability, whether it hits, whether it is a
    natural critical or fumble, and how far a miss misses by (0 on a hit)."""

    p: Fraction
    hit: bool
    natural: Natural | None
    missed_by: int


def attack_outcomes(profile: RulesProfile, bonus: int, target: int, automatic: bool,
                    extra: Mapping[int, Fraction] | None = None) -> list[AttackFace]:
    """Every total of the attack dice with its exact probability (for one set of like dice
    the top total is every die at its top face, the bottom one every die at 1:
    :func:`natural`'s test), as the resolver would judge it. ``extra`` is the distribution
    of a die added to the roll (the +1d8 against a rising creature,
    :func:`core.rules.sleep.rising_bonus`); a natural is read off the attack dice alone."""
    dice = DiceExpression.parse(profile.attack_die)
    faces = []
    for total, p in sorted(dice.distribution().items()):
        rolled = (Natural.CRITICAL if total == dice.maximum and profile.critical_roll
                  else Natural.FUMBLE if total == dice.minimum and profile.fumble else None)
        for added, chance in (extra or {0: Fraction(1)}).items():
            margin = target - (total + added + bonus)
            hit = automatic or (margin <= 0 and rolled is not Natural.FUMBLE)
            faces.append(AttackFace(p * chance, hit, rolled, 0 if hit else miss_margin(margin)))
    return faces


def miss_margin(margin: int) -> int:
    """How far a miss missed by: a fumble that would have hit still misses by 1."""
    return max(margin, 1)


def hero_terms(attacker: Combatant, hero: HeroUse | None, aim: str | None,
               profile: RulesProfile) -> tuple[Term, ...]:
    """Check the point can be spent and give its term to the hit roll (+10 to hit; the
    other uses change the hit or the damage). A point a critical event gave for this round
    (23) may be spent even with hero points off; a stymied creature spends none (22)."""
    if hero is None:
        return ()
    if attacker.has(Condition.STYMIED):
        raise IllegalInjuryError(f"{attacker.name} is stymied: no hero points this round or "
                                 "next (002 Critical event 22)")
    if not profile.hero_points and not attacker.round_hero_points:
        raise IllegalInjuryError("hero points are off (Map ▸ Rules settings ▸ Injury options)")
    if attacker.hero_points + attacker.round_hero_points < 1:
        raise IllegalInjuryError(f"{attacker.name} has no hero points left")
    if hero is HeroUse.AUTOMATIC_HIT and aim is not None:
        raise IllegalInjuryError("a hero point's automatic hit does not work when aiming for "
                                 "a specific location (002)")
    if hero is HeroUse.PLUS_TEN:
        return (Term("Hero point", profile.hero_hit_bonus, f"{HERO} +10 to hit"),)
    return ()


def grip_terms(weapon: Weapon | None, grip: Grip | None, profile: RulesProfile
               ) -> tuple[tuple[Term, ...], str | None]:
    """The grip's to-hit term and its damage die (None: no bonus). A versatile weapon is
    held in one hand unless the GM says otherwise; a two-handed one always in two, with its
    damage bonus but no to-hit bonus ("it is already calculated")."""
    if weapon is None:
        if grip not in (None, Grip.ONE):
            raise IllegalInjuryError("a grip needs a weapon from the weapon table")
        return (), None
    held = grip or weapon.grips[0]
    if held not in weapon.grips:
        raise IllegalInjuryError(f"a {weapon.name} is held with "
                                 + " or ".join(g.label for g in weapon.grips))
    if held is Grip.ONE:
        return (), None
    die = profile.one_and_half_grip_damage if held is Grip.ONE_AND_HALF else \
        weapon.two_hand_damage
    if weapon.hands is Hands.TWO:
        return (), die
    return (Term(f"Held in {held.label}", profile.grip_hit_bonus, f"{HANDS}: To Hit bonus"),), die


def with_die(damage: str, extra: str | None) -> str:
    """The damage dice with a grip's die added as a set of its own."""
    return damage if extra is None else str(DiceExpression.parse(f"{damage}+{extra}"))


def hit_damage(damage: str, bonus: int, *, critical: bool, location: LocationHit | None,
               hero: HeroUse | None, profile: RulesProfile, dice: DiceSource, who: str
               ) -> tuple[RollRecord | None, Breakdown]:
    """A hit's damage before armour: the dice (their maximum on a critical roll, doubled on
    a critical location), the bonus, and a hero point's double damage."""
    roll: RollRecord | None = None
    if critical:
        terms = [Term("Critical roll: maximum damage", maximum_damage(damage, profile),
                      "002 Critical Roll: automatically causes maximum damage")]
    else:
        roll, rolled = roll_damage(damage, profile, dice, f"{who} damage")
        terms = [rolled]
    if bonus:
        terms.append(Term("Damage bonus", bonus, "002 Damage: add strength bonus; GM"))
    raw = Breakdown.of(*terms)
    if critical and location is not None and location.critical:
        raw = _times(raw, profile.critical_location_multiplier,
                     f"Critical roll on the {location.name.lower()}",
                     "002 Critical Roll: on a critical location double maximum damage")
    if hero is HeroUse.DOUBLE_DAMAGE:
        raw = _times(raw, profile.hero_damage_multiplier, "Hero point", f"{HERO} double damage")
    return roll, raw


def _times(raw: Breakdown, factor: int, name: str, source: str) -> Breakdown:
    return raw.plus(Term(f"{name} (×{factor})", raw.value * (factor - 1), source))
