"""The map view: zooming past the map's size, its scroll bars, and a map that stays put when
the GM switches tools."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.model.encounter import Encounter
from core.model.mapmodel import BattleMap
from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.qt import (
    QApplication,
    Qt,
)
from tests.desktop.qt_fixtures import option

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def test_zooming_past_the_map_size_keeps_the_viewport_size(
        qtbot: QtBot, window: MainWindow) -> None:
    """Scroll bars that appeared in the notch that zoomed past the map's size resized the
    viewport: the map jumped by a bar's width and the window was laid out mid-zoom."""
    viewport = window.view.viewport()
    qtbot.waitExposed(window)
    size = viewport.size()
    for factor in (1.5, 1.5, 1 / 1.5, 1 / 1.5, 1 / 1.5):
        window.view.zoom_by(factor)
        qtbot.wait(1)
        assert viewport.size() == size


def test_the_scroll_bars_are_flat_in_the_map_surround_and_touch_sized_at_the_table(
        qtbot: QtBot, window: MainWindow) -> None:
    """Fusion's bars, gradients and step arrows, took 0.9 and 3.0 ms to repaint, and every
    wheel notch repaints both: the map's are flat, in the colour around the map."""
    qtbot.waitExposed(window)
    bars = (window.view.horizontalScrollBar(), window.view.verticalScrollBar())
    for bar in bars:
        image = bar.grab().toImage()
        ends = (image.pixelColor(1, 1), image.pixelColor(image.width() - 2,
                                                          image.height() - 2))
        assert [colour.name() for colour in ends] == [style.BACKGROUND.name()] * 2
    window.table.mode.set_percent(200)
    QApplication.processEvents()
    touch = window.table.mode.target_px()
    assert (bars[0].height(), bars[1].width()) == (touch, touch)


def test_switching_tools_never_moves_the_map(qtbot: QtBot, window: MainWindow) -> None:
    """The options bar is as tall as the tallest tool's options (measured one turn of the
    event loop after the window is built), and the Select tool's options are shown."""
    qtbot.waitUntil(lambda: window.options_bar.minimumHeight() > 0)
    # The bar lays out its widgets on a later turn of the event loop (a full run of the
    # suite once looked between the two turns).
    qtbot.waitUntil(option(window, "select", "Move budget").isVisible)
    top = window.view.mapToGlobal(window.view.rect().topLeft()).y()
    for name in window.tools:
        window.select_tool(name)
        QApplication.processEvents()
        assert window.view.mapToGlobal(window.view.rect().topLeft()).y() == top, name


def test_an_encounter_opens_with_the_whole_map_in_view_and_stays_so_as_the_window_settles(
        qtbot: QtBot, window: MainWindow) -> None:
    """Issue 36.5: a newly opened encounter started half off-screen."""
    view = window.view
    view.zoom_by(3)
    view.scroll_by(400, 300)  # the GM looked around the old map
    big = Encounter(map=BattleMap(width=60, height=20))
    window.document.replace(big, None)

    def whole_map_in_view() -> bool:
        drawn = view.mapFromScene(view.map_scene.renderer.map_rect(60, 20)).boundingRect()
        return view.viewport().rect().adjusted(-1, -1, 1, 1).contains(drawn)

    assert whole_map_in_view()
    wide = view.viewport().width()
    window.resize(window.width() - 200, window.height() - 100)  # the window settling
    qtbot.waitUntil(lambda: view.viewport().width() < wide)
    assert whole_map_in_view()
    view.zoom_by(2)  # the GM zooms: from now on the view stays where the GM puts it
    zoom = view.zoom
    window.resize(window.width() + 200, window.height())
    qtbot.waitUntil(lambda: view.viewport().width() >= wide)
    assert view.zoom == zoom and not view.fitted
