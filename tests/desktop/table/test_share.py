"""Sharing from the GM's window (View > Share with players' devices…): started on
127.0.0.1 from the panel, a page joins, the GM gives it a token, its moves become the
document's undoable steps (at once, or after the GM's OK in the panel), the GM's own edits
reach it, the GM removes a player and stops sharing. The page runs on a thread of its own
while the Qt event loop runs the window."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import threading
from collections.abc import Coroutine, Iterator
from typing import Any

import aiohttp
import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.model.grid import Cell
from desktop.mainwindow import MainWindow
from desktop.qt import Qt, QToolButton
from desktop.share.table import PendingMove
from desktop.table.share_panel import SharePanel
from tests.desktop.share.pages import Page

WAIT_MS = 15_000


class PageThread:
    """Runs pages' coroutines on an event loop of its own thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def submit(self, work: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def pages() -> Iterator[PageThread]:
    thread = PageThread()
    yield thread
    thread.stop()


@pytest.fixture
def panel(qtbot: QtBot, window: MainWindow) -> Iterator[SharePanel]:
    window.share.show_panel()
    panel = window.share.panel
    assert panel is not None
    panel.host.setCurrentText("127.0.0.1")
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    assert window.share.running, panel.problem.text()
    yield panel
    window.share.close()
    assert not panel.isVisible()


def wait(qtbot: QtBot, future: concurrent.futures.Future[Any]) -> Any:
    qtbot.waitUntil(future.done, timeout=WAIT_MS)
    return future.result()


def test_the_panel_shows_the_join_address_and_its_qr_code(window: MainWindow,
                                                         panel: SharePanel) -> None:
    assert panel.address.text().startswith("http://127.0.0.1:")
    assert "/play/" in panel.address.text()
    assert not panel.qr.pixmap().isNull() and panel.qr.pixmap().width() > 100
    assert panel.start_button.text() == "Stop sharing"
    assert window.settings.value("share/host") == "127.0.0.1"


def test_a_given_token_moved_from_a_page_is_an_undoable_step(
        qtbot: QtBot, window: MainWindow, panel: SharePanel, pages: PageThread) -> None:
    url, joined = window.share.url, threading.Event()
    granted = concurrent.futures.Future[dict[str, Any]]()

    async def play() -> dict[str, Any]:
        async with Page(url) as page:
            await page.join("Ann")
            joined.set()
            granted.set_result(await page.expect("claim", status="granted"))
            await page.send(type="move", token="brannoc", to=[10, 7], seq=1)
            return await page.expect("move", seq=1)

    done = pages.submit(play())
    qtbot.waitUntil(joined.is_set, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.players.count() == 1, timeout=WAIT_MS)
    assert panel.players.item(0).text().startswith("Ann — no token yet")
    panel.players.setCurrentRow(0)
    panel.token.setCurrentIndex(panel.token.findData("brannoc"))
    qtbot.mouseClick(panel.give, Qt.MouseButton.LeftButton)
    assert wait(qtbot, granted)["token"] == "brannoc"
    assert wait(qtbot, done)["status"] == "applied"
    assert window.document.encounter.token("brannoc").cell == Cell(10, 7)
    assert window.document.history.labels()[-1] == "Move Brannoc"
    window.step_history(undo=True)
    assert window.document.encounter.token("brannoc").cell == Cell(10, 5)


