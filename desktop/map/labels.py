"""Text on the map that stays readable at any zoom: drawn in screen pixels (it ignores the
view's scale), on a rounded plate that stands out on light and dark floors alike. It is
sized by the UI scale (table mode) and turns with the map (:meth:`ScreenLabel.restyle`), so
players across the table read it.

A label hangs off a point of the scene (its anchor) by a screen-pixel offset, so it can be
placed beside a token instead of over it."""

from __future__ import annotations

from desktop.map import style
from desktop.qt import (
    QColor,
    QFont,
    QFontMetricsF,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsView,
    QPainter,
    QPen,
    QPointF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QTransform,
    QWidget,
)

PAD_PX = 4.0
LABEL_PX = 13


class ScreenLabel(QGraphicsRectItem):
    """One line of text at a constant size on screen. Its bounds are the rectangle item's,
    kept in C++: Qt asks every label that ignores the view's scale for its bounds on every
    frame, and a thousand Python answers cost 1–2 ms a frame on a big map."""

    def __init__(self, text: str = "", colour: QColor | None = None,
                 parent: QGraphicsItem | None = None, size_px: int = LABEL_PX,
                 bold: bool = True) -> None:
        super().__init__(parent)
        self.setPen(Qt.PenStyle.NoPen)  # the bounds are the rectangle, nothing added
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        # The same pixels at every zoom (the view only moves it): painted once, not on
        # every repaint and zoom step (a big map has a label per hazard).
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.size_px = size_px
        self.font = QFont()
        self.font.setBold(bold)
        self.font.setPixelSize(round(size_px * style.ui_scale()))
        self.colour = colour or QColor("#1d1d1d")
        self.plate = QColor(255, 255, 255, 228)
        self.offset = QPointF(0, 0)
        self.centred = False
        self._text = ""
        self._rect = QRectF()
        self.set_text(text)

    @property
    def text(self) -> str:
        return self._text

    def restyle(self) -> None:
        """Take the UI scale and the turn of the scene's map (labels read along with it)."""
        self.font.setPixelSize(round(self.size_px * style.ui_scale()))
        renderer = getattr(self.scene(), "renderer", None)
        self.setTransform(QTransform() if renderer is None else renderer.label_transform())
        self.set_text(self._text)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: object) -> object:
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged and self.scene():
            self.restyle()
        return super().itemChange(change, value)

    def set_text(self, text: str) -> None:
        self.prepareGeometryChange()
        self._text = text
        metrics = QFontMetricsF(self.font)
        width = metrics.horizontalAdvance(text) + 2 * PAD_PX
        height = metrics.height() + PAD_PX
        left = self.offset.x() - (width / 2 if self.centred else 0)
        self._rect = QRectF(left, self.offset.y() - height / 2, width, height)
        self.setRect(self._rect.adjusted(-1, -1, 1, 1))
        self.update()

    def place(self, anchor: QPointF, offset_px: QPointF, centred: bool = False) -> None:
        """Hang the label ``offset_px`` screen pixels from ``anchor`` (scene or parent
        coordinates), centred on that point or starting at it."""
        self.offset, self.centred = offset_px, centred
        self.setPos(anchor)
        self.set_text(self._text)

    def hang(self, anchor: QPointF, towards: tuple[float, float], gap_px: float = 4) -> None:
        """Put the plate beside ``anchor``, ``gap_px`` away from it on the side the unit
        vector ``towards`` points to (a label that must not cover what is at the anchor)."""
        ux, uy = towards
        half_w, half_h = self._rect.width() / 2, self._rect.height() / 2
        self.place(anchor, QPointF(ux * (half_w + gap_px), uy * (half_h + gap_px)),
                   centred=True)

    def keep_in_view(self, view: QGraphicsView) -> None:
        """Flip a label that starts beside its anchor to the anchor's other side when it
        would run off the view (a path's cost at the map's right or top edge was cut), and
        slide it along when it fits on neither side (a long refusal in a narrow view lost
        its first words off the left edge)."""
        if self.centred:
            return
        room = QRectF(view.viewport().rect())
        shown = self._on_screen(view)
        x, y = self.offset.x(), self.offset.y()
        if shown.right() > room.right() or shown.left() < room.left():
            x = -x - self._rect.width()
        if shown.top() < room.top() or shown.bottom() > room.bottom():
            y = -y
        if (x, y) != (self.offset.x(), self.offset.y()):
            self.place(self.pos(), QPointF(x, y))
        to_screen = self.deviceTransform(view.viewportTransform())
        start = to_screen.map(QPointF(self._rect.left(), self._rect.center().y()))
        slide = _slide_into(room, self._on_screen(view), start)
        if not slide.isNull():
            back = to_screen.inverted()[0]
            self.place(self.pos(), self.offset + back.map(slide) - back.map(QPointF()))

    def _on_screen(self, view: QGraphicsView) -> QRectF:
        """The label's bounds (its plate and outline) in viewport pixels."""
        return self.deviceTransform(view.viewportTransform()).mapRect(self.rect())

    def screen_rect(self) -> QRectF:
        """The plate in screen pixels relative to the anchor (for tests and layout)."""
        return QRectF(self._rect)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self._text:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.colour.darker(110), 1))
        painter.setBrush(self.plate)
        painter.drawRoundedRect(self._rect, 4, 4)
        painter.setFont(self.font)
        painter.setPen(self.colour)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self._text)


def _slide_into(room: QRectF, shown: QRectF, start: QPointF) -> QPointF:
    """How far to move ``shown`` (screen pixels) to bring it inside ``room``; when it is
    bigger, the end nearer ``start`` (where its text begins: the right on a map turned
    half round) stays in sight."""

    def along(low_end: float, high_end: float, low: float, high: float, first: float
              ) -> float:
        if high_end - low_end > high - low:
            return low - low_end if first - low_end <= high_end - first else high - high_end
        return low - low_end if low_end < low else min(high - high_end, 0)

    return QPointF(along(shown.left(), shown.right(), room.left(), room.right(), start.x()),
                   along(shown.top(), shown.bottom(), room.top(), room.bottom(), start.y()))
