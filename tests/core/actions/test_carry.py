"""The party carries on (core/actions/carry.py): what outlasts a fight, where the party
stands on the next map, and the round starting afresh — checked through a saved and
reopened file, as the window does it."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.actions.carry import CarryChoices, carry_party, default_drop, party_of
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Condition, OutOfHand, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap
from core.model.portrait import Portrait
from core.model.round import ConditionTimer, RoundState
from core.model.weapons import DEFAULT_WEAPONS, Weapon

KEY, ART = Portrait.from_bytes(b"\x89PNG mira", "png")


def _fought() -> Encounter:
    """After a fight: Mira hurt, stunned, aiming, her sword dropped; Brannoc knocked out
    for 3 more round ends; a kobold; a custom weapon and a portrait."""
    mira = Combatant(name="Mira", max_hp=18, hp=7, wounds=3, hero_points=2, portrait=KEY,
                     conditions=frozenset({Condition.STUNNED, Condition.AIMING,
                                           Condition.PRONE}),
                     weapons=("Star bow",), dropped_weapons=("Long sword", "Frying pan"))
    brannoc = Combatant(name="Brannoc", max_hp=20, hp=-2,
                        conditions=frozenset({Condition.KNOCKED_OUT}))
    bow = Weapon(name="Star bow", damage="d8", ranges=(50, 100, 150), missile_kind="fired")
    return Encounter(name="The crypt", portraits={KEY: ART}, weapons=[*DEFAULT_WEAPONS, bow],
                    tokens=[
        Token(id="mira", combatant=mira, x=1, y=1),
        Token(id="brannoc", combatant=brannoc, x=2, y=1),
        Token(id="kobold", combatant=Combatant(name="Kobold", side=Side.OPPOSITION), x=5,
              y=5)],
        timeline=RoundState(round_number=4, timers=[
            ConditionTimer(token_id="brannoc", condition=Condition.KNOCKED_OUT, rounds=3)]))


def _next_map(tmp_path: Path) -> Path:
    """The GM's prepared map: Mira's stand-in at her start cell, an ogre."""
    new = Encounter(name="The bridge", map=BattleMap(width=12, height=8), tokens=[
        Token(id="mira-start", combatant=Combatant(name="mira"), x=10, y=6),
        Token(id="ogre", combatant=Combatant(name="Ogre", side=Side.OPPOSITION), x=0, y=0)],
        timeline=RoundState(round_number=7))
    path = tmp_path / "bridge.json"
    save_encounter(new, path)
    return path


def _carried_and_reopened(tmp_path: Path, choices: CarryChoices,
                          drop: Cell | None = None) -> Encounter:
    carried = carry_party(_fought(), load_encounter(_next_map(tmp_path)), ["mira", "brannoc"],
                          choices, drop)
    save_encounter(carried.encounter, tmp_path / "next.json")
    return load_encounter(tmp_path / "next.json")


def test_the_party_arrives_as_the_fight_left_it(tmp_path: Path) -> None:
    new = _carried_and_reopened(tmp_path, CarryChoices(), drop=Cell(5, 3))
    mira, brannoc = new.token("mira").combatant, new.token("brannoc").combatant
    assert (mira.hp, mira.wounds, mira.hero_points) == (7, 3, 2)
    # aiming ends with the fight; no round passed: still stunned and prone
    assert mira.conditions == {Condition.STUNNED, Condition.PRONE}
    assert mira.weapons == ("Star bow", "Long sword")  # recovered; the pan no table knows
    assert mira.dropped_weapons == ("Frying pan",)
    assert new.weapon("Star bow").damage == "d8" and KEY in new.portraits
    assert brannoc.conditions == {Condition.KNOCKED_OUT} and brannoc.hp == -2
    assert new.timeline.round_number == 0 and not new.timeline.entries
    assert {(t.token_id, t.condition, t.rounds) for t in new.timeline.timers} == {
        ("brannoc", Condition.KNOCKED_OUT, 3), ("mira", Condition.STUNNED, 1)}
    assert new.log[-1].summary.startswith("From The crypt: Mira 7/18 HP (3 wound points")


def test_mira_takes_her_stand_ins_start_cell_and_brannoc_goes_by_the_drop(tmp_path: Path
                                                                       ) -> None:
    new = _carried_and_reopened(tmp_path, CarryChoices(), drop=Cell(5, 3))
    assert new.token("mira").cell == Cell(10, 6)
    assert not new.has_token("mira-start")
    assert new.token("brannoc").cell == Cell(5, 3)
    assert new.token("ogre").cell == Cell(0, 0)  # the new map's own are left as they were


def test_rounds_between_the_fights_run_the_timers_on(tmp_path: Path) -> None:
    new = _carried_and_reopened(tmp_path, CarryChoices(rounds_between=3))
    mira, brannoc = new.token("mira").combatant, new.token("brannoc").combatant
    assert mira.conditions == frozenset()  # stunned → dazed → over; she stood up
    # KO: 3 round ends, then one place better: knocked down, one round end to go; knockdown
    # takes no action (rules.md: -6 on its rolls), so the rounds between let him get up
    assert brannoc.conditions == {Condition.KNOCKDOWN}
    assert [(t.token_id, t.condition, t.rounds) for t in new.timeline.timers] == [
        ("brannoc", Condition.KNOCKDOWN, 1)]
    long_gap = _carried_and_reopened(tmp_path, CarryChoices(rounds_between=600))
    assert long_gap.token("brannoc").combatant.conditions == frozenset()
    assert not long_gap.timeline.timers


def test_what_the_gm_unticks_stays_behind(tmp_path: Path) -> None:
    new = _carried_and_reopened(tmp_path, CarryChoices(
        hp=False, wounds=False, conditions=False, hero_points=False, recover_weapons=False))
    mira = new.token("mira").combatant
    assert (mira.hp, mira.wounds, mira.hero_points, mira.conditions) == (18, 0, 0, frozenset())
    assert mira.weapons == ("Star bow",)
    assert mira.dropped_weapons == ("Long sword", "Frying pan")
    assert not new.timeline.timers


def _with_sword_dropped_and_bow_tangled() -> Encounter:
    fought = _fought()
    mira = fought.token("mira")
    fought.put_token(mira.with_combatant(mira.combatant.model_copy(update={"out_of_hand": (
        OutOfHand(item="Long sword", cell=Cell(4, 4)),
        OutOfHand(item="Star bow", how="tangled"))})))
    return fought


def test_what_a_critical_event_took_out_of_hand_is_taken_back_between_the_fights(
        tmp_path: Path) -> None:
    carried = carry_party(_with_sword_dropped_and_bow_tangled(),
                          load_encounter(_next_map(tmp_path)), ["mira"], CarryChoices())
    assert carried.encounter.token("mira").combatant.out_of_hand == ()
    assert "Mira took back what was out of hand: Long sword, Star bow" in carried.notes


def test_unticked_it_stays_out_of_hand_and_lies_nowhere_on_the_new_map(tmp_path: Path
                                                                       ) -> None:
    carried = carry_party(_with_sword_dropped_and_bow_tangled(),
                          load_encounter(_next_map(tmp_path)), ["mira"],
                          CarryChoices(recover_weapons=False))
    held = carried.encounter.token("mira").combatant.out_of_hand
    assert [(o.item, o.how, o.cell) for o in held] == [
        ("Long sword", "dropped", None), ("Star bow", "tangled", None)]
    assert any("still out of hand" in note for note in carried.notes)


def test_the_new_encounter_it_came_from_is_left_as_it_was(tmp_path: Path) -> None:
    new = load_encounter(_next_map(tmp_path))
    before = new.model_dump()
    carry_party(_fought(), new, ["mira"], CarryChoices())
    assert new.model_dump() == before


def test_no_room_is_refused() -> None:
    tiny = Encounter(map=BattleMap(width=1, height=1))
    with pytest.raises(ValueError, match="no free 1×1 space on the new map for Brannoc"):
        carry_party(_fought(), tiny, ["mira", "brannoc"], CarryChoices())


def test_a_weapon_named_apart_only_by_case_is_refused() -> None:
    new = Encounter()
    new.weapons.append(Weapon(name="STAR BOW", damage="d6", ranges=(10, 20, 30),
                              missile_kind="fired"))
    with pytest.raises(ValueError, match="rename one first"):
        carry_party(_fought(), new, ["mira"], CarryChoices())


def test_who_may_carry_on_and_where_they_go_by_default() -> None:
    old = _fought()
    assert party_of(old) == ["mira", "brannoc"]
    assert default_drop(Encounter(map=BattleMap(width=10, height=6))) == Cell(5, 3)
    assert default_drop(old) == Cell(1, 1)
    with pytest.raises(ValueError, match="outside 0-1,000,000"):
        CarryChoices(rounds_between=-1)


def test_the_boons_of_the_last_round_stay_behind(tmp_path: Path) -> None:
    """002 Critical events 16-18, 23: a lucky break, an unused lucky opening and the round's
    hero points last to the round's end, so not into the next fight; hero points do."""
    fought = _fought()
    mira = fought.token("mira")
    fought.put_token(mira.with_combatant(mira.combatant.model_copy(update={
        "lucky_break": 4, "lucky_opening": 6, "round_hero_points": 1})))
    carried = carry_party(fought, load_encounter(_next_map(tmp_path)), ["mira"],
                          CarryChoices())
    arrived = carried.encounter.token("mira").combatant
    assert (arrived.lucky_break, arrived.lucky_opening, arrived.round_hero_points) == (0, 0, 0)
    assert arrived.hero_points == 2