def test_a_move_waits_for_the_gms_ok_in_the_panel(qtbot: QtBot, window: MainWindow,
                                                 panel: SharePanel, pages: PageThread) -> None:
    panel.moves.setCurrentIndex(panel.moves.findData("approve"))
    url = window.share.url

    async def play() -> list[str]:
        async with Page(url) as page:
            await page.join("Ann")
            await page.expect("claim", status="granted")
            await page.send(type="move", token="mira", to=[6, 11], seq=1)
            queued = await page.expect("move", seq=1)
            applied = await page.expect("move", seq=None)
            return [queued["status"], applied["status"]]

    done = pages.submit(play())
    qtbot.waitUntil(lambda: window.share.table is not None and bool(window.share.table.players),
                    timeout=WAIT_MS)
    table = window.share.table
    assert table is not None
    assert table.assign(next(iter(table.players)), "mira") is None
    qtbot.waitUntil(lambda: panel.waiting.count() == 1, timeout=WAIT_MS)
    assert window.document.encounter.token("mira").cell == Cell(6, 9)
    assert "moves Mira to (6, 11)" in panel.waiting.item(0).text()
    assert isinstance(panel.waiting.item(0).data(Qt.ItemDataRole.UserRole), PendingMove)
    panel.waiting.setCurrentRow(0)
    preview = window.scene.path_preview  # the chosen move drawn on the GM's map
    assert preview.isVisible() and preview.label.text == panel.waiting.item(0).data(
        Qt.ItemDataRole.UserRole).label
    qtbot.mouseClick(panel.approve, Qt.MouseButton.LeftButton)
    assert wait(qtbot, done) == ["queued", "applied"]
    assert window.document.encounter.token("mira").cell == Cell(6, 11)
    assert panel.waiting.count() == 0 and not preview.isVisible()


def test_the_gms_edits_reach_the_page_and_the_gm_removes_a_player(
        qtbot: QtBot, window: MainWindow, panel: SharePanel, pages: PageThread,
        answer_yes: list[str]) -> None:
    url, joined, seen = window.share.url, threading.Event(), threading.Event()

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Page(url) as page:
            await page.join("Ann")
            joined.set()
            moved = await page.expect("delta")
            seen.set()
            return moved, await page.expect("kicked")

    done = pages.submit(play())
    qtbot.waitUntil(joined.is_set, timeout=WAIT_MS)
    window.document.push(MoveToken("brannoc", Cell(11, 5)))
    qtbot.waitUntil(seen.is_set, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.players.count() == 1, timeout=WAIT_MS)
    panel.players.setCurrentRow(0)
    qtbot.mouseClick(panel.kick, Qt.MouseButton.LeftButton)
    moved, kicked = wait(qtbot, done)
    assert answer_yes == ["Remove Ann: Remove Ann? Online now: Ann; their pages will close, "
                          "their seat end and their tokens be free."]
    assert moved["changes"]["tokens"]["put"]["brannoc"]["x"] == 11
    assert kicked["text"] == "The GM removed you from the table."
    assert panel.players.count() == 0


def test_stop_sharing_closes_the_pages_and_the_address(qtbot: QtBot, window: MainWindow,
                                                      panel: SharePanel,
                                                      pages: PageThread) -> None:
    url, joined = window.share.url, threading.Event()

    async def play() -> aiohttp.WSMsgType:
        async with Page(url) as page:
            await page.join("Ann")
            joined.set()
            while True:  # the roster, then the close
                frame = await asyncio.wait_for(page.socket.receive(), 10)
                if frame.type is not aiohttp.WSMsgType.TEXT:
                    return frame.type

    done = pages.submit(play())
    qtbot.waitUntil(joined.is_set, timeout=WAIT_MS)
    window.actions_by_name["Stop sharing"].trigger()
    assert wait(qtbot, done) is aiohttp.WSMsgType.CLOSE
    assert not window.share.running and panel.address.text() == ""
    assert panel.start_button.text() == "Start sharing"


def test_the_join_code_shows_on_the_player_window(qtbot: QtBot, window: MainWindow,
                                                  panel: SharePanel) -> None:
    toggle = window.actions_by_name["Join code on the player window"]
    toggle.trigger()
    players = window.table.player_window
    assert players is not None and players.isVisible()
    code = window.share.code_label
    assert code is not None and code.isVisible() and code.parent() is players
    assert toggle.isChecked()
    players.resize(1920, 1080)  # on the TV: a third of its height, whole modules
    qr = code.picture.pixmap().width()
    assert qr % window.share.qr_pixmap().width() == 0 and 300 <= qr <= 400
    assert code.geometry().bottom() < 1080
    players.resize(900, 600)  # a small window: the address wraps under the code
    qr = code.picture.pixmap().width()
    assert code.address.height() > code.address.fontMetrics().height()
    assert code.width() <= qr + 2 * code.layout().contentsMargins().left()
    assert code.address.text().replace("\u200b", "") == window.share.url
    window.share.stop()
    assert window.share.code_label is None and not toggle.isChecked()
    toggle.trigger()  # not sharing: no code, and the menu says so
    assert window.share.code_label is None and not toggle.isChecked()
    players.close()


