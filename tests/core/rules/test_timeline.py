"""The round timeline (core.rules.timeline), critical events and round commands."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.actions.commands import Command, CommandRefusedError
from core.actions.history import History
from core.actions.round import (
    AdvanceSegment,
    NextRound,
    RecordMovement,
    SetSegmentOverride,
    StartRound,
)
from core.io.fileio import encounter_from_json, encounter_to_json
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, Hazard, HazardKind
from core.model.profile import RulesProfile
from core.model.round import ConditionTimer, InitiativeEntry, RoundState
from core.rules import timeline
from core.rules.critical import (
    CRITICAL_EVENTS,
    AffectedSide,
    critical_event,
    resolve_critical,
    roll_critical_events,
)
from core.rules.timeline import (
    acting_order,
    attack_segment,
    clamp_segment,
    entry_timing,
    initiative_log,
    roll_initiative,
    spoiled_by_hit,
    timer_for,
)

Make = Callable[..., Encounter]
PROFILE = RulesProfile()


def foe(name: str, **kw: object) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, **kw)


# --- initiative ---------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "segment"), [(-3, 0), (0, 0), (1, 1), (10, 10), (11, 11),
                                                (14, 11)])
def test_clamp(value: int, segment: int) -> None:
    """002: "Anything lower than 1 counts as zero, anything higher than 10 counts as 11"."""
    assert clamp_segment(value, PROFILE) == segment


def test_initiative_clamps_low_and_high(make_encounter: Make) -> None:
    quick = Combatant(name="A", abilities=Abilities(dexterity=18))          # DEX +3
    slow = Combatant(name="B", abilities=Abilities(dexterity=3), initiative_modifier=1)
    enc = make_encounter("A . B", {"A": quick, "B": slow})
    state = roll_initiative(enc, ScriptedDice([2, 10]))
    a, b = state.entry("A"), state.entry("B")
    assert (a.terms.value, a.segment) == (-1, 0)
    assert (b.terms.value, b.segment) == (14, 11)
    assert b.terms.describe() == "d10 10 + DEX +3 + Personal +1 = 14"
    assert a.roll is not None and a.roll.total == 2


def test_opposition_rolls_once_and_adds_own_modifier(make_encounter: Make) -> None:
    enc = make_encounter("A . X . Y", {"X": foe("X"), "Y": foe("Y", initiative_modifier=2)})
    dice = ScriptedDice([4, 6])
    state = roll_initiative(enc, dice)
    assert len(dice.rolls) == 2 and dice.rolls[1].purpose == "initiative: opposition"
    assert state.opposition_roll is not None and state.opposition_roll.total == 6
    assert state.entry("X").roll is None and state.entry("Y").roll is None
    assert (state.entry("X").segment, state.entry("Y").segment) == (6, 8)
    assert state.entry("A").segment == 4 and state.round_number == 1


def test_ties_broken_by_reach_equal_reach_simultaneous(make_encounter: Make) -> None:
    spear = Combatant(name="A", reach_ft=10)
    enc = make_encounter("A B C . X", {"A": spear, "X": foe("X")})
    state = roll_initiative(enc, ScriptedDice([5, 5, 5, 3]))
    assert acting_order(state, enc) == [(3, [["X"]]), (5, [["A"], ["B", "C"]])]


def test_the_order_reads_the_reach_of_the_rounds_combatants_only(
        make_encounter: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokens added after the roll are not in the round, and their reach is not asked for
    (the timeline is redrawn on every edit; a big map has 3,000 tokens)."""
    enc = make_encounter("A B . X", {"X": foe("X")})
    state = roll_initiative(enc, ScriptedDice([5, 5, 3]))
    enc.add_token(Token(id="late", combatant=Combatant(name="Late"), x=2, y=0))
    asked: list[str] = []
    reach = timeline.melee_reach
    monkeypatch.setattr(timeline, "melee_reach", lambda encounter, combatant: asked.append(
        combatant.name) or reach(encounter, combatant))
    assert acting_order(state, enc) == [(3, [["X"]]), (5, [["A", "B"]])]
    assert sorted(asked) == ["A", "B", "X"]


# --- movement, scarper, aiming, spoiling --------------------------------------------------

