"""Properties of retreats (002 "Morale": "Disengage and retreat running") on random maps.

For every creature of a side that checks morale, whatever subset of them runs:

* each walk is king's steps that cross no movement-blocking wall or closed door (the exact
  segment test of ``touches``, not the geometry index), its footprint whole, never split by
  a wall and on the map, never on an enemy, never stepping into a hazard;
* each step keeps or increases the distance to every enemy still fighting, and a step from
  beside one moves off from it;
* the walk costs at most the budget;
* the runners end apart from each other and from everyone who stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise

import numpy as np
from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint, direction_between, distance_ft
from core.model.mapmodel import BattleMap, Hazard, HazardKind, WallSegment
from core.model.profile import DiagonalRule, RulesProfile
from core.model.tables import SIZES, Size
from core.rules.morale import checkers, fighting, other, retreat_budget_ft, retreat_plans
from core.spatial.geometry import geometry_of
from core.spatial.retreat import Threats, distances_ft

Segment = tuple[float, float, float, float]
Touches = Callable[[Segment, Segment], bool]


@st.composite
def battles(draw: st.DrawFn) -> Encounter:
    """A small walled map with a few creatures of each side, some of them down."""
    width, height = draw(st.integers(4, 10)), draw(st.integers(3, 8))
    rule = draw(st.sampled_from(list(DiagonalRule)))
    walls = draw(st.lists(st.builds(
        _wall, st.integers(0, width), st.integers(0, height), st.integers(1, 4), st.booleans(),
        st.sampled_from(["wall", "wall", "door", "window", "object"])), max_size=10))
    cells = draw(st.lists(st.builds(Cell, st.integers(0, width - 1),
                                    st.integers(0, height - 1)), max_size=4, unique=True))
    hazards = [Hazard(name="Fire", kind=HazardKind.FIRE, cells=tuple(cells))] if cells else []
    encounter = Encounter(profile=RulesProfile(diagonal_rule=rule),
                          map=BattleMap(width=width, height=height, walls=walls,
                                        hazards=hazards))
    for index in range(draw(st.integers(2, 7))):
        side = Side.OPPOSITION if index % 2 == 0 else Side.PARTY
        size = draw(st.sampled_from([Size.MEDIUM, Size.MEDIUM, Size.SMALL, Size.LARGE]))
        combatant = Combatant(name=f"T{index}", side=side, size=size,
                              hp=draw(st.sampled_from([8, 8, 8, 0])))
        spots = [Cell(x, y) for x in range(width) for y in range(height)
                 if encounter.can_place(footprint := Footprint(x, y, SIZES[size].footprint))
                 and not geometry_of(encounter).footprint_split(footprint)]
        if spots:
            encounter.add_token(Token(id=f"T{index}", combatant=combatant,
                                      **draw(st.sampled_from(spots))._asdict()))
    if not checkers(encounter, Side.OPPOSITION):
        reject()
    encounter.timeline.current_segment = draw(st.integers(0, 10))  # budget: the round left
    return encounter


def _wall(x: int, y: int, length: int, across: bool, kind: str) -> WallSegment:
    """A wall of ``length`` cells from grid point (x, y), across (east) or down."""
    return WallSegment(x1=x, y1=y, x2=x + length * across, y2=y + length * (not across),
                       kind=kind)


def crossings(cells: tuple[Cell, ...], size: int) -> Iterator[Segment]:
    """The centre-to-centre segments a walk's footprint sweeps, and those inside it."""
    for here, there in pairwise(cells):
        dx, dy = direction_between(here, there).delta
        yield from ((c.x + .5, c.y + .5, c.x + dx + .5, c.y + dy + .5)
                    for c in Footprint(here.x, here.y, size).cells())
    for cell in cells:
        for c in Footprint(cell.x, cell.y, size).cells():
            if c.x + 1 < cell.x + size:
                yield c.x + .5, c.y + .5, c.x + 1.5, c.y + .5
            if c.y + 1 < cell.y + size:
                yield c.x + .5, c.y + .5, c.x + .5, c.y + 1.5


@settings(max_examples=150, deadline=None)
@given(battles(), st.data())
def test_retreats_are_legal_walks_away_that_never_overlap(touches: Touches, encounter: Encounter,
                                                          data: st.DataObject) -> None:
    profile = encounter.profile
    plans = retreat_plans(encounter, Side.OPPOSITION)
    enemies = [t for t in encounter.tokens if t.combatant.side is other(Side.OPPOSITION)]
    threats = [t.footprint for t in enemies if fighting(t.combatant)]
    blocking = [w.points for w in encounter.map.walls if w.blocks_movement]
    for token_id, plan in plans.items():
        size = encounter.token(token_id).footprint.size
        assert plan.cells[0] == encounter.token(token_id).cell
        assert plan.cost_ft <= retreat_budget_ft(encounter)
        assert not any(touches(s, w) for s in crossings(plan.cells, size) for w in blocking)
        burning = [any(encounter.map.hazard_at(c) for c in Footprint(*cell, size).cells())
                   for cell in plan.cells]
        assert not any(b and not a for a, b in pairwise(burning))  # never steps into fire
        for cell in plan.cells:
            footprint = Footprint(cell.x, cell.y, size)
            assert encounter.map.contains_footprint(footprint)
            assert not any(footprint.overlaps(e.footprint) for e in enemies)
        for threat in threats:
            steps = [distance_ft(Footprint(c.x, c.y, size), threat, profile.cell_size_ft,
                                 profile.diagonal_rule) for c in plan.cells]
            for a, b in pairwise(steps):
                assert b > a if a < 2 * profile.cell_size_ft else b >= a, (token_id, steps)
    event(f"{sum(len(p.cells) > 1 for p in plans.values())} of {len(plans)} run")
    runners = data.draw(st.sets(st.sampled_from(sorted(plans))))
    moved = [encounter.token(t).at(plans[t].end) for t in runners]
    assert encounter.placement_problem(moved) is None
    assert not any(geometry_of(encounter).footprint_split(t.footprint) for t in moved)


footprints = st.builds(Footprint, st.integers(0, 12), st.integers(0, 12), st.integers(1, 4))


@given(footprints, footprints, st.sampled_from(list(DiagonalRule)))
def test_distance_fields_equal_the_grid_distance(mover: Footprint, threat: Footprint,
                                                 rule: DiagonalRule) -> None:
    field = distances_ft(np.array([[mover.x]]), np.array([[mover.y]]), mover.size,
                         Threats([threat]), cell_ft=5, rule=rule)
    assert abs(float(field[0, 0, 0]) - distance_ft(mover, threat, 5, rule)) < 1e-9