def test_a_players_name_in_the_panel_is_shown_as_text(window: MainWindow,
                                                      panel: SharePanel) -> None:
    from desktop.qt import Qt

    assert panel.problem.textFormat() == Qt.TextFormat.PlainText
    assert window.share.qr_pixmap() is window.share.qr_pixmap()  # made once per address


def test_a_port_in_use_is_said_and_nothing_runs(window: MainWindow) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        problem = window.share.start("127.0.0.1", port)
    assert problem is not None and problem.startswith(f"Cannot share on 127.0.0.1:{port}")
    assert not window.share.running


class HandledLog:
    """Stands for the table: keeps what the bridge hands it on the GUI thread."""

    def __init__(self) -> None:
        self.handled: list[tuple[int, Any]] = []

    def handle(self, connection: int, message: Any) -> None:
        self.handled.append((connection, message))


def test_only_the_latest_waiting_preview_of_a_page_is_ruled(qtbot: QtBot) -> None:
    from desktop.share.protocol import Move, Preview
    from desktop.table.share import _Bridge

    log = HandledLog()
    bridge = _Bridge(lambda: log)  # type: ignore[arg-type, return-value]
    for x in range(5):  # a drag across five cells while the GUI thread was busy
        bridge.handle(1, Preview(type="preview", token="A", to=(x, 0)))
        bridge.handle(2, Preview(type="preview", token="B", to=(0, x)))
    bridge.handle(1, Move(type="move", token="A", to=(4, 0), seq=1))
    qtbot.waitUntil(lambda: len(log.handled) == 3, timeout=WAIT_MS)
    assert [(c, m.type, tuple(m.to)) for c, m in log.handled] == [
        (1, "preview", (4, 0)), (2, "preview", (0, 4)), (1, "move", (4, 0))]
    bridge.handle(1, Preview(type="preview", token="A", to=(3, 0)))
    qtbot.waitUntil(lambda: len(log.handled) == 4, timeout=WAIT_MS)


def test_the_status_bar_says_who_waits_and_return_does_not_stop_sharing(
        qtbot: QtBot, window: MainWindow, panel: SharePanel, pages: PageThread) -> None:
    from desktop.qt import QPushButton

    url, asked = window.share.url, threading.Event()

    async def play() -> None:
        async with Page(url) as page:
            await page.join("Ann")
            await page.send(type="claim", token="brannoc")
            await page.expect("claim")
            asked.set()
            await page.expect("kicked")

    done = pages.submit(play())
    qtbot.waitUntil(asked.is_set, timeout=WAIT_MS)
    status = next(b for b in window.statusBar().findChildren(QToolButton)
                  if b.text().startswith("⇄"))
    qtbot.waitUntil(lambda: status.text() == "⇄ 1 online · ⚑ 1 waiting", timeout=WAIT_MS)
    panel.hide()
    qtbot.mouseClick(status, Qt.MouseButton.LeftButton)
    assert panel.isVisible()
    assert not any(b.autoDefault() or b.isDefault() for b in panel.findChildren(QPushButton))
    window.share.table.kick("p1")
    wait(qtbot, done)


def test_the_menu_entries_that_need_a_share_are_greyed_out_without_one(
        window: MainWindow) -> None:
    names = ("Stop sharing", "Push my view to players' devices", "Join code on the player window")
    assert not any(window.actions_by_name[n].isEnabled() for n in names)
    assert window.share.start("127.0.0.1", 0) is None
    assert all(window.actions_by_name[n].isEnabled() for n in names)
    window.share.stop()
    assert not any(window.actions_by_name[n].isEnabled() for n in names)
