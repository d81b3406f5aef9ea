"""Numbers that were constants and are now rules-profile fields (issue 37, point 9), each
worked by hand with its default and with another value: the critical events' side die, the
battlefield shift and the retreat; knee height for overruns; the declaration time a GM may
add; a failed overrun's mover passing to the first free cell beyond (RD "Overrun"); and the
size footprints (RD "Sizes")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.commands import CommandRefusedError, SetProfile
from core.actions.critical import CriticalEventAction
from core.actions.history import History
from core.actions.overrun import OverrunAction
from core.actions.round import NextRound
from core.actions.spoiling import PerceptionAction
from core.io.fileio import load_encounter
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry, RoundState
from core.model.tables import Size
from core.rules.attack import AttackOptions
from core.rules.critical import AffectedSide
from core.rules.melee import IllegalManoeuvreError
from core.rules.overrun import OverrunRequest, overrun_odds
from core.rules.ratings import armour_class
from core.rules.spoiling import readiness
from core.rules.turns import more_declaration_time

Make = Callable[..., Encounter]


def foe(name: str, **kw: object) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, **kw)


def test_the_side_die_counts_round_again(make_encounter: Make) -> None:
    """A d6 side die: 4 is the party again (1 party, 2 opposition, 3 both)."""
    encounter = make_encounter("A G", {"G": foe("G")},
                               profile=RulesProfile(critical_side_die="d6"))
    outcome = perform(CriticalEventAction("A", "G"), History(encounter), ScriptedDice([15, 4]))
    assert outcome.result.side is AffectedSide.PARTY
    assert outcome.result.rolls[1].expression == "1d6"


@pytest.mark.parametrize(("profile", "dice", "cell"), [
    (RulesProfile(), [10, 3, 2], Cell(2, 1)),  # d8 3 = E, d2 2 × 5 ft = 10 ft: 2 cells
    (RulesProfile(shift_distance_die="d3", shift_ft_per_point=10), [10, 5, 1], Cell(0, 3)),
])
def test_the_battlefield_shift_numbers(make_encounter: Make, profile: RulesProfile,
                                       dice: list[int], cell: Cell) -> None:
    """002 Critical events 10 'Battlefield shifts 5-10 feet in random direction'. The
    second: d8 5 = S, d3 1 × 10 ft = 2 cells."""
    encounter = make_encounter("""
        . . . . .
        A G . . .
        . . . . .
        . . . . .
    """, {"G": foe("G")}, profile=profile)
    perform(CriticalEventAction("A", "G"), History(encounter), ScriptedDice(dice))
    assert encounter.token("A").cell == cell


def test_the_retreat_distance(make_encounter: Make) -> None:
    """002 Critical events 19 '1 party retreats by 10'': 15 ft here is 3 cells west."""
    encounter = make_encounter(". . . . A G", {"G": foe("G")},
                               profile=RulesProfile(critical_retreat_ft=15))
    perform(CriticalEventAction("A", "G"), History(encounter), ScriptedDice([19, 1]))
    assert encounter.token("A").cell == Cell(1, 0)


def test_knee_height_is_a_profile_size(make_encounter: Make) -> None:
    """002 Overruns: 'Creatures lower than knee height cannot overrun a braced character'.
    With knee height at Small, a Small mover is refused too."""
    encounter = make_encounter("A B", {"A": Combatant(name="A", size=Size.SMALL),
                                       "B": foe("B", conditions=frozenset({Condition.BRACED}))},
                               profile=RulesProfile(knee_high_size=Size.SMALL))
    with pytest.raises(IllegalManoeuvreError, match="too small to overrun a braced B"):
        overrun_odds(encounter, OverrunRequest(mover="A", defender="B"))
    encounter.profile = RulesProfile()
    assert overrun_odds(encounter, OverrunRequest(mover="A", defender="B")).stands < 1


def test_a_failed_overrun_passes_the_creature_behind_to_the_first_free_cell(
        make_encounter: Make) -> None:
    """RD "Overrun": 'the mover passes to the first free cell beyond'. C stands right behind
    B: A passes both and ends on (3,0); before, A stayed in contact."""
    encounter = make_encounter("A B C . .", {"B": foe("B"), "C": foe("C")})
    request = OverrunRequest(mover="A", defender="B", direction=Direction.E)
    perform(OverrunAction(request), History(encounter), ScriptedDice([2]))  # B falls
    assert encounter.token("A").cell == Cell(3, 0)
    assert encounter.token("B").combatant.has(Condition.PRONE)


def test_a_wall_beyond_still_keeps_the_mover_in_contact(make_encounter: Make) -> None:
    encounter = make_encounter("A B C .", {"B": foe("B"), "C": foe("C")},
                               walls=[(3, 0, 3, 1)])
    perform(OverrunAction(OverrunRequest(mover="A", defender="B")), History(encounter),
            ScriptedDice([2]))
    assert encounter.token("A").cell == Cell(0, 0)


