"""What the GM's scene draws: hazard names only where cells are big enough to hold them,
condition badges readable inside their token at any zoom, a selection ring a GM can see,
the backdrop and floor with no seam between."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import BattleMap
from desktop.document.document import EncounterDocument
from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.map.items import MIN_BADGE_PX
from desktop.map.scene import MIN_HAZARD_NAME_CELL_PX, MapScene
from desktop.qt import (
    QColor,
    QEvent,
    QImage,
    QObject,
    QPainter,
    QPaintEvent,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    QStyleOptionGraphicsItem,
    Qt,
    QTransform,
)

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def test_hazard_names_are_hidden_while_cells_are_tiny_on_screen(window: MainWindow,
                                                                 qtbot: QtBot) -> None:
    """Hidden in the wheel notch that makes cells tiny; shown again once the zoom that
    makes them big enough has rested."""
    labels = [item.label for item in window.scene.hazard_items]
    assert labels and all(label.isVisible() for label in labels)  # the demo at fit
    window.view.zoom_by(MIN_HAZARD_NAME_CELL_PX / 2 / window.scene.renderer.length(
        window.view.zoom))
    assert not any(label.isVisible() for label in labels)
    window.view.fit_map()
    qtbot.waitUntil(lambda: not window.scene.faces.zooming)
    assert all(label.isVisible() for label in labels)


def test_a_hazard_s_name_is_drawn_under_the_tokens_and_over_the_walls(window: MainWindow
                                                                     ) -> None:
    """At 150 % on a 1280 × 800 screen the demo's "Spiked pit" covered the ogre beside it."""
    label = window.scene.hazard_items[0].label
    assert window.scene.walls.zValue() < label.zValue()
    assert label.zValue() < min(item.zValue() for item in window.scene.tokens.values())


@pytest.mark.parametrize(("zoom", "count"), [(0.5, 1), (0.5, 3), (3.0, 2)])
def test_condition_badges_stay_readable_and_inside_the_token(window: MainWindow, zoom: float,
                                                             count: int) -> None:
    """A GM's walk-through: at fit on a big map a badge was a few pixels wide."""
    item = window.scene.tokens["ogre"]
    image = QImage(200, 200, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.scale(zoom, zoom)
    try:
        side = item._badge_side(painter, count)
    finally:
        painter.end()
    assert side * zoom >= MIN_BADGE_PX  # the Large ogre: 50 px across at half zoom
    assert side * (1 + 0.9 * (count - 1)) <= item.side_px + 1e-9


def test_a_selected_token_shows_a_ring_a_gm_can_see(window: MainWindow) -> None:
    """A GM's walk-through: the selection ring was a hairline outside the token's own ring;
    the face is drawn smaller when selected, so a band of the selection colour shows."""
    item = window.scene.tokens["mira"]

    def edge_colour(selected: bool) -> str:
        item.setSelected(selected)
        zoom, side = 4, item.side_px
        image = QImage(round(side * zoom), round(side * zoom), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.white)
        painter = QPainter(image)
        painter.scale(zoom, zoom)
        item.paint(painter, QStyleOptionGraphicsItem())
        painter.end()
        return image.pixelColor(round(side * zoom * 0.04), round(side * zoom / 2)).name()

    assert edge_colour(True) == style.SELECTION.name()
    assert edge_colour(False) != style.SELECTION.name()


def test_the_backdrop_and_the_floor_leave_no_pixel_unpainted() -> None:
    """The backdrop is filled only around the map's opaque floor; at any zoom, turn and
    fractional offset every pixel is one or the other (no seam where the fills meet)."""
    scene = MapScene(EncounterDocument(Encounter(map=BattleMap(width=7, height=5))))
    scene.show_grid = False
    middle = scene.renderer.map_rect(7, 5).center()
    expected = {scene.backdrop.rgb(), style.FLOOR.rgb()}
    rng = random.Random(7)
    for _ in range(60):
        image = QImage(300, 200, QImage.Format.Format_RGB32)
        image.setDevicePixelRatio(rng.choice([1.0, 1.25, 1.5]))  # QT_SCALE_FACTOR
        image.fill(QColor("magenta"))  # what nothing painted over
        painter = QPainter(image)
        painter.setWorldTransform(QTransform().translate(
            rng.uniform(100, 200), rng.uniform(60, 140)).rotate(90 * rng.randint(0, 3)).scale(
            *[rng.uniform(0.1, 0.8)] * 2).translate(-middle.x(), -middle.y()))
        scene.drawBackground(painter, painter.worldTransform().inverted()[0].mapRect(
            QRectF(image.rect())))
        painter.end()
        pixels = np.frombuffer(image.constBits(), np.uint32, 300 * 200)
        assert set(np.unique(pixels).tolist()) == expected


def test_a_move_repaints_only_around_the_token(window: MainWindow, qtbot: QtBot) -> None:
    """The GM's map repaints the token's old and new cells, nothing far away (an empty
    layer's update once stretched every move's repaint from the map's corner)."""
    window.settings.setValue("animation_ms", 0)
    view, regions = window.view, []

    class Spy(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if isinstance(event, QPaintEvent):
                regions.append(event.region().boundingRect())
            return False

    spy = Spy()
    view.viewport().installEventFilter(spy)
    window.document.push(MoveToken("mira", Cell(6, 12)))  # from (6, 9)
    qtbot.waitUntil(lambda: bool(regions))
    view.viewport().removeEventFilter(spy)
    moved = view.mapFromScene(window.scene.renderer.cell_rect(Cell(6, 9)).united(
        window.scene.renderer.cell_rect(Cell(6, 12)))).boundingRect()
    corner = QRect(view.mapFromScene(QPointF(0, 0)) - QPoint(3, 3), QSize(6, 6))
    assert any(region.intersects(moved) for region in regions)
    assert not any(region.intersects(corner) for region in regions), (corner, regions)
