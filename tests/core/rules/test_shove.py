"""Shove resolution on the grid (000 "Force Rating", "Forceful Defense", "Terrain Modifiers to
Force", "The Pit-Stop Rule", size table; rules-decisions "Shove" 1-13).

Unless a test says otherwise the attacker A is a Medium creature with FR +2 (2 Class Skill
slots, STR 10) and the defender B is a plain Medium creature: FD 10, Shove Resist 3
(size base 3 + ½ level 0 + STR 0 + FR 0), AV 0, Death Ray save 14. So:

* the attack is d20 + 2 vs FD 10: success on 8+, Double Success (margin ≥ 10) on 18+;
* the shove die is the defender's d6 (FR +2 is short of a step), distance = d6 + 2 − 3;
* a slam is max(1, ⌊2 / 2⌋) = 1 roll of the d6 through AV.

Dice are given in the resolver's order: attack d20; shove die (standard success only);
Pit-Stop d20; hazard damage; the hazard's own save; falling; slam rolls. Every test checks
that all the dice it supplies are used (``shove`` below).

The property tests at the end walk random small maps with random dice and check the
invariants of forced movement against an exact geometry oracle.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import DiceExpression, DiceSource, ScriptedDice
from core.model.encounter import Encounter, Token, UnknownTokenError
from core.model.grid import Cell, Direction, Footprint, allowed_directions, step_costs_ft
from core.model.mapmodel import BattleMap, Hazard, HazardEffect, HazardKind, WallSegment
from core.model.profile import CreatureCollision, DiagonalRule, RulesProfile
from core.model.tables import ARMOURS, SIZES, Size
from core.rules.shove import (
    IllegalShoveError,
    Push,
    ShoveRequest,
    ShoveResult,
    StopReason,
    SuccessLevel,
    resolve_shove,
    slams,
)

MakeEncounter = Callable[..., Encounter]
Segment = tuple[float, float, float, float]
Touches = Callable[[Segment, Segment], bool]

PUSHER = Combatant(name="A", fr_slots=2)


def shove(encounter: Encounter, dice: list[int], **request: Any) -> ShoveResult:
    """Resolve A shoving B with exactly these dice (all must be used) and check the resolver
    left the encounter untouched."""
    before = encounter.model_dump()
    source = ScriptedDice(dice)
    result = resolve_shove(encounter, ShoveRequest(**{"attacker": "A", "defender": "B",
                                                      **request}), source)
    assert source.remaining == (), f"dice not used: {source.remaining}"
    assert encounter.model_dump() == before
    return result


Row = Callable[..., Encounter]


@pytest.fixture
def row(make_encounter: MakeEncounter) -> Row:
    """An encounter from a picture with A = PUSHER and B = a plain Medium defender unless
    other combatants are given."""
    def build(picture: str = "A B . . .", combatants: dict[str, Combatant] | None = None,
              **kwargs: Any) -> Encounter:
        return make_encounter(picture, {"A": PUSHER, "B": Combatant(name="B"),
                                        **(combatants or {})}, **kwargs)
    return build


# --- the roll, distance and cells --------------------------------------------------------

def test_failed_shove_moves_nothing_and_uses_one_die(row: Row) -> None:
    result = shove(row(), [1])                      # 1 + 2 = 3 vs FD 10
    assert result.level is SuccessLevel.FAIL
    assert result.margin == -7
    assert result.final_cell == Cell(1, 0)
    assert result.path == ()
    assert result.summary() == "A shoves B — fails (3 vs FD 10)"


@pytest.mark.parametrize(("d6", "feet", "cells"), [
    (1, 0, 0),   # 1 + 2 - 3 = 0: staggered
    (2, 1, 0),   # 1 ft: 1 × 2 < 5, stays in its cell
    (3, 2, 0),   # 2 ft: 4 < 5
    (4, 3, 1),   # 3 ft: 6 ≥ 5, one cell (round half up)
    (6, 5, 1),   # 5 ft: one cell, nothing left
])
def test_standard_success_distance_and_cells(row: Row, d6: int, feet: int, cells: int) -> None:
    result = shove(row(), [12, d6])                 # 14 vs 10: success, margin 4
    assert result.level is SuccessLevel.SUCCESS
    assert result.shove_die == "d6"
    assert result.distance_ft == feet
    assert result.final_cell == Cell(1 + cells, 0)
    assert result.moved_ft == 5 * cells
    assert result.stop_reason is StopReason.FULL_DISTANCE
    assert not result.slam_rolls
    assert not result.prone


def test_zero_distance_is_staggered(row: Row) -> None:
    assert "staggered, holds ground" in shove(row(), [12, 1]).summary()


def test_negative_distance_is_clamped_to_zero(row: Row) -> None:
    enc = row(combatants={"A": Combatant(name="A")})   # FR 0: d6 1 + 0 - 3 = -2
    result = shove(enc, [15, 1])
    assert result.distance_ft == 0
    assert [t.name for t in result.distance.terms][-1] == "Not below 0"


def test_distance_is_capped_at_the_defenders_max_displacement(row: Row) -> None:
    enc = row(combatants={"A": Combatant(name="A", fr_slots=5)})  # FR 5: d6 -> d8
    result = shove(enc, [12, 8])                    # 8 + 5 - 3 = 10, Medium cap 5
    assert result.shove_die == "d8"
    assert result.distance_ft == 5
    cap = result.distance.terms[-1]  # read as a cap, not as a modifier of "−5"
    assert (cap.name, cap.value) == ("Capped at Max Displacement 5 ft", -5)
    assert result.final_cell == Cell(2, 0)


def test_double_success_pushes_10_ft_and_knocks_prone(row: Row) -> None:
    result = shove(row(), [18])                     # 20 vs 10: margin 10, no shove die
    assert result.level is SuccessLevel.DOUBLE
    assert result.shove_roll is None
    assert result.distance_ft == 10
    assert result.path == (Cell(1, 0), Cell(2, 0), Cell(3, 0))
    assert result.moved_ft == 10
    assert result.prone
    assert result.summary() == "A shoves B 10 ft E — double success, Prone"


def test_double_success_without_prone_by_profile(row: Row) -> None:
    enc = row(profile=RulesProfile(double_success_prone=False))
    assert not shove(enc, [20]).prone


# --- walls, doors, creatures, the map edge -----------------------------------------------

@pytest.mark.parametrize(("armour", "slam_die", "damage"), [
    ("leather", 5, 3),      # the seed's rule: 1 + (4 - 2) = 3
    ("leather", 1, 1),      # 1 + (0 - 2 → 0) = 1
    ("none", 6, 6),         # 1 + 5
    ("chain_mail", 6, 2),   # 1 + (5 - 4)
    ("plate_mail", 6, 1),   # 1 + (5 - 6 → 0): only the penetrating point
])
def test_wall_slam_damage_through_armour(row: Row, armour: str, slam_die: int, damage: int
                                         ) -> None:
    enc = row("A B . .", {"B": Combatant(name="B", armour=armour)}, walls=[(2, 0, 2, 1)])
    # FD 10 + armour FD ≤ 14, so d20 12 + 2 = 14 succeeds with a margin under 10;
    # d6 5: 5 + 2 - 3 = 4 ft, the wall is right behind B: 4 ft unused
    result = shove(enc, [12, 5, slam_die])
    assert result.stop_reason is StopReason.WALL
    assert result.stopped_by == "wall"
    assert result.path == (Cell(1, 0),)
    assert result.moved_ft == 0
    assert result.unused_ft == 4
    assert result.defender_av == ARMOURS[armour].av
    assert [r.total for r in result.slam_rolls] == [slam_die]
    assert [r.expression for r in result.slam_rolls] == ["1d6"]
    assert result.total_damage == damage
    assert result.final_cell == Cell(1, 0)
    assert result.summary().endswith(f"slams the wall: {damage} damage "
                                     f"(AV {ARMOURS[armour].av})")


def test_wall_after_one_cell_double_success_slams_with_5_ft_left(row: Row) -> None:
    enc = row("A B . .", walls=[(3, 0, 3, 1)])
    result = shove(enc, [19, 4])                    # double: 10 ft; slam d6 4 → 4 (AV 0)
    assert result.path == (Cell(1, 0), Cell(2, 0))
    assert result.unused_ft == 5
    assert result.total_damage == 4
    assert result.prone


def test_wall_just_beyond_the_full_distance_is_not_a_slam(row: Row) -> None:
    enc = row("A B . .", walls=[(3, 0, 3, 1)])
    result = shove(enc, [12, 6])                    # 5 ft: one cell, nothing left
    assert result.stop_reason is StopReason.FULL_DISTANCE
    assert result.slam_rolls == ()


def test_a_push_too_short_for_a_cell_flush_against_a_wall_slams(row: Row) -> None:
    """RD Shove 10: "Any unused distance of 1 ft or more against the wall slams (a 2 ft push
    flush against a wall slams)"."""
    enc = row("A B . .", walls=[(2, 0, 2, 1)])
    result = shove(enc, [12, 3, 4])                 # 2 ft, flush: slam d6 4 → 4 (AV 0)
    assert result.stop_reason is StopReason.WALL and result.unused_ft == 2
    assert result.final_cell == Cell(1, 0) and result.total_damage == 4


