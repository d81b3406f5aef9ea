"""Dice expressions, the die-step chain (000 "The Force Multiplier") and dice sources."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from core.model.dice import (
    DEFAULT_CHAIN,
    EXACT_OUTCOMES,
    DiceError,
    DiceExhaustedError,
    DiceExpression,
    DiceSyntaxError,
    DieValueError,
    RollRecord,
    ScriptedDice,
    SeededDice,
    step_die,
)
from core.model.profile import RulesProfile

PROFILE = RulesProfile()


@pytest.mark.parametrize(("text", "groups", "modifier", "canonical"), [
    ("d20", ((1, 20),), 0, "1d20"),
    ("2d6", ((2, 6),), 0, "2d6"),
    ("d8+2", ((1, 8),), 2, "1d8+2"),
    ("2d6+1d4", ((2, 6), (1, 4)), 0, "2d6+1d4"),
    ("d8 - 1", ((1, 8),), -1, "1d8-1"),
])
def test_parse_reads_groups_and_modifier(text: str, groups: tuple[tuple[int, int], ...],
                                         modifier: int, canonical: str) -> None:
    expression = DiceExpression.parse(text)
    assert expression.groups == groups
    assert expression.modifier == modifier
    assert str(expression) == canonical


def test_dice_lists_each_die_in_order_with_minimum_and_maximum() -> None:
    expression = DiceExpression.parse("2d6+1d4+2")
    assert expression.dice == (6, 6, 4)
    assert (expression.minimum, expression.maximum) == (5, 18)


@pytest.mark.parametrize(("text", "bad_token"), [
    ("2x6", "x6"),
    ("d6+", "'+'"),
    ("", "empty"),
    ("d0", "d0"),
    ("3d1", "d1"),
    ("d6 d8", "'d8'"),
])
def test_malformed_expression_names_the_bad_token(text: str, bad_token: str) -> None:
    with pytest.raises(DiceSyntaxError) as error:
        DiceExpression.parse(text)
    assert bad_token in str(error.value)


@pytest.mark.parametrize("text", ["d20", "2d6+1d4", "d8 - 1", "3d4+2"])
def test_distribution_is_exact_and_its_mean_is_mean(text: str) -> None:
    expression = DiceExpression.parse(text)
    distribution = expression.distribution()
    assert all(isinstance(p, Fraction) for p in distribution.values())
    assert sum(distribution.values()) == 1
    assert min(distribution) == expression.minimum
    assert max(distribution) == expression.maximum
    assert sum(total * p for total, p in distribution.items()) == expression.mean()


def test_distribution_of_2d6_has_the_familiar_shape() -> None:
    distribution = DiceExpression.parse("2d6").distribution()
    assert distribution[7] == Fraction(6, 36)
    assert distribution[2] == distribution[12] == Fraction(1, 36)
    assert DiceExpression.parse("2d6").mean() == 7


def test_force_multiplier_example_fr_6_steps_d6_to_d10() -> None:
    """000: "With FR +6 the die increases two steps to d10" (one step per 3 FR points)."""
    steps = 6 // PROFILE.fr_points_per_die_step
    assert step_die("d6", steps, PROFILE.die_chain, cap=PROFILE.die_chain_cap) == "d10"


def test_profile_chain_is_the_seed_chain() -> None:
    assert PROFILE.die_chain == ("d2", "d4", "d6", "d8", "d10", "d12", "2d6", "2d8")
    assert PROFILE.die_chain_cap == "2d8"


@pytest.mark.parametrize(("die", "steps", "expected"), [
    ("d12", 1, "2d6"),
    ("d12", 5, "2d8"),
    ("d4", -1, "d2"),
    ("d4", -5, "d2"),
    ("d8", 0, "d8"),
])
def test_step_die_follows_chain_and_stops_at_its_ends(die: str, steps: int, expected: str
                                                      ) -> None:
    assert step_die(die, steps, DEFAULT_CHAIN, cap="2d8") == expected


def test_step_die_stops_at_a_lower_cap() -> None:
    assert step_die("d6", 4, DEFAULT_CHAIN, cap="d10") == "d10"


chain_dice = st.sampled_from(DEFAULT_CHAIN)


@given(die=chain_dice, cap=chain_dice, steps=st.integers(-10, 10), more=st.integers(0, 10))
def test_step_die_is_monotonic_and_bounded(die: str, cap: str, steps: int, more: int) -> None:
    index = DEFAULT_CHAIN.index
    lower = step_die(die, steps, DEFAULT_CHAIN, cap)
    higher = step_die(die, steps + more, DEFAULT_CHAIN, cap)
    assert index(lower) <= index(higher)
    assert index(higher) <= max(index(cap), index(die))  # never raised past the cap
    if index(die) <= index(cap):
        assert index(higher) <= index(cap)


def test_scripted_dice_gives_values_in_order_and_records_each_roll() -> None:
    dice = ScriptedDice([14, 3, 5, 2])
    attack = dice.roll("d20", "attack")
    damage = dice.roll("2d6+1", "damage")
    assert (attack.total, damage.total) == (14, 9)
    assert dice.remaining == (2,)
    assert [(r.purpose, r.expression, r.faces, r.total) for r in dice.rolls] == [
        ("attack", "1d20", (20,), 14),
        ("damage", "2d6+1", (6, 6), 9),
    ]
    assert damage.values == (3, 5)


@pytest.mark.parametrize(("value", "die"), [(7, "d6"), (0, "d20"), (21, "d20")])
def test_scripted_value_outside_the_die_is_refused(value: int, die: str) -> None:
    faces = int(die[1:])
    with pytest.raises(DieValueError) as error:
        ScriptedDice([value]).roll(die, "shove die")
    assert die in str(error.value)
    assert f"1 to {faces}" in str(error.value)


def test_scripted_dice_raise_exhausted_when_empty() -> None:
    dice = ScriptedDice([4])
    dice.roll("d6", "first")
    with pytest.raises(DiceExhaustedError) as error:
        dice.roll("d8", "slam damage")
    assert (error.value.faces, error.value.purpose) == (8, "slam damage")
    assert "d8" in str(error.value)


def test_seeded_dice_replay_the_same_sequence_for_the_same_seed() -> None:
    def totals(seed: int) -> list[int]:
        dice = SeededDice(seed)
        return [dice.roll("d20", f"roll {n}").total for n in range(30)]

    assert totals(42) == totals(42)
    assert totals(42) != totals(43)
    assert all(1 <= total <= 20 for total in totals(7))


# --- bounds and the exact-odds budget ------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    ("60d6+41d8", "rolls 101 dice; at most 100"),
    ("+".join(["1d6"] * 101), "is longer than 100 characters"),
    ("d6+10001", "the constant in 'd6+10001' is beyond ±10,000"),
    ("d6" + "+1" * 60, "is longer than 100 characters"),
    ("1" * 5000 + "d6", "is longer than 100 characters"),
])
def test_expressions_past_the_bounds_are_refused(text: str, message: str) -> None:
    with pytest.raises(DiceSyntaxError, match=re.escape(message)):
        DiceExpression.parse(text)


def test_the_exact_distribution_stops_at_the_budget() -> None:
    assert DiceExpression.parse("100d10").support_size == 901 <= EXACT_OUTCOMES
    assert sum(DiceExpression.parse("100d10").distribution().values()) == 1
    with pytest.raises(DiceError, match="2d1000 has 1,999 possible totals; exact odds "
                                        "enumerate at most 1,000"):
        DiceExpression.parse("2d1000").distribution()


def test_outcomes_are_exact_within_the_budget() -> None:
    outcomes = DiceExpression.parse("3d6+2").outcomes()
    assert outcomes.approximation == ""
    assert outcomes.probabilities == DiceExpression.parse("3d6+2").distribution()


@pytest.mark.parametrize("text", ["2d1000", "100d1000", "20d100+7"])
def test_outcomes_past_the_budget_are_binned_and_say_so(text: str) -> None:
    expression = DiceExpression.parse(text)
    outcomes = expression.outcomes()
    assert outcomes.approximation.endswith("binned into 1,000 (the exact-odds budget)")
    assert len(outcomes.probabilities) <= EXACT_OUTCOMES
    assert sum(outcomes.probabilities.values()) == 1
    assert expression.minimum <= min(outcomes.probabilities) <= max(outcomes.probabilities) \
        <= expression.maximum
    mean = sum(total * p for total, p in outcomes.probabilities.items())
    assert abs(mean - expression.mean()) <= 1  # each bin sits at its mean, rounded


def test_the_log_tells_dice_typed_in_from_dice_the_app_rolled() -> None:
    """Issue 36.7: the log did not mark which dice came from the table."""
    typed = ScriptedDice([14]).roll("d20", "attack")
    rolled = SeededDice(3).roll("d20", "attack")
    assert typed.typed and typed.describe().endswith(", typed in")
    assert not rolled.typed and "typed" not in rolled.describe()
    assert RollRecord.model_validate(typed.model_dump()) == typed
    assert not RollRecord.model_validate({k: v for k, v in typed.model_dump().items()
                                          if k != "typed"}).typed  # older files: rolled


@pytest.mark.parametrize(("faces", "values", "problem"), [
    ((10,), (3, 4), "1 die but 2 values"),
    ((6, 6), (2,), "2 dice but 1 values"),
    ((6,), (7,), "a 7 on a d6"),
])
def test_a_roll_record_has_one_value_per_die_within_it(
        faces: tuple[int, ...], values: tuple[int, ...], problem: str) -> None:
    """A file's roll of another shape would raise in describe(), in the middle of a log."""
    with pytest.raises(ValidationError, match=problem):
        RollRecord(purpose="x", expression="d10", faces=faces, values=values)


def test_every_roll_a_dice_source_makes_has_that_shape() -> None:
    record = SeededDice(5).roll("3d6+1d4+2", "x")
    assert len(record.faces) == len(record.values) == 4
    assert record.describe().endswith(f"= {record.total}")
