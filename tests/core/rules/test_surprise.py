"""Surprise: Spot saves, failure levels, free attacks, ambusher initiative (002)."""

from __future__ import annotations

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.history import History
from core.actions.initiative import InitiativeAction, NextRoundAction
from core.actions.surprise import SurpriseAction
from core.model.combatant import Combatant
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.rules.attack import AttackOptions
from core.rules.surprise import (
    SurpriseRefusedError,
    ambusher_initiative,
    shielding,
    spot_saves,
    surprise_log,
)


def party() -> Encounter:
    return Encounter(map=BattleMap(width=6, height=2), tokens=[
        Token(id="a", combatant=Combatant(name="Ann"), x=0, y=0),
        Token(id="b", combatant=Combatant(name="Bo"), x=1, y=0),
        Token(id="o", combatant=Combatant(name="Orc", side="opposition"), x=4, y=0)])


def test_each_character_rolls_and_failure_levels_give_free_attacks() -> None:
    saves = spot_saves(party(), "Normal travel", 1, ScriptedDice([16, 6]))
    ann, bo = saves
    # Ann: 16 - 2 - 1 = 13 >= 12: not surprised. Bo: 6 - 2 - 1 = 3, fails by 9: Dreadful
    assert not ann.surprised and ann.total.value == 13
    assert bo.failure_level == "Dreadful" and len(bo.free_attacks) == 3
    # RD Shielding the surprised: '+2 × (L − k + 1) to hit and +(L − k + 1) damage'
    assert [(a.hit_bonus, a.damage_bonus) for a in bo.free_attacks] == [(6, 3), (4, 2), (2, 1)]
    assert len(saves) == 2  # the opposition does not roll


def test_failing_by_one_is_unlucky_one_attack() -> None:
    (save,) = spot_saves(Encounter(map=BattleMap(width=2, height=1), tokens=[
        Token(id="a", combatant=Combatant(name="Ann"), x=0, y=0)]),
        "Expecting something", 0, ScriptedDice([11]))
    assert save.failure_level == "Unlucky" and len(save.free_attacks) == 1


def test_ambushers_strike_on_one_plus_segments_moved() -> None:
    profile = RulesProfile()
    assert ambusher_initiative(0, profile) == 1
    assert ambusher_initiative(20, profile) == 5


def test_surprise_log_names_the_surprised() -> None:
    saves = spot_saves(party(), "Totally unexpected", 0, ScriptedDice([20, 2]))
    entry = surprise_log(saves, "Totally unexpected", 0)
    assert entry.kind == "surprise" and entry.summary == "Surprise: Bo surprised"
    assert "Ann: d20 20" in entry.text


# --- scheduled free attacks; shielding the surprised (RD "Shielding the surprised") --------
def ambush() -> Encounter:
    """Ann (surprised) and Bo (not) on the left; the Orc ambushes from two cells off."""
    return Encounter(map=BattleMap(width=6, height=2), tokens=[
        Token(id="a", combatant=Combatant(name="Ann"), x=2, y=0),
        Token(id="b", combatant=Combatant(name="Bo", hr_slots=4), x=2, y=1),
        Token(id="o", combatant=Combatant(name="Orc", side="opposition"), x=3, y=0)])


def surprised_ann(history: History) -> None:
    """Ann 6 − 2 = 4, fails by 8: Dreadful, three free attacks from segment 1 + 2 (10 ft
    moved) = 3: segments 3, 4, 5 at +6, +4, +2 to hit and +3, +2, +1 damage. Bo 16 − 2 = 14:
    fine."""
    perform(SurpriseAction("Normal travel", 0, 10), history, ScriptedDice([6, 16]))


def test_the_surprise_check_schedules_the_free_attacks_on_the_round() -> None:
    history = History(ambush())
    surprised_ann(history)
    scheduled = history.encounter.timeline.free_attacks
    assert [(a.ambusher, a.target, a.segment, a.hit_bonus, a.damage_bonus)
            for a in scheduled] == [("o", "a", 3, 6, 3), ("o", "a", 4, 4, 2),
                                    ("o", "a", 5, 2, 1)]
    assert "Ann's free attacks: by Orc" in history.encounter.log[-1].text
    # the round's roll keeps them; the round's end drops them
    perform(InitiativeAction(), history, ScriptedDice([5, 5, 9]))
    assert len(history.encounter.timeline.free_attacks) == 3
    perform(NextRoundAction(), history, ScriptedDice([]))
    assert history.encounter.timeline.free_attacks == []


