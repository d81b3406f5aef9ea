"""The ``scaling`` group: the same core figures on the scale scenario (300×300, 10,000 walls,
3,000 tokens, 1,000 hazards) and on versions of it with a quarter and a sixteenth of its
area, walls, tokens and hazards, so the growth of each cost with the work is visible.

A map is at most 300 cells a side (``core.model.limits.MAX_MAP_CELLS``) and a file holds at
most 1,000 tokens, so the rows go down from the scale scenario, not up: 75×75, 150×150 and
300×300 are 1×, 4× and 16× the work. Each row runs in its own process (its peak resident
memory is its own): ``python -m benchmarks.scaling_bench ROW SEED`` prints the row's
figures as JSON.

The growth exponent of a figure is log(figure at 16× / figure at 1×) / log(16): 1 is linear
in the work, 0.5 grows with the map's side, above 1 grows faster than the work.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from benchmarks.core_bench import astar_runs
from benchmarks.scenario import CATEGORIES, SCALE, Scenario, Spec, build_scenario
from benchmarks.timing import Figures, median, ms, sample_each, summary_ms
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Side
from core.model.grid import Cell
from core.model.limits import MAX_TOKENS
from core.model.tables import Size
from core.rules.morale import checkers, retreat_plans
from core.rules.odds import shove_odds
from core.rules.shove import ShoveRequest
from core.spatial.pathing import MovementGraph

ROOT = Path(__file__).resolve().parent.parent
#: Each row's share of the scale scenario (1/16, 1/4, the whole), smallest first.
SHARES = (16, 4, 1)
ASTAR_RUNS = 12
PRESSES = 12
DRAG_CELLS = 30
ODDS_ROUNDS = 2
MORALE_RUNS = 3
FILE_RUNS = 3
#: Growth exponents above this are reported as worse than linear (timing noise allows a
#: little over 1 for a linear cost).
LINEAR = 1.15


def _log(message: str) -> None:
    print(f"[scaling] {message}", file=sys.stderr, flush=True)


def spec_for(share: int) -> Spec:
    """The scale scenario with 1/``share`` of its area, walls, tokens and hazards (the
    smallest row has one shove site per category: 28 do not fit on 75×75)."""
    def part(count: int) -> int:
        return max(count // share, 1)

    return dataclasses.replace(
        SCALE, size=round(SCALE.size / math.sqrt(share)), walls=part(SCALE.walls),
        loose_walls=part(SCALE.loose_walls), angled_walls=part(SCALE.angled_walls),
        tokens=part(SCALE.tokens), hazard_fields=part(SCALE.hazard_fields),
        pair_sites=len(CATEGORIES) if share >= 16 else SCALE.pair_sites)


def _press_and_drag(scenario: Scenario, seed: int) -> Figures:
    """``MovementGraph`` of 12 Medium tokens (a press), and ``path_to`` for the 30 cells of a
    drag east of the first one."""
    encounter = scenario.encounter
    mediums = [t for t in encounter.tokens if t.combatant.size is Size.MEDIUM]
    tokens = random.Random(seed).sample(mediums, min(PRESSES, len(mediums)))
    presses = sample_each([partial(MovementGraph, encounter, t) for t in tokens], 1)
    graph = MovementGraph(encounter, tokens[0])
    cells = [Cell(tokens[0].x + 1 + i % 10, tokens[0].y + i // 10 - 1) for i in range(DRAG_CELLS)]
    drags = sample_each([partial(graph.path_to, cell) for cell in cells], 1, warmup=0)
    return {**summary_ms("press", presses), **summary_ms("drag_path", drags)}


def _files(scenario: Scenario) -> Figures:
    """``save_encounter`` and ``load_encounter`` in a temporary folder (none over a file's
    token limit: the file format refuses it)."""
    encounter = scenario.encounter
    if len(encounter.tokens) > MAX_TOKENS:
        return {"save_median_ms": None, "load_median_ms": None, "file_bytes": None,
                "file_note": f"{len(encounter.tokens)} tokens: over a file's {MAX_TOKENS}"}
    with tempfile.TemporaryDirectory(prefix="battlemap-scaling-") as folder:
        path = Path(folder) / "scaling.json"
        saves = sample_each([partial(save_encounter, encounter, path)], FILE_RUNS)
        loads = sample_each([partial(load_encounter, path)], FILE_RUNS)
        size = path.stat().st_size
    return {"save_median_ms": ms(median(saves)), "load_median_ms": ms(median(loads)),
            "file_bytes": size}


def row(share: int, seed: int) -> Figures:
    """Every figure of one row."""
    build_s, scenario = timed_build(share, seed)
    encounter = scenario.encounter
    _log(f"1/{share}: {encounter.map.width}x{encounter.map.height} built in {build_s:.1f} s")
    astar = astar_runs(encounter, scenario.runner, scenario.goal, ASTAR_RUNS)["total"]
    pairs = [ShoveRequest(attacker=p.attacker, defender=p.defender) for p in scenario.pairs]
    odds = sample_each([partial(shove_odds, encounter, r) for r in pairs], ODDS_ROUNDS)
    morale = sample_each([partial(retreat_plans, encounter, Side.OPPOSITION)], MORALE_RUNS)
    return {"map": f"{encounter.map.width}x{encounter.map.height}",
            "walls": len(encounter.map.walls), "tokens": len(encounter.tokens),
            "hazards": len(encounter.map.hazards),
            "morale_checkers": len(checkers(encounter, Side.OPPOSITION)),
            "build_s": round(build_s, 2),
            **summary_ms("astar_total", astar),
            **_press_and_drag(scenario, seed),
            **summary_ms("shove_odds", odds), "shove_odds_max_ms": ms(max(odds)),
            "morale_preview_median_ms": ms(median(morale)),
            **_files(scenario)}


def timed_build(share: int, seed: int) -> tuple[float, Scenario]:
    start = time.perf_counter()
    scenario = build_scenario(seed, spec=spec_for(share))
    return time.perf_counter() - start, scenario


def _row_in_child(share: int, seed: int) -> Figures:
    """One row in a fresh process, with that process's peak resident memory."""
    child = subprocess.Popen([sys.executable, "-m", "benchmarks.scaling_bench", str(share),
                              str(seed)], stdout=subprocess.PIPE, cwd=ROOT)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"scaling row 1/{share} exited with status {child.returncode}")
    figures: Figures = json.loads(output)
    figures["peak_rss_mib"] = round(usage.ru_maxrss / 1024, 1)
    return figures


