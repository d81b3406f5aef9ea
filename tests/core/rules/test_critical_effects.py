"""Critical events that change the fight (core.rules.critical_effects, core.actions.critical;
002 "Critical events", RD "Critical events"), worked by hand with scripted dice: the d30, the
d3 side (1 party, 2 opposition, 3 both) for one-sided rows, then the row's own dice.

Aldo (party: chain mail AV 4, a medium shield, a long sword; AC 13) stands next to Grok
(opposition: no armour, a club; AC 11); round 1 is under way, both on segment 3."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.actions.attack import AttackAction
from core.actions.base import Outcome, perform
from core.actions.critical import CriticalEventAction
from core.actions.history import History
from core.actions.initiative import InitiativeAction
from core.actions.recover import RecoverAction
from core.actions.round import NextRound, StartRound
from core.model.combatant import Combatant, Condition, OutOfHand, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.injury import HeroUse
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry, RoundState
from core.rules.attack import AttackOptions, AttackResult, IllegalAttackError
from core.rules.critical import CriticalResult
from core.rules.ratings import armour_class
from core.rules.turns import TurnRefusedError
from core.rules.weapons import melee_choices

Make = Callable[..., Encounter]
ALDO = Combatant(name="Aldo", armour="chain_mail", shield="medium", weapons=("Long sword",),
                 max_hp=20, hp=20)
GROK = Combatant(name="Grok", side=Side.OPPOSITION, weapons=("Club",), max_hp=20, hp=20)


@pytest.fixture
def fight(make_encounter: Make) -> History:
    encounter = make_encounter("A G .", {"A": ALDO, "G": GROK},
                               profile=RulesProfile(hero_points=True))
    encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="A", segment=3),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=3)])
    return History(encounter)


def event(history: History, *dice: int) -> Outcome[CriticalResult]:
    return perform(CriticalEventAction("A", "G"), history, ScriptedDice(list(dice)))


def aldo(history: History) -> Combatant:
    return history.encounter.token("A").combatant


def ac(history: History, token: str = "A") -> int:
    return armour_class(history.encounter.token(token).combatant,
                        history.encounter.profile).value


def swing(history: History, attacker: str = "A", target: str = "G", *dice: int,
          **options: object) -> Outcome[AttackResult]:
    action = AttackAction(attacker, target, AttackOptions(damage="d6", **options))
    return perform(action, history, ScriptedDice(list(dice or (20, 1))))


def test_a_damaged_shield_and_dented_armour_cost_a_point_each_until_repaired(
        fight: History) -> None:
    """Rows 2 'Shield damaged ( -1 Def)' and 4 'Armour dented ( -1 Defence)' (RD: AC, not
    AV); Grok has neither: nothing happens to him."""
    event(fight, 2, 1)
    event(fight, 4, 3)
    assert (aldo(fight).shield_damage, aldo(fight).armour_dents) == (1, 1)
    assert ac(fight) == 13 - 2 and ac(fight, "G") == 11
    assert fight.encounter.log[-1].text.endswith("Grok wears no armour")
    assert fight.encounter.token("G").combatant.armour_dents == 0


def test_a_dropped_weapon_lies_where_it_fell_until_recovered(fight: History) -> None:
    """Row 5 'Weapon dropped, disarmed.': the long sword lies at (0,0); striking with it is
    refused; bare hands are all Aldo has; recovering it is his action."""
    event(fight, 5, 1)
    assert aldo(fight).out_of_hand == (OutOfHand(item="Long sword", cell=Cell(0, 0)),)
    with pytest.raises(IllegalAttackError, match="Aldo's Long sword dropped at \\(0,0\\): "
                                                 "recovering it takes an action"):
        swing(fight, weapon="Long sword")
    assert [w.name for w in melee_choices(fight.encounter, aldo(fight))] == ["Unarmed"]
    perform(RecoverAction("A"), fight, ScriptedDice([]))
    assert aldo(fight).out_of_hand == () and fight.encounter.log[-1].summary == (
        "Aldo picks up the Long sword")
    with pytest.raises(TurnRefusedError, match="already acted"):
        swing(fight, weapon="Long sword")


def test_a_dropped_weapon_is_picked_up_from_next_to_it_only(fight: History) -> None:
    event(fight, 5, 1)
    fight.encounter.timeline = RoundState()
    fight.encounter.put_token(fight.encounter.token("A").at(Cell(2, 0)))
    with pytest.raises(TurnRefusedError, match="lies at \\(0,0\\): stand on or next to it"):
        perform(RecoverAction("A"), fight, ScriptedDice([]))


def test_a_dropped_shield_counts_nothing_until_recovered(fight: History) -> None:
    event(fight, 3, 1)
    assert ac(fight) == 11
    perform(RecoverAction("A", "Medium Shield"), fight, ScriptedDice([]))
    assert ac(fight) == 13


def test_a_lucky_break_adds_its_d6_to_ac_and_saves_to_the_rounds_end(fight: History) -> None:
    """Row 16 'Lucky break +d6 to defence & saves': d6 4."""
    event(fight, 16, 1, 4)
    assert ac(fight) == 17
    fight.push(NextRound())
    assert ac(fight) == 13 and aldo(fight).lucky_break == 0


def test_a_lucky_opening_is_spent_on_the_next_attack(fight: History) -> None:
    """Row 18 'Really lucky opening +d10 to hit': d10 7; the d20 of 4 + 7 = 11 hits AC 11."""
    event(fight, 18, 1, 7)
    outcome = swing(fight, "A", "G", 4, 1)
    assert outcome.result.hit and ("Lucky opening", 7) in [
        (t.name, t.value) for t in outcome.result.to_hit.terms]
    assert aldo(fight).lucky_opening == 0


def test_strike_two_gives_another_attack_without_the_penalty(fight: History) -> None:
    """Row 20 'Strike 2 | Another strike attempt'."""
    event(fight, 20, 1)
    swing(fight)
    second = swing(fight, "A", "G", 11, 1)
    assert second.result.to_hit.value == 11
    with pytest.raises(TurnRefusedError, match=r"\(2 of 2 actions"):
        swing(fight)


def test_stymied_blocks_hero_points_this_round_and_next(fight: History) -> None:
    """Row 22 'Stymied: No hero points this or next round'; pair row: no side die."""
    fight.encounter.put_token(fight.encounter.token("A").with_combatant(
        aldo(fight).model_copy(update={"hero_points": 2})))
    event(fight, 22)
    with pytest.raises(ValueError, match="Aldo is stymied: no hero points"):
        swing(fight, hero=HeroUse.PLUS_TEN)
    fight.push(NextRound())
    assert aldo(fight).has(Condition.STYMIED)
    fight.push(NextRound())
    assert not aldo(fight).has(Condition.STYMIED)


def test_a_hero_point_for_this_round_works_with_hero_points_off(make_encounter: Make) -> None:
    """Row 23 'Additional hero point (must be used this round)'; RD: 'even with hero points
    off'. It goes at the round's end when unspent."""
    history = History(make_encounter("A G", {"A": ALDO, "G": GROK}))
    event(history, 23, 1)
    outcome = swing(history, "A", "G", 1, 1, hero=HeroUse.PLUS_TEN)
    assert outcome.result.to_hit.value == 11
    assert aldo(history).round_hero_points == 0
    event(history, 23, 1)
    history.push(NextRound())
    assert aldo(history).round_hero_points == 0


def test_a_clash_hits_both_and_uses_both_actions(fight: History) -> None:
    """Row 24 'Clash: Both combatents hit': Aldo's long sword d8 6 through Grok's AV 0 = 6;
    Grok's club d4 3 through chain mail AV 4 = 1 (one point always gets through)."""
    event(fight, 24, 6, 3)
    assert fight.encounter.token("G").combatant.hp == 14 and aldo(fight).hp == 19
    with pytest.raises(TurnRefusedError, match="already acted"):
        swing(fight)


