"""Cover and missile figures for the ``core`` group (benchmarks/README.md, "Core figures").

Pairs of scenario tokens are drawn with a seeded generator: for cover any two tokens whose
squares do not overlap (walls, doors, objects and the other 298 creatures all count); for
the missile odds those a long bow (70/140/210 ft) can shoot at — within range and with a line
of fire — so every call enumerates the d20 and, for every miss, the twelve clock faces
through the map's walls.
"""

from __future__ import annotations

import random
from functools import partial

from benchmarks.scenario import Scenario
from benchmarks.timing import Figures, sample_each, summary_ms
from core.model.encounter import Encounter, Token
from core.rules.cover import cover_on_map
from core.rules.missile import IllegalMissileError, MissileRequest, prepare_missile
from core.rules.missile_odds import missile_odds
from core.spatial.cover import crowd_of

COVER_PAIRS = 200
ODDS_PAIRS = 40
ROUNDS = 5
BOW = "Long bow"


def _pairs(encounter: Encounter, rng: random.Random, count: int) -> list[tuple[Token, Token]]:
    pairs: list[tuple[Token, Token]] = []
    while len(pairs) < count:
        a, b = rng.sample(encounter.tokens, 2)
        if not a.footprint.overlaps(b.footprint):
            pairs.append((a, b))
    return pairs


def _shots(encounter: Encounter, rng: random.Random, count: int) -> list[MissileRequest]:
    """Requests a long bow can make (in range, a line of fire)."""
    shots: list[MissileRequest] = []
    while len(shots) < count:
        a, b = _pairs(encounter, rng, 1)[0]
        request = MissileRequest(attacker=a.id, target=b.id, weapon=BOW)
        try:
            prepare_missile(encounter, request)
        except IllegalMissileError:
            continue
        shots.append(request)
    return shots


def bench_missiles(scenario: Scenario, seed: int) -> tuple[Figures, Figures]:
    encounter = scenario.encounter
    rng = random.Random(seed)
    crowd_of(encounter)  # built once per token list, as in the app
    pairs = _pairs(encounter, rng, COVER_PAIRS)
    cover = sample_each([partial(cover_on_map, encounter, a.id, b.id) for a, b in pairs],
                        ROUNDS)
    shots = _shots(encounter, rng, ODDS_PAIRS)
    seen = sample_each([partial(cover_on_map, encounter, s.attacker, s.target) for s in shots],
                       ROUNDS)
    odds = sample_each([partial(missile_odds, encounter, shot) for shot in shots], ROUNDS)
    reports = [cover_on_map(encounter, a.id, b.id) for a, b in pairs]
    stats = {"cover_pairs": len(pairs),
             "cover_pairs_no_line_of_fire": sum(not r.line_of_fire for r in reports),
             "cover_pairs_with_cover": sum(r.line_of_fire and r.percent > 0 for r in reports),
             "missile_odds_pairs": len(shots)}
    return {**summary_ms("cover_pair", cover), **summary_ms("cover_in_range", seen),
            **summary_ms("missile_odds", odds)}, stats
