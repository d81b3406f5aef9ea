"""Movement paths and ranges on the grid (A* and Dijkstra through libtcod).

Why tcod: a pure-Python A* over 200×200 cells takes ~65 ms here; tcod's C pathfinder takes
a few ms and accepts per-direction edge conditions, which is how walls between cells are
expressed. The search minimises the average diagonal cost (7.5 ft for 5-10-5) and the cost
reported is the exact count along the chosen path (:func:`core.model.grid.step_costs_ft`); without
difficult terrain the two orders agree exactly (see docs/rules.md).

Rules (rules-decisions "Shove" 9 and the spatial-engine issue): walls and closed doors block;
difficult terrain costs double; other creatures' cells cannot be entered, except allies',
which can be passed through but not ended on; the footprint never leaves the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt
import tcod.path
from numpy.lib.stride_tricks import sliding_window_view

from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, direction_between, step_costs_ft
from core.model.profile import DiagonalRule
from core.spatial.geometry import DIRECTIONS, BoolArray, geometry_of

UNREACHABLE = np.iinfo(np.int32).max
POCKET_RADIUS = 12

# Edge weights per diagonal rule: (orthogonal, diagonal, feet per unit).
_WEIGHTS = {
    DiagonalRule.FIVE: (1, 1, 1.0),
    DiagonalRule.FIVE_TEN_FIVE: (2, 3, 0.5),
    DiagonalRule.EUCLIDEAN: (100, 141, 0.01),
}


class IllegalMoveError(ValueError):
    """A move the rules do not allow; the message says why."""


@dataclass(frozen=True)
class MovePath:
    """A path for a token's top-left cell, its exact cost, and whether it may end there."""

    cells: tuple[Cell, ...]
    cost_ft: float
    legal: bool
    reason: str = ""

    @property
    def steps(self) -> tuple[Direction, ...]:
        return tuple(direction_between(a, b) for a, b in pairwise(self.cells))


def _window_all(array: BoolArray, size: int) -> BoolArray:
    """For each anchor, whether ``array`` is true over the whole size×size footprint."""
    if size == 1:
        return array
    return np.asarray(sliding_window_view(array, (size, size)).all(axis=(-2, -1)))


def _window_any(array: BoolArray, size: int) -> BoolArray:
    if size == 1:
        return array
    return np.asarray(sliding_window_view(array, (size, size)).any(axis=(-2, -1)))


