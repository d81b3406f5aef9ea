"""Exact odds of a missile before any die is rolled: every total of the attack dice (the d20,
or ``attack_die``), of the +1d8 against a rising target (002 "Sleep") and every face of the
scatter die is enumerated with fractions (no sampling). The terms come from
:func:`core.rules.missile.prepare_missile` and the landings from
:func:`core.rules.missile.landing_points` — the resolver's own functions — so the odds and a
resolution with any scripted dice agree. With the injury options on they stay exact: a hero
point's automatic hit and +10 and an aimed location are terms or certainties of the setup; a
fumble (every attack die showing 1) is a miss by at least 1 and is counted apart; a critical
roll changes the damage, not the chance to hit."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from core.model.dice import DiceExpression
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.rules.injury import Natural, attack_outcomes
from core.rules.missile import (
    MissileRequest,
    MissileSetup,
    landing_points,
    prepare_missile,
    seen_from,
)
from core.rules.sleep import odds_notes, rising_bonus
from core.spatial.flight import cell_of


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
    critical: Fraction = Fraction(0)
    fumble: Fraction = Fraction(0)
    notes: tuple[str, ...] = ()  # what the target's state does (sleep.odds_notes)

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
            "critical": num(self.critical), "fumble": num(self.fumble), "notes": list(self.notes),
            "landing": [{"cell": list(c), **num(p)} for c, p in sorted(self.landing.items())],
        }


def missile_odds(encounter: Encounter, request: MissileRequest) -> MissileOdds:
    """The exact distribution of the missile's outcomes (raises like the resolver when the
    shot cannot be made)."""
    encounter = seen_from(encounter, request)
    setup = prepare_missile(encounter, request)
    target = encounter.token(setup.target_id).combatant
    odds = MissileOdds(setup, notes=odds_notes(target, encounter.profile))
    cover = setup.cover
    misses: list[tuple[int, Fraction]] = []
    rising = rising_bonus(target, encounter.profile)
    for face in attack_outcomes(encounter.profile, setup.bonus.value, setup.defence.value,
                                setup.automatic, rising):
        if face.hit:
            odds.hit += face.p
            odds.critical += face.p if face.natural is Natural.CRITICAL else Fraction(0)
            continue
        odds.fumble += face.p if face.natural is Natural.FUMBLE else Fraction(0)
        if cover.friend_id is not None and face.missed_by <= cover.friend_bonus:
            odds.friend_hit += face.p
        else:
            misses.append((face.missed_by, face.p))
    odds.miss = sum((p for _, p in misses), Fraction(0))
    if misses:
        _scatter(encounter, odds, misses)
    return odds


def _scatter(encounter: Encounter, odds: MissileOdds, misses: list[tuple[int, Fraction]]
             ) -> None:
    """Every (margin, clock face) landing, each of the margin's probability / faces."""
    faces = DiceExpression.parse(encounter.profile.scatter_die).dice[0]
    pairs = [(m, f, p / faces) for m, p in misses for f in range(1, faces + 1)]
    points, walls, _ = landing_points(encounter, odds.setup, [m for m, _, _ in pairs],
                                      [f for _, f, _ in pairs])
    battle_map = encounter.map
    for (x, y), wall, (_, _, each) in zip(points.tolist(), walls.tolist(), pairs, strict=True):
        cell = cell_of((x, y))
        if wall >= 0:
            odds.against_wall += each
        if battle_map.contains(cell):
            odds.landing[cell] = odds.landing.get(cell, Fraction(0)) + each
        else:
            odds.off_map += each
