"""Morale (002 "Morale"; RD "Injury, morale and the rest"): scores, triggers read off the
encounter and offered once, the 2d10 check with each row of the morale table, and the
issue's scenario — a side at 50% losses checks, fails Unlucky and runs along legal paths
that take it farther from every enemy, as one undo step."""

from __future__ import annotations

from itertools import pairwise

import pytest

from core.actions.base import perform
from core.actions.history import History
from core.actions.morale import MoraleAction, PassMoraleAction
from core.actions.round import NextRound, StartRound
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell, Footprint, distance_ft
from core.model.morale import MoraleTrigger, TriggerKind
from core.model.profile import MoraleResult, RulesProfile
from core.rules import morale
from core.rules.morale import (
    IllegalMoraleError,
    MoraleRequest,
    detect_triggers,
    morale_result,
    morale_score,
    pass_chance,
    pending_triggers,
    resolve_morale,
    retreat_budget_ft,
)
from core.rules.timeline import roll_initiative

FOE = Side.OPPOSITION
HALF = MoraleTrigger(side=FOE, kind=TriggerKind.CASUALTIES, percent=50)


def foe(name: str, **update: object) -> Combatant:
    return Combatant(name=name, side=FOE, weapons=("Spear",), **update)  # type: ignore[arg-type]


def camp(make_encounter, **foes: Combatant) -> Encounter:  # type: ignore[no-untyped-def]
    """Three standing (O, G, K) and three fallen (X, Y, Z) west; the party (P, Q) east."""
    combatants = {"O": foe("Orc"), "G": foe("Goblin"), "K": foe("Kobold"),
                  "X": foe("Goblin 2", hp=0), "Y": foe("Goblin 3", hp=-2),
                  "Z": foe("Goblin 4", conditions=frozenset({Condition.KNOCKED_OUT})),
                  "P": Combatant(name="Pia"), "Q": Combatant(name="Quinn")} | foes
    return make_encounter('''
        . . . Y . . . . . . . .
        . . . O P . . . . . . .
        . . . G Q . . . . . . .
        . . . K . . . . . . . .
        . . Z X . . . . . . . .
    ''', combatants)


def distance(encounter: Encounter, token_id: str, cell: tuple[int, int], enemy: str) -> float:
    size = encounter.token(token_id).footprint.size
    return distance_ft(Footprint(cell[0], cell[1], size), encounter.token(enemy).footprint,
                       encounter.profile.cell_size_ft, encounter.profile.diagonal_rule)


# --- the scenario ---------------------------------------------------------------------
def test_a_side_at_half_losses_fails_unlucky_and_runs_away_from_every_enemy(make_encounter
                                                                              ) -> None:
    encounter = camp(make_encounter)
    assert pending_triggers(encounter) == [HALF]
    history = History(encounter)
    before = {t.id: t.cell for t in encounter.tokens}
    # One 2d10 for the side: 7 + 7 = 14 against each score of 12: failed by 2, Unlucky.
    outcome = perform(MoraleAction(MoraleRequest(side=FOE, triggers=(HALF,))), history,
                      ScriptedDice([7, 7]))
    check = outcome.result
    assert [(c.name, c.level, c.result) for c in check.creatures] == [
        (name, "Unlucky", MoraleResult.RETREAT) for name in ("Goblin", "Kobold", "Orc")]
    budget = retreat_budget_ft(encounter)
    for creature in check.creatures:
        assert creature.path[0] == before[creature.token_id] and len(creature.path) > 1
        assert encounter.token(creature.token_id).cell == creature.path[-1]
        assert creature.cost_ft <= budget == 50
        for enemy in ("P", "Q"):
            steps = [distance(encounter, creature.token_id, c, enemy) for c in creature.path]
            assert all(b >= a for a, b in pairwise(steps)), (creature.name, enemy, steps)
            assert steps[-1] > steps[0]
        assert encounter.token(creature.token_id).combatant.has(Condition.SCARPERING)
    assert encounter.timeline.morale_answered == [HALF] and not pending_triggers(encounter)
    assert encounter.log[-1].kind == "morale" and "Unlucky" in encounter.log[-1].summary
    history.undo()
    assert {t.id: t.cell for t in encounter.tokens} == before
    assert pending_triggers(encounter) == [HALF] and not encounter.log


def test_the_runners_walks_count_towards_their_round(make_encounter) -> None:
    encounter = camp(make_encounter)
    history = History(encounter)
    history.push(StartRound(roll_initiative(encounter, ScriptedDice([5, 5, 5]))))
    encounter.timeline.current_segment = 6
    assert retreat_budget_ft(encounter) == 20  # segments 6..10 left: 4 × 5 ft
    perform(MoraleAction(MoraleRequest(side=FOE)), history, ScriptedDice([7, 7]))
    orc = encounter.timeline.entry("O")
    assert 0 < orc.moved_ft <= 20 and orc.path[-1] == encounter.token("O").cell


