"""Hazard tool: drag a rectangle of cells to create a hazard; click a hazard to edit or
delete it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.commands import ReplaceHazard
from core.spatial.geometry import geometry_of
from desktop.qt import QBrush, QColor, QGraphicsRectItem, QPen, Qt
from desktop.tools.base import MapTool, ToolContext
from desktop.tools.paint import rectangle_cells

if TYPE_CHECKING:
    from core.model.grid import Cell
    from core.model.mapmodel import Hazard
    from desktop.map.tool_events import ToolEvent


class HazardTool(MapTool):
    name = "hazard"
    label = "Hazards"
    shortcut = "Z"
    tooltip = ("Hazards (Z): drag over cells to create a pit, fire, cliff or spell area; "
               "click a hazard to edit or delete it.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self._anchor: Cell | None = None
        self._rect_item: QGraphicsRectItem | None = None

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        self._anchor = event.cell
        self._rect_item = self.scene.addRect(self.renderer.cell_rect(event.cell),
                                             QPen(QColor("white"), 2, Qt.PenStyle.DashLine),
                                             QBrush(QColor(230, 90, 20, 80)))
        self._rect_item.setZValue(60)
        return True

    def move(self, event: ToolEvent) -> bool:
        if self._anchor is None or self._rect_item is None:
            return False
        cells = rectangle_cells(self._anchor, event.cell)
        rect = self.renderer.cell_rect(min(cells)).united(self.renderer.cell_rect(max(cells)))
        self._rect_item.setRect(rect)
        return True

    def release(self, event: ToolEvent) -> bool:
        if self._anchor is None:
            return False
        anchor = self._anchor
        self.deactivate()
        existing = geometry_of(self.document.encounter).hazard_at(event.cell)
        if anchor == event.cell and existing is not None:
            self.edit(existing)
            return True
        battle_map = self.document.encounter.map
        cells = tuple(sorted(c for c in rectangle_cells(anchor, event.cell)
                             if battle_map.contains(c)))
        if cells:
            from desktop.dialogs.edits import HazardDialog  # when opened, as the window's dialogs

            dialog = HazardDialog(cells, parent=self.view)
            if dialog.exec() and dialog.result_hazard is not None:
                self.document.push(ReplaceHazard(None, dialog.result_hazard))
        return True

    def edit(self, hazard: Hazard) -> None:
        from desktop.dialogs.edits import HazardDialog

        dialog = HazardDialog(hazard.cells, hazard, parent=self.view)
        if not dialog.exec():
            return
        if dialog.deleted:
            self.document.push(ReplaceHazard(hazard, None))
        elif dialog.result_hazard is not None and dialog.result_hazard != hazard:
            self.document.push(ReplaceHazard(hazard, dialog.result_hazard))

    def deactivate(self) -> None:
        if self._rect_item is not None:
            self.scene.removeItem(self._rect_item)
        self._rect_item, self._anchor = None, None
