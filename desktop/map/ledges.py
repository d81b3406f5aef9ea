"""Ledge lines: the edges between cells of different height, thick where the drop is a
cliff. Kept per square chunk of the map and built when a chunk is first drawn, so a brush
step rebuilds the one to four chunks whose heights it changed, not half a million edges."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from desktop.map import style
from desktop.qt import QPainter, QPainterPath, QPen

if TYPE_CHECKING:
    from desktop.map.renderer import MapRenderer

CHUNK = 16  # cells a side
STEP_CELLS, CLIFF_CELLS = 0.03, 0.08  # line widths
MIN_LINE_PX = 0.4  # thinner on screen: not drawn

Chunk = tuple[int, int]  # (column, row) of chunks


class Ledges:
    """The ledge lines of one map, following its heights (:meth:`follow`)."""

    def __init__(self, renderer: MapRenderer) -> None:
        self.renderer = renderer
        self._heights: np.ndarray | None = None
        self._threshold = 0.0
        self._paths: dict[Chunk, tuple[QPainterPath, QPainterPath]] = {}

    def follow(self, heights: np.ndarray, threshold: float) -> None:
        """Take the map's heights (and the least drop that is a cliff): the chunks where an
        edge may have changed are built again when next drawn."""
        old = self._heights
        if old is None or old.shape != heights.shape or threshold != self._threshold:
            self._paths.clear()
        else:
            ys, xs = np.nonzero(old != heights)
            # A cell owns the edges on its right and bottom: its left and upper
            # neighbours' chunks change with it.
            for x, y in zip(np.concatenate([xs, xs - 1, xs]).tolist(),
                            np.concatenate([ys, ys, ys - 1]).tolist(), strict=True):
                self._paths.pop((max(x, 0) // CHUNK, max(y, 0) // CHUNK), None)
        self._heights, self._threshold = heights.copy(), threshold

    def draw(self, painter: QPainter, cells: tuple[int, int, int, int]) -> None:
        """Draw the chunks over the cells x0 ≤ x < x1, y0 ≤ y < y1 (and the edges of the
        cells left of and above them, which their neighbours own)."""
        x0, y0, x1, y1 = cells
        if self._heights is None or x0 >= x1 or y0 >= y1:
            return
        x0, y0 = max(x0 - 1, 0), max(y0 - 1, 0)
        chunks = [(cx, cy) for cy in range(y0 // CHUNK, (y1 - 1) // CHUNK + 1)
                  for cx in range(x0 // CHUNK, (x1 - 1) // CHUNK + 1)]
        for cliff in (False, True):
            cells = CLIFF_CELLS if cliff else STEP_CELLS
            if self.renderer.on_screen(cells, painter.worldTransform()) < MIN_LINE_PX:
                continue  # zoomed out: a hair of a line, and the tint shows the heights
            colour = style.ELEVATION_UP.darker(160 if cliff else 110)
            painter.setPen(QPen(colour, self.renderer.length(cells)))
            for chunk in chunks:
                path = self._chunk(chunk)[cliff]
                if not path.isEmpty():  # most of a map is flat: no stroke at all
                    painter.drawPath(path)

    def _chunk(self, chunk: Chunk) -> tuple[QPainterPath, QPainterPath]:
        paths = self._paths.get(chunk)
        if paths is None:
            paths = self._paths[chunk] = self._build(chunk)
        return paths

    def _build(self, chunk: Chunk) -> tuple[QPainterPath, QPainterPath]:
        """Steps and cliffs along the right and bottom edges of the chunk's cells."""
        assert self._heights is not None
        feet = self._heights
        cx, cy = chunk
        x0, y0 = cx * CHUNK, cy * CHUNK
        window = feet[y0:y0 + CHUNK + 1, x0:x0 + CHUNK + 1]
        right = np.abs(np.diff(window, axis=1))[:CHUNK, :CHUNK]
        below = np.abs(np.diff(window, axis=0))[:CHUNK, :CHUNK]
        paths = (QPainterPath(), QPainterPath())
        px = self.renderer.cell_px
        for drops, (dx0, dy0, dx1, dy1) in ((right, (1, 0, 1, 1)), (below, (0, 1, 1, 1))):
            for y, x in zip(*np.nonzero(drops), strict=True):
                path = paths[bool(drops[y, x] >= self._threshold)]
                gx, gy = x0 + int(x), y0 + int(y)
                path.moveTo((gx + dx0) * px, (gy + dy0) * px)
                path.lineTo((gx + dx1) * px, (gy + dy1) * px)
        return paths
