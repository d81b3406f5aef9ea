"""Known answers for the rules corrections, each worked by hand from the seed sentence or
the rules-decisions item quoted in its docstring."""

from __future__ import annotations

from collections.abc import Callable

from core.actions.base import perform
from core.actions.history import History
from core.actions.round import NextRound
from core.actions.surprise import SurpriseAction
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.profile import MasteryReduction, RulesProfile
from core.model.round import ConditionTimer
from core.rules.attack import AttackOptions, attack_on_map
from core.rules.conditions import rounds_of
from core.rules.critical import critical_event, resolve_critical
from core.rules.ratings import armour_class, force_defense
from core.rules.shove import ShoveRequest, SuccessLevel, resolve_shove, size_penalty
from core.rules.timeline import roll_initiative

MakeEncounter = Callable[..., Encounter]
REQUEST = ShoveRequest(attacker="A", defender="B")
LEATHER = Combatant(name="B", armour="leather", max_hp=40, hp=40)   # FD 11, AV 2, Resist 3


# --- 1. Wall slam is one hit ---------------------------------------------------------------

def test_a_slam_adds_the_dice_then_applies_av_once(make_encounter: MakeEncounter) -> None:
    """RD Shove 10: "The impact is one hit: add the dice, then apply AV once (1 point
    penetrates, the rest minus AV). Example: three d10 showing 4, 7, 2 against AV 2 → 13 →
    1 + (12 − 2) = 11."

    A: FR 6 (3 slam dice; the d6 two steps up: d10). d20 12 + 6 = 18 vs FD 11; d10 5 + 6 − 3
    = 8 ft, capped at 5 ft, all unused at the wall behind B."""
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=6), "B": LEATHER},
                         walls=[(2, 0, 2, 1)])
    result = resolve_shove(enc, REQUEST, ScriptedDice([12, 5, 4, 7, 2]))
    assert [r.expression for r in result.slam_rolls] == ["3d10"]
    assert [d.value for d in result.slam_damage] == [11]
    assert result.total_damage == 11
    per_die = enc.model_copy(update={"profile": RulesProfile(slam_av_per_die=True)})
    old = resolve_shove(per_die, REQUEST, ScriptedDice([12, 5, 4, 7, 2]))
    assert old.total_damage == 2 + 5 + 1   # each die through AV 2: the profile's option


def test_two_feet_flush_against_a_wall_slams(make_encounter: MakeEncounter) -> None:
    """RD Shove 10: "Any unused distance of 1 ft or more against the wall slams (a 2 ft push
    flush against a wall slams; a Tiny creature can be slammed)."

    A: FR 0. d20 12 vs FD 11; d6 5 + 0 − 3 = 2 ft, too short for a cell; slam d6 6: AV 2 →
    1 + (5 − 2) = 4."""
    enc = make_encounter("A B . .", {"B": LEATHER}, walls=[(2, 0, 2, 1)])
    result = resolve_shove(enc, REQUEST, ScriptedDice([12, 5, 6]))
    assert (result.distance_ft, result.unused_ft, result.total_damage) == (2, 2, 4)


# --- 2. Double Success by size -------------------------------------------------------------

def test_a_double_success_moves_a_gargantuan_its_max_displacement(
        make_encounter: MakeEncounter) -> None:
    """RD Shove 6: "the defender is knocked Prone and moved the greater of 10 ft and its own
    Max Displacement (Medium 10, Large 10, Huge 15, Gargantuan 20)".

    Both Gargantuan (no size penalty). A: FR 8. d20 20 + 8 = 28 vs FD 18: margin 10, double:
    20 ft = 4 cells east, Prone; no shove die."""
    row = "A A A A B B B B . . . . . . . ."
    enc = make_encounter("\n".join([row] * 4), {
        "A": Combatant(name="A", size="gargantuan", fr_slots=8),
        "B": Combatant(name="B", size="gargantuan")})
    result = resolve_shove(enc, REQUEST, ScriptedDice([20]))
    assert result.level is SuccessLevel.DOUBLE and result.prone
    assert result.distance_ft == 20 and result.final_cell == Cell(8, 0)
    assert result.shove_roll is None


