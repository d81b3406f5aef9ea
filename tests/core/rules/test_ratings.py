"""Derived ratings (000 "Combat Ratings Quick Reference"), wrestling FR and armour specials,
and the seed's Forceful Defense example (Ogre FR +8 against a Fighter)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.model.combatant import Abilities, Combatant, Condition
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.model.tables import ARMOURS, NO_ARMOUR, NO_SHIELD, SHIELDS, SIZES, Size
from core.rules.ratings import (
    Ratings,
    can_be_thrown_by,
    can_initiate_grapple,
    escape_bonus,
    force_defense,
    force_rating,
    maintain_bonus,
    ratings,
    wrestling_force_rating,
)
from core.rules.shove import ShoveRequest, SuccessLevel, prepare_shove, resolve_shove, success_level

PROFILE = RulesProfile()
KNOWN_ANSWERS = Path(__file__).parent / "data" / "ratings_known_answers.json"
RATING_NAMES = ("hr", "fr", "ac", "fd", "av", "av_missiles", "insight", "shove_resist")


def known_characters() -> list[dict[str, Any]]:
    characters: list[dict[str, Any]] = json.loads(KNOWN_ANSWERS.read_text("utf-8"))["characters"]
    return characters


def all_breakdowns(r: Ratings) -> dict[str, Any]:
    return {name: getattr(r, name) for name in (*RATING_NAMES, "wrestling_fr")}


# --- Quick Reference known answers (worked by hand in data/ratings_known_answers.json) -----

@pytest.mark.parametrize("character", known_characters(), ids=lambda c: c["id"])
def test_ratings_match_hand_worked_answers(character: dict[str, Any]) -> None:
    combatant = Combatant.model_validate(character["combatant"])
    result = ratings(combatant, PROFILE)
    actual = {name: getattr(result, name).value for name in RATING_NAMES}
    assert actual == character["expected"]


@pytest.mark.parametrize("character", known_characters(), ids=lambda c: c["id"])
def test_known_answer_breakdowns_sum_to_their_values(character: dict[str, Any]) -> None:
    result = ratings(Combatant.model_validate(character["combatant"]), PROFILE)
    for name, breakdown in all_breakdowns(result).items():
        assert sum(term.value for term in breakdown.terms) == breakdown.value, name


def test_known_answers_cover_the_required_cases() -> None:
    fighters = [Combatant.model_validate(c["combatant"]) for c in known_characters()]
    assert {Size.SMALL, Size.LARGE} <= {f.size for f in fighters}
    assert any(f.has_shield for f in fighters)
    assert any(f.armour == NO_ARMOUR for f in fighters)
    assert any(f.has(Condition.DEFENSIVE_STANCE) and f.mastery_rank for f in fighters)


# --- FD: STR or CON, Defensive Stance -----------------------------------------------------

@pytest.mark.parametrize(("strength", "constitution", "term_name", "value"), [
    (16, 9, "STR modifier", 2),
    (7, 15, "CON modifier", 1),
    (13, 13, "STR modifier", 1),
    (3, 4, "CON modifier", -2),
])
def test_fd_uses_the_higher_of_str_and_con(strength: int, constitution: int, term_name: str,
                                           value: int) -> None:
    fighter = Combatant(name="X", abilities=Abilities(strength=strength,
                                                      constitution=constitution))
    fd = force_defense(fighter, PROFILE)
    assert fd.terms[1].name == term_name
    assert fd.terms[1].value == value
    assert fd.value == 10 + value


@pytest.mark.parametrize(("mastery", "per_mastery", "in_stance", "bonus"), [
    (3, 1, True, 3),
    (3, 2, True, 6),
    (3, 1, False, 0),
    (0, 1, True, 0),
])
def test_defensive_stance_adds_mastery_times_profile_bonus(mastery: int, per_mastery: int,
                                                           in_stance: bool, bonus: int) -> None:
    conditions = frozenset({Condition.DEFENSIVE_STANCE}) if in_stance else frozenset()
    fighter = Combatant(name="X", mastery_rank=mastery, conditions=conditions)
    profile = RulesProfile(defensive_stance_fd_per_mastery=per_mastery)
    assert force_defense(fighter, profile).value == 10 + bonus


# --- Wrestling FR and armour specials -------------------------------------------------------

@pytest.mark.parametrize(("armour", "shield", "wrestling_fr"), [
    (NO_ARMOUR, NO_SHIELD, 5),
    ("leather", NO_SHIELD, 5),
    ("scale", NO_SHIELD, 5),
    ("chain_mail", NO_SHIELD, 4),
    ("banded", NO_SHIELD, 3),
    ("plate_mail", NO_SHIELD, 2),
    ("suit_armor", NO_SHIELD, 1),
    (NO_ARMOUR, "small", 1),
    ("chain_mail", "tower", 0),
])
def test_wrestling_fr_applies_armour_and_shield_penalties(armour: str, shield: str,
                                                          wrestling_fr: int) -> None:
    wrestler = Combatant(name="X", abilities=Abilities(strength=16), fr_slots=3,
                         armour=armour, shield=shield)
    assert force_rating(wrestler, PROFILE).value == 5
    assert wrestling_force_rating(wrestler, PROFILE).value == wrestling_fr


@pytest.mark.parametrize(("armour", "escape"), [
    (NO_ARMOUR, 2), ("leather", 0), ("chain_mail", 0), ("plate_mail", 0),
])
def test_slippery_gives_plus_2_to_escape_only_unarmoured(armour: str, escape: int) -> None:
    assert escape_bonus(Combatant(name="X", armour=armour)) == escape


@pytest.mark.parametrize(("armour", "maintain"), [
    ("chain_mail", 1), ("elven_chain", 1), (NO_ARMOUR, 0), ("banded", 0), ("plate_mail", 0),
])
def test_mesh_grip_gives_plus_1_to_maintain(armour: str, maintain: int) -> None:
    assert maintain_bonus(Combatant(name="X", armour=armour)) == maintain


@pytest.mark.parametrize(("armour", "thrower_size", "throwable"), [
    ("plate_mail", Size.MEDIUM, False),
    ("dwarven_plate", Size.MEDIUM, False),
    ("plate_mail", Size.LARGE, True),
    ("plate_mail", Size.SMALL, True),
    ("suit_armor", Size.MEDIUM, True),
    ("chain_mail", Size.MEDIUM, True),
])
def test_immovable_plate_cannot_be_thrown_by_same_size(armour: str, thrower_size: Size,
                                                       throwable: bool) -> None:
    wearer = Combatant(name="Knight", armour=armour)
    thrower = Combatant(name="Thrower", size=thrower_size)
    assert can_be_thrown_by(wearer, thrower) is throwable


@pytest.mark.parametrize(("shield", "can_grapple"), [
    (NO_SHIELD, True), ("small", False), ("tower", False),
])
def test_shield_prevents_initiating_a_grapple(shield: str, can_grapple: bool) -> None:
    assert can_initiate_grapple(Combatant(name="X", shield=shield)) is can_grapple


def test_specials_list_armour_and_shield_properties() -> None:
    knight = Combatant(name="X", armour="chain_mail", shield="medium")
    specials = ratings(knight, PROFILE).specials
    assert len(specials) == 2
    assert specials[0].startswith("Mesh Grip")
    assert "Cannot initiate Grapple" in specials[1]


# --- Forceful Defense: 000's Ogre example ---------------------------------------------------

OGRE = Combatant(name="Ogre", size=Size.LARGE, abilities=Abilities(strength=18), fr_slots=5)


def fighter_with_fr(fr: int) -> Combatant:
    """A Medium, unarmoured Fighter with STR 16 (+2): FD 12 and FR ``fr``."""
    return Combatant(name="Fighter", abilities=Abilities(strength=16), fr_slots=fr - 2)


def ogre_shoves(defender: Combatant) -> Encounter:
    encounter = Encounter(map=BattleMap(width=10, height=4))
    encounter.add_token(Token(id="ogre", combatant=OGRE, x=0, y=0))
    encounter.add_token(Token(id="fighter", combatant=defender, x=2, y=0))
    return encounter


def test_example_combatants_have_the_seed_ratings() -> None:
    assert force_rating(OGRE, PROFILE).value == 8
    assert [force_rating(fighter_with_fr(fr), PROFILE).value for fr in (6, 8, 9)] == [6, 8, 9]
    assert force_defense(fighter_with_fr(9), PROFILE).value == 12


# d20 14 + Ogre FR 8 - Fighter FD 12 = margin 10: a Double Success unless Forceful Defense.
@pytest.mark.parametrize(("defender_fr", "d20", "level", "capped"), [
    (6, 14, SuccessLevel.DOUBLE, False),
    (8, 14, SuccessLevel.DOUBLE, False),  # equal FR does not exceed: double still available
    (9, 14, SuccessLevel.SUCCESS, True),
    (9, 20, SuccessLevel.SUCCESS, True),
    (6, 13, SuccessLevel.SUCCESS, False),
    (9, 13, SuccessLevel.SUCCESS, False),
    (6, 3, SuccessLevel.FAIL, False),
])
def test_forceful_defense_caps_double_success(defender_fr: int, d20: int, level: SuccessLevel,
                                              capped: bool) -> None:
    encounter = ogre_shoves(fighter_with_fr(defender_fr))
    setup = prepare_shove(encounter, ShoveRequest(attacker="ogre", defender="fighter"))
    assert success_level(setup, d20, PROFILE) == (level, capped)


def test_ogre_double_success_against_fr_6_knocks_prone_10_ft() -> None:
    encounter = ogre_shoves(fighter_with_fr(6))
    result = resolve_shove(encounter, ShoveRequest(attacker="ogre", defender="fighter"),
                           ScriptedDice([20]))
    assert (result.level, result.forceful_defense) == (SuccessLevel.DOUBLE, False)
    assert (result.margin, result.distance_ft, result.prone) == (16, 10, True)


def test_ogre_against_fr_9_gets_only_a_standard_success() -> None:
    encounter = ogre_shoves(fighter_with_fr(9))
    result = resolve_shove(encounter, ShoveRequest(attacker="ogre", defender="fighter"),
                           ScriptedDice([20, 5]))
    assert (result.level, result.forceful_defense) == (SuccessLevel.SUCCESS, True)
    assert result.margin == 16
    assert not result.prone
    assert result.shove_die == "d10"  # Medium d6, FR +8: two steps
    assert result.shove_roll is not None
    assert result.shove_roll.total == 5


# --- Property: every breakdown explains its value --------------------------------------------

scores = st.integers(3, 18)
combatants = st.builds(
    Combatant,
    name=st.just("Random"),
    size=st.sampled_from(Size),
    abilities=st.builds(Abilities, strength=scores, dexterity=scores, constitution=scores,
                        intelligence=scores, wisdom=scores, charisma=scores),
    level=st.integers(0, 40),
    hr_slots=st.integers(0, 20),
    fr_slots=st.integers(0, 20),
    hr_magic=st.integers(-10, 10),
    fr_magic=st.integers(-10, 10),
    armour=st.sampled_from(list(ARMOURS)),
    shield=st.sampled_from([NO_SHIELD, *SHIELDS]),
    technique_ac=st.integers(-10, 10),
    mastery_rank=st.integers(0, 10),
    conditions=st.frozensets(st.sampled_from(Condition)),
)


@given(combatants)
def test_every_breakdown_sums_to_its_value(c: Combatant) -> None:
    for name, breakdown in all_breakdowns(ratings(c, PROFILE)).items():
        assert sum(term.value for term in breakdown.terms) == breakdown.value, name


@given(combatants)
def test_ratings_follow_the_quick_reference_formulas(c: Combatant) -> None:
    mod = PROFILE.ability_modifier
    strength = mod(c.abilities.strength)
    shield = SHIELDS.get(c.shield)
    stance = c.mastery_rank if c.has(Condition.DEFENSIVE_STANCE) else 0
    prone = -5 if c.has(Condition.PRONE) else 0     # RD "Conditions": Prone −5 defence
    fr = c.fr_slots + strength + c.fr_magic
    expected = {
        "hr": c.hr_slots + strength + c.hr_magic,
        "fr": fr,
        "ac": 11 + (shield.ac_bonus if shield else 0) + mod(c.abilities.dexterity)
        + c.technique_ac + prone,
        "fd": 10 + max(strength, mod(c.abilities.constitution)) + SIZES[c.size].fd_modifier
        + ARMOURS[c.armour].fd_bonus + (2 if shield else 0) + stance + prone,
        "av": ARMOURS[c.armour].av,
        "av_missiles": ARMOURS[c.armour].av_missiles,
        "insight": 10 + mod(c.abilities.wisdom) + c.level,
        "shove_resist": SIZES[c.size].shove_resist_base + c.level // 2 + strength + fr,
    }
    result = ratings(c, PROFILE)
    assert {name: getattr(result, name).value for name in RATING_NAMES} == expected
