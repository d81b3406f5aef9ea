"""Unarmed combat (002 "Unarmed Combat"): pummelling.

- 002 · Pummelling: "Damage = D2 + Strength (Martial artists damage rises with levels as a
  normal weapon)" and "You can't pummel against metal armour." A pummel is a melee attack
  with the weapon table's Unarmed row (bare hands: what a creature carrying no melee weapon
  strikes with). Which armours are metal is the profile's ``metal_armours`` (rules-decisions
  "Pummelling": Scale, Chain Mail, Banded, Plate, Suit, Elven Chain, Dwarven Plate).
- **Interp.** (the seeds give no table of how "a normal weapon" rises with level): a martial
  artist's pummel die is ``martial_arts_dice`` indexed by level ÷
  ``martial_arts_levels_per_die`` (d2 at levels 1-2, d4 at 3-5, d6 at 6-8, … d12 from 15).

>>> from core.model.combatant import Combatant
>>> from core.model.profile import RulesProfile
>>> pummel_die("d2", Combatant(name="M", martial_artist=True, level=7), RulesProfile())
'd6'
>>> pummel_die("d2", Combatant(name="B", level=7), RulesProfile())
'd2'
"""

from __future__ import annotations

from core.model.combatant import Combatant
from core.model.profile import RulesProfile
from core.model.tables import ARMOURS
from core.model.weapons import UNARMED, Weapon

PUMMEL = "002 Pummelling"


def is_pummel(weapon: Weapon | None) -> bool:
    """A strike with bare hands (the weapon table's Unarmed row)."""
    return weapon is not None and weapon.name == UNARMED


def pummel_refusal(defender: Combatant, profile: RulesProfile) -> str:
    """Why ``defender`` cannot be pummelled ('' when it can): metal armour."""
    if defender.armour not in profile.metal_armours:
        return ""
    return (f"{defender.name} wears {ARMOURS[defender.armour].label}, metal armour: "
            f"{PUMMEL}: 'You can't pummel against metal armour.'")


def pummel_die(die: str, attacker: Combatant, profile: RulesProfile) -> str:
    """The pummel's damage die: the Unarmed row's ``die``, or a martial artist's by level."""
    if not attacker.martial_artist:
        return die
    dice = profile.martial_arts_dice
    return dice[min(attacker.level // profile.martial_arts_levels_per_die, len(dice) - 1)]
