"""Graphics items of the melee manoeuvres: the links drawn between grappling tokens, and
labelled cell marks (the evade checks on a dragged path, the cells a throw or a forcing
back may send a creature to). They only display what core computed."""

from __future__ import annotations

from dataclasses import dataclass

from core.model.grid import Footprint
from core.model.melee import HoldKind
from desktop.items import Z_OVERLAY, Z_TOKEN
from desktop.qt import (
    QColor,
    QFont,
    QGraphicsItem,
    QPainter,
    QPen,
    QPointF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
)
from desktop.renderer import MapRenderer

HOLD_COLOURS: dict[HoldKind, QColor] = {
    HoldKind.HOLD: QColor("#e0a100"), HoldKind.PIN: QColor("#7a4ea3"),
    HoldKind.LOCK: QColor("#c0392b")}
GOOD, RISKY, BAD = QColor(31, 157, 85), QColor(224, 161, 0), QColor(215, 38, 61)


@dataclass(frozen=True)
class Link:
    """One hold between two footprints."""

    holder: Footprint
    held: Footprint
    kind: HoldKind
    label: str


@dataclass(frozen=True)
class Mark:
    """A labelled footprint on the map."""

    footprint: Footprint
    text: str
    colour: QColor


def _bold(pixels: float) -> QFont:
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(7, int(pixels)))
    return font


def _label(painter: QPainter, centre: QPointF, text: str, colour: QColor,
           renderer: MapRenderer) -> None:
    """Text in a white rounded box centred on ``centre``."""
    painter.setFont(_bold(renderer.length(0.2)))
    width = painter.fontMetrics().horizontalAdvance(text) + renderer.length(0.12)
    box = QRectF(centre.x() - width / 2, centre.y() - renderer.length(0.15), width,
                 renderer.length(0.3))
    painter.setPen(QPen(colour, 1.5))
    painter.setBrush(QColor(255, 255, 255, 230))
    painter.drawRoundedRect(box, 4, 4)
    painter.setPen(colour.darker(130))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class _Layer(QGraphicsItem):
    """An item drawn over some footprints: its bounds cover them and their labels."""

    def __init__(self, renderer: MapRenderer, z: float) -> None:
        super().__init__()
        self.renderer = renderer
        self._bounds = QRectF()
        self.setZValue(z)

    def _cover(self, footprints: list[Footprint]) -> None:
        self.prepareGeometryChange()
        rect = QRectF()
        for footprint in footprints:
            rect = rect.united(self.renderer.footprint_rect(footprint))
        pad = self.renderer.length(1)  # labels may stick out of their cells
        self._bounds = rect.adjusted(-pad, -pad, pad, pad)
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
        self._cover([f for link in links for f in (link.holder, link.held)])

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
            _label(painter, (a + b) / 2, link.label, colour, self.renderer)


class CellMarks(_Layer):
    """Labelled, tinted footprints: a path's evade checks, a throw's or a push's choices."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__(renderer, Z_OVERLAY)
        self.marks: list[Mark] = []
        self.hide()

    def show_marks(self, marks: list[Mark]) -> None:
        self.marks = marks
        self._cover([mark.footprint for mark in marks])
        self.setVisible(bool(marks))

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
            _label(painter, rect.center(), mark.text, mark.colour, self.renderer)


def chance_colour(chance: float) -> QColor:
    """Green for a likely outcome, amber for a toss-up, red for an unlikely one."""
    return GOOD if chance >= 0.65 else RISKY if chance >= 0.35 else BAD
