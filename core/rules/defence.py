"""Parry and dodge instead of AC against melee (002 "Defence - Melee", "Parry", "Dodging
instead of parrying", "Size Effects"; rules-decisions "Parry and dodge"), a profile option
off by default (``parry_and_dodge``).

- 002 · Parry: "A charater's defence skill (parry) is Base armour + weapon skill + Alert +
  Shield + size + 1/2(STR + DEX + weapon bonus )"; "Parrying requires a weapon".
- 002 · Dodging: "Base armour + Dodge skill + Alert + Shield + size + DEX", "suffer a -2
  penalty to your defence if you don't have a shield or a substantial weapon (short sword
  size or larger)".
- RD: parry = 11 + HR slots + Alert + shield + size (002's melee column) + ½(STR mod + DEX
  mod + weapon's magic bonus), rounded down at the end; needs a weapon in hand, else the
  creature dodges. Dodge = 11 + dodge skill + Alert + shield + size (002's dodge column) +
  DEX mod, −2 unless a shield or a substantial weapon — a creature dodges only when it holds
  no weapon, so only a shield spares the −2. The stun conditions' penalties and Prone's −5
  lower both. Missiles are always against AC.

**Interp.**: "weapon bonus" is the creature's HR magic; 002's size words are read onto the
product's sizes as Tiny, Small, Medium, Big (Large), Huge, Enormous (Gargantuan): the profile's
``parry_size_modifiers`` and ``dodge_size_modifiers``, smallest first.

>>> from core.model.combatant import Abilities, Combatant
>>> from core.model.profile import RulesProfile
>>> fighter = Combatant(name="F", hr_slots=3, abilities=Abilities(strength=16, dexterity=13))
>>> parry(fighter, RulesProfile()).value  # 11 + 3 + ⌊(2 + 1 + 0) / 2⌋
15
>>> dodge(Combatant(name="R", dodge_skill=2), RulesProfile()).value  # 11 + 2 − 2
11
"""

from __future__ import annotations

from typing import NamedTuple

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.profile import RulesProfile
from core.rules.conditions import defence_penalty, gear_terms, lucky_terms, roll_penalty
from core.rules.ratings import shield_bonus
from core.rules.unarmed import is_pummel
from core.rules.weapons import carried

PARRY, DODGE = "002 Parry", "002 Dodging instead of parrying"


class Defence(NamedTuple):
    """What a melee attack is rolled against: "parry" or "dodge", and its value."""

    name: str
    value: Breakdown


def melee_defence(encounter: Encounter, defender: Token) -> Defence | None:
    """The defender's parry (a weapon in hand) or dodge against a melee attack; None while
    the profile keeps AC (the option is off)."""
    if not encounter.profile.parry_and_dodge:
        return None
    combatant = defender.combatant
    if any(w.melee and not is_pummel(w) for w in carried(encounter, combatant)):
        return Defence("parry", parry(combatant, encounter.profile))
    return Defence("dodge", dodge(combatant, encounter.profile))


def parry(combatant: Combatant, profile: RulesProfile) -> Breakdown:
    """002's parry, rounded down at the end (002 "Round down at the end of all
    calculations")."""
    strength = profile.ability_modifier(combatant.abilities.strength)
    dexterity = profile.ability_modifier(combatant.abilities.dexterity)
    half = (strength + dexterity + combatant.hr_magic) // 2
    return Breakdown.of(
        Term("Base", profile.defence_base, "RD Parry and dodge: 11"),
        Term("Weapon skill (HR slots)", combatant.hr_slots, PARRY),
        *_shared(combatant, profile.parry_size_modifiers, profile),
        Term(f"½(STR {strength:+d} + DEX {dexterity:+d} + weapon bonus "
             f"{combatant.hr_magic:+d}), rounded down", half, PARRY),
        *_worse(combatant, profile))


def dodge(combatant: Combatant, profile: RulesProfile) -> Breakdown:
    """002's dodge, by a creature with no weapon in hand: −2 without a shield."""
    dexterity = profile.ability_modifier(combatant.abilities.dexterity)
    unprotected = shield_bonus(combatant) == 0
    return Breakdown.of(
        Term("Base", profile.defence_base, "RD Parry and dodge: 11"),
        Term("Dodge skill", combatant.dodge_skill, DODGE),
        *_shared(combatant, profile.dodge_size_modifiers, profile),
        Term("DEX modifier", dexterity, DODGE),
        *((Term("No shield or substantial weapon", profile.dodge_unprotected_penalty,
                DODGE),) if unprotected and profile.dodge_unprotected_penalty else ()),
        *_worse(combatant, profile))


def _shared(combatant: Combatant, sizes: tuple[int, ...], profile: RulesProfile
            ) -> tuple[Term, ...]:
    """Alert, shield and size: in both formulas."""
    return (Term("Alert", combatant.alert, PARRY),
            Term("Shield", shield_bonus(combatant), "000 Shields table"),
            Term(f"Size ({combatant.size.value})", sizes[combatant.size.rank],
                 "002 Size Effects"))


def _worse(combatant: Combatant, profile: RulesProfile) -> tuple[Term, ...]:
    """The stun condition and Prone (RD "Condition penalties ... with parry/dodge on they
    also lower the parry/dodge value"), and what critical events did (as to AC)."""
    return (*roll_penalty(combatant, profile), *defence_penalty(combatant, profile),
            *gear_terms(combatant, profile), *lucky_terms(combatant))
