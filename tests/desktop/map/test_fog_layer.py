"""The fog layer shows each cell's fog, and a change repaints only the cells it changed."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from core.model.grid import Cell
from core.spatial.playerview import PlayerView
from desktop.map.fog_layer import PLAYERS_FOG, FogLayer
from desktop.map.renderer import MapRenderer
from desktop.qt import QApplication, QFrame, QGraphicsScene, QGraphicsView, QRect, Qt
from tests.desktop.map.test_overview import PaintedAreas

WIDTH, HEIGHT = 12, 8  # cells: 600×400 px at zoom 1, all in the view


def test_a_change_repaints_only_the_cells_it_changed(qtbot: QtBot) -> None:
    renderer = MapRenderer()
    fog = FogLayer(renderer, PLAYERS_FOG)
    scene = QGraphicsScene()
    scene.addItem(fog)
    scene.setSceneRect(renderer.map_rect(WIDTH, HEIGHT))
    view = QGraphicsView(scene)
    view.setFrameShape(QFrame.Shape.NoFrame)
    for policy in (view.setHorizontalScrollBarPolicy, view.setVerticalScrollBarPolicy):
        policy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.resize(600, 400)
    qtbot.addWidget(view)
    view.show()
    seen = np.zeros((HEIGHT, WIDTH), bool)
    seen[2:5, 3:7] = True
    fog.show_view(PlayerView(visible=seen[:, ::-1], explored=seen[:, ::-1]))
    qtbot.waitExposed(view)
    QApplication.processEvents()
    fog.show_view(PlayerView(visible=seen, explored=seen))  # (the first change after a
    QApplication.processEvents()  # geometry change is repainted whole, by Qt)
    assert fog.cell_colour(4, 3).alpha() == 0
    assert fog.cell_colour(0, 0) == PLAYERS_FOG.unseen
    painted = PaintedAreas()
    view.viewport().installEventFilter(painted)
    moved = np.zeros_like(seen)
    moved[2:5, 5:9] = True  # cells 3-4 now remembered, 7-8 seen for the first time
    fog.show_view(PlayerView(visible=moved, explored=seen | moved))
    qtbot.waitUntil(lambda: bool(painted.rects))
    QApplication.processEvents()
    view.viewport().removeEventFilter(painted)
    assert fog.cell_colour(3, 3) == PLAYERS_FOG.remembered
    assert fog.cell_colour(8, 3).alpha() == 0
    box = QRect()
    for rect in painted.rects:
        box = box.united(rect)
    cells = view.mapFromScene(renderer.cell_rect(Cell(3, 2)).united(
        renderer.cell_rect(Cell(8, 4)))).boundingRect()
    assert cells.adjusted(-3, -3, 3, 3).contains(box) and box.contains(cells.adjusted(2, 2, -2, -2))