def test_seed_worked_example_movement_timing() -> None:
    """Moving 20 ft takes 4 segments: rolls 6 → attacks on 10; rolls 7 → no attack."""
    on_time = attack_segment(6, 20, PROFILE)
    assert (on_time.segment, on_time.attacks) == (10, True)
    late = attack_segment(7, 20, PROFILE)
    assert (late.segment, late.attacks) == (11, False)
    assert late.reason == "moves 20 ft (4 segments) from initiative 7: segment 11 is past 10"
    assert attack_segment(7, 30, PROFILE).reason.endswith("(6 segments) from initiative 7: "
                                                          "segment 13 is past 10")
    assert attack_segment(3, 7, PROFILE).segment == 5        # a part segment counts whole


def test_scarper_sets_initiative_one_and_defence(make_encounter: Make) -> None:
    runner = Combatant(name="A", conditions=frozenset({Condition.SCARPERING}))
    enc = make_encounter("A", {"A": runner})
    entry = roll_initiative(enc, ScriptedDice([9])).entry("A")
    assert (entry.segment, entry.scarpering, entry.defence_bonus) == (1, True, 2)
    assert entry.terms.value == 9                     # the roll is kept, the segment replaced


def test_aiming_skips_a_round_then_plus_three(make_encounter: Make) -> None:
    aimer = Combatant(name="A", conditions=frozenset({Condition.AIMING}))
    enc = make_encounter("A . B", {"A": aimer})
    StartRound(roll_initiative(enc, ScriptedDice([5, 5]))).apply(enc)
    assert enc.timeline.entry("A").aiming and enc.timeline.entry("A").attack_bonus == 0
    NextRound().apply(enc)
    assert enc.timeline.aimed_last_round == ["A"]
    enc.put_token(enc.token("A").with_combatant(aimer.model_copy(
        update={"conditions": frozenset()})))
    second = roll_initiative(enc, ScriptedDice([5, 5]))
    assert second.round_number == 2
    assert second.entry("A").attack_bonus == 3 and not second.entry("A").aiming
    assert second.entry("B").attack_bonus == 0


def test_spoiling_multi_segment_action() -> None:
    spell = InitiativeEntry(token_id="w", segment=4, action_segments=3)
    assert [spoiled_by_hit(spell, s) for s in (3, 4, 6, 7)] == [False, True, True, False]
    swing = InitiativeEntry(token_id="f", segment=4)
    assert [spoiled_by_hit(swing, s) for s in (3, 4, 5)] == [False, True, False]


# --- timers --------------------------------------------------------------------------------

def test_default_durations() -> None:
    """RD "Conditions": "Knocked out for 1 round lasts the rest of the current round and all
    of the next"; the other stun stages step down at each round's end; Prone has no timer."""
    assert timer_for("a", Condition.DAZED, PROFILE) == ConditionTimer(
        token_id="a", condition=Condition.DAZED, rounds=1)
    assert timer_for("a", Condition.KNOCKED_OUT, PROFILE) == ConditionTimer(
        token_id="a", condition=Condition.KNOCKED_OUT, rounds=2)
    assert timer_for("a", Condition.KNOCKED_OUT, PROFILE, 3) is not None
    assert timer_for("a", Condition.PRONE, PROFILE) is None


def test_next_round_steps_a_stun_down_the_chain_and_keeps_prone(make_encounter: Make) -> None:
    """002 Stunning: "Stunned characters get better by 1 place each round"."""
    dazed = Combatant(name="A", conditions=frozenset({Condition.DAZED, Condition.PRONE}))
    enc = make_encounter("A", {"A": dazed})
    timer = timer_for("A", Condition.DAZED, PROFILE)
    assert timer is not None
    enc.timeline.timers = [timer]
    NextRound().apply(enc)
    assert enc.token("A").combatant.conditions == {Condition.PRONE}
    assert enc.timeline.timers == [] and enc.timeline.round_number == 1


# --- critical events -------------------------------------------------------------------------

def test_table_has_thirty_rows() -> None:
    assert [e.number for e in CRITICAL_EVENTS] == list(range(1, 31))
    assert critical_event(9).name == "Battlefield damage"
    assert critical_event(15).description == "Spend next round getting up (-5 Def)"
    with pytest.raises(ValueError):
        critical_event(31)


