"""What tokens see: line of sight past walls, limited by light (docs/vision.md).

The seeds have no light or vision rules; this is the product's own, smallest model:

- A token sees from the centre of its footprint, the point :meth:`MapGeometry.line_of_sight`
  measures missiles from (rules.md §8.3), so what a token sees is what it could shoot at. A
  Large or Gargantuan token's centre is a cell corner; that is fine, because no wall that
  blocks movement runs through a footprint.
- A cell is *in line of sight* when the segment from the eye to the cell's centre meets no
  sight-blocking wall (walls, closed doors, objects; windows and open doors let sight
  through), touching counts (:mod:`core.spatial.sweep`).
- ``map.darkness`` says what else limits sight:

  - ``daylight``: every cell in line of sight is seen, however far.
  - ``dark``: a cell in line of sight is seen only when it is *lit* — its centre lies within
    ``range_cells`` of a map light and in that light's own line of sight — or lies within
    the token's ``darkvision_ft`` (centre to centre, straight-line).
  - ``dim``: as dark, but every token sees at least ``profile.dim_sight_ft`` (30 ft).

  In the dark a token always sees the cells it stands on.

- The party's view is the union over its tokens, leaving out knocked-out tokens and tokens
  the GM hid (``gm_only``): neither may show the players anything.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap, WallSegment
>>> wall = WallSegment(x1=2, y1=0, x2=2, y2=3)
>>> enc = Encounter(map=BattleMap(width=4, height=3, walls=[wall]),
...                 tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=1)])
>>> party_vision(enc).astype(int)
array([[1, 1, 0, 0],
       [1, 1, 0, 0],
       [1, 1, 0, 0]])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from core.model.combatant import Condition, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Footprint
from core.model.mapmodel import Darkness, Light
from core.spatial.geometry import geometry_of
from core.spatial.sweep import (
    EPS,
    BoolArray,
    Box,
    FloatArray,
    Point,
    sight_mask,
    sight_of_cells,
)


class Viewer(NamedTuple):
    """All of a token that its sight depends on: where it stands and its darkvision."""

    x: int
    y: int
    size: int
    darkvision_ft: int

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, self.size)


def viewer_of(token: Token) -> Viewer:
    return Viewer(token.x, token.y, token.footprint.size, token.combatant.darkvision_ft)


def eye_of(token: Token) -> Point:
    """The point a token sees from: its footprint's centre."""
    return token.footprint.centre


def dark_sight_cells(encounter: Encounter, darkvision_ft: int) -> float:
    """How far (in cells) a token with ``darkvision_ft`` sees unlit cells: its darkvision,
    or in dim light at least the profile's ``dim_sight_ft``."""
    feet = darkvision_ft
    if encounter.map.darkness is Darkness.DIM:
        feet = max(feet, encounter.profile.dim_sight_ft)
    return feet / encounter.profile.cell_size_ft


def token_vision(encounter: Encounter, token: Token) -> BoolArray:
    """(height, width): the cells the token sees."""
    return viewer_vision(encounter, viewer_of(token))


def viewer_vision(encounter: Encounter, viewer: Viewer) -> BoolArray:
    """(height, width): the cells a token standing as ``viewer`` sees."""
    battle_map = encounter.map
    segments = geometry_of(encounter).sight_segments()
    whole: Box = (0, 0, battle_map.width, battle_map.height)
    footprint = viewer.footprint
    eye = footprint.centre
    if battle_map.darkness is Darkness.DAYLIGHT:
        return sight_mask(segments, eye, whole)
    allowed = lit_cells(encounter) | _within(
        eye, dark_sight_cells(encounter, viewer.darkvision_ft), whole)
    allowed[footprint.y:footprint.y + footprint.size,
            footprint.x:footprint.x + footprint.size] = True
    return _seen_where(segments, eye, allowed)


def party_vision(encounter: Encounter, side: Side = Side.PARTY) -> BoolArray:
    """(height, width): the cells any of the side's seeing tokens sees."""
    seen = np.zeros((encounter.map.height, encounter.map.width), dtype=bool)
    for token in encounter.tokens:
        if token.combatant.side is side and _sees(token):
            seen |= token_vision(encounter, token)
    return seen


def party_viewer(token: Token, side: Side = Side.PARTY) -> Viewer | None:
    """``token`` as one of the side's viewers, or None when it sees nothing for the side
    (another side's, hidden from the players, knocked out)."""
    return viewer_of(token) if token.combatant.side is side and _sees(token) else None


@dataclass(frozen=True)
class VisionInputs:
    """Everything a token's sight reads besides the token, so a cache can tell when every
    token's sight must be recomputed: the arrays are compared by identity (the geometry
    and :func:`lit_cells` make new ones on every change), the rest by value."""

    segments: FloatArray
    lit: BoolArray | None
    values: tuple[object, ...]


def vision_inputs(encounter: Encounter) -> VisionInputs:
    battle_map, profile = encounter.map, encounter.profile
    dark = battle_map.darkness is not Darkness.DAYLIGHT
    return VisionInputs(
        segments=geometry_of(encounter).sight_segments(),
        lit=lit_cells(encounter) if dark else None,
        values=(battle_map.width, battle_map.height, battle_map.darkness,
                profile.dim_sight_ft, profile.cell_size_ft))


def same_inputs(a: VisionInputs, b: VisionInputs) -> bool:
    return a.segments is b.segments and a.lit is b.lit and a.values == b.values


def _sees(token: Token) -> bool:
    return not token.gm_only and not token.combatant.has(Condition.KNOCKED_OUT)


def lit_cells(encounter: Encounter) -> BoolArray:
    """(height, width), read-only: the cells some map light reaches; kept until the walls,
    the lights or the map's size change."""
    battle_map = encounter.map
    segments = geometry_of(encounter).sight_segments()
    lights = tuple(battle_map.lights)
    shape = (battle_map.height, battle_map.width)
    cache = encounter.derived(_Lighting, _Lighting)
    if cache.segments is not segments or cache.lights != lights or cache.lit.shape != shape:
        cache.segments, cache.lights = segments, lights
        cache.lit = np.zeros(shape, dtype=bool)
        for light in lights:
            cache.lit |= _lit_by(segments, light, shape)
        cache.lit.flags.writeable = False
    return cache.lit


@dataclass
class _Lighting:
    """The lit cells and what they were computed from."""

    segments: FloatArray | None = None
    lights: tuple[Light, ...] = ()
    lit: BoolArray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))


def _lit_by(segments: FloatArray, light: Light, shape: tuple[int, int]) -> BoolArray:
    height, width = shape
    return _seen_where(segments, (light.x, light.y),
                       _within((light.x, light.y), light.range_cells, (0, 0, width, height)))


def _within(centre: Point, radius: float, box: Box) -> BoolArray:
    """Cells of the box whose centres lie within ``radius`` of ``centre``."""
    x0, y0, x1, y1 = box
    dx = np.arange(x0, x1) + 0.5 - centre[0]
    dy = np.arange(y0, y1) + 0.5 - centre[1]
    inside: BoolArray = dx[None, :] ** 2 + dy[:, None] ** 2 <= radius * radius * (1 + EPS)
    return inside


def _seen_where(segments: FloatArray, eye: Point, allowed: BoolArray) -> BoolArray:
    """The allowed cells in line of sight of the eye (only those are tested)."""
    seen = np.zeros(allowed.shape, dtype=bool)
    rows, columns = np.nonzero(allowed)
    seen[rows, columns] = sight_of_cells(segments, eye, columns, rows)
    return seen

