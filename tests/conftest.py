"""Shared builders for the spatial-rules tests.

The fixtures return plain functions (session scope, so hypothesis tests may use them too):

``make_encounter`` draws an encounter from an ASCII picture. Each character is one cell:
terrain codes ``.`` (normal), ``d`` (difficult), ``s`` (slippery); an upper-case letter is a
token (a Large token is a 2×2 block of its letter, Huge 3×3, Gargantuan 4×4) standing on
normal terrain unless ``under`` says otherwise. Walls are segments between grid points (cell
(x, y) spans x..x+1, y..y+1), given as ``WallSegment`` or as a tuple
``(x1, y1, x2, y2[, kind])`` where kind is ``"wall"`` (default), ``"door"`` (closed),
``"open door"``, ``"window"`` or ``"object"``.

>>> enc = build_encounter('''
...     A B .
...     . . d
... ''', walls=[(2, 0, 2, 1, "door")])
>>> enc.map.terrain_rows, enc.token("B").cell, enc.map.walls[0].kind.value
(['...', '..d'], Cell(x=1, y=0), 'door')

Spaces between cells are optional and ignored.

``touches`` is an exact (rational) segment-touch test that does not use
:mod:`core.spatial.geometry`: the oracle the geometry, pathing and shove tests check against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import pytest

from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.mapmodel import TERRAIN_BY_CODE, BattleMap, Hazard, WallKind, WallSegment
from core.model.profile import RulesProfile
from core.model.tables import SIZES

WallSpec = WallSegment | tuple[Any, ...]
Segment = tuple[float, float, float, float]

_KINDS: dict[str, tuple[WallKind, bool]] = {
    "wall": (WallKind.WALL, False),
    "door": (WallKind.DOOR, False),
    "open door": (WallKind.DOOR, True),
    "window": (WallKind.WINDOW, False),
    "object": (WallKind.OBJECT, False),
}


def as_wall(spec: WallSpec) -> WallSegment:
    """A WallSegment from a tuple ``(x1, y1, x2, y2[, kind])`` (or a WallSegment as is)."""
    if isinstance(spec, WallSegment):
        return spec
    x1, y1, x2, y2, *rest = spec
    kind, is_open = _KINDS[rest[0] if rest else "wall"]
    return WallSegment(x1=x1, y1=y1, x2=x2, y2=y2, kind=kind, open=is_open)


def picture_rows(picture: str) -> list[str]:
    """The non-blank lines of a picture with all spaces removed."""
    rows = [line.replace(" ", "") for line in picture.strip("\n").splitlines()]
    return [row for row in rows if row]


def build_encounter(picture: str,
                    combatants: Mapping[str, Combatant] | None = None,
                    *,
                    walls: Iterable[WallSpec] = (),
                    hazards: Iterable[Hazard] = (),
                    elevation: Mapping[tuple[int, int], int] | None = None,
                    under: Mapping[str, str] | None = None,
                    profile: RulesProfile | None = None) -> Encounter:
    """An encounter from an ASCII picture (see the module docstring).

    A letter without a combatant in ``combatants`` becomes a Medium party member named after
    the letter. Token ids are the letters, so ``encounter.token("B")`` finds token B.
    """
    combatants = dict(combatants or {})
    under = dict(under or {})
    rows = picture_rows(picture)
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        raise ValueError(f"picture rows differ in length: {rows}")
    cells: dict[str, list[tuple[int, int]]] = {}
    terrain: list[str] = []
    for y, row in enumerate(rows):
        line = []
        for x, char in enumerate(row):
            if char.isupper():
                cells.setdefault(char, []).append((x, y))
                line.append(under.get(char, "."))
            elif char in TERRAIN_BY_CODE:
                line.append(char)
            else:
                raise ValueError(f"unknown picture character {char!r} at ({x}, {y})")
        terrain.append("".join(line))
    tokens = []
    for letter in sorted(cells):
        combatant = combatants.get(letter) or Combatant(name=letter)
        size = SIZES[combatant.size].footprint
        x0 = min(x for x, _ in cells[letter])
        y0 = min(y for _, y in cells[letter])
        square = {(x0 + dx, y0 + dy) for dx in range(size) for dy in range(size)}
        if set(cells[letter]) != square:
            raise ValueError(f"token {letter} ({combatant.size}) must be drawn as a "
                             f"{size}×{size} block of its letter")
        tokens.append(Token(id=letter, combatant=combatant, x=x0, y=y0))
    unused = set(combatants) - set(cells)
    if unused:
        raise ValueError(f"combatants {sorted(unused)} are not drawn in the picture")
    battle_map = BattleMap(
        width=width, height=len(rows), terrain_rows=terrain,
        walls=[as_wall(w) for w in walls], hazards=list(hazards),
        elevation={f"{x},{y}": feet for (x, y), feet in (elevation or {}).items() if feet})
    return Encounter(profile=profile or RulesProfile(), map=battle_map, tokens=tokens)


Point = tuple[Fraction, Fraction]


def _orientation(a: Point, b: Point, c: Point) -> int:
    """The sign of the turn a → b → c (0 when collinear)."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (cross > 0) - (cross < 0)


def _within_box(a: Point, b: Point, p: Point) -> bool:
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1],
                                                                                       b[1])


def touches_exact(a: Segment, b: Segment) -> bool:
    """Whether two closed segments share a point, in exact rational arithmetic (the
    textbook orientation test; touching and collinear overlap count).

    >>> touches_exact((0, 0, 1, 1), (1, 1, 2, 0)), touches_exact((0, 0, 1, 0), (2, 0, 3, 0))
    (True, False)
    """
    p1, p2 = (Fraction(a[0]), Fraction(a[1])), (Fraction(a[2]), Fraction(a[3]))
    q1, q2 = (Fraction(b[0]), Fraction(b[1])), (Fraction(b[2]), Fraction(b[3]))
    o1, o2 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    o3, o4 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    if o1 != o2 and o3 != o4:
        return True
    return ((o1 == 0 and _within_box(p1, p2, q1)) or (o2 == 0 and _within_box(p1, p2, q2))
            or (o3 == 0 and _within_box(q1, q2, p1)) or (o4 == 0 and _within_box(q1, q2, p2)))


@pytest.fixture(scope="session")
def make_encounter() -> Callable[..., Encounter]:
    return build_encounter


@pytest.fixture(scope="session")
def touches() -> Callable[[Segment, Segment], bool]:
    return touches_exact


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """``cli(*argv)`` runs the ``battlemap`` command: its exit status, stdout and stderr."""
    from desktop.cli.main import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run