#: The figures whose growth is reported (medians in ms, and the peak memory).
GROWTH_KEYS = ("astar_total_median_ms", "press_median_ms", "drag_path_median_ms",
               "shove_odds_median_ms", "morale_preview_median_ms", "save_median_ms",
               "load_median_ms", "peak_rss_mib")


def growth(rows: dict[str, Figures]) -> Figures:
    """Per figure, the growth exponent between the smallest and the largest row that has
    it (see the module's docstring), and the figures that grow worse than linearly."""
    exponents: dict[str, float | None] = {}
    ordered = list(rows.values())
    for key in GROWTH_KEYS:
        points = [(SHARES[0] / share, figures[key]) for share, figures in
                  zip(SHARES, ordered, strict=True) if figures.get(key)]
        if len(points) < 2:
            exponents[key] = None
            continue
        (work_a, a), (work_b, b) = points[0], points[-1]
        exponents[key] = round(math.log(b / a) / math.log(work_b / work_a), 2)
    worse = [key for key, value in exponents.items() if value is not None and value > LINEAR]
    return {"growth_exponent": exponents, "worse_than_linear": worse}


def run(seed: int) -> Figures:
    started = time.perf_counter()
    rows = {f"{SHARES[0] // share}x": _row_in_child(share, seed) for share in SHARES}
    return {"rows": rows, **growth(rows),
            "group_runtime_s": round(time.perf_counter() - started, 1)}


if __name__ == "__main__":
    print(json.dumps(row(int(sys.argv[1]), int(sys.argv[2]))))