@pytest.mark.parametrize(("foes", "added", "step"), [(4, 0, 120), (4, 420, 60), (4, 480, 0),
                                                      (0, 0, 0)])
def test_declaration_time_is_capped_per_creature(make_encounter: Make, foes: int, added: int,
                                                 step: int) -> None:
    """002 Initiative: 'The DM may delay this period ... though this should not exceed 2
    minutes per creature': four foes, at most 480 s more."""
    picture = "A " + " ".join(".FGHI"[1:foes + 1]) if foes else "A"
    encounter = make_encounter(picture, {k: foe(k) for k in "FGHI"[:foes]})
    assert more_declaration_time(encounter, added) == step


# --- size footprints (RD "Sizes": Tiny, Small, Medium 1 cell; Large 2×2; Huge 3×3; Gargantuan
# 4×4) -------------------------------------------------------------------------------------
def test_the_size_footprints_are_a_profile_field() -> None:
    """A Large ogre takes 2×2 by default and 3×3 when the profile says so; a change that
    would put it on another creature or off the map is refused, and nothing changes."""
    encounter = Encounter(map=BattleMap(width=6, height=4), tokens=[
        Token(id="ogre", combatant=Combatant(name="Ogre", size=Size.LARGE), x=0, y=0),
        Token(id="rat", combatant=Combatant(name="Rat", size=Size.TINY), x=4, y=0)])
    assert encounter.token("ogre").footprint.size == 2
    assert encounter.token_at(Cell(2, 2)) is None
    bigger = RulesProfile(size_footprints=(1, 1, 1, 3, 4, 5))
    history = History(encounter)
    assert history.push(SetProfile(bigger))
    assert encounter.token("ogre").footprint.size == 3
    assert encounter.token_at(Cell(2, 2)).id == "ogre"  # the index follows
    assert encounter.footprint_cells(Size.HUGE) == 4
    history.undo()
    assert encounter.token_at(Cell(2, 2)) is None
    encounter.put_token(encounter.token("rat").at(Cell(2, 1)))
    with pytest.raises(CommandRefusedError, match="Rat as 1×1 would overlap Ogre"):
        SetProfile(bigger).apply(encounter)
    assert encounter.profile == RulesProfile() and encounter.token("ogre").footprint.size == 2


def test_a_file_with_other_footprints_loads_with_them() -> None:
    profile = RulesProfile(size_footprints=(1, 1, 2, 2, 3, 4))
    encounter = Encounter.model_validate({
        "profile": profile.model_dump(mode="json"), "map": {"width": 4, "height": 4},
        "tokens": [{"id": "m", "combatant": {"name": "Mira"}, "x": 0, "y": 0}]})
    assert encounter.token("m").footprint.size == 2  # a Medium creature takes 2×2 here
    with pytest.raises(ValueError, match="overlaps"):
        Encounter.model_validate({
            "profile": profile.model_dump(mode="json"), "map": {"width": 4, "height": 4},
            "tokens": [{"id": "m", "combatant": {"name": "Mira"}, "x": 0, "y": 0},
                       {"id": "b", "combatant": {"name": "Bo"}, "x": 1, "y": 1}]})
    with pytest.raises(ValueError, match="must not shrink"):
        RulesProfile(size_footprints=(1, 1, 2, 1, 3, 4))


# --- critical events and spoiling (docs/rules.md §9.5, §9.7) -----------------------------

ALDO = Combatant(name="Aldo", armour="chain_mail", shield="medium", weapons=("Long sword",),
                 max_hp=20, hp=20)
GROK = foe("Grok", weapons=("Club",), max_hp=20, hp=20)


def fight(make_encounter: Make, **profile: object) -> History:
    """Aldo (chain mail AV 4, a medium shield; AC 13) next to Grok (no armour, a club);
    round 1 under way, both on segment 3."""
    encounter = make_encounter("A G .", {"A": ALDO, "G": GROK},
                               profile=RulesProfile(**profile))
    encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="A", segment=3),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=3)])
    return History(encounter)


def event(history: History, *dice: int) -> str:
    return perform(CriticalEventAction("A", "G"), history, ScriptedDice(list(dice))).text


def aldo(history: History) -> Combatant:
    return history.encounter.token("A").combatant


@pytest.mark.parametrize(("shield", "dent", "ac"), [(1, 1, 13 - 1 - 1), (2, 0, 13 - 2),
                                                   (0, 3, 13 - 3)])
