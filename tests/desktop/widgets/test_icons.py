"""The tools' icons: drawn at first only at the size the tool bar shows, which looks exactly
as the whole icon does there, and whole once the map's first frame is painted."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.io.fileio import load_encounter
from desktop.mainwindow import MainWindow
from desktop.qt import QImage, QSettings, QSize
from desktop.system.resources import DEMO
from desktop.widgets.icons import EVERY_SIZE, TOOL_SHAPES, sizes_shown, tool_icon


def _image(name: str, sizes: tuple[tuple[int, float], ...], px: int, ratio: float) -> QImage:
    pixmap = tool_icon(name, sizes).pixmap(QSize(px, px), ratio)
    return pixmap.toImage().convertToFormat(QImage.Format.Format_ARGB32)


@pytest.mark.parametrize(("px", "ratio"), [(24, 1.0), (16, 2.0), (36, 1.0), (24, 1.5)])
def test_the_sizes_shown_look_exactly_as_the_whole_icon(qapp: object, px: int,
                                                        ratio: float) -> None:
    for name in TOOL_SHAPES:
        assert _image(name, sizes_shown(px, ratio), px, ratio) == _image(name, EVERY_SIZE,
                                                                         px, ratio)
    assert sizes_shown(24, 1.0) == ((24, 1.0),)
    assert sizes_shown(36, 1.0) == EVERY_SIZE  # Qt scales the nearest: all must be there


def _sizes(window: MainWindow) -> set[int]:
    """How many pixel sizes each tool's icon holds."""
    return {len(action.icon().availableSizes()) for action in window.tool_actions.values()}


def test_the_tool_bar_icons_are_whole_after_the_first_frame(qtbot: QtBot,
                                                             tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(load_encounter(DEMO), None, tmp_path / "data", settings)
    qtbot.addWidget(window)
    shown = sizes_shown(window.tools_bar.iconSize().width(), window.devicePixelRatio())
    assert _sizes(window) == {len(tool_icon("select", shown).availableSizes())} == {1}
    with qtbot.waitSignal(window.view.first_painted):
        window.show_on_screen()
    assert _sizes(window) == {len(tool_icon("select").availableSizes())} == {10}
    window.document.history.mark_clean()


def test_a_table_mode_tool_bar_shows_its_own_size_from_the_first_frame(
        qtbot: QtBot, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(load_encounter(DEMO), None, tmp_path / "data", settings)
    qtbot.addWidget(window)
    window.table.mode.set_percent(200)
    px = window.tools_bar.iconSize().width()
    assert px == 48
    window.show_on_screen()
    ratio = window.devicePixelRatio()
    for name, action in window.tool_actions.items():
        shown = action.icon().pixmap(QSize(px, px), ratio).toImage()
        assert shown == _image(name, EVERY_SIZE, px, ratio).convertToFormat(shown.format())
    window.document.history.mark_clean()
