"""The window's size, place and panels remembered between runs (versioned), kept on its
screen, and the default layout back on request."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.io.fileio import load_encounter
from desktop.mainwindow import MainWindow
from desktop.qt import QRect, QSettings
from desktop.widgets.window_memory import GEOMETRY, STATE
from tests.desktop.qt_fixtures import DEMO


@pytest.fixture
def open_window(qtbot: QtBot, tmp_path: Path) -> Iterator[Callable[[], MainWindow]]:
    """A function opening a window on the demo with settings kept in ``tmp_path``."""
    opened: list[MainWindow] = []

    def make() -> MainWindow:
        settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(load_encounter(DEMO), None, tmp_path / "data", settings)
        opened.append(window)
        return window

    yield make
    for window in opened:
        window.document.history.mark_clean()
        window.close()


def test_the_layout_is_the_one_left_last_time(qtbot: QtBot,
                                              open_window: Callable[[], MainWindow]) -> None:
    first = open_window()
    first.show()
    first.setGeometry(QRect(40, 30, 700, 500))
    first.sidebars.toggle("left")  # the log shown
    first.sidebars.bring_forward("Resolve")
    qtbot.waitUntil(lambda: first.geometry() == QRect(40, 30, 700, 500))
    state = first.saveState(2)
    first.close()
    second = open_window()
    second.show()
    assert second.geometry().size() == first.geometry().size()
    assert second.sidebars.shown("left") and second.saveState(2) == state


def test_a_layout_of_another_version_is_not_restored(open_window: Callable[[], MainWindow]) -> None:
    first = open_window()
    first.sidebars.toggle("left")
    first.settings.setValue(STATE, first.saveState(1))  # an older arrangement
    second = open_window()
    assert second.sidebars.shown("right") and not second.sidebars.shown("left")


def test_a_window_remembered_off_its_screen_comes_back_onto_it(
        open_window: Callable[[], MainWindow]) -> None:
    first = open_window()
    first.setGeometry(QRect(5000, 4000, 9000, 7000))  # another monitor, a larger scale
    first.settings.setValue(GEOMETRY, first.saveGeometry())
    second = open_window()
    available = second.screen().availableGeometry()
    assert available.contains(second.frameGeometry())


def test_reset_layout_puts_the_default_back(qtbot: QtBot,
                                            open_window: Callable[[], MainWindow]) -> None:
    window = open_window()
    window.show()
    window.sidebars.toggle("right")
    window.sidebars.toggle("left")
    window.actions_by_name["Timeline segments"].setChecked(True)
    window.reset_layout()
    qtbot.waitUntil(lambda: window.sidebars.shown("right"))
    assert not window.sidebars.shown("left") and not window.timeline_panel.expanded
