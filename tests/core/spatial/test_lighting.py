"""Lit cells kept light by light: after any walls and lights changed, what is kept equals
what is computed afresh, and both equal a brute-force oracle; a change sweeps again only
the lights its walls may matter to."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions.commands import toggle_door
from core.actions.history import History
from core.actions.round import NextRound
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.mapmodel import (
    BattleMap,
    Darkness,
    Hazard,
    HazardKind,
    Light,
    WallKind,
    WallSegment,
)
from core.spatial import lighting
from core.spatial.lighting import (
    Lighting,
    LitUnion,
    changed_rows,
    hazard_lights,
    lamp,
    lit_union,
)
from core.spatial.sweep import BoolArray
from core.spatial.vision import lighting_inputs, lit_cells
from tests.core.spatial.test_vision import Segment, oracle

WIDTH, HEIGHT = 8, 7


def lit_by_oracle(walls: list[Segment], lights: tuple[Light, ...]) -> BoolArray:
    lit = np.zeros((HEIGHT, WIDTH), dtype=bool)
    ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH]
    for light in lights:
        near = (xs + 0.5 - light.x) ** 2 + (ys + 0.5 - light.y) ** 2 <= \
            light.range_cells ** 2 * (1 + 1e-9)
        lit |= near & oracle(walls, (light.x, light.y), WIDTH, HEIGHT)
    return lit


coordinate = st.integers(0, 4 * WIDTH).map(lambda n: n / 4)
walls_drawn = st.lists(st.tuples(st.integers(0, WIDTH), st.integers(0, HEIGHT),
                                 st.integers(-3, 3), st.booleans()).map(
    lambda t: (float(t[0]), float(t[1]), float(t[0] + t[2]), float(t[1]))
    if t[3] else (float(t[0]), float(t[1]), float(t[0]), float(t[1] + t[2]))), max_size=25)
lights_drawn = st.lists(st.builds(
    Light, x=st.integers(0, 4 * WIDTH).map(lambda n: n / 4),
    y=st.integers(0, 4 * HEIGHT).map(lambda n: n / 4),
    range_cells=st.sampled_from([0.0, 1.0, 2.5, 4.0, 100.0])), max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(walls_drawn, lights_drawn), min_size=1, max_size=5))
def test_kept_lighting_equals_lighting_afresh_and_the_oracle(
        states: list[tuple[list[Segment], list[Light]]]) -> None:
    """Walls and lights change from state to state (some kept, some gone, some new, some
    twice): the lighting kept through the changes is exact at each."""
    kept = Lighting()
    for walls, lights in states:
        segments = np.array(walls, dtype=np.float64).reshape(-1, 4)
        lit = kept.follow(segments, tuple(lights), (HEIGHT, WIDTH))
        assert (lit == lit_union(segments, tuple(lights), (HEIGHT, WIDTH))).all()
        assert (lit == lit_by_oracle(walls, tuple(lights))).all()
        assert (kept.counts >= 0).all() and ((kept.counts > 0) == lit).all()


def rooms() -> Encounter:
    """Two closed rooms, each with a door and a light inside: 0-9 and 20-29 across."""
    walls = []
    for left in (0, 20):
        walls += [WallSegment(x1=left, y1=0, x2=left + 10, y2=0),
                  WallSegment(x1=left, y1=10, x2=left + 10, y2=10),
                  WallSegment(x1=left, y1=0, x2=left, y2=10),
                  WallSegment(x1=left + 10, y1=0, x2=left + 10, y2=4),
                  WallSegment(x1=left + 10, y1=4, x2=left + 10, y2=5, kind=WallKind.DOOR),
                  WallSegment(x1=left + 10, y1=5, x2=left + 10, y2=10)]
    return Encounter(map=BattleMap(width=32, height=12, walls=walls, darkness=Darkness.DARK,
                                   lights=[Light(x=5, y=5, range_cells=100),
                                           Light(x=25, y=5, range_cells=100)]),
                     tokens=[Token(id="a", combatant=Combatant(name="A"), x=15, y=5)])


def test_a_door_sweeps_again_only_the_lights_that_may_see_it() -> None:
    encounter = rooms()
    kept = Lighting()
    kept.follow(*lighting_inputs(encounter))
    east_door = next(w for w in encounter.map.walls if w.kind is WallKind.DOOR and w.x1 == 30)
    history = History(encounter)
    history.push(toggle_door(east_door))
    inputs = lighting_inputs(encounter)
    assert kept.work(*inputs) == 32 * 12  # the east room's light, reaching the whole map
    before = dict(kept.areas)
    lit = kept.follow(*inputs)
    west = lamp(encounter.map.lights[0])
    assert kept.areas[west] is before[west]  # not swept again
    assert lit[4, 31] and not lit[5, 31]  # the open door lets the east room's light out
    assert (lit == lit_union(*inputs)).all()


def test_only_the_rows_that_changed_are_found() -> None:
    old = np.array([[0, 0, 1, 0], [1, 1, 2, 2], [0, 0, 1, 0]], dtype=np.float64)
    new = np.array([[1, 1, 2, 2], [0, 0, 1, 0], [3, 3, 4, 4], [0, 0, 1, 0]], dtype=np.float64)
    assert changed_rows(old, new).tolist() == [[3.0, 3.0, 4.0, 4.0]]
    assert changed_rows(old, old[:2]).tolist() == [[0.0, 0.0, 1.0, 0.0]]  # one twin gone


def test_a_patient_lighting_stands_until_its_keeper_brings_it_up_to_date() -> None:
    encounter = rooms()
    kept = encounter.derived(Lighting, lambda: Lighting(patient=True))
    dark = lit_cells(encounter)
    assert not dark.any() and lit_cells(encounter) is dark  # one array while it stands
    kept.follow(*lighting_inputs(encounter))
    assert lit_cells(encounter)[5, 5] and lit_cells(encounter) is kept.lit


def random_walls(rng: random.Random, count: int, size: tuple[int, int], longest: int
                 ) -> npt.NDArray[np.float64]:
    """``count`` seeded walls along grid lines, up to ``longest`` cells, on a map of
    ``size`` (width, height)."""
    walls = []
    for _ in range(count):
        x, y, run = rng.randint(0, size[0]), rng.randint(0, size[1]), rng.randint(
            -longest, longest)
        walls.append((x, y, x + run, y) if rng.random() < 0.5 else (x, y, x, y + run))
    return np.array(walls, dtype=np.float64)


def test_many_walls_and_lights_kept_equal_afresh() -> None:
    """The pre-cull (over 256 segments in reach) and far lights on a busy map."""
    rng = random.Random(3)
    segments = random_walls(rng, 900, (60, 60), 5)
    lights = tuple(Light(x=rng.uniform(0, 60), y=rng.uniform(0, 60),
                         range_cells=rng.choice([3.0, 10.0, 1000.0])) for _ in range(40))
    kept = Lighting()
    kept.follow(segments, lights, (60, 60))
    fewer = segments[5:]
    assert (kept.follow(fewer, lights, (60, 60)) == lit_union(fewer, lights, (60, 60))).all()


def brazier(light_cells: float = 2, cells: tuple[tuple[int, int], ...] = ((15, 2),)) -> Hazard:
    return Hazard(name="Brazier", kind=HazardKind.FIRE, cells=cells, light_cells=light_cells)


def test_a_light_giving_hazard_lights_the_dark_around_it_but_not_through_walls() -> None:
    """The corridor between the rooms is dark until a brazier burns in it by the west
    room's wall; the room (its light out, its door shut) stays dark."""
    encounter = rooms()
    del encounter.map.lights[0]
    assert not lit_cells(encounter)[2, 11]
    encounter.map.hazards.append(brazier(light_cells=3, cells=((11, 2),)))
    lit = lit_cells(encounter)
    assert lit[2, 11] and lit[2, 14] and lit[5, 11] and not lit[2, 15]  # 3 cells beyond
    assert not lit[:, :10].any()  # behind the wall, 1 and 2 cells from the brazier
    assert lit[2, 10]


