"""The exact odds stay exact with the injury options on (issue 14): an aimed location, a hero
point's +10 or automatic hit, natural criticals and fumbles, and 2d8 attack dice — each
equal to the enumeration of every face of the dice that decide the outcome."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TypeVar

import pytest

from core.model.combatant import Combatant, Condition, Side
from core.model.dice import DiceExhaustedError, DiceSource
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.injury import HeroUse
from core.model.profile import RulesProfile
from core.rules.attack import AttackOptions, AttackResult, attack_on_map
from core.rules.attack_odds import attack_odds
from core.rules.missile import MissileRequest, MissileResult, resolve_missile
from core.rules.missile_odds import missile_odds

Make = Callable[..., Encounter]
OPTIONS = RulesProfile(hit_location=True, head_hits_stun=True, wounds=True, critical_roll=True,
                       fumble=True, hero_points=True)
TWO_D8 = OPTIONS.model_copy(update={"attack_die": "2d8"})
BOWMAN = Combatant(name="Bowman", level=5, hr_slots=3, hero_points=1, weapons=("Long bow",))
ORC = Combatant(name="Orc", side=Side.OPPOSITION, armour="chain_mail", max_hp=30, hp=30)
RISING_ORC = ORC.model_copy(update={"conditions": frozenset({Condition.RISING})})
DECIDING = ("attack roll", "clock direction", "rising")  # the dice the odds are about
R = TypeVar("R")


class Branching(DiceSource):
    """Scripted values for the deciding dice (the attack dice, the scatter die); 1 for every
    other die (location, damage, stun check, fumble save: none changes hit, miss or where a
    miss lands)."""

    def __init__(self, values: tuple[int, ...]) -> None:
        super().__init__()
        self.values = list(values)

    def next_value(self, faces: int, purpose: str) -> int:
        if not any(word in purpose for word in DECIDING):
            return 1
        if not self.values:
            raise DiceExhaustedError(faces, purpose)
        return self.values.pop(0)


def every(resolve: Callable[[DiceSource], R], values: tuple[int, ...] = (),
             weight: Fraction = Fraction(1)) -> Iterator[tuple[R, Fraction]]:
    """Every resolution over the deciding dice, with its probability."""
    try:
        result = resolve(Branching(values))
    except DiceExhaustedError as need:
        for face in range(1, need.faces + 1):
            yield from every(resolve, (*values, face), weight / need.faces)
        return
    yield result, weight


def total(outcomes: list[tuple[AttackResult, Fraction]],
          test: Callable[[AttackResult], bool]) -> Fraction:
    return sum((p for result, p in outcomes if test(result)), Fraction(0))


@pytest.mark.parametrize(("profile", "options", "orc"), [
    (OPTIONS, {}, ORC), (OPTIONS, {"aim": "Head"}, ORC), (OPTIONS, {"hero": HeroUse.PLUS_TEN}, ORC),
    (OPTIONS, {"hero": HeroUse.AUTOMATIC_HIT}, ORC), (TWO_D8, {"aim": "Thighs"}, ORC),
    (RulesProfile(), {}, ORC), (OPTIONS, {}, RISING_ORC), (TWO_D8, {}, RISING_ORC)])
def test_melee_attack_odds_equal_the_enumeration(make_encounter: Make, profile: RulesProfile,
                                                 options: dict[str, object], orc: Combatant
                                                 ) -> None:
    """A rising orc (002 "Sleep": "Foe gets +1d8 to their attack") adds the d8 to every
    total, but a natural is still read off the attack dice alone."""
    encounter = make_encounter("AO", {"A": BOWMAN, "O": orc}, profile=profile)
    request = AttackOptions.model_validate(options)
    odds = attack_odds(encounter, "A", "O", request)
    outcomes = list(every(lambda dice: attack_on_map(encounter, "A", "O", request, dice)))
    assert odds.hit == total(outcomes, lambda r: r.hit)
    assert odds.critical == total(outcomes, lambda r: r.critical)
    assert odds.fumble == total(outcomes, lambda r: r.fumbled)
    if profile.fumble and not options.get("hero"):
        assert odds.fumble == (Fraction(1, 64) if profile is TWO_D8 else Fraction(1, 20))
    assert sum(p for _, p in odds.locations) == (1 if profile.hit_location else 0)


@pytest.mark.parametrize(("profile", "request_extra", "orc"), [
    (OPTIONS, {}, ORC), (OPTIONS, {"aim": "Head"}, ORC), (TWO_D8, {"hero": HeroUse.PLUS_TEN}, ORC),
    (OPTIONS, {}, RISING_ORC)])
def test_missile_odds_equal_the_enumeration(make_encounter: Make, profile: RulesProfile,
                                            request_extra: dict[str, object], orc: Combatant
                                            ) -> None:
    picture = "\n".join(["..T..."] + ["......"] * 17 + ["..A..."])  # 90 ft: medium range
    encounter = make_encounter(picture, {"A": BOWMAN, "T": orc}, profile=profile)
    request = MissileRequest.model_validate({"attacker": "A", "target": "T", **request_extra})
    odds = missile_odds(encounter, request)
    outcomes = list(every(lambda dice: resolve_missile(encounter, request, dice)))
    attacks = [(r.attack, p) for r, p in outcomes]
    landing: dict[Cell, Fraction] = {}
    for result, p in outcomes:
        if result.landing is not None and result.landing.cell is not None:
            landing[result.landing.cell] = landing.get(result.landing.cell, Fraction(0)) + p
    assert (odds.hit, odds.critical, odds.fumble) == (
        total(attacks, lambda a: a.hit), total(attacks, lambda a: a.critical),
        total(attacks, lambda a: a.fumbled))
    assert odds.landing == landing and odds.hit + odds.friend_hit + odds.miss == 1
    assert odds.fumble > 0  # and a critical only where a top roll still hits


def _missed(result: MissileResult) -> bool:
    return not result.attack.hit


def test_a_fumble_that_would_have_hit_still_misses_by_one(make_encounter: Make) -> None:
    sure = BOWMAN.model_copy(update={"hr_slots": 20})
    encounter = make_encounter("..T\n...\n..A", {"A": sure, "T": ORC}, profile=OPTIONS)
    request = MissileRequest(attacker="A", target="T")
    odds = missile_odds(encounter, request)
    assert odds.fumble == odds.miss == Fraction(1, 20)
    misses = [(r, p) for r, p in every(lambda d: resolve_missile(encounter, request, d))
              if _missed(r)]
    assert {r.landing.distance_ft for r, _ in misses if r.landing} == {2.0}  # 1 point × 2 ft
