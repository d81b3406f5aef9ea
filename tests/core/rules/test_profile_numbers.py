"""Numbers that were constants and are now rules-profile fields (issue 37, point 9), each
worked by hand with its default and with another value: the critical events' side die, the
battlefield shift and the retreat; knee height for overruns; the declaration time a GM may
add; a failed overrun's mover passing to the first free cell beyond (RD "Overrun"); and the
size footprints (RD "Sizes")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.actions.base import perform
from core.actions.commands import CommandRefusedError, SetProfile
from core.actions.critical import CriticalEventAction
from core.actions.history import History
from core.actions.overrun import OverrunAction
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.model.tables import Size
from core.rules.critical import AffectedSide
from core.rules.melee import IllegalManoeuvreError
from core.rules.overrun import OverrunRequest, overrun_odds
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
