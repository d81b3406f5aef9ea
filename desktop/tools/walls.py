"""Wall, door and eraser tools. Walls and doors snap to grid points; Shift keeps them
horizontal or vertical."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.commands import ReplaceWalls
from core.model.mapmodel import WallKind, WallSegment
from core.spatial.geometry import point_segment_distance
from desktop.map import style
from desktop.qt import QGraphicsLineItem, QKeyEvent, QPen, QPointF, Qt
from desktop.tools.base import MapTool, ToolContext

if TYPE_CHECKING:
    from desktop.map.tool_events import ToolEvent

ERASE_PICK_CELLS = 0.3


class WallTool(MapTool):
    name = "wall"
    label = "Draw walls"
    shortcut = "W"
    tooltip = ("Draw walls (W): drag from one grid point to another. Shift keeps the wall "
               "straight; Esc cancels.")
    cursor = Qt.CursorShape.CrossCursor
    kind = WallKind.WALL

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._start: tuple[int, int] | None = None
        self._line: QGraphicsLineItem | None = None

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        self._start = self.renderer.nearest_corner(event.scene_pos)
        pen = QPen(style.WALL_COLOURS[self.kind], self.renderer.length(style.WALL_WIDTH_CELLS))
        pen.setStyle(Qt.PenStyle.DashLine)
        start = self.renderer.to_scene(*self._start)
        self._line = self.scene.addLine(start.x(), start.y(), start.x(), start.y(), pen)
        self._line.setZValue(60)
        return True

    def _end(self, event: ToolEvent) -> tuple[int, int]:
        assert self._start is not None
        x, y = self.renderer.nearest_corner(event.scene_pos)
        if event.shift:
            if abs(x - self._start[0]) >= abs(y - self._start[1]):
                y = self._start[1]
            else:
                x = self._start[0]
        return x, y

    def move(self, event: ToolEvent) -> bool:
        if self._start is None or self._line is None:
            return False
        start, end = self.renderer.to_scene(*self._start), self.renderer.to_scene(*self._end(event))
        self._line.setLine(start.x(), start.y(), end.x(), end.y())
        return True

    def release(self, event: ToolEvent) -> bool:
        if self._start is None:
            return False
        end, start = self._end(event), self._start
        self.deactivate()
        if end != start:
            wall = WallSegment(x1=start[0], y1=start[1], x2=end[0], y2=end[1], kind=self.kind)
            self.document.push(ReplaceWalls([wall], [], f"Draw {self.kind.value}"))
        return True

    def deactivate(self) -> None:
        if self._line is not None:
            self.scene.removeItem(self._line)
        self._line, self._start = None, None

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self._start:
            self.deactivate()
            return True
        return False


class DoorTool(WallTool):
    name = "door"
    label = "Draw doors"
    shortcut = "D"
    tooltip = "Draw doors (D): drag across a doorway between grid points. Click a door with "\
              "the select tool to open or close it."
    kind = WallKind.DOOR


class EraseTool(MapTool):
    name = "erase"
    label = "Erase walls"
    shortcut = "E"
    tooltip = "Erase walls and doors (E): click or drag over them."
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._stroke: int | None = None

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        self._stroke = self.document.new_merge_key()
        self._erase_at(event.scene_pos)
        return True

    def move(self, event: ToolEvent) -> bool:
        if self._stroke is None:
            return False
        self._erase_at(event.scene_pos)
        return True

    def release(self, event: ToolEvent) -> bool:
        if self._stroke is None:
            return False
        self._stroke = None
        return True

    def _erase_at(self, point: QPointF) -> None:
        gx, gy = self.renderer.to_grid(point)
        hits = [w for w in self.document.encounter.map.walls
                if point_segment_distance((gx, gy), w.points) <= ERASE_PICK_CELLS]
        if hits:
            assert self._stroke is not None
            self.document.push(ReplaceWalls([], hits, "Erase walls", merges=True), self._stroke)
