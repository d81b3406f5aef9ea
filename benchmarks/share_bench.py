"""The ``share`` group: sharing the player view with 12 simulated players' pages on
loopback (real WebSockets on 127.0.0.1, the pages on a thread and event loop of their own).

Headless (``battlemap serve``'s share of the scale scenario: 300×300, 10,000 walls, 3,000
tokens, fog on): how long a GM's move takes to reach every page, and a player's move
request to be applied (or queued for the GM) and answered. Then the GM's window on the
same scenario while sharing to 12 pages: the gui-scale group's zoom, pan and drag frames,
and a GM's move with its view sent to the pages (:mod:`benchmarks.gui_scale`).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.scenario import SCALE, build_scenario
from benchmarks.timing import Figures, spread_ms, timed
from core.actions.commands import MoveToken
from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.spatial.playerview import player_items, player_view
from desktop.share.headless import HeadlessShare
from desktop.share.table import ShareSettings

PAGES = 12
GM_MOVES = 40
PLAYER_MOVES = 40
WARM_UP = 4
WAIT_S = 30
#: Seconds between a page's move requests: a fast drag's pace, under a player's limit of 10
#: moves a second (desktop.share.table.MOVES_PER_SECOND). (At 0.3 s apart the same code
#: measured 10-18 ms slower on this machine: the loop's wake-up from idle.)
REQUEST_GAP_S = 0.1
TARGETS = {"gm_move_to_every_page_p95_ms": 100, "player_move_applied_p95_ms": 50,
           "player_move_queued_p95_ms": 50}


def _log(message: str) -> None:
    print(f"[share] {message}", file=sys.stderr, flush=True)


class Pages:
    """Simulated players' pages: each joins, then keeps every message with when it came."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.count = url, count
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.inbox: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in range(count)]
        self.news = threading.Condition()
        self.received_bytes = 0
        self.run(self._open())

    def run(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(WAIT_S)

    async def _open(self) -> None:
        self.session = aiohttp.ClientSession()
        for number in range(self.count):
            # compressed as a browser asks (permessage-deflate)
            socket = await self.session.ws_connect(self.url + "ws", compress=15)
            await socket.send_str(json.dumps({"type": "hello", "name": f"Player {number}"}))
            self.sockets.append(socket)
            self.loop.create_task(self._listen(number, socket))

    async def _listen(self, number: int, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in socket:
            if frame.type is not aiohttp.WSMsgType.TEXT:
                break
            arrived = time.perf_counter()
            self.received_bytes += len(frame.data)
            with self.news:
                self.inbox[number].append((arrived, json.loads(frame.data)))
                self.news.notify_all()

    def send(self, number: int, message: dict[str, Any]) -> float:
        """Send from page ``number``; when it was sent."""
        sent: list[float] = []

        async def go() -> None:
            sent.append(time.perf_counter())
            await self.sockets[number].send_str(json.dumps(message))

        self.run(go())
        return sent[0]

    def wait_for(self, number: int, found: Callable[[dict[str, Any]], bool],
                 after: int = 0) -> tuple[float, int]:
        """When page ``number`` got a message ``found`` accepts (looking past ``after``
        messages), and its place in the inbox."""
        deadline = time.monotonic() + WAIT_S
        with self.news:
            while True:
                for index in range(after, len(self.inbox[number])):
                    arrived, message = self.inbox[number][index]
                    if found(message):
                        return arrived, index
                if not self.news.wait(max(deadline - time.monotonic(), 0)):
                    raise TimeoutError(f"page {number} waited in vain")

    def close(self) -> None:
        async def shut() -> None:
            for socket in self.sockets:
                await socket.close()
            await self.session.close()

        self.run(shut())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def visible_party_token(encounter: Encounter) -> tuple[Token, Cell, Cell]:
    """A party token the pages see, and two free cells beside it to move between."""
    view = player_view(encounter)
    for token in player_items(encounter, view).tokens:
        if token.combatant.side is not Side.PARTY or token.footprint.size != 1:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            cell = Cell(token.x + dx, token.y + dy)
            if (encounter.placement_problem([token.at(cell)]) is None
                    and view.visible[cell.y, cell.x]):
                return token, token.cell, cell
    raise LookupError("no party token the players see has a free cell beside it")


def moved_to(token_id: str, cell: Cell) -> Callable[[dict[str, Any]], bool]:
    def found(message: dict[str, Any]) -> bool:
        put = message.get("changes", {}).get("tokens", {}).get("put", {})
        return (message["type"] == "delta" and token_id in put
                and (put[token_id]["x"], put[token_id]["y"]) == cell)

    return found


def bench_gm_moves(share: HeadlessShare, pages: Pages, token: Token, cells: tuple[Cell, Cell]
                   ) -> Figures:
    """A GM's move, from its push to the last of the 12 pages getting it."""
    samples, marks = [], [0] * pages.count
    for step in range(GM_MOVES + WARM_UP):
        goal = cells[(step + 1) % 2]
        start = time.perf_counter()
        share.call(lambda goal=goal: share.history.push(MoveToken(token.id, goal)))
        arrivals = []
        for number in range(pages.count):
            arrived, marks[number] = pages.wait_for(number, moved_to(token.id, goal),
                                                    marks[number])
            arrivals.append(arrived)
        if step >= WARM_UP:
            samples.append(max(arrivals) - start)
    return spread_ms("gm_move_to_every_page", samples)


def bench_player_moves(share: HeadlessShare, pages: Pages, token: Token,
                       cells: tuple[Cell, Cell], status: str) -> Figures:
    """Page 0's move request, from its send to its answer (applied, or queued)."""
    samples, mark = [], len(pages.inbox[0])
    for step in range(PLAYER_MOVES + WARM_UP):
        goal = cells[(step + 1) % 2]
        sent = pages.send(0, {"type": "move", "token": token.id, "to": list(goal),
                              "seq": step + 1})
        arrived, mark = pages.wait_for(
            0, lambda m, s=step: m["type"] == "move" and m["seq"] == s + 1, mark)
        answer = pages.inbox[0][mark][1]
        if answer["status"] != status:
            raise AssertionError(f"a player's move was {answer['status']}: {answer['text']}")
        if status == "queued":  # the GM refuses it: the token stays for the next request
            share.call(lambda: share.table.refuse_move(share.table.pending_moves[0]))
        if step >= WARM_UP:
            samples.append(arrived - sent)
        time.sleep(REQUEST_GAP_S)
    return spread_ms(f"player_move_{status}", samples)


def bench_headless(encounter: Encounter) -> Figures:
    share = HeadlessShare(encounter, ShareSettings(claims="open"))
    url = share.start("127.0.0.1", 0)
    pages = Pages(url, PAGES)
    try:
        for number in range(PAGES):
            pages.wait_for(number, lambda m: m["type"] == "state")
        snapshot_bytes = len(json.dumps(pages.inbox[0][1][1]))
        # The pages' copies of the view (12 × 1.3 MB of JSON, parsed) are kept out of the
        # collector's walks: on the table they live in 12 other devices.
        gc.collect()
        gc.freeze()
        token, here, there = visible_party_token(share.history.encounter)
        figures = bench_gm_moves(share, pages, token, (here, there))
        pages.send(0, {"type": "claim", "token": token.id})
        pages.wait_for(0, lambda m: m["type"] == "claim" and m["status"] == "granted")
        share.call(lambda: share.history.push(MoveToken(token.id, here)))
        figures |= bench_player_moves(share, pages, token, (here, there), "applied")
        share.call(lambda: share.table.set_settings(ShareSettings(claims="open",
                                                                  moves="approve")))
        share.call(lambda: share.history.push(MoveToken(token.id, here)))
        figures |= bench_player_moves(share, pages, token, (here, there), "queued")
        figures |= {"pages": PAGES, "state_message_bytes": snapshot_bytes,
                    "received_mib": round(pages.received_bytes / 2**20, 2)}
    finally:
        pages.close()
        share.stop()
        gc.unfreeze()  # the next part starts as a fresh process would
    return figures


def bench_window(encounter: Encounter) -> Figures:
    """The gui-scale group's frames with the window sharing to 12 pages."""
    from benchmarks.frames import settle
    from benchmarks.gui_scale import TARGETS as GUI_TARGETS
    from benchmarks.gui_scale import Bench, bench_drags, bench_pan, bench_zoom
    from desktop.system.application import application

    application()
    figures: Figures = {}
    with tempfile.TemporaryDirectory(prefix="battlemap-share-") as tmp:
        bench = Bench(encounter, Path(tmp))
        bench.fit()
        share = bench.window.share
        if share.start("127.0.0.1", 0) is not None:
            raise RuntimeError("the window could not share on 127.0.0.1")
        pages = Pages(share.url, PAGES)
        joined = 0
        while joined < PAGES:  # the table hears the pages on the GUI thread
            from desktop.qt import QApplication

            QApplication.processEvents()
            joined = sum(bool(p.connections) for p in share.table.players.values()) \
                if share.table else 0
        token, here, there = visible_party_token(bench.window.document.encounter)
        moves = []
        for step in range(GM_MOVES + WARM_UP):
            goal = (here, there)[(step + 1) % 2]
            seconds = bench.frame(lambda goal=goal: bench.window.document.push(
                MoveToken(token.id, goal)))
            settle(bench.counter)
            if step >= WARM_UP:
                moves.append(seconds)
        figures |= spread_ms("sharing_gm_move_frame", moves)
        for name, step in (("zoom", bench_zoom), ("pan", bench_pan), ("drags", bench_drags)):
            seconds, found = timed(lambda step=step: step(bench))
            figures |= {f"sharing_{key}": value for key, value in found.items()}
            _log(f"window {name} while sharing: {seconds:.1f} s")
        pages.close()
        share.stop()
        bench.close()
    for key, limit in GUI_TARGETS.items():
        if f"sharing_{key}" in figures:
            TARGETS[f"sharing_{key}"] = limit
    return figures


def run(seed: int) -> Figures:
    built_s, scenario = timed(lambda: build_scenario(seed, spec=SCALE))
    _log(f"scale scenario built in {built_s:.1f} s")
    seconds, figures = timed(lambda: bench_headless(scenario.encounter.model_copy(deep=True)))
    _log(f"headless share done in {seconds:.1f} s")
    try:
        import PySide6  # noqa: F401 (the window's part needs Qt)
    except ImportError:
        figures["window"] = "skipped: PySide6 is not installed"
    else:
        seconds, found = timed(lambda: bench_window(scenario.encounter.model_copy(deep=True)))
        figures |= found
        _log(f"window while sharing done in {seconds:.1f} s")
    figures["targets"] = {key: {"below": limit, "value": figures.get(key),
                                "met": figures.get(key) is not None and figures[key] <= limit}
                          for key, limit in TARGETS.items()}
    figures["scenario"] = {"map": f"{scenario.encounter.map.width}x"
                                  f"{scenario.encounter.map.height}",
                           "tokens": len(scenario.encounter.tokens),
                           "fog": scenario.encounter.fog.enabled}
    return figures
