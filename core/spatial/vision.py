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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from core.model.combatant import Condition, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Footprint
from core.model.mapmodel import Darkness, Light
from core.spatial.geometry import geometry_of
from core.spatial.lighting import Lighting, LitUnion, hazard_lights
from core.spatial.sweep import EPS, BoolArray, Box, FloatArray, Point, Seen, sight_over


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
    return viewers_vision(encounter, [viewer])[viewer]


def viewers_vision(encounter: Encounter, viewers: Iterable[Viewer]) -> dict[Viewer, BoolArray]:
    """(height, width) per viewer: the cells it sees."""
    return {viewer: seen.cells for viewer, seen in viewers_sight(encounter, viewers).items()}


def viewers_sight(encounter: Encounter, viewers: Iterable[Viewer]) -> dict[Viewer, Seen]:
    """Per viewer, the cells it sees (over the whole map) and how far its rays reach
    (what a wall edit must reach to change them). In the dark the lit cells are asked for
    once, where any of them has a line of sight (a render's one-off lighting works out
    only those, once)."""
    battle_map = encounter.map
    segments = geometry_of(encounter).sight_segments()
    whole: Box = (0, 0, battle_map.width, battle_map.height)
    seen = {viewer: sight_over(segments, viewer.footprint.centre, whole) for viewer in viewers}
    if battle_map.darkness is Darkness.DAYLIGHT or not seen:
        return seen
    lit = lit_cells(encounter, where=np.logical_or.reduce([s.cells for s in seen.values()]))
    return {viewer: lines._replace(cells=_in_the_dark(encounter, viewer, lines.cells, lit))
            for viewer, lines in seen.items()}


def _in_the_dark(encounter: Encounter, viewer: Viewer, in_sight: BoolArray, lit: BoolArray
                 ) -> BoolArray:
    """What a viewer with ``in_sight`` sees: the lit cells, those within its dark sight,
    and the cells it stands on."""
    footprint = viewer.footprint
    battle_map = encounter.map
    allowed = lit | _within(footprint.centre, dark_sight_cells(encounter, viewer.darkvision_ft),
                            (0, 0, battle_map.width, battle_map.height))
    allowed[footprint.y:footprint.y + footprint.size,
            footprint.x:footprint.x + footprint.size] = True
    seen: BoolArray = in_sight & allowed
    return seen


def party_vision(encounter: Encounter, side: Side = Side.PARTY) -> BoolArray:
    """(height, width): the cells any of the side's seeing tokens sees."""
    viewers = [viewer for token in encounter.tokens
               if (viewer := party_viewer(token, side)) is not None]
    seen = np.zeros((encounter.map.height, encounter.map.width), dtype=bool)
    for sight in viewers_vision(encounter, dict.fromkeys(viewers)).values():
        seen |= sight
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
    lit: object
    values: tuple[object, ...]


def vision_inputs(encounter: Encounter) -> VisionInputs:
    battle_map, profile = encounter.map, encounter.profile
    dark = battle_map.darkness is not Darkness.DAYLIGHT
    return VisionInputs(
        segments=geometry_of(encounter).sight_segments(),
        lit=_lighting_now(encounter) if dark else None,
        values=(battle_map.width, battle_map.height, battle_map.darkness,
                profile.dim_sight_ft, profile.cell_size_ft))


def same_inputs(a: VisionInputs, b: VisionInputs) -> bool:
    return a.segments is b.segments and a.lit is b.lit and a.values == b.values


def _sees(token: Token) -> bool:
    return not token.gm_only and not token.combatant.has(Condition.KNOCKED_OUT)


def lighting_inputs(encounter: Encounter) -> tuple[FloatArray, tuple[Light, ...],
                                                     tuple[int, int]]:
    """What the lit cells are computed from: the sight-blocking segments, the lights (the
    map's and those its hazards give) and the map's (height, width)."""
    battle_map = encounter.map
    lights = tuple(battle_map.lights) + hazard_lights(battle_map.hazards)
    return (geometry_of(encounter).sight_segments(), lights,
            (battle_map.height, battle_map.width))


def lit_cells(encounter: Encounter, where: BoolArray | None = None) -> BoolArray:
    """(height, width), read-only: the cells some map light reaches. Where the encounter
    keeps its :class:`~core.spatial.lighting.Lighting` (the window), light by light and, when
    it is patient, as it last stood; else worked out only where asked (``where``: the cells
    a token has in sight; None: all) and kept until the walls, the lights or the map's size
    change (:class:`~core.spatial.lighting.LitUnion`)."""
    inputs = lighting_inputs(encounter)
    kept = encounter.peek_derived(Lighting)
    if kept is not None:
        if kept.patient and not kept.follows(*inputs):
            return kept.standing(inputs[2])
        return kept.follow(*inputs)
    return _union(encounter).within(where)


@dataclass
class _Unions:
    """The encounter's :class:`LitUnion`, for its current walls, lights and size."""

    union: LitUnion | None = None


def _union(encounter: Encounter) -> LitUnion:
    slot = encounter.derived(_Unions, _Unions)
    inputs = lighting_inputs(encounter)
    if slot.union is None or not slot.union.follows(*inputs):
        slot.union = LitUnion(*inputs)
    return slot.union


def _lighting_now(encounter: Encounter) -> object:
    """What the lit cells are now, compared by identity by the vision caches: the kept
    lighting's lit array, or the union worked out where asked (a new one when they
    change; what it has worked out never changes)."""
    kept = encounter.peek_derived(Lighting)
    if kept is None:
        return _union(encounter)
    return lit_cells(encounter)


def _within(centre: Point, radius: float, box: Box) -> BoolArray:
    """Cells of the box whose centres lie within ``radius`` of ``centre``."""
    x0, y0, x1, y1 = box
    dx = np.arange(x0, x1) + 0.5 - centre[0]
    dy = np.arange(y0, y1) + 0.5 - centre[1]
    inside: BoolArray = dx[None, :] ** 2 + dy[:, None] ** 2 <= radius * radius * (1 + EPS)
    return inside
