"""The core action pipeline: every ruling resolved against the encounter as it is, applied
with its log lines as one history step, undone as one; refusals never reach the history."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions.attack import AttackAction
from core.actions.base import perform, plan
from core.actions.critical import CriticalEventAction
from core.actions.history import History
from core.actions.initiative import InitiativeAction
from core.actions.move import MoveAction
from core.actions.shove import ShoveAction
from core.actions.surprise import SurpriseAction
from core.io.fileio import load_encounter
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.round import InitiativeEntry, Watch, WatchKind
from core.rules.attack import AttackOptions
from core.rules.critical import resolve_critical
from core.rules.shove import IllegalShoveError, ShoveRequest
from core.spatial.geometry import geometry_of
from core.spatial.pathing import IllegalMoveError

MakeEncounter = Callable[..., Encounter]
DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
PIT = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
             effect=HazardEffect(fall_ft=10))


@pytest.fixture
def room(make_encounter: MakeEncounter) -> Encounter:
    return make_encounter("""
        A B . .
        . . . .
        . . X .
    """, {"A": Combatant(name="A", fr_slots=4),
          "B": Combatant(name="B", hp=8, armour="leather"),
          "X": Combatant(name="X", side=Side.OPPOSITION)}, walls=[(2, 0, 2, 1)])


def test_a_shove_moves_hurts_and_logs_as_one_step(room: Encounter) -> None:
    # 12 + 4 = 16 vs FD 11; d8 8: 8 + 4 - 3 = 9 → 5 ft, all unused at the wall; slams
    history = History(room)
    before = room.model_dump()
    room.timeline.round_number = 2
    outcome = perform(ShoveAction(ShoveRequest(attacker="A", defender="B")), history,
                      ScriptedDice([12, 8, 6, 2]))
    assert room.token("B").combatant.hp == 8 - outcome.result.total_damage
    assert [(e.kind, e.round) for e in room.log] == [("shove", 2)]
    assert history.labels() == [outcome.summary]
    history.undo()
    room.timeline.round_number = 0
    assert room.model_dump() == before


def test_a_double_success_knocks_prone_and_an_already_prone_one_stays_prone(
        make_encounter: MakeEncounter) -> None:
    enc = make_encounter("A B . . .", {"A": Combatant(name="A", fr_slots=4),
                                       "B": Combatant(name="B", conditions=frozenset(
                                           {Condition.PRONE}))})
    history = History(enc)
    perform(ShoveAction(ShoveRequest(attacker="A", defender="B")), history, ScriptedDice([20]))
    assert enc.token("B").cell == Cell(3, 0) and enc.token("B").combatant.has(Condition.PRONE)
    history.undo()
    assert enc.token("B").combatant.has(Condition.PRONE)


def test_a_shove_into_a_pit_lands_in_it(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=2)}, hazards=[PIT])
    perform(ShoveAction(ShoveRequest(attacker="A", defender="B")), History(enc),
            ScriptedDice([12, 6, 1, 4]))          # Pit-Stop 1 fails; fall 1d6 = 4
    assert enc.token("B").cell == Cell(2, 0) and enc.token("B").combatant.hp == 4


def test_an_illegal_action_is_refused_before_anything_is_pushed(room: Encounter) -> None:
    history = History(room)
    before = room.model_dump()
    with pytest.raises(IllegalShoveError, match="not adjacent"):
        perform(ShoveAction(ShoveRequest(attacker="A", defender="X")), history,
                ScriptedDice([20]))
    assert room.model_dump() == before and history.index == 0 and history.revision == 0


def test_an_attack_during_a_long_action_logs_it_spoiled_in_the_same_step(
        room: Encounter) -> None:
    room.timeline.entries = [InitiativeEntry(token_id="B", segment=2, action_segments=3)]
    room.timeline.current_segment = 3
    history = History(room)
    perform(AttackAction("A", "B", AttackOptions(damage="d6")), history, ScriptedDice([1]))
    assert [e.kind for e in room.log] == ["attack"]         # a miss spoils nothing
    perform(AttackAction("A", "B", AttackOptions(damage="d6")), history, ScriptedDice([20, 3]))
    # A neither concentrated on B nor noticed it (002 Spoiling: 'a perception roll must be
    # made'): the hit does not spoil
    assert [e.kind for e in room.log] == ["attack", "attack", "not-spoiled"]
    history.undo()
    room.timeline.watches = [Watch(token_id="A", target="B", segment=2,
                                   kind=WatchKind.CONCENTRATING)]
    perform(AttackAction("A", "B", AttackOptions(damage="d6")), history, ScriptedDice([20, 3]))
    assert [e.kind for e in room.log] == ["attack", "attack", "spoiled"]
    history.undo()
    assert [e.kind for e in room.log] == ["attack"]


def test_initiative_with_a_tie_starts_the_round_and_acts_out_the_event_in_one_step(
        make_encounter: MakeEncounter) -> None:
    enc = make_encounter(". A X .", {"X": Combatant(name="X", side=Side.OPPOSITION)})
    history = History(enc)
    before = enc.model_dump()
    outcome = perform(InitiativeAction(), history, ScriptedDice([4, 4, 12]))  # d30 12: swap
    assert [e.kind for e in enc.log] == ["initiative", "critical"]
    assert enc.log[1].round == 1 and enc.timeline.round_number == 1
    assert enc.log[1].summary == "Critical event 12: Switch positions — A and X tied at segment 4"
    assert (enc.token("A").cell, enc.token("X").cell) == (Cell(2, 0), Cell(1, 0))
    assert outcome.action.totals(outcome.result)["critical_events"][0]["event"] == 12
    history.undo()
    assert enc.model_dump() == before


def test_switch_positions_on_the_demo_never_drops_the_ogre_in_the_pit() -> None:
    """The issue's defect: event 12 put the Large ogre across a wall and on the pit."""
    demo = load_encounter(DEMO)
    result = resolve_critical(demo, ("mira", "ogre"), ScriptedDice([12]))
    assert result.moves == {} and "Ogre would land in Spiked pit" in result.note


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_switch_of_positions_never_crosses_a_wall_or_overlaps(
        data: st.DataObject, make_encounter: MakeEncounter) -> None:
    sizes = data.draw(st.tuples(st.sampled_from(["medium", "large"]),
                                st.sampled_from(["medium", "large"])))
    enc = make_encounter(". . . . . .\n" * 6, walls=data.draw(st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)),
        max_size=3).filter(lambda ws: all(w[:2] != w[2:] for w in ws))))
    a = Combatant(name="A", size=sizes[0])
    b = Combatant(name="B", size=sizes[1], side=Side.OPPOSITION)
    enc.add_token(Token(id="a", combatant=a, x=1, y=1))
    enc.add_token(Token(id="b", combatant=b, x=3 if sizes[0] == "large" else 2, y=1))
    result = resolve_critical(enc, ("a", "b"), ScriptedDice([12]))
    if not result.moves:
        return
    moved = [enc.token(t).at(c) for t, c in result.moves.items()]
    geometry = geometry_of(enc)
    assert not moved[0].footprint.overlaps(moved[1].footprint)
    for token in moved:
        assert enc.map.contains_footprint(token.footprint)
        assert not geometry.footprint_split(token.footprint)
        old = enc.token(token.id).footprint
        assert geometry.first_blocking_wall((*old.centre, *token.footprint.centre)) is None


