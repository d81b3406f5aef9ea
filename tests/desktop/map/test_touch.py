"""Touch on the map (synthesized QTouchEvents on the view's viewport): a finger drags a
token along its path, a tap selects, a long press opens the token's menu, two fingers pinch
to zoom about their middle and pan."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from core.model.grid import Cell
from desktop.mainwindow import MainWindow
from desktop.map.touch import Gesture
from desktop.qt import QPoint, QPointingDevice
from tests.desktop.qt_fixtures import cell_point


@pytest.fixture
def finger() -> QPointingDevice:
    from PySide6.QtTest import QTest

    return QTest.createTouchDevice()


class Fingers:
    """Touch points on the map view's viewport, as a touch screen sends them."""

    def __init__(self, window: MainWindow, device: QPointingDevice) -> None:
        self.viewport = window.view.viewport()
        self.device = device

    def _sequence(self):  # type: ignore[no-untyped-def]
        from PySide6.QtTest import QTest

        return QTest.touchEvent(self.viewport, self.device)

    def press(self, *points: tuple[int, QPoint]) -> None:
        sequence = self._sequence()
        for finger_id, point in points:
            sequence.press(finger_id, point, self.viewport)
        sequence.commit()

    def move(self, *points: tuple[int, QPoint]) -> None:
        sequence = self._sequence()
        for finger_id, point in points:
            sequence.move(finger_id, point, self.viewport)
        sequence.commit()

    def release(self, *points: tuple[int, QPoint]) -> None:
        sequence = self._sequence()
        for finger_id, point in points:
            sequence.release(finger_id, point, self.viewport)
        sequence.commit()


@pytest.fixture
def fingers(window: MainWindow, finger: QPointingDevice) -> Fingers:
    window.view.resetTransform()
    window.view.centre_on_cell(Cell(10, 6))
    return Fingers(window, finger)


def test_a_finger_drags_a_token_along_its_path(window: MainWindow, fingers: Fingers) -> None:
    start, end = cell_point(window, 10, 5), cell_point(window, 10, 7)
    fingers.press((0, start))
    for step in range(1, 6):
        fingers.move((0, start + (end - start) * step / 5))
    assert window.view.touch.gesture is Gesture.TOOL
    assert window.scene.path_preview.isVisible()
    fingers.release((0, end))
    assert window.document.encounter.token("brannoc").cell == Cell(10, 7)
    assert window.document.history.labels()[-1] == "Move Brannoc"


def test_a_tap_selects_and_a_tap_on_the_floor_clears(window: MainWindow, fingers: Fingers
                                                     ) -> None:
    fingers.press((0, cell_point(window, 10, 5)))
    fingers.release((0, cell_point(window, 10, 5)))
    assert window.selection.ids == frozenset({"brannoc"})
    assert window.token_panel.form.token_id == "brannoc"  # shown when the finger lifts
    fingers.press((0, cell_point(window, 13, 10)))
    fingers.release((0, cell_point(window, 13, 10)))
    assert window.selection.ids == frozenset()
    assert window.document.history.labels() == []  # tapping moved nothing


def test_a_long_press_opens_the_token_menu(qtbot: QtBot, window: MainWindow, fingers: Fingers
                                           ) -> None:
    window.view.token_menu_requested.disconnect(window._token_menu)  # no popup offscreen
    with qtbot.waitSignal(window.view.token_menu_requested, timeout=5000) as menu:
        fingers.press((0, cell_point(window, 10, 5)))
    assert menu.args is not None and menu.args[0] == "brannoc"
    window.selection.set({"mira"})  # the menu takes the lift: the panel follows anyway
    assert window.token_panel.form.token_id == "mira"
    fingers.move((0, cell_point(window, 10, 7)))  # the press was spent on the menu
    fingers.release((0, cell_point(window, 10, 7)))
    assert window.document.encounter.token("brannoc").cell == Cell(10, 5)


def test_a_finger_on_the_floor_pans(window: MainWindow, fingers: Fingers) -> None:
    view = window.view
    start = cell_point(window, 13, 10)
    before = view.mapToScene(start)
    zoom = view.zoom
    for step, point in enumerate((start, start + QPoint(-40, -30), start + QPoint(-80, -60))):
        (fingers.press if step == 0 else fingers.move)((0, point))
    fingers.release((0, start + QPoint(-80, -60)))
    assert view.zoom == pytest.approx(zoom)
    moved = view.mapToScene(start + QPoint(-80, -60)) - before
    assert abs(moved.x()) < 2 and abs(moved.y()) < 2  # the floor followed the finger
    assert window.document.history.labels() == []


def test_a_pinch_zooms_about_the_middle_of_the_fingers(window: MainWindow, fingers: Fingers
                                                       ) -> None:
    view = window.view
    middle = cell_point(window, 11, 7)
    spot = view.mapToScene(middle)
    zoom = view.zoom
    a, b = middle + QPoint(-40, 0), middle + QPoint(40, 0)
    fingers.press((0, a))
    fingers.press((1, b))
    for spread in (50, 60, 70, 80):
        fingers.move((0, middle + QPoint(-spread, 0)), (1, middle + QPoint(spread, 0)))
    fingers.release((0, middle + QPoint(-80, 0)), (1, middle + QPoint(80, 0)))
    assert view.zoom == pytest.approx(2 * zoom, rel=0.02)
    after = view.mapToScene(middle)
    assert abs(after.x() - spot.x()) < 3 and abs(after.y() - spot.y()) < 3
    assert window.document.history.labels() == []


def test_two_fingers_moving_together_pan(window: MainWindow, fingers: Fingers) -> None:
    view = window.view
    a, b = cell_point(window, 9, 8), cell_point(window, 12, 8)
    spot, zoom = view.mapToScene(a), view.zoom
    fingers.press((0, a), (1, b))
    shift = QPoint(-60, -45)
    fingers.move((0, a + shift / 2), (1, b + shift / 2))
    fingers.move((0, a + shift), (1, b + shift))
    fingers.release((0, a + shift), (1, b + shift))
    assert view.zoom == pytest.approx(zoom)
    landed = view.mapToScene(a + shift)
    assert abs(landed.x() - spot.x()) < 3 and abs(landed.y() - spot.y()) < 3


def test_a_second_finger_drops_a_token_drag(window: MainWindow, fingers: Fingers) -> None:
    start = cell_point(window, 10, 5)
    fingers.press((0, start))
    fingers.move((0, start + QPoint(30, 30)))
    assert window.view.touch.gesture is Gesture.TOOL
    fingers.press((1, start + QPoint(200, 0)))
    fingers.move((0, start + QPoint(60, 60)), (1, start + QPoint(230, 0)))
    fingers.release((0, start + QPoint(60, 60)), (1, start + QPoint(230, 0)))
    assert window.document.encounter.token("brannoc").cell == Cell(10, 5)
    item = window.scene.tokens["brannoc"]
    assert item.pos() == window.scene.renderer.cell_rect(Cell(10, 5)).topLeft()
    assert not window.scene.path_preview.isVisible()
    assert window.document.history.labels() == []

