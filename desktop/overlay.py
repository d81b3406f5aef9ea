"""The shove preview drawn on the map: landing cells shaded by probability, hazard cells
the target may fall into with their odds, and the push arrow. It only displays what
core.rules.odds computed."""

from __future__ import annotations

from fractions import Fraction

from core.model.grid import Cell, Direction, Footprint
from core.rules.odds import ShoveOdds
from desktop.items import Z_OVERLAY
from desktop.qt import (
    QBrush,
    QColor,
    QFont,
    QGraphicsItem,
    QPainter,
    QPainterPath,
    QPen,
    QPointF,
    QPolygonF,
    QRectF,
    QStyleOptionGraphicsItem,
    Qt,
    QWidget,
)
from desktop.renderer import MapRenderer

LANDING = QColor(40, 120, 220)
DANGER = QColor(215, 38, 61)
ARROW = QColor(255, 194, 14)
MAX_ALPHA = 190


class ShovePreview(QGraphicsItem):
    """Shading and labels for one :class:`ShoveOdds`, plus the direction arrow."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_OVERLAY)
        self.odds: ShoveOdds | None = None
        self.size = 1
        self.origin = Cell(0, 0)
        self.direction = Direction.N
        self._bounds = QRectF()
        self.hide()

    def show_odds(self, odds: ShoveOdds, origin: Cell, size: int) -> None:
        self.prepareGeometryChange()
        self.odds, self.origin, self.size = odds, origin, size
        self.direction = Direction(odds.direction)
        cells = [*odds.landing, *odds.hazard_cells, origin]
        rect = QRectF()
        for cell in cells:
            rect = rect.united(self.renderer.footprint_rect(Footprint(cell.x, cell.y, size)))
        pad = self.renderer.length(2)
        self._bounds = rect.adjusted(-pad, -pad, pad, pad)
        self.show()
        self.update()

    def clear(self) -> None:
        self.odds = None
        self.hide()

    def shading(self) -> dict[Cell, int]:
        """The alpha given to each landing cell (the tests compare it with the odds)."""
        if self.odds is None:
            return {}
        return {cell: alpha_for(p) for cell, p in self.odds.landing.items()}

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.odds is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        font = QFont()
        font.setBold(True)
        font.setPixelSize(int(self.renderer.length(0.26)))
        painter.setFont(font)
        for cell, alpha in self.shading().items():
            fill = QColor(LANDING.red(), LANDING.green(), LANDING.blue(), alpha)
            self._cell(painter, cell, (fill, LANDING.darker(140)), self.odds.landing[cell])
        for cell, p in self.odds.hazard_cells.items():
            fill = QColor(DANGER.red(), DANGER.green(), DANGER.blue(), 70)
            self._cell(painter, cell, (fill, DANGER), p, dashed=True)
        self._arrow(painter)

    def _cell(self, painter: QPainter, cell: Cell, colours: tuple[QColor, QColor],
              p: Fraction, dashed: bool = False) -> None:
        fill, edge = colours
        rect = self.renderer.footprint_rect(Footprint(cell.x, cell.y, self.size))
        inset = self.renderer.length(0.06)
        rect = rect.adjusted(inset, inset, -inset, -inset)
        pen = QPen(edge, self.renderer.length(0.05))
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(fill))
        painter.drawRoundedRect(rect, 4, 4)
        label = QRectF(rect.left(), rect.top(), rect.width(), self.renderer.length(0.34))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 215))
        painter.drawRect(label)
        painter.setPen(edge.darker(130))
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, percent(p))

    def _arrow(self, painter: QPainter) -> None:
        start = self.renderer.footprint_centre(Footprint(*self.origin, self.size))
        dx, dy = self.direction.delta
        length = self.renderer.length(self.size / 2 + 0.9)
        norm = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / norm, dy / norm
        end = start + QPointF(ux * length, uy * length)
        painter.setPen(QPen(ARROW.darker(150), self.renderer.length(0.12),
                            Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        path = QPainterPath(start)
        path.lineTo(end)
        painter.drawPath(path)
        head = self.renderer.length(0.35)
        tip = QPolygonF([end + QPointF(ux * head, uy * head),
                         end + QPointF(-uy * head * 0.7, ux * head * 0.7),
                         end + QPointF(uy * head * 0.7, -ux * head * 0.7)])
        painter.setBrush(ARROW)
        painter.drawPolygon(tip)


def alpha_for(p: Fraction) -> int:
    """Shade from faint (unlikely) to strong (certain)."""
    return 40 + round(float(p) * (MAX_ALPHA - 40))


def percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.0f}%" if value >= 1 or value == 0 else f"{value:.1f}%"