def test_a_hazard_lights_from_its_middle_beyond_its_farthest_cell() -> None:
    fire = brazier(light_cells=1, cells=((2, 2), (3, 2), (4, 2)))
    assert hazard_lights([fire, brazier(light_cells=0)]) == (
        Light(x=3.5, y=2.5, range_cells=2.0),)


def test_a_timed_fires_light_goes_out_with_it() -> None:
    encounter = rooms()
    encounter.map.hazards.append(brazier().model_copy(update={"expires_after_round": 0}))
    assert lit_cells(encounter)[2, 15]
    History(encounter).push(NextRound())  # round 0 ends
    assert not encounter.map.hazards and not lit_cells(encounter)[2, 15]


@pytest.mark.parametrize(("ray_pairs", "batch_pairs"), [(0, 1), (10**9, 1), (10**9, 10**9),
                                                       (300, 2000)])
def test_lit_cells_worked_out_where_asked_equal_those_worked_out_at_once(
        monkeypatch: pytest.MonkeyPatch, ray_pairs: int, batch_pairs: int) -> None:
    """Each light tests only the cells of its range's box still dark, against the walls
    near that box, swept or as rays in batches (every light swept; every light's rays,
    tested light by light or all at once; a mix): asked for in parts (as the party's
    sight asks), from lights inside and on the map's edges, the lit cells are those of
    every light's full sweep."""
    monkeypatch.setattr(lighting, "RAY_PAIRS", ray_pairs)
    monkeypatch.setattr(lighting, "BATCH_PAIRS", batch_pairs)
    rng = random.Random(11)
    segments = random_walls(rng, 400, (40, 30), 4)
    lights = tuple(Light(x=rng.choice([0.0, rng.uniform(0, 40), 40.0]),
                         y=rng.choice([0.0, rng.uniform(0, 30), 30.0]),
                         range_cells=rng.choice([0.0, 1.0, 2.5, 6.0, 50.0]))
                   for _ in range(30))
    shape = (30, 40)
    union = LitUnion(segments, lights, shape)
    ys, xs = np.mgrid[0:30, 0:40]
    for part in (xs < 13, (ys + xs) % 3 == 0, None):
        union.within(part)
    assert (union.within(None) == Lighting().follow(segments, lights, shape)).all()
