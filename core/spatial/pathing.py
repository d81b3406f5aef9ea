"""Movement paths and ranges on the grid: A* and Dijkstra of our own (compiled).

Why compiled: a pure-Python A* over 200×200 cells takes ~65 ms here, and libtcod's
pathfinder, which takes the same graph (per-direction edge conditions: the walls between
cells), spends 250-500 ns per anchor it reaches: 16-21 ms on a 300×300 map.
:mod:`core.spatial._search` (C, ``_search.c``) runs the same search on the same arrays
with the GIL released; with a zero heuristic it floods a window (Dijkstra: movement ranges,
the pocket check). The search minimises the average diagonal cost (7.5 ft for 5-10-5) and
the cost reported is the exact count along the chosen path (:func:`core.model.grid.step_costs_ft`);
without difficult terrain the two orders agree exactly (see docs/rules.md).

Rules (rules-decisions "Shove" 9 and the spatial-engine issue): walls and closed doors block;
difficult terrain costs double; other creatures' cells cannot be entered, except allies',
which can be passed through but not ended on; the footprint never leaves the map.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, direction_between
from core.model.profile import DiagonalRule
from core.spatial.footprints import footprint_layers, window_any
from core.spatial.geometry import DIRECTIONS, BoolArray, geometry_of

try:
    from core.spatial._search import Search
except ImportError as error:  # a source checkout whose C part was never built
    raise ImportError(f"{error}: the compiled search is built by `pip install -e .` "
                      "(or `python setup.py build_ext --inplace`)") from error

UNREACHABLE = np.iinfo(np.int64).max  # a flood's distance to an anchor it never reached
POCKET_RADIUS = 12


# Edge weights per diagonal rule: (orthogonal, diagonal, feet per unit).
_WEIGHTS = {
    DiagonalRule.FIVE: (1, 1, 1.0),
    DiagonalRule.FIVE_TEN_FIVE: (2, 3, 0.5),
    DiagonalRule.EUCLIDEAN: (100, 141, 0.01),
}

# The A* search's weights per rule (orthogonal, diagonal, the heuristic's diagonal): the
# same order as _WEIGHTS, scaled so the heuristic's diagonal can sit one unit under the true
# one. An exact octile heuristic gives whole regions the same f, and the queue (which orders
# by f alone, as libtcod's did) takes ties in no useful order; a hair under, they are
# ordered and the search stays exact (the heuristic is still a lower bound). 5-ft
# diagonals have no room under.
_SEARCH_WEIGHTS = {
    DiagonalRule.FIVE: (1, 1, 1),
    DiagonalRule.FIVE_TEN_FIVE: (256, 384, 383),
    DiagonalRule.EUCLIDEAN: (100, 141, 140),
}


class IllegalMoveError(ValueError):
    """A move the rules do not allow; the message says why."""


@dataclass(frozen=True, eq=False)
class MovePath:
    """A path for a token's top-left cell, its exact cost, and whether it may end there.
    The cells are kept as an array (a path across a big map has tens of thousands) and made
    into :class:`Cell` tuples only when asked for."""

    anchors: npt.NDArray[np.intc]  # (steps + 1, 2): x, y of the top-left cell
    cost_ft: float
    legal: bool
    reason: str = ""

    @classmethod
    def staying(cls, cell: Cell, legal: bool, reason: str = "") -> MovePath:
        """A path that stays on ``cell``."""
        return cls(np.array([cell], dtype=np.intc), 0, legal, reason)

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(Cell(x, y) for x, y in self.anchors.tolist())

    @property
    def end(self) -> Cell:
        x, y = self.anchors[-1].tolist()
        return Cell(x, y)

    @property
    def steps(self) -> tuple[Direction, ...]:
        return tuple(direction_between(a, b) for a, b in pairwise(self.cells))

    def turns(self) -> npt.NDArray[np.intc]:
        """The anchors where the path changes direction, with its two ends: all a line
        through the path needs (a straight run of a thousand cells is two points)."""
        if len(self.anchors) < 3:
            return self.anchors
        step = np.diff(self.anchors, axis=0)
        bends = np.flatnonzero((step[1:] != step[:-1]).any(axis=1)) + 1
        ends: npt.NDArray[np.intc] = self.anchors[
            np.concatenate([[0], bends, [len(self.anchors) - 1]])]
        return ends


class MovementGraph:
    """The movement graph of one token: anchors its footprint can occupy and the steps
    between them. Build once per drag; ask for many goals.

    The wall and terrain layers come from :func:`footprint_layers` (kept per footprint
    size until the map changes), the creatures from the encounter's occupancy grids (kept
    up to date as tokens move): building one is a few whole-map array operations."""

    def __init__(self, encounter: Encounter, token: Token) -> None:
        self.encounter = encounter
        self.token = token
        self.size = token.footprint.size
        profile = encounter.profile
        self.cell_ft = profile.cell_size_ft
        self.rule = profile.diagonal_rule
        self.profile = profile
        self.geometry = geometry_of(encounter)
        self.source = _source(encounter, token)
        self.layers = footprint_layers(encounter, self.size)
        self.passable = passable_layer(encounter, token.combatant.side, self.size)
        self.conditions = self.layers.steps
        # One search per thread (the GUI's and the odds worker's): a search resumes where
        # the last one of its thread stopped, and neither waits for the other.
        self._searches = threading.local()

    @cached_property
    def cost(self) -> npt.NDArray[np.int8]:
        """The cost of entering each anchor (the dearest cell under it; 0: blocked). Made
        when first asked for: a retreat's check of a hemmed-in creature needs none."""
        return np.where(self.passable, self.layers.cost, 0).astype(np.int8)

    @cached_property
    def ends_ok(self) -> BoolArray:
        """Anchors the token may end on: passable, and no other creature of its side there."""
        side = self.token.combatant.side
        counts = self.encounter.occupancy(side)
        allies = counts > 0
        x, y, size = self.token.footprint
        allies[y:y + size, x:x + size] = counts[y:y + size, x:x + size] > 1  # not this token
        return self.passable & ~window_any(allies, self.size)

    def search(self) -> Search:
        """This thread's A* search rooted at the token's anchor (resumed for each new goal),
        over the graph as it is when first asked for."""
        search: Search | None = getattr(self._searches, "search", None)
        if search is None:
            orth, diag, guess_diag = _SEARCH_WEIGHTS[self.rule]
            search = self._search_over(np.s_[:, :], (orth, diag), (orth, guess_diag),
                                       self.token.cell)
            self._searches.search = search
        return search

    def _search_over(self, window: tuple[slice, slice], weights: tuple[int, int],
                     heuristic: tuple[int, int], start: Cell) -> Search:
        """A search over the anchors in ``window`` (rows, columns), its steps weighing
        ``weights`` (orthogonal, diagonal), from ``start`` (in the window)."""
        orth, diag = weights
        return Search(np.ascontiguousarray(self.cost[window]),
                      [np.ascontiguousarray(c[window]) for c in self.conditions],
                      [d.delta for d in DIRECTIONS],
                      [diag if d.diagonal else orth for d in DIRECTIONS], heuristic,
                      (start.x, start.y))

    def path_to(self, goal: Cell, budget_ft: float | None = None) -> MovePath:
        """The cheapest path for the token's top-left cell to ``goal``, with the reason it is
        illegal if it is."""
        start = self.token.cell
        if goal == start:
            return MovePath.staying(start, True)
        height, width = self.cost.shape
        if not (0 <= goal.x < width and 0 <= goal.y < height):
            return MovePath.staying(start, False, "the token would not fit on the map there")
        if not self.passable[goal.y, goal.x]:
            return MovePath.staying(start, False, self._why_blocked(goal))
        sealed = not self._reached(goal) and self.sealed_off(goal)
        anchors = None if sealed else self._trace(goal)
        if anchors is None:
            return MovePath.staying(start, False, "no way there: walls, closed doors or "
                                    "creatures block every path")
        cost = self._exact_cost(anchors)
        if not self.ends_ok[goal.y, goal.x]:
            return MovePath(anchors, cost, False,
                            "an ally stands there: you can pass through but not stop")
        if budget_ft is not None and cost > budget_ft:
            return MovePath(anchors, cost, False,
                            f"{cost:g} ft is beyond the {budget_ft:g} ft movement budget")
        return MovePath(anchors, cost, True)

    def _trace(self, goal: Cell) -> npt.NDArray[np.intc] | None:
        """Search on up to ``goal``: the anchors (x, y) from the token to the goal."""
        search = self.search()
        if not search.resolve(goal.x, goal.y):
            return None
        return np.frombuffer(search.path(goal.x, goal.y), dtype=np.intc).reshape(-1, 2)

    def _reached(self, goal: Cell) -> bool:
        """Whether this thread's search has already found some way to ``goal``: then it is
        in no pocket, and a drag's next cell (the last search's neighbour) needs no flood."""
        search: Search | None = getattr(self._searches, "search", None)
        return search is not None and search.reached(goal.x, goal.y)

    def _why_blocked(self, goal: Cell) -> str:
        footprint = Footprint(goal.x, goal.y, self.size)
        others = self.encounter.tokens_overlapping(footprint, ignore=self.token.id)
        if others:
            return f"{others[0].name} is in the way"
        return "a wall runs through that space"

    def hazards_entered(self, path: MovePath) -> tuple[str, ...]:
        """Names of the hazards the footprint steps into along ``path`` that it did not
        start in, in the order it meets them: a drag warns of a walk through a pit (a move
        by hand rolls nothing; only forced movement rolls the Pit-Stop save)."""
        rows, cols = np.divmod(np.arange(self.size * self.size), self.size)
        under = self.geometry.hazard_index[path.anchors[:, 1, None] + rows,
                                           path.anchors[:, 0, None] + cols]
        met = under[1:].ravel()
        found, first = np.unique(met[met >= 0], return_index=True)
        hazards = self.encounter.map.hazards
        start = {hazards[i].name for i in under[0].tolist() if i >= 0}
        names = (hazards[i].name for i in found[np.argsort(first)].tolist())
        return tuple(dict.fromkeys(n for n in names if n not in start))

    def exact_cost(self, cells: tuple[Cell, ...]) -> float:
        """Feet along a path given as cells (a part of one, as an evade check cuts it)."""
        return self._exact_cost(np.array(cells, dtype=np.intc).reshape(-1, 2))

    def _exact_cost(self, anchors: npt.NDArray[np.intc]) -> float:
        """Feet along a path: the diagonal rule's exact count (5-10-5: every second diagonal
        costs double, :func:`core.model.grid.step_costs_ft`), doubled into difficult cells.
        Whole cells are counted in integers (exact in any order); Euclidean feet are
        summed in order, as the step-by-step count does."""
        step = np.diff(anchors, axis=0)
        if not len(step):
            return 0
        diagonal = (step[:, 0] != 0) & (step[:, 1] != 0)
        width = self.cost.shape[1]
        entered = self.cost.ravel().take(anchors[1:, 1] * width + anchors[1:, 0])
        if self.rule is DiagonalRule.EUCLIDEAN:
            base = np.where(diagonal, self.cell_ft * math.sqrt(2), float(self.cell_ft))
            total = float(np.cumsum(base * entered)[-1])
            return int(total) if total.is_integer() else round(total, 2)
        cells = np.ones(len(step), dtype=np.int64)
        if self.rule is DiagonalRule.FIVE_TEN_FIVE:
            cells[diagonal & (np.cumsum(diagonal) % 2 == 0)] = 2
        return int(cells @ entered) * self.cell_ft

    def _flood(self, centre: Cell, radius: int
               ) -> tuple[npt.NDArray[np.int64], tuple[int, int]]:
        """Dijkstra distances (graph units; :data:`UNREACHABLE` where none) from ``centre``
        over the window of ``radius`` anchors around it, and the window's top-left (y, x)."""
        orth, diag, _ = _WEIGHTS[self.rule]
        height, width = self.cost.shape
        y0, x0 = max(centre.y - radius, 0), max(centre.x - radius, 0)
        y1, x1 = min(centre.y + radius + 1, height), min(centre.x + radius + 1, width)
        search = self._search_over(np.s_[y0:y1, x0:x1], (orth, diag), (0, 0),
                                   Cell(centre.x - x0, centre.y - y0))
        distance = np.frombuffer(search.flood(), dtype=np.int64).reshape(y1 - y0, x1 - x0)
        return distance, (y0, x0)

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
        feet = self.passing_range_ft(budget_ft)
        feet[~self.ends_ok] = np.inf
        return feet

    def passing_range_ft(self, budget_ft: float) -> npt.NDArray[np.float64]:
        """:meth:`range_ft` with the anchors the token may only pass through (an ally's)."""
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
        return feet

    def walk_to(self, goal: Cell) -> tuple[Cell, ...] | None:
        """The cells of the cheapest walk to ``goal`` (None: unreachable), without the
        shortcuts :meth:`path_to` takes for a graph whose steps go both ways (a retreat's
        graph allows only steps away from the enemy: :mod:`core.spatial.retreat`)."""
        anchors = self._trace(goal)
        return None if anchors is None else tuple(Cell(x, y) for x, y in anchors.tolist())


