"""The panels as two collapsible sidebars: the fight's panels shown on the right, the
record of it hidden on the left, each side one key or one click away, the Resolve tab in
front when a tool shows odds."""

from __future__ import annotations

from types import SimpleNamespace

from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, Qt, QToolButton
from desktop.widgets.screen_fit import SIDEBAR_MAX_PX, SIDEBAR_MIN_PX


def in_front(window: MainWindow, title: str) -> bool:
    QApplication.processEvents()
    return title in window.sidebars.in_front()


def test_the_fight_is_on_the_right_the_record_hidden_on_the_left(window: MainWindow) -> None:
    sidebars = window.sidebars
    assert [d.windowTitle() for d in sidebars.on("right")] == ["Combatants", "Resolve"]
    assert [d.windowTitle() for d in sidebars.on("left")] == ["Combat log", "History"]
    assert sidebars.shown("right") and not sidebars.shown("left")
    assert in_front(window, "Combatants") and not in_front(window, "Resolve")
    assert window.combatants_dock.width() <= SIDEBAR_MAX_PX
    assert window.combatants_dock.titleBarWidget() is not None  # tabs name the panels


def test_each_side_hides_and_comes_back_whole_with_its_front_tab(window: MainWindow) -> None:
    right = window.actions_by_name["Right sidebar"]
    viewport = window.view.viewport().width()
    window.sidebars.bring_forward("Resolve")
    right.trigger()
    QApplication.processEvents()
    assert not window.sidebars.shown("right") and not right.isChecked()
    assert window.view.viewport().width() > viewport  # the map takes the room
    right.trigger()
    assert window.sidebars.shown("right") and in_front(window, "Resolve")
    window.actions_by_name["Left sidebar"].trigger()
    assert window.sidebars.shown("left") and in_front(window, "Combat log")


def test_the_status_bar_shows_and_hides_a_side_in_one_click(qtbot: QtBot, window: MainWindow
                                                            ) -> None:
    buttons = {b.text(): b for b in window.statusBar().findChildren(QToolButton)}
    assert buttons["Panels ◨"].isChecked() and not buttons["◧ Log"].isChecked()
    assert "Ctrl+]" in buttons["Panels ◨"].toolTip()
    qtbot.mouseClick(buttons["◧ Log"], Qt.MouseButton.LeftButton)
    assert window.sidebars.shown("left") and buttons["◧ Log"].isChecked()
    qtbot.mouseClick(buttons["Panels ◨"], Qt.MouseButton.LeftButton)
    assert not window.sidebars.shown("right") and not buttons["Panels ◨"].isChecked()


def test_the_resolve_tab_comes_forward_when_a_shove_is_aimed(
        qtbot: QtBot, window: MainWindow, points: SimpleNamespace) -> None:
    assert in_front(window, "Combatants")
    window.select_tool("shove")
    viewport = window.view.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     points.cell(7, 8))  # the ogre
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     points.cell(6, 9))  # Mira: the aim and its odds card
    assert "shoves" in window.resolve_panel.title.text()
    assert in_front(window, "Resolve")


def test_every_panel_fits_a_laptop_s_sidebar_without_scrolling_sideways(
        window: MainWindow) -> None:
    """Issue 36.1: at 1280×800 the combatant form showed five fields; its labels need the
    sidebar's least width, no more."""
    for dock in window.sidebars.docks.values():
        assert dock.minimumSizeHint().width() <= SIDEBAR_MIN_PX, dock.windowTitle()