# --- each row of the table ----------------------------------------------------------------
@pytest.mark.parametrize(("failed_by", "level", "result"), [
    (0, None, None),
    (1, "Unlucky", MoraleResult.RETREAT), (3, "Unlucky", MoraleResult.RETREAT),
    (4, "Bad", MoraleResult.DROP_AND_RUN), (6, "Bad", MoraleResult.DROP_AND_RUN),
    (7, "Dreadful", MoraleResult.DROP_AND_RUN), (9, "Dreadful", MoraleResult.DROP_AND_RUN),
    (10, "Appalling", MoraleResult.SURRENDER), (12, "Appalling", MoraleResult.SURRENDER),
    (13, "Catastrophic", MoraleResult.BERSERK), (18, "Catastrophic", MoraleResult.BERSERK)])
def test_morale_table_rows(failed_by: int, level: str | None,
                           result: MoraleResult | None) -> None:
    """002 Morale "Fail by | Action" with RD's failure levels; Dreadful counts as Bad."""
    assert morale_result(RulesProfile(), failed_by) == (level, result)


def one_foe(make_encounter, score: int, x: int = 1):  # type: ignore[no-untyped-def]
    """Orc (morale ``score``) at column ``x`` of a corridor, Pia at its east end."""
    row = "." * x + "O" + "." * (6 - x) + "P"
    return make_encounter(row, {"O": foe("Orc", morale=score), "P": Combatant(name="Pia")})


def test_bad_drops_the_weapons_and_runs(make_encounter) -> None:
    encounter = one_foe(make_encounter, 10, x=5)
    history = History(encounter)
    outcome = perform(MoraleAction(MoraleRequest(side=FOE)), history, ScriptedDice([7, 7]))
    orc = encounter.token("O")
    assert outcome.result.creatures[0].level == "Bad"
    assert orc.cell.x == 0 and orc.combatant.weapons == ()
    assert orc.combatant.dropped_weapons == ("Spear",)
    assert orc.combatant.has(Condition.SCARPERING) and "drops: Spear" in outcome.text
    history.undo()
    assert encounter.token("O").combatant.weapons == ("Spear",)


def test_appalling_surrenders_where_it_stands(make_encounter) -> None:
    encounter = one_foe(make_encounter, 6, x=5)
    perform(MoraleAction(MoraleRequest(side=FOE)), History(encounter), ScriptedDice([8, 8]))
    orc = encounter.token("O")
    assert orc.cell.x == 5 and orc.combatant.has(Condition.SURRENDERED)
    assert orc.combatant.dropped_weapons == ("Spear",)
    assert roll_initiative(encounter, ScriptedDice([5, 5])).entry("O").no_action == \
        "surrendered: pleads for mercy"


def test_appalling_with_no_way_away_goes_berserk(make_encounter) -> None:
    encounter = one_foe(make_encounter, 6, x=0)  # its back to the map's edge
    outcome = perform(MoraleAction(MoraleRequest(side=FOE)), History(encounter),
                      ScriptedDice([8, 8]))
    creature = outcome.result.creatures[0]
    assert creature.level == "Appalling" and creature.result is MoraleResult.BERSERK
    assert encounter.token("O").combatant.conditions == {Condition.BERSERK}
    assert encounter.token("O").combatant.weapons == ("Spear",)
    assert "no way away" in outcome.text


def test_catastrophic_goes_berserk(make_encounter) -> None:
    encounter = one_foe(make_encounter, 5, x=5)
    perform(MoraleAction(MoraleRequest(side=FOE)), History(encounter), ScriptedDice([9, 9]))
    assert encounter.token("O").combatant.conditions == {Condition.BERSERK}
    assert encounter.token("O").cell.x == 5


def test_unlucky_in_a_corner_holds_its_place_and_says_so(make_encounter) -> None:
    encounter = one_foe(make_encounter, 12, x=0)
    outcome = perform(MoraleAction(MoraleRequest(side=FOE)), History(encounter),
                      ScriptedDice([7, 7]))
    assert encounter.token("O").cell.x == 0 and "cornered" in outcome.text


def test_each_creature_may_roll_its_own(make_encounter) -> None:
    encounter = camp(make_encounter)
    encounter.profile = RulesProfile(morale_roll="creature")
    check = resolve_morale(encounter, MoraleRequest(side=FOE), ScriptedDice([1, 1, 7, 7, 9, 9]))
    assert [c.level for c in check.creatures] == [None, "Unlucky", "Bad"]


# --- scores -------------------------------------------------------------------------------
def test_scores_default_own_leader_and_fallen_leader(make_encounter) -> None:
    encounter = camp(make_encounter, O=foe("Orc", morale=9, leadership=2),
                     X=foe("Goblin 2", hp=0, leadership=1))
    assert morale_score(encounter, encounter.token("G")).describe() == \
        "Morale 12 + Leader Orc +2 + Leader Goblin 2 down -3 = 11"
    assert morale_score(encounter, encounter.token("O")).value == 9 - 3  # not its own bonus
    with pytest.raises(IllegalMoraleError, match="player character"):
        morale_score(encounter, encounter.token("P"))


def test_pass_chance_is_the_2d10_count() -> None:
    ways = sum(1 for a in range(1, 11) for b in range(1, 11) if a + b <= 12)
    assert pass_chance(12, "2d10") * 100 == ways == 64


