"""Grappling worked by hand: throws into a wall (slam) and into a pit (failed Pit-Stop save),
the result bands, armour and shield rules, takedowns, locks at the round's end, escapes, and
what a hold forbids."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform, plan
from core.actions.grapple import GrappleAction
from core.actions.history import History
from core.actions.move import MoveAction
from core.actions.round import NextRound, StartRound
from core.io.fileio import encounter_from_json, encounter_to_json
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell, Direction
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.melee import HoldKind
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.grapple import GrappleAttempt, GrappleBand, GrappleRequest, grapple_odds
from core.rules.holds import active_holds
from core.rules.melee import IllegalManoeuvreError
from core.rules.timeline import roll_initiative
from core.spatial.pathing import IllegalMoveError

Make = Callable[..., Encounter]
WRESTLER = Combatant(name="A", fr_slots=3, abilities=Abilities(strength=16))  # FR 5
MONK = Combatant(name="A", fr_slots=3, abilities=Abilities(strength=16), martial_artist=True)


def foe(name: str = "B", **kw: object) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, **kw)


def grapple(attempt: GrappleAttempt, **kw: object) -> GrappleAction:
    return GrappleAction(GrappleRequest.model_validate(
        {"attacker": "A", "defender": "B", "attempt": attempt, **kw}))


def test_throw_into_a_wall_slams(make_encounter: Make) -> None:
    """A (wrestling FR 5) throws B (leather, AV 2) east into the wall beside it. 15 + 5 = 20
    against 10 + 0 + throw figure 3 = 13: thrown. The d2 shows 2: 1 + (1 − AV 2, at least 0)
    = 1. The wall slams with the shove die once — Medium d6 stepped once by FR 5 = d8 — 6:
    1 + (5 − 2) = 4. Impact 5: stun check d20 9 + CON 0 against 10 + 5 fails by 6, Bad:
    Stunned. B stays where it was (the wall), 12 − 5 = 7 HP."""
    encounter = make_encounter("A B .", {"A": WRESTLER,
                                         "B": foe(armour="leather", max_hp=12, hp=12)},
                               walls=[(2, 0, 2, 1)])
    action = grapple(GrappleAttempt.THROW, throw_direction=Direction.E)
    odds = grapple_odds(encounter, action.request)
    assert odds.slam == odds.bands[GrappleBand.SUCCESS]
    history = History(encounter)
    outcome = perform(action, history, ScriptedDice([15, 10, 2, 6, 9]))
    throw = outcome.result.throw
    assert throw is not None and throw.slam_damage is not None
    assert (throw.throw_damage.value, throw.slam_damage.value, throw.impact) == (1, 4, 5)
    assert throw.stun.target.value == 15 and throw.stun.level == "Bad"
    b = encounter.token("B")
    assert (b.cell, b.combatant.hp, b.combatant.conditions) == (Cell(1, 0), 7,
                                                                {Condition.STUNNED})
    assert outcome.summary == "A grapples B (throw): 20 vs 13 — throws B E into the wall: 5 " \
                              "damage, stunned"
    assert "Roll: slam into the wall (shove die once): 1d8 → 6 (d8) = 6" in outcome.text
    history.undo()
    assert encounter.token("B").combatant.hp == 12 and not encounter.timeline.timers


def test_throw_into_a_pit_with_a_failed_save(make_encounter: Make) -> None:
    """Thrown east towards a 10 ft pit: Pit-Stop d20 5 < 14 fails, B falls in: 1d6 falling
    (4, through AV 0). The stun check is against the throw only (d2 1): 12 ≥ 11 holds."""
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
                 effect=HazardEffect(fall_ft=10))
    encounter = make_encounter("A B .", {"A": WRESTLER, "B": foe(death_ray_save=14)},
                               hazards=[pit])
    action = grapple(GrappleAttempt.THROW, throw_direction=Direction.E)
    odds = grapple_odds(encounter, action.request)
    thrown = odds.bands[GrappleBand.SUCCESS]
    assert odds.into_hazard == thrown * Fraction(13, 20)
    assert odds.landing == {Cell(1, 0): 1 - thrown * Fraction(13, 20),
                            Cell(2, 0): thrown * Fraction(13, 20)}
    outcome = perform(action, History(encounter), ScriptedDice([15, 10, 1, 5, 4, 12]))
    throw = outcome.result.throw
    assert throw is not None and throw.hazard is not None and not throw.hazard.saved
    assert throw.stun.target.value == 11 and throw.stun.rank == 0
    b = encounter.token("B")
    assert (b.cell, b.combatant.hp, b.combatant.conditions) == (Cell(2, 0), 8 - 5, frozenset())
    assert outcome.summary == "A grapples B (throw): 20 vs 13 — throws B E into Pit: 5 damage"


@pytest.mark.parametrize(("dice", "band", "hold", "verdict"), [
    ([10, 12], GrappleBand.SUCCESS, HoldKind.HOLD, "holds B"),  # 15 > 12
    ([7, 12], GrappleBand.HOLD, HoldKind.HOLD, "a mutual hold"),  # 12 = 12: a tie
    ([6, 12], GrappleBand.FAIL, None, "fails")])
def test_hold_bands(make_encounter: Make, dice: list[int], band: GrappleBand,
                    hold: HoldKind | None, verdict: str) -> None:
    encounter = make_encounter("A B", {"A": WRESTLER, "B": foe()})
    outcome = perform(grapple(GrappleAttempt.HOLD), History(encounter), ScriptedDice(dice))
    assert outcome.result.band is band
    assert outcome.summary.endswith(f" — {verdict}")  # a success never reads "mutual hold"
    assert [h.kind for h in active_holds(encounter)] == ([hold] if hold else [])


def test_a_plain_win_short_of_the_figure_is_a_mutual_hold(make_encounter: Make) -> None:
    """Lock figure 5: 10 + 5 = 15 beats 12 but not 12 + 5 = 17: a mutual hold."""
    encounter = make_encounter("A B", {"A": MONK, "B": foe()})
    outcome = perform(grapple(GrappleAttempt.LOCK), History(encounter), ScriptedDice([10, 12]))
    assert (outcome.result.band, outcome.result.hold.kind) == (  # type: ignore[union-attr]
        GrappleBand.HOLD, HoldKind.HOLD)


def test_shield_blocks_starting_a_grapple_and_plate_is_immovable(make_encounter: Make) -> None:
    shielded = make_encounter("A B", {"A": WRESTLER.model_copy(update={"shield": "small"}),
                                      "B": foe()})
    with pytest.raises(IllegalManoeuvreError, match="shield"):
        grapple_odds(shielded, GrappleRequest(attacker="A", defender="B"))
    plated = make_encounter("A B .", {"A": WRESTLER, "B": foe(armour="plate_mail")})
    throw = GrappleRequest(attacker="A", defender="B", attempt=GrappleAttempt.THROW,
                           throw_direction=Direction.E)
    with pytest.raises(IllegalManoeuvreError, match="Immovable"):
        grapple_odds(plated, throw)
    big = make_encounter("A A B .\nA A . .", {"A": Combatant(name="A", size="large"),
                                             "B": foe(armour="plate_mail")})
    assert grapple_odds(big, throw).bands[GrappleBand.SUCCESS] > 0
    with pytest.raises(IllegalManoeuvreError, match="cannot be thrown W: A is in the way"):
        grapple_odds(big, throw.model_copy(update={"throw_direction": Direction.W}))


def test_takedown_pins_prone_and_the_pin_helps_the_holders_attacks(make_encounter: Make
                                                                   ) -> None:
    encounter = make_encounter("A B", {"A": MONK, "B": foe()})
    history = History(encounter)
    with pytest.raises(IllegalManoeuvreError, match="only martial artists"):
        plan(GrappleAction(GrappleRequest(attacker="B", defender="A",
                                          attempt=GrappleAttempt.TAKEDOWN)),
             encounter, ScriptedDice([20, 1]))
    perform(grapple(GrappleAttempt.TAKEDOWN), history, ScriptedDice([20, 1]))
    assert encounter.token("B").combatant.conditions == {Condition.PRONE}
    attack = attack_on_map(encounter, "A", "B", AttackOptions(), ScriptedDice([1, 1]))
    assert ("Pinning B", 1) in [(t.name, t.value) for t in attack.to_hit.terms]
    history.push(StartRound(roll_initiative(encounter, ScriptedDice([5, 5]))))
    history.push(NextRound())
    assert Condition.PRONE in encounter.token("B").combatant.conditions  # pinned: stays down


def test_lock_hurts_at_each_rounds_end_and_the_locked_may_only_escape(make_encounter: Make
                                                                      ) -> None:
    encounter = make_encounter("A B", {"A": MONK, "B": foe(armour="leather", max_hp=20,
                                                           hp=20)})
    history = History(encounter)
    outcome = perform(grapple(GrappleAttempt.LOCK), history, ScriptedDice([20, 1, 4]))
    assert outcome.result.hold is not None and outcome.result.hold.lock_damage == 4
    with pytest.raises(IllegalManoeuvreError, match="may only escape"):
        attack_on_map(encounter, "B", "A", AttackOptions(), ScriptedDice([10, 1]))
    with pytest.raises(IllegalManoeuvreError, match="may only escape"):
        plan(GrappleAction(GrappleRequest(attacker="B", defender="A")), encounter,
             ScriptedDice([1, 1]))
    history.push(NextRound())  # 4 through AV 2: 1 + (3 − 2) = 2
    assert encounter.token("B").combatant.hp == 18
    assert encounter.log[-1].summary == "A locks B (4 a round): 2 damage at the round's end"
    history.push(NextRound())
    assert encounter.token("B").combatant.hp == 16
    history.undo()
    assert encounter.token("B").combatant.hp == 18 and len(encounter.log) == 2
    improve = perform(grapple(GrappleAttempt.IMPROVE_LOCK), history, ScriptedDice([20, 1, 2]))
    assert improve.result.hold is not None and improve.result.hold.lock_damage == 4  # keeps 4


def test_escape_from_a_pin_reverses_and_from_a_hold_separates(make_encounter: Make) -> None:
    encounter = make_encounter("A B", {"A": MONK, "B": foe()})
    history = History(encounter)
    perform(grapple(GrappleAttempt.TAKEDOWN), history, ScriptedDice([20, 1]))
    escape = GrappleAction(GrappleRequest(attacker="B", defender="A",
                                          attempt=GrappleAttempt.ESCAPE))
    outcome = perform(escape, history, ScriptedDice([20, 1]))
    assert "Slippery (no armour)" in outcome.text
    (hold,) = active_holds(encounter)
    assert (hold.holder, hold.held, hold.kind) == ("B", "A", HoldKind.PIN)
    assert encounter.token("A").combatant.conditions == {Condition.PRONE}
    assert Condition.PRONE not in encounter.token("B").combatant.conditions
    standing = make_encounter("A B", {"A": WRESTLER, "B": foe()})
    history = History(standing)
    perform(grapple(GrappleAttempt.HOLD), history, ScriptedDice([20, 1]))
    perform(escape, history, ScriptedDice([20, 1]))
    assert active_holds(standing) == []


def test_held_creatures_cannot_move_and_use_only_dagger_size_weapons(make_encounter: Make
                                                                     ) -> None:
    encounter = make_encounter("A B . .", {"A": WRESTLER.model_copy(
        update={"weapons": ("Long sword", "Dagger")}), "B": foe()})
    history = History(encounter)
    perform(grapple(GrappleAttempt.HOLD), history, ScriptedDice([20, 1]))
    with pytest.raises(IllegalMoveError, match="B is held"):
        plan(MoveAction({"B": Cell(3, 0)}), encounter, ScriptedDice([]))
    with pytest.raises(IllegalManoeuvreError, match="only dagger-size weapons"):
        plan(AttackAction("A", "B", AttackOptions(weapon="Long sword")), encounter,
             ScriptedDice([10, 1]))
    plan(AttackAction("A", "B", AttackOptions(weapon="Dagger")), encounter,
         ScriptedDice([10, 1]))
    perform(MoveAction({"B": Cell(3, 0)}, free=True), history, ScriptedDice([]))
    assert active_holds(encounter) == []  # the GM placed B away: the hold is broken
    history.undo()
    assert len(active_holds(encounter)) == 1


def test_holds_last_across_rounds_and_in_the_file(make_encounter: Make) -> None:
    encounter = make_encounter("A B", {"A": WRESTLER, "B": foe()})
    history = History(encounter)
    perform(grapple(GrappleAttempt.HOLD), history, ScriptedDice([20, 1]))
    history.push(StartRound(roll_initiative(encounter, ScriptedDice([5, 5]))))
    history.push(NextRound())
    history.push(StartRound(roll_initiative(encounter, ScriptedDice([5, 5]))))
    assert len(active_holds(encounter)) == 1
    again = encounter_from_json(encounter_to_json(encounter))
    assert again.timeline.holds == encounter.timeline.holds


@pytest.mark.parametrize("state", [{"hp": -3}, {"conditions": frozenset({Condition.KNOCKED_OUT})}],
                         ids=["below-0-hp", "knocked-out"])
def test_a_creature_that_is_down_is_not_grappled_thrown_or_locked(
        make_encounter: Make, state: dict[str, object]) -> None:
    """rules.md §13.6 Interp.: a walk-through was offered "Throw Kobold…" against a Kobold
    at -3 HP; nothing of the sort is offered or resolved against a creature that is down."""
    from core.rules.manoeuvres import offers

    encounter = make_encounter("A B .", {"A": MONK, "B": foe(**state)})
    for attempt in (GrappleAttempt.HOLD, GrappleAttempt.TAKEDOWN, GrappleAttempt.LOCK):
        with pytest.raises(IllegalManoeuvreError, match="B is down: there is no fight left"):
            grapple_odds(encounter, grapple(attempt).request)
    with pytest.raises(IllegalManoeuvreError, match="B is down"):
        grapple_odds(encounter, grapple(GrappleAttempt.THROW,
                                        throw_direction=Direction.E).request)
    assert not [o for o in offers(encounter, "A") if o.manoeuvre == "grapple"]


def test_a_lock_that_takes_the_last_hit_points_forces_submission(make_encounter: Make) -> None:
    """002 Locks: 'Cause D4 SP each round ... Will submit when all SP are lost'; RD: 'the
    creature is submitted (yields, not dying, HP stays 0) and the lock ends'. B has 3 HP: a
    lock of 4 deals 4 (no armour) at the round's end."""
    encounter = make_encounter("A B", {"A": MONK, "B": foe(max_hp=20, hp=3)})
    history = History(encounter)
    perform(grapple(GrappleAttempt.LOCK), history, ScriptedDice([20, 1, 4]))
    history.push(NextRound())
    b = encounter.token("B").combatant
    assert (b.hp, Condition.SUBMITTED in b.conditions) == (0, True)
    assert active_holds(encounter) == []
    assert encounter.log[-1].summary == ("A locks B (4 a round): 4 damage at the round's end — "
                                         "B submits, the lock ends (002 Locks: 'Will submit "
                                         "when all SP are lost')")
    history.undo()
    assert encounter.token("B").combatant.hp == 3 and len(active_holds(encounter)) == 1
