"""The window's panels as two collapsible sidebars, so the map keeps most of the window.

The fight's panels (Combatants, Resolve) are tabs of the right sidebar, shown, as narrow as
their forms allow (:func:`desktop.widgets.screen_fit.sidebar_width`); the record of it
(Combat log, History) are tabs of the left one, hidden until asked for. Tabs name the
panels, so the panels carry no title bars. Each side hides and comes back whole with one
key or one click; the Resolve tab comes to the front when a ruling asks for dice. The
arrangement is saved with the window (``QMainWindow.saveState``) under
:data:`LAYOUT_VERSION`, so a later arrangement never restores an older one wrongly.
"""

from __future__ import annotations

from desktop.qt import (
    QDockWidget,
    QMainWindow,
    QObject,
    Qt,
    QTabWidget,
    QWidget,
    Signal,
)

#: Raised whenever the default arrangement changes: a state saved under another version is
#: not restored (Qt's ``restoreState`` refuses it), the default is laid out instead.
LAYOUT_VERSION = 2
LEFT, RIGHT = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
SIDES = {"left": LEFT, "right": RIGHT}


class Sidebars(QObject):
    """The docks of ``window``, one per panel, and the two sides they gather on."""

    changed = Signal()  # a side was shown or hidden, a panel moved, closed or opened

    def __init__(self, window: QMainWindow, panels: list[tuple[str, QWidget, str]]) -> None:
        """``panels``: (title, widget, "left" or "right") in tab order."""
        super().__init__(window)
        self.window = window
        self.docks: dict[str, QDockWidget] = {}
        self.home: dict[str, str] = {}  # the side each panel starts on
        self._in_front: dict[str, list[QDockWidget]] = {}
        self._seen: dict[str, bool] = {}  # each panel last reported shown (in front) or not
        for title, widget, side in panels:
            self.docks[title] = self._dock(title, widget)
            self.home[title] = side
        for area in SIDES.values():
            window.setTabPosition(area, QTabWidget.TabPosition.North)

    def _dock(self, title: str, widget: QWidget) -> QDockWidget:
        dock = QDockWidget(title, self.window)
        dock.setObjectName(title.lower())
        dock.setWidget(widget)
        dock.setTitleBarWidget(QWidget())  # its tab names it
        dock.setAllowedAreas(LEFT | RIGHT)
        dock.visibilityChanged.connect(lambda shown: self._saw(title, shown))
        dock.dockLocationChanged.connect(lambda _area: self.changed.emit())
        return dock

    def _saw(self, title: str, shown: bool) -> None:
        self._seen[title] = shown
        self.changed.emit()

    def arrange(self, width_px: int) -> None:
        """The default: each panel a tab of its side, the first in front; the right side
        shown, ``width_px`` wide (0: as narrow as its panels allow); the left one hidden."""
        for side, area in SIDES.items():
            docks = [self.docks[title] for title, home in self.home.items() if home == side]
            for dock in docks:
                dock.setFloating(False)
                self.window.addDockWidget(area, dock)
                dock.setVisible(side == "right")
            for dock in docks[1:]:
                self.window.tabifyDockWidget(docks[0], dock)
            if docks:
                docks[0].raise_()
                self._in_front[side] = docks[:1]
                if width_px:
                    self.window.resizeDocks([docks[0]], [width_px], Qt.Orientation.Horizontal)

    def on(self, side: str) -> list[QDockWidget]:
        """The docked panels of ``side`` ("left" or "right"), shown or not."""
        return [dock for dock in self.docks.values()
                if not dock.isFloating() and self.window.dockWidgetArea(dock) == SIDES[side]]

    def shown(self, side: str) -> bool:
        return any(not dock.isHidden() for dock in self.on(side))

    def toggle(self, side: str) -> None:
        """Hide ``side`` whole, or show every panel docked there, with the tabs that were
        in front when it was hidden in front again."""
        docks = self.on(side)
        if self.shown(side):
            self._in_front[side] = [self.docks[title] for title in self.in_front()
                                    if self.docks[title] in docks]
            for dock in docks:
                dock.hide()
            return
        for dock in docks:
            dock.show()
        for dock in self._in_front.get(side, []):
            dock.raise_()

    def in_front(self) -> list[str]:
        """The panels shown and not behind another tab (Qt says which with each dock's
        ``visibilityChanged``)."""
        return [title for title, dock in self.docks.items()
                if not dock.isHidden() and self._seen.get(title, False)]

    def bring_forward(self, title: str) -> None:
        """Show the panel ``title`` (and its side) in front of the panels it shares it with."""
        dock = self.docks[title]
        dock.show()
        dock.raise_()
