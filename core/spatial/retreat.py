"""Retreat paths: where creatures that break and run go (002 "Morale": "Disengage and retreat
running"; rules-decisions "Retreats move tokens away from enemies along real paths").

A retreat is a walk on the token's own movement graph (:class:`core.spatial.pathing.
MovementGraph`: walls and closed doors block, enemies block, allies may be passed but not
ended on, difficult terrain costs double) narrowed to the steps that take it no nearer to
any enemy: each step keeps or increases the grid distance (:func:`core.model.grid.
distance_ft`, the profile's diagonal rule) from every threat, and a step from beside a
threat moves off from it ("Disengage", 002). A runner never steps into a hazard (fire, a
pit: the map's painted hazards). Within the movement budget it ends, best
first: somewhere farther from the nearest threat than it starts; behind it, on the far side
from the threats' centre (a rout goes back, not round the enemy's flank); where the nearest
threat is farthest; where the threats are farthest in total; on the cheapest walk; the
top-left-most cell (so the choice is deterministic).

A group retreats one by one, the one farthest from the threats first; no two end on the same
cells, and none ends where another of the group stands now, so any subset of the group can
run along its planned walks together (the planned walks are the preview the GM sees before
the dice decide who runs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.model.profile import DiagonalRule
from core.spatial.geometry import DIRECTIONS, BoolArray
from core.spatial.pathing import MovementGraph

FIRST_BOX_RADIUS = 2  # anchors around a runner whose steps are checked first
NEAR_THREATS = 24  # cells: the threats asked first whether a runner can step at all
_STEPS = np.array([direction.delta for direction in DIRECTIONS]).T  # dx and dy per direction

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Retreat:
    """A token's planned walk away: its cells (the first is where it stands), the feet it
    costs, and the distance from the nearest threat before and after."""

    token_id: str
    cells: tuple[Cell, ...]
    cost_ft: float
    nearest_before_ft: float
    nearest_after_ft: float

    @property
    def escapes(self) -> bool:
        """Whether the walk gets it farther from the nearest threat ("a path away")."""
        return self.nearest_after_ft > self.nearest_before_ft

    @property
    def end(self) -> Cell:
        return self.cells[-1]


class Threats:
    """The enemies' footprints as arrays shaped to broadcast against a grid of anchors."""

    def __init__(self, footprints: Sequence[Footprint]) -> None:
        self.footprints = tuple(footprints)
        shape = (len(footprints), 1, 1)
        self.x, self.y, self.size = (np.array([f[i] for f in footprints]).reshape(shape)
                                     for i in range(3))

    @cached_property
    def centre(self) -> tuple[float, float]:
        count = len(self.footprints) or 1
        return (sum(f.centre[0] for f in self.footprints) / count,
                sum(f.centre[1] for f in self.footprints) / count)

    def near(self, x: int, y: int, reach: int) -> Threats:
        """The threats whose top-left cell is within ``reach`` cells of (x, y)."""
        close = (np.abs(self.x - x) <= reach) & (np.abs(self.y - y) <= reach)
        return Threats(tuple(compress(self.footprints, close.ravel().tolist())))


class _Places:
    """Per footprint size, the anchors a runner may not end on: on a hazard, or overlapping
    a place another of the group runs to (kept up to date as the group is planned)."""

    def __init__(self, encounter: Encounter, sizes: set[int]) -> None:
        self.hazardous = {size: _hazardous(encounter, size) for size in sizes}
        self.taken = {size: np.zeros_like(self.hazardous[size]) for size in sizes}

    def take(self, place: Footprint) -> None:
        for size, mask in self.taken.items():
            mask[max(0, place.y - size + 1):place.y + place.size,
                 max(0, place.x - size + 1):place.x + place.size] = True


def plan_retreats(encounter: Encounter, token_ids: Sequence[str],
                  threats: Sequence[Footprint], budget_ft: float) -> dict[str, Retreat]:
    """The retreat of each token of ``token_ids`` from ``threats`` within ``budget_ft``."""
    tokens = [encounter.token(token_id) for token_id in token_ids]
    enemies = Threats(threats)
    nearest = _nearest(tokens, enemies, encounter)
    tokens.sort(key=lambda t: (-nearest[t.id], encounter.order_of(t.id)))
    plans: dict[str, Retreat] = {}
    places = _Places(encounter, {t.footprint.size for t in tokens})
    for token in tokens:
        plan = _retreat(encounter, token, (enemies, nearest[token.id]), budget_ft, places)
        plans[token.id] = plan
        places.take(Footprint(plan.end.x, plan.end.y, token.footprint.size))
    return {token_id: plans[token_id] for token_id in token_ids}


def _nearest(tokens: Sequence[Token], threats: Threats, encounter: Encounter
             ) -> dict[str, float]:
    """The distance from each token to its nearest threat (inf with none), a footprint
    size at a time."""
    if not threats.footprints:
        return {token.id: math.inf for token in tokens}
    profile = encounter.profile
    nearest: dict[str, float] = {}
    for size in {token.footprint.size for token in tokens}:
        group = [token for token in tokens if token.footprint.size == size]
        fields = distances_ft(np.array([[t.x for t in group]]), np.array([[t.y for t in group]]),
                              size, threats, cell_ft=profile.cell_size_ft,
                              rule=profile.diagonal_rule)
        nearest |= zip((t.id for t in group), fields.min(axis=0).ravel().tolist(), strict=True)
    return nearest


