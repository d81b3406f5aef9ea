"""Map geometry: segment intersection, which moves walls block, line of sight, the wall index,
and incremental wall edits.

Expected values come from an exact rational oracle (``touches`` in conftest) or from a brute
force over every wall of the map, never from the index under test.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model.grid import Cell, Direction, Footprint
from core.model.mapmodel import BattleMap, WallKind, WallSegment
from core.spatial.geometry import MapGeometry, segments_intersect

Segment = tuple[float, float, float, float]
Touches = Callable[[Segment, Segment], bool]


def geometry_of(width: int, height: int, *walls: WallSegment) -> MapGeometry:
    return MapGeometry(BattleMap(width=width, height=height, walls=list(walls)))


def seg(x1: float, y1: float, x2: float, y2: float, *, kind: WallKind = WallKind.WALL,
        is_open: bool = False) -> WallSegment:
    return WallSegment(x1=x1, y1=y1, x2=x2, y2=y2, kind=kind, open=is_open)


# --- segments_intersect ------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "meet"), [
    pytest.param((0, 0, 2, 2), (0, 2, 2, 0), True, id="crossing"),
    pytest.param((0, 0, 1, 1), (1, 1, 2, 0), True, id="end-to-end"),
    pytest.param((0, 1, 2, 1), (1, 0, 1, 1), True, id="T-touching-end"),
    pytest.param((0.5, 0.5, 1.5, 1.5), (1, 0, 1, 1), True, id="diagonal-through-wall-end"),
    pytest.param((0, 0, 2, 0), (1, 0, 3, 0), True, id="collinear-overlap"),
    pytest.param((0, 0, 1, 0), (1, 0, 2, 0), True, id="collinear-touching"),
    pytest.param((0, 0, 3, 0), (1, 0, 2, 0), True, id="collinear-contained"),
    pytest.param((0, 0, 1, 0), (2, 0, 3, 0), False, id="collinear-apart"),
    pytest.param((0, 0, 1, 0), (0, 1, 1, 1), False, id="parallel-apart"),
    pytest.param((0, 0, 1, 1), (0, 1, 1, 2), False, id="parallel-diagonals"),
    pytest.param((0, 1, 2, 1), (1, 0, 1, 0.999), False, id="T-short-by-a-hair"),
    pytest.param((0.5, 0.5, 1.5, 1.5), (1, 0, 1, 0.9), False, id="diagonal-misses-short-wall"),
    pytest.param((0, 0, 2, 2), (1, 1, 1, 1), True, id="segment-through-a-point"),
    pytest.param((0, 0, 2, 0), (1, 1, 1, 1), False, id="segment-beside-a-point"),
])
def test_segments_intersect_cases(touches: Touches, a: Segment, b: Segment, meet: bool
                                  ) -> None:
    assert touches(a, b) == meet  # the oracle agrees with the hand-made expectation
    assert segments_intersect(a, b) == meet
    assert segments_intersect((a[2], a[3], a[0], a[1]), b) == meet
    assert segments_intersect(b, a) == meet


def test_a_point_on_a_segment_meets_it() -> None:
    # e.g. line_of_sight(p, p) for a point p on a wall, or a zero-length probe
    assert segments_intersect((1, 1, 1, 1), (0, 0, 2, 2))


half = st.integers(-8, 8).map(lambda v: v / 2)
segments = st.tuples(half, half, half, half)


@settings(max_examples=300, deadline=None)
@given(segments.filter(lambda s: s[:2] != s[2:]), segments)
def test_segments_intersect_agrees_with_exact_oracle(touches: Touches, a: Segment, b: Segment
                                                     ) -> None:
    # half-integer coordinates are exact in binary floating point; a zero-length first
    # segment is a known bug (test_a_point_on_a_segment_meets_it)
    assert segments_intersect(a, b) == touches(a, b)


# --- moves blocked by walls --------------------------------------------------------------

def test_wall_between_cells_blocks_both_ways_and_only_there() -> None:
    g = geometry_of(4, 3, seg(2, 0, 2, 3))
    for y in range(3):
        assert g.move_blocked(Cell(1, y), Direction.E)
        assert g.move_blocked(Cell(2, y), Direction.W)
        assert not g.move_blocked(Cell(0, y), Direction.E)
        assert not g.move_blocked(Cell(2, y), Direction.E)
    assert g.move_blocked(Cell(1, 1), Direction.NE)
    assert g.move_blocked(Cell(2, 1), Direction.SW)
    assert not g.move_blocked(Cell(1, 1), Direction.N)


def test_diagonal_past_a_wall_end_is_blocked_at_the_corner() -> None:
    # wall from (2, 0) to (2, 1): its end is the corner shared by cells (1,0) (2,0) (1,1) (2,1)
    g = geometry_of(4, 3, seg(2, 0, 2, 1))
    assert g.move_blocked(Cell(1, 1), Direction.NE)   # passes through the wall's end point
    assert g.move_blocked(Cell(2, 0), Direction.SW)
    assert not g.move_blocked(Cell(1, 1), Direction.E)  # the wall stops above row 1
    assert g.move_blocked(Cell(1, 0), Direction.SE)  # also through the end point
    assert not g.move_blocked(Cell(1, 2), Direction.NE)


@pytest.mark.parametrize(("kind", "is_open", "blocks_move", "blocks_sight"), [
    (WallKind.WALL, False, True, True),
    (WallKind.DOOR, False, True, True),
    (WallKind.DOOR, True, False, False),
    (WallKind.WINDOW, False, True, False),
    (WallKind.OBJECT, False, False, True),
])
def test_wall_kinds_block_moves_and_sight(kind: WallKind, is_open: bool, blocks_move: bool,
                                          blocks_sight: bool) -> None:
    g = geometry_of(4, 3, seg(2, 0, 2, 3, kind=kind, is_open=is_open))
    assert g.move_blocked(Cell(1, 1), Direction.E) is blocks_move
    assert g.line_of_sight((0.5, 1.5), (3.5, 1.5)) is not blocks_sight
    assert g.line_of_sight((0.5, 1.5), (1.5, 0.5))  # a line that stays west of the wall


def test_blocking_wall_reports_the_door() -> None:
    door = seg(2, 1, 2, 2, kind=WallKind.DOOR)
    g = geometry_of(4, 3, seg(2, 0, 2, 1), door, seg(2, 2, 2, 3))
    assert g.blocking_wall(Footprint(1, 1, 1), Direction.E) == door
    assert g.blocking_wall(Footprint(0, 1, 1), Direction.E) is None


def test_footprint_moves_and_splits() -> None:
    # a short wall to the east of the lower row of a Large footprint at (0, 0)
    g = geometry_of(5, 4, seg(2, 1, 2, 2))
    large = Footprint(0, 0, 2)
    assert g.footprint_move_blocked(large, Direction.E)
    assert not g.footprint_move_blocked(Footprint(0, 2, 2), Direction.E)
    assert not g.footprint_split(large)
    assert g.footprint_split(Footprint(1, 0, 2))  # the wall now runs through the footprint
    assert not g.footprint_split(Footprint(2, 0, 2))


def test_open_moves_closes_the_map_edges() -> None:
    g = geometry_of(3, 2)
    moves = g.open_moves()
    e, n, sw = (list(Direction).index(d) for d in (Direction.E, Direction.N, Direction.SW))
    assert moves[e].tolist() == [[True, True, False], [True, True, False]]
    assert moves[n].tolist() == [[False, False, False], [True, True, True]]
    assert moves[sw].tolist() == [[False, True, True], [False, False, False]]


coordinate = st.integers(-1, 7)
wall_kinds = st.sampled_from(list(WallKind))


@st.composite
def walls(draw: st.DrawFn, lo: int = -1, hi: int = 7, fractional: bool = False
          ) -> WallSegment:
    points = st.integers(lo * 2, hi * 2).map(lambda v: v / 2) if fractional else \
        st.integers(lo, hi)
    return seg(draw(points), draw(points), draw(points), draw(points), kind=draw(wall_kinds),
               is_open=draw(st.booleans()))


def brute_blockers(battle_map: BattleMap, touches: Touches) -> np.ndarray:
    """(8, H, W) counts of movement-blocking walls touching each centre-to-centre step."""
    out = np.zeros((8, battle_map.height, battle_map.width), dtype=int)
    for d, direction in enumerate(Direction):
        dx, dy = direction.delta
        for y in range(battle_map.height):
            for x in range(battle_map.width):
                if not battle_map.contains(Cell(x + dx, y + dy)):
                    continue
                step = (x + 0.5, y + 0.5, x + dx + 0.5, y + dy + 0.5)
                out[d, y, x] = sum(1 for w in battle_map.walls
                                   if w.blocks_movement and touches(step, w.points))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.lists(walls(fractional=True), max_size=6))
def test_blockers_match_brute_force_over_every_step(touches: Touches, width: int, height: int,
                                                    wall_list: list[WallSegment]) -> None:
    battle_map = BattleMap(width=width, height=height, walls=wall_list)
    g = MapGeometry(battle_map)
    np.testing.assert_array_equal(g.blockers, brute_blockers(battle_map, touches))


@settings(max_examples=60, deadline=None)
@given(st.lists(walls(fractional=True), max_size=6), st.lists(walls(), max_size=6),
       st.data())
def test_incremental_wall_edits_equal_a_rebuild(start: list[WallSegment],
                                                added: list[WallSegment],
                                                data: st.DataObject) -> None:
    battle_map = BattleMap(width=6, height=5, walls=list(start))
    g = MapGeometry(battle_map)
    for wall in added:
        g.add_wall(wall)
    current = start + added
    removed = data.draw(st.lists(st.sampled_from(current), unique_by=id, max_size=len(current))
                        if current else st.just([]))
    for wall in removed:
        g.remove_wall(wall)
        current.remove(wall)
    rebuilt = MapGeometry(BattleMap(width=6, height=5, walls=current))
    np.testing.assert_array_equal(g.blockers, rebuilt.blockers)
    # the index answers like the rebuilt one for a few sight lines across the map
    for a, b in [((0.5, 0.5), (5.5, 4.5)), ((0.5, 4.5), (5.5, 0.5)), ((3, 0), (3, 5))]:
        assert g.line_of_sight(a, b) == rebuilt.line_of_sight(a, b)


def test_removing_one_of_two_identical_walls_keeps_the_other() -> None:
    wall = seg(2, 0, 2, 3)
    g = geometry_of(4, 3, wall, wall)
    g.remove_wall(wall)
    assert g.move_blocked(Cell(1, 1), Direction.E)
    assert g.line_of_sight((0.5, 1.5), (3.5, 1.5)) is False
    g.remove_wall(wall)
    assert not g.move_blocked(Cell(1, 1), Direction.E)
    assert g.line_of_sight((0.5, 1.5), (3.5, 1.5)) is True


# --- line of sight through the bucketed wall index ---------------------------------------

def test_long_sight_line_is_blocked_by_a_wall_many_buckets_away() -> None:
    g = geometry_of(40, 40, seg(30, 29, 31, 31))
    assert not g.line_of_sight((0.5, 0.5), (39.5, 39.5))
    assert g.line_of_sight((0.5, 0.5), (39.5, 0.5))
    assert not g.line_of_sight((39.5, 39.5), (0.5, 0.5))


def test_sight_line_along_a_bucket_boundary_finds_walls_on_both_sides() -> None:
    # x = 8 is a bucket boundary; walls touching the line from either side must be found
    left = geometry_of(16, 16, seg(7, 10, 8, 10))
    right = geometry_of(16, 16, seg(8, 12, 9, 12))
    for g in (left, right):
        assert not g.line_of_sight((8, 0.5), (8, 15.5))
        assert not g.line_of_sight((8, 15.5), (8, 0.5))
        assert g.line_of_sight((7.5, 0.5), (7.5, 9.5))


quarter = st.integers(-4, 164).map(lambda v: v / 4)
sight_walls = st.builds(seg, quarter, quarter, quarter, quarter, kind=wall_kinds,
                        is_open=st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(sight_walls, max_size=25), quarter, quarter, quarter, quarter)
def test_line_of_sight_matches_brute_force_over_all_walls(wall_list: list[WallSegment],
                                                          ax: float, ay: float, bx: float,
                                                          by: float) -> None:
    g = MapGeometry(BattleMap(width=40, height=40, walls=wall_list))
    line = (ax, ay, bx, by)
    expected = not any(w.blocks_sight and segments_intersect(line, w.points)
                       for w in wall_list)
    assert g.line_of_sight((ax, ay), (bx, by)) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(sight_walls, min_size=1, max_size=10),
       st.floats(0, 40, allow_nan=False), st.floats(0, 40, allow_nan=False),
       st.floats(0, 40, allow_nan=False), st.floats(0, 40, allow_nan=False))
def test_wall_index_finds_every_wall_a_float_line_meets(wall_list: list[WallSegment],
                                                       ax: float, ay: float, bx: float,
                                                       by: float) -> None:
    g = MapGeometry(BattleMap(width=40, height=40, walls=wall_list))
    line = (ax, ay, bx, by)
    near = set(g.walls_near(line))
    for wall in wall_list:
        if segments_intersect(line, wall.points):
            assert wall in near


def test_copies_of_a_wall_are_one_sight_row_until_the_last_goes() -> None:
    wall, door = seg(2, 0, 2, 3), seg(2, 0, 2, 3, kind=WallKind.DOOR)
    geometry = geometry_of(4, 4, *[wall] * 1000, door, seg(0, 1, 1, 1), wall)
    assert geometry.sight_walls() == (wall, door, seg(0, 1, 1, 1))
    assert geometry.sight_segments().tolist() == [[2, 0, 2, 3], [2, 0, 2, 3], [0, 1, 1, 1]]
    geometry.remove_walls([wall] * 1000)
    assert not geometry.line_of_sight((0.5, 0.5), (3.5, 0.5)) and wall in geometry.sight_walls()
    geometry.remove_walls([wall, door])
    assert geometry.sight_walls() == (seg(0, 1, 1, 1),)


def test_touching_a_sight_line_counts_as_blocking() -> None:
    # the wall ends exactly on the sight line
    g = geometry_of(10, 10, seg(5, 0, 5, 5))
    assert not g.line_of_sight((0.5, 5), (9.5, 5))
    assert g.line_of_sight((0.5, Fraction(51, 10).__float__()), (9.5, 5.1))


# --- cost bounded by the map, not by the walls' coordinates -------------------------------

far = st.one_of(st.integers(-60, 60).map(float), st.sampled_from([-1e4, 1e4, -9999.5, 9999.5]))
long_walls = st.builds(seg, far, far, far, far, kind=wall_kinds, is_open=st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.lists(long_walls, max_size=5))
def test_long_and_far_walls_block_exactly_the_steps_they_meet(touches: Touches, width: int,
                                                              height: int,
                                                              wall_list: list[WallSegment]
                                                              ) -> None:
    # walls far beyond the map are clipped to it (and long ones cut in pieces) before the
    # index and the counts see them: the counts still equal the exact oracle's
    battle_map = BattleMap(width=width, height=height, walls=wall_list)
    np.testing.assert_array_equal(MapGeometry(battle_map).blockers,
                                  brute_blockers(battle_map, touches))


@settings(max_examples=60, deadline=None)
@given(st.lists(long_walls, min_size=1, max_size=6), quarter, quarter, quarter, quarter)
def test_the_index_finds_long_and_far_walls_a_sight_line_meets(wall_list: list[WallSegment],
                                                               ax: float, ay: float, bx: float,
                                                               by: float) -> None:
    g = MapGeometry(BattleMap(width=40, height=40, walls=wall_list))
    near = set(g.walls_near((ax, ay, bx, by)))
    assert all(wall in near for wall in wall_list
               if segments_intersect((ax, ay, bx, by), wall.points))


def test_a_wall_far_away_or_across_everything_is_indexed_by_the_map_only() -> None:
    away = seg(5000, 5000, 1e4, 1e4)
    across = seg(-1e4, -1e4, 1e4, 1e4)  # the map's diagonal and 9,980 cells either side
    g = geometry_of(20, 20, away, across)
    entries = len(g._index)  # one per (wall, bucket)
    assert entries <= (20 // 4 + 2) * 3  # the diagonal's buckets across the map, no more
    assert g.move_blocked(Cell(0, 1), Direction.NE) and not g.move_blocked(Cell(0, 2), Direction.E)
    g.remove_wall(across)
    g.remove_wall(away)
    assert len(g._index) == 0
    assert not g.blockers.any()


def test_walls_stacked_past_the_int16_range_are_counted() -> None:
    wall = seg(2, 0, 2, 3)
    g = geometry_of(4, 3, *[wall] * 33_000)
    assert g.blockers.max() == 33_000 and g.move_blocked(Cell(1, 1), Direction.E)
    g.remove_wall(wall)
    assert g.blockers.max() == 32_999


@settings(max_examples=40, deadline=None)
@given(st.lists(long_walls, max_size=6), st.lists(long_walls, max_size=6), st.data())
def test_walls_added_and_removed_together_equal_a_rebuild(start: list[WallSegment],
                                                          added: list[WallSegment],
                                                          data: st.DataObject) -> None:
    g = MapGeometry(BattleMap(width=9, height=7, walls=list(start)))
    g.add_walls(added)
    current = start + added
    removed = data.draw(st.lists(st.sampled_from(current), unique_by=id, max_size=len(current))
                        if current else st.just([]))
    g.remove_walls(removed)
    for wall in removed:
        current.remove(wall)
    rebuilt = MapGeometry(BattleMap(width=9, height=7, walls=current))
    np.testing.assert_array_equal(g.blockers, rebuilt.blockers)
    for line in [(0.5, 0.5, 8.5, 6.5), (0.5, 6.5, 8.5, 0.5), (4, -1, 4, 8)]:
        assert set(g.walls_near(line)) == set(rebuilt.walls_near(line))