class MovementGraph:
    """The movement graph of one token: anchors its footprint can occupy and the steps
    between them. Build once per drag; ask for many goals."""

    def __init__(self, encounter: Encounter, token: Token) -> None:
        self.encounter = encounter
        self.token = token
        self.size = token.footprint.size
        profile = encounter.profile
        self.cell_ft = profile.cell_size_ft
        self.rule = profile.diagonal_rule
        geometry = geometry_of(encounter)
        size = self.size
        enemies, allies = self._occupancy()
        open_moves = geometry.open_moves()
        interior = self._interior_open(open_moves)
        self.passable = interior & ~_window_any(enemies, size)
        self.ends_ok = self.passable & ~_window_any(allies, size)
        cost = np.where(self.passable, _window_max(geometry.move_cost, size), 0)
        self.cost: npt.NDArray[np.int8] = cost.astype(np.int8)
        self.conditions = [_window_all(open_moves[d], size) for d in range(8)]
        self._pathfinder: tcod.path.Pathfinder | None = None

    def _occupancy(self) -> tuple[BoolArray, BoolArray]:
        shape = (self.encounter.map.height, self.encounter.map.width)
        enemies, allies = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
        side = self.token.combatant.side
        for other in self.encounter.tokens:
            if other.id == self.token.id:
                continue
            fp = other.footprint
            target = allies if other.combatant.side == side else enemies
            target[fp.y:fp.y + fp.size, fp.x:fp.x + fp.size] = True
        return enemies, allies

    def _interior_open(self, open_moves: BoolArray) -> BoolArray:
        """Anchors whose footprint has no wall running through it (always true for 1×1)."""
        size = self.size
        height, width = open_moves.shape[1:]
        rows, cols = height - size + 1, width - size + 1
        if size == 1:
            return np.ones((rows, cols), dtype=bool)
        east = open_moves[DIRECTIONS.index(Direction.E)]
        south = open_moves[DIRECTIONS.index(Direction.S)]
        east_ok = np.asarray(sliding_window_view(east, (size, size - 1)).all(axis=(-2, -1)))
        south_ok = np.asarray(sliding_window_view(south, (size - 1, size)).all(axis=(-2, -1)))
        return np.asarray(east_ok[:, :cols] & south_ok[:rows, :])

    def pathfinder(self) -> tcod.path.Pathfinder:
        """A pathfinder rooted at the token's cell (resumed for each new goal)."""
        if self._pathfinder is None:
            orth, diag, _ = _WEIGHTS[self.rule]
            graph = tcod.path.CustomGraph(self.cost.shape)
            for index, direction in enumerate(DIRECTIONS):
                dx, dy = direction.delta
                weight = diag if direction.diagonal else orth
                graph.add_edge((dy, dx), weight, cost=self.cost,
                               condition=self.conditions[index])
            graph.set_heuristic(cardinal=orth, diagonal=diag)
            self._pathfinder = tcod.path.Pathfinder(graph)
            self._pathfinder.add_root((self.token.y, self.token.x))
        return self._pathfinder

    def path_to(self, goal: Cell, budget_ft: float | None = None) -> MovePath:
        """The cheapest path for the token's top-left cell to ``goal``, with the reason it is
        illegal if it is."""
        start = self.token.cell
        if goal == start:
            return MovePath(cells=(start,), cost_ft=0, legal=True)
        height, width = self.cost.shape
        if not (0 <= goal.x < width and 0 <= goal.y < height):
            return MovePath(cells=(start,), cost_ft=0, legal=False,
                            reason="the token would not fit on the map there")
        if not self.passable[goal.y, goal.x]:
            return MovePath(cells=(start,), cost_ft=0, legal=False, reason=self._why_blocked(goal))
        cells = None if self.sealed_off(goal) else self._trace(goal)
        if cells is None:
            return MovePath(cells=(start,), cost_ft=0, legal=False,
                            reason="no way there: walls or creatures block every path")
        cost = self.exact_cost(cells)
        if not self.ends_ok[goal.y, goal.x]:
            return MovePath(cells=cells, cost_ft=cost, legal=False,
                            reason="an ally stands there: you can pass through but not stop")
        if budget_ft is not None and cost > budget_ft:
            return MovePath(cells=cells, cost_ft=cost, legal=False,
                            reason=f"{cost:g} ft is beyond the {budget_ft:g} ft movement budget")
        return MovePath(cells=cells, cost_ft=cost, legal=True)

    def _trace(self, goal: Cell) -> tuple[Cell, ...] | None:
        """Resolve up to ``goal`` and walk the traversal back to the token. (tcod's own
        ``path_to`` reports a false "cyclic loop" when a path visits every node of a
        small graph, so the walk is done here.)"""
        finder = self.pathfinder()
        finder.resolve((goal.y, goal.x))
        if finder.distance[goal.y, goal.x] == UNREACHABLE:
            return None
        traversal = finder.traversal
        node, path = (goal.y, goal.x), [goal]
        for _ in range(self.cost.size):
            previous = (int(traversal[node][0]), int(traversal[node][1]))
            if previous == node:
                break
            node = previous
            path.append(Cell(node[1], node[0]))
        return tuple(reversed(path))

    def _why_blocked(self, goal: Cell) -> str:
        footprint = Footprint(goal.x, goal.y, self.size)
        others = self.encounter.tokens_overlapping(footprint, ignore=self.token.id)
        if others:
            return f"{others[0].name} is in the way"
        return "a wall runs through that space"

    def exact_cost(self, cells: tuple[Cell, ...]) -> float:
        """Feet along a path: the diagonal rule's exact count, doubled into difficult cells."""
        steps = [direction_between(a, b) for a, b in pairwise(cells)]
        costs = step_costs_ft(steps, self.cell_ft, self.rule)
        total = sum(base * int(self.cost[cell.y, cell.x])
                    for base, cell in zip(costs, cells[1:], strict=True))
        return round(total, 2)

    def _flood(self, centre: Cell, radius: int
               ) -> tuple[npt.NDArray[np.int32], tuple[int, int]]:
        """Dijkstra distances (graph units) from ``centre`` over the window of ``radius``
        anchors around it, and the window's top-left (y, x)."""
        orth, diag, _ = _WEIGHTS[self.rule]
        height, width = self.cost.shape
        y0, x0 = max(centre.y - radius, 0), max(centre.x - radius, 0)
        y1, x1 = min(centre.y + radius + 1, height), min(centre.x + radius + 1, width)
        graph = tcod.path.CustomGraph((y1 - y0, x1 - x0))
        cost = self.cost[y0:y1, x0:x1]
        for index, direction in enumerate(DIRECTIONS):
            dx, dy = direction.delta
            graph.add_edge((dy, dx), diag if direction.diagonal else orth, cost=cost,
                           condition=self.conditions[index][y0:y1, x0:x1])
        finder = tcod.path.Pathfinder(graph)
        finder.add_root((centre.y - y0, centre.x - x0))
        finder.resolve()
        return np.asarray(finder.distance), (y0, x0)

    def sealed_off(self, goal: Cell) -> bool:
        """Whether ``goal`` lies in a small closed pocket the token is not in: a flood from
        the goal (moves are symmetric) that never reaches the edge of its window. Lets an
        unreachable goal be refused in a fraction of a millisecond instead of a search of
        everything reachable."""
        distance, (y0, x0) = self._flood(goal, POCKET_RADIUS)
        reached = distance != UNREACHABLE
        height, width = self.cost.shape
        rows, cols = distance.shape
        # Window sides inside the map: the pocket may go on beyond them.
        open_sides = (reached[0, :].any() and y0 > 0, reached[-1, :].any() and y0 + rows < height,
                      reached[:, 0].any() and x0 > 0, reached[:, -1].any() and x0 + cols < width)
        if any(open_sides):
            return False
        ty, tx = self.token.y - y0, self.token.x - x0
        return not (0 <= ty < rows and 0 <= tx < cols and reached[ty, tx])

    def range_ft(self, budget_ft: float) -> npt.NDArray[np.float64]:
        """Feet to reach each anchor within ``budget_ft`` (inf beyond), over a window around
        the token so the cost scales with the budget, not the map."""
        _, _, feet_per_unit = _WEIGHTS[self.rule]
        distance, (y0, x0) = self._flood(self.token.cell, int(budget_ft // self.cell_ft) + 1)
        rows, cols = distance.shape
        feet = np.full(self.cost.shape, np.inf)
        window = distance.astype(np.float64) * feet_per_unit * self.cell_ft
        if self.rule is DiagonalRule.FIVE_TEN_FIVE:
            window = np.floor(window / self.cell_ft) * self.cell_ft
        window[distance == UNREACHABLE] = np.inf
        window[window > budget_ft] = np.inf
        feet[y0:y0 + rows, x0:x0 + cols] = window
        feet[~self.ends_ok] = np.inf
        return feet

    def walk_to(self, goal: Cell) -> tuple[Cell, ...] | None:
        """The cells of the cheapest walk to ``goal`` (None: unreachable), without the
        shortcuts :meth:`path_to` takes for a graph whose steps go both ways (a retreat's
        graph allows only steps away from the enemy: :mod:`core.spatial.retreat`)."""
        return self._trace(goal)


def _window_max(array: npt.NDArray[np.int8], size: int) -> npt.NDArray[np.int8]:
    if size == 1:
        return array
    result: npt.NDArray[np.int8] = sliding_window_view(array, (size, size)).max(axis=(-2, -1))
    return result


def find_path(encounter: Encounter, token_id: str, goal: Cell,
              budget_ft: float | None = None) -> MovePath:
    """The path and exact cost for a token to move its top-left cell to ``goal``."""
    return MovementGraph(encounter, encounter.token(token_id)).path_to(goal, budget_ft)
