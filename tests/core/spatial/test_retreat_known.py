"""Known answers for retreat plans: the walks of both sides on seeded 48×40 battles under each
diagonal rule, pinned in ``retreat_known_answers.json`` (written by the plain per-creature
search before the per-side sharing in :mod:`core.spatial.retreat`). Any change to where a
creature runs, how far, or in which order the group is planned shows here.

``python tests/core/spatial/test_retreat_known.py`` rewrites the file: do that only for a
deliberate change of the rules, and say so in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.model.mapmodel import BattleMap, Hazard, HazardKind, WallKind, WallSegment
from core.model.profile import DiagonalRule, RulesProfile
from core.model.tables import SIZES, Size
from core.rules.morale import retreat_plans
from core.spatial.geometry import geometry_of

ANSWERS = Path(__file__).with_name("retreat_known_answers.json")
SEEDS = (3, 11, 29, 41, 57)
SIZES_DRAWN = (Size.SMALL, Size.MEDIUM, Size.MEDIUM, Size.MEDIUM, Size.LARGE, Size.HUGE,
               Size.GARGANTUAN)
WALL_KINDS = (WallKind.WALL, WallKind.WALL, WallKind.DOOR, WallKind.WINDOW, WallKind.OBJECT)


def battle(seed: int, rule: DiagonalRule) -> Encounter:
    """A 48×40 map with 60 grid-snapped walls (some doors, windows, objects), two fires and
    a pit, and 36 creatures of mixed sizes on both sides, a few of them down; the budget is
    what is left of the round at segment ``seed % 8``."""
    rng = random.Random(seed)
    width, height = 48, 40
    walls = []
    for _ in range(60):
        x, y, length = rng.randrange(width + 1), rng.randrange(height + 1), rng.randint(1, 6)
        across = rng.random() < 0.5
        walls.append(WallSegment(x1=x, y1=y, x2=min(x + length * across, width),
                                 y2=min(y + length * (not across), height),
                                 kind=rng.choice(WALL_KINDS)))
    hazards = [Hazard(name=f"Hazard {i}", kind=kind, cells=tuple(
        Cell(rng.randrange(width), rng.randrange(height)) for _ in range(12)))
        for i, kind in enumerate((HazardKind.FIRE, HazardKind.FIRE, HazardKind.PIT))]
    encounter = Encounter(profile=RulesProfile(diagonal_rule=rule),
                          map=BattleMap(width=width, height=height, walls=walls,
                                        hazards=hazards))
    for index in range(36):
        side = Side.PARTY if index % 3 == 0 else Side.OPPOSITION
        size = rng.choice(SIZES_DRAWN)
        span = SIZES[size].footprint
        hp = 0 if rng.random() < 0.1 else 10
        for _ in range(50):
            x, y = rng.randrange(width - span + 1), rng.randrange(height - span + 1)
            footprint = Footprint(x, y, span)
            if (encounter.can_place(footprint)
                    and not geometry_of(encounter).footprint_split(footprint)):
                encounter.add_token(Token(id=f"c{index}", x=x, y=y, combatant=Combatant(
                    name=f"C{index}", side=side, size=size, hp=hp)))
                break
    encounter.timeline.current_segment = seed % 8
    return encounter


def plans_of(encounter: Encounter) -> dict[str, list[object]]:
    """Both sides' plans as plain data: per token, its cells (x, y, ...), the cost and the
    nearest threat before and after."""
    answers: dict[str, list[object]] = {}
    for side in (Side.OPPOSITION, Side.PARTY):
        for token_id, plan in retreat_plans(encounter, side).items():
            answers[token_id] = [[v for cell in plan.cells for v in cell], plan.cost_ft,
                                 plan.nearest_before_ft, plan.nearest_after_ft]
    return answers


def cases() -> list[tuple[int, DiagonalRule]]:
    return [(seed, rule) for seed in SEEDS for rule in DiagonalRule]


@pytest.mark.parametrize(("seed", "rule"), cases())
def test_retreat_plans_match_the_known_answers(seed: int, rule: DiagonalRule) -> None:
    known = json.loads(ANSWERS.read_text())[f"{seed}-{rule.value}"]
    assert plans_of(battle(seed, rule)) == known


def test_the_known_answers_include_long_walks() -> None:
    """The pinned battles are worth pinning: many creatures run, some a long way."""
    known = json.loads(ANSWERS.read_text())
    lengths = [len(plan[0]) // 2 for case in known.values() for plan in case.values()]
    assert sum(length > 1 for length in lengths) > 120
    assert max(lengths) > 6


if __name__ == "__main__":
    table = {f"{seed}-{rule.value}": plans_of(battle(seed, rule)) for seed, rule in cases()}
    ANSWERS.write_text(json.dumps(table, separators=(",", ":")) + "\n")
    print(f"wrote {ANSWERS}", file=sys.stderr)