def _retreat(encounter: Encounter, token: Token, threats_now: tuple[Threats, float],
             budget_ft: float, places: _Places) -> Retreat:
    """One token's retreat from the threats (and the distance to the nearest now), clear
    of the places others of the group run to and of the hazards."""
    threats, before = threats_now
    size = token.footprint.size
    graph = MovementGraph(encounter, token)
    stay = Retreat(token.id, (token.cell,), 0, before, before)
    if not threats.footprints or _hemmed_in(graph, threats, places.hazardous[size]):
        return stay
    feet = _reach(graph, threats, places.hazardous[size], budget_ft)
    feet[~graph.ends_ok | places.taken[size]] = np.inf
    ys, xs = np.nonzero(np.isfinite(feet))
    fields = distances_ft(xs, ys, graph.size, threats, cell_ft=graph.cell_ft, rule=graph.rule)
    nearest = fields.min(axis=0).ravel()
    keys = (nearest > before, _behind(xs, ys, token.footprint, threats.centre), nearest,
            fields.sum(axis=0).ravel())
    for index in _ranked(xs, ys, feet[ys, xs], keys):
        goal = Cell(int(xs[index]), int(ys[index]))
        cells = (goal,) if goal == token.cell else graph.walk_to(goal)
        if cells is not None and graph.exact_cost(cells) <= budget_ft:
            return Retreat(token.id, cells, graph.exact_cost(cells), before,
                           float(nearest[index]))
    return stay


def _reach(graph: MovementGraph, threats: Threats, hazardous: BoolArray, budget_ft: float
           ) -> FloatArray:
    """Feet to each anchor the token reaches within the budget by steps that take it no
    nearer to any threat and clear of hazards (anchors it may only pass through included);
    the graph keeps those steps for its walks.

    The steps are checked in a box around the token, grown until no anchor within the budget
    lies on an inner side of the box: a walk that would leave the box has to reach such an
    anchor first, so the result is the one checking the whole window gives. Most runners are
    hemmed in and a 5×5 box decides them, instead of every threat against every anchor of
    the window."""
    window = _window(graph, graph.token.cell, budget_ft)
    walls = graph.conditions
    radius = FIRST_BOX_RADIUS
    while True:
        box = _window_around(graph, graph.token.cell, radius, window)
        away = np.zeros((len(DIRECTIONS), *graph.passable.shape), dtype=bool)
        away[:, box[0], box[1]] = _steps_away(graph, box, threats, hazardous)
        graph.conditions = tuple(c & a for c, a in zip(walls, away, strict=True))
        feet = graph.passing_range_ft(budget_ft)
        if box == window or not _on_inner_side(np.isfinite(feet), box, window):
            return feet
        radius *= 2


