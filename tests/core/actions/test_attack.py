"""Attacks between tokens (reach, line of sight), applying them, and the Markdown log."""

from __future__ import annotations

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.history import History
from core.actions.shove import ShoveAction
from core.model.combatant import Abilities, Combatant
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap, WallSegment
from core.model.round import InitiativeEntry
from core.rules.attack import AttackOptions, DamageKind, IllegalAttackError, attack_on_map
from core.rules.report import log_markdown
from core.rules.shove import ShoveRequest

STRONG = Combatant(name="Ogre", abilities=Abilities(strength=18), hr_slots=2, reach_ft=10)
TARGET = Combatant(name="Mira", armour="chain_mail", max_hp=20, hp=20)


def arena(defender_x: int, walls: list[WallSegment] | None = None) -> Encounter:
    return Encounter(map=BattleMap(width=8, height=3, walls=walls or []), tokens=[
        Token(id="ogre", combatant=STRONG, x=0, y=1),
        Token(id="mira", combatant=TARGET, x=defender_x, y=1)])


def test_melee_within_reach_hits_through_armour() -> None:
    result = attack_on_map(arena(2), "ogre", "mira", AttackOptions(damage="d8"),
                           ScriptedDice([10, 8]))
    # 10 + HR (2 slots + STR 3) = 15 vs AC 11: hit; 8 through chain AV 4 → 1 + (7 - 4) = 4
    assert result.hit and result.to_hit.value == 15 and result.damage_taken == 4


def test_melee_beyond_reach_is_refused() -> None:
    with pytest.raises(IllegalAttackError, match="out of Ogre's 10 ft reach"):
        attack_on_map(arena(3), "ogre", "mira", AttackOptions(), ScriptedDice([10]))


def test_a_missile_is_the_missile_action_not_a_melee_attack() -> None:
    missile = AttackOptions(damage="d8", kind=DamageKind(missile=True))
    with pytest.raises(IllegalAttackError, match="missile action"):
        attack_on_map(arena(6), "ogre", "mira", missile, ScriptedDice([10, 8]))


def test_apply_attack_takes_hp_logs_and_undoes() -> None:
    encounter = arena(2)
    history = History(encounter)
    perform(AttackAction("ogre", "mira", AttackOptions(damage="d8")), history,
            ScriptedDice([10, 8]))
    assert encounter.token("mira").combatant.hp == 16
    assert encounter.log[-1].kind == "attack" and "Target AC" in encounter.log[-1].text
    history.undo()
    assert encounter.token("mira").combatant.hp == 20 and not encounter.log


def test_log_exports_as_markdown() -> None:
    encounter = arena(1)
    encounter.timeline.round_number = 2
    outcome = perform(ShoveAction(ShoveRequest(attacker="ogre", defender="mira")),
                      History(encounter), ScriptedDice([20]))
    text = log_markdown(encounter)
    assert text.startswith("# Combat log")
    assert f"## 1. {outcome.summary} (round 2)" in text
    assert "Target FD" in text and text.count("```") == 2
    assert "Nothing has been resolved" in log_markdown(arena(1))


def test_round_bonuses_apply_aiming_and_scarpering() -> None:
    encounter = arena(2)
    encounter.timeline.entries = [
        InitiativeEntry(token_id="ogre", attack_bonus=3),
        InitiativeEntry(token_id="mira", side="party", defence_bonus=2)]
    result = attack_on_map(encounter, "ogre", "mira", AttackOptions(damage="d8"),
                           ScriptedDice([10, 8]))
    assert result.to_hit.value == 15 + 3
    assert result.target_ac.value == 11 + 2
    assert [t.name for t in result.to_hit.terms][-1] == "Aimed last round"
