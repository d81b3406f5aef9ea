"""The retreat preview of a morale check: for each creature that would run, its walk as a
dashed arrow from where it stands, and the place it would end with its feet (green), or a
red mark where it is cornered. It only displays what core.rules.morale planned."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from desktop.map.melee_items import BAD, GOOD, CellMarks, Mark
from desktop.qt import (
    QColor,
    QPainter,
    QPainterPath,
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

WALK = QColor("#e07b00")


class Walk(NamedTuple):
    """One creature's planned retreat: the footprints it passes, its label, and whether it
    gets away from the enemy at all."""

    footprints: tuple[Footprint, ...]
    label: str
    escapes: bool


class RetreatPreview(CellMarks):
    """Dashed walks with arrowheads, and a labelled mark where each would end."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__(renderer)
        self.walks: list[Walk] = []

    def show_walks(self, walks: list[Walk]) -> None:
        self.walks = walks
        self.marks = [Mark(w.footprints[-1], w.label, GOOD if w.escapes else BAD)
                      for w in walks]
        self._cover([f for w in walks for f in w.footprints],
                    [(_below(self.renderer.footprint_rect(m.footprint)), m.text, m.colour)
                     for m in self.marks])
        self.setVisible(bool(walks))

    def clear(self) -> None:
        self.show_walks([])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        pen = QPen(WALK, self.renderer.length(0.09))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        for walk in self.walks:
            points = [self.renderer.footprint_centre(f) for f in walk.footprints]
            if len(points) < 2:
                continue
            line = QPainterPath(points[0])
            for point in points[1:]:
                line.lineTo(point)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(line)
            self._arrowhead(painter, points[-2], points[-1])

    def _arrowhead(self, painter: QPainter, tail: QPointF, tip: QPointF) -> None:
        angle = math.atan2(tip.y() - tail.y(), tip.x() - tail.x())
        size = self.renderer.length(0.3)
        wings = [QPointF(tip.x() - size * math.cos(angle + turn),
                         tip.y() - size * math.sin(angle + turn)) for turn in (0.45, -0.45)]
        head = QPainterPath(tip)
        head.lineTo(wings[0])
        head.lineTo(wings[1])
        head.closeSubpath()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(WALK)
        painter.drawPath(head)


def _below(rect: QRectF) -> QPointF:
    """Where a mark's label goes: across its bottom edge, clear of the arrowhead."""
    return QPointF(rect.center().x(), rect.bottom())
