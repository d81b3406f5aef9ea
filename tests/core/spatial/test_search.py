"""The compiled A* (:mod:`core.spatial._search`) behind :meth:`MovementGraph.path_to`.

Its distances are checked against a plain Dijkstra written here over the same graph (the
entry cost per anchor, a step condition per direction, the rule's weights), on random maps
with walls, doors, difficult terrain and creatures, for every diagonal rule and footprint
size; its paths against libtcod's Pathfinder on the same graph, which it replaced and whose
choice among equal-cost paths it keeps; and its own arguments against bad input.
"""

from __future__ import annotations

import heapq
import threading
from itertools import pairwise

import numpy as np
import pytest
import tcod.path
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, WallSegment
from core.model.profile import DiagonalRule, RulesProfile
from core.model.tables import SIZES, Size
from core.spatial._search import Search
from core.spatial.geometry import DIRECTIONS
from core.spatial.pathing import _SEARCH_WEIGHTS, _WEIGHTS, UNREACHABLE, MovementGraph

Anchor = tuple[int, int]


@st.composite
def battles(draw: st.DrawFn) -> Encounter:
    """Up to 9×8 maps with walls and doors (open or closed) on grid lines, difficult cells,
    any diagonal rule, a mover of any size and a few allies and enemies."""
    size = draw(st.sampled_from(list(Size)))
    span = SIZES[size].footprint
    width, height = draw(st.integers(span, 9)), draw(st.integers(span, 8))
    walls = []
    for _ in range(draw(st.integers(0, 10))):
        x, y = draw(st.integers(0, width)), draw(st.integers(0, height))
        length, across = draw(st.integers(1, 4)), draw(st.booleans())
        kind, is_open = draw(st.sampled_from([("wall", False), ("door", False),
                                              ("door", True)]))
        walls.append(WallSegment(x1=x, y1=y, x2=min(x + length * across, width),
                                 y2=min(y + length * (not across), height),
                                 kind=kind, open=is_open))
    rows = ["".join(draw(st.sampled_from(".d")) for _ in range(width)) for _ in range(height)]
    rule = draw(st.sampled_from(list(DiagonalRule)))
    encounter = Encounter(profile=RulesProfile(diagonal_rule=rule), map=BattleMap(
        width=width, height=height, terrain_rows=rows, walls=walls))
    mover = Combatant(name="Mover", size=size)
    others = draw(st.lists(st.sampled_from([Side.PARTY, Side.OPPOSITION]), max_size=4))
    for index, combatant in enumerate(
            [mover, *(Combatant(name=f"C{i}", side=side) for i, side in enumerate(others))]):
        token = Token(id=f"t{index}", combatant=combatant,
                      x=draw(st.integers(0, width - span)), y=draw(st.integers(0, height - span)))
        if encounter.can_place(token.footprint):
            encounter.add_token(token)
        elif index == 0:
            encounter.add_token(token.model_copy(update={"x": 0, "y": 0}))
    return encounter


def graph_weights(graph: MovementGraph) -> list[int]:
    orth, diag, _ = _SEARCH_WEIGHTS[graph.rule]
    return [diag if d.diagonal else orth for d in DIRECTIONS]


def dijkstra(graph: MovementGraph, weights: list[int] | None = None) -> dict[Anchor, int]:
    """The cheapest cost from the token's anchor to every anchor it reaches, in the search's
    units (or ``weights``'): a step leaves an anchor only where its direction's condition
    holds and enters only an anchor of cost > 0, at the direction's weight times that cost."""
    weights, (rows, cols) = weights or graph_weights(graph), graph.cost.shape
    best = {(graph.token.x, graph.token.y): 0}
    queue = [(0, graph.token.x, graph.token.y)]
    while queue:
        dist, x, y = heapq.heappop(queue)
        if dist > best[x, y]:
            continue
        for index, direction in enumerate(DIRECTIONS):
            nx, ny = x + direction.delta[0], y + direction.delta[1]
            if not (graph.conditions[index][y, x] and 0 <= nx < cols and 0 <= ny < rows
                    and graph.cost[ny, nx] > 0):
                continue
            new = dist + weights[index] * int(graph.cost[ny, nx])
            if new < best.get((nx, ny), new + 1):
                best[nx, ny] = new
                heapq.heappush(queue, (new, nx, ny))
    return best


