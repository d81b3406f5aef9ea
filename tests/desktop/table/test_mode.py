"""Table mode: the UI scale reaches panels, tool bars and map labels; every control is at
least 9 mm on the window's screen; the map turns a quarter at a time; all of it is
remembered, and the application's look is given back when the window closes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.io.fileio import load_encounter
from core.model.grid import Cell
from desktop.dialogs.help import ShortcutSheet
from desktop.mainwindow import MainWindow
from desktop.map.labels import ScreenLabel
from desktop.qt import (
    QApplication,
    QCheckBox,
    QComboBox,
    QPushButton,
    QSettings,
    QToolButton,
    QWidget,
)
from desktop.table.mode import MM_PER_INCH, TOUCH_TARGET_MM, touch_target_px
from tests.desktop.qt_fixtures import DEMO


@pytest.mark.parametrize(("dpi", "scale", "pixels"), [
    (96, 1.0, 35),  # 9 mm = 34.02 px: more than the normal 24 px
    (96, 2.0, 48),  # twice the normal 24 px is more than 9 mm
    (96, 2.5, 60),
    (163, 1.0, 58),  # a dense tablet screen: 9 mm is 57.8 px
    (163, 2.0, 58),
])
def test_touch_targets_are_nine_millimetres_or_the_scaled_size(dpi: float, scale: float,
                                                              pixels: int) -> None:
    assert touch_target_px(dpi, scale) == pixels
    assert pixels / dpi * MM_PER_INCH >= TOUCH_TARGET_MM


def millimetres(widget: QWidget) -> float:
    return widget.height() / widget.screen().physicalDotsPerInch() * MM_PER_INCH


def test_at_200_percent_every_control_is_touch_sized(qtbot: QtBot, window: MainWindow
                                                     ) -> None:
    window.table.mode.set_percent(200)
    window.select_tool("fog")  # a bar with a combo box, a tick box and a button
    QApplication.processEvents()  # the new bar is laid out
    shown = [w for kind in (QToolButton, QPushButton, QComboBox, QCheckBox)
             for w in window.findChildren(kind) if w.isVisible()]
    assert len(shown) > 20
    too_small = [(type(w).__name__, w.text() if hasattr(w, "text") else "", millimetres(w))
                 for w in shown if millimetres(w) < TOUCH_TARGET_MM]
    assert too_small == []
    assert window.table.mode.target_px() == touch_target_px(
        window.screen().physicalDotsPerInch(), 2.0)


def test_the_scale_reaches_fonts_and_map_labels_and_off_restores_them(window: MainWindow
                                                                      ) -> None:
    base = QApplication.font().pointSizeF()
    hazard_label = window.scene.hazard_items[0].label
    width = hazard_label.screen_rect().width()
    window.table.mode.set_percent(250)
    assert QApplication.font().pointSizeF() == pytest.approx(base * 2.5)
    assert hazard_label.font.pixelSize() == round(12 * 2.5)
    assert hazard_label.screen_rect().width() > 2 * width
    window.table.actions["Table mode"].trigger()  # off
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    assert hazard_label.font.pixelSize() == 12 and QApplication.instance().styleSheet() == ""


def test_turning_the_map_keeps_zoom_and_centre_and_turns_the_labels(window: MainWindow
                                                                    ) -> None:
    view = window.view
    view.zoom_by(2)
    view.centre_on_cell(Cell(8, 8))
    zoom, centre = view.zoom, view.mapToScene(view.viewport().rect().center())
    window.table.actions["Turn map 90°"].trigger()
    assert view.zoom == pytest.approx(zoom)
    after = view.mapToScene(view.viewport().rect().center())
    assert abs(after.x() - centre.x()) < 2 and abs(after.y() - centre.y()) < 2
    east = view.mapFromScene(window.scene.renderer.cell_centre(Cell(9, 8)))
    here = view.mapFromScene(window.scene.renderer.cell_centre(Cell(8, 8)))
    assert east.y() > here.y() and abs(east.x() - here.x()) < 2  # east is now down
    label = window.scene.hazard_items[0].label
    assert label.transform().m12() == pytest.approx(1)  # turned a quarter with the map
    assert window.scene.renderer.on_screen(1, view.transform()) == pytest.approx(50 * zoom)
    for _ in range(3):
        window.table.turn_map()
    assert window.scene.renderer.quarter_turns == 0 and label.transform().isIdentity()


def test_table_mode_and_the_turn_are_remembered(qtbot: QtBot, tmp_path: Path,
                                                window: MainWindow) -> None:
    window.table.mode.set_percent(150)
    window.table.turn_map()
    window.table.turn_map()
    window.settings.sync()
    settings = QSettings(window.settings.fileName(), QSettings.Format.IniFormat)
    again = MainWindow(load_encounter(DEMO), None, tmp_path / "data2", settings)
    try:
        assert again.table.mode.enabled and again.table.mode.percent == 150
        assert again.scene.renderer.quarter_turns == 2
        assert again.table.actions["Table mode"].isChecked()
    finally:
        again.document.history.mark_clean()
        again.close()


def test_closing_the_window_gives_the_application_its_look_back(qtbot: QtBot,
                                                                window: MainWindow) -> None:
    base = QApplication.font().pointSizeF()
    window.table.mode.set_percent(200)
    window.document.history.mark_clean()
    window.close()
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    assert QApplication.instance().styleSheet() == ""


def test_the_shortcut_sheet_lists_the_table_play_keys(window: MainWindow) -> None:
    rows = ShortcutSheet(window.menuBar(), window).rows()
    assert rows["Player window"] == "Ctrl+Shift+P"
    assert rows["Players follow my view"] == "Ctrl+Shift+F"
    assert rows["Show players' fog"] == "Shift+O"
    assert rows["Table mode"] == "Ctrl+Shift+T"
    assert rows["Turn map 90°"] == "Ctrl+Shift+R"
    assert rows["Fog of war"] == "O"


def test_screen_labels_follow_a_new_scale_when_made(window: MainWindow) -> None:
    window.table.mode.set_percent(200)
    label = ScreenLabel("new")
    window.scene.addItem(label)
    assert label.font.pixelSize() == 26


def test_table_mode_on_then_off_gives_back_the_window_exactly(qtbot: QtBot,
                                                              window: MainWindow) -> None:
    """Issue 36.4: the larger text widened the panels, and off left them wide. (Where the
    window stands is checked on a real display: tests/desktop/test_window_fit.py.)"""
    window.resize(window.screen().availableGeometry().size() * 0.9)  # a window on its screen
    window.sidebars.toggle("left")  # a layout of the GM's own
    qtbot.waitUntil(lambda: window.sidebars.shown("left")
                    and window.options_bar.minimumHeight() > 0)  # as after the first frame
    QApplication.processEvents()
    state, size = window.saveState(2), window.size()
    viewport = window.view.viewport().size()
    window.table.set_scale(200)  # from View > UI scale: table mode comes on
    qtbot.waitUntil(lambda: window.view.viewport().size() != viewport)
    window.table.actions["Table mode"].trigger()  # off
    qtbot.waitUntil(lambda: window.view.viewport().size() == viewport)
    QApplication.processEvents()
    assert window.saveState(2) == state
    assert window.size() == size and window.view.viewport().size() == viewport
