"""The shove preview drawn on the map: landing cells shaded by probability, hazard cells
the target may fall into with their odds, and the push arrow. It only displays what
core.rules.odds computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.model.grid import Cell, Direction, Footprint
from desktop.map.items import Z_OVERLAY
from desktop.map.labels import ScreenLabel
from desktop.qt import (
    QBrush,
    QColor,
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

if TYPE_CHECKING:
    from fractions import Fraction

    from core.rules.odds import ShoveOdds
    from desktop.map.renderer import MapRenderer

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
        self.labels: list[ScreenLabel] = []
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
        self._label_cells(odds)
        self.show()
        self.update()

    def _label_cells(self, odds: ShoveOdds) -> None:
        for label in self.labels:
            label.setParentItem(None)
            if label.scene() is not None:
                label.scene().removeItem(label)
        self.labels = []
        for cell, p in odds.landing.items():
            self._label(cell, p, LANDING.darker(170))
        for cell, p in odds.hazard_cells.items():
            self._label(cell, p, DANGER.darker(120))

    def _label(self, cell: Cell, p: Fraction, colour: QColor) -> None:
        """A cell's odds beside the cell, never on the target: staying put is written below
        the target; a landing cell's odds hang off its far side (away from the target)."""
        label = ScreenLabel(percent(p), colour, self)
        footprint = self.renderer.footprint_rect(Footprint(cell.x, cell.y, self.size))
        if cell == self.origin:
            label.hang(QPointF(footprint.center().x(), footprint.bottom()), (0, 1))
        else:
            ux, uy = _unit(self.direction)
            edge = footprint.center() + QPointF(ux * footprint.width() / 2,
                                                uy * footprint.height() / 2)
            label.hang(edge, (ux, uy))
        self.labels.append(label)

    def clear(self) -> None:
        self.odds = None
        self.hide()

    def shading(self) -> dict[Cell, int]:
        """The alpha given to each landing cell (the tests compare it with the odds)."""
        return {} if self.odds is None else landing_alphas(self.odds.landing)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.odds is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for cell, alpha in self.shading().items():
            fill = QColor(LANDING.red(), LANDING.green(), LANDING.blue(), alpha)
            self._cell(painter, cell, (fill, LANDING.darker(140)))
        for cell in self.odds.hazard_cells:
            fill = QColor(DANGER.red(), DANGER.green(), DANGER.blue(), 70)
            self._cell(painter, cell, (fill, DANGER), dashed=True)
        self._arrow(painter)

    def _cell(self, painter: QPainter, cell: Cell, colours: tuple[QColor, QColor],
              dashed: bool = False) -> None:
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

    def _arrow(self, painter: QPainter) -> None:
        start = self.renderer.footprint_centre(Footprint(*self.origin, self.size))
        length = self.renderer.length(self.size / 2 + 0.9)
        ux, uy = _unit(self.direction)
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


def _unit(direction: Direction) -> tuple[float, float]:
    dx, dy = direction.delta
    norm = (dx * dx + dy * dy) ** 0.5
    return dx / norm, dy / norm


def landing_alphas(landing: dict[Cell, Fraction]) -> dict[Cell, int]:
    """The shade of each landing cell."""
    return {cell: alpha_for(p) for cell, p in landing.items()}


def alpha_for(p: Fraction) -> int:
    """Shade from faint (unlikely) to strong (certain)."""
    return 40 + round(float(p) * (MAX_ALPHA - 40))


def percent(p: Fraction) -> str:
    value = float(p) * 100
    return f"{value:.0f}%" if value >= 1 or value == 0 else f"{value:.1f}%"