def test_a_push_too_short_for_a_cell_in_the_open_is_not_a_slam(row: Row) -> None:
    result = shove(row("A B . ."), [12, 3])         # 2 ft, nothing behind
    assert result.stop_reason is StopReason.FULL_DISTANCE and result.slam_rolls == ()


@pytest.mark.parametrize(("fr_slots", "dice", "rolls"), [
    (0, "1d6", 1),   # max(1, 0 // 2)
    (2, "1d6", 1),
    (3, "1d8", 1),   # FR 3: one die step; 3 // 2 = 1 roll
    (4, "2d8", 2),
    (6, "3d10", 3),
    (7, "3d10", 3),
])
def test_slam_rolls_the_shove_die_once_per_two_points_of_fr(row: Row, fr_slots: int, dice: str,
                                                            rolls: int) -> None:
    enc = row("A B . .", {"A": Combatant(name="A", fr_slots=fr_slots)}, walls=[(2, 0, 2, 1)])
    # d20 12 + FR (≤ 7) vs 10: success under a double; shove die 6: 6 + FR - 3 ≥ 3 ft left
    result = shove(enc, [12, 6] + [2] * rolls)
    assert [r.expression for r in result.slam_rolls] == [dice]
    assert result.total_damage == 2 * rolls        # one hit of 2 per die, AV 0


@pytest.mark.parametrize(("kind", "stop", "final_x", "slam"), [
    ("door", StopReason.CLOSED_DOOR, 1, True),
    ("open door", StopReason.FULL_DISTANCE, 2, False),
    ("window", StopReason.WINDOW, 1, True),
    ("object", StopReason.FULL_DISTANCE, 2, False),   # blocks sight, not movement
    ("wall", StopReason.WALL, 1, True),
])
def test_doors_stop_only_when_closed(row: Row, kind: str, stop: StopReason, final_x: int,
                                     slam: bool) -> None:
    enc = row("A B . .", walls=[(2, 0, 2, 1, kind)])
    result = shove(enc, [12, 5] + ([3] if slam else []))   # 4 ft
    assert result.stop_reason is stop
    assert result.final_cell == Cell(final_x, 0)
    assert bool(result.slam_rolls) is slam
    if stop is StopReason.CLOSED_DOOR:
        assert result.stopped_by == "closed door"
        assert "slams the closed door: 3 damage" in result.summary()


def test_another_creature_stops_the_push_without_damage(row: Row) -> None:
    enc = row("A B C .")
    result = shove(enc, [12, 5])
    assert result.stop_reason is StopReason.CREATURE
    assert result.stopped_by == "C"
    assert result.unused_ft == 4
    assert result.total_damage == 0
    assert result.final_cell == Cell(1, 0)
    assert result.summary().endswith("stopped by the C")


def test_solid_creature_collision_profile_slams(row: Row) -> None:
    enc = row("A B C .", profile=RulesProfile(creature_collision=CreatureCollision.SOLID))
    result = shove(enc, [12, 5, 5])
    assert result.stop_reason is StopReason.CREATURE
    assert result.total_damage == 5
    assert result.final_cell == Cell(1, 0)


def test_map_edge_stops_without_damage(row: Row) -> None:
    result = shove(row("A B"), [18])                # double, 10 ft, nowhere to go
    assert result.stop_reason is StopReason.MAP_EDGE
    assert result.unused_ft == 10
    assert result.total_damage == 0
    assert result.final_cell == Cell(1, 0)


def test_a_wall_drawn_on_the_map_edge_is_still_a_wall(row: Row) -> None:
    result = shove(row("A B", walls=[(2, 0, 2, 1)]), [12, 5, 5])   # 4 ft into the wall
    assert result.stop_reason is StopReason.WALL
    assert result.total_damage == 5


# --- hazards: the Pit-Stop rule ----------------------------------------------------------

PIT = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
             effect=HazardEffect(damage="1d6", through_armour=True, fall_ft=10))
SAVES_12 = Combatant(name="B", armour="leather", death_ray_save=12)   # FD 11, AV 2


