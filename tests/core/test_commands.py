"""Reversible edits: apply then revert restores the encounter exactly, drags and brush strokes
merge into one undo step, a shove is applied and undone as a whole, the History stack."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from core.actions.commands import (
    AddToken,
    ApplyShove,
    ChangeSet,
    Command,
    History,
    MoveToken,
    PaintTerrain,
    RemoveToken,
    ReplaceHazard,
    ReplaceWalls,
    ResizeMap,
    SetElevation,
    UpdateCombatant,
    toggle_door,
)
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.mapmodel import Hazard, HazardEffect, HazardKind, Terrain, WallKind, WallSegment
from core.model.tables import Size
from core.rules.shove import ShoveRequest, resolve_shove
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


def shove_result(encounter: Encounter, dice: list[int]) -> ApplyShove:
    result = resolve_shove(encounter, ShoveRequest(attacker="A", defender="B"),
                           ScriptedDice(dice))
    return ApplyShove(result, "B", round_number=2)


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
    before = encounter.model_dump()
    command = make(encounter)
    command.apply(encounter)
    after = encounter.model_dump()
    assert after != before, "the command changed nothing: the test would prove nothing"
    check_geometry(encounter)
    command.revert(encounter)
    assert encounter.model_dump() == before
    check_geometry(encounter)
    command.apply(encounter)                        # redo
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
    before = sorted(w.model_dump_json() for w in encounter.map.walls)
    command = COMMANDS_ORDER_BUG[name](encounter)
    command.apply(encounter)
    assert sorted(w.model_dump_json() for w in encounter.map.walls) != before
    check_geometry(encounter)
    command.revert(encounter)
    assert sorted(w.model_dump_json() for w in encounter.map.walls) == before
    check_geometry(encounter)


def test_crop_map_clips_walls_and_drops_what_falls_outside(encounter: Encounter) -> None:
    ResizeMap(5, 3).apply(encounter)
    battle_map = encounter.map
    assert battle_map.terrain_rows == [".....", "...s.", "..dd."]
    assert [(w.y1, w.y2) for w in battle_map.walls] == [(0, 1), (1, 2), (2, 3)]
    assert battle_map.hazards == []
    assert battle_map.elevation == {}
    assert geometry_of(encounter).move_blocked(Cell(3, 2), Direction.E)


def test_crop_map_refuses_to_cut_off_a_token(encounter: Encounter) -> None:
    before = encounter.model_dump()
    with pytest.raises(ValueError, match=r"move B, C inside 1×4 first"):
        ResizeMap(1, 4).apply(encounter)
    assert encounter.model_dump() == before


def test_toggle_door_opens_and_the_way_is_free(encounter: Encounter) -> None:
    _ = geometry_of(encounter)
    assert geometry_of(encounter).move_blocked(Cell(3, 1), Direction.E)
    command = toggle_door(DOOR)
    assert command.label == "Open door"
    command.apply(encounter)
    assert not geometry_of(encounter).move_blocked(Cell(3, 1), Direction.E)
    assert toggle_door(DOOR.model_copy(update={"open": True})).label == "Close door"


def test_move_token_drag_merges_into_one_step(encounter: Encounter) -> None:
    first = MoveToken("C", Cell(2, 1))
    first.apply(encounter)
    second = MoveToken("C", Cell(2, 2))
    second.apply(encounter)
    assert first.merge(second)
    assert not first.merge(MoveToken("A", Cell(0, 1)))
    assert not first.merge(PaintTerrain({Cell(0, 0)}, Terrain.DIFFICULT))
    first.revert(encounter)
    assert encounter.token("C").cell == Cell(1, 1)
    first.apply(encounter)
    assert encounter.token("C").cell == Cell(2, 2)


def test_move_token_refuses_an_occupied_or_off_map_cell(encounter: Encounter) -> None:
    before = encounter.model_dump()
    for cell in (Cell(1, 0), Cell(6, 0)):
        with pytest.raises(ValueError, match="cannot stand at"):
            MoveToken("C", cell).apply(encounter)
    assert encounter.model_dump() == before


def test_growing_where_it_no_longer_fits_is_refused(encounter: Encounter) -> None:
    before = encounter.model_dump()
    big = encounter.token("A").combatant.model_copy(update={"size": Size.LARGE})
    with pytest.raises(ValueError, match="does not fit where it stands"):
        UpdateCombatant("A", big).apply(encounter)   # would overlap B and C
    assert encounter.model_dump() == before


@pytest.mark.parametrize(("make", "value", "read"), [
    (PaintTerrain, Terrain.SLIPPERY, lambda e, c: e.map.terrain_at(c).name),
    (SetElevation, 20, lambda e, c: e.map.elevation_at(c)),
])
def test_brush_strokes_merge_into_one_undo_step(encounter: Encounter,
                                                make: Callable[..., Command], value: object,
                                                read: Callable[[Encounter, Cell], object]
                                                ) -> None:
    _ = geometry_of(encounter)
    before = encounter.model_dump()
    strokes = [{Cell(2, 2), Cell(3, 2)}, {Cell(3, 2), Cell(5, 1)}, {Cell(0, 3)}]
    first = make(strokes[0], value)
    first.apply(encounter)
    for cells in strokes[1:]:
        stroke = make(cells, value)
        stroke.apply(encounter)                     # sees (3,2) already painted
        assert first.merge(stroke)
    painted = set().union(*strokes)
    assert all(read(encounter, c) == value for c in painted)
    after = encounter.model_dump()
    first.revert(encounter)                         # one step undoes all three strokes
    assert encounter.model_dump() == before
    check_geometry(encounter)
    first.apply(encounter)
    assert encounter.model_dump() == after


def test_strokes_of_another_value_or_kind_do_not_merge() -> None:
    paint = PaintTerrain({Cell(0, 0)}, Terrain.DIFFICULT)
    assert not paint.merge(PaintTerrain({Cell(1, 0)}, Terrain.SLIPPERY))
    assert not paint.merge(SetElevation({Cell(1, 0)}, 5))
    assert not SetElevation({Cell(0, 0)}, 5).merge(SetElevation({Cell(1, 0)}, 10))


def test_apply_shove_moves_damages_knocks_prone_and_logs(encounter: Encounter) -> None:
    before = encounter.model_dump()
    # A (FR 4) vs B (leather: FD 11, AV 2): 20 + 4 = 24, double: 10 ft E. From (1,0): (2,0),
    # (3,0), then the wall on x = 4 with 0 ft left — no slam. Prone.
    command = shove_result(encounter, [20])
    result = command.result
    assert result.final_cell == Cell(3, 0)
    changes = command.apply(encounter)
    assert changes == ChangeSet(tokens=frozenset({"B"}), log=True)
    token = encounter.token("B")
    assert token.cell == Cell(3, 0)
    assert token.combatant.has(Condition.PRONE)
    assert token.combatant.hp == 8
    entry = encounter.log[-1]
    assert (entry.kind, entry.summary, entry.round) == ("shove", result.summary(), 2)
    assert entry.detail["final_cell"] == [3, 0]
    command.revert(encounter)
    assert encounter.model_dump() == before


def test_apply_shove_takes_slam_damage(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=4),
                                     "B": Combatant(name="B", hp=8, armour="leather")},
                         walls=[(2, 0, 2, 1)])
    # 12 + 4 = 16 vs 11; d8 8: 8 + 4 - 3 = 9 → 5 ft, all unused; 2 slams (FR 4):
    # d8 6 → 1 + (5 - 2) = 4, d8 2 → 1
    result = resolve_shove(enc, ShoveRequest(attacker="A", defender="B"),
                           ScriptedDice([12, 8, 6, 2]))
    assert result.total_damage == 5
    before = enc.model_dump()
    command = ApplyShove(result, "B")
    command.apply(enc)
    assert enc.token("B").combatant.hp == 3
    assert not enc.token("B").combatant.has(Condition.PRONE)
    command.revert(enc)
    assert enc.model_dump() == before


def test_apply_shove_into_a_hazard_moves_into_it(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=2)},
                         hazards=[PIT.model_copy(update={"cells": (Cell(2, 0),)})])
    result = resolve_shove(enc, ShoveRequest(attacker="A", defender="B"),
                           ScriptedDice([12, 6, 1, 4]))     # Pit-Stop 1 fails; fall 1d6 = 4
    ApplyShove(result, "B").apply(enc)
    assert enc.token("B").cell == Cell(2, 0)
    assert enc.token("B").combatant.hp == 4


def test_an_already_prone_defender_stays_prone_after_undo(encounter: Encounter) -> None:
    prone = encounter.token("B").combatant.model_copy(
        update={"conditions": frozenset({Condition.PRONE})})
    UpdateCombatant("B", prone).apply(encounter)
    command = shove_result(encounter, [20])
    command.apply(encounter)
    command.revert(encounter)
    assert encounter.token("B").combatant.has(Condition.PRONE)


def test_history_push_and_pop(encounter: Encounter) -> None:
    history = History(encounter)
    start = encounter.model_dump()
    assert history.push(MoveToken("C", Cell(2, 2))) == ChangeSet(tokens=frozenset({"C"}))
    after_move = encounter.model_dump()
    changes = history.push(PaintTerrain({Cell(0, 3)}, Terrain.SLIPPERY))
    assert changes.cells == frozenset({Cell(0, 3)})
    assert len(history.done) == 2
    assert history.pop().cells == frozenset({Cell(0, 3)})
    assert encounter.model_dump() == after_move
    history.pop()
    assert encounter.model_dump() == start
    with pytest.raises(IndexError):
        history.pop()


def test_change_sets_combine() -> None:
    a = ChangeSet(tokens=frozenset({"A"}), walls=True)
    b = ChangeSet(tokens=frozenset({"B"}), cells=frozenset({Cell(1, 1)}), log=True)
    assert a | b == ChangeSet(tokens=frozenset({"A", "B"}), cells=frozenset({Cell(1, 1)}),
                              walls=True, log=True)
