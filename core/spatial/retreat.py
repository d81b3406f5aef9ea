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

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.model.profile import DiagonalRule
from core.spatial.geometry import DIRECTIONS, BoolArray
from core.spatial.pathing import MovementGraph

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


def plan_retreats(encounter: Encounter, token_ids: Sequence[str],
                  threats: Sequence[Footprint], budget_ft: float) -> dict[str, Retreat]:
    """The retreat of each token of ``token_ids`` from ``threats`` within ``budget_ft``."""
    tokens = [encounter.token(token_id) for token_id in token_ids]
    enemies = Threats(threats)
    tokens.sort(key=lambda t: (-_nearest(t.footprint, enemies, encounter),
                               encounter.order_of(t.id)))
    taken: list[Footprint] = []
    plans: dict[str, Retreat] = {}
    hazards = {size: _hazardous(encounter, size) for size in {t.footprint.size for t in tokens}}
    for token in tokens:
        size = token.footprint.size
        plan = _retreat(encounter, token, enemies, budget_ft, (taken, hazards[size]))
        plans[token.id] = plan
        taken.append(Footprint(plan.end.x, plan.end.y, size))
    return {token_id: plans[token_id] for token_id in token_ids}


def _nearest(footprint: Footprint, threats: Threats, encounter: Encounter) -> float:
    if not threats.footprints:
        return math.inf
    profile = encounter.profile
    return float(distances_ft(np.array([[footprint.x]]), np.array([[footprint.y]]),
                              footprint.size, threats, cell_ft=profile.cell_size_ft,
                              rule=profile.diagonal_rule).min())


def _retreat(encounter: Encounter, token: Token, threats: Threats, budget_ft: float,
             avoid: tuple[list[Footprint], BoolArray]) -> Retreat:
    """One token's retreat, clear of the places others of the group run to and of the
    hazards (``avoid``: those footprints, and the anchors on a hazard at its size)."""
    taken, hazardous = avoid
    graph = MovementGraph(encounter, token)
    before = _nearest(token.footprint, threats, encounter)
    stay = Retreat(token.id, (token.cell,), 0, before, before)
    if not threats.footprints:
        return stay
    window = _window(graph, token.cell, budget_ft)
    nearest, total, away = _fields(graph, window, threats, hazardous)
    graph.conditions = tuple(c & a for c, a in zip(graph.conditions, away, strict=True))
    feet = graph.range_ft(budget_ft)
    feet[_taken_mask(feet.shape, token.footprint.size, taken)] = np.inf
    keys = (nearest > before, _behind(nearest.shape, token.footprint, threats.footprints),
            nearest, total)
    for goal in _ranked(feet, keys):
        cells = graph.walk_to(goal)
        if cells is not None and graph.exact_cost(cells) <= budget_ft:
            return Retreat(token.id, cells, graph.exact_cost(cells), before,
                           float(nearest[goal.y, goal.x]))
    return stay


def _window(graph: MovementGraph, start: Cell, budget_ft: float
            ) -> tuple[slice, slice]:
    """The anchors a walk within the budget can reach (as :meth:`MovementGraph.range_ft`)."""
    radius = int(budget_ft // graph.cell_ft) + 1
    rows, cols = graph.cost.shape
    return (slice(max(start.y - radius, 0), min(start.y + radius + 1, rows)),
            slice(max(start.x - radius, 0), min(start.x + radius + 1, cols)))


def _hazardous(encounter: Encounter, size: int) -> BoolArray:
    """Anchors where a ``size`` footprint would stand on a hazard cell."""
    battle_map = encounter.map
    cells = np.zeros((battle_map.height, battle_map.width), dtype=bool)
    for hazard in battle_map.hazards:
        for cell in hazard.cells:
            if battle_map.contains(cell):
                cells[cell.y, cell.x] = True
    return np.asarray(sliding_window_view(cells, (size, size)).any(axis=(-2, -1)))


def _fields(graph: MovementGraph, window: tuple[slice, slice], threats: Threats,
            hazardous: BoolArray) -> tuple[FloatArray, FloatArray, list[BoolArray]]:
    """Over the whole anchor grid (−inf outside the window): the distance to the nearest
    threat, the distances to all of them summed, and for each direction whether a step that
    way from each anchor keeps or increases the distance to every threat and lands clear of
    hazards."""
    ys, xs = np.mgrid[window[0], window[1]]
    fields = distances_ft(xs, ys, graph.size, threats, cell_ft=graph.cell_ft, rule=graph.rule)
    shape = graph.cost.shape
    nearest, total = np.full(shape, -np.inf), np.full(shape, -np.inf)
    nearest[window], total[window] = fields.min(axis=0), fields.sum(axis=0)
    # Clear ground as a field of 1s over hazards' 0s: no step may make it fall.
    clear = np.asarray(~hazardous[window], dtype=np.float64)[None]
    away = []
    for direction in DIRECTIONS:
        full = np.zeros(shape, dtype=bool)
        full[window] = (_no_nearer(fields, *direction.delta, beside_ft=2 * graph.cell_ft)
                        & _no_nearer(clear, *direction.delta, beside_ft=0)).all(axis=0)
        away.append(full)
    return nearest, total, away


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


def _no_nearer(fields: FloatArray, dx: int, dy: int, beside_ft: float) -> BoolArray:
    """Whether the step (dx, dy) from each anchor (the last two axes) lands no nearer, and
    farther when it starts beside the threat (nearer than ``beside_ft``); False off the
    window."""
    rows, cols = fields.shape[-2:]
    ok = np.zeros(fields.shape, dtype=bool)
    src = (..., slice(max(0, -dy), rows - max(0, dy)), slice(max(0, -dx), cols - max(0, dx)))
    dst = (..., slice(max(0, dy), rows - max(0, -dy)), slice(max(0, dx), cols - max(0, -dx)))
    here, there = fields[src], fields[dst]
    ok[src] = np.where(here < beside_ft, there > here, there >= here)
    return ok


def _taken_mask(shape: tuple[int, ...], size: int, taken: list[Footprint]) -> BoolArray:
    """Anchors whose footprint would overlap a place another of the group runs to."""
    mask = np.zeros(shape, dtype=bool)
    for other in taken:
        mask[max(0, other.y - size + 1):other.y + other.size,
             max(0, other.x - size + 1):other.x + other.size] = True
    return mask


def _behind(shape: tuple[int, ...], start: Footprint, threats: Sequence[Footprint]
            ) -> BoolArray:
    """Anchors on the far side of ``start`` from the threats' centre (none when it stands
    on that centre)."""
    cx = sum(t.centre[0] for t in threats) / len(threats)
    cy = sum(t.centre[1] for t in threats) / len(threats)
    away_x, away_y = start.centre[0] - cx, start.centre[1] - cy
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]]
    return np.asarray((xs - start.x) * away_x + (ys - start.y) * away_y > 0)


def _ranked(feet: FloatArray, keys: tuple[npt.NDArray[np.generic], ...]) -> list[Cell]:
    """Reachable anchors, best first by ``keys`` (each the higher the better), then fewer
    feet, then top-left-most."""
    ys, xs = np.nonzero(np.isfinite(feet))
    columns = [np.asarray(key[ys, xs], dtype=np.float64) for key in reversed(keys)]
    order = np.lexsort((xs, ys, feet[ys, xs], *(-column for column in columns)))
    return [Cell(int(xs[i]), int(ys[i])) for i in order]