def test_a_surprise_attack_takes_its_bonuses_and_is_free() -> None:
    history = History(ambush())
    surprised_ann(history)
    outcome = perform(AttackAction("o", "a", AttackOptions(damage="d6", surprise=True)),
                      history, ScriptedDice([5, 4]))
    result = outcome.result
    assert "Surprise attack #1 +6" in result.to_hit.describe()  # 5 + 6 = 11 ≥ AC 11
    assert result.hit and result.damage_taken == 4 + 3
    assert [a.made for a in history.encounter.timeline.free_attacks] == [True, False, False]


def test_bo_engaging_the_orc_first_cancels_its_later_free_attacks() -> None:
    """002 Surprise: 'the unsuprised character may engage the enemy preventing them from
    getting the free attack on the surprised one'. Bo strikes on segment 4 (initiative 4):
    the attack at 5 is cancelled; the one at segment 4 still happens (RD)."""
    history = History(ambush())
    surprised_ann(history)
    perform(InitiativeAction(), history, ScriptedDice([8, 4, 9]))  # Ann 8, Bo 4, Orc 9
    assert history.encounter.timeline.entry("b").segment == 4
    perform(AttackAction("o", "a", AttackOptions(damage="d6", surprise=True)), history,
            ScriptedDice([1]))  # #1 at segment 3: a miss
    outcome = perform(AttackAction("b", "o", AttackOptions(damage="d6")), history,
                      ScriptedDice([2]))  # a miss engages it all the same
    assert outcome.entries[1].kind == "shield"
    assert outcome.entries[1].summary == ("Bo engages Orc at segment 4: 1 free attack(s) "
                                          "cancelled")
    assert [(a.made, a.cancelled_by) for a in history.encounter.timeline.free_attacks] == [
        (True, None), (False, None), (False, "b")]
    perform(AttackAction("o", "a", AttackOptions(damage="d6", surprise=True)), history,
            ScriptedDice([1]))  # #2 at segment 4 still happens
    with pytest.raises(SurpriseRefusedError, match="cancelled: Bo engaged it at segment 4"):
        perform(AttackAction("o", "a", AttackOptions(damage="d6", surprise=True)), history,
                ScriptedDice([20, 6]))
    history.undo()
    history.undo()
    assert all(a.cancelled_by is None for a in history.encounter.timeline.free_attacks)


def test_a_flat_to_hit_bonus_is_a_profile_switch() -> None:
    profile = RulesProfile(surprise_hit_per_level=False)
    encounter = party().model_copy(update={"profile": profile})
    bo = spot_saves(encounter, "Normal travel", 1, ScriptedDice([16, 6]))[1]
    assert [a.hit_bonus for a in bo.free_attacks] == [2, 2, 2]


def test_shielding_is_a_profile_switch_and_a_surprised_creature_shields_no_one() -> None:
    encounter = ambush()
    history = History(encounter)
    surprised_ann(history)
    assert shielding(encounter, "a", "o") is None  # Ann is surprised herself
    assert shielding(encounter, "b", "o") is not None
    encounter.profile = encounter.profile.model_copy(update={"surprise_shielding": False})
    assert shielding(encounter, "b", "o") is None


def test_the_gm_names_the_ambusher() -> None:
    encounter = ambush()
    encounter.add_token(Token(id="g", combatant=Combatant(name="Goblin", side="opposition"),
                              x=5, y=1))
    history = History(encounter)
    perform(SurpriseAction("Normal travel", 0, 0, (("Ann", "Goblin"),)), history,
            ScriptedDice([6, 16]))
    assert {a.ambusher for a in encounter.timeline.free_attacks} == {"g"}
    with pytest.raises(ValueError, match="an ambusher is an enemy"):
        perform(SurpriseAction("Normal travel", 0, 0, (("Ann", "Bo"),)), history,
                ScriptedDice([6, 16]))
