"""What the GM's scene draws: hazard names only where cells are big enough to hold them,
condition badges readable inside their token at any zoom, a selection ring a GM can see."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.map.items import MIN_BADGE_PX
from desktop.map.scene import MIN_HAZARD_NAME_CELL_PX
from desktop.qt import (
    QImage,
    QPainter,
    QStyleOptionGraphicsItem,
    Qt,
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