def units_along(graph: MovementGraph, cells: tuple[Cell, ...]) -> int:
    """The search's units along ``cells``, each step checked to be one the graph has."""
    weights, total = graph_weights(graph), 0
    for a, b in pairwise(cells):
        index = DIRECTIONS.index(next(d for d in DIRECTIONS if d.delta == (b.x - a.x, b.y - a.y)))
        assert graph.conditions[index][a.y, a.x] and graph.cost[b.y, b.x] > 0, (a, b)
        total += weights[index] * int(graph.cost[b.y, b.x])
    return total


@settings(max_examples=150, deadline=None)
@given(battles(), st.randoms(use_true_random=False))
def test_every_goal_costs_what_a_plain_dijkstra_finds(encounter: Encounter,
                                                      rng: object) -> None:
    """Every anchor, asked for in a random order from one graph (each search resumes the
    last): reached exactly when Dijkstra reaches it, at the same cost, along real steps;
    the feet are the rule's exact count along that path."""
    graph = MovementGraph(encounter, encounter.tokens[0])
    if not graph.passable[graph.token.y, graph.token.x]:
        return  # a wall through the start: test_a_start_with_a_wall_through_it
    optimum = dijkstra(graph)
    rows, cols = graph.cost.shape
    goals = [Cell(x, y) for y in range(rows) for x in range(cols)]
    rng.shuffle(goals)  # type: ignore[attr-defined]
    for goal in goals:
        path = graph.path_to(goal)
        if goal == graph.token.cell:
            assert path.cells == (goal,) and path.legal
        elif not graph.passable[goal.y, goal.x] or (goal.x, goal.y) not in optimum:
            assert not path.legal and path.cells == (graph.token.cell,), goal
        else:
            assert path.cells[0] == graph.token.cell and path.cells[-1] == goal
            assert units_along(graph, path.cells) == optimum[goal.x, goal.y], goal
            assert graph.search().distance(goal.x, goal.y) == optimum[goal.x, goal.y]
            assert path.cost_ft == graph.exact_cost(path.cells)


@settings(max_examples=100, deadline=None)
@given(battles(), st.integers(0, 9))
def test_a_flood_reaches_what_a_plain_dijkstra_does_within_its_window(
        encounter: Encounter, radius: int) -> None:
    """The range and pocket floods (the same search with no heuristic, over a window around
    the token) give Dijkstra's distances wherever the window holds the whole cheapest way,
    and never less than them."""
    graph = MovementGraph(encounter, encounter.tokens[0])
    if not graph.passable[graph.token.y, graph.token.x]:
        return
    orth, diag, _ = _WEIGHTS[graph.rule]
    optimum = dijkstra(graph, [diag if d.diagonal else orth for d in DIRECTIONS])
    distance, (y0, x0) = graph._flood(graph.token.cell, radius)
    rows, cols = distance.shape
    assert (y0, x0) == (max(graph.token.y - radius, 0), max(graph.token.x - radius, 0))
    whole = (rows, cols) == graph.cost.shape
    for (y, x), units in np.ndenumerate(distance):
        best = optimum.get((x + x0, y + y0))
        if units == UNREACHABLE:
            assert best is None or not whole
        else:
            assert best is not None and units >= best and (units == best or not whole)


def padded(layer: np.ndarray) -> np.ndarray:
    return np.concatenate([layer, np.zeros((1, layer.shape[1]), dtype=layer.dtype)])


