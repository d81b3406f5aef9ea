"""The fog of war on a map scene. For the players: black where they have seen nothing, dimmed
where they only remember. For the GM: a tint over what the players cannot see now, so the
map stays readable. What is seen and remembered is decided by core.spatial.playerview; this
module only paints its masks."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from core.model.grid import Cell
from desktop.map.cell_image import image_of
from desktop.qt import (
    QColor,
    QGraphicsItem,
    QImage,
    QObject,
    QPainter,
    QPainterPath,
    QRectF,
    QStyleOptionGraphicsItem,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet
    from core.spatial.playerview import PlayerItems, PlayerView
    from desktop.document.document import EncounterDocument
    from desktop.map.renderer import MapRenderer


class PlayerViewModel(QObject):
    """The players' view of the document's encounter, computed when first asked for after a
    change that may alter it (the party's sight itself is kept by core between changes)."""

    updated = Signal()

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__(document)
        self.document = document
        self._view: PlayerView | None = None
        self._items: PlayerItems | None = None
        document.changed.connect(self._changed)
        document.replaced.connect(self.invalidate)

    def _changed(self, changes: ChangeSet) -> None:
        if (changes.tokens or changes.walls or changes.map_shape or changes.fog
                or changes.hazards):
            self.invalidate()

    def invalidate(self) -> None:
        self._view = self._items = None
        self.updated.emit()

    @property
    def view(self) -> PlayerView:
        if self._view is None:
            from core.spatial.playerview import player_view  # see desktop/__init__

            self._view = player_view(self.document.encounter)
        return self._view

    @property
    def items(self) -> PlayerItems:
        if self._items is None:
            from core.spatial.playerview import player_items  # see desktop/__init__

            self._items = player_items(self.document.encounter, self.view)
        return self._items


class FogLook(NamedTuple):
    """The colours of cells the players see nothing of, and of cells they only remember;
    ``border``: grid units of unseen colour around the map (hides the map's edge lines)."""

    unseen: QColor
    remembered: QColor
    z: float
    border: float = 0.0


PLAYERS_FOG = FogLook(QColor(0, 0, 0), QColor(0, 0, 0, 150), z=100, border=1.0)  # over all
GM_FOG = FogLook(QColor(25, 35, 80, 125), QColor(25, 35, 80, 60), z=15)  # under walls


class FogLayer(QGraphicsItem):
    """The fog as one image of one pixel per cell, scaled up without smoothing (hard cell
    edges: a cell is seen or it is not)."""

    def __init__(self, renderer: MapRenderer, look: FogLook) -> None:
        super().__init__()
        self.renderer, self.look = renderer, look
        self.setZValue(look.z)
        self.image = QImage()
        self._rect = QRectF()  # the map
        self._frame = QPainterPath()  # the border around it
        self._kinds: np.ndarray | None = None  # per cell, as last shown (show_view)

    def show_view(self, view: PlayerView) -> None:
        """Show the fog of ``view``; only the cells whose fog changed are repainted (a
        party move changes a few around it: the whole players' view was repainted)."""
        height, width = view.visible.shape
        # Per cell: 0 unseen, 1 remembered, 2 seen, as an index into the colours.
        kinds = view.explored.astype(np.uint8) + (view.explored & view.visible)
        changed = self._kinds is None or self._kinds.shape != kinds.shape
        if changed:
            self._reshape(width, height)
        elif np.array_equal(kinds, self._kinds):
            return
        # One 32-bit pixel per kind, taken whole (indexing BGRA bytes was 0.3 ms a move).
        colours = np.array([_bgra(self.look.unseen), _bgra(self.look.remembered),
                            (0, 0, 0, 0)], dtype=np.uint8).view(np.uint32).ravel()
        pixels = np.take(colours, kinds).view(np.uint8).reshape(height, width, 4)
        self.image = image_of(pixels, QImage.Format.Format_ARGB32)
        old, self._kinds = self._kinds, kinds
        if changed or old is None:
            self.update()
        else:
            self._update_cells(old != kinds)

    def _reshape(self, width: int, height: int) -> None:
        self.prepareGeometryChange()
        self._rect = self.renderer.map_rect(width, height)
        pad = self.renderer.length(self.look.border)
        self._frame = QPainterPath()
        self._frame.addRect(self._rect.adjusted(-pad, -pad, pad, pad))
        self._frame.addRect(self._rect)  # odd-even fill: the ring between the two

    def _update_cells(self, changed: np.ndarray) -> None:
        """Repaint the box around the cells marked in ``changed``, if any."""
        rows, columns = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        if rows.size:
            corner = self.renderer.cell_rect(Cell(int(columns[0]), int(rows[0])))
            far = self.renderer.cell_rect(Cell(int(columns[-1]), int(rows[-1])))
            self.update(corner.united(far))

    def cell_colour(self, x: int, y: int) -> QColor:
        """The fog over cell (x, y) (transparent where the players see it)."""
        return self.image.pixelColor(x, y)

    def boundingRect(self) -> QRectF:
        return self._frame.boundingRect().united(self._rect)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.image.isNull():
            return
        # Without antialiasing the border and the image meet with no seam of map between.
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.fillPath(self._frame, self.look.unseen)
        painter.drawImage(self._rect, self.image, QRectF(self.image.rect()))


def _bgra(colour: QColor) -> tuple[int, int, int, int]:
    return colour.blue(), colour.green(), colour.red(), colour.alpha()
