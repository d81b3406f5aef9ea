"""Cover from the map (002 "Cover & concealment", RD "Cover from the map"): hand-drawn maps
with figures worked out by hand, the exact area against dense sampling, and the property
that a wall added never takes cover away."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter
from core.model.grid import Cell, Footprint
from core.model.mapmodel import BattleMap, WallKind, WallSegment
from core.rules.cover import cover_bonus, cover_on_map
from core.spatial.cover import Crowd, cells_crossed, cover_shape, origin_cell
from core.spatial.flight import flight_ends
from core.spatial.geometry import MapGeometry, geometry_of

FOE = Combatant(name="Orc", side=Side.OPPOSITION)

# An archer (T, the target) stands north; the shooter (A) far south in the same column.
COLUMN = """
    . . . . .
    . . T . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    . . A . .
"""


def test_archer_behind_half_a_wall_has_half_cover(make_encounter: Callable[..., Encounter]
                                                  ) -> None:
    # The wall covers the left half of the archer's near side. Every ray from (2.5, 11.5)
    # to a point left of x = 2.5 crosses y = 2 between x = 2 and 2.5: exactly 50 % hidden.
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(2, 2, 2.5, 2)])
    report = cover_on_map(encounter, "A", "T")
    assert abs(report.percent - 50) <= 5
    assert report.percent == 50 and report.bonus == 3  # ⌈50 / 20⌉
    assert [b.kind for b in report.blockers] == ["wall"]
    assert report.line_of_fire and not report.arrow_slit


def test_arrow_slit_gives_plus_ten(make_encounter: Callable[..., Encounter]) -> None:
    # A slit 0.04 wide centred on the line: the visible strip widens from 0.04 at the near
    # side to 0.04 × 10.5 / 9.5 at the far side: 0.04 × 10 / 9.5 = 4.2 % of the square.
    encounter = make_encounter(COLUMN, {"T": FOE},
                               walls=[(0, 2, 2.48, 2), (2.52, 2, 5, 2)])
    report = cover_on_map(encounter, "A", "T")
    assert report.visible_percent == pytest.approx(0.04 * 10 / 9.5 * 100, abs=0.01)
    assert report.arrow_slit and report.bonus == 10
    assert cover_bonus(report.percent, encounter.profile) == 5  # the formula alone


def test_a_whole_wall_leaves_no_line_of_fire(make_encounter: Callable[..., Encounter]
                                            ) -> None:
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(0, 2, 5, 2)])
    report = cover_on_map(encounter, "A", "T")
    assert not report.line_of_fire and report.visible_percent == 0


@pytest.mark.parametrize(("kind", "covers"), [
    ("wall", True), ("door", True), ("object", True), ("window", False), ("open door", False),
])
def test_what_covers(make_encounter: Callable[..., Encounter], kind: str, covers: bool
                     ) -> None:
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(2, 2, 2.5, 2, kind)])
    assert cover_on_map(encounter, "A", "T").percent == (50 if covers else 0)


def test_a_creature_covers_with_its_whole_square(make_encounter: Callable[..., Encounter]
                                                ) -> None:
    # A Large target; an orc stands square in front of its left half. Seen from 38 cells
    # off the rays are nearly parallel: about half of the target is hidden.
    picture = "\n".join(["....."] + ["TT..."] * 2 + ["O...."] + ["....."] * 36 + [".A..."])
    encounter = make_encounter(picture, {"T": Combatant(name="Ogre", size="large",
                                                        side=Side.OPPOSITION), "O": FOE})
    report = cover_on_map(encounter, "A", "T")
    assert abs(report.percent - 50) <= 5
    assert [(b.kind, b.label) for b in report.blockers] == [("creature", "Orc")]


def test_undergrowth_conceals_20_percent(make_encounter: Callable[..., Encounter]) -> None:
    in_it = make_encounter(COLUMN, {"T": FOE}, under={"T": "u"})
    assert cover_on_map(in_it, "A", "T").percent == 20
    on_line = make_encounter(COLUMN.replace(". . . . .\n    . . A", ". . u . .\n    . . A"),
                             {"T": FOE})
    report = cover_on_map(on_line, "A", "T")
    assert report.percent == 20 and report.bonus == 1 and report.concealing == (Cell(2, 10),)
    shooter_in_it = make_encounter(COLUMN, {"T": FOE}, under={"A": "u"})
    assert cover_on_map(shooter_in_it, "A", "T").percent == 0


def test_concealment_adds_to_walls_and_caps_at_100(make_encounter: Callable[..., Encounter]
                                                  ) -> None:
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(2, 2, 2.5, 2)], under={"T": "u"})
    report = cover_on_map(encounter, "A", "T")
    assert report.percent == 70 and report.bonus == 4
    slit = make_encounter(COLUMN, {"T": FOE}, walls=[(0, 2, 2.48, 2), (2.52, 2, 5, 2)],
                          under={"T": "u"})
    assert cover_on_map(slit, "A", "T").percent == 100  # still a line of fire (the slit)


def test_the_gm_overrides_the_figure(make_encounter: Callable[..., Encounter]) -> None:
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(2, 2, 2.5, 2)])
    assert cover_on_map(encounter, "A", "T", override=10).bonus == 1
    assert cover_on_map(encounter, "A", "T", override=97).arrow_slit
    assert not cover_on_map(encounter, "A", "T", override=100).line_of_fire


def test_origin_is_the_attackers_cell_nearest_the_target() -> None:
    assert origin_cell(Footprint(0, 0, 2), Footprint(5, 0, 1)) == Cell(1, 0)
    assert origin_cell(Footprint(4, 4, 3), Footprint(0, 9, 1)) == Cell(4, 6)


def test_cells_crossed_follow_the_line() -> None:
    assert cells_crossed((0.5, 0.5), (3.5, 0.5)) == [Cell(0, 0), Cell(1, 0), Cell(2, 0),
                                                     Cell(3, 0)]
    assert cells_crossed((0.5, 0.5), (2.5, 1.5)) == [Cell(0, 0), Cell(1, 0), Cell(1, 1),
                                                     Cell(2, 1)]


# --- exactness -------------------------------------------------------------------------------
def _sampled_visible(geometry: MapGeometry, origin: tuple[float, float], target: Footprint,
                     squares: list[tuple[str, Footprint]], n: int = 160) -> float:
    """The visible share from n × n sample points (the clarification's other method)."""
    rows = [geometry.sight_segments()]
    for _, (x, y, s) in squares:
        rows.append(np.array([[x, y, x + s, y], [x + s, y, x + s, y + s],
                              [x + s, y + s, x, y + s], [x, y + s, x, y]], dtype=float))
    segments = np.vstack(rows)
    steps = (np.arange(n) + 0.5) / n * target.size
    px, py = np.meshgrid(target.x + steps, target.y + steps)
    dx, dy = px.ravel() - origin[0], py.ravel() - origin[1]
    blocked = np.zeros(dx.size, dtype=bool)
    for x1, y1, x2, y2 in segments:
        ex, ey = x2 - x1, y2 - y1
        denom = dx * ey - dy * ex
        ok = np.abs(denom) > 1e-12
        safe = np.where(ok, denom, 1.0)
        t = ((x1 - origin[0]) * ey - (y1 - origin[1]) * ex) / safe
        u = ((x1 - origin[0]) * dy - (y1 - origin[1]) * dx) / safe
        blocked |= ok & (t > 1e-12) & (t <= 1) & (u >= 0) & (u <= 1)
    return float(1 - blocked.mean())


def _random_scene(rng: random.Random) -> tuple[MapGeometry, tuple[float, float], Footprint,
                                                list[tuple[str, Footprint]]]:
    walls = [WallSegment(x1=(x := rng.uniform(0, 12)), y1=(y := rng.uniform(0, 12)),
                         x2=x + rng.uniform(-3, 3), y2=y + rng.uniform(-3, 3),
                         kind=rng.choice(list(WallKind))) for _ in range(rng.randint(0, 8))]
    size = rng.choice((1, 1, 2, 3))
    target = Footprint(rng.randint(0, 10), rng.randint(0, 10), size)
    origin = Footprint(rng.randint(0, 13), rng.randint(0, 13), 1)
    while origin.gap(target) < 0:
        origin = Footprint(rng.randint(0, 13), rng.randint(0, 13), 1)
    squares = [(f"c{i}", square) for i in range(rng.randint(0, 3))
               if (square := Footprint(rng.randint(0, 12), rng.randint(0, 12), 1)).gap(
                   target) >= 0 and square.gap(origin) >= 0]
    return (MapGeometry(BattleMap(width=14, height=14, walls=walls)),
            (origin.x + 0.5, origin.y + 0.5), target, squares)


def _area(quad: tuple[tuple[float, float], ...]) -> float:
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2)
                   in zip(quad, (*quad[1:], quad[0]), strict=True))) / 2


