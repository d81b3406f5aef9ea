"""The rules profile: the ability table default, JSON round trip, validation messages."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from core.model.combatant import Abilities, Combatant
from core.model.profile import AbilityBand, CreatureCollision, DiagonalRule, RulesProfile

# rules-decisions "Ability modifiers": 3: -3; 4-5: -2; 6-8: -1; 9-12: 0; 13-15: +1;
# 16-17: +2; 18: +3
CLASSIC_MODIFIERS: dict[int, int] = {
    3: -3, 4: -2, 5: -2, 6: -1, 7: -1, 8: -1, 9: 0, 10: 0, 11: 0, 12: 0,
    13: 1, 14: 1, 15: 1, 16: 2, 17: 2, 18: 3,
}


def extended_profile() -> RulesProfile:
    """The classic table plus a band 19-20: +4."""
    bands = (*RulesProfile().ability_table, AbilityBand(low=19, high=20, modifier=4))
    return RulesProfile(ability_table=bands)


def test_classic_table_covers_3_to_18() -> None:
    assert RulesProfile().ability_range == (3, 18)


@pytest.mark.parametrize(("score", "modifier"), CLASSIC_MODIFIERS.items())
def test_classic_ability_modifier(score: int, modifier: int) -> None:
    assert RulesProfile().ability_modifier(score) == modifier


@pytest.mark.parametrize("score", [2, 19, 0, -1, 25])
def test_score_outside_table_is_an_error_naming_the_range(score: int) -> None:
    with pytest.raises(ValueError, match=r"3-18") as error:
        RulesProfile().ability_modifier(score)
    assert str(score) in str(error.value)


def test_profile_json_round_trip_keeps_every_change() -> None:
    profile = RulesProfile(
        ability_table=extended_profile().ability_table,
        double_success_margin=8,
        die_chain=("d4", "d6", "d8", "d10"),
        die_chain_cap="d8",
        fall_die="d8",
        creature_collision=CreatureCollision.SOLID,
        diagonal_rule=DiagonalRule.EUCLIDEAN,
        defensive_stance_fd_per_mastery=2,
    )
    restored = RulesProfile.model_validate_json(profile.model_dump_json())
    assert restored == profile
    assert restored != RulesProfile()
    assert restored.ability_modifier(20) == 4


def field_named(error: ValidationError, field: str) -> bool:
    """Whether some error locates itself at ``field`` or says its name in its message."""
    return any(field in map(str, detail["loc"]) or field in detail["msg"]
               for detail in error.errors())


@pytest.mark.parametrize(("field", "changes"), [
    pytest.param("die_chain_cap", {"die_chain_cap": "d20"}, id="cap-not-in-chain"),
    pytest.param("ability_table", {"ability_table": [
        {"low": 3, "high": 8, "modifier": -1},
        {"low": 10, "high": 18, "modifier": 0},
    ]}, id="bands-not-contiguous"),
    pytest.param("double_success_margin", {"double_success_margin": 0}, id="margin-below-1"),
    pytest.param("fall_die", {"fall_die": "2x6"}, id="bad-fall-die"),
])
def test_invalid_profile_error_names_the_field(field: str, changes: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as error:
        RulesProfile.model_validate({**RulesProfile().model_dump(), **changes})
    assert field_named(error.value, field)


def test_bad_fall_die_is_rejected_with_the_bad_token() -> None:
    with pytest.raises(ValidationError, match="x6"):
        RulesProfile(fall_die="2x6")


def test_extended_ability_table_accepts_score_19_only_in_its_context() -> None:
    profile = extended_profile()
    abilities = Abilities.model_validate({"strength": 19}, context={"profile": profile})
    assert profile.ability_modifier(abilities.strength) == 4
    with pytest.raises(ValidationError, match=r"strength 19 .*\(3-18\)"):
        Abilities.model_validate({"strength": 19})


def test_extended_ability_table_reaches_nested_combatant_abilities() -> None:
    data = {"name": "Titan", "abilities": {"strength": 20}}
    combatant = Combatant.model_validate(data, context={"profile": extended_profile()})
    assert combatant.abilities.strength == 20
    with pytest.raises(ValidationError, match="strength"):
        Combatant.model_validate(data)
