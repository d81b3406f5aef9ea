"""Overruns by a group (002 Overruns: 'In the case of many smaller creatures the mass of half
the group is used'; RD "Group overrun"), worked by hand."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from core.actions.base import perform
from core.actions.group_overrun import GroupOverrunAction
from core.actions.history import History
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry, RoundState
from core.rules.group_overrun import (
    GroupOverrunRequest,
    extra_categories,
    group_overrun_odds,
    pack_of,
)
from core.rules.manoeuvres import offers
from core.rules.melee import IllegalManoeuvreError
from core.rules.turns import TurnRefusedError

Make = Callable[..., Encounter]


def dog(name: str) -> Combatant:
    return Combatant(name=name, size="small")


HERO = Combatant(name="Hero", side=Side.OPPOSITION, abilities=Abilities(strength=16),
                 fr_slots=1)


def corridor(make_encounter: Make) -> Encounter:
    """Eight Small dogs pouring down a corridor at the Hero (Medium): a column of eight."""
    return make_encounter("A B C D E F G H X . . .",
                          {k: dog(f"Dog {k}") for k in "ABCDEFGH"} | {"X": HERO})


def test_the_mass_of_half_the_group_adds_size_categories() -> None:
    """⌊log2⌊N/2⌋⌋: 2-3 dogs add nothing, 4-7 one category, 8-15 two."""
    profile = RulesProfile()
    assert [extra_categories(n, profile) for n in (2, 3, 4, 7, 8, 15, 16)] == [
        0, 0, 1, 1, 2, 2, 3]
    assert extra_categories(8, profile.model_copy(update={"group_overrun_share": 1})) == 3


def test_a_pack_of_eight_small_dogs_knocks_the_hero_down_and_pours_past(
        make_encounter: Make) -> None:
    """Small − Medium = −1, + 2 for the mass of four: one category larger, +4. The Hero
    stays standing on d20 + STR 2 + FR 3 ≥ 10 + 4 = 14: 12 in 20. A 6 gives 11: knocked
    Prone, and every dog passes, lead first, each to the first free cell beyond."""
    encounter = corridor(make_encounter)
    request = GroupOverrunRequest(movers=tuple("ABCDEFGH"), defender="X")
    odds = group_overrun_odds(encounter, request)
    assert (odds.stand_bonus, odds.target, odds.stands) == (5, 14, Fraction(3, 5))
    assert odds.passing == 3  # the corridor ends 3 cells past the Hero
    history = History(encounter)
    outcome = perform(GroupOverrunAction(request), history, ScriptedDice([6]))
    result = outcome.result
    assert (result.stand.value, result.target.value, result.stands) == (11, 14, False)
    assert [w.mover_id for w in result.ways][:3] == ["H", "G", "F"]  # lead first
    assert [encounter.token(k).cell for k in "HGF"] == [Cell(9, 0), Cell(10, 0), Cell(11, 0)]
    assert encounter.token("E").cell == Cell(4, 0)  # no room left beyond: it stays
    assert Condition.PRONE in encounter.token("X").combatant.conditions
    assert "Group of 8 (small; the mass of 4: +2) 1 size category larger" in \
        result.target.describe()
    history.undo()
    assert encounter.token("H").cell == Cell(7, 0)
    assert Condition.PRONE not in encounter.token("X").combatant.conditions


def test_a_big_lead_passes_over_a_creature_beside_the_defender_as_one_mover_does(
        make_encounter: Make) -> None:
    """The Ogre (Large) leads, the Dog lined up behind it: the Goblin beside the Hero is in
    the Ogre's way and passed over, as in an overrun by one (it stayed put before); the Dog
    follows through and past the Ogre."""
    encounter = make_encounter("""
        . . . . . . . .
        M L L X . . . .
        . L L C . . . .
    """, {"M": dog("Dog"), "L": Combatant(name="Ogre", size="large"), "X": HERO,
          "C": Combatant(name="Goblin", side=Side.OPPOSITION)})
    request = GroupOverrunRequest(movers=("L", "M"), defender="X")
    outcome = perform(GroupOverrunAction(request), History(encounter), ScriptedDice([1]))
    assert not outcome.result.stands
    assert encounter.token("L").cell == Cell(4, 1)
    assert encounter.token("M").cell == Cell(6, 1)
    assert encounter.token("C").cell == Cell(3, 2)


def test_the_defender_that_stands_stops_the_whole_group(make_encounter: Make) -> None:
    encounter = corridor(make_encounter)
    request = GroupOverrunRequest(movers=tuple("EFGH"), defender="X")
    # four dogs: −1 + 1 = 0 categories larger: 10 to stand; a 5 + 5 = 10 stands
    assert group_overrun_odds(encounter, request).target == 10
    outcome = perform(GroupOverrunAction(request), History(encounter), ScriptedDice([5]))
    assert outcome.result.stands and encounter.token("H").cell == Cell(7, 0)
    assert outcome.summary.endswith("— Hero stands; they stop against it")


def test_each_mover_spends_its_action_and_the_slowest_sets_the_speed(
        make_encounter: Make) -> None:
    encounter = corridor(make_encounter)
    encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id=k) for k in "GH"] + [
        InitiativeEntry(token_id="X", side=Side.OPPOSITION)])
    encounter.timeline.replace_entry(InitiativeEntry(
        token_id="H", path=tuple(Cell(x, 0) for x in range(2, 8))))  # a 25 ft sprint
    request = GroupOverrunRequest(movers=("G", "H"), defender="X")
    assert group_overrun_odds(encounter, request).run_ft == 0  # G did not run
    perform(GroupOverrunAction(request), History(encounter), ScriptedDice([1]))
    assert [encounter.timeline.entry(k).actions_taken for k in "GH"] == [1, 1]
    with pytest.raises(TurnRefusedError, match="already acted"):
        group_overrun_odds(encounter, request)


def test_a_mover_neither_engaged_nor_in_the_column_is_refused(make_encounter: Make) -> None:
    encounter = make_encounter("""
        A . . . .
        . . B X .
    """, {"A": dog("Dog A"), "B": dog("Dog B"), "X": HERO})
    with pytest.raises(IllegalManoeuvreError, match="Dog A is neither next to Hero"):
        group_overrun_odds(encounter, GroupOverrunRequest(movers=("A", "B"), defender="X"))
    with pytest.raises(IllegalManoeuvreError, match="two or more"):
        group_overrun_odds(encounter, GroupOverrunRequest(movers=("B",), defender="X"))


def test_a_pack_of_rats_swarms_past_a_braced_defender(make_encounter: Make) -> None:
    """Knee-high movers cannot overrun a braced character; they swarm past, no roll, and it
    is not their action (RD Swarming past)."""
    braced = HERO.model_copy(update={"conditions": frozenset({Condition.BRACED})})
    encounter = make_encounter("A B X . .", {"A": Combatant(name="Rat 1", size="tiny"),
                                             "B": Combatant(name="Rat 2", size="tiny"),
                                             "X": braced})
    encounter.timeline = RoundState(round_number=1, entries=[InitiativeEntry(token_id="A"),
                                                             InitiativeEntry(token_id="B")])
    request = GroupOverrunRequest(movers=("A", "B"), defender="X")
    outcome = perform(GroupOverrunAction(request), History(encounter), ScriptedDice([]))
    assert outcome.result.swarmed and outcome.rolls == ()
    assert [encounter.token(k).cell for k in "BA"] == [Cell(3, 0), Cell(4, 0)]
    assert encounter.token("X").combatant.conditions == {Condition.BRACED}
    assert encounter.timeline.entry("A").actions_taken == 0


def test_the_manoeuvres_menu_offers_the_pack(make_encounter: Make) -> None:
    encounter = corridor(make_encounter)
    assert pack_of(encounter, "H", "X") == tuple("HABCDEFG")
    texts = [o.text for o in offers(encounter, "H")]
    assert "Overrun Hero with the pack (8) — knocked over 40%" in texts
