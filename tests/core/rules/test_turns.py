"""One action each and when a creature may strike (core.rules.turns, core.actions.turns):
002 "The fight", "Movement", "Aiming / setting up position"; RD "One action each", "Knockdown
and Prone". Every refusal leaves the history and the encounter as they were.

The pair below: Aldo (party, HR 0) next to Grok (opposition, AC 11, 8 HP). A d20 of 20 hits,
and a d6 of 6 deals 6."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.declare import DeclareAction
from core.actions.history import History
from core.actions.missile import MissileAction
from core.actions.round import NextRound, StartRound
from core.actions.shove import ShoveAction
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.round import InitiativeEntry, RoundState
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.missile import MissileRequest, prepare_missile
from core.rules.shove import ShoveRequest
from core.rules.timeline import entry_timing, roll_initiative, still_to_act, timer_for
from core.rules.turns import TurnRefusedError, acted_note, turn_refusal

Make = Callable[..., Encounter]
GROK = Combatant(name="Grok", side=Side.OPPOSITION)


def in_round(encounter: Encounter, **aldo: object) -> Encounter:
    """Round 1 under way: Aldo's entry as given, Grok on segment 3."""
    encounter.timeline = RoundState(round_number=1, current_segment=3, entries=[
        InitiativeEntry(token_id="A", **aldo),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=3)])
    return encounter


@pytest.fixture
def pair(make_encounter: Make) -> Encounter:
    return make_encounter("A G .", {"A": Combatant(name="Aldo", weapons=("Short bow",)),
                                    "G": GROK})


def attack(encounter: Encounter, free: bool = False) -> AttackAction:
    return AttackAction("A", "G", AttackOptions(damage="d6", free=free))


def refused(history: History, action: AttackAction | ShoveAction | MissileAction,
            match: str) -> None:
    """The action is refused with ``match`` in the reason, and nothing is recorded."""
    before, steps = history.encounter.model_dump(), history.labels()
    with pytest.raises(TurnRefusedError, match=match):
        perform(action, history, ScriptedDice([20, 6]))
    assert history.labels() == steps and history.encounter.model_dump() == before


def test_initiative_6_and_45_ft_moved_strikes_on_segment_15_so_no_attack(pair: Encounter
                                                                         ) -> None:
    """002 Movement: 'the strike will occur on the segment given by the initiative roll +
    the time taken to move into melee If the total is greater than 10, no attack occurs that
    round'. 45 ft is 9 segments: 6 + 9 = 15."""
    history = History(in_round(pair, segment=6, moved_ft=45))
    refused(history, attack(pair), "Aldo has no attack this round: moves 45 ft "
                                   r"\(9 segments\) from initiative 6: segment 15 is past 10")
    assert history.labels() == [] and pair.token("G").combatant.hp == 8


def test_initiative_6_and_20_ft_moved_strikes_on_segment_10(pair: Encounter) -> None:
    """002's example: 'moves 20 feet ... rolls a 6 ... 4 + 6 = 10th segment'."""
    history = History(in_round(pair, segment=6, moved_ft=20))
    outcome = perform(attack(pair), history, ScriptedDice([20, 6]))
    assert outcome.result.hit and pair.token("G").combatant.hp == 2


def test_an_aiming_creature_misses_its_aiming_round(pair: Encounter) -> None:
    """002 Aiming / setting up position: 'Miss a round'."""
    history = History(in_round(pair, segment=2, aiming=True))
    refused(history, attack(pair), "Aldo is aiming this round: no attack")
    timing = entry_timing(pair.timeline.entry("A"), pair.token("A").combatant, pair.profile)
    assert not timing.attacks and timing.reason == "aiming: no attack this round"


def test_a_missile_and_a_shove_are_refused_alike(pair: Encounter) -> None:
    history = History(in_round(pair, segment=8, moved_ft=15))  # 8 + 3 = 11
    refused(history, MissileAction(MissileRequest(attacker="A", target="G")), "segment 11")
    refused(history, ShoveAction(ShoveRequest(attacker="A", defender="G")), "segment 11")


