"""Zoomed far out on a big map, the ground (terrain, elevation, ledges), the hazards' tint
and the walls are one picture of the view, copied by each frame in one call.

Each of the three layers already drew little (one scaled image, one scaled image, a
picture of the walls) but each copied or scaled most of the view's pixels, the walls'
with their transparency: 3.5 ms of every wheel notch at fit on the scale map. One
opaque picture of the three is copied, or while the wheel turns lent scaled, once.

The floor holds the tint and the walls only while nothing is drawn between them and the
ground: the hazards drawn in detail (their outlines and names) or the GM's fog preview
(under the walls) keep the layers apart, each drawn as before. A file's picture
(``desktop.map.picture``) draws every layer exactly. Whoever changes what the floor
shows says so (:meth:`Floor.forget`, :meth:`Floor.redraw`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map.view_picture import LayerPicture
from desktop.map.wall_layer import WallLayer
from desktop.qt import QPainter, QRectF, QWidget

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.map.overview import HazardTint
    from desktop.map.token_faces import FaceBook
    from desktop.qt import QGraphicsItem, QGraphicsScene


class Floor:
    """The picture of the ground, the hazards' tint and the walls of ``scene``, and which
    of them the paint pass under way draws from it."""

    def __init__(self, scene: QGraphicsScene, ground: Callable[[QPainter, QRectF], None],
                 tint: HazardTint, walls: WallLayer, faces: FaceBook) -> None:
        self.ground, self.tint, self.walls = ground, tint, walls
        self.picture = LayerPicture(scene, self._draw, opaque=True)
        self.picture.lend_while_zooming(faces)
        self.underlays: list[QGraphicsItem] = []  # drawn between the ground and the walls

    def forget(self) -> None:
        """The ground, the tint or the walls changed: the next frame draws them anew."""
        self.picture.forget()

    def redraw(self, area: QRectF) -> None:
        """The ground changed within ``area`` (scene) only (a brush step)."""
        self.picture.redraw(area)

    def holds(self, painter: QPainter, hazards_in_detail: bool) -> bool:
        """Whether the paint pass ``painter`` begins copies the ground, the tint and the
        walls from the floor: into the view (not a file), the walls drawn from a picture,
        the hazards as a tint and no underlay shown. The tint and the walls then draw
        nothing in this pass."""
        held = (isinstance(painter.device(), QWidget) and not hazards_in_detail
                and self.walls.renderer.on_screen(1, painter.worldTransform())
                < WallLayer.PICTURE_BELOW_PX
                and not any(item.isVisible() for item in self.underlays))
        self.tint.held = self.walls.held = held
        return held

    def copy(self, painter: QPainter, exposed: QRectF, bounds: QRectF) -> None:
        """The floor where ``exposed`` (scene) meets ``bounds`` (scene: the map and its
        walls), in a pass it :meth:`holds`."""
        device = painter.device()
        assert isinstance(device, QWidget)
        self.picture.paint(painter, exposed, QRectF(device.rect()), bounds)

    def _draw(self, painter: QPainter, area: QRectF) -> None:
        self.ground(painter, area)
        self.tint.draw(painter)
        self.walls.draw(painter, area)
