"""Pummelling (core.rules.unarmed; 002 "Pummelling": "Damage = D2 + Strength (Martial artists
damage rises with levels as a normal weapon)", "You can't pummel against metal armour").

Aldo (STR 13: +1) stands next to Grok; a d20 of 20 hits Grok's AC 11."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic import ValidationError

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.history import History
from core.model.combatant import Abilities, Combatant, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.profile import RulesProfile
from core.rules.attack import AttackOptions, IllegalAttackError, attack_on_map

Make = Callable[..., Encounter]
PUMMEL = AttackOptions(weapon="Unarmed")


def pair(make: Make, armour: str, profile: RulesProfile | None = None, **aldo: object
         ) -> Encounter:
    return make("A G", {"A": Combatant(name="Aldo", abilities=Abilities(strength=13), **aldo),
                        "G": Combatant(name="Grok", side=Side.OPPOSITION, armour=armour,
                                       max_hp=20, hp=20)}, profile=profile)


@pytest.mark.parametrize("armour", ["scale", "chain_mail", "banded", "plate_mail",
                                    "suit_armor", "elven_chain", "dwarven_plate"])
def test_no_pummelling_against_metal_armour(make_encounter: Make, armour: str) -> None:
    encounter = pair(make_encounter, armour)
    history = History(encounter)
    with pytest.raises(IllegalAttackError, match=r"metal armour: 002 Pummelling: 'You can't "
                                                 r"pummel against metal armour\.'"):
        perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 2]))
    assert history.labels() == [] and encounter.token("G").combatant.hp == 20


def test_a_pummel_is_d2_plus_strength_through_leather(make_encounter: Make) -> None:
    """d2 rolled 2 + STR +1 = 3 through Leather AV 2: 1 + (2 − 2) = 1."""
    result = attack_on_map(pair(make_encounter, "leather"), "A", "G", PUMMEL,
                           ScriptedDice([20, 2]))
    assert result.hit and result.damage_roll is not None
    assert result.damage_roll.expression == "1d2" and result.raw_damage is not None
    assert (result.raw_damage.value, result.damage_taken) == (3, 1)


@pytest.mark.parametrize(("level", "die"), [(1, "d2"), (2, "d2"), (3, "d4"), (5, "d4"),
                                            (6, "d6"), (9, "d8"), (12, "d10"), (15, "d12"),
                                            (40, "d12")])
def test_a_martial_artists_pummel_rises_with_level(make_encounter: Make, level: int,
                                                   die: str) -> None:
    encounter = pair(make_encounter, "none", martial_artist=True, level=level)
    result = attack_on_map(encounter, "A", "G", PUMMEL, ScriptedDice([20, 1]))
    assert result.damage_roll is not None and result.damage_roll.expression == "1" + die


def test_the_metal_armours_are_a_profile_field(make_encounter: Make) -> None:
    """A GM who counts scale as not metal may pummel it: d2 2 + 1 = 3 through AV 3 = 1."""
    profile = RulesProfile(metal_armours=("chain_mail", "plate_mail"))
    result = attack_on_map(pair(make_encounter, "scale", profile), "A", "G", PUMMEL,
                           ScriptedDice([20, 2]))
    assert result.hit and result.damage_taken == 1
    with pytest.raises(ValidationError, match="unknown armour 'tin'"):
        RulesProfile(metal_armours=("tin",))
