"""Select and move: click a token to select it, drag to move it along the engine's path
(green when legal, red and returned when not), rubber-band to select several, Alt-drag to
place freely (GM override), click a door to open or close it, Delete to remove tokens.
The move itself is the core's move action: legality and the feet counted are decided there.
A single token's drag may be a manoeuvre instead (:mod:`desktop.tools.drag_rulings`): a
straight line through an enemy offers an overrun (Shift-drag goes around), and during a
round a path past enemies rolls its evade checks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.base import plan
from core.actions.commands import ChangeSet, RemoveToken, toggle_door
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.model.mapmodel import WallKind, WallSegment
from core.rules.timeline import segments_moving
from core.spatial.geometry import point_segment_distance
from desktop.map.items import TokenItem
from desktop.qt import (
    QGraphicsView,
    QKeyEvent,
    QLabel,
    QPointF,
    QSignalBlocker,
    QSpinBox,
    Qt,
    QWidget,
)
from desktop.tools.base import MapTool, ToolContext
from desktop.tools.drag_rulings import DragRulings, Ruling
from desktop.tools.paint import labelled_spin

if TYPE_CHECKING:
    from core.actions.move import MovePlan
    from core.model.encounter import Encounter
    from core.spatial.pathing import MovementGraph, MovePath
    from desktop.map.tool_events import ToolEvent

DOOR_PICK_CELLS = 0.25
_Preview = tuple[list[QPointF], str, bool, str]  # a path's points, label, legality, tip


class _Drag:
    """One token drag in progress."""

    def __init__(self, leader: TokenItem, group: list[TokenItem], grab: QPointF,
                 encounter: Encounter) -> None:
        self.leader, self.group, self.grab = leader, group, grab
        self.encounter = encounter
        self._graph: MovementGraph | None = None
        self.start = {item.token_id: item.token.cell for item in group}
        self.target: Cell = leader.token.cell
        self.path: MovePath | None = None
        self.free = False
        self.around = False  # Shift: walk around an enemy in the way, no overrun
        self.narrowed = False  # a selection left behind, and the status bar says why
        self.ruled = False  # the status bar says what the drop would ask (evade checks...)

    @property
    def graph(self) -> MovementGraph:
        """The leader's movement graph, built at the first move: a click that only selects
        needs none (0.7 ms of a press on the 300×300 benchmark map)."""
        if self._graph is None:
            from core.spatial.pathing import movement_graph  # see desktop/__init__

            self._graph = movement_graph(self.encounter, self.leader.token)
        return self._graph

    def targets(self) -> dict[str, Cell]:
        """Every dragged token's new top-left cell: the leader's move, for each."""
        leader = self.start[self.leader.token_id]
        dx, dy = self.target.x - leader.x, self.target.y - leader.y
        return {tid: Cell(c.x + dx, c.y + dy) for tid, c in self.start.items()}


class SelectTool(MapTool):
    name = "select"
    label = "Select / Move"
    shortcut = "V"
    tooltip = ("Select and move tokens (V). Drag a token along a legal path; Alt-drag places "
               "it anywhere free (GM override); click a door to open or close it; Delete "
               "removes the selected tokens.")

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.budget_ft: float | None = None
        self._drag: _Drag | None = None
        self.rulings = DragRulings(context)

    def make_options(self) -> list[QWidget]:
        budget: QSpinBox = labelled_spin(
            "Move budget", (0, 300), 0, " ft", "Movement budget while dragging tokens "
            "(0 = no limit); paths beyond it turn red")
        budget.setSpecialValueText("no budget")
        budget.setSingleStep(5)
        budget.valueChanged.connect(
            lambda value: setattr(self, "budget_ft", float(value) if value else None))
        return [QLabel(" Move budget "), budget]

    def activate(self) -> None:
        super().activate()
        self.view.setDragMode(QGraphicsView.DragMode.RubberBandDrag)

    def deactivate(self) -> None:
        self.view.setDragMode(QGraphicsView.DragMode.NoDrag)
        self._cancel()

    def reset(self) -> None:
        """A different encounter: a drag in progress is over (its items are gone)."""
        self._drag = None
        self.scene.path_preview.hide()
        self.rulings.clear()

    def follow(self, changes: ChangeSet) -> None:
        if self._drag is not None and changes.tokens & set(self._drag.start):
            self._cancel()

    # --- press ---------------------------------------------------------------------------
    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        item = self._token_item_at(event.cell)
        if item is None:
            door = self._door_at(event.scene_pos)
            if door is not None:  # said, so the last drag's refusal does not stay
                if self.document.push(toggle_door(door)):
                    self.report("Door closed" if door.open else "Door opened")
                return True
            return False  # the view starts a rubber band
        if not item.isSelected():
            self._select(item, alone=not event.modifiers & Qt.KeyboardModifier.ControlModifier)
        group = [i for i in self.scene.selectedItems() if isinstance(i, TokenItem)]
        in_round = bool(self.document.encounter.timeline.entries)
        narrowed = len(group) > 1 and not event.alt and in_round
        if narrowed:
            group = self._alone(item)
        else:  # the last drop's words (a refusal) are not about this drag
            self.report("")
        self._drag = _Drag(item, group, event.scene_pos - item.pos(), self.document.encounter)
        self._drag.free, self._drag.narrowed = event.alt, narrowed
        return True

    def _alone(self, item: TokenItem) -> list[TokenItem]:
        """During a round each creature moves in its own segments, rolling its own evade
        checks: a plain drag takes only the token under the pointer (Alt places a group)."""
        self._select(item, alone=True)
        self.report("During a round tokens move one at a time (each rolls its own evade "
                    "checks); Alt-drag places a whole selection")
        return [item]

    def _select(self, item: TokenItem, alone: bool) -> None:
        """Select ``item`` (and only it when ``alone``) as one change: the panels follow
        the selection once, not once for the emptied selection and again."""
        if alone:
            blocker = QSignalBlocker(self.scene)
            for other in self.scene.selectedItems():
                if other is not item:
                    other.setSelected(False)
            blocker.unblock()
        if item.isSelected():
            self.scene.selectionChanged.emit()  # what was cleared unannounced
        else:
            item.setSelected(True)

    def _token_item_at(self, cell: Cell) -> TokenItem | None:
        """The token at the pointer, from the encounter's cell index: a scene query at a
        point asks every label on the map where it is (a thousand on a big map)."""
        token = self.document.encounter.token_at(cell)
        return None if token is None else self.scene.tokens.get(token.id)

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
        if event.shift != drag.around:
            drag.around, drag.path = event.shift, None
        top_left = event.scene_pos - drag.grab
        size = drag.leader.token.footprint.size
        centre = top_left + QPointF(self.renderer.length(size / 2), self.renderer.length(size / 2))
        target = self.renderer.anchor_for_centre(centre, size)
        if drag.free:
            self._place_group(drag, top_left)
        if target != drag.target or drag.path is None:
            drag.target = target
            self._preview(drag)
        if not drag.free:
            self._place_group(drag, self.renderer.cell_rect(target).topLeft())
        return True

    def _place_group(self, drag: _Drag, leader_pos: QPointF) -> None:
        offset = leader_pos - self.renderer.cell_rect(drag.start[drag.leader.token_id]).topLeft()
        for item in drag.group:
            item.show_at(self.renderer.cell_rect(drag.start[item.token_id]).topLeft() + offset)

    def _preview(self, drag: _Drag) -> None:
        """Path and cost for the new cell: computed only when the pointer enters a cell.
        Whether the drag is a manoeuvre (an overrun, evade checks) may come a moment
        later, from the odds worker."""
        from core.actions.move import placement_problem  # see desktop/__init__

        preview = self.scene.path_preview
        problem = placement_problem(self.document.encounter, drag.targets())
        if drag.free:
            preview.show_path([], problem or "GM override", problem is None)
            return
        drag.path = drag.graph.path_to(drag.target, self.budget_ft)
        plain = self._plain(drag, problem)
        points, label = plain[0], plain[1]
        if len(drag.group) > 1:
            self._show_preview(*plain)
            return
        target, cost_legal = drag.target, drag.path.legal

        def show(ruling: Ruling | None) -> None:
            if self._drag is not drag or drag.target != target:
                return  # the pointer has moved on
            if ruling is None:
                self._show_plain(drag, plain)
                return
            drag.ruled = True
            self.report(ruling.tip)
            # The cost stays in sight beside what the drop will ask (evade checks); not
            # beside an overrun, which ends past the enemy (a GM's walk-through read
            # "20 ft · overrun" and saw the mover stop 10 ft on).
            walks_there = cost_legal and not ruling.straight
            self._show_preview([points[0], points[-1]] if ruling.straight else points,
                               f"{label} · {ruling.label}" if walks_there else ruling.label,
                               ruling.legal, ruling.tip)

        if not self.rulings.preview(drag.leader.token_id, target, drag.path,
                                    around=drag.around, budget_ft=self.budget_ft, show=show):
            self._show_plain(drag, plain)

    def _plain(self, drag: _Drag, problem: str | None) -> _Preview:
        """The drag's path with its cost or why it is refused, and the hazards it crosses."""
        assert drag.path is not None
        points = self.renderer.path_points(drag.path, drag.leader.token.footprint.size,
                                           drag.target)
        label = self._cost(drag.path.cost_ft) if drag.path.legal else drag.path.reason
        legal = drag.path.legal and problem is None
        if drag.path.legal and problem and len(drag.group) > 1:
            label = f"another selected token cannot stand there: {problem}"
        crossed = drag.graph.hazards_entered(drag.path) if drag.path.legal else ()
        if not crossed:
            return points, label, legal, label
        names = ", ".join(crossed)  # a GM's drag walked Mira through the spiked pit unsaid
        label = f"{label} · through {names}"
        return points, label, legal, (f"{label}: a move by hand rolls nothing for {names} "
                                      "(only forced movement rolls the Pit-Stop save); drag "
                                      "around to keep out")

    def _show_plain(self, drag: _Drag, plain: _Preview) -> None:
        """A path the drop would ask nothing about: what the status bar said a cell ago
        about evade checks or an overrun goes."""
        if drag.ruled:
            drag.ruled = False
            self.report("")
        self._show_preview(*plain)

    def _show_preview(self, points: list[QPointF], label: str, legal: bool, tip: str) -> None:
        preview = self.scene.path_preview
        preview.show_path(points, label, legal)
        preview.setToolTip(tip)
        preview.label.keep_in_view(self.view)

    # --- release -------------------------------------------------------------------------
    def release(self, event: ToolEvent) -> bool:
        drag, self._drag = self._drag, None
        if drag is None:
            return False
        drag.free = drag.free or event.alt
        if event.shift != drag.around and not drag.free:
            drag.around = event.shift
            self._preview(drag)
        self.scene.path_preview.hide()
        targets = drag.targets()
        if targets == drag.start:
            self._return(drag)
            return True
        if not drag.free and self.rulings.settle() is not None:
            self._return(drag)
            self.rulings.drop()
            return True
        self.rulings.clear()
        self._drop(drag, targets)
        return True

    def _drop(self, drag: _Drag, targets: dict[str, Cell]) -> None:
        """Move the dragged tokens to ``targets`` as one ruled action, or put them back
        with the reason it was refused."""
        from core.actions.move import MoveAction  # see desktop/__init__
        from core.spatial.pathing import IllegalMoveError

        action = MoveAction(targets, drag.free, self.budget_ft)
        try:
            outcome = plan(action, self.document.encounter, ScriptedDice([]))
        except IllegalMoveError as error:
            self.report(str(error))
            self._return(drag)
            return
        if not self.document.perform(outcome):
            self._return(drag)
        elif not drag.narrowed:  # else why the others stayed is worth more
            self.report(self._moved(outcome.summary, outcome.result))

    def _moved(self, summary: str, moved: MovePlan) -> str:
        """What a drop did, for the status bar (in place of a refusal of an earlier drag):
        "Move Brannoc: 10 ft · 2 seg"; a GM placement has no path."""
        if len(moved.paths) != 1:
            return summary
        return f"{summary}: {self._cost(next(iter(moved.paths.values())).cost_ft)}"

    def _cost(self, feet: float) -> str:
        """A path's cost as the preview and the status bar give it: "10 ft · 2 seg"."""
        return f"{feet:g} ft · {segments_moving(feet, self.document.encounter.profile)} seg"

    def _return(self, drag: _Drag) -> None:
        for item in drag.group:
            if self.document.encounter.has_token(item.token_id):
                item.sync(self.document.encounter.token(item.token_id))

    def _cancel(self) -> None:
        if self._drag is not None:
            self._return(self._drag)
            self._drag = None
        self.scene.path_preview.hide()
        self.rulings.clear()

    # --- keys ----------------------------------------------------------------------------
    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self._drag is not None:
            self._cancel()
            self.report("")  # nothing the drag's preview said holds any more
            return True
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            selected = [i.token_id for i in self.scene.selectedItems()
                        if isinstance(i, TokenItem)]
            if selected:
                what = (self.document.encounter.token(selected[0]).name if len(selected) == 1
                        else f"{len(selected)} tokens")
                with self.document.group(f"Remove {what}"):
                    for tid in selected:
                        self.document.push(RemoveToken(tid))
                self.report(f"Removed {what} (Undo, Ctrl+Z, puts "
                            f"{'it' if len(selected) == 1 else 'them'} back)")
                return True
        return False