def test_pit_stop_save_stops_at_the_edge(row: Row) -> None:
    enc = row("A B . .", {"B": SAVES_12}, hazards=[PIT])
    result = shove(enc, [12, 4, 12])                # 3 ft; Pit-Stop 12 ≥ 12
    assert result.stop_reason is StopReason.HAZARD
    assert result.stopped_by == "Pit"
    assert result.hazard is not None
    assert result.hazard.saved
    assert result.hazard.pit_stop_target == 12
    assert result.final_cell == Cell(1, 0)
    assert result.total_damage == 0
    assert result.slam_rolls == ()
    assert "catches the edge of Pit" in result.summary()


def test_failed_pit_stop_falls_in_and_takes_the_pits_effect(row: Row) -> None:
    enc = row("A B . .", {"B": SAVES_12}, hazards=[PIT])
    # Pit-Stop 11 < 12: in. Spikes 1d6 = 5 through AV 2: 1 + (4 - 2) = 3. Fall 10 ft: 1d6 = 6,
    # one hit through AV 2 (RD Shove 13): 1 + (5 - 2) = 4
    dice = ScriptedDice([12, 4, 11, 5, 6])
    result = resolve_shove(enc, ShoveRequest(attacker="A", defender="B"), dice)
    assert dice.remaining == ()
    assert [r.expression for r in dice.rolls] == ["1d20", "1d6", "1d20", "1d6", "1d6"]
    assert "Pit-Stop" in dice.rolls[2].purpose
    assert "falling" in dice.rolls[4].purpose
    assert result.hazard is not None
    assert not result.hazard.saved
    assert result.hazard.fall_ft == 10
    assert result.hazard.damage.value == 7
    assert result.total_damage == 7
    assert result.final_cell == Cell(2, 0)
    assert result.summary().endswith("falls into Pit: 7 damage")


def test_falling_in_loses_the_rest_of_the_distance(row: Row) -> None:
    enc = row("A B . . .", {"B": SAVES_12}, hazards=[PIT])
    result = shove(enc, [20, 1, 1, 1])             # double: 10 ft, but stops in the pit
    assert result.final_cell == Cell(2, 0)
    assert result.prone


def test_hazard_further_away_is_reached_after_moving(row: Row) -> None:
    far_pit = PIT.model_copy(update={"cells": (Cell(3, 0),)})
    enc = row("A B . . .", {"B": SAVES_12}, hazards=[far_pit])
    result = shove(enc, [20, 15])                   # double, Pit-Stop saved after 1 cell
    assert result.path == (Cell(1, 0), Cell(2, 0))
    assert result.moved_ft == 5
    assert result.unused_ft == 5
    assert result.final_cell == Cell(2, 0)


FIRE = Hazard(name="Fire", kind=HazardKind.FIRE, cells=(Cell(2, 0),),
              effect=HazardEffect(damage="2d6", save_target=12))


@pytest.mark.parametrize(("own_save", "halves", "through_armour", "damage"), [
    (11, True, False, 9),    # own save failed: the full 5 + 4
    (12, True, False, 4),    # passed: half, rounded down
    (12, False, False, 0),   # passed, and the hazard's save negates
    (11, True, True, 7),     # through AV 2: 1 + (8 - 2)
    (12, True, True, 2),     # half 4 through AV 2: 1 + (3 - 2)
])
def test_fire_hazard_damage_and_its_own_save(row: Row, own_save: int, halves: bool,
                                             through_armour: bool, damage: int) -> None:
    effect = FIRE.effect.model_copy(update={"save_halves": halves,
                                            "through_armour": through_armour})
    enc = row("A B . .", {"B": SAVES_12}, hazards=[FIRE.model_copy(update={"effect": effect})])
    result = shove(enc, [12, 4, 3, 5, 4, own_save])  # Pit-Stop 3 fails; 2d6 = 9
    assert result.hazard is not None
    assert result.hazard.own_save_passed is (own_save >= 12)
    assert result.total_damage == damage
    assert result.final_cell == Cell(2, 0)


def test_hazard_without_damage_dice_rolls_no_more(row: Row) -> None:
    web = Hazard(name="Web", cells=(Cell(2, 0),), effect=HazardEffect(save_target=12))
    result = shove(row("A B . .", hazards=[web]), [12, 4, 3])
    assert result.hazard is not None
    assert result.hazard.own_save_roll is None
    assert result.total_damage == 0
    assert result.final_cell == Cell(2, 0)


def test_starting_inside_a_hazard_does_not_trigger_it_again(row: Row) -> None:
    wide_fire = FIRE.model_copy(update={"cells": (Cell(1, 0), Cell(2, 0))})
    result = shove(row("A B . .", hazards=[wide_fire]), [12, 6])
    assert result.hazard is None
    assert result.final_cell == Cell(2, 0)


@pytest.mark.parametrize(("low", "dice", "damage", "final_x"), [
    pytest.param(0, [12, 4, 5, 3], 3, 2, id="10-ft-drop-1d6"),
    pytest.param(-10, [12, 4, 5, 3, 6], 9, 2, id="20-ft-drop-2d6"),
    pytest.param(-5, [12, 4, 5, 3], 3, 2, id="15-ft-drop-1d6-per-full-10-ft"),
    pytest.param(5, [12, 4], 0, 2, id="5-ft-step-down-is-no-hazard"),
    pytest.param(0, [12, 4, 14], 0, 1, id="pit-stop-save-at-the-cliff-edge"),
])
def test_elevation_drop_is_a_cliff_hazard(row: Row, low: int, dice: list[int], damage: int,
                                          final_x: int) -> None:
    # A and B stand on a 10 ft ledge; the cells east of it are at ``low`` ft
    elevation = {(0, 0): 10, (1, 0): 10, (2, 0): low, (3, 0): low}
    enc = row("A B . .", elevation=elevation)
    # d20 12: success; d6 4: 3 ft, one cell; Pit-Stop d20 5 < 14 falls (14 saves); then
    # the falling dice
    result = shove(enc, dice)
    assert result.final_cell == Cell(final_x, 0)
    assert result.total_damage == damage
    if 10 - low >= 10:
        assert result.hazard is not None
        assert result.hazard.kind is HazardKind.CLIFF
        assert result.hazard.name == f"a {10 - low} ft drop"
    else:
        assert result.hazard is None


def test_pushing_into_a_cell_10_ft_higher_is_a_ledge_slam(row: Row) -> None:
    enc = row("A B . .", elevation={(2, 0): 10, (3, 0): 10})
    result = shove(enc, [12, 5, 5])
    assert result.stop_reason is StopReason.LEDGE
    assert result.stopped_by == "ledge (10 ft up)"
    assert result.total_damage == 5
    assert result.final_cell == Cell(1, 0)


def test_pushing_up_a_5_ft_step_is_allowed(row: Row) -> None:
    enc = row("A B . .", elevation={(2, 0): 5, (3, 0): 5})
    assert shove(enc, [12, 5]).final_cell == Cell(2, 0)


# --- terrain modifiers to force ----------------------------------------------------------

