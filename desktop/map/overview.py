"""Level of detail for a big map zoomed out. Tokens too small on screen to show more than a
disc, and every hazard while cells are tiny, are drawn by one item each in a few calls,
instead of thousands of items each re-rendering its cache on every zoom step (3,000 tokens
and 1,000 hazards made a wheel notch at fit take 120 ms, issue 18).

The items stay in the scene, flagged ``ItemHasNoContents`` so Qt skips painting them:
selection, rubber bands and tooltips work on them as before. A token leaves the dots while
its picture is away from where the model has it (a drag, a slide) and draws itself.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from core.model.tables import SIZES
from desktop.map import style
from desktop.map.cell_image import image_of
from desktop.map.items import (
    DISC_INSET,
    GM_ONLY_OPACITY,
    Z_HAZARD,
    Z_TOKEN,
    HazardItem,
    TokenItem,
    dot_colour,
    scale_of,
)
from desktop.map.view_picture import LayerPicture
from desktop.qt import (
    QColor,
    QGraphicsItem,
    QImage,
    QPainter,
    QPixmap,
    QPixmapCache,
    QPointF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from desktop.map.renderer import MapRenderer

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
FOOTPRINTS = sorted({spec.footprint for spec in SIZES.values()})
DISC_SHARE = 1 - 2 * DISC_INSET  # of the footprint, as TokenItem's disc
RING_SHARE = 2 * DISC_INSET  # the selection ring, both sides together (as TokenItem's)
MIN_RING_PX = 2.0  # but never thinner on screen: a selected dot must stand out


class DotGroup(NamedTuple):
    """What the dots drawn with one stamp share."""

    rgba: int
    cells: int  # a side of the footprint
    side_px: float
    hidden: bool  # from the players
    selected: bool


Dot = tuple[DotGroup, tuple[float, float]]  # and its centre in the scene


class TokenDots(QGraphicsItem):
    """Every resting token of the footprint sizes in :attr:`sizes`, as a disc in its
    side's colour (grey at 0 HP), ringed when selected, faded when hidden from the players.
    Each kind of disc is drawn once per zoom level and stamped at every token's centre in
    screen pixels: Qt's antialiased wide points took 14 ms for 3,000 tokens, stamps 4.

    Every resting token has its dot here whatever its size, and :attr:`sizes` chooses
    which are drawn: a zoom step that passes a size's threshold only flags that size's
    items (recomputing 245 Huge tokens' dots there made the wheel notch 2–5 ms longer)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_TOKEN)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.sizes: frozenset[int] = frozenset()
        self._bounds = QRectF()
        self._members: dict[str, Dot] = {}
        self._groups: dict[DotGroup, dict[str, tuple[float, float]]] = {}
        self._centres: dict[DotGroup, np.ndarray] = {}  # built when first drawn
        self.picture = LayerPicture(self, self._stamp_all)  # frames copy the dots from it

    def set_bounds(self, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)

    def forget(self) -> None:
        """A new encounter: the old items are gone."""
        self._members.clear()
        self._groups.clear()
        self._centres.clear()
        self.picture.forget()
        self.update()

    def show_sizes(self, sizes: frozenset[int],
                   items_by_size: Mapping[int, Mapping[str, TokenItem]]) -> None:
        """Draw the resting tokens of footprint ``sizes`` from now on (the zoom changed);
        ``items_by_size`` are every token item of the scene by footprint side."""
        changed, self.sizes = sizes ^ self.sizes, sizes
        if not changed:
            return
        for size in changed:
            drawn_here = size in sizes
            for token_id, item in items_by_size.get(size, {}).items():
                item.setFlag(NO_CONTENTS, drawn_here and token_id in self._members)
        self.picture.forget()
        self.update()

    def follow(self, item: TokenItem) -> None:
        """Keep the dot of ``item`` while it is at rest, and draw it here if its size is
        small on screen, else let the item draw itself. Only the area around a drawn dot
        that changed is repainted."""
        at_rest = item.at_rest()
        item.setFlag(NO_CONTENTS, at_rest and item.cells in self.sizes)
        dot: Dot | None = None
        if at_rest:
            centre = item.pos() + QPointF(item.side_px / 2, item.side_px / 2)
            dot = (DotGroup(dot_colour(item.token).rgba(), item.cells, item.side_px,
                            item.token.gm_only, item.isSelected()), (centre.x(), centre.y()))
        if dot == self._members.get(item.token_id):
            return
        self.release(item.token_id)
        if dot is not None:
            group, centre_xy = dot
            self._members[item.token_id] = dot
            self._groups.setdefault(group, {})[item.token_id] = centre_xy
            self._centres.pop(group, None)
            self._repaint(dot)

    def release(self, token_id: str) -> None:
        """Stop drawing a token (it draws itself, or it left the scene)."""
        dot = self._members.pop(token_id, None)
        if dot is not None:
            del self._groups[dot[0]][token_id]
            self._centres.pop(dot[0], None)
            self._repaint(dot)

    def _repaint(self, dot: Dot) -> None:
        """Repaint around a dot drawn here; one kept for a size drawn in detail shows
        nothing (its area is four times the token's: a press on a Gargantuan token at
        zoom 1 repainted most of the view)."""
        if dot[0].cells in self.sizes:
            self.picture.redraw(_around(dot))
            self.update(_around(dot))

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        exposed: QRectF = option.exposedRect  # type: ignore[attr-defined]
        if not self.sizes:
            return
        if widget is None:  # a picture for a file (desktop.map.picture): stamped exactly
            self._stamp_all(painter, exposed)
        else:
            self.picture.paint(painter, exposed, QRectF(widget.rect()), self._bounds)

    def _stamp_all(self, painter: QPainter, exposed: QRectF) -> None:
        """Stamp every dot drawn here that reaches into ``exposed`` (scene)."""
        transform = painter.worldTransform()
        scale = scale_of(painter)
        affine = np.array([[transform.m11(), transform.m21(), transform.dx()],
                           [transform.m12(), transform.m22(), transform.dy()]])
        ratio = painter.device().devicePixelRatioF()
        painter.save()
        painter.resetTransform()
        for group, members in self._groups.items():
            if members and group.cells in self.sizes:
                stamp = _stamp(group, scale, ratio)
                half = stamp.width() / ratio / 2
                painter.setOpacity(GM_ONLY_OPACITY if group.hidden else 1.0)
                centres = _inside(self._centres_of(group), exposed, half / scale)
                screen = centres @ affine[:, :2].T + affine[:, 2] - half
                for x, y in np.rint(screen).astype(int).tolist():
                    painter.drawPixmap(x, y, stamp)
        painter.restore()

    def _centres_of(self, group: DotGroup) -> np.ndarray:
        centres = self._centres.get(group)
        if centres is None:
            centres = self._centres[group] = np.array(list(self._groups[group].values()))
        return centres

def _inside(centres: np.ndarray, area: QRectF, margin: float) -> np.ndarray:
    """The centres of discs ``margin`` in radius that reach into ``area`` (a drag's frame
    repaints a few cells, not every dot on the map)."""
    x, y = centres[:, 0], centres[:, 1]
    keep = ((x >= area.left() - margin) & (x <= area.right() + margin)
            & (y >= area.top() - margin) & (y <= area.bottom() + margin))
    return centres[keep]


def _around(dot: Dot) -> QRectF:
    """The scene area a dot may cover: its disc, its ring (two screen pixels, however far
    out the view is zoomed) and antialiasing."""
    group, (x, y) = dot
    side_px = group.side_px
    return QRectF(x - 2 * side_px, y - 2 * side_px, 4 * side_px, 4 * side_px)


def _stamp(group: DotGroup, scale: float, ratio: float) -> QPixmap:
    """The disc of ``group`` as seen at ``scale`` (screen pixels per scene pixel), kept in
    Qt's pixmap cache."""
    key = f"token-dot:{group}:{scale * ratio:.4f}"
    stamp = QPixmapCache.find(key)
    if stamp is None:
        stamp = _disc(group, scale, ratio)
        QPixmapCache.insert(key, stamp)
    return stamp


def _disc(group: DotGroup, scale: float, ratio: float) -> QPixmap:
    radius = group.side_px * scale * DISC_SHARE / 2
    ring = (max(group.side_px * scale * RING_SHARE / 2, MIN_RING_PX) if group.selected
            else 0.0)
    outer = 2 * (radius + ring)
    size = math.ceil(outer * ratio) + 2
    stamp = QPixmap(size, size)
    stamp.setDevicePixelRatio(ratio)
    stamp.fill(Qt.GlobalColor.transparent)
    painter = QPainter(stamp)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    middle = QPointF(size / ratio / 2, size / ratio / 2)
    if group.selected:
        painter.setBrush(style.SELECTION)
        painter.drawEllipse(middle, outer / 2, outer / 2)
    painter.setBrush(QColor.fromRgba(group.rgba))
    painter.drawEllipse(middle, radius, radius)
    painter.end()
    return stamp


def dot_sizes(renderer: MapRenderer, zoom: float, detail_px: float) -> frozenset[int]:
    """The footprint sizes (cells a side) drawn smaller than ``detail_px`` at ``zoom``."""
    return frozenset(size for size in FOOTPRINTS if renderer.length(size) * zoom < detail_px)


class HazardTint(QGraphicsItem):
    """Every hazard, while cells are tiny on screen: an image of one pixel per cell tinted
    in each hazard's colour, scaled up in one call (a thousand hazards' dashed outlines
    and names could not be told apart there, and cost 20 ms a frame)."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_HAZARD)
        self._bounds = QRectF()
        self._cells = (0, 0)  # the map's width and height
        self._items: list[HazardItem] = []
        self._image: QImage | None = None
        self._tinted: list[HazardItem] = []  # the items the image shows
        self.held = False  # this paint pass copies the tint from the floor (desktop.map.floor)

    def set_bounds(self, width: int, height: int) -> None:
        """The map's size in cells."""
        self.prepareGeometryChange()
        self._bounds = self.renderer.map_rect(width, height)
        self._cells = (width, height)

    def hold(self, items: Iterable[HazardItem]) -> None:
        """Draw ``items`` (none: each hazard draws itself again)."""
        for item in self._items:
            item.setFlag(NO_CONTENTS, False)
        self._items = list(items)
        for item in self._items:
            item.setFlag(NO_CONTENTS, True)
        # The image is kept while the items are the same (a zoom in and out), decided
        # here rather than on every frame.
        if self._items and self._items != self._tinted:
            self._image, self._tinted = None, self._items
        self.update()

    @property
    def holding(self) -> bool:
        return bool(self._items)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if widget is None or not self.held:
            self.draw(painter)

    def draw(self, painter: QPainter) -> None:
        """The tint of the hazards held (none: nothing)."""
        if not self._items:
            return
        if self._image is None:
            self._image = self._tint()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(self._bounds, self._image)

    def _tint(self) -> QImage:
        width, height = self._cells
        pixels = np.zeros((height, width, 4), dtype=np.uint8)
        for item in self._items:
            hazard = item.hazard
            cells = np.array([(c.x, c.y) for c in hazard.cells])
            inside = cells[(cells[:, 0] < width) & (cells[:, 1] < height)
                           & (cells >= 0).all(axis=1)]
            pixels[inside[:, 1], inside[:, 0]] = _premultiplied(
                style.HAZARD_COLOURS[hazard.kind], GM_ONLY_OPACITY if hazard.gm_only else 1)
        return image_of(pixels)


def _premultiplied(colour: QColor, opacity: float) -> tuple[int, int, int, int]:
    """BGRA bytes of ``colour`` at ``opacity``, premultiplied."""
    alpha = colour.alphaF() * opacity
    return (round(colour.blue() * alpha), round(colour.green() * alpha),
            round(colour.red() * alpha), round(255 * alpha))
