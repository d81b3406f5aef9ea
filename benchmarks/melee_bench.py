"""The ``melee`` benchmark group: what the map asks of the melee manoeuvres while the GM
works — a token's right-click menu with every manoeuvre's odds, a throw's choices, a
drag's overrun or evade checks — on the seeded 200×200 scenario (300 tokens, 3,000 walls).

:func:`run` returns the figures (times in ms, as the key names say) and the targets.
"""

from __future__ import annotations

import sys
import time

from benchmarks.scenario import build_scenario
from benchmarks.timing import Figures, sample, sample_each, summary_ms, timed
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.round import InitiativeEntry
from core.rules.grapple import GrappleAttempt, GrappleRequest, grapple_odds
from core.rules.manoeuvres import drag_offer, offers, throw_choices
from core.spatial.pathing import find_path

ROUNDS = 5
DRAG_RUNS = 20

# A menu or a drag preview must feel instant.
TARGETS: dict[str, float] = {
    "token_menu_p95_ms": 50.0,
    "throw_choices_p95_ms": 50.0,
    "drag_offer_long_path_p95_ms": 20.0,
}


def _log(text: str) -> None:
    print(f"  melee: {text}", file=sys.stderr, flush=True)


def bench_menus(encounter: Encounter, actors: list[str]) -> Figures:
    """``offers`` for each actor (what its right-click menu computes) and a throw's
    choices against its partner."""
    menus = sample_each([lambda a=a: offers(encounter, a) for a in actors], ROUNDS)
    counts = [len(offers(encounter, a)) for a in actors]
    pairs = [(encounter.token(a), encounter.token(o.target)) for a in actors
             for o in offers(encounter, a)[:1]]
    throws = sample_each([lambda p=p: throw_choices(encounter, *p) for p in pairs], ROUNDS)
    request = next((GrappleRequest(attacker=a.id, defender=d.id, attempt=GrappleAttempt.THROW,
                                   throw_direction=c.request.throw_direction)  # type: ignore[union-attr]
                    for a, d in pairs for c in throw_choices(encounter, a, d)[:1]), None)
    odds = sample(lambda: grapple_odds(encounter, request), 50) if request else []
    return {**summary_ms("token_menu", menus), "token_menu_entries_max": max(counts),
            "menus_timed": len(actors), **summary_ms("throw_choices", throws),
            **(summary_ms("grapple_odds_throw", odds) if odds else {})}


def bench_drag(encounter: Encounter, runner: str, goal: Cell) -> Figures:
    """``drag_offer`` for the runner's long path across the map during a round (the evade
    checks of every step): what the select tool asks each time the pointer enters a cell."""
    path = find_path(encounter, runner, goal).cells
    seconds = sample(lambda: drag_offer(encounter, runner, goal, path=path, around=True),
                     DRAG_RUNS)
    offer = drag_offer(encounter, runner, goal, path=path, around=True)
    return {**summary_ms("drag_offer_long_path", seconds), "drag_path_cells": len(path),
            "drag_evade_checks": len(offer.checks) if offer else 0}


def targets(figures: Figures) -> Figures:
    return {key: {"below": limit, "value": figures[key], "met": figures[key] < limit}
            for key, limit in TARGETS.items() if key in figures}


def run(seed: int) -> Figures:
    started = time.perf_counter()
    generate_s, scenario = timed(lambda: build_scenario(seed))
    _log(f"scenario built in {generate_s:.2f} s")
    encounter = scenario.encounter
    actors = [pair.attacker for pair in scenario.pairs]
    figures = bench_menus(encounter, actors)
    figures |= bench_drag(_in_a_round(encounter), scenario.runner, scenario.goal)
    return {**figures, "targets": targets(figures),
            "group_runtime_s": round(time.perf_counter() - started, 1)}


def _in_a_round(encounter: Encounter) -> Encounter:
    """The encounter with a round under way (evade checks are asked only then)."""
    encounter.timeline.entries = [InitiativeEntry(token_id=encounter.tokens[0].id)]
    return encounter
