"""Token pictures per zoom step (desktop.map.token_faces): borrowed while the GM zooms, drawn
exactly once the zoom rests, drawn at once everywhere else."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from core.actions.commands import RemoveToken
from desktop.mainwindow import MainWindow
from desktop.map.items import DETAIL_PX, TokenItem
from desktop.map.token_faces import FACE_STEP, REST_MS, face_step
from desktop.qt import QImage, QPixmapCache, QPointF, QRectF


def drawn(item: TokenItem, step: int) -> bool:
    return QPixmapCache.find(item.face_key(step)) is not None


def step_now(window: MainWindow) -> int:
    return face_step(window.view.zoom * window.view.devicePixelRatioF())


def token_image(window: MainWindow, token_id: str) -> QImage:
    item = window.scene.tokens[token_id]
    area = window.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    return window.view.viewport().grab(area).toImage()


def wait_for_repaint(qtbot: QtBot, window: MainWindow, item: TokenItem,
                     covers: Callable[[QRectF, QRectF], bool]) -> None:
    """Wait until the scene itself (no repaint forced here) asks the views to repaint an
    area that ``covers`` the item."""
    repainted: list[QRectF] = []
    window.scene.changed.connect(repainted.extend)
    where = item.sceneBoundingRect()
    qtbot.waitUntil(lambda: any(covers(r, where) for r in repainted), timeout=REST_MS * 20)


def test_a_fit_or_a_first_show_draws_every_face_at_once(window: MainWindow) -> None:
    QPixmapCache.clear()
    window.view.fit_map()
    window.view.viewport().repaint()
    step = step_now(window)
    assert all(drawn(item, step) for item in window.scene.tokens.values())
    assert window.scene.faces.owed == 0


def test_while_zooming_a_token_borrows_the_nearest_face_and_gets_its_own_at_rest(
        qtbot: QtBot, window: MainWindow) -> None:
    window.view.viewport().repaint()
    mira = window.scene.tokens["mira"]
    before = step_now(window)
    assert drawn(mira, before)
    window.view.zoom_by(FACE_STEP)  # one step in, as a wheel notch or two
    window.view.viewport().repaint()
    assert step_now(window) == before + 1
    assert not drawn(mira, before + 1)  # the frame used the face of the step before
    assert window.scene.faces.owed >= 1
    wait_for_repaint(qtbot, window, mira, QRectF.intersects)
    assert window.scene.faces.owed == 0 and drawn(mira, before + 1)


def test_with_no_face_near_a_zooming_token_is_a_plain_disc_until_the_zoom_rests(
        qtbot: QtBot, window: MainWindow) -> None:
    window.view.viewport().repaint()
    sharp = token_image(window, "mira")
    QPixmapCache.clear()
    window.view.zoom_by(1.0)  # the same zoom, but as the GM zooms
    window.view.viewport().repaint()
    plain = token_image(window, "mira")
    assert plain != sharp  # no initials, no HP bar: the dot's disc
    qtbot.waitUntil(lambda: window.scene.faces.owed == 0, timeout=REST_MS * 20)
    window.view.viewport().repaint()
    assert token_image(window, "mira") == sharp


def test_a_face_drawn_meanwhile_is_still_repainted_whole(qtbot: QtBot,
                                                         window: MainWindow) -> None:
    """A neighbour's repaint after the zoom rests can draw a token's face in part (only
    where their areas overlap): the owed repaint of the whole token must still come."""
    window.view.viewport().repaint()
    mira = window.scene.tokens["mira"]
    window.view.zoom_by(FACE_STEP)
    window.view.viewport().repaint()  # mira is owed its face
    mira.draw_face(step_now(window))  # drawn meanwhile, as by a partial repaint
    wait_for_repaint(qtbot, window, mira, QRectF.contains)


def test_a_token_removed_while_zooming_gets_no_face(qtbot: QtBot, window: MainWindow) -> None:
    window.view.viewport().repaint()
    mira = window.scene.tokens["mira"]
    window.view.zoom_by(FACE_STEP)
    window.view.viewport().repaint()
    step = step_now(window)
    window.document.push(RemoveToken("mira"))
    qtbot.waitUntil(lambda: window.scene.faces.owed == 0, timeout=REST_MS * 20)
    assert not drawn(mira, step)
    assert drawn(window.scene.tokens["brannoc"], step)


def test_a_token_zoomed_out_to_a_dot_gets_no_face(qtbot: QtBot, window: MainWindow) -> None:
    """Faces owed at the zoom the GM left are not drawn for tokens now shown as dots (165
    of them, after zooming in and fitting the 300×300 map, took two repaints to 17 ms)."""
    QPixmapCache.clear()
    window.view.viewport().repaint()
    window.view.zoom_by(FACE_STEP)
    window.view.viewport().repaint()
    step = step_now(window)
    assert window.scene.faces.owed > 0
    window.view.zoom_by(DETAIL_PX / 8 / window.scene.renderer.length(window.view.zoom))
    window.view.viewport().repaint()  # every token a dot; the zoom has not rested yet
    qtbot.waitUntil(lambda: window.scene.faces.owed == 0, timeout=REST_MS * 20)
    assert not any(drawn(item, step) for item in window.scene.tokens.values())


def test_the_players_window_borrows_while_the_gm_zooms(qtbot: QtBot, window: MainWindow) -> None:
    window.table.show_player_window(True)
    players = window.table.player_window
    assert players is not None
    try:
        players.view.viewport().grab()  # painted (not on screen here)
        mira = window.scene.tokens["mira"].sceneBoundingRect().center()
        window.view.zoom_by(FACE_STEP, QPointF(window.view.mapFromScene(mira)))
        assert players.scene.faces.zooming
        players.view.viewport().grab()  # painted (not on screen here)
        assert players.scene.faces.owed >= 1
        qtbot.waitUntil(lambda: players.scene.faces.owed == 0, timeout=REST_MS * 20)
        assert not players.scene.faces.zooming
    finally:
        players.close()
