"""The ``scale`` group: the core at the size of issue 18 — a 300×300 map with 10,000 walls,
3,000 tokens and 1,000 hazards (every shove defender Gargantuan) — and the memory of the
wall index on the hostile file with 100,000 walls.

Caches are cold where a user meets them cold: before each timed press another token moves
through the history (the edit a drag follows), and the first press per size after the
map opens is reported on its own.
"""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path

from benchmarks.core_bench import astar_runs
from benchmarks.hostile import run_limited
from benchmarks.scenario import SCALE, Scenario, build_scenario, elevated, open_field_pair
from benchmarks.timing import Figures, ms, sample_each, spread_ms, summary_ms, timed
from core.actions.commands import MoveToken, SetElevation
from core.actions.history import History
from core.io.fileio import load_encounter
from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.mapmodel import BattleMap, WallSegment
from core.model.tables import Size
from core.rules.evade import evade_checks
from core.rules.manoeuvres import offers
from core.rules.missile import IllegalMissileError, MissileRequest, prepare_missile
from core.rules.missile_odds import missile_odds
from core.rules.odds import shove_odds
from core.rules.shove import ShoveRequest
from core.spatial.geometry import MapGeometry, geometry_of
from core.spatial.pathing import MovementGraph, find_path
from core.spatial.playerview import party_sight

ROOT = Path(__file__).resolve().parent.parent
PRESS_SIZES = (Size.MEDIUM, Size.LARGE, Size.HUGE, Size.GARGANTUAN)
PRESSES = 12
DRAG_CELLS = 30
ODDS_ROUNDS = 3
ASTAR_RUNS = 30
LOOKUP_ROUNDS = 5
BRUSH_STEPS = 40
HOSTILE_RUNS = 5
PARTY_MOVES = 12

TARGETS: dict[str, float] = {
    **{f"press_{size.value}_p95_ms": 8 for size in PRESS_SIZES},
    **{f"drag_path_{size.value}_p95_ms": 8 for size in PRESS_SIZES},
    "shove_odds_gargantuan_max_ms": 20, "shove_odds_open_field_max_ms": 20,
    "astar_scale_total_p95_ms": 10, "astar_serpentine_total_p95_ms": 10,
    "brush_step_core_p95_ms": 8,
    # the 100,000-wall file opened in the window (both windows painted), and the process's
    # peak resident memory with the demo and the player window open beside it
    "gui_open_100k_walls_open_median_ms": 800, "gui_open_100k_walls_peak_rss_median_mib": 300,
}


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


# --- presses and drags -----------------------------------------------------------------------
def _pick(encounter: Encounter, size: Size, count: int, seed: int) -> list[Token]:
    tokens = [t for t in encounter.tokens if t.combatant.size is size]
    return random.Random(seed).sample(tokens, min(count, len(tokens)))


def _nudge(history: History, token: Token) -> None:
    """Move a token one cell east through the history (or back west): the edit before a
    press."""
    encounter = history.encounter
    current = encounter.token(token.id)
    for direction in (Direction.E, Direction.W):
        there = current.footprint.moved(direction)
        if encounter.can_place(there, ignore=token.id):
            history.push(MoveToken(token.id, Cell(there.x, there.y)))
            return


def bench_press(scenario: Scenario, seed: int) -> Figures:
    """``MovementGraph`` for a token (what a press on it builds), after another token moved;
    the first press per size right after the map opened (derived state dropped, geometry
    rebuilt as the window does) on its own."""
    encounter = scenario.encounter
    history = History(encounter)
    encounter.drop_derived()
    geometry_of(encounter)
    figures: Figures = {}
    movers = _pick(encounter, Size.MEDIUM, PRESSES, seed + 7)
    for size in PRESS_SIZES:
        tokens = _pick(encounter, size, PRESSES, seed)
        first, _ = timed(lambda t=tokens[0]: MovementGraph(encounter, encounter.token(t.id)))
        samples = []
        for token, mover in zip(tokens, movers, strict=False):
            _nudge(history, mover)
            seconds, _ = timed(lambda t=token: MovementGraph(encounter, encounter.token(t.id)))
            samples.append(seconds)
        figures |= {f"press_{size.value}_first_ms": ms(first),
                    **spread_ms(f"press_{size.value}", samples)}
    return figures


