"""Cell painting tools: terrain and elevation, with a brush or a rectangle (hold Shift or
switch the mode). A brush stroke is one undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.commands import Command, PaintTerrain, SetElevation
from core.model.grid import Cell
from core.model.mapmodel import TERRAINS, Terrain
from desktop.map import style
from desktop.qt import (
    QBrush,
    QCheckBox,
    QColor,
    QComboBox,
    QGraphicsRectItem,
    QLabel,
    QPen,
    QRectF,
    QSpinBox,
    Qt,
    QWidget,
)
from desktop.tools.base import MapTool, ToolContext

if TYPE_CHECKING:
    from core.model.profile import RulesProfile
    from desktop.map.tool_events import ToolEvent


class CellPaintTool(MapTool):
    """Paints a value on cells under the pointer (brush) or over a dragged rectangle."""

    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.rectangle = False
        self.brush_size = 1
        self._stroke: int | None = None
        self._anchor: Cell | None = None
        self._rect_item: QGraphicsRectItem | None = None

    def command(self, cells: set[Cell]) -> Command:
        raise NotImplementedError

    def make_options(self) -> list[QWidget]:
        rectangle = QCheckBox("Rectangle")
        rectangle.setToolTip("Paint rectangles instead of brush strokes (or hold Shift while "
                             "dragging)")
        rectangle.toggled.connect(lambda on: setattr(self, "rectangle", on))
        brush = labelled_spin("Brush", (1, 9), self.brush_size, " cells", "Brush size")
        brush.valueChanged.connect(lambda value: setattr(self, "brush_size", value))
        return [rectangle, QLabel(" Brush "), brush]

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

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.terrain = Terrain.DIFFICULT

    def command(self, cells: set[Cell]) -> Command:
        return PaintTerrain(cells, self.terrain)

    def make_options(self) -> list[QWidget]:
        kinds = QComboBox()
        kinds.addItems([t.value for t in Terrain])
        kinds.setCurrentText(self.terrain.value)
        kinds.setToolTip("Terrain to paint")
        kinds.setAccessibleName("Terrain")
        kinds.currentTextChanged.connect(lambda text: setattr(self, "terrain", Terrain(text)))
        return [QLabel(" Terrain "), kinds, *super().make_options(),
                terrain_legend(self.document.encounter.profile)]

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

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.feet = 10

    def command(self, cells: set[Cell]) -> Command:
        return SetElevation(cells, self.feet)

    def make_options(self) -> list[QWidget]:
        feet = labelled_spin("Height", (-100, 200), self.feet, " ft", "Elevation to set")
        feet.setSingleStep(5)
        feet.valueChanged.connect(lambda value: setattr(self, "feet", value))
        return [QLabel(" Height "), feet, *super().make_options()]


def terrain_legend(profile: RulesProfile) -> QLabel:
    """What each terrain colour is; its effect under the encounter's rules in the tip."""
    cost = TERRAINS[Terrain.DIFFICULT].move_cost
    effects = {Terrain.DIFFICULT: f"movement ×{cost}, {profile.difficult_terrain_resist:+d} "
                                  "Shove Resist",
               Terrain.SLIPPERY: f"{profile.slippery_bonus_ft:+d} ft to every shove",
               Terrain.UNDERGROWTH: f"+{profile.concealment_percent}% cover against missiles"}
    swatches = [f'<span style="background-color: {style.TERRAIN_COLOURS[kind].name()}">'
                f"&nbsp;&nbsp;&nbsp;</span> {kind.value}" for kind in effects]
    legend = QLabel("  " + " &nbsp; ".join(swatches))
    legend.setToolTip("<br>".join(
        ["Terrain colours on the map (000 Terrain Modifiers to Force; 002 Cover & "
         "concealment); the numbers are Map > Rules settings:"]
        + [f"<b>{kind.value}</b>: {effect}" for kind, effect in effects.items()]))
    return legend


def labelled_spin(name: str, limits: tuple[int, int], value: int, suffix: str, tip: str
                  ) -> QSpinBox:
    """A spin box for a tool option (its accessible name is ``name``)."""
    box = QSpinBox()
    box.setRange(*limits)
    box.setValue(value)
    box.setSuffix(suffix)
    box.setToolTip(tip)
    box.setAccessibleName(name)
    return box