@pytest.mark.parametrize(("under", "d6", "feet", "final_x"), [
    pytest.param(".", 2, 1, 1, id="normal-1-ft-stays"),
    pytest.param("s", 2, 3, 2, id="slippery-3-ft-moves-a-cell"),
    pytest.param("s", 1, 2, 1, id="slippery-after-clamp-2-ft-stays"),
    pytest.param("s", 6, 7, 2, id="slippery-after-the-cap"),
])
def test_slippery_adds_2_ft_after_the_cap(row: Row, under: str, d6: int, feet: int,
                                          final_x: int) -> None:
    result = shove(row("A B . . .", under={"B": under}), [12, d6])
    assert result.distance_ft == feet
    assert result.final_cell == Cell(final_x, 0)


def test_slippery_adds_to_a_double_success(row: Row) -> None:
    result = shove(row("A B . . . .", under={"B": "s"}), [19])
    assert result.distance_ft == 12                 # 5 + 5, 2 left: 4 < 5, two cells
    assert result.final_cell == Cell(3, 0)


def test_slippery_only_counts_under_the_defender(row: Row) -> None:
    result = shove(row("A B s . .", under={"A": "s"}), [12, 2])
    assert result.distance_ft == 1
    assert result.final_cell == Cell(1, 0)


@pytest.mark.parametrize(("under", "elevation", "feet", "final_x", "terms"), [
    pytest.param(".", {}, 4, 2, [], id="flat"),
    pytest.param("d", {}, 2, 1, ["Resist: difficult terrain"], id="difficult"),
    pytest.param(".", {(1, 0): 5, (2, 0): 5, (3, 0): 5}, 2, 1,
                 ["Resist: defender on higher ground"], id="uphill"),
    pytest.param("d", {(1, 0): 5, (2, 0): 5, (3, 0): 5}, 0, 1,
                 ["Resist: defender on higher ground", "Resist: difficult terrain"],
                 id="uphill-into-difficult"),
])
def test_difficult_terrain_and_uphill_add_2_resist(row: Row, *, under: str,
                                                   elevation: dict[tuple[int, int], int],
                                                   feet: int, final_x: int, terms: list[str]
                                                   ) -> None:
    enc = row("A B . .", under={"B": under}, elevation=elevation)
    result = shove(enc, [12, 5])                    # 5 + 2 - 3 = 4, less 2 per modifier
    assert result.distance_ft == feet
    assert result.final_cell == Cell(final_x, 0)
    names = [t.name for t in result.distance.terms]
    assert [n for n in names if n in ("Resist: difficult terrain",
                                      "Resist: defender on higher ground")] == terms


def test_difficult_terrain_under_the_attacker_does_not_help_the_defender(row: Row) -> None:
    assert shove(row("A B . .", under={"A": "d"}), [12, 5]).distance_ft == 4


@pytest.mark.parametrize(("fr_slots", "attacker_ft", "die"), [
    (2, 0, "d6"),
    (2, 5, "d8"),     # higher ground: one step
    (3, 0, "d8"),     # FR 3: one step
    (3, 5, "d10"),    # both
    (2, -5, "d6"),    # attacker lower: no step (and B gets the uphill Resist instead)
])
def test_attacker_on_higher_ground_steps_the_die(row: Row, fr_slots: int, attacker_ft: int,
                                                 die: str) -> None:
    enc = row("A B . .", {"A": Combatant(name="A", fr_slots=fr_slots)},
              elevation={(0, 0): attacker_ft})
    result = shove(enc, [12, 1])
    assert result.shove_die == die
    assert [t.name for t in result.die_steps if "higher ground" in t.name] == (
        ["Attacker on higher ground"] if attacker_ft > 0 else [])


# --- size, Mastery, Forceful Defense -----------------------------------------------------

@pytest.mark.parametrize(("attacker_size", "defender_size", "mastery", "penalty"), [
    (Size.MEDIUM, Size.MEDIUM, 0, 0),
    (Size.MEDIUM, Size.SMALL, 0, 0),       # no bonus for a smaller defender
    (Size.MEDIUM, Size.LARGE, 0, -4),
    (Size.MEDIUM, Size.HUGE, 0, -8),
    (Size.MEDIUM, Size.HUGE, 1, -4),       # Mastery 1 forgives one category
    (Size.MEDIUM, Size.LARGE, 3, 0),       # never below 0
    (Size.SMALL, Size.HUGE, 1, -8),
    (Size.TINY, Size.GARGANTUAN, 0, -20),
])
def test_size_penalty_and_mastery(make_encounter: MakeEncounter, attacker_size: Size,
                                  defender_size: Size, mastery: int, penalty: int) -> None:
    attacker = Combatant(name="A", size=attacker_size, fr_slots=2, mastery_rank=mastery)
    defender = Combatant(name="B", size=defender_size)
    side = SIZES[defender_size].footprint
    enc = make_encounter("\n".join(["A" + "B" * side + "..."] + ["." + "B" * side + "..."]
                                   * (side - 1)), {"A": attacker, "B": defender})
    result = shove(enc, [1])
    assert result.attack.value == 1 + 2 + penalty
    size_terms = [t.value for t in result.attack.terms if t.name.startswith("Size")]
    assert size_terms == ([penalty] if defender_size.rank > attacker_size.rank else [])


def test_size_penalty_decides_a_boundary_roll(make_encounter: MakeEncounter) -> None:
    # Large defender: FD 12. d20 14 + 2 - 4 = 12 succeeds; 13 fails
    enc = make_encounter("A O O .\n. O O .", {"A": PUSHER, "O": Combatant(name="O",
                                                                             size="large")})
    hit = resolve_shove(enc, ShoveRequest(attacker="A", defender="O"), ScriptedDice([14, 1]))
    miss = resolve_shove(enc, ShoveRequest(attacker="A", defender="O"), ScriptedDice([13]))
    assert (hit.level, hit.margin) == (SuccessLevel.SUCCESS, 0)
    assert miss.level is SuccessLevel.FAIL


@pytest.mark.parametrize(("defender_fr_slots", "dice", "level", "capped"), [
    (3, [20, 6], SuccessLevel.SUCCESS, True),    # FR 3 > 2: the double (margin 12) is capped
    (2, [20], SuccessLevel.DOUBLE, False),       # equal FR does not cap
    (3, [15, 6], SuccessLevel.SUCCESS, False),   # margin 7: no double to cap
])
def test_forceful_defense_caps_a_double(row: Row, defender_fr_slots: int, dice: list[int],
                                        level: SuccessLevel, capped: bool) -> None:
    enc = row(combatants={"B": Combatant(name="B", fr_slots=defender_fr_slots)})
    result = shove(enc, dice)
    assert result.level is level
    assert result.forceful_defense is capped
    assert result.prone is (level is SuccessLevel.DOUBLE)
    if capped:
        # Resist 3 + FR 3 = 6: 6 + 2 - 6 = 2 ft
        assert result.distance_ft == 2
        assert "(Forceful Defense caps it)" in result.summary()