def _window(graph: MovementGraph, start: Cell, budget_ft: float
            ) -> tuple[slice, slice]:
    """The anchors a walk within the budget can reach (as :meth:`MovementGraph.range_ft`)."""
    return _window_around(graph, start, int(budget_ft // graph.cell_ft) + 1)


def _window_around(graph: MovementGraph, start: Cell, radius: int,
                   within: tuple[slice, slice] | None = None) -> tuple[slice, slice]:
    """The anchors within ``radius`` steps of ``start`` on the map (and inside ``within``)."""
    rows, cols = graph.passable.shape
    ys, xs = within or (slice(0, rows), slice(0, cols))
    return (slice(max(start.y - radius, ys.start), min(start.y + radius + 1, ys.stop)),
            slice(max(start.x - radius, xs.start), min(start.x + radius + 1, xs.stop)))


def _on_inner_side(reached: BoolArray, box: tuple[slice, slice],
                   window: tuple[slice, slice]) -> bool:
    """Whether a reached anchor lies on a side of ``box`` that is not a side of ``window``
    (a step from it could leave the box)."""
    (y0, y1), (x0, x1) = (box[0].start, box[0].stop), (box[1].start, box[1].stop)
    inside = reached[box]
    sides = ((y0 > window[0].start, inside[0]), (y1 < window[0].stop, inside[-1]),
             (x0 > window[1].start, inside[:, 0]), (x1 < window[1].stop, inside[:, -1]))
    return any(inner and bool(side.any()) for inner, side in sides)


def _hazardous(encounter: Encounter, size: int) -> BoolArray:
    """Anchors where a ``size`` footprint would stand on a hazard cell."""
    battle_map = encounter.map
    cells = np.zeros((battle_map.height, battle_map.width), dtype=bool)
    for hazard in battle_map.hazards:
        for cell in hazard.cells:
            if battle_map.contains(cell):
                cells[cell.y, cell.x] = True
    return np.asarray(sliding_window_view(cells, (size, size)).any(axis=(-2, -1)))


def _hemmed_in(graph: MovementGraph, threats: Threats, hazardous: BoolArray) -> bool:
    """Whether the token has no first step: every one is walled off, blocked, or takes it
    nearer to a threat or into a hazard (most of a side in a melee). Its retreat is to
    stay where it is."""
    x, y = graph.token.x, graph.token.y
    rows, cols = graph.passable.shape
    xs, ys = x + _STEPS[0], y + _STEPS[1]
    inside = (xs >= 0) & (xs < cols) & (ys >= 0) & (ys < rows)
    xs, ys = xs[inside], ys[inside]
    walls = np.array([graph.conditions[i][y, x] for i in np.flatnonzero(inside)])
    # The steps the range flood takes: no wall, an anchor it may enter (passable anchors
    # cost 1 or more), and no hazard entered.
    open_steps = walls & graph.passable[ys, xs] & (hazardous[ys, xs] <= hazardous[y, x])
    # A step is shut when any one threat is nearer after it: the threats close by shut
    # most, and only when they leave a step open are all of them asked.
    for asked in (threats.near(x, y, NEAR_THREATS), threats):
        if not open_steps.any():
            return True
        fields = distances_ft(np.append(xs, x), np.append(ys, y), graph.size, asked,
                              cell_ft=graph.cell_ft, rule=graph.rule)[:, 0]
        open_steps &= _no_nearer(fields[:, -1:], fields[:, :-1], 2 * graph.cell_ft).all(axis=0)
    return not open_steps.any()


def _steps_away(graph: MovementGraph, box: tuple[slice, slice], threats: Threats,
                hazardous: BoolArray) -> BoolArray:
    """For each direction and each anchor of ``box``: whether a step that way keeps or
    increases the distance to every threat, stays in the box and lands clear of hazards."""
    ys, xs = np.mgrid[box[0], box[1]]
    fields = distances_ft(xs, ys, graph.size, threats, cell_ft=graph.cell_ft, rule=graph.rule)
    # Clear ground as a field of 1s over hazards' 0s: no step may make it fall.
    clear = np.asarray(~hazardous[box], dtype=np.float64)
    return np.asarray(_no_nearer(fields, _neighbours(fields), 2 * graph.cell_ft).all(axis=1)
                      & _no_nearer(clear, _neighbours(clear), 0))


def distances_ft(xs: npt.NDArray[np.int_], ys: npt.NDArray[np.int_], size: int,
                 threats: Threats, *, cell_ft: int, rule: DiagonalRule) -> FloatArray:
    """:func:`core.model.grid.distance_ft` from a ``size`` footprint at each anchor (xs, ys)
    to each threat, all at once: shaped (threats, *xs.shape)."""
    dx = np.maximum(0, np.maximum(threats.x - (xs + size - 1), xs - (threats.x + threats.size - 1)))
    dy = np.maximum(0, np.maximum(threats.y - (ys + size - 1), ys - (threats.y + threats.size - 1)))
    diagonal = np.minimum(dx, dy)
    straight = np.maximum(dx, dy) - diagonal
    if rule is DiagonalRule.FIVE:
        steps = (straight + diagonal).astype(np.float64)
    elif rule is DiagonalRule.FIVE_TEN_FIVE:
        steps = (straight + diagonal + diagonal // 2).astype(np.float64)
    else:
        steps = straight + diagonal * math.sqrt(2)
    return np.asarray(steps * cell_ft, dtype=np.float64)


def _neighbours(fields: FloatArray) -> FloatArray:
    """For each step in :data:`DIRECTIONS` order (a new first axis), ``fields`` at the
    anchor the step lands on (the last two axes), -inf off the fields."""
    rows, cols = fields.shape[-2:]
    edges = [(0, 0)] * (fields.ndim - 2) + [(1, 1), (1, 1)]
    padded = np.pad(fields, edges, constant_values=-np.inf)
    return np.stack([padded[..., 1 + dy:1 + dy + rows, 1 + dx:1 + dx + cols]
                     for dx, dy in (d.delta for d in DIRECTIONS)])


def _no_nearer(here: FloatArray, there: FloatArray, beside_ft: float) -> BoolArray:
    """Whether a step from distance ``here`` to ``there`` lands no nearer, and farther when
    it starts beside the threat (nearer than ``beside_ft``)."""
    return np.asarray((there > here) | ((there == here) & (here >= beside_ft)))


def _behind(xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], start: Footprint,
            centre: tuple[float, float]) -> BoolArray:
    """Whether each anchor (xs, ys) is on the far side of ``start`` from the threats'
    ``centre`` (none when it stands on that centre)."""
    cx, cy = centre
    away_x, away_y = start.centre[0] - cx, start.centre[1] - cy
    return np.asarray((xs - start.x) * away_x + (ys - start.y) * away_y > 0)


def _ranked(xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], feet: FloatArray,
            keys: tuple[npt.NDArray[np.generic], ...]) -> npt.NDArray[np.intp]:
    """The indices of the reachable anchors (xs, ys) with their ``feet``, best first by
    ``keys`` (each the higher the better), then fewer feet, then top-left-most."""
    columns = [np.asarray(key, dtype=np.float64) for key in reversed(keys)]
    return np.lexsort((xs, ys, feet, *(-column for column in columns)))