def test_critical_event_and_surprise_actions_log(room: Encounter) -> None:
    history = History(room)
    perform(CriticalEventAction("A", "X"), history, ScriptedDice([15, 2]))  # the foe falls
    assert room.token("X").combatant.has(Condition.PRONE)
    perform(SurpriseAction("Guard duty", 0), history, ScriptedDice([20, 20, 20]))
    assert [e.kind for e in room.log] == ["critical", "surprise"]
    assert room.log[1].text.startswith("Guard duty;")


def test_a_group_moves_at_once_and_counts_its_feet(room: Encounter) -> None:
    room.timeline.entries = [InitiativeEntry(token_id="A", segment=2),
                             InitiativeEntry(token_id="B", segment=3)]
    history = History(room)
    outcome = perform(MoveAction({"A": Cell(0, 1), "B": Cell(1, 1)}), history, ScriptedDice([]))
    assert (room.token("A").cell, room.token("B").cell) == (Cell(0, 1), Cell(1, 1))
    assert [e.moved_ft for e in room.timeline.entries] == [5, 5]
    assert history.labels() == ["Move 2 tokens"] and outcome.entries == ()
    history.undo()
    assert room.token("A").cell == Cell(0, 0) and room.timeline.entries[0].moved_ft == 0


def test_a_group_may_step_into_cells_its_own_members_leave(room: Encounter) -> None:
    perform(MoveAction({"A": Cell(1, 0), "B": Cell(1, 1)}, free=True), History(room),
            ScriptedDice([]))
    assert room.token("A").cell == Cell(1, 0)


@pytest.mark.parametrize(("moves", "free", "message"), [
    ({"A": Cell(3, 0)}, False, "beyond the 10 ft movement budget"),  # 20 ft round the wall
    ({"A": Cell(2, 2)}, False, "X is in the way"),
    ({"A": Cell(2, 2)}, True, "overlaps X"),
    ({"A": Cell(9, 9)}, True, "does not fit on the 4×3 map"),
])
def test_an_illegal_move_is_refused(room: Encounter, moves: dict[str, Cell], free: bool,
                                    message: str) -> None:
    before = room.model_dump()
    with pytest.raises(IllegalMoveError, match=message):
        plan(MoveAction(moves, free, budget_ft=10), room, ScriptedDice([]))
    assert room.model_dump() == before
