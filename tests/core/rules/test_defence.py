"""Parry and dodge instead of AC against melee (core.rules.defence; 002 "Parry", "Dodging
instead of parrying", "Size Effects"; RD "Parry and dodge"), worked by hand. The option is
off by default: AC as before."""

from __future__ import annotations

from collections.abc import Callable

from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.profile import RulesProfile
from core.model.tables import Size
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.attack_odds import attack_odds
from core.rules.missile import MissileRequest, prepare_missile

Make = Callable[..., Encounter]
ON = RulesProfile(parry_and_dodge=True)
#: HR slots 3, STR 16 (+2), DEX 13 (+1), Alert 1, a medium shield (+2), a long sword:
#: parry 11 + 3 + 1 + 2 + 0 (Medium) + ⌊(2 + 1 + 0) / 2⌋ = 18; AC 11 + 2 + 1 = 14.
FIGHTER = Combatant(name="Fighter", side=Side.OPPOSITION, hr_slots=3, alert=1, shield="medium",
                    abilities=Abilities(strength=16, dexterity=13), weapons=("Long sword",))
#: No weapon, Dodge skill 2, DEX 16 (+2), Small: dodge 11 + 2 + 0 + 0 + 2 (Small) + 2 − 2
#: (no shield) = 15; AC 11 + 2 = 13.
ROGUE = Combatant(name="Rogue", side=Side.OPPOSITION, size=Size.SMALL, dodge_skill=2,
                  abilities=Abilities(dexterity=16), weapons=("Sling",))


def duel(make: Make, defender: Combatant, profile: RulesProfile = ON) -> Encounter:
    return make("A D", {"A": Combatant(name="Aldo", weapons=("Dagger",)), "D": defender},
                profile=profile)


def target(encounter: Encounter) -> tuple[int, list[tuple[str, int]]]:
    result = attack_on_map(encounter, "A", "D", AttackOptions(damage="d6"), ScriptedDice([1]))
    return result.target_ac.value, [(t.name, t.value) for t in result.target_ac.terms]


def test_a_creature_with_a_weapon_parries(make_encounter: Make) -> None:
    value, terms = target(duel(make_encounter, FIGHTER))
    assert value == 18
    assert ("½(STR +2 + DEX +1 + weapon bonus +0), rounded down", 1) in terms


def test_a_creature_without_a_weapon_dodges(make_encounter: Make) -> None:
    value, terms = target(duel(make_encounter, ROGUE))
    assert value == 15
    assert ("No shield or substantial weapon", -2) in terms and ("Size (small)", 2) in terms


def test_stunned_and_prone_lower_the_dodge(make_encounter: Make) -> None:
    """RD: condition penalties 'with parry/dodge on ... also lower the parry/dodge value';
    Prone −5: 15 − 4 − 5 = 6."""
    hurt = ROGUE.model_copy(update={"conditions": {Condition.STUNNED, Condition.PRONE}})
    assert target(duel(make_encounter, hurt))[0] == 6


def test_off_by_default_and_missiles_always_meet_ac(make_encounter: Make) -> None:
    assert target(duel(make_encounter, FIGHTER, RulesProfile()))[0] == 14
    encounter = duel(make_encounter, FIGHTER)
    shot = prepare_missile(encounter, MissileRequest(attacker="A", target="D", weapon="Dagger"))
    assert shot.defence.value == 14


def test_the_odds_and_the_summary_name_the_parry(make_encounter: Make) -> None:
    """d20 + 0 vs 18: faces 18, 19, 20 hit."""
    encounter = duel(make_encounter, FIGHTER)
    odds = attack_odds(encounter, "A", "D", AttackOptions(damage="d6"))
    assert (odds.against, odds.target, odds.hit * 20) == ("parry", 18, 3)
    result = attack_on_map(encounter, "A", "D", AttackOptions(damage="d6"), ScriptedDice([1]))
    assert result.summary() == "Aldo attacks Fighter: 1 vs parry 18 — misses"
