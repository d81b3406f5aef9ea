"""The one owner of cell ↔ scene ↔ screen conversions (as Tiled's MapRenderer): nothing else
in the desktop multiplies by the cell size or turns the map. A view shows the map turned by
a quarter turns (0–3, clockwise, so players across the table read it) at some zoom; labels
drawn in screen pixels turn with it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.model.grid import Cell, Footprint
from desktop.qt import QPointF, QRectF, QTransform

if TYPE_CHECKING:
    from core.spatial.pathing import MovePath

CELL_PX = 50.0
QUARTER_TURNS = 4


class MapRenderer:
    """Scene coordinates are pixels at zoom 1: cell (x, y) spans x·CELL_PX … (x+1)·CELL_PX."""

    def __init__(self, cell_px: float = CELL_PX) -> None:
        self.cell_px = cell_px
        self.quarter_turns = 0

    # --- the view: zoom and turn ---------------------------------------------------------
    @property
    def degrees(self) -> int:
        return 90 * self.quarter_turns

    def turn_to(self, quarter_turns: int) -> None:
        self.quarter_turns = quarter_turns % QUARTER_TURNS

    def view_transform(self, zoom: float) -> QTransform:
        """Scene → viewport (before scrolling): turned, then scaled."""
        return QTransform().rotate(self.degrees) * QTransform.fromScale(zoom, zoom)

    @staticmethod
    def zoom_of(transform: QTransform) -> float:
        """Screen pixels per scene pixel of a (turned, scaled) transform."""
        return math.hypot(transform.m11(), transform.m12())

    def label_transform(self) -> QTransform:
        """The turn of a label drawn in screen pixels, so it reads along with the map."""
        return QTransform().rotate(self.degrees)

    def on_screen(self, cells: float, transform: QTransform) -> float:
        """A length in grid units as screen pixels under ``transform``."""
        return self.length(cells) * self.zoom_of(transform)

    def to_scene(self, x: float, y: float) -> QPointF:
        """A point in grid units (cell corners are integers) in scene pixels."""
        return QPointF(x * self.cell_px, y * self.cell_px)

    def to_grid(self, point: QPointF) -> tuple[float, float]:
        return point.x() / self.cell_px, point.y() / self.cell_px

    def cell_at(self, point: QPointF) -> Cell:
        return Cell(math.floor(point.x() / self.cell_px), math.floor(point.y() / self.cell_px))

    def nearest_corner(self, point: QPointF) -> tuple[int, int]:
        return round(point.x() / self.cell_px), round(point.y() / self.cell_px)

    def cell_rect(self, cell: Cell) -> QRectF:
        return QRectF(cell.x * self.cell_px, cell.y * self.cell_px, self.cell_px, self.cell_px)

    def cell_centre(self, cell: Cell) -> QPointF:
        return QPointF((cell.x + 0.5) * self.cell_px, (cell.y + 0.5) * self.cell_px)

    def footprint_rect(self, footprint: Footprint) -> QRectF:
        side = footprint.size * self.cell_px
        return QRectF(footprint.x * self.cell_px, footprint.y * self.cell_px, side, side)

    def footprint_centre(self, footprint: Footprint) -> QPointF:
        cx, cy = footprint.centre
        return self.to_scene(cx, cy)

    def path_points(self, path: MovePath, size: int, target: Cell) -> list[QPointF]:
        """The centres of a ``size`` footprint at each turn of ``path``, and at ``target``
        when the path stops short of it (a refused drag)."""
        points = [self.footprint_centre(Footprint(x, y, size))
                  for x, y in path.turns().tolist()]
        if path.end != target:
            points.append(self.footprint_centre(Footprint(*target, size)))
        return points

    def anchor_for_centre(self, point: QPointF, size: int) -> Cell:
        """The top-left cell of a size×size footprint whose centre is nearest ``point``."""
        gx, gy = self.to_grid(point)
        return Cell(round(gx - size / 2), round(gy - size / 2))

    def cell_range(self, rect: QRectF, width: int, height: int) -> tuple[int, int, int, int]:
        """Cells x0 ≤ x < x1, y0 ≤ y < y1 of a width × height map that ``rect`` touches."""
        first, last = self.cell_at(rect.topLeft()), self.cell_at(rect.bottomRight())
        return (max(first.x, 0), max(first.y, 0), min(last.x + 1, width),
                min(last.y + 1, height))

    def map_rect(self, width: int, height: int) -> QRectF:
        return QRectF(0, 0, width * self.cell_px, height * self.cell_px)

    def length(self, cells: float) -> float:
        """A length in grid units as scene pixels."""
        return cells * self.cell_px
