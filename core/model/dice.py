"""Dice expressions, the die-step chain, and dice sources (seeded or typed in by the GM).

>>> DiceExpression.parse("2d6+1d4+2").dice
(6, 6, 4)
>>> str(DiceExpression.parse("d8 - 1"))
'1d8-1'
>>> step_die("d6", 2, DEFAULT_CHAIN, cap="2d8")
'd10'
>>> source = ScriptedDice([14, 3])
>>> source.roll("d20", "attack").total, source.roll("d6", "shove").total
(14, 3)
>>> [r.purpose for r in source.rolls]
['attack', 'shove']
"""

from __future__ import annotations

import math
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.model.limits import Lines

DEFAULT_CHAIN: tuple[str, ...] = ("d2", "d4", "d6", "d8", "d10", "d12", "2d6", "2d8")

_TOKEN = re.compile(r"\s*([+-]?)\s*(?:(\d*)[dD](\d+)|(\d+))\s*")
MAX_DICE = 100  # in one expression, all groups together
MAX_FACES = 1000
MAX_MODIFIER = 10_000
MAX_EXPRESSION_CHARS = 100
#: The exact-odds budget: a distribution with more possible totals than this (e.g. 2d1000,
#: 100d1000) is not enumerated exactly but binned (:meth:`DiceExpression.outcomes`).
EXACT_OUTCOMES = 1_000


class DiceError(ValueError):
    """Base class of every dice problem."""


class DiceSyntaxError(DiceError):
    """A dice expression could not be read; the message names the bad token."""


class DieValueError(DiceError):
    """A typed-in value does not fit the die it was given for."""


class DiceExhaustedError(DiceError):
    """A scripted source ran out; carries what the resolver asked for next."""

    def __init__(self, faces: int, purpose: str) -> None:
        super().__init__(f"no die value left for {purpose} (needs a d{faces})")
        self.faces = faces
        self.purpose = purpose


class Outcomes(NamedTuple):
    """A distribution of totals, and why it is approximate ("" when it is exact)."""

    probabilities: dict[int, Fraction]
    approximation: str


class DiceExpression(BaseModel):
    """A sum of dice groups and a constant, e.g. ``2d6+1d4+2``."""

    model_config = ConfigDict(frozen=True)

    groups: tuple[tuple[int, int], ...]
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpression:
        return _parse_cached(text)

    @property
    def dice(self) -> tuple[int, ...]:
        """The faces of each die to roll, in order."""
        return tuple(faces for count, faces in self.groups for _ in range(count))

    @property
    def minimum(self) -> int:
        return len(self.dice) + self.modifier

    @property
    def maximum(self) -> int:
        return sum(self.dice) + self.modifier

    @property
    def support_size(self) -> int:
        """How many different totals the expression can roll."""
        return self.maximum - self.minimum + 1

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each total; DiceError above the :data:`EXACT_OUTCOMES`
        budget (the enumeration would take seconds to minutes)."""
        if self.support_size > EXACT_OUTCOMES:
            raise DiceError(f"{self} has {self.support_size:,} possible totals; exact odds "
                            f"enumerate at most {EXACT_OUTCOMES:,}")
        return dict(_sum_distribution(self.dice, self.modifier))

    def outcomes(self) -> Outcomes:
        """The exact distribution within the budget; above it, the distribution binned into
        at most :data:`EXACT_OUTCOMES` totals, each bin at its mean (computed in floating
        point, so within ~1e-12 of exact, then binned: labelled approximate)."""
        if self.support_size <= EXACT_OUTCOMES:
            return Outcomes(self.distribution(), "")
        return Outcomes(dict(_binned_distribution(self.dice, self.modifier)),
                        f"{self.support_size:,} possible totals binned into "
                        f"{EXACT_OUTCOMES:,} (the exact-odds budget)")

    def mean(self) -> Fraction:
        return sum((Fraction(faces + 1, 2) for faces in self.dice), Fraction(self.modifier))

    def __str__(self) -> str:
        text = "+".join(f"{count}d{faces}" for count, faces in self.groups)
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text or str(self.modifier)


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> DiceExpression:
    groups: list[tuple[int, int]] = []
    modifier = 0
    position = 0
    source = text.strip()
    if not source:
        raise DiceSyntaxError("empty dice expression")
    if len(source) > MAX_EXPRESSION_CHARS:
        raise DiceSyntaxError(f"dice expression {source[:20]!r}... is longer than "
                              f"{MAX_EXPRESSION_CHARS} characters")
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None or match.end() == position:
            bad = source[position:].split("+")[0].split("-")[0] or source[position:]
            raise DiceSyntaxError(f"{bad.strip()!r} is not dice in {text!r} (write dice like "
                                  "2d6+1, d20 or 3)")
        sign, count, faces, constant = match.groups()
        if position > 0 and not sign:
            raise DiceSyntaxError(f"missing + or - before {match.group(0).strip()!r} in {text!r}")
        negative = sign == "-"
        if constant is not None:
            modifier += -int(constant) if negative else int(constant)
        else:
            groups.append(_dice_group(count, faces, negative, text))
        position = match.end()
    dice = sum(count for count, _ in groups)
    if dice > MAX_DICE:
        raise DiceSyntaxError(f"{text!r} rolls {dice} dice; at most {MAX_DICE}")
    if abs(modifier) > MAX_MODIFIER:
        raise DiceSyntaxError(f"the constant in {text!r} is beyond ±{MAX_MODIFIER:,}")
    return DiceExpression(groups=tuple(groups), modifier=modifier)


def _dice_group(count: str, faces: str, negative: bool, text: str) -> tuple[int, int]:
    n, f = int(count or 1), int(faces)
    if negative:
        raise DiceSyntaxError(f"subtracting dice is not supported: -{n}d{f} in {text!r}")
    if not 1 <= n <= MAX_DICE:
        raise DiceSyntaxError(f"dice count {n} in {text!r} must be 1..{MAX_DICE}")
    if not 2 <= f <= MAX_FACES:
        raise DiceSyntaxError(f"die d{f} in {text!r} must have 2..{MAX_FACES} faces")
    return n, f


@lru_cache(maxsize=128)
def _sum_distribution(dice: tuple[int, ...], modifier: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact: the number of ways to roll each total (whole numbers), die by die as a running
    window sum, then divided by the number of combinations."""
    ways = [1]
    for faces in dice:
        ways = _add_die(ways, faces)
    combinations = math.prod(dice)
    return tuple((len(dice) + modifier + i, Fraction(n, combinations))
                 for i, n in enumerate(ways))


