"""Breakdowns: every derived number is a list of named terms whose sum is the value.

>>> b = Breakdown.of(Term("Base AC", 11, "000 Base AC"), Term("DEX", 1, "ability table"))
>>> b.value
12
>>> b.describe()
'Base AC 11 + DEX +1 = 12'
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from core.model.limits import Lines


class Term(BaseModel):
    """One named contribution to a value, with the rule it comes from."""

    model_config = ConfigDict(frozen=True)

    name: Lines
    value: int
    source: Lines = ""

    def __init__(self, name: str, value: int, source: str = "") -> None:
        super().__init__(name=name, value=value, source=source)


class Breakdown(BaseModel):
    """A value explained: its terms, in the order they were applied."""

    model_config = ConfigDict(frozen=True)

    terms: tuple[Term, ...] = ()

    @classmethod
    def of(cls, *terms: Term) -> Breakdown:
        return cls(terms=terms)

    @property
    def value(self) -> int:
        return sum(term.value for term in self.terms)

    def plus(self, *terms: Term) -> Breakdown:
        return Breakdown(terms=self.terms + terms)

    def describe(self) -> str:
        if not self.terms:
            return "0"
        parts = [f"{self.terms[0].name} {self.terms[0].value}"]
        parts += [f"{t.name} {t.value:+d}" for t in self.terms[1:]]
        return " + ".join(parts) + f" = {self.value}"
