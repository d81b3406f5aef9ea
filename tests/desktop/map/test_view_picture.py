"""Layers copied from a picture of the view (desktop.map.view_picture) look as drawn
directly, follow edits, are lent while the wheel turns and taken anew once it rests; and
detail a zoom-in would show waits for the rest."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.model.grid import Cell
from core.model.mapmodel import WallSegment
from desktop.mainwindow import MainWindow
from desktop.map.renderer import MapRenderer
from desktop.map.scene import MIN_GRID_PX
from desktop.map.wall_layer import WallLayer
from desktop.qt import (
    QApplication,
    QGraphicsItem,
    QImage,
    QPainter,
    QRectF,
    QStyleOptionGraphicsItem,
    QTransform,
    QWidget,
)
from tests.desktop.map.test_overview import zoom_to

SIZE = (400, 300)


def painted(item: QGraphicsItem, transform: QTransform, widget: QWidget | None,
            size: tuple[int, int] = SIZE) -> np.ndarray:
    """The item painted into a transparent image of ``size`` under ``transform``: through
    its picture when ``widget`` (the view's viewport) is given, else directly."""
    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QPainter(image)
    painter.setTransform(transform)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = transform.inverted()[0].mapRect(  # type: ignore[attr-defined]
        QRectF(0, 0, *size))
    item.paint(painter, option, widget)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(size[1], size[0], 4).copy()


def test_walls_from_the_picture_are_the_walls_drawn_directly(qtbot: QtBot) -> None:
    layer = WallLayer(MapRenderer())
    layer.set_walls([WallSegment(x1=x, y1=2, x2=x + 3, y2=40) for x in range(0, 90, 4)]
                    + [WallSegment(x1=0, y1=y, x2=90, y2=y) for y in range(5, 60, 7)])
    viewport = QWidget()
    viewport.resize(*SIZE)
    transform = QTransform.fromScale(0.09, 0.09) * QTransform.fromTranslate(10.5, 7)
    direct = painted(layer, transform, None)
    assert direct[..., 3].any()
    assert np.abs(painted(layer, transform, viewport).astype(int) - direct).max() <= 1
    panned = transform * QTransform.fromTranslate(-13, 4)  # whole pixels: the same picture
    shot = layer.picture._shot
    assert np.abs(painted(layer, panned, viewport).astype(int)
                  - painted(layer, panned, None)).max() <= 1
    assert layer.picture._shot is shot
    layer.change([], [WallSegment(x1=0, y1=5, x2=90, y2=5)])  # an edit: drawn anew
    assert np.abs(painted(layer, panned, viewport).astype(int)
                  - painted(layer, panned, None)).max() <= 1


def test_the_dots_picture_follows_a_token_that_moves(window: MainWindow) -> None:
    zoom_to(window, 5)
    scene, viewport = window.scene, window.view.viewport()
    transform = window.view.viewportTransform()
    size = (viewport.width(), viewport.height())
    painted(scene.dots, transform, viewport, size)  # the picture is taken
    window.document.push(MoveToken("mira", Cell(2, 2)))
    from_picture = painted(scene.dots, transform, viewport, size)
    assert from_picture[..., 3].any()
    assert np.array_equal(from_picture, painted(scene.dots, transform, None, size))


def test_the_picture_is_lent_while_zooming_and_taken_anew_at_rest(
        qtbot: QtBot, window: MainWindow) -> None:
    view, floor = window.view, window.scene.floor  # the walls' picture, and more
    zoom_to(window, 4)
    qtbot.waitUntil(lambda: not window.scene.faces.zooming)
    view.viewport().repaint()
    rested = floor.picture._shot
    assert rested is not None
    view.zoom_by(1.2)
    view.viewport().repaint()
    assert floor.picture._shot is rested  # lent, scaled
    qtbot.waitUntil(lambda: not window.scene.faces.zooming)
    view.viewport().repaint()
    assert floor.picture._shot is not rested
    QApplication.processEvents()


def test_the_grid_comes_once_a_zoom_in_rests(qtbot: QtBot, window: MainWindow) -> None:
    scene = window.scene
    scene.show_elevation_numbers = False
    zoom_to(window, MIN_GRID_PX / 2)
    qtbot.waitUntil(lambda: not scene.faces.zooming)
    image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)

    def grid_drawn() -> bool:
        painter = QPainter(image)
        painter.setTransform(window.view.viewportTransform())
        lines: list[object] = []
        original = painter.drawLines
        painter.drawLines = lines.append  # type: ignore[method-assign]
        scene._draw_grid(painter, scene.sceneRect())
        painter.drawLines = original  # type: ignore[method-assign]
        painter.end()
        return bool(lines)

    assert not grid_drawn()
    zoom_to(window, MIN_GRID_PX * 2)
    assert scene.faces.zooming and not grid_drawn()
    qtbot.waitUntil(lambda: not scene.faces.zooming)
    assert grid_drawn()


def test_dots_stay_dots_through_a_zoom_in_and_owe_their_faces_at_rest(
        qtbot: QtBot, window: MainWindow) -> None:
    scene = window.scene
    zoom_to(window, 4)  # every demo token a dot
    qtbot.waitUntil(lambda: not scene.faces.zooming)
    mira = scene.tokens["mira"]
    assert mira.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    zoom_to(window, 20)  # a Medium token 20 px: detailed at rest, a dot while zooming
    assert scene.faces.zooming
    assert mira.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    qtbot.waitUntil(lambda: not scene.faces.zooming)
    assert not mira.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    qtbot.waitUntil(lambda: scene.faces.owed == 0)
