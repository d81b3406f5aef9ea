"""The walls and doors of a map as one graphics item, kept as one path per kind in square
chunks so a frame strokes only what it exposes, and a wall edit (a door opened) strokes
again only the chunks it touches: all 5,000 walls of a big map took 60-150 ms a toggle.
Zoomed out, frames copy the walls from a picture of the view
(:mod:`desktop.map.view_picture`)."""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from core.model.mapmodel import WallKey, WallKind, WallSegment
from desktop.map import style
from desktop.map.items import Z_WALL
from desktop.map.view_picture import LayerPicture
from desktop.qt import (
    QGraphicsItem,
    QPainter,
    QPainterPath,
    QPen,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from desktop.map.renderer import MapRenderer

WallStroke = tuple[QRectF, QPen, QPainterPath]  # bounds, pen, the walls of one kind


class WallLayer(QGraphicsItem):
    """All walls and doors as one item, kept as one path per kind in each square chunk of
    the map, so a paint strokes only the chunks it exposes (looked up by position: a
    frame at zoom 1 touches a dozen of a big map's thousand). Zoomed out, where a frame
    exposes most of a big map, the chunks are merged four by four a side (a thousand
    strokes at fit took 5 ms, sixty-odd take 2)."""

    CHUNK_CELLS = 16
    MERGED = 4  # fine chunks a side in a coarse one
    COARSE_BELOW_PX = 8.0  # a cell smaller than this on screen: coarse chunks
    PICTURE_BELOW_PX = 16.0  # and smaller than this: the walls copied from a picture

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_WALL)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self._fine = _Chunks(renderer.length(self.CHUNK_CELLS))
        self._coarse: _Chunks | None = None
        self._bounds = QRectF()
        self._walls: dict[tuple[int, int], Counter[WallKey]] = {}  # by chunk
        self._pens: dict[tuple[WallKind, bool], QPen] = {}  # shared: merged chunks group by pen
        self.picture = LayerPicture(self, self.draw)  # zoomed out
        self.held = False  # this paint pass copies the walls from the floor (desktop.map.floor)

    def set_walls(self, walls: list[WallSegment]) -> None:
        """Draw these walls (a new or resized map)."""
        self._walls = {}
        self._pens = {}
        self._fine = _Chunks(self.renderer.length(self.CHUNK_CELLS))
        self.change(walls, ())

    def change(self, added: Iterable[WallSegment], removed: Iterable[WallSegment]) -> None:
        """Draw ``added`` and no longer ``removed`` (an edit's change set): only the
        chunks holding them are stroked again. Walls are counted by their fields, copies
        together: a file may stack 100,000 copies of one wall (hashing and comparing that
        many models took 0.4 s a scene)."""
        delta = Counter(wall.key for wall in added)
        delta.subtract(wall.key for wall in removed)
        touched = set()
        for wall, count in delta.items():
            chunk = self._chunk_of(wall)
            here = self._walls.setdefault(chunk, Counter())
            here[wall] += count
            if here[wall] <= 0:
                del here[wall]
            touched.add(chunk)
        self.prepareGeometryChange()
        for chunk in touched:
            self._fine.put(chunk, self._strokes(self._walls[chunk]))
        self._coarse = None
        self.picture.forget()
        self._bounds = self._fine.bounds
        self.update()

    def _chunk_of(self, wall: WallKey) -> tuple[int, int]:
        x1, y1, x2, y2 = wall[:4]
        return (int((x1 + x2) / 2 // self.CHUNK_CELLS), int((y1 + y2) / 2 // self.CHUNK_CELLS))

    def _strokes(self, walls: Counter[WallKey]) -> list[WallStroke]:
        """One path per kind (a wall drawn twice looks the same: it is stroked once)."""
        width = self.renderer.length(style.WALL_WIDTH_CELLS)
        paths: dict[tuple[WallKind, bool], QPainterPath] = {}
        for x1, y1, x2, y2, kind, opened in walls:
            path = paths.setdefault((kind, opened), QPainterPath())
            path.moveTo(self.renderer.to_scene(x1, y1))
            path.lineTo(self.renderer.to_scene(x2, y2))
        pad = width * 2
        return [(path.boundingRect().adjusted(-pad, -pad, pad, pad),
                 self._pen(kind, opened, width), path)
                for (kind, opened), path in paths.items()]

    def _pen(self, kind: WallKind, opened: bool, width: float) -> QPen:
        if (kind, opened) not in self._pens:
            self._pens[kind, opened] = _wall_pen(kind, opened, width)
        return self._pens[kind, opened]

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if widget is not None and self.held:
            return
        exposed: QRectF = option.exposedRect  # type: ignore[attr-defined]
        if widget is None or self.renderer.on_screen(1, painter.worldTransform()) >= \
                self.PICTURE_BELOW_PX:  # (no widget: a file's picture, exact)
            self.draw(painter, exposed)
        else:
            self.picture.paint(painter, exposed, QRectF(widget.rect()), self._bounds)

    def draw(self, painter: QPainter, area: QRectF) -> None:
        """Stroke the walls reaching into ``area`` (scene)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        cell_px = self.renderer.on_screen(1, painter.worldTransform())
        _stroke(painter, self._chunks(cell_px).exposed(area))

    def _chunks(self, cell_px: float) -> _Chunks:
        """The chunks to stroke with a cell ``cell_px`` on screen."""
        return self._merged() if cell_px < self.COARSE_BELOW_PX else self._fine

    def _merged(self) -> _Chunks:
        if self._coarse is None:
            self._coarse = self._fine.merged(self.MERGED)
        return self._coarse


def _stroke(painter: QPainter, strokes: Iterable[tuple[QPen, QPainterPath]]) -> None:
    for pen, path in strokes:
        painter.setPen(pen)
        painter.drawPath(path)


class _Chunks:
    """Wall strokes by square chunk of the scene, ``side`` scene pixels a side."""

    def __init__(self, side: float) -> None:
        self.side = side
        self.strokes: dict[tuple[int, int], list[WallStroke]] = {}
        self.bounds = QRectF()
        self.reach = 0  # chunks a stroke may stick out of its own (a long wall)

    def put(self, chunk: tuple[int, int], strokes: list[WallStroke]) -> None:
        """The chunk's strokes are now ``strokes`` (the bounds only grow: a wall taken
        away leaves some empty room in them)."""
        self.strokes.pop(chunk, None)
        for stroke in strokes:
            self.add(chunk, stroke)

    def add(self, chunk: tuple[int, int], stroke: WallStroke) -> None:
        self.strokes.setdefault(chunk, []).append(stroke)
        rect = stroke[0]
        self.bounds = self.bounds.united(rect)
        x, y = chunk
        self.reach = max(self.reach, x - math.floor(rect.left() / self.side),
                         math.floor(rect.right() / self.side) - x,
                         y - math.floor(rect.top() / self.side),
                         math.floor(rect.bottom() / self.side) - y)

    def exposed(self, area: QRectF) -> Iterator[tuple[QPen, QPainterPath]]:
        """The strokes whose bounds meet ``area``."""
        reach = self.reach
        for x in range(math.floor(area.left() / self.side) - reach,
                       math.floor(area.right() / self.side) + reach + 1):
            for y in range(math.floor(area.top() / self.side) - reach,
                           math.floor(area.bottom() / self.side) + reach + 1):
                for rect, pen, path in self.strokes.get((x, y), ()):
                    if rect.intersects(area):
                        yield pen, path

    def merged(self, factor: int) -> _Chunks:
        """The same strokes in chunks ``factor`` times as big, one path per pen."""
        coarse = _Chunks(self.side * factor)
        paths: dict[tuple[int, int, int], WallStroke] = {}
        for (x, y), strokes in self.strokes.items():
            for rect, pen, path in strokes:
                key = (x // factor, y // factor, id(pen))
                if key in paths:
                    bounds, _, whole = paths[key]
                    whole.addPath(path)
                    paths[key] = (bounds.united(rect), pen, whole)
                else:
                    paths[key] = (QRectF(rect), pen, QPainterPath(path))
        for (x, y, _), stroke in paths.items():
            coarse.add((x, y), stroke)
        return coarse


def _wall_pen(kind: WallKind, opened: bool, width: float) -> QPen:
    pen = QPen(style.WALL_COLOURS[kind], width * (1.6 if kind is WallKind.DOOR else 1))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap if kind is WallKind.WALL else Qt.PenCapStyle.FlatCap)
    if opened or kind is WallKind.WINDOW:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen
