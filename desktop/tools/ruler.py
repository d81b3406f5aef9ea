"""Ruler tool: click to start and to add waypoints; the route follows the pointer, measured
along the grid by the diagonal rule with the segments it takes (core.rules.measure). Esc
clears it. Measuring changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.rules.measure import measure
from desktop.map import style
from desktop.map.labels import ScreenLabel
from desktop.qt import (
    QGraphicsPathItem,
    QKeyEvent,
    QPainterPath,
    QPen,
    QPointF,
    Qt,
)
from desktop.tools.base import MapTool, ToolContext

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet
    from core.model.grid import Cell
    from desktop.map.tool_events import ToolEvent

Z_RULER = 55


class RulerTool(MapTool):
    name = "ruler"
    label = "Ruler"
    shortcut = "R"
    tooltip = ("Ruler (R): click to start, click again for each waypoint; the distance by the "
               "diagonal rule and the segments it takes follow the pointer. Esc clears.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.waypoints: list[Cell] = []
        self.pointer: Cell | None = None
        self.line = QGraphicsPathItem()
        self.line.setZValue(Z_RULER)
        self.readout = ScreenLabel(colour=style.RULER.darker(140))
        self.readout.setZValue(Z_RULER + 1)
        for item in (self.line, self.readout):
            item.hide()
            self.scene.addItem(item)

    def deactivate(self) -> None:
        self.clear()

    def follow(self, changes: ChangeSet) -> None:
        if changes.map_shape:
            self.clear()

    def clear(self) -> None:
        self.waypoints, self.pointer = [], None
        self.line.hide()
        self.readout.hide()

    def route(self) -> list[Cell]:
        """The waypoints and, at the end, the cell under the pointer."""
        tail = [self.pointer] if self.pointer is not None else []
        return [*self.waypoints, *tail]

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        self.waypoints.append(event.cell)
        self._draw()
        return True

    def move(self, event: ToolEvent) -> bool:
        if not self.waypoints:
            return False
        if event.cell != self.pointer:
            self.pointer = event.cell
            self._draw()
        return True

    def _draw(self) -> None:
        route = self.route()
        path = QPainterPath(self.renderer.cell_centre(route[0]))
        for cell in route[1:]:
            path.lineTo(self.renderer.cell_centre(cell))
        self.line.setPath(path)
        pen = QPen(style.RULER, 3 * style.ui_scale())  # thicker on a table screen
        pen.setCosmetic(True)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        self.line.setPen(pen)
        result = measure(route, self.document.encounter.profile)
        self.readout.set_text(result.describe())
        self.readout.place(self.renderer.cell_centre(route[-1]), QPointF(14, -18))
        self.line.show()
        self.readout.show()
        self.say(f"Ruler: {result.describe()} — click to add a waypoint, Esc to clear")

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self.waypoints:
            self.clear()
            self.say(self.tooltip)
            return True
        return False