class _PassableLayers:
    """The passable layers built for one state of the tokens and the map, per side and
    footprint size."""

    def __init__(self, stamp: tuple[object, ...]) -> None:
        self.stamp = stamp
        self.by_key: dict[tuple[Side, int], BoolArray] = {}


def passable_layer(encounter: Encounter, side: Side, size: int) -> BoolArray:
    """Anchors a ``size`` footprint of ``side`` may enter: no wall through it, no creature of
    another side under it (read-only). The same for every creature of the side and size
    until a token or the map changes, so a side's retreat preview builds it once per size."""
    geometry = geometry_of(encounter)
    stamp = (encounter.token_stamp(), id(geometry), geometry.revision)
    cache = encounter.peek_derived(_PassableLayers)
    if cache is None or cache.stamp != stamp:
        encounter.drop_derived(_PassableLayers)
        cache = encounter.derived(_PassableLayers, lambda: _PassableLayers(stamp))
    layer = cache.by_key.get((side, size))
    if layer is None:
        enemies = np.zeros((encounter.map.height, encounter.map.width), dtype=bool)
        for other in Side:
            if other is not side:
                enemies |= encounter.occupancy(other) > 0
        layer = footprint_layers(encounter, size).interior & ~window_any(enemies, size)
        layer.flags.writeable = False
        if cache.stamp == (encounter.token_stamp(), id(geometry), geometry.revision):
            cache.by_key[(side, size)] = layer  # kept only if nothing changed meanwhile
    return layer