def test_the_exact_area_agrees_with_dense_sampling() -> None:
    rng = random.Random(3)
    for _ in range(60):
        geometry, origin, target, squares = _random_scene(rng)
        shape = cover_shape(geometry, origin, target, Crowd(squares))
        assert shape.visible == pytest.approx(
            _sampled_visible(geometry, origin, target, squares), abs=0.01)
        hidden = 1 - shape.visible
        assert sum(s.share for s in shape.shadows) == pytest.approx(hidden, abs=1e-9)
        area = sum(_area(q) for q in shape.hidden) / target.size ** 2
        assert area == pytest.approx(hidden, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), x1=st.floats(0, 14), y1=st.floats(0, 14),
       x2=st.floats(0, 14), y2=st.floats(0, 14))
def test_a_wall_added_never_reduces_cover(seed: int, x1: float, y1: float, x2: float,
                                          y2: float) -> None:
    geometry, origin, target, squares = _random_scene(random.Random(seed))
    before = cover_shape(geometry, origin, target, Crowd(squares)).visible
    geometry.add_wall(WallSegment(x1=x1, y1=y1, x2=x2, y2=y2))
    after = cover_shape(geometry, origin, target, Crowd(squares)).visible
    assert after <= before + 1e-9


@settings(max_examples=60, deadline=None)
@given(offset=st.floats(0, 1), length=st.floats(0.05, 3), depth=st.integers(3, 9))
def test_a_wall_between_never_lowers_the_cover_percentage(
        make_encounter: Callable[..., Encounter], offset: float, length: float, depth: int
) -> None:
    encounter = make_encounter(COLUMN, {"T": FOE}, walls=[(1, 4, 2.2, 4)])
    before = cover_on_map(encounter, "A", "T").percent
    encounter.map.walls.append(WallSegment(x1=1 + offset, y1=depth, x2=1 + offset + length,
                                           y2=depth))
    encounter.drop_derived()
    assert cover_on_map(encounter, "A", "T").percent >= before


# --- where a flight ends -------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "is_open", "stops"), [
    (WallKind.WALL, False, True), (WallKind.DOOR, False, True), (WallKind.OBJECT, False, True),
    (WallKind.DOOR, True, False), (WallKind.WINDOW, False, False)])
def test_what_stops_a_flight(kind: WallKind, is_open: bool, stops: bool) -> None:
    wall = WallSegment(x1=5, y1=0, x2=5, y2=10, kind=kind, open=is_open)
    geometry = geometry_of(Encounter(map=BattleMap(width=10, height=10, walls=[wall])))
    ends, rows = flight_ends(geometry, (1.5, 1.5), np.array([[8.5, 1.5]]))
    assert bool(rows[0] >= 0) is stops
    assert bool(ends[0][0] < 5) is stops and ends[0][1] == pytest.approx(1.5)
