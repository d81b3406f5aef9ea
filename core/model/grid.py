"""Grid geometry: cells, the eight directions, footprints, and distances by the diagonal rule.

Cells are (x, y) with y growing downwards (screen order); grid points are cell corners, so
cell (x, y) spans x..x+1, y..y+1 in grid units.

>>> Direction.NE.delta
(1, -1)
>>> path_cost_ft([Direction.NE, Direction.NE, Direction.NE], 5, DiagonalRule.FIVE_TEN_FIVE)
20
>>> straight_away(Footprint(0, 0, 1), Footprint(1, 1, 1))
<Direction.SE: 'SE'>
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from enum import StrEnum
from typing import NamedTuple

from core.model.profile import DiagonalRule


class Cell(NamedTuple):
    x: int
    y: int


class Direction(StrEnum):
    """The eight compass directions; north is up (towards y = 0)."""

    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]

    @property
    def diagonal(self) -> bool:
        dx, dy = self.delta
        return dx != 0 and dy != 0

    @property
    def bearing(self) -> int:
        """Degrees clockwise from north."""
        return list(Direction).index(self) * 45

    @classmethod
    def from_bearing(cls, degrees: float) -> Direction:
        return list(cls)[round((degrees % 360) / 45) % 8]


_DELTAS = {
    Direction.N: (0, -1), Direction.NE: (1, -1), Direction.E: (1, 0), Direction.SE: (1, 1),
    Direction.S: (0, 1), Direction.SW: (-1, 1), Direction.W: (-1, 0), Direction.NW: (-1, -1),
}


class Footprint(NamedTuple):
    """A square of ``size`` cells with its top-left cell at (x, y)."""

    x: int
    y: int
    size: int

    def cells(self) -> Iterator[Cell]:
        for dy in range(self.size):
            for dx in range(self.size):
                yield Cell(self.x + dx, self.y + dy)

    def moved(self, direction: Direction, steps: int = 1) -> Footprint:
        dx, dy = direction.delta
        return Footprint(self.x + dx * steps, self.y + dy * steps, self.size)

    @property
    def centre(self) -> tuple[float, float]:
        half = self.size / 2
        return self.x + half, self.y + half

    def overlaps(self, other: Footprint) -> bool:
        return self.gap(other) < 0

    def gap(self, other: Footprint) -> int:
        """Empty cells between the two squares (Chebyshev); -1 when they overlap."""
        gap_x = max(other.x - (self.x + self.size), self.x - (other.x + other.size))
        gap_y = max(other.y - (self.y + self.size), self.y - (other.y + other.size))
        return max(gap_x, gap_y) if max(gap_x, gap_y) >= 0 else -1

    def adjacent(self, other: Footprint) -> bool:
        return self.gap(other) == 0


def ring(centre: Cell, radius: int) -> list[Cell]:
    """The cells at Chebyshev distance ``radius`` from ``centre``, nearest (Euclidean) first.

    >>> ring(Cell(0, 0), 1)[:4]
    [Cell(x=0, y=-1), Cell(x=-1, y=0), Cell(x=1, y=0), Cell(x=0, y=1)]
    """
    if radius == 0:
        return [centre]
    offsets = {(dx, dy) for dx in range(-radius, radius + 1) for dy in (-radius, radius)}
    offsets |= {(dx, dy) for dy in range(-radius, radius + 1) for dx in (-radius, radius)}
    ordered = sorted(offsets, key=lambda d: (d[0] ** 2 + d[1] ** 2, d[1], d[0]))
    return [Cell(centre.x + dx, centre.y + dy) for dx, dy in ordered]


def bearing(origin: tuple[float, float], target: tuple[float, float]) -> float:
    """Degrees clockwise from north of the vector origin → target."""
    return math.degrees(math.atan2(target[0] - origin[0], origin[1] - target[1])) % 360


def straight_away(attacker: Footprint, defender: Footprint) -> Direction:
    """The direction from the attacker's centre through the defender's, snapped to the nearest
    of 8 (rules-decisions Shove 8)."""
    return Direction.from_bearing(bearing(attacker.centre, defender.centre))


def allowed_directions(attacker: Footprint, defender: Footprint, spread_deg: int
                       ) -> tuple[Direction, ...]:
    """Directions within ``spread_deg`` of straight away (rules-decisions Shove 8)."""
    away = bearing(attacker.centre, defender.centre)
    return tuple(d for d in Direction
                 if abs((d.bearing - away + 180) % 360 - 180) <= spread_deg + 1e-9)


def step_costs_ft(steps: Iterable[Direction], cell_ft: int, rule: DiagonalRule
                  ) -> Iterator[float]:
    """The cost in feet of each step in turn (rules-decisions Shove 9: 5-10-5 alternates)."""
    diagonals = 0
    for step in steps:
        if not step.diagonal:
            yield cell_ft
            continue
        diagonals += 1
        if rule is DiagonalRule.FIVE:
            yield cell_ft
        elif rule is DiagonalRule.EUCLIDEAN:
            yield cell_ft * math.sqrt(2)
        else:
            yield cell_ft * (2 if diagonals % 2 == 0 else 1)


def path_cost_ft(steps: Iterable[Direction], cell_ft: int, rule: DiagonalRule) -> float:
    total = sum(step_costs_ft(steps, cell_ft, rule))
    return round(total) if float(total).is_integer() else total


def distance_ft(a: Footprint, b: Footprint, cell_ft: int, rule: DiagonalRule) -> float:
    """Grid distance between the nearest cells of two footprints, each diagonal step counted
    by ``rule`` (RD "Clarifications": "Distances on the map (reach, range bands, runs)").

    >>> distance_ft(Footprint(0, 0, 1), Footprint(3, 2, 1), 5, DiagonalRule.FIVE_TEN_FIVE)
    20
    """
    dx = max(0, b.x - (a.x + a.size - 1), a.x - (b.x + b.size - 1))
    dy = max(0, b.y - (a.y + a.size - 1), a.y - (b.y + b.size - 1))
    diagonal = min(dx, dy)
    return path_cost_ft([Direction.NE] * diagonal + [Direction.E] * (max(dx, dy) - diagonal),
                        cell_ft, rule)


def offset_words(origin: Cell, cell: Cell, cell_ft: int, rule: DiagonalRule) -> str:
    """Where ``cell`` lies from ``origin``, as a GM says it: the grid distance and the
    nearest of the 8 directions.

    >>> offset_words(Cell(3, 3), Cell(1, 3), 5, DiagonalRule.FIVE_TEN_FIVE)
    '10 ft W'
    >>> offset_words(Cell(3, 3), Cell(4, 2), 5, DiagonalRule.FIVE_TEN_FIVE)
    '5 ft NE'
    >>> offset_words(Cell(3, 3), Cell(3, 3), 5, DiagonalRule.FIVE_TEN_FIVE)
    'stays'
    """
    if origin == cell:
        return "stays"
    feet = distance_ft(Footprint(origin.x, origin.y, 1), Footprint(cell.x, cell.y, 1), cell_ft,
                       rule)
    return f"{feet:g} ft {Direction.from_bearing(bearing(origin, cell)).value}"


def direction_between(a: Cell, b: Cell) -> Direction:
    """The direction of one step from ``a`` to the neighbouring cell ``b``."""
    delta = (b.x - a.x, b.y - a.y)
    for direction, d in _DELTAS.items():
        if d == delta:
            return direction
    raise ValueError(f"{a} and {b} are not neighbours")
