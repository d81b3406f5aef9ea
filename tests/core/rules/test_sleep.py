"""Sleep (002 "Sleep"): the waking chain on the timeline, the attack bonuses against a waking
or rising creature in the attack and missile breakdowns, and the exact odds with the +1d8."""

from __future__ import annotations

from fractions import Fraction

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.history import History
from core.actions.missile import MissileAction
from core.actions.round import NextRound
from core.actions.sleep import WakeAction
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceExhaustedError, ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.attack_odds import attack_odds
from core.rules.conditions import NoActionError
from core.rules.missile import MissileRequest, resolve_missile
from core.rules.missile_odds import missile_odds
from core.rules.timeline import roll_initiative

ARCHER = Combatant(name="Ann", weapons=("Short bow", "Dagger"))
GNOLL = Combatant(name="Gnoll", side="opposition", armour="leather", max_hp=30, hp=30)


def camp(*conditions: Condition, gnoll_x: int = 1, profile: RulesProfile | None = None
         ) -> Encounter:
    """Ann next to (or, with ``gnoll_x``, in bow range of) a Gnoll in ``conditions``."""
    gnoll = GNOLL.model_copy(update={"conditions": frozenset(conditions)})
    return Encounter(profile=profile or RulesProfile(), map=BattleMap(width=12, height=3),
                     tokens=[Token(id="ann", combatant=ARCHER, x=0, y=1),
                             Token(id="gnoll", combatant=gnoll, x=gnoll_x, y=1)])


def stab(encounter: Encounter, dice: list[int]) -> object:
    return attack_on_map(encounter, "ann", "gnoll", AttackOptions(weapon="Dagger"),
                         ScriptedDice(dice))


def test_round_one_waking_foe_hits_automatically_for_double_damage() -> None:
    # 002 Sleep row 1: "Waking up - Foe auto hits double damage". A natural 1 (1 vs AC 11)
    # still hits; the dagger's 4 through leather AV 2 is 1 + (3 - 2) = 2, doubled to 4.
    result = stab(camp(Condition.WAKING), [1, 4])
    assert result.hit and result.automatic
    assert [(t.name, t.value) for t in result.damage.terms][-1] == ("Gnoll waking: ×2 damage", 2)
    assert result.damage_taken == 4


def test_a_sleeper_is_hit_the_same_way_and_the_wound_wakes_it() -> None:
    encounter = camp(Condition.ASLEEP)
    history = History(encounter)
    perform(AttackAction("ann", "gnoll", AttackOptions(weapon="Dagger")), history,
            ScriptedDice([2, 4]))
    gnoll = encounter.token("gnoll").combatant
    assert gnoll.hp == 26 and gnoll.conditions == {Condition.WAKING}
    assert [(t.condition, t.rounds) for t in encounter.timeline.timers] == \
        [(Condition.WAKING, 2)]
    assert [e.kind for e in encounter.log] == ["attack", "wake"]
    assert encounter.log[1].summary == "Gnoll is woken by the hit: normal combat from round 4"
    assert "Waking: rounds 0–1" in encounter.log[1].text
    history.undo()
    assert encounter.token("gnoll").combatant.conditions == {Condition.ASLEEP}
    assert not encounter.timeline.timers


def test_round_two_rising_foe_rolls_plus_d8_after_the_d20() -> None:
    # 002 Sleep row 2: "Rising - Foe gets +1d8 to their attack". d20 5 alone misses AC 11;
    # with the d8's 7 it is 12: a hit; the dagger's 4 through AV 2 is 1 + (3 - 2) = 2.
    encounter = camp(Condition.RISING)
    result = stab(encounter, [5, 7, 4])
    names = [t.name for t in result.to_hit.terms]
    assert names[0] == "d20" and names[-1] == "Gnoll rising: +d8 rolled 7"
    assert result.to_hit.value == 12 and result.hit and not result.automatic
    assert result.damage_taken == 2  # no doubling while rising
    with pytest.raises(DiceExhaustedError) as need:
        stab(encounter, [5])
    assert need.value.faces == 8 and "rising" in need.value.purpose


def test_round_three_defending_foe_attacks_normally() -> None:
    # 002 Sleep row 3: "Defend - Foe attacks nornmally": no die, no automatic hit.
    result = stab(camp(Condition.DEFENDING), [5, 3])
    assert not result.hit and not any("Gnoll" in t.name for t in result.to_hit.terms)