def test_a_double_capped_by_forceful_defense_is_a_standard_success(
        make_encounter: MakeEncounter) -> None:
    """RD Shove 6: "A double capped by Forceful Defense is a standard success in every
    respect (shove die rolled, no Prone)". B's FR 4 exceeds A's 3: d20 20 + 3 = 23 vs FD 11
    caps; d8 (FR 3: one step) 7 + 3 − (3 + 4) = 3 ft."""
    enc = make_encounter("A B . . .", {"A": Combatant(name="A", fr_slots=3),
                                       "B": LEATHER.model_copy(update={"fr_slots": 4})})
    result = resolve_shove(enc, REQUEST, ScriptedDice([20, 7]))
    assert result.level is SuccessLevel.SUCCESS and result.forceful_defense
    assert (result.distance_ft, result.prone) == (3, False)


# --- 3. Falls go through AV ----------------------------------------------------------------

def test_falling_damage_is_one_hit_through_armour(make_encounter: MakeEncounter) -> None:
    """000: "AV applies to all physical damage"; RD Shove 13: "falling damage 1d6 per 10 ft
    fallen, reduced by AV as one hit".

    A 20 ft pit with no damage of its own. d20 12 + 2 vs FD 11; d6 6 + 2 − 3 = 5 ft: the pit;
    Pit-Stop 1 fails; fall 2d6 = 6 + 5 = 11 through AV 2: 1 + (10 − 2) = 9."""
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
                 effect=HazardEffect(fall_ft=20))
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=2), "B": LEATHER},
                         hazards=[pit])
    assert resolve_shove(enc, REQUEST, ScriptedDice([12, 6, 1, 6, 5])).total_damage == 9
    bare = enc.model_copy(update={"profile": RulesProfile(falls_ignore_av=True)})
    assert resolve_shove(bare, REQUEST, ScriptedDice([12, 6, 1, 6, 5])).total_damage == 11


# --- 4. Conditions change numbers ----------------------------------------------------------

def _with(combatant: Combatant, *conditions: Condition) -> Combatant:
    return combatant.model_copy(update={"conditions": frozenset(conditions)})


def test_stun_conditions_take_from_every_roll(make_encounter: MakeEncounter) -> None:
    """002 Stunning table: "Dazed -2 on all skills", "Stunned -4 on all skills", "Knockdown
    -6 on all skills". A Dazed attacker: d20 10 + HR 0 − 2 = 8. A Stunned shover: d20 12 + FR
    0 − 4 = 8 vs FD 11 fails (it would succeed unstunned)."""
    enc = make_encounter("A B", {"A": _with(Combatant(name="A"), Condition.DAZED),
                                 "B": LEATHER})
    attack = attack_on_map(enc, "A", "B", AttackOptions(), ScriptedDice([10, 3]))
    assert attack.to_hit.value == 8 and ("Dazed", -2) in [(t.name, t.value)
                                                          for t in attack.to_hit.terms]
    stunned = make_encounter("A B", {"A": _with(Combatant(name="A"), Condition.STUNNED),
                                     "B": LEATHER})
    shove = resolve_shove(stunned, REQUEST, ScriptedDice([12]))
    assert shove.attack.value == 8 and shove.level is SuccessLevel.FAIL


def test_a_knocked_down_defender_saves_at_minus_six(make_encounter: MakeEncounter) -> None:
    """Knockdown −6 on the Pit-Stop save: d20 15 − 6 = 9 < Death Ray 12: it falls in."""
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(2, 0),),
                 effect=HazardEffect(fall_ft=10))
    defender = _with(LEATHER.model_copy(update={"death_ray_save": 12}), Condition.KNOCKDOWN)
    enc = make_encounter("A B . .", {"A": Combatant(name="A", fr_slots=2), "B": defender},
                         hazards=[pit])
    result = resolve_shove(enc, REQUEST, ScriptedDice([12, 6, 15, 3]))
    assert result.hazard is not None and not result.hazard.saved
    assert result.hazard.pit_stop.value == 9


def test_prone_lowers_ac_and_fd_by_five() -> None:
    """RD "Conditions": "Prone ... −5 defence (AC and FD)"."""
    prone, profile = _with(LEATHER, Condition.PRONE), RulesProfile()
    assert armour_class(prone, profile).value == 11 - 5
    assert force_defense(prone, profile).value == 11 - 5
    assert armour_class(prone, profile).terms[-1].name == "Prone"


def test_a_knocked_out_target_is_hit_whatever_the_roll(make_encounter: MakeEncounter) -> None:
    """RD "Conditions": "Knocked out: helpless (attacks against it hit automatically)"."""
    enc = make_encounter("A B", {"B": _with(LEATHER, Condition.KNOCKED_OUT)})
    result = attack_on_map(enc, "A", "B", AttackOptions(damage="d6"), ScriptedDice([1, 6]))
    assert result.hit and result.automatic and result.damage_taken == 1 + (5 - 2)
    assert result.summary().endswith("hits (helpless), 4 damage")


