"""Where a window may stand: never larger than the screen it opens on, never off it.

Sizes are Qt's logical pixels, so a ``QT_SCALE_FACTOR`` of 1.5 on a 1920 × 1080 screen is a
1280 × 720 screen here. A geometry remembered on another monitor or at another scale is
brought back onto the screen it would open on.

>>> from desktop.qt import QRect
>>> screen = QRect(0, 0, 1280, 770)
>>> fitted(QRect(-300, 500, 1400, 900), screen)
PySide6.QtCore.QRect(0, 0, 1280, 770)
>>> fitted(QRect(900, 600, 800, 500), screen)
PySide6.QtCore.QRect(480, 270, 800, 500)
>>> sidebar_width(1280), sidebar_width(1920), sidebar_width(3840)
(250, 326, 360)
"""

from __future__ import annotations

from desktop.qt import QGuiApplication, QPoint, QRect, QScreen, QWidget

#: Room a window manager's frame takes around a dialog (title bar and borders), in logical
#: pixels: a dialog sized to the whole available area would push its title bar off-screen.
FRAME_ROOM_PX = QPoint(16, 48)

#: The sidebar's share of the screen's width, and its bounds in logical pixels: narrow
#: enough that the map keeps 65 % of a 1280 × 800 window, wide enough for a form's labels.
SIDEBAR_SHARE = 0.17
SIDEBAR_MIN_PX, SIDEBAR_MAX_PX = 250, 360


def fitted(frame: QRect, available: QRect) -> QRect:
    """``frame`` made no larger than ``available`` and moved inside it."""
    width = min(frame.width(), available.width())
    height = min(frame.height(), available.height())
    left = min(max(frame.left(), available.left()), available.right() + 1 - width)
    top = min(max(frame.top(), available.top()), available.bottom() + 1 - height)
    return QRect(left, top, width, height)


def screen_at(point: QPoint) -> QScreen:
    """The screen showing ``point``, or the primary screen when none does."""
    screen = QGuiApplication.screenAt(point)
    return screen if screen is not None else QGuiApplication.primaryScreen()


def sidebar_width(available_width: int) -> int:
    """The sidebar's first width on a screen ``available_width`` logical pixels wide."""
    return max(SIDEBAR_MIN_PX, min(SIDEBAR_MAX_PX, round(available_width * SIDEBAR_SHARE)))


def resize_within_screen(dialog: QWidget, width: int, height: int) -> None:
    """Give ``dialog`` its preferred size, or as much of it as the screen it opens on holds
    with its frame (a 1280 × 800 laptop at 150 % is 853 × 533 here)."""
    parent = dialog.parentWidget()
    screen = parent.screen() if parent is not None else QGuiApplication.primaryScreen()
    available = screen.availableGeometry()
    dialog.resize(min(width, available.width() - FRAME_ROOM_PX.x()),
                  min(height, available.height() - FRAME_ROOM_PX.y()))