class _RecentGraphs:
    """The movement graphs built lately (a few, the most recent last)."""

    KEEP = 4

    def __init__(self) -> None:
        self.graphs: list[MovementGraph] = []


def movement_graph(encounter: Encounter, token: Token) -> MovementGraph:
    """A movement graph for ``token``: the one built before if the encounter's tokens, its
    map and its rules profile are as they were then. The release of a drag, or the move
    after its preview, reuses the search the preview already did."""
    recent = encounter.derived(_RecentGraphs, _RecentGraphs)
    source = _source(encounter, token)
    for graph in recent.graphs:
        if graph.source == source:  # moved last by a new list: the odds worker may look too
            recent.graphs = [*(g for g in recent.graphs if g is not graph), graph]
            return graph
    graph = MovementGraph(encounter, token)
    if _source(encounter, token) == source:  # kept only if nothing changed meanwhile
        recent.graphs = [*recent.graphs[1 - _RecentGraphs.KEEP:], graph]
    return graph


def _source(encounter: Encounter, token: Token) -> tuple[object, ...]:
    """What a graph is built from: the token (the object: tokens are immutable), the
    tokens' stamp, the geometry and its revision, the rules profile. Objects are compared
    by identity; the graph holds them, so no other object can take their id."""
    geometry = geometry_of(encounter)
    return (id(token), encounter.token_stamp(), id(geometry), geometry.revision,
            id(encounter.profile))


def find_path(encounter: Encounter, token_id: str, goal: Cell,
              budget_ft: float | None = None) -> MovePath:
    """The path and exact cost for a token to move its top-left cell to ``goal``."""
    return movement_graph(encounter, encounter.token(token_id)).path_to(goal, budget_ft)
