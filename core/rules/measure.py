"""The ruler: distance along the grid through waypoints, by the profile's diagonal rule
(rules-decisions Shove 9: 5-10-5 by default, the count of diagonals running on from one
leg to the next), and the 1-second segments it takes (002 "Characters move at 5' per
segment").

>>> from core.model.profile import RulesProfile
>>> measure([Cell(0, 0), Cell(3, 3)], RulesProfile()).describe()   # 5 + 10 + 5
'20 ft · 4 seg'
>>> measure([Cell(0, 0), Cell(1, 1), Cell(2, 2)], RulesProfile()).legs_ft  # the 2nd costs 10
(5.0, 10.0)
"""

from __future__ import annotations

from itertools import pairwise

from core.model.grid import Cell, Direction, path_cost_ft
from core.model.profile import RulesProfile
from core.rules.timeline import segments_moving
from core.rules.value import RulesValue


class Measure(RulesValue):
    """A measured route: each leg's feet, the total, and the segments it takes."""

    legs_ft: tuple[float, ...]
    total_ft: float
    segments: int

    def describe(self) -> str:
        return f"{self.total_ft:g} ft · {self.segments} seg"


def straight_steps(a: Cell, b: Cell) -> list[Direction]:
    """The king's moves from ``a`` to ``b``: the diagonals first, then the straight run."""
    dx, dy = b.x - a.x, b.y - a.y
    diagonal = Direction.from_bearing(_bearing(dx, dy)) if dx and dy else None
    straight = _straight(dx, dy)
    count = min(abs(dx), abs(dy))
    steps = [diagonal] * count if diagonal else []
    rest = max(abs(dx), abs(dy)) - count
    return [*steps, *([straight] * rest if straight else [])]


def _bearing(dx: int, dy: int) -> float:
    return {(1, -1): 45, (1, 1): 135, (-1, 1): 225, (-1, -1): 315}[(_sign(dx), _sign(dy))]


def _straight(dx: int, dy: int) -> Direction | None:
    if abs(dx) == abs(dy):
        return None
    if abs(dx) > abs(dy):
        return Direction.E if dx > 0 else Direction.W
    return Direction.S if dy > 0 else Direction.N


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def measure(waypoints: list[Cell], profile: RulesProfile) -> Measure:
    """The route through ``waypoints`` cell by cell (walls and terrain are not counted:
    a ruler, not a path)."""
    legs: list[float] = []
    steps: list[Direction] = []
    for a, b in pairwise(waypoints):
        before = path_cost_ft(steps, profile.cell_size_ft, profile.diagonal_rule)
        steps += straight_steps(a, b)
        after = path_cost_ft(steps, profile.cell_size_ft, profile.diagonal_rule)
        legs.append(after - before)
    total = path_cost_ft(steps, profile.cell_size_ft, profile.diagonal_rule)
    return Measure(legs_ft=tuple(legs), total_ft=total,
                   segments=segments_moving(total, profile))