def test_tie_rolls_switch_positions(make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . .
        . A X .
        . . . .
    """, {"X": foe("X")})
    dice = ScriptedDice([4, 4, 12])                       # A 4, opposition 4, d30 12
    state = roll_initiative(enc, dice)
    results = roll_critical_events(enc, state, dice)
    assert [r.event.number for r in results] == [12] and results[0].pair == ("A", "X")
    assert results[0].moves == {"A": Cell(2, 1), "X": Cell(1, 1)}
    assert results[0].side is None                        # a pair event: no side roll


def test_no_tie_no_critical_roll(make_encounter: Make) -> None:
    enc = make_encounter("A X", {"X": foe("X")})
    dice = ScriptedDice([4, 5])
    assert roll_critical_events(enc, roll_initiative(enc, dice), dice) == []


@pytest.mark.parametrize("down", [{"hp": 0}, {"conditions": frozenset({Condition.ASLEEP})}])
def test_who_cannot_act_never_ties(make_encounter: Make, down: dict[str, object]) -> None:
    """A GM's walk-through: a kobold at 0 HP tied Mira and gave a critical event."""
    enc = make_encounter("A X", {"X": foe("X").model_copy(update=down)})
    dice = ScriptedDice([4, 4])                           # A 4, opposition 4: no d30 asked
    state = roll_initiative(enc, dice)
    assert state.entry("X").no_action and roll_critical_events(enc, state, dice) == []


def test_retreat_moves_a_party_ten_feet_as_far_as_legal(make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . . . .
        A B . X Y .
        . . . . . .
    """, {"X": foe("X"), "Y": foe("Y")})
    result = resolve_critical(enc, ("A", "X"), ScriptedDice([19, 2]))   # opposition retreats
    assert result.side is AffectedSide.OPPOSITION
    assert result.moves == {"Y": Cell(5, 1), "X": Cell(4, 1)}
    assert result.note == "the opposition retreats 10 ft"


def test_retreat_of_both_sides_moves_each_away_from_the_other(make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . . . . .
        . . A X . . .
        . . . . . . .
    """, {"X": foe("X")})
    result = resolve_critical(enc, ("A", "X"), ScriptedDice([19, 3]))   # d3 3: both
    assert result.moves == {"A": Cell(0, 1), "X": Cell(5, 1)}


def test_battlefield_shift_and_knock_down(make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . . .
        . A X . .
        . . . . .
        . . . . .
    """, {"X": foe("X")})
    shift = resolve_critical(enc, ("A", "X"), ScriptedDice([10, 5, 2]))   # S, 10 ft
    assert shift.moves == {"A": Cell(1, 3), "X": Cell(2, 3)}
    knock = resolve_critical(enc, ("A", "X"), ScriptedDice([15, 1]))
    assert knock.knocked_down == ("A",)
    assert "getting up (-5 Def)" in knock.note
    both = resolve_critical(enc, ("A", "X"), ScriptedDice([15, 3]))
    assert both.knocked_down == ("A", "X")
    note = resolve_critical(enc, ("A", "X"), ScriptedDice([30]))
    assert note.note.startswith("Nothing happens")


def test_battlefield_shift_stops_at_a_wall(make_encounter: Make) -> None:
    enc = make_encounter("""
        . A X .
        . . . .
        . . . .
    """, {"X": foe("X")}, walls=[(0, 1, 2, 1)])
    shift = resolve_critical(enc, ("A", "X"), ScriptedDice([10, 5, 2]))   # S, 10 ft
    assert shift.moves == {"X": Cell(2, 2)}
    assert "A cannot move that way" in shift.note


def test_a_retreat_stops_before_a_hazard_and_says_so(make_encounter: Make) -> None:
    """A GM's walk-through: the party's retreat walked Pip through the brazier's fire
    unharmed. A critical event's walk never enters a hazard (as a swap; only forced
    movement does, with the Pit-Stop save)."""
    fire = Hazard(name="Brazier fire", kind=HazardKind.FIRE, cells=(Cell(1, 1),))
    enc = make_encounter("""
        . . . . . .
        . . A . X .
        B . . . . .
    """, {"X": foe("X")}, hazards=[fire])
    result = resolve_critical(enc, ("A", "X"), ScriptedDice([19, 1]))   # the party retreats
    assert result.moves == {}                             # B: the map's edge
    assert result.note == ("the party retreats 10 ft (B cannot move that way; "
                           "A stops before Brazier fire)")


def test_a_battlefield_shift_stops_before_a_hazard_but_moves_within_one(
        make_encounter: Make) -> None:
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(1, 2), Cell(2, 2), Cell(2, 3)))
    enc = make_encounter("""
        . A X .
        . . . .
        . . . .
        . . . .
    """, {"X": foe("X")}, hazards=[pit])
    into = resolve_critical(enc, ("A", "X"), ScriptedDice([10, 5, 2]))    # S, 10 ft
    assert into.moves == {"A": Cell(1, 1), "X": Cell(2, 1)}
    assert into.note == "battlefield shifts 10 ft S (A and X stop before Pit)"
    inside = make_encounter("""
        . A . .
        . . . .
        . . X .
        . . . .
    """, {"X": foe("X")}, hazards=[pit])
    within = resolve_critical(inside, ("A", "X"), ScriptedDice([10, 5, 1]))  # S, 5 ft
    assert within.moves == {"A": Cell(1, 1), "X": Cell(2, 3)}           # X is in the pit


def test_switch_positions_is_skipped_when_a_wall_is_between(make_encounter: Make) -> None:
    """rules-decisions "Critical events": "Spatial events obey walls and footprints like any
    move (a swap that cannot fit is reported and skipped)"."""
    enc = make_encounter("""
        O O M .
        O O . .
        . . . .
    """, {"O": foe("O", size="large"), "M": Combatant(name="M")}, walls=[(2, 0, 2, 1)])
    result = resolve_critical(enc, ("M", "O"), ScriptedDice([12]))
    assert result.moves == {} and "cannot switch positions" in result.note


def test_switch_positions_of_a_large_and_a_medium_centres_each_on_the_other(
        make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . . .
        . O O M .
        . O O . .
        . . . . .
    """, {"O": foe("O", size="large"), "M": Combatant(name="M")})
    result = resolve_critical(enc, ("M", "O"), ScriptedDice([12]))
    # O's centre (2, 2) and M's (3.5, 1.5): each takes the place nearest the other's
    # centre, going on along its way where two are as near.
    assert result.moves == {"M": Cell(1, 2), "O": Cell(3, 0)}


def test_two_events_in_one_round_see_each_others_moves(make_encounter: Make) -> None:
    enc = make_encounter("""
        . . . . . . . . . .
        A X . B Y . . . . .
        . . . . . . . . . .
    """, {"X": foe("X"), "Y": foe("Y")})
    dice = ScriptedDice([3, 3, 3, 19, 2, 19, 2])   # A, B, opposition all 3; two retreats
    results = roll_critical_events(enc, roll_initiative(enc, dice), dice)
    # X is hemmed in by A both times; Y retreats 10 ft, then 10 ft more from there.
    assert results[0].moves == {"Y": Cell(6, 1)}
    assert results[1].moves == {"Y": Cell(8, 1)}


# --- state and commands --------------------------------------------------------------------

def test_round_state_json_round_trip(make_encounter: Make) -> None:
    enc = make_encounter("A X", {"X": foe("X")})
    StartRound(roll_initiative(enc, ScriptedDice([3, 7]))).apply(enc)
    enc.timeline.timers = [ConditionTimer(token_id="A", condition=Condition.STUNNED, rounds=1)]
    loaded = encounter_from_json(encounter_to_json(enc))
    assert loaded.timeline == enc.timeline
    assert RoundState.model_validate_json(enc.timeline.model_dump_json()) == enc.timeline
    old_file = '{"schema": "battlemap.encounter", "version": 1, "name": "old"}'
    assert encounter_from_json(old_file).timeline == RoundState()


def _commands(enc: Encounter) -> list[Command]:
    return [StartRound(roll_initiative(enc, ScriptedDice([3, 7]))), AdvanceSegment(),
            SetSegmentOverride("A", 9), NextRound()]


def test_every_command_reverts_exactly(make_encounter: Make) -> None:
    stunned = Combatant(name="A", conditions=frozenset({Condition.STUNNED}))
    enc = make_encounter("A X", {"A": stunned, "X": foe("X")})
    enc.timeline.timers = [ConditionTimer(token_id="A", condition=Condition.STUNNED, rounds=1)]
    for command in _commands(enc):
        before = enc.model_dump()
        command.apply(enc)
        assert enc.model_dump() != before
        command.revert(enc)
        assert enc.model_dump() == before
        command.apply(enc)
    assert enc.timeline.round_number == 2
    assert not enc.token("A").combatant.has(Condition.STUNNED)


def test_the_round_end_logs_each_change_of_conditions(make_encounter: Make) -> None:
    """A GM's walk-through: Next round turned the Orc Warrior from stunned to dazed and the
    combat log said nothing; undoing the round takes the line out again."""
    stunned = Combatant(name="A", conditions=frozenset({Condition.STUNNED}))
    enc = make_encounter("A X", {"A": stunned, "X": foe("X")})
    StartRound(roll_initiative(enc, ScriptedDice([3, 7]))).apply(enc)
    enc.timeline.timers = [ConditionTimer(token_id="A", condition=Condition.STUNNED, rounds=1)]
    logged = len(enc.log)
    ending = NextRound()
    changes = ending.apply(enc)
    after = sorted(c.value.replace("_", " ") for c in enc.token("A").combatant.conditions)
    assert changes.log and [e.summary for e in enc.log[logged:]] == [
        f"A loses stunned and gains {' and gains '.join(after)} (end of round 1)"]
    assert enc.log[-1].round == 1
    ending.revert(enc)
    assert len(enc.log) == logged


def test_initiative_log_gives_the_order(make_encounter: Make) -> None:
    enc = make_encounter("A B X", {"X": foe("X")})
    entry = initiative_log(roll_initiative(enc, ScriptedDice([5, 2, 5])), enc)
    assert entry.summary == "Round 1 initiative" and entry.round == 1
    assert entry.text.splitlines()[:2] == ["segment 2: B", "segment 5: A + X"]


def test_override_rejects_segments_outside_the_round(make_encounter: Make) -> None:
    enc = make_encounter("A")
    StartRound(roll_initiative(enc, ScriptedDice([3]))).apply(enc)
    with pytest.raises(ValueError, match="outside the round"):
        SetSegmentOverride("A", 12).apply(enc)


def test_record_movement_counts_towards_the_attack_segment() -> None:
    encounter = Encounter(map=BattleMap(width=5, height=5), tokens=[
        Token(id="a", combatant=Combatant(name="A"), x=0, y=0)])
    encounter.timeline.entries = [InitiativeEntry(token_id="a", segment=6)]
    before = encounter.model_dump()
    command = RecordMovement("a", 20)
    assert command.apply(encounter).timeline
    timing = entry_timing(encounter.timeline.entry("a"), encounter.token("a").combatant,
                          encounter.profile)
    assert (timing.segment, timing.attacks) == (10, True)
    RecordMovement("a", 5).apply(encounter)
    assert not entry_timing(encounter.timeline.entry("a"), encounter.token("a").combatant,
                            encounter.profile).attacks
    command.revert(encounter)  # the snapshot taken before the first record
    assert encounter.model_dump() == before


def test_a_condition_ticked_on_without_a_timer_steps_down_with_the_round() -> None:
    dazed = Combatant(name="A", conditions=frozenset({Condition.STUNNED, Condition.PRONE}))
    encounter = Encounter(map=BattleMap(width=3, height=3),
                          tokens=[Token(id="a", combatant=dazed, x=0, y=0)])
    NextRound().apply(encounter)
    assert encounter.token("a").combatant.conditions == {Condition.DAZED, Condition.PRONE}
    NextRound().apply(encounter)
    assert encounter.token("a").combatant.conditions == {Condition.PRONE}


def test_the_last_segment_has_no_next_one() -> None:
    """Next segment at segment 11 used to do nothing yet add an empty undo step."""
    encounter = Encounter(tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)],
                          timeline=RoundState(round_number=1, current_segment=11,
                                              entries=[InitiativeEntry(token_id="a")]))
    history = History(encounter)
    with pytest.raises(CommandRefusedError, match="segment 11 is the round's last"):
        history.push(AdvanceSegment())
    assert history.labels() == [] and encounter.timeline.current_segment == 11


@pytest.mark.parametrize(("hp", "condition", "idle"), [
    (0, None, True), (8, Condition.KNOCKED_OUT, True),
    (8, Condition.ASLEEP, True), (8, Condition.WAKING, True),
    (8, Condition.RISING, False), (8, Condition.DEFENDING, False),
    (8, Condition.SURRENDERED, False)])
def test_a_chip_tells_no_action_at_all_from_no_attack(hp: int, condition: Condition | None,
                                                      idle: bool) -> None:
    """rules.md §11 "No action": every one of these strikes no blow; only the down, the
    knocked out, the sleeping and the waking do nothing at all (the timeline's "(no
    action)"; the rest "(no attack)"). Knockdown is not here: it is −6 on rolls (002)."""
    conditions = frozenset({condition} if condition else ())
    combatant = Combatant(name="A", hp=hp, max_hp=8, conditions=conditions)
    timing = entry_timing(InitiativeEntry(token_id="a", segment=3), combatant, PROFILE)
    assert not timing.attacks and timing.reason
    assert timing.idle is idle


# --- who would lose their turn; joining a round late ------------------------------------

def test_still_to_act_lists_who_strikes_later_or_is_mid_spell(make_encounter: Make) -> None:
    """Ending the round at segment 4: X (segment 6) and Y (segment 8) have not struck, A's
    prayer (declared for segments 3-5) is not over; B struck at 2, and Z is asleep (002
    "Sleep": no action) so loses nothing."""
    sleepy = foe("Z", conditions=frozenset({Condition.ASLEEP}))
    enc = make_encounter("A B X Y Z", {"X": foe("X"), "Y": foe("Y", initiative_modifier=2),
                                       "Z": sleepy})
    state = roll_initiative(enc, ScriptedDice([3, 2, 6]))
    prayer = state.entry("A").model_copy(update={"action_segments": 3})
    state = state.model_copy(update={"current_segment": 4, "entries": [
        prayer, *(e for e in state.entries if e.token_id != "A")]})
    waiting = timeline.still_to_act(state, enc)
    assert [w.describe() for w in waiting] == [
        "A (long action, segments 3-5)", "X (segment 6)", "Y (segment 8)"]
    assert [w.casting for w in waiting] == [True, False, False]
    last = state.model_copy(update={"current_segment": 11})
    assert timeline.still_to_act(last, enc) == []


def test_newcomers_join_the_round_as_its_roll_would_have_placed_them(
        make_encounter: Make) -> None:
    """002 "Initiative": a party character rolls its own die; the opposition's newcomer
    takes the round's one opposition roll (6), plus its own modifier (+2)."""
    enc = make_encounter("A . X .", {"X": foe("X")})
    enc.timeline = roll_initiative(enc, ScriptedDice([4, 6]))
    enc.add_token(Token(id="late", combatant=Combatant(name="Late"), x=1, y=0))
    enc.add_token(Token(id="imp", combatant=foe("Imp", initiative_modifier=2), x=3, y=0))
    assert [t.id for t in timeline.newcomers(enc)] == ["late", "imp"]
    dice = ScriptedDice([9])
    state = timeline.join_round(enc, dice)
    assert [r.purpose for r in dice.rolls] == ["initiative: Late"]  # no second opposition die
    assert (state.entry("late").segment, state.entry("imp").segment) == (9, 8)
    assert state.entry("imp").roll is None and state.opposition_roll == enc.timeline.opposition_roll
    enc.timeline = state
    assert timeline.newcomers(enc) == []
    with pytest.raises(timeline.LateJoinError, match="in the round already"):
        timeline.join_round(enc, ScriptedDice([]))


def test_an_opposition_newcomer_in_a_round_without_foes_rolls_the_opposition_die(
        make_encounter: Make) -> None:
    enc = make_encounter("A .")
    enc.timeline = roll_initiative(enc, ScriptedDice([4]))
    assert enc.timeline.opposition_roll is None
    enc.add_token(Token(id="imp", combatant=foe("Imp"), x=1, y=0))
    state = timeline.join_round(enc, ScriptedDice([7]))
    assert state.opposition_roll is not None and state.opposition_roll.total == 7
    assert state.entry("imp").segment == 7
    with pytest.raises(timeline.LateJoinError, match="no round under way"):
        timeline.join_round(make_encounter("A"), ScriptedDice([]))


def test_joining_the_round_is_one_undoable_step_with_its_log_line(make_encounter: Make
                                                                  ) -> None:
    from core.actions.base import perform
    from core.actions.initiative import JoinRoundAction

    enc = make_encounter("A .")
    enc.timeline = roll_initiative(enc, ScriptedDice([4]))
    enc.add_token(Token(id="late", combatant=Combatant(name="Late"), x=1, y=0))
    history = History(enc)
    outcome = perform(JoinRoundAction(), history, ScriptedDice([2]))
    assert outcome.summary == "Round 1: initiative for Late"
    assert history.encounter.timeline.entry("late").segment == 2
    assert "Late: d10 2" in history.encounter.log[-1].text
    history.undo()
    assert [e.token_id for e in history.encounter.timeline.entries] == ["A"]
