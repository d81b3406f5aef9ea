"""Exact odds of a melee attack on the map before any die is rolled: every total of the attack
dice (``attack_die``, the d20) enumerated with fractions, judged as the resolver judges it
(:func:`core.rules.injury.attack_outcomes`, with the terms of
:func:`core.rules.attack.prepare_attack`) — with the injury options too: an aimed location's
modifier, a hero point's +10 or automatic hit, natural criticals and fumbles, the +1d8
against a rising creature (002 "Sleep"); and where a hit lands on the hit location table.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> encounter = Encounter(tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0),
...                               Token(id="b", combatant=Combatant(name="B"), x=1, y=0)])
>>> odds = attack_odds(encounter, "a", "b", AttackOptions())
>>> odds.target, odds.hit
(11, Fraction(1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from core.model.dice import DiceExpression
from core.model.encounter import Encounter
from core.model.injury import location_named
from core.model.profile import RulesProfile
from core.rules.attack import (
    AttackOptions,
    MeleeSetup,
    attack_terms,
    automatic_hit,
    prepare_attack,
)
from core.rules.brawl import first_strike_note
from core.rules.injury import Natural, attack_outcomes
from core.rules.sleep import odds_notes, rising_bonus
from core.rules.unarmed import is_pummel


@dataclass(frozen=True)
class AttackOdds:
    """The chances of a melee attack: to hit, to hit with a critical roll, to fumble, and
    where a hit lands (each location's chance given a hit; empty with no location roll)."""

    die: str
    attack_bonus: int
    target: int
    hit: Fraction
    critical: Fraction
    fumble: Fraction
    locations: tuple[tuple[str, Fraction], ...]
    notes: tuple[str, ...] = ()  # what the target's state does (sleep.odds_notes)
    against: str = "AC"  # or the defender's parry or dodge (core.rules.defence)

    def to_json(self) -> dict[str, Any]:
        def num(value: Fraction) -> dict[str, Any]:
            return {"p": float(value), "exact": str(value)}

        return {"die": self.die, "attack_bonus": self.attack_bonus, "target": self.target,
                "against": self.against,
                "hit": num(self.hit), "critical": num(self.critical),
                "fumble": num(self.fumble),
                "locations": [{"location": name, **num(p)} for name, p in self.locations],
                "notes": list(self.notes)}


def attack_odds(encounter: Encounter, attacker_key: str, defender_key: str,
                action: AttackOptions) -> AttackOdds:
    """The exact odds (raises like the resolver when the attack cannot be made)."""
    setup = prepare_attack(encounter, attacker_key, defender_key, action)
    profile = encounter.profile
    bonus, target = attack_terms(setup.attacker.combatant, setup.defender.combatant,
                                 setup.options, profile, setup.terms,
                                 defence=setup.defence.value if setup.defence else None)
    defender = setup.defender.combatant
    faces = attack_outcomes(profile, bonus.value, target.value,
                            automatic_hit(defender, setup.options),
                            rising_bonus(defender, profile))
    return AttackOdds(
        die=profile.attack_die, attack_bonus=bonus.value, target=target.value,
        hit=sum((f.p for f in faces if f.hit), Fraction(0)),
        critical=sum((f.p for f in faces if f.hit and f.natural is Natural.CRITICAL),
                     Fraction(0)),
        fumble=sum((f.p for f in faces if not f.hit and f.natural is Natural.FUMBLE),
                   Fraction(0)),
        locations=location_odds(profile, action.aim),
        notes=(*odds_notes(defender, profile), *_brawling(encounter, setup)),
        against=setup.defence.name if setup.defence else "AC")


def location_odds(profile: RulesProfile, aim: str | None) -> tuple[tuple[str, Fraction], ...]:
    """Where a hit lands: the aimed row for certain, else each row's share of the location
    die's faces (002 "Hit Location"); nothing when no location is rolled."""
    if not profile.hit_location:
        return ()
    if aim is not None:
        return ((location_named(profile.hit_locations, aim).name, Fraction(1)),)
    faces = DiceExpression.parse(profile.hit_location_die).dice[0]
    return tuple((row.name, Fraction(row.high - row.low + 1, faces))
                 for row in sorted(profile.hit_locations, key=lambda row: -row.low))


def _brawling(encounter: Encounter, setup: MeleeSetup) -> tuple[str, ...]:
    """A pummel against an armed defender: it strikes first (002 Brawling)."""
    weapon = encounter.weapon(setup.options.weapon) if setup.options.weapon else None
    if not is_pummel(weapon):
        return ()
    note = first_strike_note(encounter, setup.attacker, setup.defender)
    return (note,) if note else ()