# --- triggers -------------------------------------------------------------------------------
def test_triggers_outnumbered_casualties_and_leader(make_encounter) -> None:
    encounter = make_encounter('''
        A B C D . O X Y
    ''', {"O": foe("Ogre", leadership=2), "X": foe("Xan", hp=0), "Y": foe("Yob", hp=-3,
                                                                           leadership=1)})
    found = {t.key for t in detect_triggers(encounter)}
    # 3 of 3 opposition: 2 down (66%); 1 standing against 4: outnumbered; a leader down.
    assert found == {"opposition/outnumbered", "opposition/casualties-50",
                     "opposition/leader-down/Y"}
    encounter.put_token(encounter.token("O").with_combatant(foe("Ogre", hp=0)))
    assert "opposition/casualties-75" in {t.key for t in detect_triggers(encounter)}
    assert not pending_triggers(encounter)  # nobody left standing to check


def test_triggers_are_kept_across_a_move_and_follow_every_other_change(
        make_encounter, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A move keeps its token's combatant, so the triggers are not counted again (5 ms a
    move, twice, on a map of 3,000 tokens); a new combatant or profile recounts them."""
    encounter = camp(make_encounter)
    assert [t.key for t in detect_triggers(encounter)] == ["opposition/casualties-50"]
    counted: list[Side] = []
    count = morale._side_triggers
    monkeypatch.setattr(morale, "_side_triggers",
                        lambda enc, side: counted.append(side) or count(enc, side))
    encounter.put_token(encounter.token("O").at(Cell(2, 1)))
    assert [t.key for t in detect_triggers(encounter)] == ["opposition/casualties-50"]
    assert counted == []
    for token_id, name in (("G", "Goblin"), ("K", "Kobold")):
        encounter.put_token(encounter.token(token_id).with_combatant(foe(name, hp=0)))
    assert [t.key for t in detect_triggers(encounter)] == [  # one Orc against two
        "opposition/outnumbered", "opposition/casualties-50", "opposition/casualties-75"]
    encounter.profile = encounter.profile.model_copy(update={"casualty_percents": (25,)})
    assert [t.key for t in detect_triggers(encounter)] == ["opposition/outnumbered",
                                                           "opposition/casualties-25"]
    assert counted == list(Side) * 2


def test_no_losses_no_trigger_however_outnumbered(make_encounter) -> None:
    encounter = make_encounter("A B C . O", {"O": foe("Ogre")})
    assert detect_triggers(encounter) == []


def test_a_party_of_player_characters_is_never_asked(make_encounter) -> None:
    encounter = make_encounter("A B . O P Q", {"O": foe("Ogre"), "P": foe("P"), "Q": foe("Q"),
                                               "A": Combatant(name="A", hp=0)})
    assert {t.side for t in detect_triggers(encounter)} == {Side.PARTY}
    assert pending_triggers(encounter) == []
    hireling = Combatant(name="B", morale=8)
    encounter.put_token(encounter.token("B").with_combatant(hireling))
    assert {t.key for t in pending_triggers(encounter)} == {"party/outnumbered",
                                                            "party/casualties-50"}


def test_answered_triggers_stay_answered_across_rounds_and_undo_restores(make_encounter
                                                                         ) -> None:
    encounter = camp(make_encounter)
    history = History(encounter)
    perform(PassMoraleAction(FOE, (HALF,)), history, ScriptedDice([]))
    assert not pending_triggers(encounter)
    history.push(StartRound(roll_initiative(encounter, ScriptedDice([5, 5, 5]))))
    history.push(NextRound())
    assert encounter.timeline.morale_answered == [HALF] and not pending_triggers(encounter)
    history.undo()
    history.undo()
    history.undo()
    assert pending_triggers(encounter) == [HALF]


def test_trigger_keys_round_trip_and_bad_keys_are_explained() -> None:
    for key in ("party/outnumbered", "opposition/casualties-75", "opposition/leader-down/og"):
        assert MoraleTrigger.from_key(key).key == key
    with pytest.raises(ValueError, match="names no morale trigger"):
        MoraleTrigger.from_key("opposition/panic")


def test_a_removed_leader_takes_its_answered_trigger_with_it(make_encounter) -> None:
    encounter = camp(make_encounter, X=foe("Goblin 2", hp=0, leadership=1))
    trigger = MoraleTrigger(side=FOE, kind=TriggerKind.LEADER_DOWN, leader="X")
    encounter.timeline.morale_answered = [trigger, HALF]
    assert encounter.timeline.without_token("X").morale_answered == [HALF]
    assert "morale_answered.0.leader" in (encounter.timeline.stray_token({"O"}) or "")


def test_profile_checks_its_morale_table() -> None:
    with pytest.raises(ValueError, match="'Panic' is not a failure level"):
        RulesProfile(morale_results=[{"level": "Panic", "result": "retreat"}])
    with pytest.raises(ValueError, match="needs a row for 'Unlucky'"):
        RulesProfile(morale_results=[{"level": "Bad", "result": "retreat"}])
    with pytest.raises(ValueError, match="must rise"):
        RulesProfile(casualty_percents=[75, 50])
