"""Reversible edits: apply then revert restores the encounter exactly (and the history keeps
the map's geometry in step), drags and brush strokes merge into one undo step, refused edits
change nothing, change sets combine."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from core.actions.base import plan
from core.actions.commands import (
    AddToken,
    Batch,
    ChangeSet,
    Command,
    CommandRefusedError,
    MoveToken,
    PaintTerrain,
    PlaceTokens,
    RemoveToken,
    ReplaceHazard,
    ReplaceWalls,
    ResizeMap,
    SetElevation,
    UpdateCombatant,
    toggle_door,
)
from core.actions.history import History
from core.actions.shove import ShoveAction
from core.io.fileio import encounter_from_json, encounter_to_json
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.mapmodel import Hazard, HazardEffect, HazardKind, Terrain, WallKind, WallSegment
from core.model.round import ConditionTimer, InitiativeEntry, RoundState
from core.model.tables import Size
from core.rules.shove import ShoveRequest
from core.spatial.geometry import MapGeometry, geometry_of

MakeEncounter = Callable[..., Encounter]

DOOR = WallSegment(x1=4, y1=1, x2=4, y2=2, kind=WallKind.DOOR)
WALLS = [WallSegment(x1=4, y1=0, x2=4, y2=1), DOOR, WallSegment(x1=4, y1=2, x2=4, y2=4)]
PIT = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(5, 3),),
             effect=HazardEffect(fall_ft=10))
FIRE = Hazard(name="Fire", kind=HazardKind.FIRE, cells=(Cell(0, 3), Cell(1, 3)),
              effect=HazardEffect(damage="1d6"))


@pytest.fixture
def encounter(make_encounter: MakeEncounter) -> Encounter:
    """A 6×4 room: walls with a closed door, two hazards, terrain, elevation, three tokens."""
    return make_encounter("""
        A B . . . .
        . C . s . .
        . . d d . .
        . . . . . .
    """, {"A": Combatant(name="A", fr_slots=4), "B": Combatant(name="B", armour="leather"),
          "C": Combatant(name="C", side=Side.OPPOSITION)},
        walls=WALLS, hazards=[PIT, FIRE], elevation={(5, 0): 10, (5, 1): 5})


def shove_result(encounter: Encounter, dice: list[int]) -> Command:
    action = ShoveAction(ShoveRequest(attacker="A", defender="B"))
    return plan(action, encounter, ScriptedDice(dice)).command


COMMANDS: dict[str, Callable[[Encounter], Command]] = {
    "move-token": lambda e: MoveToken("B", Cell(3, 3)),
    "update-combatant": lambda e: UpdateCombatant("B", e.token("B").combatant.model_copy(
        update={"hp": 3, "conditions": frozenset({Condition.STUNNED})})),
    "grow-to-large": lambda e: UpdateCombatant("C", e.token("C").combatant.model_copy(
        update={"size": Size.LARGE})),
    "add-token": lambda e: AddToken(Token(id="D", combatant=Combatant(name="D"), x=5, y=2)),
    "remove-middle-token": lambda e: RemoveToken("B"),
    "paint-terrain": lambda e: PaintTerrain({Cell(0, 0), Cell(3, 1), Cell(9, 9)},
                                            Terrain.DIFFICULT),
    "paint-normal": lambda e: PaintTerrain({Cell(2, 2), Cell(3, 1)}, Terrain.NORMAL),
    "set-elevation": lambda e: SetElevation({Cell(0, 0), Cell(5, 0)}, 15),
    "clear-elevation": lambda e: SetElevation({Cell(5, 0), Cell(5, 1)}, 0),
    "add-wall": lambda e: ReplaceWalls([WallSegment(x1=0, y1=2, x2=3, y2=2)], []),
    "erase-last-wall": lambda e: ReplaceWalls([], [WALLS[-1]]),
    "add-hazard": lambda e: ReplaceHazard(None, PIT.model_copy(update={"name": "Pit 2",
                                                                      "cells": (Cell(2, 3),)})),
    "edit-first-hazard": lambda e: ReplaceHazard(PIT, PIT.model_copy(update={"name": "Deep"})),
    "remove-first-hazard": lambda e: ReplaceHazard(PIT, None),
    "swap-two-tokens": lambda e: PlaceTokens({"A": Cell(1, 0), "B": Cell(0, 0)}),
    "grow-map": lambda e: ResizeMap(9, 6),
    "crop-map": lambda e: ResizeMap(4, 3),   # drops the pit, the fire's row, clips the walls
    "apply-shove-double": lambda e: shove_result(e, [20]),
    "apply-shove-standard": lambda e: shove_result(e, [12, 6]),
}

COMMANDS_ORDER_BUG: dict[str, Callable[[Encounter], Command]] = {
    "toggle-door": lambda e: toggle_door(DOOR),
    "erase-middle-wall": lambda e: ReplaceWalls([], [DOOR]),
}


def check_apply_revert(encounter: Encounter, make: Callable[[Encounter], Command],
                       with_geometry: bool) -> None:
    if with_geometry:
        _ = geometry_of(encounter)                      # edits must then keep it up to date
    history = History(encounter)
    before = encounter.model_dump()
    history.push(make(encounter))
    after = encounter.model_dump()
    assert after != before, "the command changed nothing: the test would prove nothing"
    check_geometry(encounter)
    history.undo()
    assert encounter.model_dump() == before
    check_geometry(encounter)
    history.redo()
    assert encounter.model_dump() == after
    check_geometry(encounter)


def check_geometry(encounter: Encounter) -> None:
    if (encounter.peek_derived(MapGeometry) is not None):
        fresh = MapGeometry(encounter.map)
        g = geometry_of(encounter)
        np.testing.assert_array_equal(g.blockers, fresh.blockers)
        np.testing.assert_array_equal(g.move_cost, fresh.move_cost)
        np.testing.assert_array_equal(g.elevation, fresh.elevation)
        np.testing.assert_array_equal(g.hazard_index, fresh.hazard_index)


@pytest.mark.parametrize("with_geometry", [False, True], ids=["no-geometry", "geometry"])
@pytest.mark.parametrize("name", COMMANDS)
def test_apply_then_revert_restores_the_encounter(encounter: Encounter, name: str,
                                                  with_geometry: bool) -> None:
    check_apply_revert(encounter, COMMANDS[name], with_geometry)


@pytest.mark.parametrize("name", COMMANDS_ORDER_BUG)
def test_reverting_a_wall_removal_restores_the_wall_order(encounter: Encounter, name: str
                                                          ) -> None:
    check_apply_revert(encounter, COMMANDS_ORDER_BUG[name], with_geometry=True)


@pytest.mark.parametrize("name", COMMANDS_ORDER_BUG)
def test_reverting_a_wall_removal_restores_the_same_walls(encounter: Encounter, name: str
                                                          ) -> None:
    _ = geometry_of(encounter)
    history = History(encounter)
    before = sorted(w.model_dump_json() for w in encounter.map.walls)
    history.push(COMMANDS_ORDER_BUG[name](encounter))
    assert sorted(w.model_dump_json() for w in encounter.map.walls) != before
    check_geometry(encounter)
    history.undo()
    assert sorted(w.model_dump_json() for w in encounter.map.walls) == before
    check_geometry(encounter)


def test_crop_map_clips_walls_and_drops_what_falls_outside(encounter: Encounter) -> None:
    History(encounter).push(ResizeMap(5, 3))
    battle_map = encounter.map
    assert battle_map.terrain_rows == [".....", "...s.", "..dd."]
    assert [(w.y1, w.y2) for w in battle_map.walls] == [(0, 1), (1, 2), (2, 3)]
    assert battle_map.hazards == []
    assert battle_map.elevation == {}
    assert geometry_of(encounter).move_blocked(Cell(3, 2), Direction.E)


REFUSED: dict[str, tuple[Callable[[Encounter], Command], str]] = {
    "crop-off-a-token": (lambda e: ResizeMap(1, 4), r"move B, C inside 1×4 first"),
    "move-onto-a-token": (lambda e: MoveToken("C", Cell(1, 0)), "cannot stand at"),
    "move-off-the-map": (lambda e: MoveToken("C", Cell(6, 0)), "cannot stand at"),
    "grow-into-others": (lambda e: UpdateCombatant("A", e.token("A").combatant.model_copy(
        update={"size": Size.LARGE})), "does not fit where it stands"),
    "add-on-a-token": (lambda e: AddToken(Token(id="D", combatant=Combatant(name="D"),
                                                x=0, y=0)), "overlaps A"),
    "place-two-on-one-cell": (lambda e: PlaceTokens({"A": Cell(3, 3), "B": Cell(3, 3)}),
                              "overlaps"),
    "erase-a-missing-wall": (lambda e: ReplaceWalls([], [WallSegment(x1=0, y1=0, x2=1, y2=0)]),
                             "no longer on the map"),
    "batch-with-a-bad-last-step": (lambda e: Batch([MoveToken("C", Cell(2, 2)),
                                                    PaintTerrain({Cell(0, 3)}, Terrain.SLIPPERY),
                                                    MoveToken("A", Cell(2, 2))]),
                                   "cannot stand at"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_a_refused_command_changes_nothing_and_is_not_recorded(encounter: Encounter, name: str
                                                               ) -> None:
    _ = geometry_of(encounter)
    history = History(encounter)
    before = encounter.model_dump()
    make, message = REFUSED[name]
    with pytest.raises(CommandRefusedError, match=message):
        history.push(make(encounter))
    assert encounter.model_dump() == before
    assert (history.index, history.revision, history.can_undo) == (0, 0, False)
    check_geometry(encounter)


def test_toggle_door_opens_and_the_way_is_free(encounter: Encounter) -> None:
    history = History(encounter)
    assert geometry_of(encounter).move_blocked(Cell(3, 1), Direction.E)
    command = toggle_door(DOOR)
    assert command.label == "Open door"
    history.push(command)
    assert not geometry_of(encounter).move_blocked(Cell(3, 1), Direction.E)
    assert toggle_door(DOOR.model_copy(update={"open": True})).label == "Close door"


def test_move_token_drag_merges_into_one_step(encounter: Encounter) -> None:
    history = History(encounter)
    history.push(MoveToken("C", Cell(2, 1)), merge_key="drag")
    history.push(MoveToken("C", Cell(2, 2)), merge_key="drag")
    history.push(MoveToken("A", Cell(0, 1)), merge_key="other drag")
    assert history.labels() == ["Move token", "Move token"]
    history.undo()
    history.undo()
    assert encounter.token("C").cell == Cell(1, 1)
    history.redo()
    assert encounter.token("C").cell == Cell(2, 2)


def test_a_saved_state_is_never_merged_into(encounter: Encounter) -> None:
    history = History(encounter)
    history.push(MoveToken("C", Cell(2, 1)), merge_key="drag")
    history.mark_clean()
    history.push(MoveToken("C", Cell(2, 2)), merge_key="drag")
    assert history.index == 2 and not history.is_clean
    history.undo()
    assert history.is_clean and encounter.token("C").cell == Cell(2, 1)


@pytest.mark.parametrize(("make", "value", "read"), [
    (PaintTerrain, Terrain.SLIPPERY, lambda e, c: e.map.terrain_at(c).name),
    (SetElevation, 20, lambda e, c: e.map.elevation_at(c)),
])
def test_brush_strokes_merge_into_one_undo_step(encounter: Encounter,
                                                make: Callable[..., Command], value: object,
                                                read: Callable[[Encounter, Cell], object]
                                                ) -> None:
    _ = geometry_of(encounter)
    history = History(encounter)
    before = encounter.model_dump()
    strokes = [{Cell(2, 2), Cell(3, 2)}, {Cell(3, 2), Cell(5, 1)}, {Cell(0, 3)}]
    for cells in strokes:
        history.push(make(cells, value), merge_key="stroke")   # sees (3,2) already painted
    assert history.index == 1
    painted = set().union(*strokes)
    assert all(read(encounter, c) == value for c in painted)
    check_geometry(encounter)
    after = encounter.model_dump()
    history.undo()                                  # one step undoes all three strokes
    assert encounter.model_dump() == before
    check_geometry(encounter)
    history.redo()
    assert encounter.model_dump() == after


def test_strokes_of_another_value_or_kind_do_not_merge() -> None:
    paint = PaintTerrain({Cell(0, 0)}, Terrain.DIFFICULT)
    assert not paint.merge(PaintTerrain({Cell(1, 0)}, Terrain.SLIPPERY))
    assert not paint.merge(SetElevation({Cell(1, 0)}, 5))
    assert not SetElevation({Cell(0, 0)}, 5).merge(SetElevation({Cell(1, 0)}, 10))


def test_group_is_one_step_and_a_refusal_inside_reverts_it(encounter: Encounter) -> None:
    history = History(encounter)
    with history.group("Two edits"):
        history.push(MoveToken("C", Cell(2, 2)))
        history.push(PaintTerrain({Cell(0, 3)}, Terrain.SLIPPERY))
    assert history.labels() == ["Two edits"]
    before = encounter.model_dump()
    with pytest.raises(CommandRefusedError), history.group("Doomed"):
        history.push(MoveToken("C", Cell(3, 3)))
        history.push(MoveToken("A", Cell(3, 3)))
    assert encounter.model_dump() == before and history.labels() == ["Two edits"]


def test_history_undo_redo_index_and_redo_discarded_by_a_new_edit(encounter: Encounter
                                                                   ) -> None:
    history = History(encounter)
    start = encounter.model_dump()
    assert history.push(MoveToken("C", Cell(2, 2))) == ChangeSet(tokens=frozenset({"C"}))
    changes = history.push(PaintTerrain({Cell(0, 3)}, Terrain.SLIPPERY))
    assert changes.cells == frozenset({Cell(0, 3)})
    history.set_index(0)
    assert encounter.model_dump() == start and history.can_redo
    history.set_index(2)
    assert encounter.token("C").cell == Cell(2, 2)
    history.undo()
    history.push(MoveToken("A", Cell(0, 1)))
    assert history.labels() == ["Move token", "Move token"] and not history.can_redo


def test_the_revision_counts_every_change_including_merges(encounter: Encounter) -> None:
    history = History(encounter)
    seen: list[ChangeSet] = []
    history.subscribe(seen.append)
    history.push(MoveToken("C", Cell(2, 1)), merge_key="drag")
    history.push(MoveToken("C", Cell(2, 2)), merge_key="drag")
    history.undo()
    history.redo()
    assert history.revision == 4 and len(seen) == 4


def test_change_sets_combine() -> None:
    wall = WallSegment(x1=0, y1=0, x2=1, y2=0)
    a = ChangeSet(tokens=frozenset({"A"}), walls_added=(wall,))
    b = ChangeSet(tokens=frozenset({"B"}), cells=frozenset({Cell(1, 1)}), log=True,
                  walls_removed=(wall,))
    assert a | b == ChangeSet(tokens=frozenset({"A", "B"}), cells=frozenset({Cell(1, 1)}),
                              walls_added=(wall,), walls_removed=(wall,), log=True)
    assert (a | b).walls and not ChangeSet(log=True).walls


def test_removing_a_token_mid_round_takes_it_out_of_the_round(encounter: Encounter) -> None:
    """A removed token's initiative, timers and aim go with it, so the encounter still
    saves and loads; undo puts all of it back."""
    encounter.timeline = RoundState(
        round_number=2,
        entries=[InitiativeEntry(token_id=t.id, segment=3) for t in encounter.tokens],
        timers=[ConditionTimer(token_id="B", condition=Condition.DAZED, rounds=1)],
        aimed_last_round=["B", "A"])
    history = History(encounter)
    history.push(RemoveToken("B"))
    assert [e.token_id for e in encounter.timeline.entries] == ["A", "C"]
    assert encounter.timeline.timers == [] and encounter.timeline.aimed_last_round == ["A"]
    assert encounter_from_json(encounter_to_json(encounter)).timeline == encounter.timeline
    history.undo()
    assert [e.token_id for e in encounter.timeline.entries] == ["A", "B", "C"]
    assert encounter.timeline.timers[0].token_id == "B"
    assert encounter.timeline.aimed_last_round == ["B", "A"]
