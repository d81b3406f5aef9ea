"""Melee manoeuvres worked by hand (issue 13's known answers): forcing back stopped by a wall
with no slam, a charge, an overrun that fails against a braced Huge defender, an evade past
two enemies with the second failing, and the map's terms in every attack breakdown."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.charge import ChargeAction
from core.actions.evade import EvadeAction
from core.actions.force_back import ForceBackAction
from core.actions.history import History
from core.actions.move import MoveAction
from core.actions.overrun import OverrunAction
from core.actions.round import AdvanceSegment, NextRound, StartRound
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell, Direction
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.round import InitiativeEntry, RoundState
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.charge import ChargeRequest, charge_odds
from core.rules.evade import EvadeRequest, evade_checks, evade_odds
from core.rules.force_back import ForceBackRequest, force_back_odds
from core.rules.manoeuvres import drag_offer, offers
from core.rules.melee import IllegalManoeuvreError
from core.rules.overrun import OverrunRequest, overrun_line, overrun_odds
from core.rules.timeline import roll_initiative

Make = Callable[..., Encounter]


def foe(name: str, **kw: object) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, **kw)


def start_round(history: History, dice: list[int]) -> None:
    history.push(StartRound(roll_initiative(history.encounter, ScriptedDice(dice))))


# --- forcing back ----------------------------------------------------------------------------

def test_forcing_back_stopped_by_a_wall_does_not_slam(make_encounter: Make) -> None:
    """d20 18 + HR 6 (4 slots, STR 16) = 24 vs 10 + HR 0: 14 points over = 14 ft east. The
    wall after one cell stops B with 9 ft unused: no slam, no damage (RD "walls stop it
    without a slam"); A steps into the space left."""
    encounter = make_encounter("A B . .", {
        "A": Combatant(name="A", hr_slots=4, abilities=Abilities(strength=16)),
        "B": foe("B", max_hp=9, hp=9)}, walls=[(3, 0, 3, 1)])
    history = History(encounter)
    request = ForceBackRequest(attacker="A", defender="B", follow=True)
    outcome = perform(ForceBackAction(request), history, ScriptedDice([18]))
    result = outcome.result
    assert (result.attack.value, result.target.value, result.distance_ft) == (24, 10, 14)
    assert result.path == (Cell(1, 0), Cell(2, 0)) and result.stopped_by == "wall"
    assert encounter.token("B").cell == Cell(2, 0) and encounter.token("B").combatant.hp == 9
    assert encounter.token("A").cell == Cell(1, 0)
    assert outcome.summary == ("A forces B back 5 ft E — 14 ft over, stopped by the wall (no "
                               "slam); A follows")
    assert outcome.action.totals(result)["slam"] is False
    history.undo()
    assert (encounter.token("A").cell, encounter.token("B").cell) == (Cell(0, 0), Cell(1, 0))


def test_forcing_back_failure_lowers_the_attackers_guard_until_its_next_action(
        make_encounter: Make) -> None:
    """Failing by 5 is Bad (2 levels): AC −2 for A until it strikes next round; B's attack
    breakdown shows it, and it is gone once the timeline passes A's segment."""
    encounter = make_encounter("A B", {"A": Combatant(name="A"), "B": foe("B")})
    history = History(encounter)
    outcome = perform(ForceBackAction(ForceBackRequest(attacker="A", defender="B")), history,
                      ScriptedDice([5]))
    assert outcome.summary == ("A fails to force B back (5 vs 10, Bad): AC -2 until its next "
                               "action")
    hit = attack_on_map(encounter, "B", "A", AttackOptions(), ScriptedDice([10, 1]))
    assert ("Forcing back failed (Bad)", -2) in [(t.name, t.value) for t in hit.target_ac.terms]
    assert hit.target_ac.value == 9
    start_round(history, [3, 6])  # A (party) strikes on segment 3, B on 6
    for _ in range(3):
        assert attack_on_map(encounter, "B", "A", AttackOptions(),
                             ScriptedDice([10, 1])).target_ac.value == 9
        history.push(AdvanceSegment())
    assert attack_on_map(encounter, "B", "A", AttackOptions(),
                         ScriptedDice([10, 1])).target_ac.value == 11
    history.push(NextRound())
    assert encounter.timeline.ac_penalties == []


def test_forcing_back_into_a_pit_asks_the_pit_stop_save(make_encounter: Make) -> None:
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
                 effect=HazardEffect(fall_ft=10))
    encounter = make_encounter("A B . .", {"A": Combatant(name="A", hr_slots=5),
                                          "B": foe("B", death_ray_save=14)}, hazards=[pit])
    request = ForceBackRequest(attacker="A", defender="B")
    odds = force_back_odds(encounter, request)
    # d20 ≥ 8 moves B a cell (3 ft over or more): 13/20; of those the save fails 13/20
    assert odds.into_hazard == Fraction(13, 20) * Fraction(13, 20)
    assert sum(odds.landing.values()) == 1
    outcome = perform(ForceBackAction(request), History(encounter), ScriptedDice([10, 3, 4]))
    assert outcome.result.final_cell == Cell(2, 0)
    assert encounter.token("B").combatant.hp == 8 - 4


# --- charge ------------------------------------------------------------------------------

def charge_scene(make_encounter: Make) -> tuple[Encounter, History]:
    """A (FR 4, CON +1) runs 15 ft east along row 0 into contact with B."""
    encounter = make_encounter("A . . . B .", {
        "A": Combatant(name="A", fr_slots=2, abilities=Abilities(strength=16,
                                                                  constitution=14)),
        "B": foe("B")})
    history = History(encounter)
    start_round(history, [4, 7])
    perform(MoveAction({"A": Cell(3, 0)}), history, ScriptedDice([]))
    return encounter, history


def test_charge_knocks_the_loser_down_by_the_difference(make_encounter: Make) -> None:
    """Hit: d20 8 + FR 4 + Run 2 = 14 ≥ AC 11. Opposed: 12 + 4 + 1 + 2 = 19 against
    10 + 0 + 0 = 10; B loses by 9, Dreadful: Knockdown and Prone, with a one-round timer."""
    encounter, history = charge_scene(make_encounter)
    outcome = perform(ChargeAction(ChargeRequest(attacker="A", defender="B")), history,
                      ScriptedDice([8, 12, 10]))
    result = outcome.result
    assert result.run_ft == 15 and result.to_hit.value == 14 and result.hit
    assert (result.charger.value, result.resister.value) == (19, 10)  # type: ignore[union-attr]
    assert encounter.token("B").combatant.conditions == {Condition.KNOCKDOWN, Condition.PRONE}
    assert [(t.token_id, t.condition, t.rounds) for t in encounter.timeline.timers] == [
        ("B", Condition.KNOCKDOWN, 1)]
    assert outcome.summary == ("A charges B (15 ft run): 14 vs AC 11 — hits; 19 vs 10: B "
                               "knockdown, prone")


def test_charge_tie_dazes_both_and_odds_add_up(make_encounter: Make) -> None:
    encounter, history = charge_scene(make_encounter)
    request = ChargeRequest(attacker="A", defender="B")
    odds = charge_odds(encounter, request)
    assert odds.hit == Fraction(16, 20)  # d20 + 6 ≥ 11: d20 ≥ 5
    assert sum(odds.defender.values()) == odds.hit
    perform(ChargeAction(request), history, ScriptedDice([20, 3, 10]))  # 3 + 7 = 10 vs 10
    assert encounter.token("A").combatant.conditions == {Condition.DAZED}
    assert encounter.token("B").combatant.conditions == {Condition.DAZED}


def test_charge_needs_a_straight_run(make_encounter: Make) -> None:
    encounter = make_encounter("A B", {"A": Combatant(name="A"), "B": foe("B")})
    with pytest.raises(IllegalManoeuvreError, match="straight run of more than 10 ft"):
        charge_odds(encounter, ChargeRequest(attacker="A", defender="B"))
    declared = charge_odds(encounter, ChargeRequest(attacker="A", defender="B", run_ft=25))
    assert declared.run_ft == 25


# --- overrun -----------------------------------------------------------------------------

GIANT = foe("Giant", size="huge", abilities=Abilities(strength=18), fr_slots=1,
            conditions=frozenset({Condition.BRACED}))


