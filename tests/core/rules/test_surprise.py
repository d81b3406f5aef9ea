"""Surprise: Spot saves, failure levels, free attacks, ambusher initiative (002)."""

from __future__ import annotations

from core.model.combatant import Combatant
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.rules.surprise import ambusher_initiative, spot_saves, surprise_log


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
    assert [(a.hit_bonus, a.damage_bonus) for a in bo.free_attacks] == [(2, 3), (2, 2), (2, 1)]
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
