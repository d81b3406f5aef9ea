"""The base of every value a resolver takes or gives: requests, results, odds, reports."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class RulesValue(BaseModel):
    """A frozen pydantic model whose validator is built the first time one is made, not
    when its module is imported: the app imports every resolver soon after it starts (on
    its warm-up thread), and building all 61 validators there took 25 ms; one at its first
    use takes 0.3-1 ms. (Pydantic builds it under a lock since 2.14: the odds workers and the
    GUI thread may make the first of a kind at once.)

    >>> class Push(RulesValue):
    ...     cells: int
    >>> Push(cells=2).cells
    2
    """

    model_config = ConfigDict(frozen=True, defer_build=True)
