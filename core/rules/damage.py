"""Damage: through armour (000 "Armor Value"), and 002's damage options — the highest die of
each set, maximum damage on a critical roll, and wound points.

>>> p = RulesProfile()
>>> damage_after_armour(9, av=4, profile=p).value    # 000: Chain Mail takes 9
5
>>> wound_points(12, RulesProfile(wounds=True)), wound_points(12, p)
(2, 0)
>>> maximum_damage("2d12+2d4+1", RulesProfile(highest_die_damage=True))
17
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.profile import RulesProfile

HIGHEST = "002 Damage: pick the die with the highest value; the highest from each set"


def damage_after_armour(raw: int, av: int, profile: RulesProfile, magic: bool = False
                        ) -> Breakdown:
    """Physical damage through AV: ``penetration_points`` always get through, the rest is
    reduced by AV, never below that guaranteed point (000 "AV Damage Resolution").
    Magic damage ignores AV (000: "Magic damage follows the rules ... Motes")."""
    raw = max(raw, 0)
    if magic:
        return Breakdown.of(Term("Magic damage (ignores AV)", raw, "000 AV applies to physical"))
    guaranteed = profile.penetration_points
    remainder = max(0, raw - guaranteed)
    absorbed = min(av, remainder)
    return Breakdown.of(
        Term("Penetrating point", guaranteed, "000 AV: one point always penetrates"),
        Term("Remaining damage", remainder, "000 AV Damage Resolution"),
        Term(f"Absorbed by AV {av}", -absorbed, "000 AV Damage Resolution"),
    )


def set_highs(roll: RollRecord) -> list[int]:
    """The highest die of each set (group) of the roll, in the expression's order."""
    highs, start = [], 0
    for count, _faces in DiceExpression.parse(roll.expression).groups:
        highs.append(max(roll.values[start:start + count]))
        start += count
    return highs


def roll_damage(expression: str, profile: RulesProfile, dice: DiceSource, purpose: str
                ) -> tuple[RollRecord, Term]:
    """Roll the damage dice: their sum (000), or with ``highest_die_damage`` the highest
    die of each set added together (002 "Damage" steps 1-3; the constant still counts)."""
    roll = dice.roll(expression, purpose)
    if not profile.highest_die_damage:
        return roll, Term("Damage dice", roll.total, "000 AV Damage Resolution")
    highs = set_highs(roll)
    name = "Highest die of each set (" + ", ".join(map(str, highs)) + ")"
    return roll, Term(name, sum(highs) + roll.modifier, HIGHEST)


def maximum_damage(expression: str, profile: RulesProfile) -> int:
    """The most the dice can do: every die at its top face, or with ``highest_die_damage``
    the top face of each set (002 "Critical Roll": "automatically causes maximum
    damage")."""
    dice = DiceExpression.parse(expression)
    if profile.highest_die_damage:
        return sum(faces for _count, faces in dice.groups) + dice.modifier
    return dice.maximum


def wound_points(damage: int, profile: RulesProfile) -> int:
    """Of ``damage`` after armour, the points taken as wound points: every
    ``wound_every_points``-th one when ``wounds`` is on (002 "Damage": "After all damage
    absorbtion and other effects are calculated every 5th point is taken as a wound point
    not a stamina point")."""
    return damage // profile.wound_every_points if profile.wounds else 0