def _add_die(ways: list[int], faces: int) -> list[int]:
    """Ways to roll each total after one more die: the sum of the last ``faces`` entries."""
    window, result = 0, []
    for i in range(len(ways) + faces - 1):
        window += ways[i] if i < len(ways) else 0
        window -= ways[i - faces] if i >= faces else 0
        result.append(window)
    return result


@lru_cache(maxsize=16)
def _binned_distribution(dice: tuple[int, ...], modifier: int
                         ) -> tuple[tuple[int, Fraction], ...]:
    """The distribution in floating point (the same window sum, vectorised), binned into at
    most EXACT_OUTCOMES equal ranges of totals, each at its probability-weighted mean; the
    probabilities are fractions of 10¹² that sum to exactly 1."""
    p = np.ones(1)
    for faces in dice:
        running = np.concatenate(([0.0], np.cumsum(p)))
        k = np.arange(len(p) + faces - 1)
        p = np.maximum(running[np.minimum(k + 1, len(p))] - running[np.maximum(k + 1 - faces, 0)],
                       0) / faces
    width = -(-len(p) // EXACT_OUTCOMES)
    padded = np.zeros(width * EXACT_OUTCOMES)
    padded[:len(p)] = p
    bins = padded.reshape(EXACT_OUTCOMES, width)
    mass = bins.sum(axis=1)
    offsets = (bins * np.arange(width)).sum(axis=1) / np.where(mass > 0, mass, 1)
    totals = len(dice) + modifier + np.arange(EXACT_OUTCOMES) * width + np.rint(offsets)
    scale = 10**12
    shares = {int(total): round(share * scale)
              for total, share in zip(totals.tolist(), mass.tolist(), strict=True)}
    shares = {total: share for total, share in shares.items() if share}
    largest = max(shares, key=shares.__getitem__)
    shares[largest] += scale - sum(shares.values())
    return tuple((total, Fraction(share, scale)) for total, share in sorted(shares.items()))


def step_die(die: str, steps: int, chain: tuple[str, ...], cap: str) -> str:
    """Move ``die`` ``steps`` along ``chain`` (negative steps go down), never past ``cap``
    nor below the chain's first die (000 "The Force Multiplier")."""
    if die not in chain:
        raise DiceError(f"{die!r} is not on the die chain {', '.join(chain)}")
    top = chain.index(cap)
    index = chain.index(die)
    return chain[max(0, min(index + steps, max(top, index)))]


class RollRecord(BaseModel):
    """One roll as it happened: why, what, each die, and the total. Each die has its value:
    a file whose lists differ in length (or with a 7 on a d6) is refused, not shown.

    >>> RollRecord(purpose="x", expression="1d6", faces=(6,), values=(3, 4))
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for RollRecord
      Value error, 1 die but 2 values ...
    """

    model_config = ConfigDict(frozen=True)

    purpose: Lines
    expression: Lines
    faces: tuple[Annotated[int, Field(ge=1, le=MAX_FACES)], ...] = Field(max_length=MAX_DICE)
    values: tuple[Annotated[int, Field(ge=1, le=MAX_FACES)], ...] = Field(max_length=MAX_DICE)
    modifier: int = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER)
    typed: bool = Field(False, description="Dice the GM rolled at the table and typed in, "
                                           "not rolled by the app")

    @model_validator(mode="after")
    def _a_value_per_die(self) -> RollRecord:
        if len(self.faces) != len(self.values):
            dice = "die" if len(self.faces) == 1 else "dice"
            raise ValueError(f"{len(self.faces)} {dice} but {len(self.values)} values")
        for value, faces in zip(self.values, self.faces, strict=True):
            if value > faces:
                raise ValueError(f"a {value} on a d{faces}")
        return self

    @property
    def total(self) -> int:
        return sum(self.values) + self.modifier

    def describe(self) -> str:
        """The roll as the log says it; dice typed in from the table are marked so.

        >>> RollRecord(purpose="hit", expression="d20", faces=(20,), values=(14,),
        ...            typed=True).describe()
        'hit: d20 → 14 (d20) = 14, typed in'
        """
        dice = " + ".join(f"{v} (d{f})" for v, f in zip(self.values, self.faces, strict=True))
        mod = f" {self.modifier:+d}" if self.modifier else ""
        typed = ", typed in" if self.typed else ""
        return f"{self.purpose}: {self.expression} → {dice}{mod} = {self.total}{typed}"


