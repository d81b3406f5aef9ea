"""Showing a resolution happen: the token slides along its path, a slam leaves an impact
marker with the damage, a fall is marked at the hazard."""

from __future__ import annotations

from collections.abc import Sequence

from core.model.grid import Cell
from desktop.items import Z_OVERLAY, TokenItem
from desktop.labels import ScreenLabel
from desktop.qt import (
    QColor,
    QEasingCurve,
    QGraphicsScene,
    QPointF,
    QTimer,
    QVariantAnimation,
    isValid,
)
from desktop.renderer import MapRenderer

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
            item.setPos(a + (b - a) * fraction)

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


def marker(scene: QGraphicsScene, at: QPointF, text: str, colour: QColor) -> ScreenLabel:
    """A short-lived label on the map (impact, fall), readable at any zoom; removed after
    a moment."""
    label = ScreenLabel(text, colour, size_px=16)
    label.setZValue(Z_OVERLAY + 1)
    label.place(at, QPointF(0, -14), centred=True)
    scene.addItem(label)
    QTimer.singleShot(MARKER_MS, lambda: label.scene() and label.scene().removeItem(label))
    return label
