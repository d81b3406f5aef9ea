"""Known answers for 002's injury options (issue 14), one test per table row used: the hit
location rows, the aimed-location modifiers (melee and missile columns), head hits by bludgeons
calling the stun check, the highest die of each set, wound points, the critical roll, the fumble
save and its critical event, the three hero point uses, and the grips."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform, plan
from core.actions.charge import ChargeAction
from core.actions.commands import CommandRefusedError
from core.actions.history import History
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.injury import DEFAULT_HIT_LOCATIONS, HeroUse, HitLocation
from core.model.profile import RulesProfile
from core.model.weapons import Grip
from core.rules.attack import AttackOptions, DamageKind, attack_on_map, resolve_attack
from core.rules.charge import ChargeRequest
from core.rules.damage import maximum_damage, roll_damage, set_highs, wound_points
from core.rules.injury import IllegalInjuryError, Natural
from core.rules.manoeuvre_report import format_charge
from desktop.cli.main import main

Make = Callable[..., Encounter]
ON = RulesProfile(hit_location=True, head_hits_stun=True, wounds=True, critical_roll=True,
                  fumble=True, hero_points=True, highest_die_damage=False)
# HR 3 (2 slots + STR 13); level 5; no shield.
ANN = Combatant(name="Ann", abilities=Abilities(strength=13), hr_slots=2, level=5,
                hero_points=2, weapons=("Long sword", "Mace", "Halberd", "Short sword"))
# AC 11, chain mail: AV 4, AV 2 vs missiles; CON 10.
ORC = Combatant(name="Orc", side=Side.OPPOSITION, armour="chain_mail", max_hp=40, hp=40)


def duel(make: Make, profile: RulesProfile = ON, ann: Combatant = ANN) -> Encounter:
    return make("AO", {"A": ann, "O": ORC}, profile=profile)


def hit(make: Make, dice: list[int], profile: RulesProfile = ON, ann: Combatant = ANN,
        **options: object):
    return attack_on_map(duel(make, profile, ann), "A", "O",
                         AttackOptions.model_validate(options), ScriptedDice(dice))


# --- 002 "Hit Location": Head 10, Shoulder & upper arms 9, Upper torso 7-8, Lower Torso 4-6,
# Thighs 2-3, Lower arms / Shins 1 -----------------------------------------------------------
@pytest.mark.parametrize(("face", "row"), [
    (1, "Lower arms / Shins"), (2, "Thighs"), (3, "Thighs"), (4, "Lower torso"),
    (5, "Lower torso"), (6, "Lower torso"), (7, "Upper torso"), (8, "Upper torso"),
    (9, "Shoulder & upper arms"), (10, "Head")])
def test_each_face_of_the_location_die_lands_on_its_row(make_encounter: Make, face: int,
                                                        row: str) -> None:
    result = hit(make_encounter, [15, face, 5], weapon="Long sword")  # edge: no stun check
    assert result.location is not None and result.location.name == row
    assert result.location.critical is (row == "Head")
    assert result.location.roll is not None and result.location.roll.total == face


def test_no_location_is_rolled_while_the_option_is_off(make_encounter: Make) -> None:
    result = hit(make_encounter, [15, 5], RulesProfile(), weapon="Long sword")
    assert result.location is None and result.damage_roll is not None
    assert result.damage_roll.total == 5


# --- 002 "Hitting specific locations": melee / missile modifiers ------------------------------
AIMS = [("Head", -10, -15), ("Shoulder & upper arms", -3, -10), ("Upper torso", -4, -8),
        ("Lower torso", -3, -6), ("Thighs", -2, -8), ("Lower arms / Shins", -4, -10)]


@pytest.mark.parametrize(("row", "melee", "missile"), AIMS)
def test_aiming_at_a_location_takes_its_modifier_and_the_hit_lands_there(
        make_encounter: Make, row: str, melee: int, missile: int) -> None:
    result = hit(make_encounter, [19, 5], weapon="Long sword", aim=row.upper())
    assert [t.value for t in result.to_hit.terms if t.name.startswith("Aimed")] == [melee]
    assert result.location is not None and result.location.aimed
    assert result.location.name == row  # no location die: the next die was the damage
    assert result.damage_roll is not None and result.damage_roll.total == 5
    table = {r.name: r for r in DEFAULT_HIT_LOCATIONS}
    assert (table[row].melee_aim, table[row].missile_aim) == (melee, missile)


def test_a_missile_takes_the_missile_column(make_encounter: Make) -> None:
    options = AttackOptions(aim="Thighs", kind=DamageKind(missile=True))
    result = resolve_attack(ANN, ORC, options, ON, ScriptedDice([20, 3]))
    assert [t.value for t in result.to_hit.terms if t.name.startswith("Aimed")] == [-8]


def test_aiming_needs_the_hit_location_option_and_a_row_of_the_table(make_encounter: Make
                                                                     ) -> None:
    with pytest.raises(IllegalInjuryError, match="needs the hit location roll"):
        hit(make_encounter, [15], RulesProfile(), aim="Head")
    with pytest.raises(ValueError, match="no hit location 'Tail'; choose one of"):
        hit(make_encounter, [15], aim="Tail")


def test_the_profile_refuses_a_table_that_misses_a_face() -> None:
    rows = (*DEFAULT_HIT_LOCATIONS[:-1], HitLocation(name="Head", low=10, high=11))
    with pytest.raises(ValueError, match="must cover 1-10 of the d10"):
        RulesProfile(hit_locations=rows)


# --- 002 "Stunning": bludgeon strikes to the head ---------------------------------------------
def test_a_mace_to_the_head_calls_the_stun_check_with_level_condition_and_duration(
        make_encounter: Make) -> None:
    # d20 15 hits; location 10: head; mace d6 = 6 + STR 1 = 7 -> 1 + (6 - 4) = 3 after AV;
    # stun check d20 2 + CON 0 vs 10 + 3: failed by 11, Appalling: knocked out.
    result = hit(make_encounter, [15, 10, 6, 2], weapon="Mace")
    stun = result.stun
    assert stun is not None and result.damage_taken == 3
    assert (stun.target.value, stun.total.value, stun.level) == (13, 2, "Appalling")
    assert stun.conditions == {Condition.KNOCKED_OUT}
    assert stun.effect.rounds == ((Condition.KNOCKED_OUT, 2),)
    assert "fails by 11 (Appalling): knocked out for the rest of this round and 1 more" in \
        stun.describe()


def test_the_stun_conditions_and_their_timers_are_applied_in_the_attack_step(
        make_encounter: Make) -> None:
    history = History(duel(make_encounter))
    action = AttackAction("A", "O", AttackOptions(weapon="Mace"))
    perform(action, history, ScriptedDice([15, 10, 6, 5]))  # stun check fails by 8: Dreadful
    orc = history.encounter.token("O").combatant
    assert orc.conditions == {Condition.KNOCKDOWN, Condition.PRONE}
    assert [(t.condition, t.rounds) for t in history.encounter.timeline.timers] == [
        (Condition.KNOCKDOWN, 1)]
    history.undo()
    assert history.encounter.token("O").combatant == ORC
    assert not history.encounter.timeline.timers


@pytest.mark.parametrize(("weapon", "location", "profile"), [
    ("Long sword", 10, ON),  # an edge does not stun
    ("Mace", 9, ON),  # the shoulder is not the head
    ("Mace", 10, ON.model_copy(update={"head_hits_stun": False}))])
def test_no_stun_check_otherwise(make_encounter: Make, weapon: str, location: int,
                                 profile: RulesProfile) -> None:
    result = hit(make_encounter, [15, location, 4], profile, weapon=weapon)
    assert result.hit and result.stun is None


# --- 002 "Damage": highest die of each set; wound points --------------------------------------
def test_the_highest_die_of_each_set_is_added_then_the_constant() -> None:
    profile = RulesProfile(highest_die_damage=True)
    roll, term = roll_damage("2d12+2d4+1", profile, ScriptedDice([3, 11, 4, 2]), "axe")
    assert set_highs(roll) == [11, 4] and term.value == 16
    assert roll_damage("2d12+2d4+1", RulesProfile(), ScriptedDice([3, 11, 4, 2]),
                       "axe")[1].value == 21
    assert maximum_damage("2d12+2d4+1", profile) == 17
    assert maximum_damage("2d12+2d4+1", RulesProfile()) == 33


@pytest.mark.parametrize(("damage", "wounds"), [(1, 0), (4, 0), (5, 1), (9, 1), (10, 2),
                                                (14, 2), (15, 3), (23, 4)])
def test_every_fifth_point_after_armour_is_a_wound_point(damage: int, wounds: int) -> None:
    assert wound_points(damage, ON) == wounds
    assert wound_points(damage, RulesProfile()) == 0


def test_wound_points_come_off_the_wounds_figure_not_hit_points(make_encounter: Make) -> None:
    history = History(duel(make_encounter))
    # Halberd d10 + d6 (two hands) = 10 + 6 + STR 1 = 17 -> 1 + (16 - 4) = 13 after AV.
    outcome = perform(AttackAction("A", "O", AttackOptions(weapon="Halberd")), history,
                      ScriptedDice([15, 5, 10, 6]))
    assert outcome.result.damage_taken == 13 and outcome.result.wounds == 2
    orc = history.encounter.token("O").combatant
    assert (orc.hp, orc.wounds) == (40 - 11, 2)
    assert "13 damage (2 wound points)" in outcome.summary


# --- 002 "Critical Roll" ----------------------------------------------------------------------
def test_a_natural_20_does_maximum_damage_without_a_damage_roll(make_encounter: Make) -> None:
    result = hit(make_encounter, [20, 5], weapon="Long sword")  # location 5: lower torso
    assert result.critical and result.natural is Natural.CRITICAL
    assert result.damage_roll is None and result.raw_damage is not None
    assert result.raw_damage.value == 8 + 1  # d8 at 8, STR +1


def test_a_critical_roll_on_the_head_doubles_the_maximum(make_encounter: Make) -> None:
    result = hit(make_encounter, [20], weapon="Long sword", aim="Head")
    assert result.raw_damage is not None and result.raw_damage.value == 2 * (8 + 1)
    assert result.outcome().startswith("hits the head (critical roll: maximum damage, "
                                       "multiplied on a critical location), ")


def test_the_summary_says_the_roll_was_critical_not_the_place(make_encounter: Make) -> None:
    """"hits the torso (critical)" read like a critical location."""
    profile = ON.model_copy(update={"hit_location": False})
    result = hit(make_encounter, [20, 3], profile, weapon="Long sword")
    assert result.critical
    assert result.outcome().startswith("hits (critical roll: maximum damage), ")


def test_a_natural_20_that_misses_is_no_critical(make_encounter: Make) -> None:
    tough = ORC.model_copy(update={"technique_ac": 10, "shield": "tower"})
    encounter = make_encounter("AO", {"A": ANN, "O": tough}, profile=ON)
    result = attack_on_map(encounter, "A", "O", AttackOptions(), ScriptedDice([20]))
    assert not result.hit and not result.critical


@pytest.mark.parametrize(("dice", "critical"), [([8, 8], True), ([8, 7], False)])
def test_double_8_on_2d8_attack_dice_is_the_critical(make_encounter: Make, dice: list[int],
                                                     critical: bool) -> None:
    profile = ON.model_copy(update={"attack_die": "2d8", "hit_location": False})
    result = hit(make_encounter, [*dice, 3], profile, weapon="Long sword")
    assert result.hit and result.critical is critical
    assert result.to_hit.terms[0].name == "2d8" and result.to_hit.terms[0].value == sum(dice)


def test_the_critical_roll_is_off_by_default(make_encounter: Make) -> None:
    result = hit(make_encounter, [20, 3], RulesProfile(), weapon="Long sword")
    assert not result.critical and result.damage_taken == 1


# --- 002 "Fumble" ------------------------------------------------------------------------------
def test_a_fumble_misses_and_a_save_below_the_level_ends_it(make_encounter: Make) -> None:
    strong = ANN.model_copy(update={"hr_slots": 20})  # 1 + 21 would hit AC 11
    result = hit(make_encounter, [1, 4], ann=strong)
    assert not result.hit and result.fumbled
    assert result.fumble is not None and result.fumble.saved
    assert "save 4 on the 1d10 against level 5 — saved" in result.fumble.describe()


def test_a_failed_fumble_save_rolls_a_critical_event_against_the_fumbler(
        make_encounter: Make) -> None:
    # Save 5 is not below level 5: d30 15 "Knock down" falls on the fumbler, no d3 side.
    history = History(duel(make_encounter))
    outcome = perform(AttackAction("A", "O"), history, ScriptedDice([1, 5, 15]))
    fumble = outcome.result.fumble
    assert fumble is not None and fumble.event is not None
    assert fumble.event.event.number == 15 and fumble.event.knocked_down == ("A",)
    assert [r.expression for r in outcome.rolls] == ["1d20", "1d10", "1d30"]
    assert Condition.PRONE in history.encounter.token("A").combatant.conditions
    assert [e.kind for e in history.encounter.log] == ["attack", "critical"]
    assert history.encounter.log[1].summary.endswith(
        f"— {history.encounter.token('A').name} fumbled, to "
        f"{history.encounter.token('O').name}'s benefit")


def test_a_boon_from_a_fumble_goes_to_the_opponent(make_encounter: Make) -> None:
    result = hit(make_encounter, [1, 9, 17, 3])  # event 17 "Lucky opening": the orc's d6
    assert result.fumble is not None and result.fumble.event is not None
    assert result.fumble.event.note == "+d6 to hit — Orc: +3 on its next attack this round"


def test_without_the_fumble_option_a_natural_1_is_a_plain_total(make_encounter: Make) -> None:
    strong = ANN.model_copy(update={"hr_slots": 20})
    assert hit(make_encounter, [1, 4], RulesProfile(), ann=strong).hit


# --- 002 "Damage": the three uses of a hero point ----------------------------------------------
def test_plus_ten_to_hit(make_encounter: Make) -> None:
    result = hit(make_encounter, [2, 5, 3], hero=HeroUse.PLUS_TEN)
    assert [(t.name, t.value) for t in result.to_hit.terms][-1] == ("Hero point", 10)
    assert result.hit and result.to_hit.value == 2 + 3 + 10


def test_an_automatic_hit_hits_whatever_the_roll_but_not_when_aiming(make_encounter: Make
                                                                     ) -> None:
    result = hit(make_encounter, [1, 5, 3], hero=HeroUse.AUTOMATIC_HIT)
    assert result.hit and not result.fumbled and "hits the lower torso (hero point)" in \
        result.summary()
    with pytest.raises(IllegalInjuryError, match="does not work when aiming"):
        hit(make_encounter, [15], hero=HeroUse.AUTOMATIC_HIT, aim="Head")


def test_double_damage_doubles_before_armour(make_encounter: Make) -> None:
    result = hit(make_encounter, [15, 5, 6], hero=HeroUse.DOUBLE_DAMAGE, weapon="Long sword")
    assert result.raw_damage is not None and result.raw_damage.value == 2 * (6 + 1)
    assert result.damage_taken == 1 + (14 - 1 - 4)


def test_a_hero_point_is_spent_hit_or_miss_and_undo_gives_it_back(make_encounter: Make
                                                                  ) -> None:
    history = History(duel(make_encounter))
    action = AttackAction("A", "O", AttackOptions(hero=HeroUse.PLUS_TEN))
    outcome = perform(action, history, ScriptedDice([1, 3]))  # fumble, saved: a miss
    assert not outcome.result.hit
    assert history.encounter.token("A").combatant.hero_points == 1
    history.undo()
    assert history.encounter.token("A").combatant.hero_points == 2


@pytest.mark.parametrize(("profile", "points", "message"), [
    (RulesProfile(), 2, "hero points are off"), (ON, 0, "Ann has no hero points left")])
def test_a_hero_point_needs_the_option_and_a_point(make_encounter: Make, profile: RulesProfile,
                                                   points: int, message: str) -> None:
    ann = ANN.model_copy(update={"hero_points": points})
    with pytest.raises(IllegalInjuryError, match=message):
        hit(make_encounter, [15], profile, ann, hero=HeroUse.PLUS_TEN)


def test_spending_a_point_already_gone_is_refused_whole(make_encounter: Make) -> None:
    encounter = duel(make_encounter)
    outcome = plan(AttackAction("A", "O", AttackOptions(hero=HeroUse.PLUS_TEN)), encounter,
                   ScriptedDice([2, 5, 3]))
    broke = encounter.token("A").with_combatant(ANN.model_copy(update={"hero_points": 0}))
    encounter.put_token(broke)
    history = History(encounter)
    with pytest.raises(CommandRefusedError, match="no hero points left"):
        history.push(outcome.command)
    assert history.encounter.token("O").combatant == ORC  # nothing of the step was kept


# --- 002 "One or two hands" ---------------------------------------------------------------------
@pytest.mark.parametrize(("weapon", "grip", "to_hit", "dice"), [
    ("Long sword", Grip.ONE, 0, "1d8"), ("Long sword", Grip.ONE_AND_HALF, 1, "1d8+1d3"),
    ("Long sword", Grip.TWO, 1, "1d8+1d3"), ("Halberd", None, 0, "1d10+1d6"),
    ("Halberd", Grip.TWO, 0, "1d10+1d6")])
def test_grips_give_their_to_hit_and_damage_bonus(make_encounter: Make, weapon: str,
                                                  grip: Grip | None, to_hit: int, dice: str
                                                  ) -> None:
    plain = RulesProfile()
    result = hit(make_encounter, [15, 1, 1], plain, weapon=weapon, grip=grip)
    held = [t.value for t in result.to_hit.terms if t.name.startswith("Held in")]
    assert sum(held) == to_hit
    assert result.damage_roll is not None and result.damage_roll.expression == dice


def test_a_grip_the_weapon_does_not_allow_is_refused(make_encounter: Make) -> None:
    with pytest.raises(IllegalInjuryError, match="a Short sword is held with one hand"):
        hit(make_encounter, [15], weapon="Short sword", grip=Grip.TWO)
    with pytest.raises(IllegalInjuryError, match="a Halberd is held with two hands"):
        hit(make_encounter, [15], weapon="Halberd", grip=Grip.ONE)


# --- on the command line ---------------------------------------------------------------------
def test_the_cli_attack_takes_the_weapon_grip_aim_and_hero_point(
        make_encounter: Make, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, after = tmp_path / "duel.json", tmp_path / "after.json"
    save_encounter(duel(make_encounter), path)
    code = main(["resolve", "attack", str(path), "--attacker", "Ann", "--target", "Orc",
                 "--weapon", "Long sword", "--grip", "two", "--aim", "head", "--hero",
                 "plus_ten", "--dice", "12,5,3", "--json", "--apply", "--out", str(after)])
    assert code == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    # 12 + HR 3 + two hands 1 - head 10 + hero 10 = 16; d8 5 + d3 3 + STR 1 = 9 -> 5 (AV 4)
    assert (totals["attack_total"], totals["location"], totals["hero_point"]) == (
        16, "Head", "plus_ten")
    assert (totals["damage"]["total"], totals["wounds"], totals["stun"]) == (5, 1, None)
    saved = load_encounter(after)
    assert saved.token("Ann").combatant.hero_points == 1
    assert (saved.token("Orc").combatant.hp, saved.token("Orc").combatant.wounds) == (36, 1)


def test_the_cli_refuses_an_aim_the_profile_does_not_allow(
        make_encounter: Make, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.json"
    save_encounter(duel(make_encounter, RulesProfile()), path)
    assert main(["resolve", "attack", str(path), "--attacker", "Ann", "--target", "Orc",
                 "--aim", "Head", "--seed", "1"]) != 0
    assert "aiming at a location needs the hit location roll" in capsys.readouterr().err


# --- one stun table for every source ------------------------------------------------------
def test_a_charge_reports_its_stun_table_row_with_the_duration(make_encounter: Make) -> None:
    """A charge's loser takes the difference on the same table (without KO) that head hits and
    throws use through the Endurance save; the report names the level, the conditions and
    how long each lasts."""
    encounter = make_encounter("A O", {"A": ANN, "O": ORC})
    request = ChargeRequest(attacker="A", defender="O", run_ft=15)
    result = ChargeAction(request).resolve(encounter, ScriptedDice([15, 15, 2]))
    assert result.stun is not None and result.stun.level == "Catastrophic"
    assert result.stun.conditions == {Condition.KNOCKDOWN, Condition.PRONE}  # no KO
    assert ("  Stun table (Catastrophic, no KO): knockdown to the end of this round, prone "
            "until it gets up") in format_charge(result).splitlines()


# --- the profile fields ---------------------------------------------------------------------
def test_every_injury_field_round_trips_and_bad_values_are_named() -> None:
    changed = RulesProfile.model_validate({**ON.model_dump(),
        "hit_location_die": "d6", "wound_every_points": 4, "attack_die": "2d8",
        "critical_location_multiplier": 3, "fumble_save_die": "d12", "hero_hit_bonus": 8,
        "hero_damage_multiplier": 3, "grip_hit_bonus": 2, "one_and_half_grip_damage": "d4",
        "popup_spot_target": 11, "stunning_damage_types": ("bludgeon", "edge"),
        "hit_locations": (HitLocation(name="Body", low=1, high=5, melee_aim=-1),
                          HitLocation(name="Head", low=6, high=6, critical=True))})
    assert RulesProfile.model_validate_json(changed.model_dump_json()) == changed != ON
    for field, bad, message in [("attack_die", "d20+1", "one set of like dice"),
                                ("attack_die", "3d1000", "the odds enumerate at most"),
                                ("fumble_save_die", "2d6", "must be one die"),
                                ("stunning_damage_types", ["acid"], "stunning_damage_types"),
                                ("wound_every_points", 0, "wound_every_points")]:
        with pytest.raises(ValueError, match=message):
            RulesProfile.model_validate({field: bad})
