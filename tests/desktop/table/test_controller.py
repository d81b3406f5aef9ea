"""The table-play controller: the View menu's player window entries."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.qt import Qt


def test_the_player_windows_key_closes_it_from_the_player_window_too(
        qtbot: QtBot, window: MainWindow) -> None:
    """Ctrl+Shift+P opened it from the GM's window and did nothing once the player window
    had the focus (a GM's walk-through had to go back to the GM's menu)."""
    window.table.show_player_window()
    players = window.table.player_window
    assert players is not None
    players.activateWindow()
    qtbot.waitUntil(players.isActiveWindow)
    qtbot.keyClick(players, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert not players.isVisible()
    assert not window.table.actions["Player window"].isChecked()
