"""The walls as the players may know them: only the stretches beside cells they explored.

A wall is cut where it crosses a grid line, into pieces that each lie in one cell or along
the edge between two; a piece is shown when one of those cells is explored, and the shown
pieces of a wall are joined into runs. A long wall that the party saw one end of is sent
only as far as they saw it: where it goes in the fog (how long the corridor is, where it
turns) is the GM's.

>>> from core.model.mapmodel import WallSegment
>>> pieces = WallPieces.of([WallSegment(x1=2, y1=0, x2=2, y2=4)])
>>> explored = np.zeros((4, 4), dtype=bool)
>>> explored[0:2, 1] = True  # the two cells west of the wall's first half
>>> [(run.x1, run.y1, run.x2, run.y2) for run in pieces.runs(pieces.beside(explored))]
[(2.0, 0.0, 2.0, 2.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.model.mapmodel import WallSegment
from core.spatial.playerview import boxes_touch
from core.spatial.sweep import BoolArray


@dataclass(frozen=True)
class WallRun:
    """A shown stretch of ``wall`` (the ``index``-th of its set), from (x1, y1) to
    (x2, y2); ``first`` is the index of its first piece (no other run starts there)."""

    index: int
    first: int
    wall: WallSegment
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True, eq=False)  # one is the same as another only if it is that one
class WallPieces:
    """The pieces of a set of walls, made once per set: for each, its wall, where along it
    it starts and ends (0 to 1) and the cells it lies in or beside."""

    walls: tuple[WallSegment, ...]
    wall_of: npt.NDArray[np.intp]  # (n,)
    along: npt.NDArray[np.float64]  # (n, 2)
    cells: npt.NDArray[np.intp]  # (4, n): x0, y0, x1, y1 (end exclusive)
    ends: npt.NDArray[np.float64]  # (walls, 4): each wall's x1, y1, x2, y2

    @classmethod
    def of(cls, walls: Sequence[WallSegment]) -> WallPieces:
        cuts = [_cuts(wall) for wall in walls]
        wall_of = np.repeat(np.arange(len(walls)), [len(c) - 1 for c in cuts])
        along = np.concatenate([np.stack([c[:-1], c[1:]], axis=1) for c in cuts]
                               ) if cuts else np.zeros((0, 2))
        ends = np.array([w.points for w in walls], dtype=float).reshape(-1, 4)
        middle = along.mean(axis=1)
        piece_ends = ends[wall_of]
        mx = piece_ends[:, 0] + middle * (piece_ends[:, 2] - piece_ends[:, 0])
        my = piece_ends[:, 1] + middle * (piece_ends[:, 3] - piece_ends[:, 1])
        cells = np.stack([*_beside(mx), *_beside(my)])[[0, 2, 1, 3]]
        return cls(tuple(walls), wall_of, along, cells, ends)

    def beside(self, explored: BoolArray) -> BoolArray:
        """Per piece, whether it lies in or beside an explored cell."""
        if not len(self.wall_of):
            return np.zeros(0, dtype=bool)
        near: BoolArray = boxes_touch(explored, *self.cells)
        return near

    def runs(self, beside: BoolArray, walls: npt.NDArray[np.intp] | None = None
             ) -> list[WallRun]:
        """The runs of pieces ``beside`` (:meth:`beside`) of ``walls`` (indices; all when
        None), wall by wall in map order."""
        chosen = beside if walls is None else beside & np.isin(self.wall_of, walls)
        kept = np.flatnonzero(chosen)
        if not len(kept):
            return []
        breaks = np.flatnonzero((np.diff(kept) != 1)
                                | (np.diff(self.wall_of[kept]) != 0)) + 1
        firsts = kept[np.concatenate(([0], breaks))]
        lasts = kept[np.concatenate((breaks - 1, [len(kept) - 1]))]
        owners = self.wall_of[firsts]
        starts = self._points(owners, self.along[firsts, 0])
        ends = self._points(owners, self.along[lasts, 1])
        walls_of = self.walls
        return [WallRun(w, first, walls_of[w], *start, *end) for w, first, start, end in
                zip(owners.tolist(), firsts.tolist(), starts.tolist(), ends.tolist(),
                    strict=True)]

    def _points(self, owners: npt.NDArray[np.intp], along: npt.NDArray[np.float64]
                ) -> npt.NDArray[np.float64]:
        """The points ``along`` the walls ``owners`` (0: a wall's start), to a thousandth
        of a cell: (n, 2)."""
        ends = self.ends[owners]
        return np.round(ends[:, :2] + along[:, None] * (ends[:, 2:] - ends[:, :2]), 3)


def _cuts(wall: WallSegment) -> npt.NDArray[np.float64]:
    """Where along ``wall`` (0 to 1, in order) it crosses a grid line, with its two ends."""
    cuts = {0.0, 1.0}
    for a, b in ((wall.x1, wall.x2), (wall.y1, wall.y2)):
        if a != b:
            low, high = sorted((a, b))
            cuts.update((k - a) / (b - a) for k in range(math.ceil(low), math.floor(high) + 1))
    return np.array(sorted(c for c in cuts if 0 <= c <= 1))


def _beside(middle: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.intp], ...]:
    """The cells along one axis a piece with its middle there lies in (one), or beside when
    it runs along a grid line (the two either side)."""
    low = np.floor(middle)
    on_line = middle == low
    return (low - on_line).astype(np.intp), (low + 1).astype(np.intp)