# --- big defenders -----------------------------------------------------------------------

OGRE_A = Combatant(name="A", size="large", fr_slots=2)
OGRE_B = Combatant(name="B", size="large")           # FD 12, Resist 4, d8, max 10 ft

LARGE_PICTURE = """
    A A B B . .
    A A B B . .
    . . . . . .
"""


def test_large_defender_moves_its_whole_footprint(row: Row) -> None:
    enc = row(LARGE_PICTURE, {"A": OGRE_A, "B": OGRE_B})
    result = shove(enc, [20])                       # 22 vs 12: double, 10 ft
    assert result.path == (Cell(2, 0), Cell(3, 0), Cell(4, 0))
    assert result.final_cell == Cell(4, 0)


@pytest.mark.parametrize(("d8", "feet", "final_x"), [(8, 6, 3), (6, 4, 3), (2, 0, 2)])
def test_large_defender_standard_success(row: Row, d8: int, feet: int, final_x: int) -> None:
    enc = row(LARGE_PICTURE, {"A": OGRE_A, "B": OGRE_B})
    result = shove(enc, [12, d8])                   # 14 vs 12; d8 + 2 - 4
    assert result.shove_die == "d8"
    assert result.distance_ft == feet
    assert result.final_cell == Cell(final_x, 0)


@pytest.mark.parametrize(("extra", "combatants", "stop"), [
    pytest.param({"walls": [(5, 1, 5, 2)]}, {}, StopReason.WALL, id="wall-by-the-lower-row"),
    pytest.param({"walls": [(4, 0, 5, 0)]}, {}, StopReason.FULL_DISTANCE,
                 id="wall-along-the-path-is-not-in-the-way"),
    pytest.param({}, {"C": Combatant(name="C")}, StopReason.CREATURE, id="creature-by-one-cell"),
])
def test_large_defender_stops_when_any_cell_would_hit(row: Row, extra: dict[str, Any],
                                                      combatants: dict[str, Combatant],
                                                      stop: StopReason) -> None:
    picture = LARGE_PICTURE if not combatants else """
        A A B B . C
        A A B B . .
        . . . . . .
    """
    enc = row(picture, {"A": OGRE_A, "B": OGRE_B, **combatants}, **extra)
    dice = [20] + ([3] if stop is StopReason.WALL else [])
    result = shove(enc, dice)
    assert result.stop_reason is stop
    if stop is StopReason.FULL_DISTANCE:
        assert result.final_cell == Cell(4, 0)
    else:
        assert result.path == (Cell(2, 0), Cell(3, 0))
        assert result.unused_ft == 5


def test_large_defender_stops_before_a_wall_would_split_it(row: Row) -> None:
    # a horizontal wall stub at y = 1 between x = 5 and 6 would cut through the footprint at
    # (4, 0) though no single cell step crosses it
    enc = row(LARGE_PICTURE + ". . . . . .", {"A": OGRE_A, "B": OGRE_B},
              walls=[(5, 1, 6, 1)])
    result = shove(enc, [20, 3])
    assert result.path == (Cell(2, 0), Cell(3, 0))
    assert result.stop_reason is StopReason.WALL


HUGE_PICTURE = """
    A A A B B B . .
    A A A B B B . .
    A A A B B B . .
"""


def test_huge_defender_footprint_and_wall(row: Row) -> None:
    huge_a = Combatant(name="A", size="huge", fr_slots=2)
    huge_b = Combatant(name="B", size="huge")      # FD 14, Resist 5, d10, max 15 ft
    enc = row(HUGE_PICTURE, {"A": huge_a, "B": huge_b})
    # d20 20 + 2 + 2 (situational) = 24 vs 14: double, 10 ft
    assert shove(enc, [20], modifier=2).final_cell == Cell(5, 0)
    # d10 10 + 2 - 5 = 7 ft: one cell
    assert shove(enc, [12, 10]).final_cell == Cell(4, 0)
    walled = row(HUGE_PICTURE, {"A": huge_a, "B": huge_b}, walls=[(7, 2, 7, 3)])
    result = shove(walled, [20, 4], modifier=2)
    assert result.final_cell == Cell(4, 0)
    assert result.stop_reason is StopReason.WALL
    assert result.total_damage == 4


# --- diagonals ---------------------------------------------------------------------------

DIAGONAL = """
    A . . . .
    . B . . .
    . . . . .
    . . . . .
    . . . . .
"""


@pytest.mark.parametrize(("rule", "dice", "final", "moved"), [
    (DiagonalRule.FIVE_TEN_FIVE, [18], Cell(3, 3), 15),     # 10 ft: 5 then 10 (10 ≥ 10)
    (DiagonalRule.FIVE_TEN_FIVE, [12, 6], Cell(2, 2), 5),   # 5 ft: one diagonal
    (DiagonalRule.FIVE_TEN_FIVE, [12, 4], Cell(2, 2), 5),   # 3 ft: 6 ≥ 5
    (DiagonalRule.FIVE, [18], Cell(3, 3), 10),
    (DiagonalRule.EUCLIDEAN, [18], Cell(2, 2), 5 * 2 ** 0.5),  # 2nd step: 2 × 2.93 < 7.07
])
def test_diagonal_push_counts_5_10_5(row: Row, rule: DiagonalRule, dice: list[int],
                                     final: Cell, moved: float) -> None:
    result = shove(row(DIAGONAL, profile=RulesProfile(diagonal_rule=rule)), dice)
    assert result.direction is Direction.SE
    assert result.final_cell == final
    assert result.moved_ft == pytest.approx(moved)


def test_diagonal_12_ft_on_slippery_takes_two_cells_only(row: Row) -> None:
    result = shove(row(DIAGONAL, under={"B": "s"}), [18])
    assert result.distance_ft == 12
    assert result.final_cell == Cell(3, 3)          # 5, then 10 (7 left ≥ 5); 3rd: -3
    assert result.moved_ft == 15


def test_diagonal_push_past_a_wall_end_is_stopped(row: Row) -> None:
    # the wall ends at (3, 3), the corner the second diagonal step passes through
    result = shove(row(DIAGONAL, walls=[(3, 0, 3, 3)]), [18, 2])
    assert result.path == (Cell(1, 1), Cell(2, 2))
    assert result.stop_reason is StopReason.WALL
    assert result.unused_ft == 5
    assert result.total_damage == 2


def test_gm_may_pick_a_direction_within_90_degrees(row: Row) -> None:
    enc = row("""
        . . . .
        A B . .
        . . . .
        . . . .
    """)
    result = shove(enc, [18], direction=Direction.SE)
    assert result.final_cell == Cell(3, 3)
    assert shove(enc, [18], direction=Direction.S).final_cell == Cell(1, 3)


