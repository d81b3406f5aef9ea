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

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from fractions import Fraction
from functools import cache

from pydantic import BaseModel, ConfigDict

DEFAULT_CHAIN: tuple[str, ...] = ("d2", "d4", "d6", "d8", "d10", "d12", "2d6", "2d8")

_TOKEN = re.compile(r"\s*([+-]?)\s*(?:(\d*)[dD](\d+)|(\d+))\s*")
MAX_DICE = 100
MAX_FACES = 1000


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

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each total."""
        return dict(_sum_distribution(self.dice, self.modifier))

    def mean(self) -> Fraction:
        return sum((Fraction(faces + 1, 2) for faces in self.dice), Fraction(self.modifier))

    def __str__(self) -> str:
        text = "+".join(f"{count}d{faces}" for count, faces in self.groups)
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text or str(self.modifier)


@cache
def _parse_cached(text: str) -> DiceExpression:
    groups: list[tuple[int, int]] = []
    modifier = 0
    position = 0
    source = text.strip()
    if not source:
        raise DiceSyntaxError("empty dice expression")
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None or match.end() == position:
            bad = source[position:].split("+")[0].split("-")[0] or source[position:]
            raise DiceSyntaxError(f"bad token {bad.strip()!r} in dice expression {text!r}")
        sign, count, faces, constant = match.groups()
        if position > 0 and not sign:
            raise DiceSyntaxError(f"missing + or - before {match.group(0).strip()!r} in {text!r}")
        negative = sign == "-"
        if constant is not None:
            modifier += -int(constant) if negative else int(constant)
        else:
            groups.append(_dice_group(count, faces, negative, text))
        position = match.end()
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


@cache
def _sum_distribution(dice: tuple[int, ...], modifier: int) -> tuple[tuple[int, Fraction], ...]:
    totals: dict[int, Fraction] = {modifier: Fraction(1)}
    for faces in dice:
        step: dict[int, Fraction] = {}
        for total, p in totals.items():
            for value in range(1, faces + 1):
                step[total + value] = step.get(total + value, Fraction(0)) + p / faces
        totals = step
    return tuple(sorted(totals.items()))


def step_die(die: str, steps: int, chain: tuple[str, ...], cap: str) -> str:
    """Move ``die`` ``steps`` along ``chain`` (negative steps go down), never past ``cap``
    nor below the chain's first die (000 "The Force Multiplier")."""
    if die not in chain:
        raise DiceError(f"{die!r} is not on the die chain {', '.join(chain)}")
    top = chain.index(cap)
    index = chain.index(die)
    return chain[max(0, min(index + steps, max(top, index)))]


class RollRecord(BaseModel):
    """One roll as it happened: why, what, each die, and the total."""

    model_config = ConfigDict(frozen=True)

    purpose: str
    expression: str
    faces: tuple[int, ...]
    values: tuple[int, ...]
    modifier: int = 0

    @property
    def total(self) -> int:
        return sum(self.values) + self.modifier

    def describe(self) -> str:
        dice = " + ".join(f"{v} (d{f})" for v, f in zip(self.values, self.faces, strict=True))
        mod = f" {self.modifier:+d}" if self.modifier else ""
        return f"{self.purpose}: {self.expression} → {dice}{mod} = {self.total}"


class DiceSource(ABC):
    """Where die values come from. Every roll is recorded in :attr:`rolls`."""

    def __init__(self) -> None:
        self.rolls: list[RollRecord] = []

    @abstractmethod
    def next_value(self, faces: int, purpose: str) -> int:
        """One die's value in 1..faces."""

    def roll(self, expression: str | DiceExpression, purpose: str) -> RollRecord:
        expr = DiceExpression.parse(expression) if isinstance(expression, str) else expression
        values = tuple(self.next_value(faces, purpose) for faces in expr.dice)
        record = RollRecord(purpose=purpose, expression=str(expr), faces=expr.dice,
                            values=values, modifier=expr.modifier)
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
