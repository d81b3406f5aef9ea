"""Exact shove odds: hand-worked numbers for one scene, and agreement with resolving every
dice combination one by one for a handful of small scenes.

The enumeration does not know the dice order: it resolves with a scripted prefix and, when
the resolver asks for one more die (``DiceExhaustedError`` says which), branches over every
face with probability 1/faces. Each leaf is one complete resolution with its exact weight.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from core.model.combatant import Abilities, Combatant, Condition
from core.model.dice import DiceExhaustedError, ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.profile import CreatureCollision, RulesProfile
from core.rules.odds import ShoveOdds, shove_odds
from core.rules.shove import (
    IllegalShoveError,
    ShoveRequest,
    ShoveResult,
    SuccessLevel,
    resolve_shove,
)

MakeEncounter = Callable[..., Encounter]
REQUEST = ShoveRequest(attacker="A", defender="B")
PUSHER = Combatant(name="A", fr_slots=2)


def every_resolution(encounter: Encounter, request: ShoveRequest
                     ) -> Iterator[tuple[ShoveResult, Fraction]]:
    """Every complete resolution and its probability, by walking the tree of dice asked."""
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = resolve_shove(encounter, request, ScriptedDice(prefix))
        except DiceExhaustedError as need:
            stack += [((*prefix, v), p / need.faces) for v in range(1, need.faces + 1)]
            continue
        yield result, p


def brute_force_odds(encounter: Encounter, request: ShoveRequest) -> dict[str, object]:
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    levels: dict[SuccessLevel, Fraction] = defaultdict(Fraction)
    entered: dict[str, Fraction] = defaultdict(Fraction)
    hazard_cells: dict[Cell, Fraction] = defaultdict(Fraction)
    slam = reached = prone = capped = damage = total = Fraction(0)
    for result, p in every_resolution(encounter, request):
        total += p
        landing[result.final_cell] += p
        levels[result.level] += p
        slam += p if result.slam_rolls else 0
        prone += p if result.prone else 0
        capped += p if result.forceful_defense else 0
        damage += p * result.total_damage
        if result.hazard is not None:
            reached += p
            if not result.hazard.saved:
                entered[result.hazard.name] += p
                hazard_cells[result.final_cell] += p
    return {"total": total, "landing": dict(landing), "levels": dict(levels), "slam": slam,
            "hazard_reached": reached, "hazards_entered": dict(entered),
            "hazard_cells": dict(hazard_cells), "prone": prone,
            "forceful_defense_caps": capped, "expected_damage": damage}


def odds_as_dict(odds: ShoveOdds) -> dict[str, object]:
    return {"total": odds.total(), "landing": odds.landing,
            "levels": {k: v for k, v in odds.levels.items() if v},
            "slam": odds.slam, "hazard_reached": odds.hazard_reached,
            "hazards_entered": {k: v for k, v in odds.hazards_entered.items() if v},
            "hazard_cells": odds.hazard_cells, "prone": odds.prone,
            "forceful_defense_caps": odds.forceful_defense_caps,
            "expected_damage": odds.expected_damage}


def test_hand_worked_odds_of_a_shove_towards_a_wall(make_encounter: MakeEncounter) -> None:
    # A: FR +2 (d20 + 2), B: leather (FD 11, AV 2, Resist 3); the wall is 1 cell behind B.
    # fail d20 1-8 (8/20); success 9-18 (10/20): d6 - 1 ft, 3+ ft (d6 4-6) is one cell;
    # double 19-20 (2/20): 10 ft, one cell then the wall with 5 ft left: a slam, d6 through
    # AV 2 = 1,1,1,2,3,4 (mean 2)
    enc = make_encounter("A B . .", {"A": PUSHER, "B": Combatant(name="B", armour="leather")},
                         walls=[(3, 0, 3, 1)])
    odds = shove_odds(enc, REQUEST)
    assert odds.levels == {SuccessLevel.FAIL: Fraction(8, 20),
                           SuccessLevel.SUCCESS: Fraction(10, 20),
                           SuccessLevel.DOUBLE: Fraction(2, 20)}
    assert odds.landing == {Cell(1, 0): Fraction(8, 20) + Fraction(10, 20) * Fraction(3, 6),
                            Cell(2, 0): Fraction(10, 20) * Fraction(3, 6) + Fraction(2, 20)}
    assert odds.moved == Fraction(10, 20) * Fraction(3, 6) + Fraction(2, 20)  # d6 1-3: 0 cells
    assert odds.slam == Fraction(2, 20)
    assert odds.prone == Fraction(2, 20)
    assert odds.expected_damage == Fraction(2, 20) * 2
    assert odds.hazard_reached == 0
    assert odds.total() == 1
    assert (odds.target_fd, odds.attack_bonus, odds.shove_resist) == (11, 2, 3)


PIT = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
             effect=HazardEffect(fall_ft=10))
FIRE = Hazard(name="Fire", kind=HazardKind.FIRE, cells=(Cell(2, 0),),
              effect=HazardEffect(damage="1d4", save_target=11, through_armour=True))


def test_hand_worked_pit_odds(make_encounter: MakeEncounter) -> None:
    # B: Death Ray 12 (fails on 1-11: 11/20). Reached by success with d6 4-6 and by doubles:
    # 10/20 × 1/2 + 3/20 = 8/20 (B is plain: FD 10, so double on 18+).
    enc = make_encounter("A B . .", {"A": PUSHER, "B": Combatant(name="B", death_ray_save=12)},
                         hazards=[PIT])
    odds = shove_odds(enc, REQUEST)
    reached = Fraction(8, 20)
    assert odds.hazard_reached == reached
    assert odds.hazards_entered == {"Pit": reached * Fraction(11, 20)}
    assert odds.hazard_cells == {Cell(2, 0): reached * Fraction(11, 20)}
    assert odds.expected_damage == reached * Fraction(11, 20) * Fraction(7, 2)  # 1d6 falling
    assert odds.landing[Cell(2, 0)] == reached * Fraction(11, 20)
    assert odds.total() == 1


def scene_wall_behind(make: MakeEncounter) -> Encounter:
    return make("A B . .", {"A": PUSHER, "B": Combatant(name="B", armour="leather")},
                walls=[(2, 0, 2, 1)])


def scene_pit(make: MakeEncounter) -> Encounter:
    return make("A B . . .", {"A": PUSHER, "B": Combatant(name="B", death_ray_save=12)},
                hazards=[PIT])


def scene_fire_own_save(make: MakeEncounter) -> Encounter:
    # a low Death Ray number keeps the tree small: only 1-3 fail the Pit-Stop save
    return make("A B . . .", {"A": PUSHER, "B": Combatant(name="B", armour="leather",
                                                          death_ray_save=4)},
                hazards=[FIRE])


def scene_large_diagonal_drop(make: MakeEncounter) -> Encounter:
    # everything stands 10 ft up except the bottom-right cells: B (Large, on ice) reaches the
    # drop on its second diagonal step, only with the 12 ft of a slippery Double Success.
    # A's Mastery 1 cancels the size penalty: success on 10+, double on a natural 20.
    elevation = {(x, y): 10 for x in range(5) for y in range(5) if x < 4 and y < 4}
    return make("""
        A . . . .
        . B B . .
        . B B . .
        . . . . .
        . . . . .
    """, {"A": Combatant(name="A", fr_slots=2, mastery_rank=1),
          "B": Combatant(name="B", size="large", death_ray_save=10)},
        under={"B": "s"}, elevation=elevation)


def scene_forceful_solid_creature(make: MakeEncounter) -> Encounter:
    # A FR 4 (d8, 2 slam rolls), B FR 5 (Forceful Defense), C right behind B is solid
    return make("A B C .", {"A": Combatant(name="A", fr_slots=4),
                            "B": Combatant(name="B", fr_slots=5, armour="chain_mail")},
                profile=RulesProfile(creature_collision=CreatureCollision.SOLID))


def scene_tiny_on_ice_before_a_window(make: MakeEncounter) -> Encounter:
    return make("A B .", {"A": PUSHER, "B": Combatant(name="B", size="tiny")},
                under={"B": "s"}, walls=[(2, 0, 2, 1, "window")])


def scene_stunned_defender_at_a_pit(make: MakeEncounter) -> Encounter:
    # RD "Conditions": the Stunned defender's Pit-Stop save is at −4
    stunned = Combatant(name="B", death_ray_save=10, conditions=frozenset({Condition.STUNNED}))
    return make("A B . . .", {"A": PUSHER, "B": stunned}, hazards=[PIT])


def scene_huge_double_into_a_wall(make: MakeEncounter) -> Encounter:
    # a Double Success moves the Huge defender its Max Displacement, 15 ft: into the wall
    rows = "\n".join(["A A A B B B . . ."] * 3)
    weak = Abilities(strength=3, constitution=3)   # FD 10 − 3 + 4 = 11: a 20 is a double
    return make(rows, {"A": Combatant(name="A", size="huge", fr_slots=1),
                       "B": Combatant(name="B", size="huge", abilities=weak)},
                walls=[(8, 0, 8, 3)])


SCENES = [scene_wall_behind, scene_pit, scene_fire_own_save, scene_large_diagonal_drop,
          scene_forceful_solid_creature, scene_tiny_on_ice_before_a_window,
          scene_stunned_defender_at_a_pit, scene_huge_double_into_a_wall]


@pytest.mark.parametrize("scene", SCENES, ids=lambda f: f.__name__.removeprefix("scene_"))
def test_odds_agree_with_every_dice_combination(make_encounter: MakeEncounter,
                                                scene: Callable[[MakeEncounter], Encounter]
                                                ) -> None:
    encounter = scene(make_encounter)
    expected = brute_force_odds(encounter, REQUEST)
    assert expected["total"] == 1
    assert odds_as_dict(shove_odds(encounter, REQUEST)) == expected


def test_scenes_cover_what_they_claim(make_encounter: MakeEncounter) -> None:
    """Guards the scenes above against silently testing nothing."""
    odds = {scene.__name__: shove_odds(scene(make_encounter), REQUEST) for scene in SCENES}
    assert odds["scene_wall_behind"].slam > 0
    assert odds["scene_pit"].hazards_entered["Pit"] > 0
    assert odds["scene_fire_own_save"].expected_damage > 0
    assert odds["scene_large_diagonal_drop"].hazards_entered["a 10 ft drop"] > 0
    assert odds["scene_forceful_solid_creature"].forceful_defense_caps > 0
    assert odds["scene_forceful_solid_creature"].slam > 0
    assert odds["scene_tiny_on_ice_before_a_window"].slam > 0
    assert odds["scene_stunned_defender_at_a_pit"].hazards_entered["Pit"] > 0
    assert odds["scene_huge_double_into_a_wall"].slam > 0


def test_odds_json_probabilities_sum_to_one(make_encounter: MakeEncounter) -> None:
    data = shove_odds(scene_pit(make_encounter), REQUEST).to_json()
    assert sum(Fraction(item["exact"]) for item in data["landing"]) == 1
    assert sum(Fraction(v["exact"]) for v in data["levels"].values()) == 1
    assert data["hazards_entered"]["Pit"]["p"] == pytest.approx(
        float(Fraction(data["hazards_entered"]["Pit"]["exact"])))


def test_odds_refuse_an_illegal_shove_like_the_resolver(make_encounter: MakeEncounter
                                                        ) -> None:
    enc = make_encounter("A . B")
    with pytest.raises(IllegalShoveError, match="not adjacent"):
        shove_odds(enc, REQUEST)


def test_odds_past_the_exact_budget_are_labelled_approximate(make_encounter: MakeEncounter
                                                             ) -> None:
    # as the pit, with 100d1000 damage: exact enumeration ran for minutes
    huge = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
                  effect=HazardEffect(damage="100d1000"))
    enc = make_encounter("A B . .", {"A": PUSHER, "B": Combatant(name="B", death_ray_save=12)},
                         hazards=[huge])
    odds = shove_odds(enc, REQUEST)
    entered = Fraction(8, 20) * Fraction(11, 20)  # as in test_hand_worked_pit_odds
    assert odds.approximate
    assert odds.approximations == ["hazard damage 100d1000: 99,901 possible totals binned into "
                                   "1,000 (the exact-odds budget)"]
    assert odds.hazards_entered == {"Pit": entered}  # what does not depend on the damage
    assert abs(odds.expected_damage - entered * 50_050) < 1  # mean of 100d1000 is 50,050
    data = odds.to_json()
    assert data["approximate"] is True and data["approximations"] == odds.approximations
    assert not shove_odds(scene_pit(make_encounter), REQUEST).approximate
