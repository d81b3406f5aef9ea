"""Zoomed far out, the ground, the hazards' tint and the walls are copied from one picture
(desktop.map.floor): it looks as the three drawn apart, follows every kind of edit, and
steps aside while something is drawn between them (the GM's fog preview)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import PaintTerrain, ReplaceHazard, ReplaceWalls
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardKind, Terrain, WallKind, WallSegment
from desktop.mainwindow import MainWindow
from desktop.map.scene import MIN_GRID_PX, MIN_HAZARD_NAME_CELL_PX
from desktop.qt import QGraphicsRectItem, QImage, Qt
from tests.desktop.map.test_overview import shown, zoom_to

FAR_PX = 5  # a cell on screen: hazards as a tint, walls from a picture, no grid


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.bytesPerLine() // 4, 4)[:, :image.width(), :3].astype(int)


def zoom_and_rest(qtbot: QtBot, window: MainWindow, cell_px: float) -> None:
    zoom_to(window, cell_px)
    qtbot.waitUntil(lambda: not window.scene.faces.zooming)


@pytest.fixture
def far(qtbot: QtBot, window: MainWindow) -> Iterator[MainWindow]:
    """The demo zoomed far out, at rest."""
    zoom_and_rest(qtbot, window, FAR_PX)
    yield window


def through_floor(window: MainWindow) -> np.ndarray:
    image = pixels(shown(window))
    assert window.scene.walls.held and window.scene.hazard_tint.held
    return image


def apart(window: MainWindow) -> np.ndarray:
    """The view with the three layers drawn each on its own: an underlay is shown (one that
    draws nothing), so the floor steps aside."""
    spacer = QGraphicsRectItem()
    spacer.setPen(Qt.PenStyle.NoPen)
    window.scene.addItem(spacer)
    window.scene.floor.underlays.append(spacer)
    try:
        image = pixels(shown(window))
        assert not window.scene.walls.held
        return image
    finally:
        window.scene.floor.underlays.remove(spacer)
        window.scene.removeItem(spacer)


def assert_same(window: MainWindow) -> np.ndarray:
    """The floor's frame is the layers' frame, within a step of rounding (the walls are
    blended onto the ground in the picture, onto the screen apart); the frame."""
    frame = through_floor(window)
    difference = np.abs(frame - apart(window))
    assert difference.max() <= 2, np.argwhere(difference > 2)[:5]
    return frame


def test_far_out_the_floor_looks_as_its_layers_drawn_apart(far: MainWindow) -> None:
    assert far.scene.encounter.map.walls and far.scene.encounter.map.hazards
    assert_same(far)
    assert far.scene.floor.picture._shot is not None


def test_the_floor_follows_terrain_walls_and_hazards_edited(far: MainWindow) -> None:
    document = far.document
    frames = [through_floor(far)]  # the picture is taken before the edits
    for command in (
            PaintTerrain({Cell(x, 3) for x in range(2, 9)}, Terrain.DIFFICULT),
            ReplaceWalls([WallSegment(x1=1, y1=1, x2=20, y2=1, kind=WallKind.WALL)], []),
            ReplaceHazard(None, Hazard(name="Pit", kind=HazardKind.PIT,
                                       cells=tuple(Cell(x, 12) for x in range(3, 10))))):
        document.push(command)
        frames.append(assert_same(far))
        assert (frames[-1] != frames[-2]).any()  # the edit shows
    document.undo()
    document.undo()
    assert_same(far)


def test_the_grid_toggled_far_out_shows_at_once(qtbot: QtBot, window: MainWindow) -> None:
    # The grid shown, the hazards tinted.
    zoom_and_rest(qtbot, window, (MIN_GRID_PX + MIN_HAZARD_NAME_CELL_PX) / 2)
    with_grid = through_floor(window)
    window.scene.show_grid = False
    without = through_floor(window)
    assert (with_grid != without).any()
    assert_same(window)


def test_the_fog_preview_under_the_walls_keeps_the_layers_apart(
        qtbot: QtBot, far: MainWindow) -> None:
    far.select_tool("fog")
    shown(far)
    assert not far.scene.walls.held
    far.select_tool("select")
    qtbot.waitUntil(lambda: not far.scene.floor.underlays[0].isVisible())
    through_floor(far)
