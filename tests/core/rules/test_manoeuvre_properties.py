"""Properties of the melee manoeuvres on random small maps.

For forcing back, overruns, evading and throws, on any map hypothesis draws and for every
combination of the dice that decide where creatures end up:

* no walk crosses a movement-blocking wall or closed door (an exact segment test over every
  wall, not the geometry index) and every footprint stays whole and on the map;
* no two footprints overlap afterwards;
* the manoeuvre's exact odds equal the enumeration of scripted dice through its resolver
  (the tree of dice the resolver asks for, each face weighted 1/faces). Dice that cannot
  move anyone — damage, the stun check — are held at 1 to keep the tree small.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import pairwise
from typing import TypeVar

from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from core.model.combatant import Abilities, Combatant, Side
from core.model.dice import DiceExhaustedError, DiceSource, ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, direction_between
from core.model.mapmodel import BattleMap, Hazard, HazardEffect, HazardKind, WallSegment
from core.model.tables import SIZES, Size
from core.rules.evade import EvadeRequest, evade_odds, resolve_evade
from core.rules.force_back import ForceBackRequest, force_back_odds, resolve_force_back
from core.rules.grapple import (
    GrappleAttempt,
    GrappleBand,
    GrappleRequest,
    grapple_odds,
    resolve_grapple,
)
from core.rules.melee import IllegalManoeuvreError
from core.rules.overrun import OverrunRequest, overrun_odds, resolve_overrun
from core.spatial.geometry import geometry_of

R = TypeVar("R")
Segment = tuple[float, float, float, float]
Touches = Callable[[Segment, Segment], bool]
#: Dice that cannot move anyone: held at 1 in the enumeration.
STILL = ("damage", "stun check", "slam", "falling", "save", "automatic hit")


def every_outcome(resolve: Callable[[DiceSource], R]) -> Iterator[tuple[R, Fraction]]:
    """Every resolution and its probability, by walking the tree of dice asked for."""
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = resolve(ScriptedDice(prefix))
        except DiceExhaustedError as need:
            if any(word in need.purpose for word in STILL) and "Pit-Stop" not in need.purpose:
                stack.append(((*prefix, 1), p))
            else:
                stack += [((*prefix, v), p / need.faces) for v in range(1, need.faces + 1)]
            continue
        yield result, p


@st.composite
def scenes(draw: st.DrawFn) -> Encounter:
    """A small map with walls, a pit, and A next to an enemy B, plus a few others."""
    width, height = draw(st.integers(4, 8)), draw(st.integers(3, 6))
    walls = []
    for _ in range(draw(st.integers(0, 10))):
        x, y, length = draw(st.integers(0, width)), draw(st.integers(0, height)), \
            draw(st.integers(1, 3))
        end = (x + length, y) if draw(st.booleans()) else (x, y + length)
        kind = draw(st.sampled_from(["wall", "wall", "door", "window", "object"]))
        walls.append(WallSegment(x1=x, y1=y, x2=end[0], y2=end[1], kind=kind))
    pit = [Hazard(name="Pit", kind=HazardKind.PIT, effect=HazardEffect(fall_ft=10),
                  cells=tuple(draw(st.lists(st.builds(Cell, st.integers(0, width - 1),
                                                      st.integers(0, height - 1)),
                                            min_size=1, max_size=4, unique=True))))] \
        if draw(st.booleans()) else []
    encounter = Encounter(map=BattleMap(width=width, height=height, walls=walls, hazards=pit))
    a = _place(draw, encounter, "A", Side.PARTY, near=None)
    if a is None or _place(draw, encounter, "B", Side.OPPOSITION, near=a) is None:
        reject()
    for index in range(draw(st.integers(0, 3))):
        _place(draw, encounter, f"O{index}", draw(st.sampled_from(list(Side))), near=None)
    return encounter


def _place(draw: st.DrawFn, encounter: Encounter, name: str, side: Side,
           near: Token | None) -> Token | None:
    size = draw(st.sampled_from([Size.MEDIUM, Size.MEDIUM, Size.SMALL, Size.LARGE]))
    combatant = Combatant(name=name, side=side, size=size, hr_slots=draw(st.integers(0, 6)),
                          fr_slots=draw(st.integers(0, 6)), level=draw(st.integers(0, 8)),
                          abilities=Abilities(dexterity=draw(st.integers(3, 18))),
                          martial_artist=True, weapons=("Long sword",))
    side_cells = SIZES[size].footprint
    geometry = geometry_of(encounter)
    spots = [Cell(x, y) for x in range(encounter.map.width) for y in range(encounter.map.height)
             if encounter.can_place(Footprint(x, y, side_cells))
             and not geometry.footprint_split(Footprint(x, y, side_cells))
             and (near is None or Footprint(x, y, side_cells).adjacent(near.footprint))]
    if not spots:
        return None
    token = Token(id=name, combatant=combatant, **draw(st.sampled_from(spots))._asdict())
    encounter.add_token(token)
    return token


def walk_is_clear(encounter: Encounter, token_id: str, cells: tuple[Cell, ...],
                  touches: Touches) -> None:
    """Each step of the walk is one king's step that crosses no movement-blocking wall; the
    footprint is never split by a wall and stays on the map."""
    size = encounter.token(token_id).footprint.size
    blocking = [w.points for w in encounter.map.walls if w.blocks_movement]
    for here, there in pairwise(cells):
        dx, dy = direction_between(here, there).delta
        for c in Footprint(here.x, here.y, size).cells():
            step = (c.x + .5, c.y + .5, c.x + dx + .5, c.y + dy + .5)
            assert not any(touches(step, wall) for wall in blocking), (token_id, here, there)
    for cell in cells:
        footprint = Footprint(cell.x, cell.y, size)
        assert encounter.map.contains_footprint(footprint)
        inside = [(c.x + .5, c.y + .5, c.x + 1.5, c.y + .5) for c in footprint.cells()
                  if c.x + 1 < cell.x + size]
        inside += [(c.x + .5, c.y + .5, c.x + .5, c.y + 1.5) for c in footprint.cells()
                   if c.y + 1 < cell.y + size]
        assert not any(touches(s, wall) for s in inside for wall in blocking)


def apart(encounter: Encounter, moved: dict[str, Cell]) -> None:
    """Nobody overlaps anybody once the moves are made."""
    assert encounter.placement_problem([encounter.token(t).at(c) for t, c in moved.items()]) \
        is None


def same(odds: dict[Cell, Fraction], enumerated: dict[Cell, Fraction]) -> None:
    assert {c: p for c, p in enumerated.items() if p} == odds


def odds_or_reject(odds: Callable[[], R]) -> R:
    """The manoeuvre's odds, or the example is dropped when it cannot be tried there."""
    try:
        return odds()
    except IllegalManoeuvreError:
        reject()
    raise AssertionError("reject() raises")