def test_one_action_each_then_refused_until_the_next_round(pair: Encounter) -> None:
    """002 The fight: 'each party member gets to perform one action'. The first attack
    counts; a shove after it is refused; undo gives the action back; the next round has
    a fresh count."""
    history = History(in_round(pair, segment=2))
    perform(attack(pair), history, ScriptedDice([1]))  # a miss is still the action
    entry = pair.timeline.entry("A")
    assert entry.actions_taken == 1 and acted_note(entry) == "Acted: 1 of 1 action"
    refused(history, ShoveAction(ShoveRequest(attacker="A", defender="G")),
            r"Aldo has already acted this round \(1 of 1 action")
    history.undo()
    assert pair.timeline.entry("A").actions_taken == 0 and turn_refusal(pair, "A") == ""
    history.redo()
    history.push(NextRound())
    assert turn_refusal(pair, "A") == ""  # no initiative yet: nothing is counted


def test_a_free_attack_a_rule_grants_is_not_the_action(pair: Encounter) -> None:
    """RD "One action each": 'Not actions: ... free attacks a rule grants'."""
    history = History(in_round(pair, segment=2, actions_taken=1))
    perform(attack(pair, free=True), history, ScriptedDice([20, 2]))
    assert pair.timeline.entry("A").actions_taken == 1 and pair.token("G").combatant.hp == 6


def test_outside_a_round_nothing_is_counted(pair: Encounter) -> None:
    history = History(pair)
    for _ in range(2):
        perform(attack(pair), history, ScriptedDice([1]))
    assert len(history.labels()) == 2


def test_knocked_prone_before_acting_it_gets_up_this_round(pair: Encounter) -> None:
    """RD "Knockdown and Prone": 'Prone's getting-up is the creature's next action: this
    round if it has not acted yet, else the next round'. Prone after acting: it still
    acted, and gets up next round."""
    history = History(in_round(pair, segment=5))
    prone = pair.token("A").combatant.model_copy(update={"conditions": {Condition.PRONE}})
    pair.put_token(pair.token("A").with_combatant(prone))
    refused(history, attack(pair), "Aldo gets up this round: getting up is its action")
    history.push(NextRound())
    assert not pair.token("A").combatant.has(Condition.PRONE)


def test_knocked_prone_after_acting_it_stays_down_until_next_round(pair: Encounter) -> None:
    history = History(in_round(pair, segment=5, actions_taken=1))
    prone = pair.token("A").combatant.model_copy(update={"conditions": {Condition.PRONE}})
    pair.put_token(pair.token("A").with_combatant(prone))
    history.push(NextRound())
    assert pair.token("A").combatant.has(Condition.PRONE)


# --- Knockdown is −6, not a lost action (issue 37, bug 2) ------------------------------------

def knocked(encounter: Encounter, *conditions: Condition) -> None:
    aldo = encounter.token("A").combatant.model_copy(update={"conditions": set(conditions)})
    encounter.put_token(encounter.token("A").with_combatant(aldo))


def test_knocked_down_and_standing_it_attacks_at_minus_six(pair: Encounter) -> None:
    """002 Stunning table: 'Dreadful | Knockdown | -6 on all skills'. A d20 of 17 − 6 = 11
    still reaches Grok's AC 11."""
    knocked(pair, Condition.KNOCKDOWN)
    history = History(in_round(pair, segment=2))
    outcome = perform(attack(pair), history, ScriptedDice([17, 3]))
    assert outcome.result.hit and outcome.result.to_hit.value == 11
    assert ("Knockdown", -6) in [(t.name, t.value) for t in outcome.result.to_hit.terms]


def test_a_one_round_knock_out_costs_that_round_and_one_getting_up(pair: Encounter) -> None:
    """RD "Conditions": KO for 1 round lasts the rest of this round and all of the next, then
    Knockdown with Prone; getting up is the next action; then it acts (Stunned by then,
    −4). Knocked out in round 1: no action in round 2, gets up in round 3, attacks in round
    4 — before, Knockdown took round 3's action as well and getting up came in round 4."""
    knocked(pair, Condition.KNOCKED_OUT)
    history = History(pair)
    pair.timeline = RoundState(round_number=1)
    pair.timeline.timers = [timer_for("A", Condition.KNOCKED_OUT, pair.profile, 2)]
    refusals = []
    for round_number in (2, 3, 4):
        history.push(NextRound())
        history.push(StartRound(roll_initiative(pair, ScriptedDice([2, 3]))))
        assert pair.timeline.round_number == round_number
        refusals.append(_why_not(pair))
    assert refusals == ["Aldo cannot act: knocked out: no action",
                        "Aldo gets up this round: getting up is its action",
                        ""]
    assert pair.token("A").combatant.conditions == {Condition.STUNNED}


