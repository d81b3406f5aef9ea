"""Graphics items of the melee manoeuvres: the links drawn between grappling tokens, and
labelled cell marks (the evade checks on a dragged path, the cells a throw or a forcing
back may send a creature to). They only display what core computed."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from core.model.melee import HoldKind
from desktop.map.items import Z_OVERLAY, Z_TOKEN
from desktop.map.labels import ScreenLabel
from desktop.qt import (
    QColor,
    QGraphicsItem,
    QPainter,
    QPen,
    QPointF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
)

if TYPE_CHECKING:
    from core.model.grid import Footprint
    from desktop.map.renderer import MapRenderer

HOLD_COLOURS: dict[HoldKind, QColor] = {
    HoldKind.HOLD: QColor("#e0a100"), HoldKind.PIN: QColor("#7a4ea3"),
    HoldKind.LOCK: QColor("#c0392b")}
GOOD, RISKY, BAD = QColor(31, 157, 85), QColor(224, 161, 0), QColor(215, 38, 61)


class Link(NamedTuple):
    """One hold between two footprints."""

    holder: Footprint
    held: Footprint
    kind: HoldKind
    label: str


class Mark(NamedTuple):
    """A labelled footprint on the map; the label sits at ``label_at`` (grid units) if
    given, else at the footprint's centre."""

    footprint: Footprint
    text: str
    colour: QColor
    label_at: tuple[float, float] | None = None


class _Layer(QGraphicsItem):
    """An item drawn over some footprints, with labels that stay readable at any zoom
    (:class:`desktop.map.labels.ScreenLabel` children)."""

    def __init__(self, renderer: MapRenderer, z: float) -> None:
        super().__init__()
        self.renderer = renderer
        self._bounds = QRectF()
        self.labels: list[ScreenLabel] = []
        self.setZValue(z)

    def _cover(self, footprints: list[Footprint], labels: list[tuple[QPointF, str, QColor]]
               ) -> None:
        if not footprints and not self.labels and self._bounds.isEmpty():
            return  # empty and was: Qt would still repaint a few pixels at the origin
        self.prepareGeometryChange()
        rect = QRectF()
        for footprint in footprints:
            rect = rect.united(self.renderer.footprint_rect(footprint))
        pad = self.renderer.length(0.2)
        # Nothing to cover, nothing to repaint: the padded empty rectangle was a corner of
        # the map repainted at every change, which stretched the GM's repaint region from
        # there to a moved token (every layer between painted, clipped, at each move).
        self._bounds = rect.adjusted(-pad, -pad, pad, pad) if footprints else QRectF()
        for label in self.labels:
            label.setParentItem(None)
            if label.scene() is not None:
                label.scene().removeItem(label)
        self.labels = []
        for anchor, text, colour in labels:
            label = ScreenLabel(text, colour.darker(130), self, size_px=11)
            label.place(anchor, QPointF(0, 0), centred=True)
            self.labels.append(label)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds


class HoldLinks(_Layer):
    """Every hold in place, as a thick link between the two tokens with its kind."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__(renderer, Z_TOKEN + 1)
        self.links: list[Link] = []

    def set_links(self, links: list[Link]) -> None:
        self.links = links
        centre = self.renderer.footprint_centre
        self._cover([f for link in links for f in (link.holder, link.held)],
                    [((centre(link.holder) + centre(link.held)) / 2, link.label,
                      HOLD_COLOURS[link.kind]) for link in links])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for link in self.links:
            colour = HOLD_COLOURS[link.kind]
            a = self.renderer.footprint_centre(link.holder)
            b = self.renderer.footprint_centre(link.held)
            pen = QPen(colour, self.renderer.length(0.12))
            pen.setStyle(Qt.PenStyle.DashLine)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(a, b)


class CellMarks(_Layer):
    """Labelled, tinted footprints: a path's evade checks, a throw's or a push's choices."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__(renderer, Z_OVERLAY)
        self.marks: list[Mark] = []
        self.hide()

    def show_marks(self, marks: list[Mark]) -> None:
        self.marks = marks
        self._cover([mark.footprint for mark in marks],
                    [(self._label_point(mark), mark.text, mark.colour)
                     for mark in marks if mark.text])
        self.setVisible(bool(marks))

    def _label_point(self, mark: Mark) -> QPointF:
        if mark.label_at is None:
            return self.renderer.footprint_centre(mark.footprint)
        return self.renderer.to_scene(*mark.label_at)

    def clear(self) -> None:
        self.show_marks([])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for mark in self.marks:
            rect = self.renderer.footprint_rect(mark.footprint).adjusted(3, 3, -3, -3)
            tint = QColor(mark.colour)
            tint.setAlpha(70)
            painter.setPen(QPen(mark.colour, 2, Qt.PenStyle.DashLine))
            painter.setBrush(tint)
            painter.drawRoundedRect(rect, 6, 6)


def chance_colour(chance: float) -> QColor:
    """Green for a likely outcome, amber for a toss-up, red for an unlikely one."""
    return GOOD if chance >= 0.65 else RISKY if chance >= 0.35 else BAD
