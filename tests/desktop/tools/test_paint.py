"""The Terrain and Elevation brushes: a stroke or a rectangle is one undo step, and the cells
a brush step touches are redrawn as a fresh scene would draw them."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from core.model.grid import Cell
from core.model.mapmodel import Terrain
from core.spatial.geometry import geometry_of
from desktop.mainwindow import MainWindow
from desktop.map.scene import MapScene
from desktop.qt import (
    QImage,
    QPainter,
    Qt,
)
from tests.desktop.qt_fixtures import option

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def test_paint_terrain_stroke_is_one_undo_step(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    window.select_tool("terrain")
    option(window, "terrain", "Terrain").setCurrentText(Terrain.SLIPPERY.value)
    drag((2, 6), [(3, 6), (4, 6), (5, 7)])
    battle_map = window.document.encounter.map
    painted = [Cell(2, 6), Cell(3, 6), Cell(4, 6), Cell(5, 7)]
    assert all(battle_map.terrain_at(c).name is Terrain.SLIPPERY for c in painted)
    assert window.document.history.index == 1
    window.document.undo()
    assert all(battle_map.terrain_at(c).name is Terrain.NORMAL for c in painted)
    window.document.redo()
    assert battle_map.terrain_at(Cell(5, 7)).name is Terrain.SLIPPERY


def test_paint_terrain_rectangle(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    window.select_tool("terrain")
    drag((2, 2), [(4, 4)], Qt.KeyboardModifier.ShiftModifier)
    battle_map = window.document.encounter.map
    assert all(
        battle_map.terrain_at(Cell(x, y)).name is Terrain.DIFFICULT
        for x in range(2, 5)
        for y in range(2, 5)
        if (x, y) != (3, 3)
    )


def test_set_elevation_brush(drag: Callable[..., None], qtbot: QtBot, window: MainWindow) -> None:
    window.select_tool("elevation")
    option(window, "elevation", "Height").setValue(15)
    drag((8, 12), [(9, 12)])
    assert window.document.encounter.map.elevation_at(Cell(9, 12)) == 15
    assert geometry_of(window.document.encounter).elevation[12, 9] == 15


def scene_image(scene: MapScene) -> QImage:
    """The scene's background (cells, ledges, grid) over the whole map, as pixels."""
    area = scene.renderer.map_rect(scene.encounter.map.width, scene.encounter.map.height)
    image = QImage(int(area.width()), int(area.height()), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    scene.drawBackground(painter, area)
    painter.end()
    return image


def test_a_brush_step_redraws_its_cells_as_a_fresh_scene_would(
        drag: Callable[..., None], window: MainWindow) -> None:
    """Only the brushed box of the cell image and the ledge chunks around it are redrawn:
    the result is what a scene drawn from scratch shows, and not what it showed before."""
    before = scene_image(window.scene)
    window.select_tool("elevation")
    option(window, "elevation", "Height").setValue(15)
    # Cells of x = 16 begin a ledge chunk; their west edges are the chunk before's.
    drag((16, 10), [(16, 11), (16, 12), (17, 12)])
    after = scene_image(window.scene)
    assert after != before
    assert after == scene_image(MapScene(window.document))
