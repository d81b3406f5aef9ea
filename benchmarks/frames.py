"""Frames as a user meets them: real input events sent to the map view, then Qt's own
event loop runs until the view has painted (the normal region repaint: only what Qt
marks dirty is painted, as on screen).

A frame's time is from the event's delivery to the end of the paint it causes. Every
paint of the viewport is counted with the area it covers, so a figure never times a frame
that painted nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from desktop.qt import (
    QApplication,
    QEvent,
    QMouseEvent,
    QObject,
    QPaintEvent,
    QPoint,
    QPointF,
    Qt,
    QWheelEvent,
    QWidget,
)

SETTLE_ROUNDS = 12  # event-loop passes before a frame that paints nothing gives up
WHEEL_NOTCH = 120


@dataclass
class PaintLog:
    """Paint events seen on one widget: how many, and the pixels each covered."""

    count: int = 0
    areas: list[int] = field(default_factory=list)


class PaintCounter(QObject):
    """An event filter counting the paint events of ``widget``."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.widget = widget
        self.log = PaintLog()
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(event, QPaintEvent):
            rect = event.region().boundingRect()
            self.log.count += 1
            self.log.areas.append(rect.width() * rect.height())
        return False

    def remove(self) -> None:
        self.widget.removeEventFilter(self)


def settle(counter: PaintCounter, before: int | None = None) -> bool:
    """Run the event loop until the widget has painted (since it had painted ``before``
    times; by default from now) and nothing more is pending (two quiet passes after the
    paint); False when nothing was painted."""
    before = counter.log.count if before is None else before
    quiet = 0
    for _ in range(SETTLE_ROUNDS):
        painted = counter.log.count
        QApplication.processEvents()
        if counter.log.count == painted:
            quiet += 1
            if counter.log.count > before and quiet >= 2:
                return True
        else:
            quiet = 0
    return counter.log.count > before


def frame(counter: PaintCounter, action: Callable[[], object]) -> tuple[float, bool]:
    """Seconds from ``action`` (sending an event) to the end of the repaint it causes, and
    whether anything was painted."""
    before = counter.log.count
    start = time.perf_counter()
    action()
    painted = settle(counter, before)
    return time.perf_counter() - start, painted


def mouse(widget: QWidget, kind: QEvent.Type, point: QPointF,
          modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Deliver a left-button press, move or release at ``point`` (widget pixels)."""
    button = Qt.MouseButton.LeftButton
    buttons = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
    if kind == QEvent.Type.MouseMove:
        button = Qt.MouseButton.NoButton
    event = QMouseEvent(kind, point, QPointF(widget.mapToGlobal(point.toPoint())), button,
                        buttons, modifiers)
    QApplication.sendEvent(widget, event)


def wheel(widget: QWidget, point: QPointF, notches: int) -> None:
    """A mouse wheel turned ``notches`` (positive: away from the user, zoom in)."""
    event = QWheelEvent(point, QPointF(widget.mapToGlobal(point.toPoint())), QPoint(0, 0),
                        QPoint(0, notches * WHEEL_NOTCH), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