def test_waking_chain_steps_through_the_rounds_after_waking() -> None:
    encounter = camp(Condition.ASLEEP)
    encounter.timeline.round_number = 3
    history = History(encounter)
    outcome = perform(WakeAction("gnoll"), history, ScriptedDice([]))
    assert outcome.summary == "Gnoll is woken: normal combat from round 7"
    assert "Waking: rounds 3–4" in outcome.text and "Rising: round 5" in outcome.text
    seen = []
    for _ in range(5):
        seen.append(sorted(encounter.token("gnoll").combatant.conditions))
        history.push(NextRound())
    assert seen == [[Condition.WAKING], [Condition.WAKING], [Condition.RISING],
                    [Condition.DEFENDING], []]


def test_no_stage_of_sleep_attacks_and_the_round_says_why() -> None:
    for condition, why in ((Condition.ASLEEP, "asleep"), (Condition.WAKING, "waking up"),
                           (Condition.RISING, "rising"), (Condition.DEFENDING, "defends only")):
        state = roll_initiative(camp(condition), ScriptedDice([5, 5]))
        assert state.entry("gnoll").no_action.startswith(why)


def test_only_a_sleeper_can_be_woken() -> None:
    with pytest.raises(ValueError, match="Gnoll is not asleep"):
        perform(WakeAction("gnoll"), History(camp()), ScriptedDice([]))


def test_profile_lengthens_waking_and_changes_the_numbers() -> None:
    profile = RulesProfile(waking_rounds=2, rising_attack_die="d4", waking_damage_multiplier=3)
    encounter = camp(Condition.ASLEEP, profile=profile)
    outcome = perform(WakeAction("gnoll"), History(encounter), ScriptedDice([]))
    assert outcome.result[0].last == 2 and "+d4" in outcome.result[1].effect
    assert stab(camp(Condition.WAKING, profile=profile), [1, 4]).damage_taken == 6


def test_missile_at_a_rising_target_rolls_the_d8_and_the_odds_count_it() -> None:
    encounter = camp(Condition.RISING, gnoll_x=6)
    request = MissileRequest(attacker="ann", target="gnoll", weapon="Short bow")
    result = resolve_missile(encounter, request, ScriptedDice([3, 8, 5]))
    assert result.attack.hit and result.attack.to_hit.value == 11
    # Exact: the hit needs d20 + d8 ≥ 11 (bonus 0 at short range, AC 11).
    hits = sum(1 for a in range(1, 21) for b in range(1, 9) if a + b >= 11)
    odds = missile_odds(encounter, request)
    assert odds.hit == Fraction(hits, 160) and odds.hit + odds.miss == 1
    assert sum(odds.landing.values()) + odds.off_map == odds.miss


def test_missile_at_a_waking_target_always_hits_doubled() -> None:
    encounter = camp(Condition.WAKING, gnoll_x=6)
    request = MissileRequest(attacker="ann", target="gnoll", weapon="Short bow")
    assert missile_odds(encounter, request).hit == 1
    assert missile_odds(encounter, request).notes == (
        "Gnoll waking: hit whatever the roll, damage ×2 (002 Sleep)",)
    history = History(encounter)
    perform(MissileAction(request), history, ScriptedDice([1, 6]))
    # short bow d6 = 6 through leather's AV vs missiles 1 → 1 + 4 = 5, doubled = 10
    assert encounter.token("gnoll").combatant.hp == 20


@pytest.mark.parametrize("condition", [Condition.ASLEEP, Condition.WAKING, Condition.RISING])
def test_a_sleeper_or_a_waking_creature_cannot_attack(condition: Condition) -> None:
    """A GM's walk-through: a sleeping Hill Giant attacked from its token menu."""
    encounter = camp()
    sleeper = encounter.token("ann").combatant.model_copy(
        update={"conditions": frozenset({condition})})
    encounter.put_token(encounter.token("ann").with_combatant(sleeper))
    history = History(encounter)
    with pytest.raises(NoActionError, match="Ann cannot act: "):
        perform(AttackAction("ann", "gnoll", AttackOptions(weapon="Dagger")), history,
                ScriptedDice([20, 4]))
    with pytest.raises(NoActionError):
        missile_odds(encounter, MissileRequest(attacker="ann", target="gnoll"))
    assert history.index == 0 and encounter.log == []


def test_the_attack_odds_say_what_the_targets_sleep_does() -> None:
    """A GM's walk-through: 'Hit 91%' at a rising ogre with no word of the +d8."""
    odds = attack_odds(camp(Condition.RISING), "ann", "gnoll", AttackOptions(weapon="Dagger"))
    assert odds.notes == ("Gnoll rising: +d8 to the attack (002 Sleep)",)
    assert odds.to_json()["notes"] == list(odds.notes)
    assert attack_odds(camp(), "ann", "gnoll", AttackOptions(weapon="Dagger")).notes == ()