def test_what_a_damaged_shield_and_a_dent_cost(make_encounter: Make, shield: int, dent: int,
                                               ac: int) -> None:
    """002 Critical events 2 'Shield damaged ( -1 Def)', 4 'Armour dented ( -1 Defence)':
    −1 each by default; the profile's penalty each otherwise."""
    history = fight(make_encounter, shield_damage_penalty=shield, armour_dent_penalty=dent)
    assert f"damaged: −{shield} defence until replaced" in event(history, 2, 1)
    assert f"dented: −{dent} AC until repaired" in event(history, 4, 1)
    assert armour_class(aldo(history), history.encounter.profile).value == ac


@pytest.mark.parametrize(("rounds", "still"), [(2, [True, False]), (3, [True, True, False])])
def test_how_long_stymied_lasts(make_encounter: Make, rounds: int, still: list[bool]
                                ) -> None:
    """002 Critical events 22 'No hero points this or next round': 2 round ends."""
    history = fight(make_encounter, stymied_rounds=rounds)
    event(history, 22)
    for expected in still:
        history.push(NextRound())
        assert aldo(history).has(Condition.STYMIED) is expected


@pytest.mark.parametrize(("alone", "attacked", "still"), [
    (1, 2, [False, True, False]), (2, 3, [True, True, True, False])])
def test_how_long_befuddled_lasts(make_encounter: Make, alone: int, attacked: int,
                                  still: list[bool]) -> None:
    """002 Critical events 25 'Befuddled: If attacked; no skill action next round': to the
    round's end (``befuddled_rounds``), through the next round once attacked
    (``befuddled_attacked_rounds`` from then). The second row: 2 round ends left alone, 3
    from the attack."""
    history = fight(make_encounter, befuddled_rounds=alone,
                    befuddled_attacked_rounds=attacked)
    event(history, 25, 1)
    history.push(NextRound())
    assert aldo(history).has(Condition.BEFUDDLED) is still[0]
    history.undo()
    perform(AttackAction("G", "A", AttackOptions(damage="d6")), history, ScriptedDice([1]))
    for expected in still[1:]:
        history.push(NextRound())
        assert aldo(history).has(Condition.BEFUDDLED) is expected


@pytest.mark.parametrize(("times", "aldo_hp"), [(2, 20 - 2), (3, 20 - 5)])
def test_what_a_wild_opening_multiplies(make_encounter: Make, times: int, aldo_hp: int
                                        ) -> None:
    """RD Critical events 26: 'damage doubled before AV'. Grok's club 3 on Aldo's AV 4:
    × 2 = 6, 1 + (5 − 4) = 2 through; × 3 = 9, 1 + (8 − 4) = 5 through."""
    history = fight(make_encounter, wild_opening_multiplier=times)
    text = event(history, 26, 6, 3)
    assert aldo(history).hp == aldo_hp
    assert f"Grok hits Aldo for {20 - aldo_hp} (×{times})" in text


@pytest.mark.parametrize(("segments", "spoils_from"), [(1, 5), (2, 6), (0, 4)])
def test_how_long_the_perception_takes(segments: int, spoils_from: int) -> None:
    """002 Spoiling attacks: 'The perception takes one segment to perform'. Aldo notices
    the Shaman's 4-segment spell at segment 4: his hits spoil it from segment 4 + this."""
    encounter = Encounter(map=BattleMap(width=3, height=1), tokens=[
        Token(id="s", combatant=foe("Shaman"), x=1, y=0),
        Token(id="a", combatant=Combatant(name="Aldo"), x=0, y=0)],
        profile=RulesProfile(spoil_perception_segments=segments))
    encounter.timeline = RoundState(round_number=1, current_segment=4, entries=[
        InitiativeEntry(token_id="s", side=Side.OPPOSITION, segment=3, action_segments=4),
        InitiativeEntry(token_id="a", segment=8)])
    outcome = perform(PerceptionAction("a", "s"), History(encounter), ScriptedDice([20]))
    assert outcome.summary.endswith(f"its hits from segment {spoils_from} spoil the action")
    for segment in range(4, 7):
        encounter.timeline.current_segment = segment
        assert (readiness(encounter, "a", "s") == "") is (segment >= spoils_from)



def test_a_file_saved_before_these_fields_loads_with_todays_numbers() -> None:
    """The demo encounter's profile spells out every older field and none of these."""
    demo = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
    saved = json.loads(demo.read_text(encoding="utf-8"))["profile"]
    new = {"shield_damage_penalty": 1, "armour_dent_penalty": 1, "stymied_rounds": 2,
           "befuddled_rounds": 1, "befuddled_attacked_rounds": 2, "wild_opening_multiplier": 2,
           "spoil_perception_segments": 1}
    assert not set(new) & set(saved)
    profile = load_encounter(demo).profile
    assert {name: getattr(profile, name) for name in new} == new
