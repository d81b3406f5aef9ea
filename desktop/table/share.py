"""Sharing with the players' devices, from the GM's window: the View menu's entries, the
server (:mod:`desktop.share.server`, on its own thread) and the table of sharing
(:mod:`desktop.share.table`) on the GUI thread, with the window's document as its rules
host. A player's move is planned by core's ``MoveAction`` and pushed with
``EncounterDocument.perform`` — the GM's drag's way — so it is one undoable step; a move
that asks for evade checks goes to the Resolve panel. Choices are remembered (QSettings
``share/...``)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from desktop.qt import (
    QAction,
    QObject,
    QPixmap,
    QSettings,
    Qt,
    QTimer,
    QToolButton,
    QWidget,
    Signal,
)
from desktop.widgets.shortcuts import SEPARATOR, MenuItem

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.base import Outcome
    from core.actions.commands import ChangeSet
    from core.model.encounter import Encounter
    from core.model.grid import Cell
    from desktop.document.document import EncounterDocument
    from desktop.map.view import MapView
    from desktop.panels.resolve import ResolvePanel
    from desktop.share.protocol import ClientMessage
    from desktop.share.server import ShareServer
    from desktop.share.table import PendingMove, ShareSettings, ShareTable
    from desktop.table.controller import TableController
    from desktop.table.join_card import JoinCard
    from desktop.table.share_panel import SharePanel


class DocumentHost:
    """The rules host of a share from the window: its document, the select tool's budget,
    the Resolve panel for the evade checks a move asks for."""

    def __init__(self, document: EncounterDocument, resolve_panel: ResolvePanel,
                 budget: Callable[[], float | None]) -> None:
        self.document, self.resolve_panel, self.budget = document, resolve_panel, budget

    @property
    def encounter(self) -> Encounter:
        return self.document.encounter

    def budget_ft(self) -> float | None:
        return self.budget()

    def perform(self, outcome: Outcome[Any]) -> str | None:
        refusals: list[str] = []
        self.document.refused.connect(refusals.append)
        try:
            done = self.document.perform(outcome)
        finally:
            self.document.refused.disconnect(refusals.append)
        return None if done else (refusals[-1] if refusals else "the encounter refused it")

    def resolve(self, token_id: str, goal: Cell) -> str | None:
        """The move with its evade checks, handed to the Resolve panel as the GM's own drag
        hands it (the GM rolls, or types the dice)."""
        from core.actions.manoeuvre import action_for
        from core.rules.manoeuvres import drag_offer
        from core.spatial.pathing import movement_graph
        from desktop.tools.manoeuvre_cards import card

        encounter = self.encounter
        path = movement_graph(encounter, encounter.token(token_id)).path_to(goal, self.budget())
        offer = drag_offer(encounter, token_id, goal, path=path.cells if path.legal else (),
                           around=True, budget_ft=self.budget())
        if offer is None:
            return "the move no longer asks for a roll: approve it again"
        self.resolve_panel.begin_roll(action_for(offer.request), card(encounter, offer.request))
        return None


class _Bridge(QObject):
    """The server's dispatch: called on the server's thread, run on the GUI thread. Of a
    page's previews only the latest waiting is ruled: a finger sends one per cell, and
    while the GUI thread is busy the earlier ones are out of date (so however many pages
    drag at once, each costs the GUI thread at most one preview at a time)."""

    arrived = Signal(object)  # a call to make

    def __init__(self, table: Callable[[], ShareTable | None]) -> None:
        super().__init__()
        self.table = table
        self._previews: dict[int, ClientMessage] = {}
        self._lock = threading.Lock()
        self.arrived.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def _run(self, call: Callable[[ShareTable], None]) -> None:
        table = self.table()
        if table is not None:
            call(table)

    def connected(self, connection: int) -> None:
        self.arrived.emit(lambda table: table.connected(connection))

    def disconnected(self, connection: int) -> None:
        self.arrived.emit(lambda table: table.disconnected(connection))

    def handle(self, connection: int, message: ClientMessage) -> None:
        if message.type != "preview":
            self.arrived.emit(lambda table: table.handle(connection, message))
            return
        with self._lock:
            waiting = connection in self._previews
            self._previews[connection] = message
        if not waiting:
            self.arrived.emit(lambda table: table.handle(connection, self._latest(connection)))

    def _latest(self, connection: int) -> ClientMessage:
        with self._lock:
            return self._previews.pop(connection)


class ShareController(QObject):
    """Start and stop sharing, the players' panel, pushing the GM's view, the join code on
    the players' window."""

    changed = Signal()  # started, stopped, players or waiting moves changed
    code_shown = Signal(bool)  # the join code on the players' window, or not

    def __init__(self, window: QWidget, settings: QSettings, document: EncounterDocument,
                 view: MapView, *, resolve_panel: ResolvePanel,
                 budget: Callable[[], float | None], table_play: TableController) -> None:
        super().__init__(window)
        self.window, self.settings, self.document, self.view = window, settings, document, view
        self.table_play = table_play
        self.host = DocumentHost(document, resolve_panel, budget)
        self.server: ShareServer | None = None
        self.table: ShareTable | None = None
        self.bridge = _Bridge(lambda: self.table)
        self.panel: SharePanel | None = None
        self.code_label: JoinCard | None = None
        self._pending_refresh = False
        self._qr: tuple[str, QPixmap] | None = None
        self._showing_waiting = False  # the map's path preview shows a waiting move
        document.changed.connect(self._document_changed)
        document.replaced.connect(self._document_replaced)

    # --- menus ---------------------------------------------------------------------------
    def menu_items(self) -> list[MenuItem]:
        return [
            MenuItem("&View", SEPARATOR, None, lambda: None),
            MenuItem("&View", "Share with players' &devices…", None, self.show_panel,
                     "The player view live in the players' browsers on this network: "
                     "the join address and its QR code, the players, their moves"),
            MenuItem("&View", "Stop sharing", None, self.stop,
                     "Close every player's connection (the join address stops working)"),
            MenuItem("&View", "Push my view to players' devices", None, self.push_view,
                     "Show the players' pages the part of the map this view shows"),
            MenuItem("&View", "Join code on the player window", None, self.show_code_on_tv,
                     "Show the join address and its QR code on the players' window",
                     checked=lambda: self.code_label is not None),
        ]

    def follow_actions(self, actions: dict[str, QAction]) -> None:
        """The menu's entries follow the sharing: those that need a share are greyed out
        without one (they did nothing, and said nothing), the join code's tick is whether
        it shows."""
        needing = [actions[name] for name in ("Stop sharing", "Push my view to players' devices",
                                              "Join code on the player window")]

        def follow() -> None:
            for action in needing:
                action.setEnabled(self.running)

        self.changed.connect(follow)
        self.code_shown.connect(actions["Join code on the player window"].setChecked)
        follow()

    def status_button(self) -> QToolButton:
        """The status bar's word on sharing, shown while sharing: how many players, and who
        waits for the GM's OK (a claim, a move); a click opens the panel."""
        button = QToolButton()
        button.setAutoRaise(True)
        button.clicked.connect(self.show_panel)
        button.setToolTip("Players' devices: open the panel to approve, give tokens, stop")

        def show() -> None:
            table = self.table
            button.setVisible(table is not None)
            if table is None:
                return
            online = sum(1 for p in table.players.values() if p.connections)
            waiting = len(table.pending_claims) + len(table.pending_moves)
            button.setText(f"⇄ {online} online" + (f" · ⚑ {waiting} waiting" if waiting else ""))

        self.changed.connect(show)
        show()
        return button

    def show_panel(self) -> None:
        from desktop.table.share_panel import SharePanel  # at the first opening

        if self.panel is None:
            self.panel = SharePanel(self, self.window)
        self.panel.show()
        self.panel.activateWindow()

    # --- starting and stopping -----------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.server is not None

    @property
    def url(self) -> str:
        return self.server.url if self.server is not None else ""

    def share_settings(self) -> ShareSettings:
        """The GM's remembered choices (a value that is not one of them: the default)."""
        from desktop.share.table import ShareSettings  # with the table: not before sharing

        def saved(key: str) -> str:
            return str(self.settings.value(f"share/{key}", ""))

        hp = saved("enemy_hp")
        return ShareSettings(moves="approve" if saved("moves") == "approve" else "apply",
                             claims="open" if saved("claims") == "open" else "approve",
                             enemy_hp="state" if hp == "state" else
                             "exact" if hp == "exact" else "hidden")

    def set_share_settings(self, settings: ShareSettings) -> None:
        for key in ("moves", "claims", "enemy_hp"):
            self.settings.setValue(f"share/{key}", getattr(settings, key))
        if self.table is not None:
            self.table.set_settings(settings)

    def chosen_address(self) -> tuple[str, int]:
        from desktop.share.address import default_address  # socket: not before sharing

        host = str(self.settings.value("share/host", "")) or default_address()
        return host, int(str(self.settings.value("share/port", 0)))

    def start(self, host: str, port: int) -> str | None:
        """Serve on ``host``:``port`` (0: a free one); why not, or None."""
        from desktop.share.server import ShareServer  # aiohttp: not before the GM shares
        from desktop.share.table import ShareTable  # its protocol's models: ~10 ms of a start

        self.stop()
        server = ShareServer(self.bridge)
        table = ShareTable(self.host, server, self.share_settings(), self.changed.emit)
        try:
            server.start(host, port)
        except OSError as error:
            return f"Cannot share on {host}:{port}: {error.strerror or error}"
        self.server, self.table = server, table
        self.settings.setValue("share/host", host)
        self.settings.setValue("share/port", port)
        table.refresh()
        self.changed.emit()
        return None

    def stop(self) -> None:
        """Close every connection and the server; the join address stops working."""
        server, self.server, self.table = self.server, None, None
        if server is not None:
            server.stop()
            self.changed.emit()
        self.show_code_on_tv(False)

    def close(self) -> None:
        """The GM's window closes: sharing stops and the panel closes with it."""
        self.stop()
        if self.panel is not None:
            self.panel.close()

    # --- following the document ----------------------------------------------------------
    def _document_changed(self, _changes: ChangeSet) -> None:
        """Every page gets the change once the edit is over (a drag's pushes, a group's)."""
        if self.table is not None and not self._pending_refresh:
            self._pending_refresh = True
            QTimer.singleShot(0, self._refresh)

    def _refresh(self) -> None:
        self._pending_refresh = False
        if self.table is not None:
            self.table.refresh()

    def _document_replaced(self) -> None:
        if self.table is not None:
            self.table.replaced()

    # --- the GM's view, the join code ----------------------------------------------------
    def push_view(self) -> None:
        if self.table is None:
            return
        renderer, view = self.view.map_scene.renderer, self.view
        area = view.mapToScene(view.viewport().rect()).boundingRect()
        (x0, y0), (x1, y1) = renderer.to_grid(area.topLeft()), renderer.to_grid(
            area.bottomRight())
        left, top = min(x0, x1), min(y0, y1)
        self.table.push_view(left, top, abs(x1 - x0), abs(y1 - y0))

    def qr_pixmap(self) -> QPixmap:
        """The join address's QR code, a pixel per module (made once per address: the
        panel redraws whenever a player comes or goes; each shows it scaled)."""
        import io

        import segno

        url = self.url
        if self._qr is None or self._qr[0] != url:
            data = io.BytesIO()
            segno.make(url, error="m").save(data, kind="png", scale=1, border=2)
            pixmap = QPixmap()
            pixmap.loadFromData(data.getvalue(), "PNG")
            self._qr = (url, pixmap)
        return self._qr[1]

    def show_waiting(self, move: PendingMove | None) -> None:
        """A move waiting for the GM drawn on the GM's map as a drag's path is, with the
        label the panel gives it (None: no longer)."""
        from core.spatial.pathing import movement_graph

        scene, encounter = self.view.map_scene, self.document.encounter
        if move is None or not encounter.has_token(move.token):
            if self._showing_waiting:
                scene.path_preview.hide()
                self._showing_waiting = False
            return
        token = encounter.token(move.token)
        path = movement_graph(encounter, token).path_to(move.goal, self.host.budget_ft())
        scene.path_preview.show_path(
            scene.renderer.path_points(path, token.footprint.size, move.goal), move.label,
            path.legal)
        self._showing_waiting = True

    def show_code_on_tv(self, on: bool) -> None:
        """The join address and its QR code in a corner of the players' window."""
        if self.code_label is not None:
            self.code_label.deleteLater()
            self.code_label = None
        if on and self.server is not None:
            self._show_code()
        self.code_shown.emit(self.code_label is not None)

    def _show_code(self) -> None:
        from desktop.table.join_card import JoinCard

        self.table_play.show_player_window(True)
        players = self.table_play.player_window
        assert players is not None
        self.code_label = JoinCard(players, self.qr_pixmap(), self.url)