class DiceSource(ABC):
    """Where die values come from. Every roll is recorded in :attr:`rolls`."""

    #: Whether its values are dice rolled at the table and typed in (the log says so).
    typed: bool = False

    def __init__(self) -> None:
        self.rolls: list[RollRecord] = []

    @abstractmethod
    def next_value(self, faces: int, purpose: str) -> int:
        """One die's value in 1..faces."""

    def roll(self, expression: str | DiceExpression, purpose: str) -> RollRecord:
        expr = DiceExpression.parse(expression) if isinstance(expression, str) else expression
        values = tuple(self.next_value(faces, purpose) for faces in expr.dice)
        record = RollRecord(purpose=purpose, expression=str(expr), faces=expr.dice,
                            values=values, modifier=expr.modifier, typed=self.typed)
        self.rolls.append(record)
        return record


class SeededDice(DiceSource):
    """Pseudo-random dice from a seed: the same seed replays the same rolls."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._random = random.Random(seed)

    def next_value(self, faces: int, purpose: str) -> int:
        return self._random.randint(1, faces)


class ScriptedDice(DiceSource):
    """Die values given in advance: physical dice typed by the GM, or a test's values."""

    typed = True

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = list(values)
        self._position = 0

    @property
    def position(self) -> int:
        """How many values have been used (the index of the next one)."""
        return self._position

    @property
    def remaining(self) -> tuple[int, ...]:
        return tuple(self._values[self._position:])

    def next_value(self, faces: int, purpose: str) -> int:
        if self._position >= len(self._values):
            raise DiceExhaustedError(faces, purpose)
        value = self._values[self._position]
        if not 1 <= value <= faces:
            raise DieValueError(
                f"{value} is not a face of a d{faces} (rolled for {purpose}): "
                f"enter 1 to {faces}"
            )
        self._position += 1
        return value


class ReplayedDice(ScriptedDice):
    """The dice of earlier rolls given again, as they were rolled: a step made anew with
    the same dice (a critical effect declined) is typed in only if its dice were.

    >>> seeded = SeededDice(3).roll("d30", "critical event")
    >>> ReplayedDice([seeded]).roll("d30", "critical event") == seeded
    True
    """

    def __init__(self, rolls: Iterable[RollRecord]) -> None:
        rolls = tuple(rolls)
        super().__init__(value for roll in rolls for value in roll.values)
        self.typed = any(roll.typed for roll in rolls)