def test_knocked_out_degrades_one_place_each_round(make_encounter: MakeEncounter) -> None:
    """002: "Stunned characters get better by 1 place each round (all KO degrade to
    Knockdown)"; RD: "Knocked out for 1 round lasts the rest of the current round and all of
    the next; the Knockdown stage that follows includes Prone"."""
    enc = make_encounter("A", {"A": _with(Combatant(name="A"), Condition.KNOCKED_OUT)})
    seen = []
    for _ in range(6):
        NextRound().apply(enc)
        seen.append(set(enc.token("A").combatant.conditions))
    assert seen == [{Condition.KNOCKED_OUT}, {Condition.KNOCKDOWN, Condition.PRONE},
                    {Condition.STUNNED, Condition.PRONE}, {Condition.DAZED, Condition.PRONE},
                    {Condition.PRONE}, {Condition.PRONE}]
    assert rounds_of(Condition.KNOCKED_OUT, RulesProfile(), catastrophic=True) == 31


def test_a_prone_creature_spends_its_next_round_getting_up(make_encounter: MakeEncounter
                                                           ) -> None:
    """RD "Conditions": Prone: "the creature spends its next action getting up (no attack
    that round); then Prone ends"."""
    enc = make_encounter("A", {"A": _with(Combatant(name="A"), Condition.PRONE)})
    enc.timeline = roll_initiative(enc, ScriptedDice([4]))
    entry = enc.timeline.entry("A")
    assert entry.getting_up and entry.no_action == "gets up this round (no attack)"
    NextRound().apply(enc)
    assert not enc.token("A").combatant.has(Condition.PRONE)


def test_a_timer_for_a_lifted_condition_is_dropped(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("A")
    enc.timeline.timers = [ConditionTimer(token_id="A", condition=Condition.STUNNED, rounds=1)]
    NextRound().apply(enc)
    assert enc.timeline.timers == [] and enc.token("A").combatant.conditions == frozenset()


# --- 5. Surprise attacks take segments -----------------------------------------------------

def test_free_attacks_past_segment_ten_are_lost(make_encounter: MakeEncounter) -> None:
    """002 Surprise: "ambushers gain an iniative of 1 plus distance moved. Each attack
    requires 1 segment and any that are move into the next round are lost". Moving 40 ft is
    8 segments: initiative 9. A Spot save of 1 − 4 vs 12 fails by 15: Catastrophic, five
    attacks — on segments 9 and 10; the other three are lost."""
    enc = make_encounter("A")
    history = History(enc)
    outcome = perform(SurpriseAction("Totally unexpected", 0, moved_ft=40), history,
                      ScriptedDice([1]))
    (save,) = outcome.result
    assert save.failure_level == "Catastrophic"
    assert [(a.segment, a.lost) for a in save.free_attacks] == [
        (9, False), (10, False), (11, True), (12, True), (13, True)]
    assert "2 free attack(s)" in enc.log[-1].text and "#3 lost (segment 11" in enc.log[-1].text


# --- 6. Critical events --------------------------------------------------------------------

def test_battlefield_damage_names_no_one(make_encounter: MakeEncounter) -> None:
    """002's table gives rows 8 and 9 no "Affects" column: no side is rolled, no one named."""
    enc = make_encounter("A X", {"X": Combatant(name="X", side=Side.OPPOSITION)})
    assert critical_event(8).affects == "" and critical_event(10).affects == "Local area"
    result = resolve_critical(enc, ("A", "X"), ScriptedDice([9]))
    assert result.side is None and result.note == "Something broken, table / chair — A and X"


# --- 7. Mastery and the size penalty -------------------------------------------------------

def test_mastery_takes_a_category_or_a_point_off_the_size_penalty() -> None:
    """000: "For every size category a target is larger than the attacker apply a -4
    penalty to FR rolls ... This penalty is reduced by Mastery rank as described in the
    Wrestling and Shove sections" (sections the seed lacks). Two categories larger,
    Mastery 1: one category off → −4; the profile's alternative, one point → −7."""
    assert size_penalty(2, 1, RulesProfile()) == -4
    assert size_penalty(2, 1, RulesProfile(mastery_reduction=MasteryReduction.POINT)) == -7
    assert size_penalty(1, 3, RulesProfile()) == 0