def test_a_wild_opening_doubles_the_damage_before_armour(fight: History) -> None:
    """Row 26: Grok's club 3 × 2 = 6 through AV 4: 1 + (5 − 4) = 2."""
    event(fight, 26, 6, 3)
    assert fight.encounter.token("G").combatant.hp == 8 and aldo(fight).hp == 18


def test_a_shield_clash_uses_both_actions(fight: History) -> None:
    event(fight, 27)
    assert [e.actions_taken for e in fight.encounter.timeline.entries] == [1, 1]


def test_befuddled_and_attacked_loses_next_rounds_action(fight: History) -> None:
    """Row 25 'Befuddled: If attacked; no skill action next round'."""
    event(fight, 25, 1)
    swing(fight, "G", "A", 1)  # a miss is an attack too
    fight.push(NextRound())
    fight.push(StartRound(RoundState(round_number=2, entries=[
        InitiativeEntry(token_id="A", segment=3, no_action="befuddled: no skill action this "
                        "round (002 Critical event 25)")])))
    with pytest.raises(TurnRefusedError, match="Aldo is befuddled: no skill action"):
        swing(fight)
    fight.push(NextRound())
    assert not aldo(fight).has(Condition.BEFUDDLED)


def test_befuddled_but_not_attacked_it_acts_next_round(fight: History) -> None:
    event(fight, 25, 1)
    fight.push(NextRound())
    assert not aldo(fight).has(Condition.BEFUDDLED)


def test_the_gm_may_decline_an_event(fight: History) -> None:
    """The event is rolled and logged, nothing changes."""
    before = fight.encounter.token("A").combatant
    outcome = perform(CriticalEventAction("A", "G", declined=True), fight,
                      ScriptedDice([4, 1]))
    assert outcome.result.declined and aldo(fight) == before
    assert outcome.entries[0].text.endswith("— declined by the GM")


def test_initiative_offers_each_acting_event_to_decline(make_encounter: Make) -> None:
    """A tie on segment 5 (d10 5 each) rolls event 2 for Aldo (d3 1); declined, his shield
    stays whole."""
    encounter = make_encounter("A G", {"A": ALDO, "G": GROK})
    action = InitiativeAction()
    outcome = perform(action, History(encounter), ScriptedDice([5, 5, 2, 1]))
    assert action.suggestions(outcome.result) == (
        (1, "Critical event 2: Armour trouble: Shield damaged ( -1 Def) (New shield "
            "required) — Aldo's Medium Shield is damaged: −1 defence until replaced"),)
    again = make_encounter("A G", {"A": ALDO, "G": GROK})
    perform(action.declining(frozenset({1})), History(again), ScriptedDice([5, 5, 2, 1]))
    assert again.token("A").combatant.shield_damage == 0
    assert again.log[-1].text.endswith("declined by the GM")
