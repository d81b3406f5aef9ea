"""Exact odds of a shove before any die is rolled.

Every dice outcome is enumerated with exact fractions (no sampling): the d20, the shove
die's distribution, the Pit-Stop save, hazard damage and saves, slam damage. The walk itself
is :func:`core.rules.shove.plan_push`, the same function the resolver uses, so the odds and a
resolution with any scripted dice always agree.

The cost is bounded: a dice expression with more possible totals than the exact-odds budget
(:data:`core.model.dice.EXACT_OUTCOMES`, e.g. hazard damage ``100d1000``) is binned instead
(:meth:`DiceExpression.outcomes`), and the result says so: ``approximate`` is true and
``approximations`` says which dice and why.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from core.model.dice import DiceExpression
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import HazardEffect
from core.model.profile import RulesProfile
from core.rules.damage import damage_after_armour
from core.rules.shove import (
    Push,
    ShoveRequest,
    ShoveSetup,
    SuccessLevel,
    fall_dice,
    fall_terms,
    hazard_damage_terms,
    pit_stop_target,
    plan_push,
    prepare_shove,
    push_distance,
    save_modifier,
    slam_dice,
    slams,
    success_level,
)

D20 = Fraction(1, 20)


@dataclass
class ShoveOdds:
    """Probabilities (exact fractions) of every outcome of one shove."""

    attacker: str
    defender: str
    direction: str
    target_fd: int
    shove_resist: int
    death_ray_save: int
    attack_bonus: int
    levels: dict[SuccessLevel, Fraction] = field(default_factory=dict)
    forceful_defense_caps: Fraction = Fraction(0)
    landing: dict[Cell, Fraction] = field(default_factory=dict)
    moved: Fraction = Fraction(0)  # the defender leaves its place (a success may not push)
    slam: Fraction = Fraction(0)
    hazard_reached: Fraction = Fraction(0)
    hazards_entered: dict[str, Fraction] = field(default_factory=dict)
    hazard_cells: dict[Cell, Fraction] = field(default_factory=dict)
    prone: Fraction = Fraction(0)
    expected_damage: Fraction = Fraction(0)
    approximations: list[str] = field(default_factory=list)

    @property
    def approximate(self) -> bool:
        """Whether some distribution was binned (over the exact-odds budget)."""
        return bool(self.approximations)

    def total(self) -> Fraction:
        return sum(self.landing.values(), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def num(value: Fraction) -> dict[str, Any]:
            return {"p": float(value), "exact": str(value)}

        return {
            "attacker": self.attacker, "defender": self.defender, "direction": self.direction,
            "target_fd": self.target_fd, "shove_resist": self.shove_resist,
            "death_ray_save": self.death_ray_save, "attack_bonus": self.attack_bonus,
            "levels": {k.value: num(v) for k, v in self.levels.items()},
            "forceful_defense_caps": num(self.forceful_defense_caps),
            "landing": [{"cell": list(c), **num(p)} for c, p in sorted(self.landing.items())],
            "moved": num(self.moved), "slam": num(self.slam),
            "hazard_reached": num(self.hazard_reached),
            "hazards_entered": {k: num(v) for k, v in self.hazards_entered.items()},
            "prone": num(self.prone), "expected_damage": num(self.expected_damage),
            "approximate": self.approximate, "approximations": self.approximations,
        }


def shove_odds(encounter: Encounter, request: ShoveRequest) -> ShoveOdds:
    """The exact distribution of a shove's outcomes (raises IllegalShoveError like the
    resolver when the shove is not possible)."""
    profile = encounter.profile
    setup = prepare_shove(encounter, request)
    resist = -sum(t.value for t in setup.distance_terms.terms if t.name.startswith("Resist"))
    odds = ShoveOdds(
        attacker=setup.attacker.name, defender=setup.defender.name,
        direction=setup.direction.value, target_fd=setup.target_fd.value,
        shove_resist=resist, death_ray_save=pit_stop_target(setup),
        attack_bonus=setup.attack_terms.value)
    walks: dict[int, Push] = {}  # a standard and a double success can push the same distance
    for (distance, prone), p in _distance_branches(setup, odds, profile).items():
        if distance not in walks:
            walks[distance] = plan_push(encounter, setup.defender, setup.direction, distance)
        _add_push(odds, setup, walks[distance], p, profile)
        if prone:
            odds.prone += p
    odds.moved = 1 - odds.landing.get(setup.defender.cell, Fraction(0))
    return odds


def _distance_branches(setup: ShoveSetup, odds: ShoveOdds, profile: RulesProfile
                       ) -> dict[tuple[int, bool], Fraction]:
    """P(distance, prone) over the d20 and the shove die; records the level odds."""
    levels: dict[SuccessLevel, Fraction] = defaultdict(Fraction)
    branches: dict[tuple[int, bool], Fraction] = defaultdict(Fraction)
    pushed = _success_distances(setup, _outcomes(odds, "shove die", setup.shove_die), profile)
    for d20 in range(1, 21):
        level, capped = success_level(setup, d20, profile)
        levels[level] += D20
        if capped:
            odds.forceful_defense_caps += D20
        if level is SuccessLevel.FAIL:
            odds.landing[setup.defender.cell] = odds.landing.get(setup.defender.cell, 0) + D20
        elif level is SuccessLevel.DOUBLE:
            distance = push_distance(setup, level, None, profile).value
            branches[(distance, profile.double_success_prone)] += D20
        else:
            for distance, p in pushed.items():
                branches[(distance, False)] += D20 * p
    odds.levels = {level: levels[level] for level in SuccessLevel}
    return branches


def _success_distances(setup: ShoveSetup, die: dict[int, Fraction], profile: RulesProfile
                       ) -> dict[int, Fraction]:
    """P(distance) on a standard success: the shove die's totals mapped through the distance
    formula once (not once per d20 face)."""
    distances: dict[int, Fraction] = defaultdict(Fraction)
    for total, p in die.items():
        distances[push_distance(setup, SuccessLevel.SUCCESS, total, profile).value] += p
    return distances


def _outcomes(odds: ShoveOdds, what: str, expression: str) -> dict[int, Fraction]:
    """The distribution of ``expression``, noting on ``odds`` when it had to be binned."""
    outcomes = DiceExpression.parse(expression).outcomes()
    note = f"{what} {expression}: {outcomes.approximation}"
    if outcomes.approximation and note not in odds.approximations:
        odds.approximations.append(note)
    return outcomes.probabilities


def _add_push(odds: ShoveOdds, setup: ShoveSetup, push: Push, p: Fraction,
              profile: RulesProfile) -> None:
    edge = push.path[-1]
    if push.hazard is None:
        _land(odds, edge, p)
        if slams(push, profile):
            odds.slam += p
            odds.expected_damage += p * _mean_slam(setup, profile)
        return
    assert push.hazard_cell is not None
    falls_in = p * _fails(pit_stop_target(setup) - save_modifier(setup))
    odds.hazard_reached += p
    _land(odds, edge, p - falls_in)
    _land(odds, push.hazard_cell, falls_in)
    name = push.hazard.name
    odds.hazards_entered[name] = odds.hazards_entered.get(name, Fraction(0)) + falls_in
    odds.hazard_cells[push.hazard_cell] = odds.hazard_cells.get(push.hazard_cell, 0) + falls_in
    effect = push.hazard.effect
    if effect.damage:
        _outcomes(odds, "hazard damage", effect.damage)
    odds.expected_damage += falls_in * _mean_hazard_damage(
        effect, setup.defender_av, save_modifier(setup), profile)


def _land(odds: ShoveOdds, cell: Cell, p: Fraction) -> None:
    if p:
        odds.landing[cell] = odds.landing.get(cell, Fraction(0)) + p


def _fails(target: int) -> Fraction:
    """P(d20 < target)."""
    return Fraction(min(max(target - 1, 0), 20), 20)


def _mean_slam(setup: ShoveSetup, profile: RulesProfile) -> Fraction:
    """The mean slam damage: one hit of the dice's total through AV, or each die through
    AV when the profile says so (:func:`core.rules.shove.slam_damage`)."""
    dice = slam_dice(setup)
    if profile.slam_av_per_die:
        return sum((_mean_through(DiceExpression(groups=((1, faces),)), setup.defender_av,
                                  profile) for faces in dice.dice), Fraction(0))
    return _mean_through(dice, setup.defender_av, profile)


def _mean_through(dice: DiceExpression, av: int, profile: RulesProfile) -> Fraction:
    return sum((p * damage_after_armour(total, av, profile).value
                for total, p in dice.outcomes().probabilities.items()), Fraction(0))


@lru_cache(maxsize=64)
def _mean_hazard_damage(effect: HazardEffect, av: int, save_bonus: int,
                        profile: RulesProfile) -> Fraction:
    """Expected damage of falling in (kept: every walk into the same hazard reuses it)."""
    mean = Fraction(0)
    if effect.damage:
        needed = (effect.save_target or 0) - save_bonus
        own = ((None, Fraction(1)),) if effect.save_target is None else (
            (True, 1 - _fails(needed)), (False, _fails(needed)))
        for raw, p in DiceExpression.parse(effect.damage).outcomes().probabilities.items():
            for passed, q in own:
                terms = hazard_damage_terms(raw, passed, effect, av, profile)
                mean += p * q * sum(t.value for t in terms)
    fall = fall_dice(effect.fall_ft, profile)
    if fall:
        mean += sum((p * sum(t.value for t in fall_terms(effect.fall_ft, total, av, profile))
                     for total, p in DiceExpression.parse(fall).outcomes().probabilities.items()),
                    Fraction(0))
    return mean
