"""What a footprint of a given size may do on the map, for every anchor at once: the layers
of the movement graph that depend on the walls and the terrain but not on any token.

A big creature's anchor (its top-left cell) is open when no wall runs through its square,
costs the dearest cell under it, and may step in a direction when every cell of it may.
These are window reductions (all / max over a size×size window); they are done separably
with shifted slices, a handful of whole-array operations whatever the size, instead of a
reduction over a strided window view (which cost 40-110 ms per Large to Gargantuan press on
a 300×300 map).

The layers are kept per size with the geometry they came from and rebuilt only after the
geometry changed (a wall or a cell edit), so a press costs the token-dependent part only.

>>> import numpy as np
>>> window_reduce(np.array([[1, 2, 3], [4, 5, 6]]), 2, 2, np.maximum).tolist()
[[5, 6]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from core.model.encounter import Encounter
from core.model.grid import Direction
from core.spatial.geometry import DIRECTIONS, BoolArray, MapGeometry, geometry_of

G = TypeVar("G", bound=np.generic)
Reduce = Callable[..., Any]


def window_reduce(array: npt.NDArray[G], rows: int, cols: int, op: Reduce
                  ) -> npt.NDArray[G]:
    """``op`` (an element-wise binary ufunc: and, or, maximum) over every rows×cols window,
    indexed by its top-left element: shape (H - rows + 1, W - cols + 1)."""
    wide = array.shape[1] - cols + 1
    out = array[:, :wide]
    for shift in range(1, cols):
        out = op(out, array[:, shift:shift + wide])
    high = array.shape[0] - rows + 1
    result: npt.NDArray[G] = out[:high]
    for shift in range(1, rows):
        result = op(result, out[shift:shift + high])
    return result


def window_all(array: BoolArray, size: int) -> BoolArray:
    """For each anchor, whether ``array`` is true over the whole size×size footprint."""
    return window_reduce(array, size, size, np.logical_and)


def window_any(array: BoolArray, size: int) -> BoolArray:
    return window_reduce(array, size, size, np.logical_or)


@dataclass(frozen=True)
class FootprintLayers:
    """For one footprint size, per anchor: no wall inside it (``interior``), the movement
    cost of its dearest cell (``cost``), and per direction whether every cell of it may
    step that way (``steps``, in :data:`DIRECTIONS` order)."""

    size: int
    interior: BoolArray
    cost: npt.NDArray[np.int8]
    steps: tuple[BoolArray, ...]


def _layers(geometry: MapGeometry, size: int) -> FootprintLayers:
    open_moves = geometry.open_moves()
    cost = window_reduce(geometry.move_cost, size, size, np.maximum)
    return FootprintLayers(size=size, interior=_interior(open_moves, size), cost=cost,
                           steps=tuple(window_all(open_moves[d], size) for d in range(8)))


def _interior(open_moves: BoolArray, size: int) -> BoolArray:
    """Anchors whose footprint has no wall running through it (always true for 1×1)."""
    height, width = open_moves.shape[1:]
    rows, cols = height - size + 1, width - size + 1
    if size == 1:
        return np.ones((rows, cols), dtype=bool)
    east = open_moves[DIRECTIONS.index(Direction.E)]
    south = open_moves[DIRECTIONS.index(Direction.S)]
    east_ok = window_reduce(east, size, size - 1, np.logical_and)
    south_ok = window_reduce(south, size - 1, size, np.logical_and)
    return np.asarray(east_ok[:, :cols] & south_ok[:rows, :])


class _LayerCache:
    """The layers built so far, for one revision of one geometry."""

    def __init__(self, geometry: MapGeometry) -> None:
        self.geometry = geometry
        self.revision = geometry.revision
        self.by_size: dict[int, FootprintLayers] = {}

    def current(self, geometry: MapGeometry) -> bool:
        return self.geometry is geometry and self.revision == geometry.revision


def footprint_layers(encounter: Encounter, size: int) -> FootprintLayers:
    """The layers for ``size`` on the encounter's map, built on first use after the map's
    walls or cells last changed."""
    geometry = geometry_of(encounter)
    cache = encounter.peek_derived(_LayerCache)
    if cache is None or not cache.current(geometry):
        encounter.drop_derived(_LayerCache)
        cache = encounter.derived(_LayerCache, lambda: _LayerCache(geometry))
    layers = cache.by_size.get(size)
    if layers is None:
        layers = _layers(geometry, size)
        if cache.current(geometry):  # kept only if the map did not change meanwhile
            cache.by_size[size] = layers
    return layers