def libtcod_path(graph: MovementGraph, goal: Cell) -> list[list[int]]:
    """The path libtcod's Pathfinder takes over the same graph (as pathing did before the
    compiled search): (x, y) pairs from the token to ``goal``. Its graph has a blocked row
    more than the map: libtcod takes a path through every node of its graph for a loop."""
    orth, diag, guess_diag = _SEARCH_WEIGHTS[graph.rule]
    rows, cols = graph.cost.shape
    tcod_graph = tcod.path.CustomGraph((rows + 1, cols))
    for index, direction in enumerate(DIRECTIONS):
        tcod_graph.add_edge(direction.delta[::-1], diag if direction.diagonal else orth,
                            cost=padded(graph.cost), condition=padded(graph.conditions[index]))
    tcod_graph.set_heuristic(cardinal=orth, diagonal=guess_diag)
    finder = tcod.path.Pathfinder(tcod_graph)
    finder.add_root((graph.token.y, graph.token.x))
    path: list[list[int]] = finder.path_from((goal.y, goal.x))[::-1, ::-1].tolist()
    return path


@settings(max_examples=150, deadline=None)
@given(battles(), st.data())
def test_the_path_is_the_one_libtcod_chose(encounter: Encounter, data: st.DataObject) -> None:
    """Among paths of equal cost (many, on open ground) the search settles anchors in
    libtcod's order and takes the path its Pathfinder took: moves and the retreat walks
    pinned in test_retreat_known are the ones they were."""
    graph = MovementGraph(encounter, encounter.tokens[0])
    rows, cols = graph.cost.shape
    goal = Cell(data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
    if goal == graph.token.cell or not graph.passable[goal.y, goal.x]:
        return
    path = graph.path_to(goal)
    if path.legal or path.reason.startswith("an ally"):
        assert path.anchors.tolist() == libtcod_path(graph, goal)


def open_map(width: int, height: int = 1) -> Encounter:
    return Encounter(map=BattleMap(width=width, height=height),
                     tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)])


def test_a_1x1_map_has_only_the_token_s_own_cell() -> None:
    encounter = open_map(1)
    graph = MovementGraph(encounter, encounter.tokens[0])
    assert graph.path_to(Cell(0, 0)).legal
    for goal in (Cell(1, 0), Cell(-1, 0), Cell(0, 5)):
        off = graph.path_to(goal)
        assert (off.legal, off.cells) == (False, (Cell(0, 0),))
        assert off.reason == "the token would not fit on the map there"


@pytest.mark.parametrize(("width", "answers"), [
    pytest.param(6, [(4, 0, None), (0, 2, None)], id="within-the-pocket-check"),
    pytest.param(40, [(4, 0, 25), (0, 2, 10)], id="wider-than-the-pocket-check"),
])
def test_a_start_with_a_wall_through_it(width: int,
                                        answers: list[tuple[int, int, int | None]]) -> None:
    """A Large token straddling a wall (placed so by the GM): its anchor cannot be entered,
    so the pocket check's flood from the goal never finds it and refuses a goal whose whole
    pocket fits its window; past that window the search runs and walks off the wall. The
    answers libtcod's search gave."""
    wall = WallSegment(x1=1, y1=0, x2=1, y2=1)
    ogre = Token(id="o", combatant=Combatant(name="Ogre", size=Size.LARGE), x=0, y=0)
    encounter = Encounter(map=BattleMap(width=width, height=4, walls=[wall]), tokens=[ogre])
    graph = MovementGraph(encounter, ogre)
    assert not graph.passable[0, 0]
    for x, y, feet in answers:
        path = graph.path_to(Cell(x, y))
        if feet is None:
            assert (path.legal, path.reason) == (False, "no way there: walls, closed doors "
                                                 "or creatures block every path")
        else:
            assert path.legal and path.cost_ft == feet
            assert path.anchors.tolist() == libtcod_path(graph, Cell(x, y))
    assert graph.path_to(Cell(0, 0)).cells == (Cell(0, 0),)


