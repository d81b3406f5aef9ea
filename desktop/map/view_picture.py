"""Layers of a big map copied from a picture of the view's pixels while zoomed out.

Stroking the 10,000 walls of the scale map took 3 ms of every frame at fit, stamping its
3,000 token dots 1-2 ms; a copy of a picture takes a fraction of one. A :class:`LayerPicture`
keeps the layer as drawn for one view transform (and device pixel ratio) over the view
and a margin round it, and serves every frame of that view, also after a pan by whole
pixels. While the wheel turns the picture is lent, scaled, as the tokens' faces are
(:mod:`desktop.map.token_faces`), and drawn anew, exactly, once the zoom rests. The layer
says when what it draws changed (:meth:`LayerPicture.forget`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from desktop.map.renderer import MapRenderer
from desktop.qt import QPainter, QPixmap, QPointF, QRectF, Qt, QTransform

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.map.token_faces import FaceBook
    from desktop.qt import QGraphicsItem, QGraphicsScene

MAX_LEND = 2.5  # lent scaled up or down by at most this (five wheel notches)
MARGIN = 0.25  # of the viewport's size on each side: a pan's first steps are in it


class LayerPicture:
    """The picture of one graphics item's drawing (or a scene's background), made when a
    frame needs it."""

    def __init__(self, item: QGraphicsItem | QGraphicsScene,
                 draw: Callable[[QPainter, QRectF], None], *, opaque: bool = False) -> None:
        self.item = item
        self.draw = draw
        self.opaque = opaque  # the layer paints every pixel of its bounds (the floor)
        self._shot: _Shot | None = None
        self._dirty: list[QRectF] = []  # scene areas to draw anew into the picture
        self._faces: FaceBook | None = None

    def lend_while_zooming(self, faces: FaceBook) -> None:
        """Draw the last picture scaled while ``faces`` says the GM is zooming, and the
        layer anew when it says the zoom rested."""
        self._faces = faces
        faces.rested.connect(self._zoom_rested)

    def _zoom_rested(self) -> None:
        self.item.update()

    def forget(self) -> None:
        """What the layer draws changed: the next frame draws it anew."""
        self._shot = None
        self._dirty.clear()

    def redraw(self, area: QRectF) -> None:
        """What the layer draws changed within ``area`` (scene) only: drawn anew there,
        into the picture, before the next frame copies it (a token's dot that came or
        went; a move's two ends are drawn with one painter)."""
        if self._shot is not None:
            self._dirty.append(QRectF(area))

    def paint(self, painter: QPainter, exposed: QRectF, viewport: QRectF,
              bounds: QRectF) -> None:
        """The layer (within ``bounds``, scene) where ``exposed`` (scene) meets
        ``viewport`` (the widget's pixels): copied; while the GM zooms lent if it still
        covers the view, else drawn directly; else a picture taken anew for this view."""
        transform = painter.worldTransform()
        ratio = painter.device().devicePixelRatioF()
        needed = transform.mapRect(exposed.intersected(bounds)).intersected(viewport)
        shot = self._shot
        if shot is not None and self._dirty:
            shot.redraw(self.draw, self._dirty)
            self._dirty.clear()
        if shot is not None and shot.serves(transform, ratio, needed):
            shot.copy(painter, transform, needed)
        elif self._faces is None or not self._faces.zooming:
            self._shot = _Shot.take(self.draw, transform, ratio, viewport, bounds,
                                     opaque=self.opaque)
            self._shot.copy(painter, transform, needed)
        elif shot is not None and shot.lends(transform, ratio,
                                            transform.mapRect(bounds).intersected(viewport)):
            shot.copy(painter, transform, needed)
        else:  # zooming past what the picture can lend: a picture now would not last
            self.draw(painter, exposed)


class _Shot:
    """A layer drawn into a picture of device pixels for one view: transparent, or for a
    layer that paints every pixel (the floor) one without an alpha channel, which Qt
    copies without blending."""

    def __init__(self, pixmap: QPixmap, transform: QTransform, ratio: float,
                 area: QRectF) -> None:
        self.pixmap, self.transform, self.ratio = pixmap, transform, ratio
        self.area = area  # the viewport pixels it holds (under its own transform)

    @classmethod
    def take(cls, draw: Callable[[QPainter, QRectF], None], transform: QTransform,
             ratio: float, viewport: QRectF, bounds: QRectF, *, opaque: bool) -> _Shot:
        """What ``draw`` draws within ``bounds`` (scene) that ``transform`` puts into
        ``viewport`` or near it, drawn as the item would draw it there."""
        margin_x, margin_y = viewport.width() * MARGIN, viewport.height() * MARGIN
        wanted = viewport.adjusted(-margin_x, -margin_y, margin_x, margin_y)
        area = QRectF(transform.mapRect(bounds).intersected(wanted).toAlignedRect())
        pixmap = QPixmap(max(1, math.ceil(area.width() * ratio)),
                         max(1, math.ceil(area.height() * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.black if opaque else Qt.GlobalColor.transparent)
        if not area.isEmpty():
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setTransform(transform * QTransform.fromTranslate(-area.x(), -area.y()))
            draw(painter, transform.inverted()[0].mapRect(area))
            painter.end()
        return cls(pixmap, QTransform(transform), ratio, area)

    def redraw(self, draw: Callable[[QPainter, QRectF], None], areas: list[QRectF]) -> None:
        """Clear each of ``areas`` (scene) and draw it again; what reaches into one from
        outside is drawn again too, cut at its edge, so the pixels come out as if drawn
        whole."""
        painter = QPainter(self.pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setTransform(self.transform
                             * QTransform.fromTranslate(-self.area.x(), -self.area.y()))
        for area in areas:
            painter.setClipRect(area)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
            painter.fillRect(area, Qt.GlobalColor.transparent)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
            draw(painter, area)
        painter.end()

    def _shift(self, transform: QTransform) -> tuple[float, float] | None:
        """How far the view moved in whole device pixels since the picture was made, or
        None if it changed otherwise (a zoom, a turn, a pan by part of a pixel)."""
        old = self.transform
        if (transform.m11(), transform.m12(), transform.m21(), transform.m22()) != (
                old.m11(), old.m12(), old.m21(), old.m22()):
            return None
        dx, dy = transform.dx() - old.dx(), transform.dy() - old.dy()
        if any(abs(step - round(step)) > 1e-6 for step in (dx * self.ratio, dy * self.ratio)):
            return None
        return dx, dy

    def serves(self, transform: QTransform, ratio: float, needed: QRectF) -> bool:
        """Made for this view (or one panned by whole pixels) and holding ``needed``
        (viewport pixels)."""
        shift = self._shift(transform)
        return (ratio == self.ratio and shift is not None
                and self.area.translated(*shift).adjusted(-1, -1, 1, 1).contains(needed))

    def lends(self, transform: QTransform, ratio: float, visible: QRectF) -> bool:
        """May be drawn scaled for ``transform`` while the zoom moves: the same turn and
        ratio, not too far in scale, and covering what is now ``visible``."""
        if ratio != self.ratio or transform.isRotating() != self.transform.isRotating():
            return False
        scale = MapRenderer.zoom_of(transform) / MapRenderer.zoom_of(self.transform)
        covered = self._to(transform).mapRect(self.area).adjusted(-1, -1, 1, 1)
        return 1 / MAX_LEND <= scale <= MAX_LEND and covered.contains(visible)

    def _to(self, transform: QTransform) -> QTransform:
        """From this picture's viewport pixels to ``transform``'s."""
        return self.transform.inverted()[0] * transform

    def copy(self, painter: QPainter, transform: QTransform, needed: QRectF) -> None:
        """Copy the picture over ``needed`` (viewport pixels), or all of it scaled for
        another zoom."""
        painter.save()
        shift = self._shift(transform)
        if shift is not None:
            painter.resetTransform()
            painter.setClipRect(QRectF(needed.toAlignedRect()), Qt.ClipOperation.IntersectClip)
            painter.drawPixmap(self.area.topLeft() + QPointF(*shift), self.pixmap)
        else:
            painter.setTransform(self._to(transform))
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawPixmap(self.area.topLeft(), self.pixmap)
        painter.restore()

