"""Regression guard for the PySide6-Essentials 6.12.0 refcount bug.

On Python 3.11, PySide6-Essentials 6.12.0 decrements the reference count of
``None`` one time too many every time a Python override of a virtual method such
as ``QGraphicsItem.paint()`` returns. Every repaint of the battle map therefore
leaks a little of ``None``'s refcount; after enough frames it hits zero and
CPython aborts the whole process with ``Fatal Python error: none_dealloc:
deallocating None``.

pyproject.toml pins ``PySide6-Essentials>=6.8,<6.12`` because of this. These tests
make sure the pin is honoured and that a Python ``paint()`` override leaves the
refcount of ``None`` alone. They render in batches and check the drift after each
batch, so that a broken binding fails here with a readable message instead of
killing the test process (a crash still counts as a failure).

On Python 3.12+ ``None`` is immortal and its refcount never moves, so the
refcount test passes trivially there; the paint-count assertions still run.
"""

from __future__ import annotations

import gc
import os
import sys

import PySide6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

# Headless by default (CI exports it too); read when pytest-qt creates the QApplication.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

N_ITEMS = 6
N_RENDERS = 1_000
BATCH = 50
TOLERANCE = 50
SIZE = 40.0


class _Token(QGraphicsItem):
    """A minimal Python-side QGraphicsItem, like the map's token items."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.paint_calls = 0
        self.setPos(QPointF(index * (SIZE + 4.0), 0.0))

    def boundingRect(self) -> QRectF:
        return QRectF(0.0, 0.0, SIZE, SIZE)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionGraphicsItem,
        widget: QWidget | None = None,
    ) -> None:
        self.paint_calls += 1
        painter.setBrush(QColor(200, 30, 30))
        painter.drawEllipse(self.boundingRect())


def _render(scene: QGraphicsScene, image: QImage) -> None:
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    try:
        scene.render(painter)
    finally:
        painter.end()


def _pyside_version() -> tuple[int, int]:
    major, minor = PySide6.__version__.split(".")[:2]
    return int(major), int(minor)


def test_pyside6_version_is_pinned_below_6_12() -> None:
    assert _pyside_version() < (6, 12), (
        f"PySide6 {PySide6.__version__} is installed; 6.12.0 corrupts the refcount "
        "of None on every Python paint() override. Keep PySide6-Essentials<6.12."
    )


def test_python_paint_override_keeps_none_refcount(qapp: QApplication) -> None:
    scene = QGraphicsScene()
    scene.setSceneRect(QRectF(0.0, 0.0, N_ITEMS * (SIZE + 4.0), SIZE))
    items = [_Token(i) for i in range(N_ITEMS)]
    for item in items:
        scene.addItem(item)
    image = QImage(int(scene.width()), int(SIZE), QImage.Format.Format_ARGB32_Premultiplied)

    # Warm up: first render creates caches, style objects, wrapper types, ...
    _render(scene, image)
    for item in items:
        item.paint_calls = 0
    gc.collect()
    before = sys.getrefcount(None)

    for done in range(BATCH, N_RENDERS + 1, BATCH):
        for _ in range(BATCH):
            _render(scene, image)
        gc.collect()
        drift = sys.getrefcount(None) - before
        assert abs(drift) <= TOLERANCE, (
            f"refcount of None drifted by {drift} after {done} renders "
            f"({done * N_ITEMS} Python paint() calls) with PySide6 "
            f"{PySide6.__version__}: the binding mis-counts None when paint() returns"
        )
        qapp.processEvents()

    # The overrides really ran, so the check above is not vacuous.
    assert [item.paint_calls for item in items] == [N_RENDERS] * N_ITEMS
    # And they really drew: the centre of the first token is painted red.
    centre = image.pixelColor(int(SIZE / 2), int(SIZE / 2))
    assert (centre.red(), centre.green(), centre.blue()) == (200, 30, 30)
