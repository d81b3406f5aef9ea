"""Touch on the map, for a screen laid on the table.

- One finger uses the active tool, as the left mouse button would: drag a token, paint, set
  waypoints. Where the tool takes nothing (empty floor under Select / Move) it pans.
- A tap is a click; a long press opens the menu of the token (or the empty cell) under the
  finger, as a right click does.
- Two fingers pinch to zoom about their middle and move together to pan; a tool gesture
  already begun is dropped, as Esc would.

A finger does nothing until it has moved a little (``SLOP_MM``), been lifted (a tap) or
been held (a long press), so a press never starts a drag it was not meant to.
"""

from __future__ import annotations

import math
from enum import Enum, auto
from typing import TYPE_CHECKING, Protocol

from desktop.qt import QEvent, QEventPoint, QObject, QPointF, Qt, QTimer, QTouchEvent

if TYPE_CHECKING:
    from desktop.map.tool_events import ToolEvent, ViewTool
    from desktop.qt import QGraphicsScene, SignalInstance

LONG_PRESS_MS = 600
SLOP_MM = 2.5
MM_PER_INCH = 25.4
TOUCH_EVENTS = (QEvent.Type.TouchBegin, QEvent.Type.TouchUpdate, QEvent.Type.TouchEnd,
                QEvent.Type.TouchCancel)


class Gesture(Enum):
    PENDING = auto()  # one finger down, not yet a tap, a drag or a long press
    TOOL = auto()  # one finger driving the tool
    PAN = auto()  # one finger panning
    PINCH = auto()  # two fingers
    SPENT = auto()  # the menu opened, or a pinch ended with a finger left down


class TouchSurface(Protocol):
    """What the gestures drive: the map view (:class:`desktop.map.view.MapView`)."""

    tool: ViewTool | None
    pressed: SignalInstance
    released: SignalInstance

    def scene(self) -> QGraphicsScene: ...

    def physicalDpiX(self) -> int: ...

    def tool_event_at(self, point: QPointF, button: Qt.MouseButton = ...,
                      buttons: Qt.MouseButton = ...,
                      modifiers: Qt.KeyboardModifier = ...) -> ToolEvent: ...

    def scroll_by(self, dx: float, dy: float) -> None: ...

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None: ...

    def request_menu(self, point: QPointF) -> None: ...


class TouchGestures(QObject):
    """Turns the touch events of a map view's viewport into tool events, pans, zooms and
    menu requests (the view lets its viewport accept touch events)."""

    def __init__(self, view: TouchSurface, parent: QObject) -> None:
        super().__init__(parent)
        self.view = view
        self.gesture: Gesture | None = None
        self._start = self._last = QPointF()
        self._pinch: tuple[float, QPointF] | None = None
        self._fingers: dict[int, QPointF] = {}
        self.long_press = QTimer(self)
        self.long_press.setSingleShot(True)
        self.long_press.setInterval(LONG_PRESS_MS)
        self.long_press.timeout.connect(self._open_menu)

    def slop_px(self) -> float:
        """How far a finger moves before a press becomes a drag, in viewport pixels."""
        return SLOP_MM * self.view.physicalDpiX() / MM_PER_INCH

    def handle(self, event: QEvent) -> bool:
        """Use a touch event of the viewport; False for any other event."""
        if event.type() not in TOUCH_EVENTS or not isinstance(event, QTouchEvent):
            return False
        if event.type() == QEvent.Type.TouchCancel:
            self._cancel()
            return True
        for point in event.points():  # some sources send only the points that changed
            if point.state() == QEventPoint.State.Released:
                self._fingers.pop(point.id(), None)
            else:
                self._fingers[point.id()] = point.position()
        down = list(self._fingers.values())
        if len(down) >= 2:
            self._pinch_to(down[0], down[1])
        elif len(down) == 1:
            self._one_finger(down[0])
        else:
            self._lift()
        event.accept()
        return True

    # --- one finger ----------------------------------------------------------------------
    def _one_finger(self, point: QPointF) -> None:
        if self.gesture is None:
            self.view.pressed.emit()
            self.gesture, self._start = Gesture.PENDING, point
            self.long_press.start()
        elif self.gesture is Gesture.PENDING and _distance(point, self._start) > self.slop_px():
            self.long_press.stop()
            self.gesture = Gesture.TOOL if self._tool_press(self._start) else Gesture.PAN
            self._last = self._start
            self._drag(point)
        elif self.gesture in (Gesture.TOOL, Gesture.PAN):
            self._drag(point)
        elif self.gesture is Gesture.PINCH:  # one finger left: wait until it lifts too
            self.gesture, self._pinch = Gesture.SPENT, None

    def _drag(self, point: QPointF) -> None:
        tool = self.view.tool
        if self.gesture is Gesture.TOOL and tool is not None:
            tool.move(self.view.tool_event_at(point))
        elif self.gesture is Gesture.PAN:
            moved = point - self._last
            self.view.scroll_by(-moved.x(), -moved.y())
        self._last = point

    def _tool_press(self, point: QPointF) -> bool:
        tool = self.view.tool
        return tool is not None and tool.press(self.view.tool_event_at(point))

    def _lift(self) -> None:
        """The last finger left: a tap clicks; a tool drag ends where the finger was."""
        self.long_press.stop()
        tool = self.view.tool
        if self.gesture is Gesture.PENDING:
            if self._tool_press(self._start):
                assert tool is not None
                tool.release(self.view.tool_event_at(self._start, buttons=_NO_BUTTON))
            else:
                self.view.scene().clearSelection()  # a tap on the floor, as a click
        elif self.gesture is Gesture.TOOL and tool is not None:
            tool.release(self.view.tool_event_at(self._last, buttons=_NO_BUTTON))
        self._reset()

    def _open_menu(self) -> None:
        if self.gesture is Gesture.PENDING:
            self.gesture = Gesture.SPENT
            self.view.request_menu(self._start)
            self.view.released.emit()  # the menu took the finger's lift

    # --- two fingers ---------------------------------------------------------------------
    def _pinch_to(self, a: QPointF, b: QPointF) -> None:
        if self.gesture is None:
            self.view.pressed.emit()
        if self.gesture is Gesture.TOOL:
            self._drop_tool_gesture()
        self.long_press.stop()
        self.gesture = Gesture.PINCH
        spread, middle = max(_distance(a, b), 1.0), (a + b) / 2
        if self._pinch is not None:
            before, was = self._pinch
            self.view.zoom_by(spread / before, middle)
            self.view.scroll_by(was.x() - middle.x(), was.y() - middle.y())
        self._pinch = spread, middle

    def _drop_tool_gesture(self) -> None:
        """Drop what the tool holds (a token drag goes back), as Esc or switching tools
        would."""
        tool = self.view.tool
        if tool is not None:
            tool.deactivate()
            tool.activate()

    # --- ending --------------------------------------------------------------------------
    def _cancel(self) -> None:
        if self.gesture is Gesture.TOOL:
            self._drop_tool_gesture()
        self.long_press.stop()
        self._reset()

    def _reset(self) -> None:
        self.gesture, self._pinch = None, None
        self._fingers.clear()
        self._start = self._last = QPointF()
        self.view.released.emit()


_NO_BUTTON = Qt.MouseButton.NoButton


def _distance(a: QPointF, b: QPointF) -> float:
    return math.hypot(a.x() - b.x(), a.y() - b.y())
