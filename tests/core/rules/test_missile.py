"""Missile attacks on hand-drawn maps (002 "Missiles", "Missile fire into combat", "Misses";
RD "Missiles"): range bands, the ceiling, the friend in the way, scatter against a wall,
burning oil on the timeline, and odds that equal the enumeration of every die."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest

from core.actions.base import perform
from core.actions.history import History
from core.actions.missile import MissileAction
from core.actions.round import NextRound, SetActionLength, StartRound
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import DiceExhaustedError, ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import HazardKind
from core.model.melee import AcPenalty, Hold, HoldKind
from core.model.round import InitiativeEntry, RoundState, Watch, WatchKind
from core.rules.missile import (
    IllegalMissileError,
    MissileRequest,
    MissileResult,
    RangeBand,
    prepare_missile,
    resolve_missile,
)
from core.rules.missile_odds import missile_odds

Make = Callable[..., Encounter]
BOWMAN = Combatant(name="Bowman", weapons=("Long bow", "Dagger", "Flask of oil"))
ORC = Combatant(name="Orc", side=Side.OPPOSITION, max_hp=30, hp=30)

# The target (T) north, the shooter (A) ten cells south: 50 ft, short range for a long bow.
FIELD = "\n".join(["......"] + ["..T..."] + ["......"] * 9 + ["..A..."])


def shot(weapon: str | None = None, **extra: object) -> MissileRequest:
    return MissileRequest.model_validate({"attacker": "A", "target": "T", "weapon": weapon,
                                          **extra})


def test_a_hit_at_short_range_goes_through_av_vs_missiles(make_encounter: Make) -> None:
    target = ORC.model_copy(update={"armour": "chain_mail"})
    encounter = make_encounter(FIELD, {"A": BOWMAN, "T": target})
    result = resolve_missile(encounter, shot(), ScriptedDice([11, 8]))
    assert result.range.band is RangeBand.SHORT and result.range.distance_ft == 50
    assert result.attack.hit and result.attack.to_hit.value == 11
    assert result.attack.damage_taken == 1 + (8 - 1 - 2)  # chain mail: AV 2 vs missiles
    assert result.range.flight_segments == 0 and result.landing is None


@pytest.mark.parametrize(("rows_apart", "band", "modifier", "flight"), [
    (14, RangeBand.SHORT, 0, 0), (15, RangeBand.MEDIUM, -2, 1), (28, RangeBand.MEDIUM, -2, 1),
    (29, RangeBand.LONG, -5, 2), (42, RangeBand.LONG, -5, 2)])
def test_range_bands_modifiers_and_flight_time(make_encounter: Make, rows_apart: int,
                                              band: RangeBand, modifier: int, flight: int
                                              ) -> None:
    picture = "\n".join(["..T..."] + ["......"] * (rows_apart - 1) + ["..A..."])
    setup = prepare_missile(make_encounter(picture, {"A": BOWMAN, "T": ORC}), shot())
    assert setup.range.distance_ft == 5 * rows_apart  # long bow: 70 / 140 / 210 ft
    assert (setup.range.band, setup.range.modifier) == (band, modifier)
    assert setup.range.flight_segments == flight
    assert setup.bonus.value == modifier


def test_beyond_long_range_is_refused(make_encounter: Make) -> None:
    picture = "\n".join(["..T..."] + ["......"] * 6 + ["..A..."])
    with pytest.raises(IllegalMissileError, match="beyond the Dagger's long range of 30 ft"):
        prepare_missile(make_encounter(picture, {"A": BOWMAN, "T": ORC}), shot("Dagger"))


def test_a_10_ft_ceiling_forbids_long_range(make_encounter: Make) -> None:
    # Dagger 10/20/30: 25 ft is long range and needs 12.5 ft of height; 15 ft is medium
    # and needs 5 ft. Under a 10 ft ceiling the first is out of reach.
    long_shot = make_encounter("A....T", {"A": BOWMAN, "T": ORC})
    long_shot.map.ceiling_ft = 10
    with pytest.raises(IllegalMissileError, match=r"needs 12\.5 ft of clear height .* the "
                                                  r"ceiling is 10 ft"):
        resolve_missile(long_shot, shot("Dagger"), ScriptedDice([20, 4]))
    medium = make_encounter("A..T..", {"A": BOWMAN, "T": ORC})
    medium.map.ceiling_ft = 10
    setup = prepare_missile(medium, shot("Dagger"))
    assert setup.range.band is RangeBand.MEDIUM and setup.range.clearance_ft == 5
    long_shot.map.ceiling_ft = 15
    assert prepare_missile(long_shot, shot("Dagger")).range.band is RangeBand.LONG
    twenty = make_encounter("A...T.", {"A": BOWMAN, "T": ORC})  # 20 ft: medium, 6⅔ ft high
    assert "needs 6.7 ft of height" in prepare_missile(twenty, shot("Dagger")).range.describe()


def test_a_packed_group_counts_as_short_range(make_encounter: Make) -> None:
    picture = "\n".join([".BCD.."] + ["..T..."] + ["......"] * 20 + ["..A..."])
    foes = {letter: ORC.model_copy(update={"name": letter}) for letter in "BCD"}
    setup = prepare_missile(make_encounter(picture, {"A": BOWMAN, "T": ORC, **foes}), shot())
    assert setup.range.band is RangeBand.MEDIUM and setup.range.modifier == 0
    assert setup.range.packed_by == ("B", "C", "D")
    two = picture.replace("D", ".")
    setup = prepare_missile(make_encounter(two, {"A": BOWMAN, "T": ORC,
                                                 "B": foes["B"], "C": foes["C"]}), shot())
    assert setup.range.modifier == -2 and not setup.range.packed_by


def test_accuracy_strength_and_stun_count(make_encounter: Make) -> None:
    strong = BOWMAN.model_copy(update={"abilities": Abilities(strength=16),
                                       "weapons": ("Heavy crossbow", "Javelin"),
                                       "conditions": frozenset({Condition.STUNNED})})
    encounter = make_encounter(FIELD, {"A": strong, "T": ORC})
    bolt = resolve_missile(encounter, shot("Heavy crossbow"), ScriptedDice([20, 10]))
    names = [t.name for t in bolt.attack.to_hit.terms]
    assert "Heavy crossbow accuracy" in names and "Stunned" in names
    assert bolt.attack.to_hit.value == 20 + 2 + 1 - 4  # STR +2 to HR, accuracy +1, stunned
    assert bolt.attack.damage_taken == 10  # fired: no STR to damage
    picture = FIELD.replace("......\n" * 5, "", 1)  # 25 ft: inside the javelin's 20/40/60
    javelin = resolve_missile(make_encounter(picture, {"A": strong, "T": ORC}),
                              shot("Javelin"), ScriptedDice([20, 6]))
    assert javelin.attack.damage_taken == 6 + 2  # thrown: STR +2 to damage


def test_refusals_name_the_reason(make_encounter: Make) -> None:
    unarmed = make_encounter(FIELD, {"A": Combatant(name="Fist"), "T": ORC})
    with pytest.raises(IllegalMissileError, match="carries no missile weapon"):
        prepare_missile(unarmed, shot())
    with pytest.raises(IllegalMissileError, match="cannot be thrown or fired"):
        prepare_missile(unarmed, shot("Long sword"))
    walled = make_encounter(FIELD, {"A": BOWMAN, "T": ORC}, walls=[(0, 5, 6, 5)])
    with pytest.raises(IllegalMissileError, match="no line of fire"):
        prepare_missile(walled, shot())


# --- firing into melee ---------------------------------------------------------------------------
# A Large ogre (T) in melee with a friend (F) who stands in front of its left half; the bowman
# shoots from 20 cells south, in F's column, so the line of fire crosses F's square. The rays
# are nearly parallel: F hides about half of the ogre.
MELEE = "\n".join(["......", "..TT..", "..TT..", "..F..."] + ["......"] * 19 + ["..A..."])
OGRE = Combatant(name="Ogre", side=Side.OPPOSITION, size="large", max_hp=30, hp=30)


def melee(make_encounter: Make, picture: str = MELEE) -> Encounter:
    friend = Combatant(name="Fenna", armour="chain_mail", max_hp=20, hp=20)
    return make_encounter(picture, {"A": BOWMAN, "T": OGRE, "F": friend})


def test_a_friend_in_the_way_raises_the_defence_and_takes_near_misses(make_encounter: Make
                                                                      ) -> None:
    encounter = melee(make_encounter)
    setup = prepare_missile(encounter, shot())
    cover = setup.cover
    assert cover.friend_id == "F" and abs(cover.friend_percent - 50) <= 5
    assert cover.friend_bonus == 2 + 3  # 2 + ⌈52 / 20⌉
    assert cover.percent == 0  # the friend counts once: as the friend's share, not as cover
    assert setup.defence.value == 11 + 5
    near = setup.defence.value - setup.bonus.value - 5  # a miss by exactly the bonus
    result = resolve_missile(encounter, shot(), ScriptedDice([near, 7]))
    assert result.friend_hit is not None and result.friend_hit.name == "Fenna"
    assert result.friend_hit.roll.faces == (8,)  # one die of the long bow's maximum, 8
    assert result.friend_hit.damage.value == 1 + (7 - 1 - 2)  # AV 2 vs missiles
    wide = resolve_missile(encounter, shot(), ScriptedDice([near - 1, 12]))
    assert wide.friend_hit is None and wide.landing is not None


def test_a_friend_standing_to_one_side_is_only_cover(make_encounter: Make) -> None:
    # 002: "or they are standing to one side": one column east, the line of fire passes
    # beside F, whose shadow is ordinary cover.
    cover = prepare_missile(melee(make_encounter, MELEE.replace("..A...", "...A..")),
                            shot()).cover
    assert cover.friend_id is None and abs(cover.percent - 50) <= 5 and cover.bonus == 3


def test_applying_a_near_miss_hurts_the_friend(make_encounter: Make) -> None:
    encounter = melee(make_encounter)
    setup = prepare_missile(encounter, shot())
    near = setup.defence.value - setup.bonus.value - 1
    perform(MissileAction(shot()), History(encounter), ScriptedDice([near, 8]))
    assert encounter.token("F").combatant.hp == 20 - (1 + 8 - 1 - 2)
    assert encounter.token("T").combatant.hp == 30
    assert encounter.log[-1].kind == "missile" and "hits Fenna" in encounter.log[-1].summary


# --- misses --------------------------------------------------------------------------------------
def test_a_miss_scatters_against_a_wall(make_encounter: Make) -> None:
    # d20 6 vs AC 11: missed by 5 → 10 ft (a long bow misses by 2 ft a point) towards 3
    # o'clock, from the target's east side (3, 1.5) to (5, 1.5). The flight from the
    # shooter (2.5, 11.5) meets the wall x = 4 at (4, 5.5): it stops there, in cell (3, 5).
    encounter = make_encounter(FIELD, {"A": BOWMAN, "T": ORC}, walls=[(4, 0, 4, 7)])
    result = resolve_missile(encounter, shot(), ScriptedDice([6, 3]))
    landing = result.landing
    assert landing is not None and result.scatter is not None
    assert landing.distance_ft == 10 and landing.clock == 3
    assert landing.wall == (4, 0, 4, 7) and landing.cell == Cell(3, 5)
    assert landing.point == pytest.approx((4.0, 5.5), abs=1e-5)
    open_field = make_encounter(FIELD, {"A": BOWMAN, "T": ORC})
    clear = resolve_missile(open_field, shot(), ScriptedDice([6, 3])).landing
    assert clear is not None and clear.cell == Cell(5, 1) and clear.wall is None


def test_twelve_is_straight_on_and_the_clock_turns_clockwise(make_encounter: Make) -> None:
    encounter = make_encounter(FIELD.replace("......\n..T", "......\n......\n..T"),
                               {"A": BOWMAN, "T": ORC})
    points = {}
    for face in (12, 3, 6, 9):
        landing = resolve_missile(encounter, shot(), ScriptedDice([10, face])).landing
        assert landing is not None
        points[face] = landing.point
    # missed by 1: 2 ft (0.4 cells) beyond the side of the target's cell (centre (2.5, 2.5),
    # half a cell to each side); north is straight on
    expected = {12: (2.5, 1.6), 3: (3.4, 2.5), 6: (2.5, 3.4), 9: (1.6, 2.5)}
    assert all(points[face] == pytest.approx(at) for face, at in expected.items())


@pytest.mark.parametrize("face", range(1, 13))
def test_a_near_miss_of_a_large_target_lands_beside_it(make_encounter: Make, face: int) -> None:
    """A walk-through saw three misses of the 2×2 Ogre "land at" Ogre cells: the miss
    distance is measured from the side of the target it passes."""
    picture = "\n".join(["......"] * 3 + ["..TT.."] * 2 + ["......"] * 8 + ["..A..."])
    ogre = ORC.model_copy(update={"size": "large"})
    encounter = make_encounter(picture, {"A": BOWMAN, "T": ogre})
    landing = resolve_missile(encounter, shot(), ScriptedDice([10, face])).landing  # by 1: 2 ft
    assert landing is not None and landing.distance_ft == 2
    assert landing.cell not in set(encounter.token("T").footprint.cells())


def test_a_lobbed_miss_lands_4_ft_beyond_first(make_encounter: Make) -> None:
    picture = "\n".join(["......"] * 4 + ["..T..."] + ["......"] * 29 + ["..A..."])
    encounter = make_encounter(picture, {"A": BOWMAN, "T": ORC})
    result = resolve_missile(encounter, shot(), ScriptedDice([10, 12]))  # long: −5
    landing = result.landing
    assert landing is not None and landing.lobbed and result.range.band is RangeBand.LONG
    # missed by 11 - (10 - 5) = 6 → 12 ft straight on, after 4 ft beyond the target's far
    # side (half a cell from its centre): 0.5 + 16 ft (3.2 cells)
    assert landing.point == pytest.approx((2.5, 4.5 - 0.5 - 3.2))


# --- burning oil ---------------------------------------------------------------------------------
def test_oil_that_lands_leaves_fire_that_goes_out_on_the_timeline(make_encounter: Make
                                                                  ) -> None:
    picture = "\n".join(["......"] * 3 + ["..T..."] + ["......"] * 3 + ["..A..."])
    encounter = make_encounter(picture, {"A": BOWMAN, "T": ORC})  # 20 ft: medium for oil
    history = History(encounter)
    history.push(StartRound(RoundState(round_number=2)))
    outcome = perform(MissileAction(shot("Flask of oil")), history, ScriptedDice([3, 12]))
    landing = outcome.result.landing
    # 3 − 2 (medium) vs 11: missed by 10 → 10 ft (thrown: 1 ft a point) straight on
    assert landing is not None and landing.cell == Cell(2, 1)
    (fire,) = encounter.map.hazards
    assert fire.kind is HazardKind.FIRE and fire.cells == (Cell(2, 1),)
    assert fire.effect.damage == "1d6" and fire.expires_after_round == 5
    history.undo()
    assert not encounter.map.hazards and not encounter.log  # one undo step
    history.redo()
    for _ in range(3):
        history.push(NextRound())
    assert encounter.map.hazards and encounter.timeline.round_number == 5
    history.push(NextRound())
    assert not encounter.map.hazards
    history.undo()
    assert encounter.map.hazards == [fire]


def test_oil_that_hits_burns_where_the_target_stands(make_encounter: Make) -> None:
    picture = "\n".join(["..T...", "......", "..A..."])
    encounter = make_encounter(picture, {"A": BOWMAN, "T": ORC})
    result = resolve_missile(encounter, shot("Flask of oil"), ScriptedDice([15, 4]))
    assert result.attack.hit and result.fire_cell == Cell(2, 0)
    assert result.attack.damage_taken == 4  # fire ignores AV


# --- spoiling ------------------------------------------------------------------------------------
def test_flight_time_decides_whether_a_hit_spoils(make_encounter: Make) -> None:
    picture = "\n".join(["..T..."] + ["......"] * 14 + ["..A..."])  # 75 ft: medium
    encounter = make_encounter(picture, {"A": BOWMAN, "T": ORC})
    history = History(encounter)
    history.push(StartRound(RoundState(round_number=1, current_segment=4, entries=[
        InitiativeEntry(token_id="T", side=Side.OPPOSITION, segment=3)], watches=[
        Watch(token_id="A", target="T", segment=0, kind=WatchKind.CONCENTRATING)])))
    history.push(SetActionLength("T", 2))  # segments 3-4; the arrow lands on 5
    perform(MissileAction(shot()), history, ScriptedDice([20, 8]))
    assert [e.kind for e in encounter.log] == ["missile"]
    history.undo()
    history.push(SetActionLength("T", 3))  # segments 3-5
    perform(MissileAction(shot()), history, ScriptedDice([20, 8]))
    assert [e.kind for e in encounter.log] == ["missile", "spoiled"]
    assert "segment 5 (1 segment(s) in flight)" in encounter.log[-1].text


# --- exact odds ----------------------------------------------------------------------------------
def every_outcome(encounter: Encounter, request: MissileRequest, values: tuple[int, ...] = (),
                  weight: Fraction = Fraction(1)) -> Iterator[tuple[MissileResult, Fraction]]:
    """Every resolution by scripted dice, with its probability."""
    try:
        result = resolve_missile(encounter, request, ScriptedDice(values))
    except DiceExhaustedError as need:
        for face in range(1, need.faces + 1):
            yield from every_outcome(encounter, request, (*values, face), weight / need.faces)
        return
    yield result, weight


@pytest.mark.parametrize("case", ["melee", "wall", "lobbed"])
def test_odds_equal_the_enumeration_of_every_die(make_encounter: Make, case: str) -> None:
    if case == "melee":
        encounter = melee(make_encounter)
    elif case == "wall":
        encounter = make_encounter(FIELD, {"A": BOWMAN, "T": ORC}, walls=[(4, 0, 4, 5)])
    else:
        picture = "\n".join(["......"] * 4 + ["..T..."] + ["......"] * 29 + ["..A..."])
        encounter = make_encounter(picture, {"A": BOWMAN, "T": ORC})
    odds = missile_odds(encounter, shot())
    hit, friend, landing = Fraction(0), Fraction(0), dict[Cell, Fraction]()
    for result, p in every_outcome(encounter, shot()):
        hit += p if result.attack.hit else 0
        friend += p if result.friend_hit else 0
        if result.landing is not None and result.landing.cell is not None:
            landing[result.landing.cell] = landing.get(result.landing.cell, Fraction(0)) + p
    assert (odds.hit, odds.friend_hit, odds.landing) == (hit, friend, landing)
    assert odds.hit + odds.friend_hit + odds.miss == 1
    assert sum(odds.landing.values()) + odds.off_map == odds.miss
    if case == "melee":
        assert odds.friend_hit > 0
    if case == "wall":
        assert odds.against_wall > 0


def test_a_lowered_guard_counts_against_missiles_too(make_encounter: Make) -> None:
    """002 Forcing back: the failed attacker 'loses one from their armour class' against any
    attack until it acts, a bow's included."""
    encounter = make_encounter(FIELD, {"A": BOWMAN, "T": ORC})
    plain = prepare_missile(encounter, shot()).defence.value
    encounter.timeline = RoundState(ac_penalties=[AcPenalty(token_id="T", value=-2,
                                                            until_round=1)])
    lowered = prepare_missile(encounter, shot()).defence
    assert lowered.value == plain - 2 and "Lowered guard" in [t.name for t in lowered.terms]


def test_a_creature_in_a_lock_cannot_shoot(make_encounter: Make) -> None:
    encounter = make_encounter(FIELD.replace("..A...", ".GA..."),
                               {"A": BOWMAN, "T": ORC, "G": ORC.model_copy(update={"name": "G"})})
    encounter.timeline = RoundState(holds=[Hold(holder="G", held="A", kind=HoldKind.LOCK,
                                                holder_cell=Cell(1, 11), held_cell=Cell(2, 11))])
    with pytest.raises(IllegalMissileError, match="caught in a lock"):
        prepare_missile(encounter, shot())