def _why_not(encounter: Encounter) -> str:
    """The first words of the refusal of Aldo's attack now ('' when it is allowed)."""
    try:
        attack_on_map(encounter, "A", "G", AttackOptions(), ScriptedDice([20, 1]))
    except ValueError as error:
        return str(error).split(" (")[0]
    return ""


# --- Declarations: multiple attacks, standing to defend (issue 37, point 6) -----------------

def declared(encounter: Encounter, attacks: int = 1, defend: bool = False) -> History:
    history = History(encounter)
    perform(DeclareAction("A", attacks, defend), history, ScriptedDice([]))
    return history


def test_two_attacks_are_minus_three_each_and_to_the_defence(pair: Encounter) -> None:
    """002 Multiple Attacks: 'every extra attack not only suffers -3 to each attack but also
    -3 to your parry skill'. Declared on segment 2: the attacks fall on 2 and 3; a third is
    refused. 14 − 3 = 11 hits AC 11; Grok's 8 hits Aldo's AC 11 − 3 = 8."""
    history = declared(in_round(pair, segment=2), attacks=2)
    assert pair.log[-1].summary == ("Aldo declares 2 attacks this round: -3 to each and to "
                                    "its defence")
    for _ in range(2):
        outcome = perform(attack(pair), history, ScriptedDice([14, 1]))
        assert outcome.result.hit and outcome.result.to_hit.value == 11
    refused(history, attack(pair), r"already acted this round \(2 of 2 actions")
    grok = perform(AttackAction("G", "A", AttackOptions(damage="d6")), history,
                   ScriptedDice([8, 1]))
    assert grok.result.hit and grok.result.target_ac.value == 8
    assert grok.result.target_ac.terms[-1].name == "2 attacks declared"


def test_an_extra_attack_past_segment_ten_is_lost(pair: Encounter) -> None:
    """RD: 'attack k falls at the attack segment + k − 1, and any past segment 10 is
    lost'."""
    history = declared(in_round(pair, segment=10), attacks=2)
    perform(attack(pair), history, ScriptedDice([1]))
    refused(history, attack(pair), "segment 11 is past 10")


def test_standing_to_defend_gives_two_against_melee_and_no_attack(pair: Encounter) -> None:
    """002 Not attacking: 'Whichever defence used method you gain +2'. Grok's melee attack
    meets AC 13; its missile would meet AC 11 (RD: against melee)."""
    grok = pair.token("G").combatant.model_copy(update={"weapons": ("Sling",)})
    pair.put_token(pair.token("G").with_combatant(grok))
    history = declared(in_round(pair, segment=2), defend=True)
    refused(history, attack(pair), "Aldo stands to defend this round: no attack")
    shot = prepare_missile(pair, MissileRequest(attacker="G", target="A"))
    assert shot.defence.value == 11
    melee = perform(AttackAction("G", "A", AttackOptions(damage="d6")), history,
                    ScriptedDice([1]))
    assert melee.result.target_ac.value == 13


def test_declarations_come_before_the_creature_acts(pair: Encounter) -> None:
    history = History(in_round(pair, segment=2, actions_taken=1))
    with pytest.raises(TurnRefusedError, match="Aldo has already acted this round: "
                                               "declarations come before it acts"):
        perform(DeclareAction("A", 2), history, ScriptedDice([]))
    with pytest.raises(TurnRefusedError, match="roll initiative first"):
        perform(DeclareAction("A", 2), History(pair.scratch_copy().model_copy(
            update={"timeline": RoundState()})), ScriptedDice([]))
    assert history.labels() == []


def test_a_creature_that_has_acted_loses_nothing_when_the_round_ends(pair: Encounter) -> None:
    """"Next round" asks about who would lose its turn (core.rules.timeline.still_to_act):
    not one that has taken all its actions."""
    in_round(pair, segment=6)
    assert [s.name for s in still_to_act(pair.timeline, pair)] == ["Aldo"]
    perform(attack(pair), History(pair), ScriptedDice([1]))
    assert still_to_act(pair.timeline, pair) == []
