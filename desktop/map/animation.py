"""Showing a resolution happen: the token slides along its path, a slam leaves an impact
marker with the damage, a fall is marked at the hazard, a missile flies to where it struck
or landed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map.items import Z_OVERLAY, TokenItem
from desktop.map.labels import ScreenLabel
from desktop.qt import (
    QColor,
    QEasingCurve,
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QPainterPath,
    QPen,
    QPointF,
    QTimer,
    QVariantAnimation,
    isValid,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from core.model.encounter import Encounter
    from core.model.grid import Cell
    from core.rules.missile import MissileResult
    from desktop.map.renderer import MapRenderer

MARKER_MS = 1800


def slide(items: Sequence[TokenItem], cells: tuple[Cell, ...], renderer: MapRenderer,
          ms_per_cell: int) -> QVariantAnimation | None:
    """Move the items' pictures (one token in the GM's and the players' scenes) through
    ``cells`` (top-left cells), ending where the model has it; one animation drives them
    all. None when there is nothing to show or animation is off."""
    if ms_per_cell <= 0 or len(cells) < 2 or not items:
        return None
    points = [renderer.cell_rect(c).topLeft() for c in cells]
    animation = QVariantAnimation(items[0])
    animation.setStartValue(0.0)
    animation.setEndValue(float(len(points) - 1))
    animation.setDuration(ms_per_cell * (len(points) - 1))
    animation.setEasingCurve(QEasingCurve.Type.OutCubic)

    def step(value: float) -> None:
        index = min(int(value), len(points) - 2)
        fraction = value - index
        a, b = points[index], points[index + 1]
        for item in live(items):
            item.show_at(a + (b - a) * fraction)

    def land() -> None:
        for item in live(items):
            item.sync(item.token)

    animation.valueChanged.connect(step)
    animation.finished.connect(land)
    animation.start()
    return animation


def live(items: Sequence[TokenItem]) -> list[TokenItem]:
    """The items still on the map (the players' window may close mid-animation)."""
    return [item for item in items if isValid(item) and item.scene() is not None]


class LastingMarks:
    """Marks that stay on the map until the next ruling (where a missed missile came down:
    the GM looks for it after the animation), in every scene they were put in."""

    def __init__(self) -> None:
        self.items: list[QGraphicsItem] = []

    def keep(self, scene: QGraphicsScene, item: QGraphicsItem) -> None:
        scene.addItem(item)
        self.items.append(item)

    def clear(self) -> None:
        for item in self.items:
            if isValid(item) and item.scene() is not None:
                item.scene().removeItem(item)
        self.items = []


def marker(scene: QGraphicsScene, at: QPointF, text: str, colour: QColor,
           lasting: LastingMarks | None = None) -> ScreenLabel:
    """A label on the map (impact, fall, where a missile came down), readable at any zoom,
    standing over the point; removed after a moment, or kept by ``lasting``."""
    label = ScreenLabel(text, colour, size_px=16)
    label.setZValue(Z_OVERLAY + 1)
    label.place(at, QPointF(0, -14), centred=True)
    _show(scene, label, lasting)
    return label


def _show(scene: QGraphicsScene, item: QGraphicsItem, lasting: LastingMarks | None) -> None:
    if lasting is not None:
        lasting.keep(scene, item)
        return
    scene.addItem(item)
    QTimer.singleShot(MARKER_MS, lambda: item.scene() and item.scene().removeItem(item))


def _cross(scene: QGraphicsScene, at: QPointF, colour: QColor,
           lasting: LastingMarks | None) -> None:
    """An ✕ on the very point a missile struck or came down."""
    path = QPainterPath()
    for dx, dy in ((-7, -7), (7, -7)):
        path.moveTo(dx, dy)
        path.lineTo(-dx, -dy)
    cross = QGraphicsPathItem(path)
    cross.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    cross.setPen(QPen(colour, 3.5))
    cross.setZValue(Z_OVERLAY + 3)
    cross.setPos(at)
    _show(scene, cross, lasting)


def fly(scene: QGraphicsScene, start: QPointF, end: QPointF, ms: int) -> QVariantAnimation | None:
    """A missile's flight: a dot from ``start`` to ``end`` (none when animation is off)."""
    if ms <= 0:
        return None
    dot = QGraphicsEllipseItem(-5, -5, 10, 10)
    dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
    dot.setBrush(QColor("#2b2a28"))
    dot.setPen(QPen(QColor("white"), 2))
    dot.setZValue(Z_OVERLAY + 2)
    dot.setPos(start)
    scene.addItem(dot)
    animation = QVariantAnimation(scene)
    animation.setStartValue(start)
    animation.setEndValue(end)
    animation.setDuration(ms)
    animation.setEasingCurve(QEasingCurve.Type.InQuad)
    animation.valueChanged.connect(dot.setPos)
    animation.finished.connect(lambda: dot.scene() and dot.scene().removeItem(dot))
    animation.start()
    return animation


def show_missile(scene: QGraphicsScene, encounter: Encounter, result: MissileResult,
                 renderer: MapRenderer, ms_per_cell: int, *, lasting: LastingMarks
                 ) -> QVariantAnimation | None:
    """The missile flies from the shooter to what it struck or where it landed, and that
    place is marked (the encounter already holds the outcome): a miss's landing by
    ``lasting``, until the next ruling."""
    start = renderer.to_scene(*result.cover.origin)
    if result.attack.hit:
        end, text = renderer.to_scene(*result.cover.aim), f"hit −{result.attack.damage_taken}"
    elif result.friend_hit is not None and encounter.has_token(result.friend_hit.token_id):
        friend = encounter.token(result.friend_hit.token_id)
        end = renderer.footprint_centre(friend.footprint)
        text = f"hits {friend.name} −{result.friend_hit.damage.value}"
    elif result.landing is not None:
        end = renderer.to_scene(*result.landing.point)
        text = "miss: stopped by a wall" if result.landing.wall else "miss: lands here"
    else:
        return None
    if result.fire_cell is not None:
        text += " · burning oil"
    colour = QColor("#d7263d" if result.attack.hit else "#1f4e8c")
    landed = lasting if result.landing is not None and not result.attack.hit else None

    def mark() -> None:
        _cross(scene, end, colour, landed)
        marker(scene, end, text, colour, landed)

    flight = fly(scene, start, end, ms_per_cell * 3)
    if flight is None:
        mark()
    else:
        flight.finished.connect(mark)
    return flight
