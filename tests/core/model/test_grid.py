"""Grid basics: directions, footprints, adjacency, straight-away snapping, diagonal costs."""

from __future__ import annotations

import math

import pytest

from core.model.grid import (
    Cell,
    Direction,
    Footprint,
    allowed_directions,
    bearing,
    direction_between,
    path_cost_ft,
    step_costs_ft,
    straight_away,
)
from core.model.profile import DiagonalRule

N, NE, E, SE, S, SW, W, NW = (Direction.N, Direction.NE, Direction.E, Direction.SE,
                              Direction.S, Direction.SW, Direction.W, Direction.NW)


@pytest.mark.parametrize(("direction", "delta", "bearing_deg"), [
    (N, (0, -1), 0), (NE, (1, -1), 45), (E, (1, 0), 90), (SE, (1, 1), 135),
    (S, (0, 1), 180), (SW, (-1, 1), 225), (W, (-1, 0), 270), (NW, (-1, -1), 315),
])
def test_direction_delta_and_bearing_north_is_minus_y(direction: Direction,
                                                      delta: tuple[int, int],
                                                      bearing_deg: int) -> None:
    assert direction.delta == delta
    assert direction.bearing == bearing_deg
    assert direction.diagonal == (delta[0] != 0 and delta[1] != 0)
    assert Direction.from_bearing(bearing_deg + 360) is direction


@pytest.mark.parametrize(("degrees", "expected"), [
    (0, N), (22, N), (23, NE), (67, NE), (68, E), (-10, N), (350, N), (337, NW), (338, N),
    (200, S), (203, SW), (293, NW),
])
def test_from_bearing_snaps_to_the_nearest_of_eight(degrees: float, expected: Direction
                                                    ) -> None:
    assert Direction.from_bearing(degrees) is expected


def test_bearing_is_clockwise_from_north_with_y_down() -> None:
    assert bearing((0, 0), (0, -1)) == pytest.approx(0)
    assert bearing((0, 0), (1, 0)) == pytest.approx(90)
    assert bearing((0, 0), (0, 1)) == pytest.approx(180)
    assert bearing((0, 0), (-1, 0)) == pytest.approx(270)


def test_footprint_cells_start_top_left() -> None:
    assert list(Footprint(2, 3, 1).cells()) == [Cell(2, 3)]
    assert list(Footprint(2, 3, 2).cells()) == [Cell(2, 3), Cell(3, 3), Cell(2, 4), Cell(3, 4)]
    assert len(list(Footprint(0, 0, 4).cells())) == 16


def test_footprint_moved_and_centre() -> None:
    assert Footprint(2, 2, 2).moved(SW, 3) == Footprint(-1, 5, 2)
    assert Footprint(1, 1, 1).centre == (1.5, 1.5)
    assert Footprint(1, 1, 3).centre == (2.5, 2.5)


@pytest.mark.parametrize(("a", "b", "gap"), [
    (Footprint(0, 0, 1), Footprint(1, 0, 1), 0),
    (Footprint(0, 0, 1), Footprint(1, 1, 1), 0),
    (Footprint(0, 0, 1), Footprint(2, 0, 1), 1),
    (Footprint(0, 0, 1), Footprint(2, 2, 1), 1),
    (Footprint(0, 0, 1), Footprint(0, 0, 1), -1),
    (Footprint(0, 0, 2), Footprint(1, 1, 1), -1),
    (Footprint(0, 0, 2), Footprint(2, 1, 1), 0),
    (Footprint(0, 0, 2), Footprint(-1, -1, 1), 0),
    (Footprint(0, 0, 3), Footprint(5, 1, 2), 2),
    (Footprint(0, 0, 2), Footprint(2, 2, 2), 0),
])
def test_gap_overlap_and_adjacency(a: Footprint, b: Footprint, gap: int) -> None:
    assert a.gap(b) == gap == b.gap(a)
    assert a.overlaps(b) == (gap < 0)
    assert a.adjacent(b) == (gap == 0)