def bench_drag_paths(scenario: Scenario) -> Figures:
    """``path_to`` for each cell a drag enters (30 cells, a zigzag east of the token): the
    search part of a drag frame, per size."""
    encounter = scenario.encounter
    figures: Figures = {}
    for size in PRESS_SIZES:
        token = next(t for t in encounter.tokens if t.combatant.size is size
                     and 40 < t.x < 250 and 40 < t.y < 250)
        graph = MovementGraph(encounter, token)
        cells = [Cell(token.x + 1 + i % 10, token.y + (i // 10) - 1) for i in range(DRAG_CELLS)]
        samples = []
        for cell in cells:
            seconds, _ = timed(partial(graph.path_to, cell))
            samples.append(seconds)
        figures |= spread_ms(f"drag_path_{size.value}", samples)
    return figures


# --- odds --------------------------------------------------------------------------------------
def bench_odds(scenario: Scenario) -> Figures:
    """Exact shove odds for the 28 pairs (all Gargantuan defenders) and the open-field
    shoves; missile odds, the manoeuvre menu and the evade checks of a short walk (what a
    drag during a round asks for) on the scale map."""
    encounter = scenario.encounter
    pairs = [ShoveRequest(attacker=p.attacker, defender=p.defender) for p in scenario.pairs]
    pair_odds = sample_each([partial(shove_odds, encounter, r) for r in pairs], ODDS_ROUNDS)
    opens = open_field_pair(encounter)
    open_odds = sample_each([partial(shove_odds, encounter, r) for r in opens], ODDS_ROUNDS)
    rng = random.Random(5)
    shots: list[MissileRequest] = []
    while len(shots) < 20:
        a, b = rng.sample(encounter.tokens, 2)
        request = MissileRequest(attacker=a.id, target=b.id, weapon="Long bow")
        try:
            prepare_missile(encounter, request)
        except (IllegalMissileError, ValueError):
            continue
        shots.append(request)
    missiles = sample_each([partial(missile_odds, encounter, s) for s in shots], ODDS_ROUNDS)
    menus = sample_each([partial(offers, encounter, p.attacker) for p in scenario.pairs],
                        ODDS_ROUNDS)
    walks = [(p.attacker, find_path(encounter, p.attacker, Cell(
        encounter.token(p.attacker).x + 3, encounter.token(p.attacker).y + 5)).cells)
        for p in scenario.pairs]
    evades = sample_each([partial(evade_checks, encounter, mover, cells)
                          for mover, cells in walks if len(cells) > 1], ODDS_ROUNDS)
    return {**spread_ms("shove_odds_gargantuan", pair_odds),
            **spread_ms("shove_odds_open_field", open_odds),
            "shove_odds_open_field_requests": len(opens),
            **spread_ms("missile_odds_scale", missiles),
            **spread_ms("token_menu_scale", menus),
            **spread_ms("evade_checks_scale", evades)}


# --- A* ----------------------------------------------------------------------------------------
def serpentine(size: int) -> tuple[Encounter, str, Cell]:
    """A size×size map of two-cell-high corridors joined at alternate ends (walls along
    every other row line, each with a two-cell gap at one end): the path from the top-left
    to the bottom row runs through every corridor, about size²/2 cells."""
    from core.model.combatant import Combatant

    walls = []
    for row, y in enumerate(range(2, size, 2)):
        gap_left = row % 2 == 1
        x1, x2 = (2, size) if gap_left else (0, size - 2)
        walls.append(WallSegment(x1=x1, y1=y, x2=x2, y2=y))
    battle_map = BattleMap(width=size, height=size, walls=walls)
    runner = Token(id="runner", combatant=Combatant(name="Runner"), x=0, y=0)
    goal = Cell(0 if (size // 2) % 2 == 0 else size - 1, size - 1)
    return Encounter(map=battle_map, tokens=[runner]), "runner", goal


def _astar_cold(encounter: Encounter, token_id: str, goal: Cell) -> float:
    encounter.drop_derived()
    geometry_of(encounter)
    start = time.perf_counter()
    MovementGraph(encounter, encounter.token(token_id)).path_to(goal)
    return time.perf_counter() - start


def bench_astar(scenario: Scenario) -> Figures:
    """``MovementGraph`` + ``path_to`` corner to corner on the scale map and along the
    serpentine, and its parts (graph arrays, the search's setup, the search); "cold" drops
    every derived value but the geometry first. ``anchors_reached``: the anchors the
    search reached (its cost is per anchor)."""
    maze, runner, goal = serpentine(SCALE.size)
    figures: Figures = {}
    for name, (encounter, token_id, target) in (
            ("scale", (scenario.encounter, scenario.runner, scenario.goal)),
            ("serpentine", (maze, runner, goal))):
        parts = astar_runs(encounter, token_id, target, ASTAR_RUNS)
        figures |= spread_ms(f"astar_{name}_total", parts.pop("total"))
        for part, samples in parts.items():
            figures |= summary_ms(f"astar_{name}_{part}", samples)
        cold = [_astar_cold(encounter, token_id, target) for _ in range(ASTAR_RUNS + 2)]
        figures |= spread_ms(f"astar_{name}_cold", cold[2:])
        graph = MovementGraph(encounter, encounter.token(token_id))
        path = graph.path_to(target)
        reached = graph.search().reached_count()
        figures |= {f"astar_{name}_path_cells": len(path.cells),
                    f"astar_{name}_cost_ft": path.cost_ft, f"astar_{name}_legal": path.legal,
                    f"astar_{name}_anchors_reached": reached}
    return figures


# --- lookups, brush ------------------------------------------------------------------------------
def bench_lookup(scenario: Scenario) -> Figures:
    """``Encounter.token`` by id for all 3,000 tokens, and ``token_at`` for every cell."""
    encounter = scenario.encounter
    ids = [t.id for t in encounter.tokens]
    cells = [Cell(x, y) for y in range(encounter.map.height) for x in range(encounter.map.width)]
    by_id = sample_each([lambda: [encounter.token(i) for i in ids]], LOOKUP_ROUNDS)
    at = sample_each([lambda: [encounter.token_at(c) for c in cells]], LOOKUP_ROUNDS)
    return {"token_by_id_us": round(min(by_id) / len(ids) * 1e6, 3),
            "token_at_us": round(min(at) / len(cells) * 1e6, 3)}


def bench_brush(scenario: Scenario) -> Figures:
    """A 3×3 elevation brush step pushed through the history on a map with height on every
    cell (what the geometry does to follow it; the scene's part is in ``gui-scale``)."""
    encounter = elevated(scenario.encounter)
    geometry_of(encounter)
    history = History(encounter)
    key = object()
    samples = []
    for step in range(BRUSH_STEPS):
        cells = {Cell(100 + step + dx, 120 + dy) for dx in range(3) for dy in range(3)}
        seconds, _ = timed(lambda c=cells: history.push(SetElevation(c, 25), key))
        samples.append(seconds)
    return spread_ms("brush_step_core", samples)


# --- the party's sight ------------------------------------------------------------------------
def bench_party_sight(scenario: Scenario) -> Figures:
    """The party's sight (what a move records for fog of war) on the scale map, whose party
    is some 1,350 tokens: all of it once, then after each of a few party moves, which
    recompute only the moved token's sight. The moves are undone afterwards."""
    encounter = scenario.encounter
    history = History(encounter)
    first_s, _ = timed(lambda: party_sight(encounter))
    movers = [t for t in encounter.tokens if t.combatant.side is Side.PARTY
              and encounter.can_place(t.footprint.moved(Direction.E), t.id)][:PARTY_MOVES]
    samples = []
    for token in movers:
        history.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
        samples.append(timed(lambda: party_sight(encounter))[0])
    for _ in movers:
        history.undo()
    return {"party_sight_all_ms": ms(first_s), **spread_ms("party_sight_after_move", samples)}


# --- memory -------------------------------------------------------------------------------------
def _traced(build: Callable[[], object]) -> tuple[float, int, int]:
    """Seconds, bytes kept and peak bytes (tracemalloc: Python objects and numpy arrays)."""
    gc.collect()
    tracemalloc.start()
    seconds, kept = timed(build)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return seconds, current, peak


def hostile_walls(folder: Path) -> Path:
    """The hostile corpus's 100,000-wall file (tests/hostile/make_corpus.py --big)."""
    path = folder / "walls-100000.json"
    if not path.exists():
        subprocess.run([sys.executable, str(ROOT / "tests" / "hostile" / "make_corpus.py"),
                        "--big", str(folder)], check=True, capture_output=True)
    return path


def _child_run(command: list[str]) -> tuple[float, float, float]:
    """Seconds and peak resident MiB of one child process, and the seconds it reports for
    the open itself (``hostile_gui_open.py``'s ``open_s``). The child is forked by a small
    Python (:func:`benchmarks.hostile.run_limited`): forked from this process, its peak
    started at this one's, the whole scale scenario's (356 MiB against its own 238)."""
    run = run_limited(command, ROOT, timeout=300, memory_mib=8192)
    if run.code != 0:
        raise RuntimeError(f"{command} exited with status {run.code}: {run.stderr[-300:]}")
    return run.seconds, run.peak_mib, json.loads(run.stdout)["open_s"]


def bench_memory(scenario: Scenario) -> Figures:
    """``MapGeometry`` of the scale map and of the 100,000-wall hostile file (time, bytes
    kept, peak); the hostile file opened in a real main window, in a child process, three
    times (seconds, peak resident MiB)."""
    figures: Figures = {}
    seconds, kept, peak = _traced(lambda: MapGeometry(scenario.encounter.map))
    figures |= {"geometry_scale_build_ms": ms(seconds), "geometry_scale_kept_mib":
                round(kept / 2**20, 1), "geometry_scale_peak_mib": round(peak / 2**20, 1)}
    with tempfile.TemporaryDirectory(prefix="battlemap-scale-") as tmp:
        path = hostile_walls(Path(tmp))
        encounter = load_encounter(path)
        seconds, kept, peak = _traced(lambda: MapGeometry(encounter.map))
        figures |= {"geometry_100k_walls_build_ms": ms(seconds),
                    "geometry_100k_walls_kept_mib": round(kept / 2**20, 1),
                    "geometry_100k_walls_peak_mib": round(peak / 2**20, 1)}
        command = [sys.executable, str(ROOT / "benchmarks" / "hostile_gui_open.py"), str(path)]
        runs = [_child_run(command) for _ in range(HOSTILE_RUNS)]
    seconds_list = sorted(r[0] for r in runs)
    rss = sorted(r[1] for r in runs)
    figures |= {"gui_open_100k_walls_median_s": round(seconds_list[len(runs) // 2], 2),
                "gui_open_100k_walls_min_s": round(seconds_list[0], 2),
                "gui_open_100k_walls_max_s": round(seconds_list[-1], 2),
                "gui_open_100k_walls_peak_rss_median_mib": round(rss[len(runs) // 2], 1),
                "gui_open_100k_walls_peak_rss_max_mib": round(rss[-1], 1),
                **spread_ms("gui_open_100k_walls_open", [r[2] for r in runs])}
    return figures


# --- the group ----------------------------------------------------------------------------------
def run(seed: int) -> Figures:
    started = time.perf_counter()
    generate_s, scenario = timed(lambda: build_scenario(seed, spec=SCALE))
    _log(f"scale scenario built in {generate_s:.1f} s")
    figures: Figures = {}
    steps: list[tuple[str, Callable[[], Figures]]] = [
        ("lookup", lambda: bench_lookup(scenario)),
        ("press", lambda: bench_press(scenario, seed)),
        ("drag paths", lambda: bench_drag_paths(scenario)),
        ("odds", lambda: bench_odds(scenario)), ("astar", lambda: bench_astar(scenario)),
        ("brush", lambda: bench_brush(scenario)),
        ("party sight", lambda: bench_party_sight(scenario)),
        ("memory", lambda: bench_memory(scenario))]
    for name, step in steps:
        seconds, found = timed(step)
        figures |= found
        _log(f"{name} done in {seconds:.1f} s")
    encounter = scenario.encounter
    figures["targets"] = {key: {"below": limit, "value": figures.get(key),
                                "met": figures.get(key) is not None and figures[key] <= limit}
                          for key, limit in TARGETS.items()}
    figures["scenario"] = {"map": f"{encounter.map.width}x{encounter.map.height}",
                           "walls": len(encounter.map.walls),
                           "hazards": len(encounter.map.hazards),
                           "tokens": len(encounter.tokens),
                           "generate_s": round(generate_s, 1)}
    figures["group_runtime_s"] = round(time.perf_counter() - started, 1)
    return figures