# --- Tiny creatures ----------------------------------------------------------------------

def test_tiny_defender_is_jostled_in_place(row: Row) -> None:
    cat = Combatant(name="B", size="tiny")          # FD 8, Resist 1, d2, max 2 ft
    enc = row("A B . .", {"B": cat})
    result = shove(enc, [10, 2])                    # 2 + 2 - 1 = 3, capped at 2 ft
    assert result.shove_die == "d2"
    assert result.distance_ft == 2
    assert result.path == (Cell(1, 0),)             # 2 × 2 < 5: no cell
    assert result.moved_ft == 0
    assert result.slam_rolls == ()
    assert result.summary() == "A shoves B — jostled 2 ft, stays in its space — success"


def test_a_tiny_defender_jostled_against_a_wall_is_slammed(row: Row) -> None:
    """RD Shove 10: "a Tiny creature can be slammed"."""
    cat = Combatant(name="B", size="tiny")
    enc = row("A B . .", {"B": cat}, walls=[(2, 0, 2, 1)])
    result = shove(enc, [10, 2, 2])                 # 2 ft flush; slam d2 2 → 2 (AV 0)
    assert result.final_cell == Cell(1, 0) and result.total_damage == 2


def test_tiny_defender_on_ice_slides_a_cell(row: Row) -> None:
    cat = Combatant(name="B", size="tiny")
    result = shove(row("A B . .", {"B": cat}, under={"B": "s"}), [10, 2])
    assert result.distance_ft == 4
    assert result.final_cell == Cell(2, 0)


# --- illegal shoves ----------------------------------------------------------------------

def test_not_adjacent_is_illegal(row: Row) -> None:
    enc = row("A . B .")
    with pytest.raises(IllegalShoveError, match=r"not adjacent .*1 cell"):
        resolve_shove(enc, ShoveRequest(attacker="A", defender="B"), ScriptedDice([20]))
    # the GM may override reach
    assert shove(enc, [18], ignore_reach=True).final_cell == Cell(3, 0)
    no_reach = row("A . B .", profile=RulesProfile(reach_required=False))
    assert shove(no_reach, [18]).final_cell == Cell(3, 0)


@pytest.mark.parametrize("direction", [Direction.W, Direction.NW, Direction.SW])
def test_direction_beyond_90_degrees_is_illegal_and_lists_the_allowed(row: Row,
                                                                      direction: Direction
                                                                      ) -> None:
    enc = row(". . .\nA B .\n. . .")
    with pytest.raises(IllegalShoveError, match=r"allowed: N, NE, E, SE, S$"):
        resolve_shove(enc, ShoveRequest(attacker="A", defender="B", direction=direction),
                      ScriptedDice([20]))


@pytest.mark.parametrize(("picture", "walls"), [
    pytest.param("A B .", [(1, 0, 1, 1)], id="wall"),
    pytest.param("A B .", [(1, 0, 1, 1, "door")], id="closed-door"),
    pytest.param("A B .", [(1, 0, 1, 1, "window")], id="window"),
    pytest.param("A . .\n. B .\n. . .", [(1, 0, 1, 1)], id="diagonal-past-a-wall-end"),
])
def test_wall_between_attacker_and_defender_is_illegal(row: Row, picture: str,
                                                       walls: list[tuple[Any, ...]]) -> None:
    with pytest.raises(IllegalShoveError, match="a wall stands between A and B"):
        resolve_shove(row(picture, walls=walls), ShoveRequest(attacker="A", defender="B"),
                      ScriptedDice([20]))


def test_open_door_between_is_fine(row: Row) -> None:
    assert shove(row("A B .", walls=[(1, 0, 1, 1, "open door")]), [18]).final_cell == Cell(2, 0)


def test_wall_covering_part_of_the_contact_leaves_reach(row: Row) -> None:
    # the wall covers only the upper half of the shared side of two Large creatures; the
    # lower cells still touch (a diagonal past the wall's end would not: it touches the end)
    enc = row(LARGE_PICTURE, {"A": OGRE_A, "B": OGRE_B}, walls=[(2, 0, 2, 1)])
    assert shove(enc, [20]).final_cell == Cell(4, 0)


def test_shoving_oneself_or_a_stranger_is_refused(row: Row) -> None:
    enc = row()
    with pytest.raises(IllegalShoveError, match="cannot shove itself"):
        resolve_shove(enc, ShoveRequest(attacker="A", defender="A"), ScriptedDice([20]))
    with pytest.raises(UnknownTokenError, match="no token named 'Zed'"):
        resolve_shove(enc, ShoveRequest(attacker="A", defender="Zed"), ScriptedDice([20]))


# --- the breakdown -----------------------------------------------------------------------

def test_breakdown_names_every_term(make_encounter: MakeEncounter) -> None:
    fighter = Combatant(name="Brannoc", abilities=Abilities(strength=17), fr_slots=3)
    orc = Combatant(name="Orc", side=Side.OPPOSITION, abilities=Abilities(strength=15),
                    fr_slots=1, armour="scale", shield="medium", level=3)
    enc = make_encounter("A B . .", {"A": fighter, "B": orc})
    # Brannoc FR 3 + 2 = 5; Orc FD 10 + 1 + 0 + 1 + 2 = 14; Orc Resist 3 + 1 + 1 + 2 = 7
    result = shove(enc, [14, 6])                    # 19 vs 14; d8 (FR 5: one step)
    assert result.attack.value == 19
    assert result.target_fd.value == 14
    assert result.shove_die == "d8"
    assert result.distance.value == 6 + 5 - 7
    assert result.distance_ft == 4
    assert result.attacker == "Brannoc"
    assert result.defender == "Orc"


# --- properties on random small maps -----------------------------------------------------

class DrawnDice(DiceSource):
    """Every die value drawn by hypothesis, within the die's faces."""

    def __init__(self, data: st.DataObject) -> None:
        super().__init__()
        self.data = data

    def next_value(self, faces: int, purpose: str) -> int:
        # hypothesis favours small integers; mirror half the draws so high rolls (successes,
        # doubles, saves) are as common as low ones
        value = st.integers(1, faces)
        return self.data.draw(st.one_of(value, value.map(lambda v: faces + 1 - v)),
                              label=purpose)


SIZES_DRAWN = [Size.TINY, Size.SMALL, Size.MEDIUM, Size.MEDIUM, Size.LARGE, Size.HUGE]


