"""The missile preview drawn on the map: the line of fire, the covered part of the target
shaded and what covers it outlined, the friend in the way, and the cells where a miss may
land shaded by probability; the figures in labels that stay readable at any zoom. It only
displays what core.rules.missile_odds computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map.items import Z_OVERLAY, Z_PREVIEW
from desktop.map.labels import ScreenLabel
from desktop.map.shove_overlay import landing_alphas, percent
from desktop.qt import (
    QBrush,
    QColor,
    QGraphicsItem,
    QGraphicsScene,
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
    from core.model.encounter import Encounter
    from core.model.grid import Cell, Footprint
    from core.rules.missile_odds import MissileOdds
    from desktop.map.renderer import MapRenderer

LANDING = QColor(40, 120, 220)
HIDDEN = QColor(120, 20, 40, 150)
BLOCKER = QColor(255, 140, 0)
FRIEND = QColor(46, 160, 67)
LINE = QColor(30, 30, 30)
CELL_LABELS = 6  # the likeliest landing cells get their percentage written on them


class LandingShade(QGraphicsItem):
    """The cells where a miss may land, shaded by probability, under the tokens."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_PREVIEW)
        self.alphas: dict[Cell, int] = {}
        self._bounds = QRectF()

    def show_cells(self, alphas: dict[Cell, int]) -> None:
        self.prepareGeometryChange()
        self.alphas = alphas
        rect = QRectF()
        for cell in alphas:
            rect = rect.united(self.renderer.cell_rect(cell))
        self._bounds = rect
        self.setVisible(bool(alphas))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(QPen(LANDING.darker(140), self.renderer.length(0.03)))
        inset = self.renderer.length(0.05)
        for cell, alpha in self.alphas.items():
            painter.setBrush(QColor(LANDING.red(), LANDING.green(), LANDING.blue(), alpha))
            painter.drawRect(self.renderer.cell_rect(cell).adjusted(inset, inset, -inset, -inset))


class MissilePreview(QGraphicsItem):
    """Everything the Missile tool shows for one shooter and one target (the landing cells
    in :attr:`landing`, an item of its own under the tokens: :meth:`attach` adds both)."""

    def __init__(self, renderer: MapRenderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.setZValue(Z_OVERLAY)
        self.landing = LandingShade(renderer)
        self.odds: MissileOdds | None = None
        self._footprints: dict[str, Footprint] = {}
        self._bounds = QRectF()
        self.summary = ScreenLabel("", LINE, parent=self)
        self.summary.setZValue(1)  # over the cells' percentages
        self.cell_labels: list[ScreenLabel] = []
        self.hide()

    def attach(self, scene: QGraphicsScene) -> None:
        scene.addItem(self.landing)
        scene.addItem(self)

    def show_odds(self, odds: MissileOdds, encounter: Encounter) -> None:
        self.prepareGeometryChange()
        self.odds = odds
        cover = odds.setup.cover
        named = {b.token_id for b in cover.blockers if b.token_id} | {
            odds.setup.target_id, cover.friend_id}
        self._footprints = {t: encounter.token(t).footprint for t in named if t}
        rect = QRectF(self.renderer.to_scene(*cover.origin), self.renderer.to_scene(*cover.aim))
        for footprint in self._footprints.values():
            rect = rect.united(self.renderer.footprint_rect(footprint))
        for blocker in cover.blockers:
            if blocker.segment is not None:
                x1, y1, x2, y2 = blocker.segment
                rect = rect.united(QRectF(self.renderer.to_scene(x1, y1),
                                          self.renderer.to_scene(x2, y2)).normalized())
        pad = self.renderer.length(1)
        self._bounds = rect.normalized().adjusted(-pad, -pad, pad, pad)
        self._place_labels(odds)
        self.landing.show_cells(self.shading())
        self.show()
        self.update()

    def clear(self) -> None:
        self.odds = None
        self._drop_cell_labels()
        self.landing.show_cells({})
        self.hide()

    def _drop_cell_labels(self) -> None:
        for label in self.cell_labels:
            label.setParentItem(None)
            if label.scene() is not None:
                label.scene().removeItem(label)
        self.cell_labels = []

    def shading(self) -> dict[Cell, int]:
        """The alpha given to each landing cell (the tests compare it with the odds)."""
        return {} if self.odds is None else landing_alphas(self.odds.landing)

    def _place_labels(self, odds: MissileOdds) -> None:
        setup, cover = odds.setup, odds.setup.cover
        target = self._footprints[setup.target_id]
        cover_text = (f"arrow slit (+{cover.bonus})" if cover.arrow_slit
                      else f"cover {cover.percent}% (+{cover.bonus})")
        friend = f" · {cover.friend_name} {percent(odds.friend_hit)}" if cover.friend_id else ""
        self.summary.set_text(f"{setup.range.band.value} {setup.range.distance_ft:g} ft · "
                              f"{cover_text} · hit {percent(odds.hit)}{friend}")
        top = self.renderer.footprint_rect(target)
        self.summary.hang(QPointF(top.center().x(), top.top()), (0, -1))
        self._drop_cell_labels()
        under_target = set(target.cells())
        likeliest = sorted(((c, p) for c, p in odds.landing.items() if c not in under_target),
                           key=lambda item: -item[1])[:CELL_LABELS]
        for cell, p in likeliest:
            label = ScreenLabel(percent(p), LANDING.darker(160), self, size_px=11)
            label.place(self.renderer.cell_centre(cell), QPointF(0, 0), centred=True)
            self.cell_labels.append(label)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.odds is None:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_cover(painter)
        self._paint_line(painter)

    def _paint_cover(self, painter: QPainter) -> None:
        assert self.odds is not None
        cover = self.odds.setup.cover
        hidden = QPainterPath()
        for quad in cover.hidden:
            hidden.addPolygon(QPolygonF([self.renderer.to_scene(x, y) for x, y in quad]))
            hidden.closeSubpath()
        painter.setBrush(QBrush(HIDDEN))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPath(hidden.simplified())
        outline = QPen(BLOCKER, self.renderer.length(0.1), Qt.PenStyle.SolidLine,
                       Qt.PenCapStyle.RoundCap)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for blocker in cover.blockers:
            pen = QPen(outline)
            if blocker.token_id == cover.friend_id and blocker.token_id is not None:
                pen.setColor(FRIEND)
            painter.setPen(pen)
            if blocker.segment is not None:
                x1, y1, x2, y2 = blocker.segment
                painter.drawLine(self.renderer.to_scene(x1, y1), self.renderer.to_scene(x2, y2))
            elif blocker.token_id in self._footprints:
                painter.drawRect(self.renderer.footprint_rect(self._footprints[blocker.token_id]))
        target = self._footprints[self.odds.setup.target_id]
        painter.setPen(QPen(LINE, self.renderer.length(0.04), Qt.PenStyle.DashLine))
        painter.drawRect(self.renderer.footprint_rect(target))

    def _paint_line(self, painter: QPainter) -> None:
        assert self.odds is not None
        cover = self.odds.setup.cover
        pen = QPen(FRIEND.darker(130) if cover.friend_id else LINE, self.renderer.length(0.05),
                   Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(self.renderer.to_scene(*cover.origin), self.renderer.to_scene(*cover.aim))
