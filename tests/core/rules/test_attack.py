"""Attack and damage (000 "Hit Roll", "Armor Value"; cover from 002)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.model.breakdown import Term
from core.model.combatant import Abilities, Combatant
from core.model.dice import ScriptedDice
from core.model.profile import RulesProfile
from core.rules.attack import AttackOptions, DamageKind, damage_after_armour, resolve_attack

PROFILE = RulesProfile()
# HR 3: 2 Class Skill slots + STR 13 (+1)
ATTACKER = Combatant(name="Archer", abilities=Abilities(strength=13), hr_slots=2)
# AC 11 (no shield, DEX 10); Plate Mail: AV 6, AV vs missiles 3
DEFENDER = Combatant(name="Knight", armour="plate_mail")


@pytest.mark.parametrize(("raw", "av", "taken"), [
    pytest.param(9, 4, 5, id="seed-chain-mail-takes-9"),
    pytest.param(5, 6, 1, id="seed-plate-mail-takes-5"),
    pytest.param(1, 0, 1, id="one-point-unarmoured"),
    pytest.param(7, 0, 7, id="unarmoured-takes-all"),
    pytest.param(0, 3, 1, id="zero-still-penetrates"),
    pytest.param(8, 7, 1, id="av-absorbs-all-but-one"),
])
def test_damage_after_armour(raw: int, av: int, taken: int) -> None:
    damage = damage_after_armour(raw, av, PROFILE)
    assert damage.value == taken
    assert sum(term.value for term in damage.terms) == taken


def test_magic_damage_ignores_av() -> None:
    assert damage_after_armour(9, av=6, profile=PROFILE, magic=True).value == 9


@given(raw=st.integers(0, 500), av=st.integers(0, 50))
def test_physical_damage_is_at_least_1_and_at_most_the_raw_damage(raw: int, av: int) -> None:
    taken = damage_after_armour(raw, av, PROFILE).value
    assert 1 <= taken <= max(raw, 1)


def attack(d20: int, action: AttackOptions, damage_die: int = 8) -> tuple[bool, int, int]:
    """(hit?, damage taken, to-hit total) of ATTACKER against DEFENDER with scripted dice."""
    result = resolve_attack(ATTACKER, DEFENDER, action, PROFILE,
                            ScriptedDice([d20, damage_die]))
    return result.hit, result.damage_taken, result.to_hit.value


@pytest.mark.parametrize(("d20", "modifier", "hit"), [
    pytest.param(8, 0, True, id="equal-to-AC-hits"),
    pytest.param(7, 0, False, id="one-below-AC-misses"),
    pytest.param(20, 0, True, id="well-above-hits"),
    pytest.param(7, 1, True, id="modifier-lifts-to-AC"),
    pytest.param(8, -1, False, id="modifier-drops-below-AC"),
])
def test_hit_when_d20_plus_hr_plus_modifier_reaches_ac(d20: int, modifier: int, hit: bool
                                                       ) -> None:
    hit_result, _, total = attack(d20, AttackOptions(damage="d8", modifier=modifier))
    assert total == d20 + 3 + modifier
    assert hit_result is hit


def test_miss_rolls_no_damage() -> None:
    dice = ScriptedDice([1, 8])
    result = resolve_attack(ATTACKER, DEFENDER, AttackOptions(), PROFILE, dice)
    assert not result.hit
    assert result.damage_taken == 0
    assert result.damage_roll is None
    assert dice.remaining == (8,)


@pytest.mark.parametrize(("kind", "taken"), [
    pytest.param(DamageKind(), 2, id="melee-uses-AV-6"),  # 1 + (7 - 6)
    pytest.param(DamageKind(missile=True), 5, id="missile-uses-AV-vs-missiles-3"),  # 1 + (7 - 3)
    pytest.param(DamageKind(magic=True), 8, id="magic-ignores-AV"),
])
def test_damage_on_a_hit_goes_through_the_right_armour_value(kind: DamageKind, taken: int
                                                             ) -> None:
    hit, damage, _ = attack(15, AttackOptions(damage="d8", kind=kind), damage_die=8)
    assert hit
    assert damage == taken


def test_damage_bonus_is_added_before_armour() -> None:
    _, damage, _ = attack(15, AttackOptions(damage="d8", damage_bonus=3), damage_die=8)
    assert damage == 1 + (8 + 3 - 1) - 6


@pytest.mark.parametrize(("d20", "hit"), [(10, True), (9, False)])
def test_defence_terms_such_as_cover_raise_the_roll_needed(d20: int, hit: bool) -> None:
    cover = (Term("Cover 40%", 2, "002 Cover"),)
    result = resolve_attack(ATTACKER, DEFENDER, AttackOptions(damage="d8"), PROFILE,
                            ScriptedDice([d20, 1]), round_terms=((), cover))
    assert result.target_ac.value == 13 and result.hit is hit


def test_options_refuse_unknown_keys() -> None:
    with pytest.raises(ValueError, match="cover_percent"):
        AttackOptions.model_validate({"cover_percent": 40})


def test_summary_reports_hit_and_damage() -> None:
    result = resolve_attack(ATTACKER, DEFENDER, AttackOptions(damage="d8"), PROFILE,
                            ScriptedDice([15, 8]))
    assert result.summary() == "Archer attacks Knight: 18 vs AC 11 — hits, 2 damage"