@st.composite
def combatants(draw: st.DrawFn, name: str) -> Combatant:
    return Combatant(
        name=name, size=draw(st.sampled_from(SIZES_DRAWN)),
        side=draw(st.sampled_from(list(Side))),
        abilities=Abilities(strength=draw(st.integers(3, 18))),
        level=draw(st.integers(0, 9)), fr_slots=draw(st.integers(0, 8)),
        armour=draw(st.sampled_from(sorted(ARMOURS))), mastery_rank=draw(st.integers(0, 2)),
        death_ray_save=draw(st.integers(2, 20)))


@st.composite
def hazards(draw: st.DrawFn, width: int, height: int, index: int) -> Hazard:
    cells = draw(st.lists(st.builds(Cell, st.integers(0, width - 1), st.integers(0, height - 1)),
                          min_size=1, max_size=8, unique=True))
    effect = HazardEffect(damage=draw(st.sampled_from([None, "1d4", "2d6"])),
                          through_armour=draw(st.booleans()),
                          fall_ft=draw(st.sampled_from([0, 10, 20])),
                          save_target=draw(st.sampled_from([None, 8, 15])),
                          save_halves=draw(st.booleans()))
    return Hazard(name=f"H{index}", kind=draw(st.sampled_from(list(HazardKind))),
                  cells=tuple(cells), effect=effect)


WALL_KINDS = [("wall", False), ("door", False), ("door", True), ("window", False),
              ("object", False)]


@st.composite
def shove_scenes(draw: st.DrawFn) -> tuple[Encounter, ShoveRequest]:
    width, height = draw(st.integers(3, 8)), draw(st.integers(3, 7))
    walls = []
    for _ in range(draw(st.integers(0, 14))):
        x, y = draw(st.integers(0, width)), draw(st.integers(0, height))
        length = draw(st.integers(1, 3))
        end = (x + length, y) if draw(st.booleans()) else (x, y + length)
        kind, is_open = draw(st.sampled_from(WALL_KINDS))
        walls.append(WallSegment(x1=x, y1=y, x2=end[0], y2=end[1], kind=kind, open=is_open))
    rows = ["".join(draw(st.sampled_from("..ds")) for _ in range(width)) for _ in range(height)]
    elevation = {f"{x},{y}": draw(st.sampled_from([5, 10, 20]))
                 for x, y in draw(st.lists(st.tuples(st.integers(0, width - 1),
                                                     st.integers(0, height - 1)),
                                           max_size=8, unique=True))}
    battle_map = BattleMap(width=width, height=height, terrain_rows=rows, walls=walls,
                           elevation=elevation,
                           hazards=[draw(hazards(width, height, i))
                                    for i in range(draw(st.integers(0, 3)))])
    profile = RulesProfile(
        creature_collision=draw(st.sampled_from(list(CreatureCollision))),
        diagonal_rule=draw(st.sampled_from(list(DiagonalRule))))
    enc = Encounter(map=battle_map, profile=profile)
    attacker = draw(combatants("Att"))
    a_size = SIZES[attacker.size].footprint
    if a_size > min(width, height):
        reject()
    ax, ay = draw(st.integers(0, width - a_size)), draw(st.integers(0, height - a_size))
    enc.add_token(Token(id="att", combatant=attacker, x=ax, y=ay))
    defender = draw(combatants("Def"))
    d_size = SIZES[defender.size].footprint
    spots = [(x, y) for x in range(ax - d_size, ax + a_size + 1)
             for y in range(ay - d_size, ay + a_size + 1)
             if enc.can_place(Footprint(x, y, d_size))
             and Footprint(x, y, d_size).adjacent(Footprint(ax, ay, a_size))]
    if not spots:
        reject()
    dx, dy = draw(st.sampled_from(spots))
    enc.add_token(Token(id="def", combatant=defender, x=dx, y=dy))
    # walls across the defender's way out on some sides, 0-2 cells off, where they matter
    for _ in range(draw(st.integers(0, 3))):
        side, gap = draw(st.sampled_from("NESW")), draw(st.integers(0, 2))
        kind, is_open = draw(st.sampled_from(WALL_KINDS))
        x1, x2 = {"E": (dx + d_size + gap,) * 2, "W": (dx - gap,) * 2}.get(side, (dx, dx + d_size))
        y1, y2 = {"S": (dy + d_size + gap,) * 2, "N": (dy - gap,) * 2}.get(side, (dy, dy + d_size))
        enc.map.walls.append(WallSegment(x1=x1, y1=y1, x2=x2, y2=y2, kind=kind, open=is_open))
    for index in range(draw(st.integers(0, 5))):
        other = draw(combatants(f"O{index}"))
        size = SIZES[other.size].footprint
        x, y = draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1))
        token = Token(id=f"o{index}", combatant=other, x=x, y=y)
        if enc.can_place(Footprint(x, y, size)):
            enc.add_token(token)
    allowed = allowed_directions(Footprint(ax, ay, a_size), Footprint(dx, dy, d_size),
                                 profile.direction_spread_deg)
    direction = draw(st.one_of(st.none(), st.sampled_from(allowed)))
    # a generous situational modifier, so that most shoves succeed and go somewhere
    request = ShoveRequest(attacker="att", defender="def", direction=direction,
                           modifier=draw(st.integers(0, 20)))
    return enc, request


def step_crosses_wall(encounter: Encounter, footprint: Footprint, direction: Direction,
                      touches: Touches) -> bool:
    """Whether any cell of the footprint meets a movement-blocking wall stepping once, or the
    footprint it lands on has a wall through it (exact oracle over every wall)."""
    dx, dy = direction.delta
    there = footprint.moved(direction)
    segments = [(c.x + .5, c.y + .5, c.x + dx + .5, c.y + dy + .5) for c in footprint.cells()]
    segments += [(c.x + .5, c.y + .5, c.x + ix + .5, c.y + iy + .5)
                 for c in there.cells() for ix, iy in ((1, 0), (0, 1))
                 if Footprint(c.x + ix, c.y + iy, 1).overlaps(there)]
    return any(w.blocks_movement and touches(s, w.points)
               for s in segments for w in encounter.map.walls)


def fr_of(c: Combatant, profile: RulesProfile) -> int:
    return c.fr_slots + profile.ability_modifier(c.abilities.strength) + c.fr_magic


