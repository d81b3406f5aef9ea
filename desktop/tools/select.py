"""Select and move: click a token to select it, drag to move it along the engine's path
(green when legal, red and returned when not), rubber-band to select several, Alt-drag to
place freely (GM override), click a door to open or close it, Delete to remove tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.commands import MoveToken, RemoveToken, toggle_door
from core.actions.round import RecordMovement
from core.model.grid import Cell, Footprint
from core.model.mapmodel import WallKind, WallSegment
from core.rules.timeline import segments_moving
from core.spatial.geometry import point_segment_distance
from core.spatial.pathing import MovementGraph, MovePath
from desktop.document import EncounterDocument
from desktop.items import TokenItem
from desktop.qt import QGraphicsView, QKeyEvent, QPointF, Qt
from desktop.tools.base import MapTool, ToolEvent

if TYPE_CHECKING:
    from desktop.scene import MapScene
    from desktop.view import MapView

DOOR_PICK_CELLS = 0.25


class _Drag:
    """One token drag in progress."""

    def __init__(self, leader: TokenItem, group: list[TokenItem], grab: QPointF,
                 graph: MovementGraph) -> None:
        self.leader, self.group, self.grab, self.graph = leader, group, grab, graph
        self.start = {item.token_id: item.token.cell for item in group}
        self.target: Cell = leader.token.cell
        self.path: MovePath | None = None
        self.free = False
        self.costs: dict[str, float] = {}  # feet each token's path costs (counted per round)


class SelectTool(MapTool):
    name = "select"
    label = "Select / Move"
    shortcut = "V"
    tooltip = ("Select and move tokens (V). Drag a token along a legal path; Alt-drag places "
               "it anywhere free (GM override); click a door to open or close it; Delete "
               "removes the selected tokens.")

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.budget_ft: float | None = None
        self._drag: _Drag | None = None

    def activate(self, view: MapView) -> None:
        super().activate(view)
        assert self.view is not None
        self.view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)

    def deactivate(self) -> None:
        if self.view is not None:
            self.view.setDragMode(QGraphicsView.DragMode.NoDrag)
        self._cancel()

    # --- press ---------------------------------------------------------------------------
    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        item = self._token_item_at(event.scene_pos)
        if item is None:
            door = self._door_at(event.scene_pos)
            if door is not None:
                self.document.push(toggle_door(door))
                return True
            return False  # the view starts a rubber band
        if not item.isSelected():
            if not event.modifiers & Qt.KeyboardModifier.ControlModifier:
                self.scene.clearSelection()
            item.setSelected(True)
        group = [i for i in self.scene.selectedItems() if isinstance(i, TokenItem)]
        graph = MovementGraph(self.document.encounter, item.token)
        self._drag = _Drag(item, group, event.scene_pos - item.pos(), graph)
        self._drag.free = event.alt
        return True

    def _token_item_at(self, point: QPointF) -> TokenItem | None:
        for item in self.scene.items(point):
            if isinstance(item, TokenItem):
                return item
        return None

    def _door_at(self, point: QPointF) -> WallSegment | None:
        gx, gy = self.renderer.to_grid(point)
        best: tuple[float, WallSegment] | None = None
        for wall in self.document.encounter.map.walls:
            if wall.kind is WallKind.DOOR:
                distance = point_segment_distance((gx, gy), wall.points)
                if distance <= DOOR_PICK_CELLS and (best is None or distance < best[0]):
                    best = (distance, wall)
        return best[1] if best else None

    # --- move ----------------------------------------------------------------------------
    def move(self, event: ToolEvent) -> bool:
        drag = self._drag
        if drag is None:
            return False
        drag.free = drag.free or event.alt  # Alt at any point makes it a GM placement
        top_left = event.scene_pos - drag.grab
        size = drag.leader.token.footprint.size
        centre = top_left + QPointF(self.renderer.length(size / 2), self.renderer.length(size / 2))
        target = self.renderer.anchor_for_centre(centre, size)
        if drag.free:
            self._place_group(drag, top_left, snap=False)
        if target != drag.target or drag.path is None:
            drag.target = target
            self._preview(drag)
        if not drag.free:
            self._place_group(drag, self.renderer.cell_rect(target).topLeft(), snap=True)
        return True

    def _place_group(self, drag: _Drag, leader_pos: QPointF, snap: bool) -> None:
        offset = leader_pos - self.renderer.cell_rect(drag.start[drag.leader.token_id]).topLeft()
        for item in drag.group:
            item.setPos(self.renderer.cell_rect(drag.start[item.token_id]).topLeft() + offset)

    def _preview(self, drag: _Drag) -> None:
        """Path and cost for the new cell: computed only when the pointer enters a cell."""
        preview = self.scene.path_preview
        if drag.free:
            legal = self._group_fits(drag)
            preview.show_path([], "GM override" if legal else "occupied", legal)
            return
        drag.path = drag.graph.path_to(drag.target, self.budget_ft)
        legal = drag.path.legal and self._group_fits(drag)
        size = drag.leader.token.footprint.size
        points = [self.renderer.footprint_centre(Footprint(c.x, c.y, size))
                  for c in drag.path.cells]
        if not drag.path.cells or drag.path.cells[-1] != drag.target:
            points.append(self.renderer.footprint_centre(Footprint(*drag.target, size)))
        segments = segments_moving(drag.path.cost_ft, self.document.encounter.profile)
        label = (f"{drag.path.cost_ft:g} ft · {segments} seg" if drag.path.legal
                 else drag.path.reason)
        if drag.path.legal and not legal:
            label = "another selected token cannot stand there"
        preview.show_path(points, label, legal)
        preview.setToolTip(label)

    def _targets(self, drag: _Drag) -> dict[str, Cell]:
        dx = drag.target.x - drag.start[drag.leader.token_id].x
        dy = drag.target.y - drag.start[drag.leader.token_id].y
        return {tid: Cell(c.x + dx, c.y + dy) for tid, c in drag.start.items()}

    def _group_fits(self, drag: _Drag) -> bool:
        encounter = self.document.encounter
        targets = self._targets(drag)
        moving = set(targets)
        footprints = []
        for tid, cell in targets.items():
            fp = Footprint(cell.x, cell.y, encounter.token(tid).footprint.size)
            if not encounter.map.contains_footprint(fp):
                return False
            if any(t.id not in moving for t in encounter.tokens_overlapping(fp)):
                return False
            footprints.append(fp)
        return not any(a.overlaps(b) for i, a in enumerate(footprints)
                       for b in footprints[i + 1:])

    # --- release -------------------------------------------------------------------------
    def release(self, event: ToolEvent) -> bool:
        drag, self._drag = self._drag, None
        if drag is None:
            return False
        drag.free = drag.free or event.alt
        self.scene.path_preview.hide()
        targets = self._targets(drag)
        if targets == drag.start:
            self._return(drag)
            return True
        if not self._drop_allowed(drag, targets):
            self._return(drag)
            return True
        label = f"Move {drag.leader.token.name}" if len(targets) == 1 else \
            f"Move {len(targets)} tokens"
        with self.document.macro(label):
            for tid in self._ordered(drag, targets):
                self.document.push(MoveToken(tid, targets[tid]))
                if drag.costs.get(tid):
                    self.document.push(RecordMovement(tid, drag.costs[tid]))
        return True

    def _drop_allowed(self, drag: _Drag, targets: dict[str, Cell]) -> bool:
        if not self._group_fits(drag):
            return False
        if drag.free:
            return True
        encounter = self.document.encounter
        for tid, cell in targets.items():
            graph = drag.graph if tid == drag.leader.token_id else \
                MovementGraph(encounter, encounter.token(tid))
            path = graph.path_to(cell, self.budget_ft)
            if not path.legal:
                return False
            drag.costs[tid] = path.cost_ft
        return True

    def _ordered(self, drag: _Drag, targets: dict[str, Cell]) -> list[str]:
        """The group moves by one translation: moving the front-most token first means each
        lands on cells already vacated."""
        leader = drag.leader.token_id
        dx, dy = targets[leader].x - drag.start[leader].x, targets[leader].y - drag.start[leader].y
        return sorted(targets, key=lambda tid: -(drag.start[tid].x * dx + drag.start[tid].y * dy))

    def _return(self, drag: _Drag) -> None:
        for item in drag.group:
            item.sync(self.document.encounter.token(item.token_id))

    def _cancel(self) -> None:
        if self._drag is not None:
            self._return(self._drag)
            self._drag = None
        self.scene.path_preview.hide()

    # --- keys ----------------------------------------------------------------------------
    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self._drag is not None:
            self._cancel()
            return True
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            selected = [i.token_id for i in self.scene.selectedItems()
                        if isinstance(i, TokenItem)]
            if selected:
                with self.document.macro(f"Remove {len(selected)} token(s)"):
                    for tid in selected:
                        self.document.push(RemoveToken(tid))
                return True
        return False