def test_overrun_fails_against_a_braced_huge_defender(make_encounter: Make) -> None:
    """The ogre (Large) sprints 25 ft into contact: 10 + 2 × 2 (sprint) + 0 (smaller) − 3
    (braced) = 11. The giant stays standing on d20 + STR 3 + FR 4 ≥ 11 (17 in 20); a 5
    gives 12: it stands, and the ogre stops next to it."""
    encounter = make_encounter("""
        O O . . . . . G G G . . .
        O O . . . . . G G G . . .
        . . . . . . . G G G . . .
    """, {"O": Combatant(name="Ogre", size="large"), "G": GIANT})
    history = History(encounter)
    start_round(history, [5, 9])
    request = OverrunRequest(mover="O", defender="G", approach=Cell(5, 0))
    odds = overrun_odds(encounter, request)
    assert odds.stands == Fraction(17, 20) and odds.run_ft == 25
    assert odds.landing == {Cell(5, 0): Fraction(17, 20), Cell(10, 0): Fraction(3, 20)}
    outcome = perform(OverrunAction(request), history, ScriptedDice([5]))
    result = outcome.result
    assert (result.stand.value, result.target.value, result.stands) == (12, 11, True)
    assert encounter.token("O").cell == Cell(5, 0)
    assert Condition.PRONE not in encounter.token("G").combatant.conditions
    assert encounter.timeline.entry("O").moved_ft == 25
    assert outcome.summary == ("Ogre overruns Giant (25 ft run): 12 vs 11 — Giant stands; "
                               "Ogre stops next to it")


def test_overrun_that_knocks_down_passes_beyond(make_encounter: Make) -> None:
    encounter = make_encounter("A . . B . .", {"A": Combatant(name="A"), "B": foe("B")})
    request = overrun_line(encounter, "A", Cell(5, 0))
    assert request == OverrunRequest(mover="A", defender="B", approach=Cell(2, 0),
                                     direction=Direction.E)
    # a 10 ft approach is no run: B stands on d20 ≥ 10
    assert overrun_odds(encounter, request).landing == {Cell(4, 0): Fraction(9, 20),
                                                        Cell(2, 0): Fraction(11, 20)}
    perform(OverrunAction(request), History(encounter), ScriptedDice([2]))
    assert encounter.token("A").cell == Cell(4, 0)
    assert encounter.token("B").combatant.conditions == {Condition.PRONE}


def test_a_big_mover_passes_over_a_creature_beside_the_defender(make_encounter: Make
                                                                 ) -> None:
    """RD Overrun: 'the mover passes to the first free cell beyond'. The Ogre (Large, two
    rows) runs through the Guard; the Goblin beside the Guard is in its way: passed over,
    the Ogre stands clear at (3,1), the first place beyond (it went on to (5,1), taking its
    own cells for a creature in the way)."""
    encounter = make_encounter("""
        . . . . . . .
        L L D . . . .
        L L C . . . .
        . . . . . . .
    """, {"L": Combatant(name="Ogre", size="large"), "D": foe("Guard"), "C": foe("Goblin")})
    outcome = perform(OverrunAction(OverrunRequest(mover="L", defender="D")),
                      History(encounter), ScriptedDice([1]))
    assert not outcome.result.stands
    assert encounter.token("L").cell == Cell(3, 1)
    assert encounter.token("C").cell == Cell(2, 2)  # passed over, not moved


def test_tiny_creatures_cannot_overrun_the_braced(make_encounter: Make) -> None:
    """Nowhere free beyond the braced defender (the map ends): refused."""
    encounter = make_encounter("A B", {"A": Combatant(name="A", size="tiny"), "B": foe(
        "B", conditions=frozenset({Condition.BRACED}))})
    with pytest.raises(IllegalManoeuvreError, match="swarm past"):
        overrun_odds(encounter, OverrunRequest(mover="A", defender="B"))