@settings(max_examples=300, deadline=None)
@given(shove_scenes(), st.data())
def test_forced_movement_invariants(touches: Touches, scene: tuple[Encounter, ShoveRequest],
                                    data: st.DataObject) -> None:
    """For any legal shove and any dice:

    * every step of the path (and the step into a hazard) is one step in the push direction
      and crosses no movement-blocking wall or closed door, and the footprint stays whole;
    * the defender ends on the map, overlapping no other token;
    * the distance is within 0 .. max(Max Displacement, Double Success distance) + slippery,
      and the feet moved exceed it by at most half the last step: a step is taken while the
      distance left is at least half its cost, so the last step may "borrow" up to half of
      itself (2.5 ft straight, 5 ft for a 10 ft 5-10-5 diagonal);
    * a full-distance stop leaves less than half the next step; any other stop names what is
      really there (a push too short for another cell stops there only against something
      solid: a flush slam); slams happen exactly when a solid thing stops the push with
      1 ft or more left, max(1, FR // 2) shove dice added and put through AV once.
    """
    encounter, request = scene
    try:
        result = resolve_shove(encounter, request, DrawnDice(data))
    except IllegalShoveError:
        reject()
    event(f"{result.level.value}, stop: {result.stop_reason.value}")
    event(f"defender footprint {encounter.token('def').footprint.size}, "
          f"direction diagonal: {result.direction.diagonal}")
    if result.level is SuccessLevel.FAIL:
        assert result.final_cell == encounter.token("def").cell
        return
    check_path(encounter, result, touches)
    check_distance(encounter, result)
    check_stop(encounter, result, touches)
    check_slams(encounter, result)


def check_path(encounter: Encounter, result: ShoveResult, touches: Touches) -> None:
    defender = encounter.token("def")
    size = defender.footprint.size
    footprints = [Footprint(c.x, c.y, size) for c in result.path]
    final = Footprint(result.final_cell.x, result.final_cell.y, size)
    assert footprints[0] == defender.footprint
    steps = list(pairwise(footprints))
    if final != footprints[-1]:
        assert result.hazard is not None
        assert not result.hazard.saved
        steps.append((footprints[-1], final))
    for here, there in steps:
        assert there == here.moved(result.direction)
        assert not step_crosses_wall(encounter, here, result.direction, touches), (here, there)
        assert encounter.map.contains_footprint(there)
        assert rise(encounter, here, there) < encounter.profile.drop_hazard_ft
    assert encounter.map.contains_footprint(final)
    assert not encounter.tokens_overlapping(final, ignore="def")


def rise(encounter: Encounter, here: Footprint, there: Footprint) -> int:
    return (max(encounter.map.elevation_at(c) for c in there.cells())
            - max(encounter.map.elevation_at(c) for c in here.cells()))


def step_costs(encounter: Encounter, result: ShoveResult) -> list[float]:
    """The cost of each step of the path and of the next one."""
    profile = encounter.profile
    return list(step_costs_ft([result.direction] * len(result.path), profile.cell_size_ft,
                              profile.diagonal_rule))


def check_distance(encounter: Encounter, result: ShoveResult) -> None:
    profile = encounter.profile
    defender = encounter.token("def")
    slip = profile.slippery_bonus_ft if any(
        encounter.map.terrain_at(c).slippery for c in defender.footprint.cells()) else 0
    cap = SIZES[defender.combatant.size].max_displacement_ft
    assert 0 <= result.distance_ft <= max(cap, profile.double_success_distance_ft) + slip
    if result.level is SuccessLevel.DOUBLE:
        assert result.distance_ft == max(profile.double_success_distance_ft, cap) + slip
    else:
        assert slip <= result.distance_ft <= cap + slip
    assert result.prone is (result.level is SuccessLevel.DOUBLE)
    costs = step_costs(encounter, result)
    moved_steps = len(result.path) - 1
    assert result.moved_ft == pytest.approx(sum(costs[:moved_steps]))
    if moved_steps:
        assert result.moved_ft <= result.distance_ft + costs[moved_steps - 1] / 2


def check_stop(encounter: Encounter, result: ShoveResult, touches: Touches) -> None:
    size = encounter.token("def").footprint.size
    left = result.distance_ft - result.moved_ft
    next_cost = step_costs(encounter, result)[-1]
    here = Footprint(result.path[-1].x, result.path[-1].y, size)
    there = here.moved(result.direction)
    stop = result.stop_reason
    if stop is StopReason.FULL_DISTANCE:
        assert left * 2 < next_cost
        return
    if left * 2 < next_cost:  # too short for a cell: only a flush slam stops it here
        assert slams(Push(path=result.path, moved_ft=result.moved_ft, unused_ft=left,
                          stop_reason=stop), encounter.profile)
    assert result.unused_ft == pytest.approx(left)
    if stop is StopReason.MAP_EDGE:
        assert not encounter.map.contains_footprint(there)
    elif stop in (StopReason.WALL, StopReason.CLOSED_DOOR, StopReason.WINDOW):
        assert step_crosses_wall(encounter, here, result.direction, touches)
    elif stop is StopReason.LEDGE:
        assert rise(encounter, here, there) >= encounter.profile.drop_hazard_ft
    elif stop is StopReason.CREATURE:
        assert encounter.tokens_overlapping(there, ignore="def")
    else:
        assert stop is StopReason.HAZARD
        assert result.hazard is not None
        assert result.hazard.saved is (result.hazard.pit_stop.value
                                       >= encounter.token("def").combatant.death_ray_save)


def check_slams(encounter: Encounter, result: ShoveResult) -> None:
    profile = encounter.profile
    solid = result.stop_reason in (StopReason.WALL, StopReason.CLOSED_DOOR, StopReason.WINDOW,
                                   StopReason.LEDGE) or (
        result.stop_reason is StopReason.CREATURE
        and profile.creature_collision is CreatureCollision.SOLID)
    if not solid:
        assert result.slam_rolls == ()
        return
    if result.unused_ft < profile.slam_min_unused_ft:
        assert result.slam_rolls == ()
        return
    av = ARMOURS[encounter.token("def").combatant.armour].av
    fr = fr_of(encounter.token("att").combatant, profile)
    (roll,) = result.slam_rolls
    assert len(roll.values) == max(1, fr // 2) * len(DiceExpression.parse(result.shove_die or
                                                                           "d6").dice)
    assert [b.value for b in result.slam_damage] == [1 + max(0, roll.total - 1 - av)]


@settings(max_examples=40, deadline=None)
@given(shove_scenes(), st.data())
def test_applying_any_shove_leaves_a_consistent_encounter(
        scene: tuple[Encounter, ShoveRequest], data: st.DataObject) -> None:
    from core.actions.base import plan
    from core.actions.history import History
    from core.actions.shove import ShoveAction

    encounter, request = scene
    try:
        outcome = plan(ShoveAction(request), encounter, DrawnDice(data))
    except IllegalShoveError:
        reject()
    result = outcome.result
    before = encounter.model_dump()
    hp = encounter.token("def").combatant.hp
    history = History(encounter)
    history.push(outcome.command)
    Encounter.model_validate(encounter.model_dump(by_alias=True))  # tokens fit, none overlap
    defender = encounter.token("def").combatant
    assert defender.hp == hp - result.total_damage
    assert defender.has(Condition.PRONE) is (result.prone or Condition.PRONE in
                                             before["tokens"][1]["combatant"]["conditions"])
    history.undo()
    assert encounter.model_dump() == before
