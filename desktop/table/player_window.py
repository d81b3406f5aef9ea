"""The players' window: the same map on a second screen, without what only the GM may see
(:mod:`desktop.map.players`).

The window shows what the GM's view shows (the same middle, zoomed to the same area), or
is panned and zoomed on its own (mouse, wheel or touch on it turns following off).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map.players import PlayerScene, PlayerView
from desktop.qt import (
    QCloseEvent,
    QKeyEvent,
    QPointF,
    QRectF,
    QResizeEvent,
    QScreen,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from desktop.document.document import EncounterDocument
    from desktop.map.fog_layer import PlayerViewModel
    from desktop.map.view import MapView

WINDOWED_SHARE = 0.8  # of the screen, when not full screen


class PlayerWindow(QWidget):
    """A top-level window with the players' view, full screen on the screen it is shown on
    (Esc leaves full screen there, F11 toggles it)."""

    closed = Signal()
    following_changed = Signal(bool)

    def __init__(self, document: EncounterDocument, model: PlayerViewModel,
                 gm_view: MapView) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.setWindowTitle("Battlemap — players")
        self.setAttribute(Qt.WidgetAttribute.WA_QuitOnClose, False)
        self.scene = PlayerScene(document, model)
        self.view = PlayerView(self.scene)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.gm_view = gm_view
        self.following = True
        self.view.navigated.connect(lambda: self.set_following(False))
        for signal in (gm_view.horizontalScrollBar().valueChanged,
                       gm_view.verticalScrollBar().valueChanged, gm_view.zoom_changed,
                       gm_view.resized):
            signal.connect(self.match_gm)
        document.replaced.connect(self.match_gm)

    # --- where it is shown ---------------------------------------------------------------
    def show_on(self, screen: QScreen, full_screen: bool) -> None:
        """Show the window on ``screen``: full screen, or a window in its middle (where Esc
        puts it)."""
        if self.isFullScreen():
            self.showNormal()
        self.setScreen(screen)
        area = screen.availableGeometry()
        width, height = round(area.width() * WINDOWED_SHARE), round(area.height() *
                                                                   WINDOWED_SHARE)
        self.setGeometry(area.x() + (area.width() - width) // 2,
                         area.y() + (area.height() - height) // 2, width, height)
        if full_screen:
            self.showFullScreen()
        else:
            self.showNormal()
        self.match_gm()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Escape, Qt.Key.Key_F11) and self.isFullScreen():
            self.showNormal()
        elif key == Qt.Key.Key_F11:
            self.showFullScreen()
        else:
            super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.match_gm()  # full screen or back: the same area, fitted anew

    def closeEvent(self, event: QCloseEvent) -> None:
        self.closed.emit()
        super().closeEvent(event)

    # --- following the GM's view ---------------------------------------------------------
    def set_following(self, on: bool) -> None:
        if on != self.following:
            self.following = on
            self.following_changed.emit(on)
        self.match_gm()

    def match_gm(self) -> None:
        """Show the area the GM's view shows, about the same middle."""
        if not self.following or not self.isVisible():
            return
        gm = self.gm_view
        if gm.map_scene.faces.zooming:  # the players' tokens borrow pictures too
            self.view.map_scene.faces.zoom_moved()
        area = gm.mapToScene(gm.viewport().rect()).boundingRect()
        self.show_area(area)

    def show_area(self, area: QRectF) -> None:
        """Fit ``area`` of the map into the view, keeping the view's own turn."""
        view = self.view
        if area.isEmpty():
            return
        turned = view.map_scene.renderer.view_transform(1.0).mapRect(area)
        viewport = view.viewport().rect()
        zoom = min(viewport.width() / turned.width(), viewport.height() / turned.height())
        view.setTransform(view.map_scene.renderer.view_transform(zoom))
        view.centerOn(area.center())
        view.zoom_changed.emit(view.zoom)

    def centre(self) -> QPointF:
        """The map point in the middle of the players' view."""
        return self.view.mapToScene(self.view.viewport().rect().center())