def test_tiny_creatures_swarm_past_the_braced(make_encounter: Make) -> None:
    """002 Overruns: 'Creatures lower than knee height cannot overrun a braced character;
    however they may swarm past'; RD: through its cell to the first free cell beyond, no
    roll, no evade check. Not the rat's action: it still attacks this round."""
    encounter = make_encounter("A B . .", {"A": Combatant(name="Rat", size="tiny"), "B": foe(
        "B", conditions=frozenset({Condition.BRACED}))})
    encounter.timeline = RoundState(round_number=1, entries=[InitiativeEntry(token_id="A")])
    odds = overrun_odds(encounter, OverrunRequest(mover="A", defender="B"))
    assert odds.swarm and odds.landing == {Cell(2, 0): Fraction(1)}
    assert "Swarm past B (braced; no roll)" in [o.text for o in offers(encounter, "A")]
    drag = drag_offer(encounter, "A", Cell(3, 0), path=(), around=False)
    assert drag is not None and drag.label == "swarm past B"
    outcome = perform(OverrunAction(OverrunRequest(mover="A", defender="B")),
                      History(encounter), ScriptedDice([]))
    assert outcome.summary == ("Rat swarms past the braced B to (2,0) (002 Overruns: 'they "
                               "may swarm past')")
    assert encounter.token("A").cell == Cell(2, 0)
    assert encounter.token("B").combatant.conditions == {Condition.BRACED}
    assert encounter.timeline.entry("A").actions_taken == 0


@pytest.mark.parametrize("state", [{"hp": -3}, {"conditions": frozenset({Condition.KNOCKED_OUT})}],
                         ids=["below-0-hp", "knocked-out"])
def test_a_creature_that_is_down_cannot_be_overrun(make_encounter: Make,
                                                   state: dict[str, object]) -> None:
    """A walk-through was offered "overrun Kobold · 75% down" against a Kobold at -3 HP."""
    encounter = make_encounter("A . . B . .", {"A": Combatant(name="A"), "B": foe("B", **state)})
    assert overrun_line(encounter, "A", Cell(5, 0)) is None  # a drag past it offers nothing
    with pytest.raises(IllegalManoeuvreError, match="B is down: there is no one standing"):
        overrun_odds(encounter, OverrunRequest(mover="A", defender="B", approach=Cell(2, 0)))


# --- evading -----------------------------------------------------------------------------

def evade_scene(make_encounter: Make) -> Encounter:
    return make_encounter("""
        . . . . . . .
        M . . . . . .
        . . E . . F .
    """, {"M": Combatant(name="Mira", abilities=Abilities(dexterity=13), level=4,
                         armour="leather"),
          "E": foe("Orc"), "F": foe("Fang", weapons=("Long sword",))})


def test_evade_past_two_enemies_second_fails(make_encounter: Make) -> None:
    """Mira (DEX +1, ½ level +2) walks east along row 1. Leaving (1,1) she passes the orc:
    15 + 3 = 18 ≥ 12. Leaving (4,1) she passes Fang: 5 + 3 = 8 < 12 — she stops at (4,1)
    and Fang's long sword hits automatically: d8 6 through leather AV 2 = 4."""
    encounter = evade_scene(make_encounter)
    request = EvadeRequest(mover="M", goal=Cell(6, 1))
    checks = evade_checks(encounter, "M", tuple(Cell(x, 1) for x in range(7)))
    assert [(c.step, c.cell, c.enemy, c.chance) for c in checks] == [
        (1, Cell(1, 1), "Orc", Fraction(12, 20)), (4, Cell(4, 1), "Fang", Fraction(12, 20))]
    odds = evade_odds(encounter, request)
    assert odds.landing == {Cell(1, 1): Fraction(2, 5), Cell(4, 1): Fraction(6, 25),
                            Cell(6, 1): Fraction(9, 25)}
    history = History(encounter)
    outcome = perform(EvadeAction(request), history, ScriptedDice([15, 5, 6]))
    assert encounter.token("M").cell == Cell(4, 1)
    assert encounter.token("M").combatant.hp == 8 - 4
    assert outcome.summary == ("Mira moves 20 ft, evading Orc — fails to evade Fang: stopped, "
                               "hit with Long sword for 4 damage")
    history.undo()
    assert encounter.token("M").cell == Cell(0, 1) and encounter.token("M").combatant.hp == 8