def test_an_unreachable_goal_is_refused_with_the_reason() -> None:
    split = open_map(30, 3)
    split.map.walls.append(WallSegment(x1=10, y1=0, x2=10, y2=3))
    graph = MovementGraph(split, split.tokens[0])
    for goal in (Cell(29, 2), Cell(11, 0)):
        path = graph.path_to(goal)
        assert (path.legal, path.cells) == (False, (Cell(0, 0),))
        assert path.reason == "no way there: walls, closed doors or creatures block every path"
    assert graph.search().reached_count() == 30  # the token's side, searched once


def test_each_thread_has_its_own_search_with_the_same_answers() -> None:
    """The GUI thread and the odds worker ask one graph at once: each resumes its own
    search (the GIL is released while one runs), and both get the same paths."""
    encounter = open_map(120, 120)
    graph = MovementGraph(encounter, encounter.tokens[0])
    goals = [Cell(119, 119), Cell(0, 119), Cell(60, 3), Cell(119, 0)]
    answers: dict[str, list[list[list[int]]]] = {}

    def walk(name: str) -> None:
        answers[name] = [graph.path_to(goal).anchors.tolist() for goal in goals]

    workers = [threading.Thread(target=walk, args=(f"w{i}",)) for i in range(2)]
    for worker in workers:
        worker.start()
    walk("main")
    for worker in workers:
        worker.join()
    assert answers["w0"] == answers["w1"] == answers["main"]
    assert [len(path) for path in answers["main"]] == [120, 120, 61, 120]


GRID = np.ones((3, 4), dtype=np.int8)
STEPS = [np.ones((3, 4), dtype=bool)] * 8
DELTAS = [d.delta for d in DIRECTIONS]


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"start": (4, 0)}, IndexError, "the start is off the grid"),
    ({"start": (-1, 0)}, ValueError, "the start must be whole numbers"),
    ({"cost": np.ones(12, dtype=np.int8)}, ValueError, "cost must be a 2-d array"),
    ({"cost": np.ones((3, 4))}, ValueError, "cost must be a 2-d array of 1-byte items"),
    ({"cost": np.ones((4, 8), dtype=np.int8)[:, ::2]}, ValueError, "not C-contiguous"),
    ({"steps": STEPS[:7]}, ValueError, "need 8 items each"),
    ({"steps": [np.ones((3, 5), dtype=bool)] * 8}, ValueError, "the cost grid's shape"),
    ({"deltas": [(2, 0)] * 8}, ValueError, "a step moves one anchor"),
    ({"weights": [-1] * 8}, ValueError, "weighs 0 to 2**31 - 1"),
    ({"heuristic": (1,)}, TypeError, "takes exactly 2 arguments"),
])
def test_bad_arguments_are_refused(arguments: dict[str, object], error: type[Exception],
                                   message: str) -> None:
    given_arguments = {"cost": GRID, "steps": STEPS, "deltas": DELTAS, "weights": [1] * 8,
                       "heuristic": (1, 1), "start": (0, 0)} | arguments
    with pytest.raises(error, match=message.replace("*", r"\*")):
        Search(**given_arguments)  # type: ignore[arg-type]


def test_goals_off_the_grid_and_paths_not_found_are_refused() -> None:
    blocked = GRID.copy()
    blocked[:, 2] = 0
    search = Search(blocked, STEPS, DELTAS, [1] * 8, (1, 1), (0, 0))
    with pytest.raises(IndexError, match=r"\(4, 0\) is off the 4 x 3 grid"):
        search.resolve(4, 0)
    assert search.resolve(3, 0) is False and search.distance(3, 0) is None
    with pytest.raises(ValueError, match="no path has reached"):
        search.path(3, 0)
    assert search.resolve(1, 2) is True and search.distance(1, 2) == 2
    path = np.frombuffer(search.path(1, 2), dtype=np.intc).reshape(-1, 2).tolist()
    assert len(path) == 3 and path[0] == [0, 0] and path[-1] == [1, 2]
