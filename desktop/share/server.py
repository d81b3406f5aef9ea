"""The web server of a share: aiohttp (HTTP and WebSocket in one, on asyncio) on a thread
and event loop of its own, so the thread that owns the encounter never waits on the network.

Everything lives under ``/play/<secret>/`` — the join address's 192-bit secret; any other
path is "not found". There: the page and its two files, the WebSocket (``ws``), and for a
seated player (``?s=<session>``) the portraits of the tokens the players see and the map
image's explored tiles (:mod:`desktop.share.tiles`). Every message a page sends is bounded
(:data:`~desktop.share.protocol.MAX_MESSAGE_BYTES`), rate-limited and checked against the
schema here; what passes goes to the :class:`Dispatch` — the table of sharing, on its own
thread. Answers come back through :meth:`ShareServer.send` from any thread, each page's in
order; a page that cannot keep up is closed (it reconnects and catches up).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from aiohttp import WSMsgType, web

from desktop.share.protocol import MessageError, RateLimit, parse_message
from desktop.share.tiles import MapImage
from desktop.system.resources import bundled

if TYPE_CHECKING:
    from collections.abc import Collection

    from desktop.share.protocol import ClientMessage
    from desktop.share.publisher import SharedFiles
    from desktop.share.view import Json

SECRET_BYTES = 24  # 192 bits
PAGE_FILES = {"": ("index.html", "text/html"), "share.js": ("share.js", "text/javascript"),
              "share.css": ("share.css", "text/css")}
MAX_CONNECTIONS = 64
MAX_FRAME_BYTES = 64 * 1024  # aiohttp closes the socket past this; the schema's bound is 4 KiB
QUEUE_LENGTH = 256  # messages waiting for a slow page before it is closed
STRIKES = 50  # messages over the rate limit before the page is closed
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the address holds the secret
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' blob: data:; "
                                "connect-src 'self'; style-src 'self'; script-src 'self'; "
                                "frame-ancestors 'none'"),
}
FOREVER = {"Cache-Control": "private, max-age=31536000, immutable"}


class Dispatch(Protocol):
    """Who hears the pages: called on the server's thread (the GUI's bridge passes it on
    to the GUI thread; ``battlemap serve`` runs the table on this thread)."""

    def connected(self, connection: int) -> None: ...

    def disconnected(self, connection: int) -> None: ...

    def handle(self, connection: int, message: ClientMessage) -> None: ...


@dataclass
class _Page:
    """One open WebSocket: what waits to be sent to it, and its rate of messages."""

    socket: web.WebSocketResponse
    queue: asyncio.Queue[str | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LENGTH))
    rate: RateLimit = field(default_factory=RateLimit)
    strikes: int = 0
    closing: asyncio.Future[bool] | None = None


class ShareServer:
    """Serve one table on ``host``:``port`` (0: a free port) from :meth:`start` to
    :meth:`stop`. Binds to that interface only."""

    def __init__(self, dispatch: Dispatch) -> None:
        self.dispatch = dispatch
        self.secret = secrets.token_urlsafe(SECRET_BYTES)
        self.host, self.port = "", 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._pages: dict[int, _Page] = {}
        self._numbers = itertools.count(1)
        self._sessions: frozenset[str] = frozenset()
        self._files: SharedFiles | None = None
        self._image: MapImage | None = None

    # --- starting and stopping (any thread) ----------------------------------------------
    def start(self, host: str, port: int = 0) -> str:
        """Bind and serve on a thread of its own; the join address. OSError (the port is
        taken, no such interface) is raised here, with nothing left running."""
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self.loop = loop
            try:
                loop.run_until_complete(self._bind(host, port))
            except BaseException as error:  # handed to start()'s caller
                failure.append(error)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_forever()
            _finish(loop)

        self._thread = threading.Thread(target=run, name="battlemap-share", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = self.loop = None
            raise failure[0]
        return self.url

    def wait(self) -> None:
        """Return when the server has stopped (``battlemap serve``'s main thread)."""
        if self._thread is not None:
            self._thread.join()

    async def _bind(self, host: str, port: int) -> None:
        app = web.Application(client_max_size=MAX_FRAME_BYTES)
        app.router.add_get("/play/{secret}/ws", self._socket)
        app.router.add_get("/play/{secret}/portrait/{key}", self._portrait)
        app.router.add_get("/play/{secret}/tile/{key}/{tx:\\d+}/{ty:\\d+}/{bits}.png",
                           self._tile)
        app.router.add_get("/play/{secret}/{file:[a-z.]*}", self._page)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_address=True)
        await site.start()
        self.host = host
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/play/{self.secret}/"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        """Close every page's connection and the listening socket; wait for the thread."""
        loop, thread = self.loop, self._thread
        if loop is None or thread is None or not thread.is_alive():
            return
        done = asyncio.run_coroutine_threadsafe(self._shut_down(), loop)
        done.result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        if thread is not threading.current_thread():
            thread.join(timeout=10)

    async def _shut_down(self) -> None:
        for page in list(self._pages.values()):
            await page.socket.close(code=1001, message=b"the GM stopped sharing")
        if self._runner is not None:
            await self._runner.cleanup()
        for _ in range(3):  # the closed connections' callbacks, before the loop stops
            await asyncio.sleep(0)

    # --- the table's side (thread-safe) ---------------------------------------------------
    def send(self, connections: Collection[int], message: Json) -> None:
        """Queue ``message`` for these pages, after what was sent to them before."""
        if self.loop is None or not connections:
            return
        text = json.dumps(message, separators=(",", ":"))
        self.loop.call_soon_threadsafe(self._queue, tuple(connections), text)

    def close(self, connection: int, message: Json) -> None:
        """Send ``message``, then close that page's connection."""
        self.send([connection], message)
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._queue, (connection,), None)

    def share_files(self, files: SharedFiles) -> None:
        """What the pages may fetch besides messages (portraits, the map image's tiles)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._take_files, files)

    def set_sessions(self, sessions: frozenset[str]) -> None:
        """The session tokens of the seated players (who may fetch files)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(setattr, self, "_sessions", sessions)

    def _take_files(self, files: SharedFiles) -> None:
        old = self._files.background if self._files else None
        self._files = files
        if files.background != old:
            background = files.background
            self._image = None if background is None else MapImage(
                files.image, background["offset_x"], background["offset_y"],
                background["px_per_cell"])

    def _queue(self, connections: tuple[int, ...], text: str | None) -> None:
        for number in connections:
            page = self._pages.get(number)
            if page is None:
                continue
            if text is None or page.queue.full():  # too slow: it reconnects, catches up
                _queue_close(page)
            else:
                page.queue.put_nowait(text)

    # --- HTTP ---------------------------------------------------------------------------
    def _allowed(self, request: web.Request) -> bool:
        return secrets.compare_digest(request.match_info["secret"], self.secret)

    def _seated(self, request: web.Request) -> bool:
        session = request.query.get("s", "")
        return self._allowed(request) and session in self._sessions

    async def _page(self, request: web.Request) -> web.StreamResponse:
        entry = PAGE_FILES.get(request.match_info["file"])
        if not self._allowed(request) or entry is None:
            raise web.HTTPNotFound()
        name, kind = entry
        return web.FileResponse(bundled(f"share/{name}"), headers={
            **HEADERS, "Content-Type": f"{kind}; charset=utf-8", "Cache-Control": "no-cache"})

    async def _portrait(self, request: web.Request) -> web.StreamResponse:
        files = self._files
        picture = files.portraits.get(request.match_info["key"]) if files else None
        if not self._seated(request) or picture is None:
            raise web.HTTPNotFound()
        data, kind = picture
        return web.Response(body=data, content_type=kind, headers={**HEADERS, **FOREVER})

    async def _tile(self, request: web.Request) -> web.StreamResponse:
        files, image = self._files, self._image
        info = request.match_info
        if (not self._seated(request) or files is None or image is None
                or files.background is None or info["key"] != files.background["key"]):
            raise web.HTTPNotFound()
        tx, ty = int(info["tx"][:6]), int(info["ty"][:6])
        explored = files.explored
        data = await asyncio.get_running_loop().run_in_executor(
            None, image.tile, tx, ty, info["bits"], explored)
        if data is None:
            raise web.HTTPNotFound()
        return web.Response(body=data, content_type="image/png", headers={**HEADERS, **FOREVER})

    # --- WebSocket ----------------------------------------------------------------------
    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not self._allowed(request) or not _same_origin(request):
            raise web.HTTPNotFound()
        if len(self._pages) >= MAX_CONNECTIONS:
            raise web.HTTPServiceUnavailable(text="too many connections")
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME_BYTES, heartbeat=20)
        await socket.prepare(request)
        number, page = next(self._numbers), _Page(socket)
        self._pages[number] = page
        self.dispatch.connected(number)
        writer = asyncio.create_task(self._write(page))
        try:
            async for frame in socket:
                if frame.type is WSMsgType.TEXT:
                    await self._read(number, page, frame.data)
                elif frame.type is WSMsgType.BINARY:
                    _error(page, "send text (JSON) messages only")
        finally:
            del self._pages[number]
            self.dispatch.disconnected(number)
            writer.cancel()
        return socket

    async def _read(self, number: int, page: _Page, data: str) -> None:
        if not page.rate.allow():
            page.strikes += 1
            _error(page, "too many messages: slow down")
            if page.strikes == STRIKES:  # closed once what it was sent has gone
                _queue_close(page)
            return
        try:
            message = parse_message(data)
        except MessageError as error:
            _error(page, str(error))
            return
        self.dispatch.handle(number, message)

    async def _write(self, page: _Page) -> None:
        """Send the page's messages in order; None closes it."""
        while True:
            text = await page.queue.get()
            if text is None:
                await page.socket.close(code=1000)
                return
            if page.socket.closed:
                return
            await page.socket.send_str(text)


def _finish(loop: asyncio.AbstractEventLoop) -> None:
    """Let what is still running on the stopped loop end, then close it."""
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()


def _queue_close(page: _Page) -> None:
    """Close the page after what it was sent (at once if it cannot keep up)."""
    if page.queue.full():
        page.closing = asyncio.ensure_future(page.socket.close(code=1013,
                                                               message=b"too far behind"))
    else:
        page.queue.put_nowait(None)


def _error(page: _Page, text: str) -> None:
    """Tell the page what was wrong with its message (after what it was sent before)."""
    if not page.queue.full():
        page.queue.put_nowait(json.dumps({"type": "error", "text": text}))


def _same_origin(request: web.Request) -> bool:
    """A browser's WebSocket from another site's page carries that site's Origin."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.split("://", 1)[-1] == request.host

