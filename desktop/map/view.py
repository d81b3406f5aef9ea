"""The map view: pan (middle/right drag, space+drag, two-finger scroll or touch), zoom to the
cursor (wheel, pinch), fit to map, turn the map a quarter at a time; mouse, touch and key
events go to the active tool (touch through :class:`desktop.map.touch.TouchGestures`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map import style
from desktop.map.tool_events import ToolEvent, ViewTool
from desktop.map.touch import TouchGestures
from desktop.qt import (
    QApplication,
    QContextMenuEvent,
    QEvent,
    QGraphicsView,
    QKeyEvent,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QPoint,
    QPointF,
    QResizeEvent,
    Qt,
    QTimer,
    QWheelEvent,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from core.model.grid import Cell
    from desktop.map.scene import MapScene

MIN_ZOOM, MAX_ZOOM = 0.05, 8.0
MENU_SLOP_PX = 4
WHEEL_STEP = 1.0015  # per 1/8° of wheel rotation: one notch (120) ≈ ×1.2


class MapView(QGraphicsView):
    """A QGraphicsView of a :class:`MapScene` with GM-friendly navigation."""

    cell_hovered = Signal(object)  # Cell
    zoom_changed = Signal(float)
    token_menu_requested = Signal(str, QPoint)  # token id, global position
    cell_menu_requested = Signal(object, QPoint)  # an empty Cell, global position
    pressed = Signal()  # any click on the map (skips a running animation)
    released = Signal()  # the last button (or finger) of a press on the map came up
    resized = Signal()  # the view's size changed (the players' window refits to it)
    first_painted = Signal()  # once, when the paint pass of the map's first frame is over
    _painted = False  # a class default: Qt sends the viewport events before __init__ ends

    def __init__(self, scene: MapScene) -> None:
        super().__init__(scene)
        self.touch = TouchGestures(self, parent=self)
        # A viewport made here, not the one Qt made: PySide6 met that one as a bare QWidget
        # pointer and, to find its class, made the Python classes of every QWidget subclass
        # it had not made yet, with their enums (4 ms of the start).
        self.setViewport(QWidget())
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents)
        self.map_scene = scene
        self._announced_zoom: float | None = None
        self.zoom_changed.connect(self._note_zoom)
        self.zoom_changed.connect(scene.follow_zoom)
        self.tool: ViewTool | None = None
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # Always there: scroll bars that came and went as the zoom passed the map's size
        # resized the viewport in that wheel notch (the map jumped sideways by a bar's
        # width, and the notch laid out and painted the window twice).
        for policy in (self.setHorizontalScrollBarPolicy, self.setVerticalScrollBarPolicy):
            policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.setStyleSheet(style.MAP_SCROLL_BARS)
        corner = QWidget()  # where the bars meet, in their colour
        corner.setStyleSheet(f"background: {style.BACKGROUND.name()}")
        self.setCornerWidget(corner)
        self._pan_from: QPointF | None = None
        self._right_press: QPointF | None = None
        self._space_down = False
        self._last_cell: Cell | None = None
        # Fitted to the map until the GM zooms or pans: the window settling (maximised,
        # panels laid out, table mode) then keeps the whole map in view.
        self.fitted = False

    # --- tools ---------------------------------------------------------------------------
    def set_tool(self, tool: ViewTool) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        tool.activate()
        self.viewport().setCursor(tool.cursor)

    def _tool_event(self, event: QMouseEvent) -> ToolEvent:
        return self.tool_event_at(event.position(), event.button(), event.buttons(),
                                  event.modifiers())

    def tool_event_at(self, point: QPointF, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
                      buttons: Qt.MouseButton = Qt.MouseButton.LeftButton,
                      modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
                      ) -> ToolEvent:
        """A tool event at a viewport point (a mouse event's, or a finger's)."""
        scene_pos = self.mapToScene(point.toPoint())
        return ToolEvent(scene_pos, self.map_scene.renderer.cell_at(scene_pos), button,
                         buttons, modifiers)

    # --- zoom and turn -------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self.map_scene.renderer.zoom_of(self.transform())

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        """Zoom by ``factor`` about the pointer, or about the viewport point ``anchor`` (the
        middle of a pinch), which stays over the same spot of the map."""
        self.fitted = False
        target = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom * factor))
        factor = target / self.zoom
        self.map_scene.faces.zoom_moved()  # tokens borrow pictures until the zoom rests
        if anchor is None:
            self.scale(factor, factor)
        else:
            fixed = self.mapToScene(anchor.toPoint())
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
            self.scale(factor, factor)
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
            moved = QPointF(self.mapFromScene(fixed)) - anchor
            self.scroll_by(moved.x(), moved.y())
        self.zoom_changed.emit(self.zoom)

    def turn_to(self, quarter_turns: int) -> None:
        """Show the map turned by quarter turns clockwise, about the middle of the view."""
        centre = self.mapToScene(self.viewport().rect().center())
        renderer = self.map_scene.renderer
        renderer.turn_to(quarter_turns)
        self.setTransform(renderer.view_transform(self.zoom))
        self.centerOn(centre)
        self.map_scene.restyle_labels()
        self.zoom_changed.emit(self.zoom)

    def fit_map(self) -> None:
        """The whole map in view, as large as it fits; kept so as the view's size changes,
        until the GM zooms or pans."""
        enc = self.map_scene.encounter
        self.fitInView(self.map_scene.renderer.map_rect(enc.map.width, enc.map.height),
                       Qt.AspectRatioMode.KeepAspectRatio)
        self.fitted = True
        self.zoom_changed.emit(self.zoom)

    def centre_on_cell(self, cell: Cell) -> None:
        self.fitted = False
        self.centerOn(self.map_scene.renderer.cell_centre(cell))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.fitted:
            self.fit_map()
        self.resized.emit()

    def wheelEvent(self, event: QWheelEvent) -> None:
        pixels = event.pixelDelta()
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if not pixels.isNull() and not ctrl:
            # Two-finger scroll on a touchpad pans; a mouse wheel zooms.
            self.scroll_by(-pixels.x(), -pixels.y())
            return
        self.zoom_by(WHEEL_STEP ** event.angleDelta().y())

    def _note_zoom(self, zoom: float) -> None:
        self._announced_zoom = zoom

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.zoom != self._announced_zoom:
            # The transform changed without a word (setTransform, resetTransform, a first
            # show): the scene's level of detail must follow before this frame is drawn.
            self.zoom_changed.emit(self.zoom)
        if self.touch.handle(event):
            return True
        if (event.type() == QEvent.Type.NativeGesture and isinstance(event, QNativeGestureEvent)
                and event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture):
            self.zoom_by(1 + event.value())
            return True
        if event.type() == QEvent.Type.ToolTip and self.tool and self.tool.hides_map_tips():
            return True  # a GM's walk-through: a pit's tip sat over the shove's landing odds
        if not self._painted and event.type() == QEvent.Type.Paint:
            self._painted = True  # the rest of the window paints in the same pass: after it
            QTimer.singleShot(0, self, self.first_painted.emit)
        return super().viewportEvent(event)

    def scroll_by(self, dx: float, dy: float) -> None:
        """Move the map under the viewport by (dx, dy) screen pixels the other way."""
        self.fitted = False
        self.horizontalScrollBar().setValue(int(self.horizontalScrollBar().value() + dx))
        self.verticalScrollBar().setValue(int(self.verticalScrollBar().value() + dy))

    # --- mouse ---------------------------------------------------------------------------
    def _starts_pan(self, event: QMouseEvent) -> bool:
        return (event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton)
                and not (self.tool and self.tool.wants_right_button)) or (
            self._space_down and event.button() == Qt.MouseButton.LeftButton)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.pressed.emit()
        if self._starts_pan(event):
            self._pan_from = event.position()
            if event.button() == Qt.MouseButton.RightButton:
                self._right_press = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if self.tool is None or not self.tool.press(self._tool_event(event)):
            super().mousePressEvent(event)
        if QApplication.activePopupWidget() or QApplication.activeModalWidget():
            self.released.emit()  # the press opened a menu (a manoeuvre's): it takes the lift

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.scroll_by(-delta.x(), -delta.y())
            return
        tool_event = self._tool_event(event)
        if tool_event.cell != self._last_cell:
            self._last_cell = tool_event.cell
            self.cell_hovered.emit(tool_event.cell)
        if self.tool is None or not self.tool.move(tool_event):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        try:
            self._release(event)
        finally:  # after the drop's edit, or the menu or dialog the release opened
            if event.buttons() == Qt.MouseButton.NoButton:
                self.released.emit()

    def _release(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else
                                      Qt.CursorShape.ArrowCursor)
            self._maybe_token_menu(event)
            return
        if self.tool is None or not self.tool.release(self._tool_event(event)):
            super().mouseReleaseEvent(event)

    def _maybe_token_menu(self, event: QMouseEvent) -> None:
        """A right click that did not drag (pan) asks for the menu of the token under it,
        or of the empty cell."""
        pressed, self._right_press = self._right_press, None
        if pressed is None or (event.position() - pressed).manhattanLength() > MENU_SLOP_PX:
            return
        self.request_menu(event.position())

    def request_menu(self, point: QPointF) -> None:
        """Ask for the menu of the token at a viewport point, or of its empty cell (a right
        click, a long press)."""
        cell = self.tool_event_at(point).cell
        token = self.map_scene.encounter.token_at(cell)
        where = self.viewport().mapToGlobal(point.toPoint())
        if token is not None:
            self.token_menu_requested.emit(token.id, where)
        elif self.map_scene.encounter.map.contains(cell):
            self.cell_menu_requested.emit(cell, where)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        event.accept()  # token menus come from the right-button release above

    # --- keys ----------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if self.tool is not None and self.tool.key(event):
            return
        pan = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
               Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}.get(Qt.Key(event.key()))
        if pan is not None:
            step = self.viewport().width() / 8
            self.scroll_by(pan[0] * step, pan[1] * step)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
            self.viewport().setCursor(self.tool.cursor if self.tool else
                                      Qt.CursorShape.ArrowCursor)
            return
        super().keyReleaseEvent(event)
