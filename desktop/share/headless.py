"""``battlemap serve FILE``: share an encounter with no window (a spare machine by the TV,
and the tests). The table of sharing runs on the server's own event loop and drives a core
:class:`~core.actions.history.History` directly: a player's move is the same core
``MoveAction``, pushed onto the same kind of history, with what the party then sees recorded
into that step as the window records it."""

from __future__ import annotations

import concurrent.futures
import gc
import signal
import sys
from typing import TYPE_CHECKING, Any, TypeVar

from core.actions.commands import CommandRefusedError
from core.actions.fog import record_party_view
from core.actions.history import History
from desktop.share.server import ShareServer
from desktop.share.table import ShareSettings, ShareTable

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from core.actions.base import Outcome
    from core.model.encounter import Encounter
    from core.model.grid import Cell
    from desktop.share.protocol import ClientMessage

T = TypeVar("T")


class HistoryHost:
    """The rules host of a share with no window: a core history, no movement budget."""

    def __init__(self, history: History) -> None:
        self.history = history

    @property
    def encounter(self) -> Encounter:
        return self.history.encounter

    def budget_ft(self) -> float | None:
        return None

    def perform(self, outcome: Outcome[Any]) -> str | None:
        try:
            self.history.push(outcome.command)
        except CommandRefusedError as error:
            return str(error)
        record_party_view(self.history)
        return None

    def resolve(self, token_id: str, goal: Cell) -> str | None:
        return ("this move asks for evade checks, which the GM rolls in the Battlemap "
                "window: ask the GM")


class HeadlessShare:
    """A share of ``encounter`` with its server running (see :meth:`start`)."""

    def __init__(self, encounter: Encounter, settings: ShareSettings) -> None:
        self.history = History(encounter)
        self.server = ShareServer(self)
        self.table = ShareTable(HistoryHost(self.history), self.server, settings)
        self._refresh_due = False
        self.history.subscribe(lambda _changes: self._refresh_soon())

    def _refresh_soon(self) -> None:
        """Every page gets the change once the edit is over (a move and what the party then
        sees, recorded into its step, are one delta)."""
        loop = self.server.loop
        if loop is None:
            self.table.refresh()
        elif not self._refresh_due:
            self._refresh_due = True
            loop.call_soon(self._refresh)

    def _refresh(self) -> None:
        self._refresh_due = False
        self.table.refresh()

    def start(self, host: str, port: int) -> str:
        url = self.server.start(host, port)
        self.call(self.table.refresh)  # the first view, and its files for the pages
        # The encounter's objects are kept for good: out of the collector's way, as the
        # window does (desktop.document.collector); a full collection walked them all
        # in the middle of a move on a big map.
        gc.collect()
        gc.freeze()
        return url

    def stop(self) -> None:
        self.server.stop()

    # --- the server's dispatch: already on the loop's thread, where the table lives --------
    def connected(self, connection: int) -> None:
        self.table.connected(connection)

    def disconnected(self, connection: int) -> None:
        self.table.disconnected(connection)

    def handle(self, connection: int, message: ClientMessage) -> None:
        self.table.handle(connection, message)

    def call(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the table's thread and wait for its result (a GM's edit from
        another thread, as the tests and benchmarks make)."""
        loop = self.server.loop
        assert loop is not None
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                future.set_result(work())
            except BaseException as error:  # handed to the caller
                future.set_exception(error)

        loop.call_soon_threadsafe(run)
        return future.result(timeout=30)


def serve(path: Path, host: str, port: int, settings: ShareSettings,
          out: Path | None = None) -> int:
    """Serve the encounter in ``path`` until interrupted (Ctrl+C); then save the players'
    moves to ``out`` if given."""
    import segno

    from core.io.fileio import load_encounter, save_encounter

    _stop_on_signals()
    share = HeadlessShare(load_encounter(path), settings)
    url = share.start(host, port)
    print(f"Sharing {path.name} at {url}", flush=True)
    if sys.stdout.isatty():
        segno.make(url, error="m").terminal(compact=True)
    try:
        share.server.wait()
    except KeyboardInterrupt:
        share.stop()
    if out is not None:
        save_encounter(share.history.encounter, out)
        print(f"Saved to {out}", flush=True)
    return 0


def _stop_on_signals() -> None:
    """Ctrl+C (SIGINT) and SIGTERM (``kill``, a service manager) both stop the share and save.
    SIGINT too when the process started with it ignored — run in the background of a script,
    as POSIX shells do without job control —, where Python never raises KeyboardInterrupt
    and Ctrl+C would not stop it."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
