"""Cell painting tools: terrain and elevation, with a brush or a rectangle (hold Shift or
switch the mode). A brush stroke is one undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.commands import Command, PaintTerrain, SetElevation
from core.model.grid import Cell
from core.model.mapmodel import Terrain
from desktop import style
from desktop.document import EncounterDocument
from desktop.qt import QBrush, QColor, QGraphicsRectItem, QPen, QRectF, Qt
from desktop.tools.base import MapTool, ToolEvent

if TYPE_CHECKING:
    from desktop.scene import MapScene


class CellPaintTool(MapTool):
    """Paints a value on cells under the pointer (brush) or over a dragged rectangle."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.rectangle = False
        self.brush_size = 1
        self._stroke: int | None = None
        self._anchor: Cell | None = None
        self._rect_item: QGraphicsRectItem | None = None

    def command(self, cells: set[Cell]) -> Command:
        raise NotImplementedError

    def preview_colour(self) -> QColor:
        return QColor(255, 255, 255, 90)

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        if self.rectangle or event.shift:
            self._anchor = event.cell
            self._rect_item = self.scene.addRect(self._cells_rect(event.cell, event.cell),
                                                 QPen(QColor("white"), 2, Qt.PenStyle.DashLine),
                                                 QBrush(self.preview_colour()))
            self._rect_item.setZValue(60)
        else:
            self._stroke = self.document.new_merge_key()
            self._paint(self._brush_cells(event.cell))
        return True

    def move(self, event: ToolEvent) -> bool:
        if self._anchor is not None and self._rect_item is not None:
            self._rect_item.setRect(self._cells_rect(self._anchor, event.cell))
            return True
        if self._stroke is not None:
            self._paint(self._brush_cells(event.cell))
            return True
        return False

    def release(self, event: ToolEvent) -> bool:
        if self._anchor is not None:
            cells = rectangle_cells(self._anchor, event.cell)
            self.deactivate()
            self._stroke = self.document.new_merge_key()
            self._paint(cells)
            self._stroke = None
            return True
        if self._stroke is not None:
            self._stroke = None
            return True
        return False

    def deactivate(self) -> None:
        if self._rect_item is not None:
            self.scene.removeItem(self._rect_item)
        self._rect_item, self._anchor, self._stroke = None, None, None

    def _paint(self, cells: set[Cell]) -> None:
        battle_map = self.document.encounter.map
        inside = {c for c in cells if battle_map.contains(c)}
        if inside:
            assert self._stroke is not None
            self.document.push(self.command(inside), self._stroke)

    def _brush_cells(self, centre: Cell) -> set[Cell]:
        half = self.brush_size // 2
        return {Cell(centre.x + dx, centre.y + dy)
                for dx in range(-half, self.brush_size - half)
                for dy in range(-half, self.brush_size - half)}

    def _cells_rect(self, a: Cell, b: Cell) -> QRectF:
        return self.renderer.cell_rect(Cell(min(a.x, b.x), min(a.y, b.y))).united(
            self.renderer.cell_rect(Cell(max(a.x, b.x), max(a.y, b.y))))


def rectangle_cells(a: Cell, b: Cell) -> set[Cell]:
    return {Cell(x, y) for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
            for y in range(min(a.y, b.y), max(a.y, b.y) + 1)}


class TerrainTool(CellPaintTool):
    name = "terrain"
    label = "Paint terrain"
    shortcut = "T"
    tooltip = ("Paint terrain (T): drag to paint the chosen kind; Shift+drag (or rectangle "
               "mode) fills a rectangle.")

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.terrain = Terrain.DIFFICULT

    def command(self, cells: set[Cell]) -> Command:
        return PaintTerrain(cells, self.terrain)

    def preview_colour(self) -> QColor:
        colour = QColor(style.TERRAIN_COLOURS[self.terrain])
        colour.setAlpha(max(colour.alpha(), 60))
        return colour


class ElevationTool(CellPaintTool):
    name = "elevation"
    label = "Set elevation"
    shortcut = "H"
    tooltip = ("Set elevation (H): drag to set cells to the chosen height in feet; "
               "Shift+drag (or rectangle mode) fills a rectangle.")

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.feet = 10

    def command(self, cells: set[Cell]) -> Command:
        return SetElevation(cells, self.feet)
