"""Where a hit lands decides the armour and what the wound does (002 "Damage", "Critical
Locations", "Special Damage"; rules-decisions "Armour by location"), with the hit location
option on (:mod:`core.rules.injury`).

- 002 · Damage: "When a hit is scored the damage a location roll is made to determine if
  they are wearing armour where you hit." A combatant's ``armour_gaps`` name the locations
  its armour leaves bare (none by default: its armour covers every location, so encounters
  that do not set it are unchanged); a hit there meets AV 0.
- 002 · Critical Locations: "Humanoids are potentially stunned on head strikes. Other
  creatures unless otherwise noted suffer double damage." A creature that is not
  ``humanoid`` hit on a critical location takes its damage roll ×
  ``non_humanoid_critical_multiplier`` before armour and no stun check (a critical roll there
  already doubles the dice maximum).
- 002 · Special Damage: "Creatures that cause special damage such as spider poison only do so
  if they penetrate your armour." A weapon's ``special`` (dice that ignore AV, and a note for
  the GM) applies when the location hit has AV 0 or the damage rolled is at least AV +
  ``special_penetration_margin`` (RD: "AV + 2").

>>> from core.model.combatant import Combatant
>>> bare_here(Combatant(name="A", armour="chain_mail", armour_gaps=("Head",)), "head")
True
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant
from core.model.dice import DiceSource
from core.model.profile import RulesProfile
from core.model.weapons import SpecialDamage
from core.rules.injury import LocationHit


def bare_here(combatant: Combatant, location: str) -> bool:
    """Whether its armour leaves ``location`` bare (any case)."""
    return location.casefold() in {gap.casefold() for gap in combatant.armour_gaps}


def location_av(combatant: Combatant, location: LocationHit | None, av: Breakdown
                ) -> Breakdown:
    """The AV that meets a hit on ``location``: none where its armour leaves it bare."""
    if location is None or not bare_here(combatant, location.name) or not av.value:
        return av
    return Breakdown.of(Term(f"{location.name}: not covered by its armour", 0,
                             "002 Damage: 'if they are wearing armour where you hit'"))


def critical_location(combatant: Combatant, location: LocationHit | None, raw: Breakdown,
                      critical_roll: bool, profile: RulesProfile) -> Breakdown:
    """A non-humanoid's critical location doubles the damage roll (not again on a critical
    roll, whose maximum is already doubled there)."""
    factor = profile.non_humanoid_critical_multiplier
    if (combatant.humanoid or location is None or not location.critical or critical_roll
            or factor == 1):
        return raw
    return raw.plus(Term(f"{location.name}: critical location (×{factor})",
                         raw.value * (factor - 1), "002 Critical Locations: 'Other creatures "
                                                   "unless otherwise noted suffer double "
                                                   "damage'"))


def stunned_by_head_hits(combatant: Combatant) -> bool:
    """002 Critical Locations: 'Humanoids are potentially stunned on head strikes.'"""
    return combatant.humanoid


def special_damage(special: SpecialDamage | None, through: tuple[int, int],
                   profile: RulesProfile, dice: DiceSource, who: str) -> Term | None:
    """The special damage when the hit penetrated the armour (AV 0 where it landed, or raw
    damage ≥ AV + the margin), rolled after the damage; None otherwise. ``through`` is the
    raw damage and the AV where it landed."""
    raw, av = through
    if special is None or (av and raw < av + profile.special_penetration_margin):
        return None
    roll = dice.roll(special.damage, f"{who} {special.name}")
    note = f"; {special.note}" if special.note else ""
    return Term(f"{special.name} (through the armour{note})", roll.total,
                "002 Special Damage: 'only do so if they penetrate your armour'")
