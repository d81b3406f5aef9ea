"""The map as the players may see it: their scene and their view.

Left out by construction: the players' scene is a second :class:`MapScene` on the same
document that adds only the tokens and hazards :func:`core.spatial.playerview.player_items`
allows (hidden tokens and hazards, creatures out of the party's sight), draws hazards only
where explored, shows no tooltips (the GM's notes are in them) and no HP but the party's;
tool overlays (odds shading, paths, rulers) live in the GM's scene only. The fog of war lies
over everything: black where the party has seen nothing, dimmed where it only remembers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map.fog_layer import PLAYERS_FOG, FogLayer, PlayerViewModel
from desktop.map.renderer import MapRenderer
from desktop.map.scene import MapScene
from desktop.map.view import MapView
from desktop.qt import (
    QApplication,
    QColor,
    QEvent,
    QKeyEvent,
    QMouseEvent,
    QPointF,
    Qt,
    QWheelEvent,
    Signal,
)

if TYPE_CHECKING:
    from core.model.mapmodel import Hazard
    from desktop.document.document import EncounterDocument


class PlayerScene(MapScene):
    """The map as the players may see it."""

    for_players = True

    def __init__(self, document: EncounterDocument, model: PlayerViewModel) -> None:
        self.model = model  # before the first rebuild, which asks what to show
        super().__init__(document, MapRenderer())
        self.backdrop = QColor("black")
        self.fog = FogLayer(self.renderer, PLAYERS_FOG)
        self.addItem(self.fog)
        self._hazards_shown: list[Hazard] = self.shown_hazards()
        model.updated.connect(self.follow_view)
        self.follow_view()

    def shows_token(self, token_id: str) -> bool:
        return any(token.id == token_id for token in self.model.items.tokens)

    def shown_hazards(self) -> list[Hazard]:
        """The hazards the players may see, each cut to its explored cells."""
        explored = self.model.view.explored
        return [hazard.model_copy(update={"cells": tuple(c for c in hazard.cells
                                                         if explored[c.y, c.x])})
                for hazard in self.model.items.hazards]

    def follow_view(self) -> None:
        """What the players see changed: tokens come and go, hazards and fog follow."""
        shown = {token.id for token in self.model.items.tokens}
        for token_id in shown.symmetric_difference(self.tokens):
            self._sync_token(token_id)
        hazards = self.shown_hazards()
        if hazards != self._hazards_shown:
            self._hazards_shown = hazards
            self._refresh_hazards()
        self.fog.show_view(self.model.view)


class PlayerView(MapView):
    """The players' map view: no tools; any drag pans. ``navigated`` says the view was
    moved by hand there (the window then stops following the GM)."""

    navigated = Signal()

    def __init__(self, scene: PlayerScene) -> None:
        super().__init__(scene)
        self.setFrameShape(MapView.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._pressed_at: QPointF | None = None  # a press that has not moved the view yet

    def _starts_pan(self, event: QMouseEvent) -> bool:
        return True

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = event.position()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """A drag pans, and the window stops following the GM; a click (someone leaning on
        the table's screen) changes nothing."""
        pressed = self._pressed_at
        if pressed is not None and ((event.position() - pressed).manhattanLength()
                                    >= QApplication.startDragDistance()):
            self._pressed_at = None
            self.navigated.emit()
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = None
        super().mouseReleaseEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.navigated.emit()
        super().wheelEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.TouchBegin:
            self.navigated.emit()
        return super().viewportEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.navigated.emit()
        super().keyPressEvent(event)
