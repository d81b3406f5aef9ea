"""Vision figures for the ``core`` group: party visibility on the scenario map, and the
candidates it was chosen over (benchmarks/README.md, "Vision").

The party is six seeded party tokens of the scenario (the other tokens are turned into
opposition in a copy, so :func:`party_vision` is timed as the player window calls it).
"""

from __future__ import annotations

import random
import time

import numpy as np
import tcod.map
from tcod import libtcodpy

from benchmarks.scenario import Scenario
from benchmarks.timing import Figures, median, ms, sample_each, summary_ms
from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.mapmodel import Darkness, Light
from core.spatial.geometry import geometry_of
from core.spatial.sweep import BoolArray, FloatArray
from core.spatial.vision import eye_of, lit_cells, party_vision, token_vision

PARTY = 6
ROUNDS = 40
CANDIDATE_ROUNDS = 10
LIGHTS = 25
RAY_SAMPLE = 2000
TCOD_ALGORITHMS = {"symmetric": libtcodpy.FOV_SYMMETRIC_SHADOWCAST,
                   "permissive8": libtcodpy.FOV_PERMISSIVE_8}


def party_encounter(scenario: Scenario, seed: int) -> Encounter:
    """A copy of the scenario whose only party tokens are six seeded ones."""
    encounter = scenario.encounter.model_copy(deep=True)
    party = [t for t in encounter.tokens if t.combatant.side is Side.PARTY]
    chosen = {t.id for t in random.Random(seed).sample(party, PARTY)}
    encounter.put_tokens([_with(t, side=Side.OPPOSITION) for t in encounter.tokens
                          if t.id not in chosen])
    return encounter


def _with(token: Token, **combatant: object) -> Token:
    """A copy of the token whose combatant has the given fields changed."""
    return token.with_combatant(token.combatant.model_copy(update=combatant))


def in_the_dark(encounter: Encounter, seed: int) -> Encounter:
    """The same map dark, with seeded lights (3-8 cells) and 60 ft darkvision for all."""
    dark = encounter.model_copy(deep=True)
    rng = random.Random(seed)
    dark.map.darkness = Darkness.DARK
    dark.map.lights = [Light(x=rng.uniform(0, dark.map.width), y=rng.uniform(0, dark.map.height),
                             range_cells=rng.uniform(3, 8)) for _ in range(LIGHTS)]
    dark.put_tokens([_with(t, darkvision_ft=60) for t in dark.tokens])
    return dark


def bench_vision(scenario: Scenario, seed: int) -> tuple[Figures, Figures]:
    encounter = party_encounter(scenario, seed)
    party = [t for t in encounter.tokens if t.combatant.side is Side.PARTY]
    figures = {**summary_ms("vision_party", sample_each([lambda: party_vision(encounter)],
                                                        ROUNDS)),
               **summary_ms("vision_token", sample_each(
                   [lambda t=t: token_vision(encounter, t) for t in party], ROUNDS // 4))}
    dark = in_the_dark(encounter, seed)
    figures |= _lights(dark) | summary_ms(
        "vision_dark_party", sample_each([lambda: party_vision(dark)], ROUNDS))
    exact = [token_vision(encounter, t) for t in party]
    figures |= _tcod_candidates(encounter, exact) | _ray_candidate(encounter, exact, seed)
    return figures, {"vision_party_tokens": [t.id for t in party],
                     "vision_party_cells_seen": int(np.logical_or.reduce(exact).sum())}


def _lights(dark: Encounter) -> Figures:
    """lit_cells computed afresh: the light list is rotated each call, so the cache (keyed
    on the lights) misses, as after a wall edit."""
    def relight() -> None:
        dark.map.lights = dark.map.lights[1:] + dark.map.lights[:1]
        lit_cells(dark)

    return summary_ms(f"vision_lit_cells_{LIGHTS}_lights", sample_each([relight],
                                                                       CANDIDATE_ROUNDS))


# --- candidates --------------------------------------------------------------------------
def doubled_grid(segments: FloatArray, width: int, height: int, scale: int = 2) -> BoolArray:
    """Transparency on a grid ``scale`` times finer whose even lines are the map's grid
    lines: a wall makes the fine cells along it opaque (angled walls by sampling)."""
    clear = np.ones((height * scale + 1, width * scale + 1), dtype=bool)
    for x1, y1, x2, y2 in segments:
        steps = int(max(abs(x2 - x1), abs(y2 - y1)) * scale * 2) + 2
        t = np.linspace(0.0, 1.0, steps)
        xs = np.rint((x1 + (x2 - x1) * t) * scale).astype(int)
        ys = np.rint((y1 + (y2 - y1) * t) * scale).astype(int)
        inside = (xs >= 0) & (xs <= width * scale) & (ys >= 0) & (ys <= height * scale)
        clear[ys[inside], xs[inside]] = False
    return clear


def _tcod_candidates(encounter: Encounter, exact: list[BoolArray]) -> Figures:
    battle_map = encounter.map
    width, height = battle_map.width, battle_map.height
    segments = geometry_of(encounter).sight_segments()
    start = time.perf_counter()
    clear = doubled_grid(segments, width, height)
    figures: Figures = {"vision_tcod_x2_grid_build_ms": ms(time.perf_counter() - start)}
    eyes = [(round(y * 2), round(x * 2))
            for x, y in (eye_of(t) for t in encounter.tokens if t.combatant.side is Side.PARTY)]
    for name, algorithm in TCOD_ALGORITHMS.items():
        def fov(pov: tuple[int, int], algorithm: int = algorithm) -> BoolArray:
            seen: BoolArray = tcod.map.compute_fov(clear, pov, radius=0, light_walls=True,
                                                   algorithm=algorithm)[1::2, 1::2]
            return seen

        timings = sample_each([lambda: [fov(pov) for pov in eyes]], CANDIDATE_ROUNDS * 4)
        cells = [fov(pov) for pov in eyes]
        figures |= {
            f"vision_tcod_{name}_x2_party_median_ms": ms(median(timings)),
            f"vision_tcod_{name}_x2_cells_shown_wrongly": int(sum(
                (c & ~e).sum() for c, e in zip(cells, exact, strict=True))),
            f"vision_tcod_{name}_x2_cells_hidden_wrongly": int(sum(
                (~c & e).sum() for c, e in zip(cells, exact, strict=True)))}
    return figures


def _ray_candidate(encounter: Encounter, exact: list[BoolArray], seed: int) -> Figures:
    """MapGeometry.line_of_sight per cell centre, timed on a sample of cells of the first
    party token and scaled to the whole party and map; and the sweep's agreement with it."""
    geometry = geometry_of(encounter)
    battle_map = encounter.map
    token = next(t for t in encounter.tokens if t.combatant.side is Side.PARTY)
    rng = random.Random(seed)
    cells = [(rng.randrange(battle_map.width), rng.randrange(battle_map.height))
             for _ in range(RAY_SAMPLE)]
    eye = eye_of(token)
    start = time.perf_counter()
    rays = [geometry.line_of_sight(eye, (x + 0.5, y + 0.5)) for x, y in cells]
    per_cell = (time.perf_counter() - start) / RAY_SAMPLE
    party = sum(t.combatant.side is Side.PARTY for t in encounter.tokens)
    return {"vision_ray_per_cell_party_estimate_ms": ms(
                per_cell * battle_map.width * battle_map.height * party),
            "vision_sweep_disagrees_with_line_of_sight": sum(
                ray != bool(exact[0][y, x]) for ray, (x, y) in zip(rays, cells, strict=True))}
