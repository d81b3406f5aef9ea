"""The window's size, place and panel arrangement, remembered between runs and kept on
its screen.

Saved when the window closes (QSettings ``window/geometry`` and ``window/state``, the state
under the arrangement's version: a later arrangement never restores an older one wrongly),
restored when it opens and brought back onto the screen it opens on when it no longer fits
(another monitor, another scale). Table mode keeps the arrangement it replaced
(``window/before_table_*``) and gives it back when it ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.qt import QByteArray, QCursor, QMainWindow, QRect, QSettings, Qt
from desktop.widgets.screen_fit import fitted, screen_at

if TYPE_CHECKING:
    from collections.abc import Callable

GEOMETRY, STATE = "window/geometry", "window/state"
TABLE_GEOMETRY, TABLE_STATE = "window/before_table_geometry", "window/before_table_state"
WHOLE_SCREEN = Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen


class WindowMemory:
    """Remembers ``window``'s layout in ``settings``; ``arrange`` lays out the default
    panels for a sidebar width (see :mod:`desktop.panels.sidebars`)."""

    def __init__(self, window: QMainWindow, settings: QSettings, version: int,
                 arrange: Callable[[QRect], None]) -> None:
        self.window, self.settings, self.version = window, settings, version
        self.arrange = arrange
        self.geometry_restored = False

    def available(self) -> QRect:
        """The screen area the window may use: of the screen it is on once shown, else of
        the screen under the pointer."""
        shown = self.window.isVisible() and self.window.screen() is not None
        screen = self.window.screen() if shown else screen_at(QCursor.pos())
        return screen.availableGeometry()

    def restore(self) -> None:
        """The remembered layout, or the default one filling the screen."""
        self.geometry_restored = self._restore(GEOMETRY, STATE)[0]
        if not self.geometry_restored:
            self.window.setGeometry(self.available())
        self.keep_on_screen()

    def _restore(self, geometry_key: str, state_key: str) -> tuple[bool, bool]:
        geometry, state = self.settings.value(geometry_key), self.settings.value(state_key)
        placed = isinstance(geometry, QByteArray) and self.window.restoreGeometry(geometry)
        arranged = isinstance(state, QByteArray) and self.window.restoreState(state,
                                                                              self.version)
        if not arranged:
            self.arrange(self.available())
        return placed, arranged

    def save(self) -> None:
        self.settings.setValue(GEOMETRY, self.window.saveGeometry())
        self.settings.setValue(STATE, self.window.saveState(self.version))

    def reset(self) -> None:
        """The default layout: filling the screen, the panels in their first places."""
        self.window.showNormal()
        self.window.setGeometry(self.available())
        self.arrange(self.available())
        self.window.showMaximized()

    def keep_on_screen(self) -> None:
        """Shrink and move the window (its frame included) onto its screen's free area."""
        if self.window.windowState() & WHOLE_SCREEN:
            return
        frame, inner = self.window.frameGeometry(), self.window.geometry()
        fitted_frame = fitted(frame, self.available())
        self.window.setGeometry(fitted_frame.adjusted(
            inner.left() - frame.left(), inner.top() - frame.top(),
            inner.right() - frame.right(), inner.bottom() - frame.bottom()))

    def keep_before_table(self) -> None:
        """Remember the layout table mode is about to change."""
        self.settings.setValue(TABLE_GEOMETRY, self.window.saveGeometry())
        self.settings.setValue(TABLE_STATE, self.window.saveState(self.version))

    def give_back_after_table(self) -> None:
        """The layout of before table mode, exactly."""
        self._restore(TABLE_GEOMETRY, TABLE_STATE)
        self.keep_on_screen()
