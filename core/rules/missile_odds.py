"""Exact odds of a missile before any die is rolled: every face of the d20, of the +1d8
against a rising target (002 "Sleep") and of the scatter die is enumerated with fractions
(no sampling). The terms come from
:func:`core.rules.missile.prepare_missile` and the landings from
:func:`core.rules.missile.landing_points` — the resolver's own functions — so the odds and a
resolution with any scripted dice agree."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from core.model.dice import DiceExpression
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.rules.missile import MissileRequest, MissileSetup, landing_points, prepare_missile
from core.rules.sleep import rising_bonus
from core.spatial.flight import cell_of

D20 = 20


@dataclass
class MissileOdds:
    """Probabilities (exact fractions) of a missile's outcomes, and its setup."""

    setup: MissileSetup
    hit: Fraction = Fraction(0)
    friend_hit: Fraction = Fraction(0)
    miss: Fraction = Fraction(0)
    landing: dict[Cell, Fraction] = field(default_factory=dict)
    off_map: Fraction = Fraction(0)
    against_wall: Fraction = Fraction(0)

    def to_json(self) -> dict[str, Any]:
        def num(value: Fraction) -> dict[str, Any]:
            return {"p": float(value), "exact": str(value)}

        setup = self.setup
        return {
            "attacker": setup.attacker_id, "target": setup.target_id,
            "weapon": setup.weapon.name, "band": setup.range.band.value,
            "distance_ft": setup.range.distance_ft, "attack_bonus": setup.bonus.value,
            "target_number": setup.defence.value, "cover_percent": setup.cover.percent,
            "cover_bonus": setup.cover.bonus, "arrow_slit": setup.cover.arrow_slit,
            "friend": setup.cover.friend_id, "friend_bonus": setup.cover.friend_bonus,
            "flight_segments": setup.range.flight_segments,
            "hit": num(self.hit), "friend_hit": num(self.friend_hit), "miss": num(self.miss),
            "off_map": num(self.off_map), "against_wall": num(self.against_wall),
            "landing": [{"cell": list(c), **num(p)} for c, p in sorted(self.landing.items())],
        }


def missile_odds(encounter: Encounter, request: MissileRequest) -> MissileOdds:
    """The exact distribution of the missile's outcomes (raises like the resolver when the
    shot cannot be made)."""
    setup = prepare_missile(encounter, request)
    odds = MissileOdds(setup)
    cover = setup.cover
    margins: dict[int, Fraction] = {}
    rising = rising_bonus(encounter.token(setup.target_id).combatant, encounter.profile)
    for d20 in range(1, D20 + 1):
        for extra, chance in rising.items():
            p = chance / D20
            margin = setup.defence.value - (d20 + extra + setup.bonus.value)
            if setup.helpless or margin <= 0:
                odds.hit += p
            elif cover.friend_id is not None and margin <= cover.friend_bonus:
                odds.friend_hit += p
            else:
                margins[margin] = margins.get(margin, Fraction(0)) + p
    odds.miss = sum(margins.values(), Fraction(0))
    if margins:
        _scatter(encounter, odds, margins)
    return odds


def _scatter(encounter: Encounter, odds: MissileOdds, margins: dict[int, Fraction]) -> None:
    """Every (margin, clock face) landing, each of the margin's probability × 1/faces."""
    faces = DiceExpression.parse(encounter.profile.scatter_die).dice[0]
    pairs = [(m, f) for m in margins for f in range(1, faces + 1)]
    points, walls, _ = landing_points(encounter, odds.setup, [m for m, _ in pairs],
                                      [f for _, f in pairs])
    battle_map = encounter.map
    for (margin, _), (x, y), wall in zip(pairs, points.tolist(), walls.tolist(), strict=True):
        each = margins[margin] / faces
        cell = cell_of((x, y))
        if wall >= 0:
            odds.against_wall += each
        if battle_map.contains(cell):
            odds.landing[cell] = odds.landing.get(cell, Fraction(0)) + each
        else:
            odds.off_map += each
