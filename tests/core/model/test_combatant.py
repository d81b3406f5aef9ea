"""Combatant input validation: a bad value is refused with the field and what is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from core.model.combatant import Abilities, Combatant, Condition
from core.model.tables import ARMOURS, SHIELDS, Size


@pytest.mark.parametrize(("changes", "field", "allowed"), [
    pytest.param({"abilities": {"strength": 25}}, "strength", "3-18", id="ability-25"),
    pytest.param({"abilities": {"wisdom": 2}}, "wisdom", "3-18", id="ability-2"),
    pytest.param({"level": -1}, "level", "greater than or equal to 0", id="negative-level"),
    pytest.param({"armour": "mithril"}, "armour", "chain_mail", id="unknown-armour"),
    pytest.param({"shield": "buckler"}, "shield", "tower", id="unknown-shield"),
    pytest.param({"fr_slots": 21}, "fr_slots", "less than or equal to 20", id="too-many-slots"),
])
def test_bad_input_names_field_and_allowed_values(changes: dict[str, Any], field: str,
                                                  allowed: str) -> None:
    with pytest.raises(ValidationError) as error:
        Combatant.model_validate({"name": "Bad", **changes})
    message = str(error.value)
    assert field in message
    assert allowed in message


def test_unknown_armour_lists_every_choice() -> None:
    with pytest.raises(ValidationError) as error:
        Combatant(name="X", armour="mithril")
    assert all(key in str(error.value) for key in ARMOURS)


def test_unknown_shield_lists_every_choice_including_none() -> None:
    with pytest.raises(ValidationError) as error:
        Combatant(name="X", shield="buckler")
    assert all(key in str(error.value) for key in ("none", *SHIELDS))


@pytest.mark.parametrize("score", [3, 18])
def test_ability_table_edges_are_valid(score: int) -> None:
    assert Abilities(constitution=score).constitution == score


def test_valid_combatant_keeps_what_was_typed() -> None:
    fighter = Combatant(name="Mira", size=Size.SMALL, armour="plate_mail", shield="large",
                        conditions=frozenset({Condition.DEFENSIVE_STANCE}))
    assert (fighter.size, fighter.armour, fighter.shield) == (Size.SMALL, "plate_mail", "large")
    assert fighter.has_shield
    assert fighter.has(Condition.DEFENSIVE_STANCE)
    assert not fighter.has(Condition.PRONE)


def test_no_shield_is_not_a_shield() -> None:
    assert not Combatant(name="X").has_shield


def test_combatant_json_round_trip() -> None:
    fighter = Combatant(name="Mira", abilities=Abilities(strength=16), armour="banded",
                        conditions=frozenset({Condition.PRONE}), level=6)
    assert Combatant.model_validate_json(fighter.model_dump_json()) == fighter


def test_the_rounds_boons_lapse_and_nothing_else() -> None:
    """Critical events 16-18, 23 last to the round's end; the rest of the combatant stays."""
    lucky = Combatant(name="Mira", hp=3, hero_points=2, lucky_break=4, lucky_opening=6,
                      round_hero_points=1)
    assert lucky.has_lapsing
    lapsed = lucky.lapsed()
    assert not lapsed.has_lapsing
    assert lapsed == lucky.model_copy(update={"lucky_break": 0, "lucky_opening": 0,
                                              "round_hero_points": 0})
    assert lapsed.lapsed() is lapsed