def any_cell(data: st.DataObject, encounter: Encounter) -> Cell:
    return data.draw(st.builds(Cell, st.integers(0, encounter.map.width - 1),
                               st.integers(0, encounter.map.height - 1)))


@settings(max_examples=40, deadline=None)
@given(scenes(), st.booleans(), st.sampled_from([None, *Direction]))
def test_forcing_back(touches: Touches, encounter: Encounter, follow: bool,
                      direction: Direction | None) -> None:
    request = ForceBackRequest(attacker="A", defender="B", follow=follow, direction=direction)
    odds = odds_or_reject(lambda: force_back_odds(encounter, request))
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    follows: dict[Cell, Fraction] = defaultdict(Fraction)
    for result, p in every_outcome(lambda dice: resolve_force_back(encounter, request, dice)):
        landing[result.final_cell] += p
        follows[result.attacker_cell or encounter.token("A").cell] += p
        walked = result.path + ((result.final_cell,) if result.final_cell != result.path[-1]
                                else ()) if result.path else ()
        walk_is_clear(encounter, "B", walked, touches)
        walk_is_clear(encounter, "A", result.attacker_path, touches)
        apart(encounter, {"B": result.final_cell,
                          "A": result.attacker_cell or encounter.token("A").cell})
        event(f"stop: {result.stop_reason.value}")
    same(odds.landing, landing)
    same(odds.attacker_landing, follows)


@settings(max_examples=40, deadline=None)
@given(scenes(), st.data())
def test_overrun(touches: Touches, encounter: Encounter, data: st.DataObject) -> None:
    request = OverrunRequest(mover="A", defender="B") if data.draw(st.booleans()) else \
        OverrunRequest(mover="A", defender="B", approach=any_cell(data, encounter))
    odds = odds_or_reject(lambda: overrun_odds(encounter, request))
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    for result, p in every_outcome(lambda dice: resolve_overrun(encounter, request, dice)):
        landing[result.final_cell] += p
        walk_is_clear(encounter, "A", result.path, touches)
        apart(encounter, {"A": result.final_cell})
        event("passes" if not result.stands and result.final_cell != request.approach
              else "stops")
    same(odds.landing, landing)


@settings(max_examples=40, deadline=None)
@given(scenes(), st.data())
def test_evading(touches: Touches, encounter: Encounter, data: st.DataObject) -> None:
    request = EvadeRequest(mover="A", goal=any_cell(data, encounter))
    odds = odds_or_reject(lambda: evade_odds(encounter, request))
    if len(odds.checks) > 2:
        reject()  # 20 ** checks leaves
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    for result, p in every_outcome(lambda dice: resolve_evade(encounter, request, dice)):
        landing[result.final_cell] += p
        walk_is_clear(encounter, "A", result.path, touches)
        apart(encounter, {"A": result.final_cell})
    event(f"{len(odds.checks)} checks")
    same(odds.landing, landing)


@settings(max_examples=8, deadline=None)
@given(scenes(), st.sampled_from(list(Direction)))
def test_throws(touches: Touches, encounter: Encounter, direction: Direction) -> None:
    request = GrappleRequest(attacker="A", defender="B", attempt=GrappleAttempt.THROW,
                             throw_direction=direction)
    odds = odds_or_reject(lambda: grapple_odds(encounter, request))
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    bands: dict[GrappleBand, Fraction] = defaultdict(Fraction)
    start = encounter.token("B").cell
    for result, p in every_outcome(lambda dice: resolve_grapple(encounter, request, dice)):
        bands[result.band] += p
        end = result.defender_cell or start
        landing[end] += p
        walk_is_clear(encounter, "B", (start, end) if end != start else (start,), touches)
        apart(encounter, {"B": end})
    event("slam" if odds.slam else "hazard" if odds.into_hazard else "free")
    assert {b: p for b, p in bands.items() if p} == {b: p for b, p in odds.bands.items() if p}
    same(odds.landing, landing)
