"""The ``morale`` benchmark group: what morale asks of the map on the seeded 200×200
scenario (300 tokens, 3,000 walls) — the triggers read after every change (the bar over the
map), the retreat preview of a band of 12 and of the whole opposition, and a check resolved
for the band with its walks.

:func:`run` returns the figures (times in ms, as the key names say) and the targets.
"""

from __future__ import annotations

import sys
import time

from benchmarks.scenario import build_scenario
from benchmarks.timing import Figures, sample, summary_ms, timed
from core.actions.base import plan
from core.actions.morale import MoraleAction
from core.model.combatant import Condition, Side
from core.model.dice import SeededDice
from core.model.encounter import Encounter
from core.rules.morale import MoraleRequest, checkers, pending_triggers, retreat_plans

BAND = 12
RUNS = 5

# The bar is read after every edit; a preview appears when the GM asks for a check.
TARGETS: dict[str, float] = {
    "pending_triggers_p95_ms": 5.0,
    "retreat_preview_band_p95_ms": 500.0,
    "retreat_preview_whole_side_median_ms": 150.0,
}


def _log(text: str) -> None:
    print(f"  morale: {text}", file=sys.stderr, flush=True)


def band_only(encounter: Encounter) -> Encounter:
    """A copy where only the first ``BAND`` creatures of the opposition check morale (the
    rest surrendered): a realistic band on the big map."""
    copy = encounter.scratch_copy()
    for token in checkers(encounter, Side.OPPOSITION)[BAND:]:
        surrendered = token.combatant.conditions | {Condition.SURRENDERED}
        copy.put_token(token.with_combatant(token.combatant.model_copy(
            update={"conditions": surrendered})))
    return copy


def run(seed: int) -> Figures:
    started = time.perf_counter()
    generate_s, scenario = timed(lambda: build_scenario(seed))
    _log(f"scenario built in {generate_s:.2f} s")
    encounter = scenario.encounter
    band = band_only(encounter)
    triggers = sample(lambda: pending_triggers(encounter), 50)
    preview = sample(lambda: retreat_plans(band, Side.OPPOSITION), RUNS)
    whole_side = sample(lambda: retreat_plans(encounter, Side.OPPOSITION), RUNS)
    whole = retreat_plans(encounter, Side.OPPOSITION)
    check = sample(lambda: plan(MoraleAction(MoraleRequest(side=Side.OPPOSITION)), band,
                                SeededDice(seed)), RUNS)
    plans = retreat_plans(band, Side.OPPOSITION)
    figures = {**summary_ms("pending_triggers", triggers),
               **summary_ms("retreat_preview_band", preview),
               "retreat_preview_band_size": len(plans),
               "retreat_band_runners_moving": sum(len(p.cells) > 1 for p in plans.values()),
               **summary_ms("retreat_preview_whole_side", whole_side),
               "retreat_preview_whole_side_size": len(whole),
               **summary_ms("morale_check_band", check)}
    return {**figures, "targets": {key: {"below": limit, "value": figures[key],
                                         "met": figures[key] < limit}
                                   for key, limit in TARGETS.items()},
            "group_runtime_s": round(time.perf_counter() - started, 1)}