@pytest.mark.parametrize(("attacker", "defender", "away"), [
    (Footprint(0, 1, 1), Footprint(1, 1, 1), E),
    (Footprint(1, 1, 1), Footprint(0, 1, 1), W),
    (Footprint(1, 2, 1), Footprint(1, 1, 1), N),
    (Footprint(0, 0, 1), Footprint(1, 1, 1), SE),
    (Footprint(2, 0, 1), Footprint(1, 1, 1), SW),
    # a Large attacker beside a Medium defender level with its top row still pushes E
    (Footprint(0, 0, 2), Footprint(2, 0, 1), E),
    # a Medium attacker at the side of a Large defender pushes it straight across
    (Footprint(0, 1, 1), Footprint(1, 0, 2), E),
])
def test_straight_away_snaps_centre_to_centre(attacker: Footprint, defender: Footprint,
                                              away: Direction) -> None:
    assert straight_away(attacker, defender) is away


def test_allowed_directions_within_90_degrees_include_the_perpendiculars() -> None:
    assert allowed_directions(Footprint(0, 1, 1), Footprint(1, 1, 1), 90) == (N, NE, E, SE, S)
    assert allowed_directions(Footprint(0, 0, 1), Footprint(1, 1, 1), 90) == (NE, E, SE, S, SW)
    assert allowed_directions(Footprint(0, 1, 1), Footprint(1, 1, 1), 45) == (NE, E, SE)
    assert allowed_directions(Footprint(0, 1, 1), Footprint(1, 1, 1), 0) == (E,)


@pytest.mark.parametrize(("steps", "rule", "costs"), [
    ([E, E, E], DiagonalRule.FIVE_TEN_FIVE, [5, 5, 5]),
    ([NE, NE, NE, NE], DiagonalRule.FIVE_TEN_FIVE, [5, 10, 5, 10]),
    # the diagonal count carries across straight steps
    ([NE, E, NE, E, SE], DiagonalRule.FIVE_TEN_FIVE, [5, 5, 10, 5, 5]),
    ([NE, NE, NE], DiagonalRule.FIVE, [5, 5, 5]),
])
def test_step_costs(steps: list[Direction], rule: DiagonalRule, costs: list[int]) -> None:
    assert list(step_costs_ft(steps, 5, rule)) == costs


@pytest.mark.parametrize(("steps", "rule", "cell_ft", "total"), [
    ([NE, NE, NE], DiagonalRule.FIVE_TEN_FIVE, 5, 20),
    ([SE, SE], DiagonalRule.FIVE_TEN_FIVE, 5, 15),
    ([SE], DiagonalRule.FIVE_TEN_FIVE, 5, 5),
    ([SE, SE, SE, SE, SE], DiagonalRule.FIVE_TEN_FIVE, 5, 35),
    ([SE, SE, SE], DiagonalRule.FIVE, 5, 15),
    ([N, N], DiagonalRule.EUCLIDEAN, 5, 10),
    ([NE, NE, NE], DiagonalRule.FIVE_TEN_FIVE, 10, 40),
    ([], DiagonalRule.FIVE_TEN_FIVE, 5, 0),
])
def test_path_cost(steps: list[Direction], rule: DiagonalRule, cell_ft: int, total: int) -> None:
    cost = path_cost_ft(steps, cell_ft, rule)
    assert cost == total
    assert isinstance(cost, int)


def test_euclidean_diagonal_is_root_two_cells() -> None:
    assert path_cost_ft([NE, NE], 5, DiagonalRule.EUCLIDEAN) == pytest.approx(10 * math.sqrt(2))


def test_direction_between_neighbours_and_not() -> None:
    assert direction_between(Cell(3, 3), Cell(4, 2)) is NE
    assert direction_between(Cell(3, 3), Cell(3, 4)) is S
    with pytest.raises(ValueError, match="not neighbours"):
        direction_between(Cell(3, 3), Cell(5, 3))
    with pytest.raises(ValueError, match="not neighbours"):
        direction_between(Cell(3, 3), Cell(3, 3))
