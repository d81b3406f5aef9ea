"""Weapons in use: a combatant's melee reach and the damage its weapon deals
(rules-decisions "Missiles", "Weapon damage defaults"; 002 "Damage": "4. Add strength
bonus").

>>> from core.model.combatant import Combatant, OutOfHand
>>> from core.model.encounter import Encounter
>>> spearman = Combatant(name="S", weapons=("Spear",))
>>> melee_reach(Encounter(), spearman), melee_reach(Encounter(), Combatant(name="F"))
(10, 5)
"""

from __future__ import annotations

from core.model.breakdown import Term
from core.model.combatant import Combatant, OutOfHand
from core.model.encounter import Encounter
from core.model.profile import RulesProfile
from core.model.tables import SHIELDS
from core.model.weapons import UNARMED, Weapon


def carried(encounter: Encounter, combatant: Combatant) -> list[Weapon]:
    """The weapons it carries and holds: not those a critical event took out of hand."""
    gone = {o.item for o in combatant.out_of_hand if not o.shield}
    return [encounter.weapon(name) for name in combatant.weapons if name not in gone]


def out_of_hand(combatant: Combatant, weapon: str) -> str:
    """Why ``weapon`` cannot be used ('' when it can): a critical event took it out of hand
    (002 "Critical events" 5-7: dropped, tangled, stuck)."""
    gone = next((o for o in combatant.out_of_hand if o.item == weapon and not o.shield), None)
    if gone is None:
        return ""
    return (f"{combatant.name}'s {gone.describe(weapon)}: recovering it takes an action "
            "(a token's menu ▸ This round)")


def melee_weapons(encounter: Encounter, combatant: Combatant) -> list[Weapon]:
    """The melee weapons it carries, longest reach first; bare hands when it has none."""
    weapons = [w for w in carried(encounter, combatant) if w.melee]
    if not weapons:
        weapons = [encounter.weapon(UNARMED)] if _has(encounter, UNARMED) else []
    return sorted(weapons, key=lambda w: -(w.reach_ft or 0))


def melee_choices(encounter: Encounter, combatant: Combatant) -> list[Weapon]:
    """What it may strike with in melee: its melee weapons, then bare hands (a pummel, 002
    "Pummelling"), when the weapon table has an Unarmed row."""
    weapons = [w for w in carried(encounter, combatant) if w.melee]
    hands = [encounter.weapon(UNARMED)] if _has(encounter, UNARMED) else []
    return sorted(weapons, key=lambda w: -(w.reach_ft or 0)) + [
        w for w in hands if w.name not in combatant.weapons]


def missile_weapons(encounter: Encounter, combatant: Combatant) -> list[Weapon]:
    return [w for w in carried(encounter, combatant) if w.missile]


def _has(encounter: Encounter, name: str) -> bool:
    return any(w.name == name for w in encounter.weapons)


def melee_reach(encounter: Encounter, combatant: Combatant) -> int:
    """The longer of the creature's natural reach and its melee weapons' reach."""
    weapons = [w.reach_ft or 0 for w in carried(encounter, combatant) if w.melee]
    return max([combatant.reach_ft, *weapons])


def strength_to_damage(combatant: Combatant, profile: RulesProfile, fired: bool
                       ) -> tuple[Term, ...]:
    """STR to damage in melee and when thrown, not when fired (002 "Damage": "4. Add
    strength bonus"; RD: "Thrown weapons add the STR modifier to damage; fired ones do
    not")."""
    strength = profile.ability_modifier(combatant.abilities.strength)
    if fired or not strength:
        return ()
    return (Term("STR modifier", strength, "002 Damage: add strength bonus"),)


def label_of(item: OutOfHand) -> str:
    """The weapon's name, or the shield's label ("Medium Shield")."""
    return SHIELDS[item.item].label if item.shield and item.item in SHIELDS else item.item


def gear_notes(combatant: Combatant) -> list[str]:
    """What critical events did to its gear, in a GM's words: "Long sword dropped at (0,0)",
    "shield damaged ×1", "armour dented ×2" (how many times: what each costs is the
    profile's, shown in the AC's breakdown)."""
    notes = [o.describe(label_of(o)) for o in combatant.out_of_hand]
    if combatant.shield_damage and combatant.has_shield:
        notes.append(f"shield damaged ×{combatant.shield_damage}")
    if combatant.armour_dents:
        notes.append(f"armour dented ×{combatant.armour_dents}")
    return notes