def test_prone_and_knocked_out_enemies_ask_no_check(make_encounter: Make) -> None:
    encounter = evade_scene(make_encounter)
    orc = encounter.token("E")
    encounter.put_token(orc.with_combatant(orc.combatant.model_copy(
        update={"conditions": frozenset({Condition.PRONE})})))
    checks = evade_checks(encounter, "M", tuple(Cell(x, 1) for x in range(7)))
    assert [c.enemy for c in checks] == ["Fang"]


# --- multiple attackers --------------------------------------------------------------------

def test_multiple_attackers_in_every_melee_breakdown(make_encounter: Make) -> None:
    """Two of the party engaged with the orc: each gains +2; a third across a wall does not
    count; a missile attack takes no bonus."""
    encounter = make_encounter("""
        A E C
        . B .
    """, {"E": foe("Orc")}, walls=[(2, 0, 2, 1)])
    result = attack_on_map(encounter, "A", "E", AttackOptions(), ScriptedDice([10, 1]))
    assert ("Multiple attackers (2)", 2) in [(t.name, t.value) for t in result.to_hit.terms]
    alone = make_encounter("A E", {"E": foe("Orc")})
    result = attack_on_map(alone, "A", "E", AttackOptions(), ScriptedDice([10, 1]))
    assert not [t for t in result.to_hit.terms if t.name.startswith("Multiple")]
    history = History(encounter)
    outcome = perform(AttackAction("B", "E"), history, ScriptedDice([10, 1]))
    assert "Multiple attackers (2) +2" in outcome.text


def test_failures_before_the_same_action_add_up(make_encounter: Make) -> None:
    encounter = make_encounter("A B", {"A": Combatant(name="A"), "B": foe("B")})
    history = History(encounter)
    for _ in range(2):
        perform(ForceBackAction(ForceBackRequest(attacker="A", defender="B")), history,
                ScriptedDice([8]))  # 8 vs 10: Unlucky, AC −1 each time
    (penalty,) = encounter.timeline.ac_penalties
    assert (penalty.value, penalty.reason) == (-2, "Forcing back failed 2 times")


def test_a_failed_evade_in_an_allys_cell_stops_before_it(make_encounter: Make) -> None:
    """Found by the property test: A's only way west passes through its ally O, and the
    check against the Large B falls due in O's cell. A failed check cannot leave A on O:
    the move ends in the last cell before it where A fits — here where it started."""
    encounter = make_encounter("""
        . . . B B .
        . . . B B .
        . . . . O A
    """, {"A": Combatant(name="A", abilities=Abilities(dexterity=3)),
          "O": Combatant(name="O"), "B": foe("B", size="large")},
        walls=[(5, 2, 6, 2), (0, 0, 0, 1)])
    request = EvadeRequest(mover="A", goal=Cell(0, 0))
    odds = evade_odds(encounter, request)
    assert Cell(4, 2) not in odds.landing and odds.landing[Cell(5, 2)] > 0
    perform(EvadeAction(request), History(encounter), ScriptedDice([1, 1]))
    assert encounter.token("A").cell == Cell(5, 2)


def test_a_token_is_offered_manoeuvres_against_its_engaged_enemies_in_map_order(
        make_encounter: Make) -> None:
    """Only the creatures next to it, found from the cell index, listed in the map's order
    (Z stands on an earlier row than Y, but comes later in the list); the enemy two cells
    away (X) and the one behind a wall (W) are offered nothing."""
    enc = make_encounter("""
        . Z . . .
        . A Y . X
        W . . . .
    """, {"W": foe("W"), "X": foe("X"), "Y": foe("Y"), "Z": foe("Z")},
        walls=[(0, 2, 2, 2)])
    targets = list(dict.fromkeys(offer.target for offer in offers(enc, "A")))
    assert targets == ["Y", "Z"]


def test_evade_checks_within_a_step_come_in_token_order(make_encounter: Make) -> None:
    """Both enemies are left at the first step; Y comes before Z in the token list though
    Z stands on the earlier row (the checks are found from the cell index around each
    step)."""
    enc = make_encounter("""
        . Z . .
        . A . .
        . Y . .
    """, {"Y": foe("Y"), "Z": foe("Z")})
    checks = evade_checks(enc, "A", (Cell(1, 1), Cell(2, 1), Cell(3, 1)))
    assert [(c.step, c.enemy_id) for c in checks] == [(0, "Y"), (0, "Z")]
