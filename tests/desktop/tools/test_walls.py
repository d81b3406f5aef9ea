"""The Walls tool: a wall drawn on the map, undone in one step."""

from __future__ import annotations

from types import SimpleNamespace

from pytestqt.qtbot import QtBot

from core.model.grid import Cell, Direction
from core.model.mapmodel import WallSegment
from core.spatial.geometry import geometry_of
from desktop.mainwindow import MainWindow
from desktop.qt import (
    Qt,
)

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def test_draw_wall_with_the_tool(points: SimpleNamespace, qtbot: QtBot, window: MainWindow) -> None:
    window.select_tool("wall")
    viewport = window.view.viewport()
    start, end = points.corner(3, 2), points.corner(3, 6)
    qtbot.mousePress(viewport, LEFT, NONE, start)
    qtbot.mouseMove(viewport, end)
    qtbot.mouseRelease(viewport, LEFT, NONE, end)
    walls = window.document.encounter.map.walls
    assert walls[-1] == WallSegment(x1=3, y1=2, x2=3, y2=6)
    assert geometry_of(window.document.encounter).move_blocked(Cell(2, 4), Direction.E)
    window.document.undo()
    assert WallSegment(x1=3, y1=2, x2=3, y2=6) not in window.document.encounter.map.walls
    assert not geometry_of(window.document.encounter).move_blocked(Cell(2, 4), Direction.E)
    window.document.redo()
    assert walls[-1] == WallSegment(x1=3, y1=2, x2=3, y2=6)
