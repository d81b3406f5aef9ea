"""The table's state of sharing, on the thread that owns the encounter (the GUI thread, or
``battlemap serve``'s loop): who has joined, which tokens they play, the moves and claims
waiting for the GM (what the pages were sent of the view is its
:class:`~desktop.share.publisher.Publisher`'s).

The server (:mod:`desktop.share.server`) hands it messages already checked against the
schema; it answers through an :class:`Outbox` (thread-safe) and asks its :class:`RulesHost`
to perform a move: the same core ``MoveAction`` and history as the GM's own drag. Pages get
the player view (:mod:`desktop.share.view`) when they join and its delta after every
change of the encounter (:meth:`ShareTable.refresh`).
"""

from __future__ import annotations

import itertools
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from core.model.combatant import Side
from core.model.grid import Cell
from core.spatial.pathing import IllegalMoveError
from desktop.share.protocol import (
    Claim,
    ClientMessage,
    Hello,
    Measure,
    Move,
    Preview,
    RateLimit,
    Release,
)
from desktop.share.publisher import Publisher, Sender
from desktop.share.rulings import (
    UNEXPLORED,
    MoveRuling,
    Redactor,
    move_outcome,
    preview_move,
    rule_move,
    ruler,
)
from desktop.share.view import EnemyHp, Json, Seen, ViewOptions

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.base import Outcome
    from core.model.encounter import Encounter

#: What the GM reads of a move into the fog, beside core's ruling of it.
FOGGED_FOR_GM = "it ends where the party has not been: the players saw no ruling"
MAX_PLAYERS = 24
MAX_PAGES = 6  # a player's open pages: a phone, a tablet, and pages still closing
MOVES_PER_SECOND = 10.0  # a player's move requests (each is ruled on the GM's GUI thread)
SESSION_BYTES = 24  # 192 bits, 32 characters


class Outbox(Sender, Protocol):
    """Where the table's answers go: the server, from any thread."""

    def close(self, connection: int, message: Json) -> None: ...

    def set_sessions(self, sessions: frozenset[str]) -> None: ...


class RulesHost(Protocol):
    """The encounter and its history, as the GM's window (or ``battlemap serve``) has them."""

    @property
    def encounter(self) -> Encounter: ...

    def budget_ft(self) -> float | None: ...

    def perform(self, outcome: Outcome[Any]) -> str | None:
        """Push the outcome onto the history; why it was refused, or None."""

    def resolve(self, token_id: str, goal: Cell) -> str | None:
        """Hand a move that asks for dice (evade checks) to the GM; why not, or None."""


@dataclass(frozen=True)
class ShareSettings:
    """The GM's choices: a player's move is applied at once or waits for the GM's OK; a
    claim waits for the GM's OK or is granted at once; what the pages show of enemies' HP."""

    moves: Literal["apply", "approve"] = "apply"
    claims: Literal["approve", "open"] = "approve"
    enemy_hp: EnemyHp = "hidden"


@dataclass
class Player:
    id: str
    name: str
    session: str
    connections: set[int] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    moves: RateLimit = field(default_factory=lambda: RateLimit(MOVES_PER_SECOND,
                                                               2 * MOVES_PER_SECOND))


@dataclass(frozen=True)
class PendingMove:
    id: int
    player: str
    token: str
    goal: Cell
    label: str
    needs_gm: str = ""


@dataclass(frozen=True)
class PendingClaim:
    player: str
    token: str


class ShareTable:
    """Players, claims and pending moves; the messages of the pages in, the view out."""

    def __init__(self, host: RulesHost, outbox: Outbox, settings: ShareSettings | None = None,
                 changed: Callable[[], None] = lambda: None) -> None:
        self.host, self.outbox = host, outbox
        self.settings = settings or ShareSettings()
        self.changed = changed  # the GM's panel redraws
        self.players: dict[str, Player] = {}
        self.pending_moves: list[PendingMove] = []
        self.pending_claims: list[PendingClaim] = []
        self._connections: dict[int, str | None] = {}
        self._ids = itertools.count(1)
        self.pushed_view: Json | None = None  # the GM's last pushed area, for pages joining later
        self.publisher = Publisher(lambda: host.encounter, outbox,
                                   ViewOptions(self.settings.enemy_hp))

    # --- connections ---------------------------------------------------------------------
    def connected(self, connection: int) -> None:
        self._connections[connection] = None

    def disconnected(self, connection: int) -> None:
        player = self._player_of(connection)
        self._connections.pop(connection, None)
        if player is not None:
            player.connections.discard(connection)
            self._roster_changed()

    def _player_of(self, connection: int) -> Player | None:
        player_id = self._connections.get(connection)
        return None if player_id is None else self.players.get(player_id)

    def _joined(self) -> list[int]:
        return [c for c, player in self._connections.items() if player is not None]

    def _reply(self, connection: int, kind: str, **body: Any) -> None:
        self.outbox.send([connection], {"type": kind, **body})

    # --- the pages' messages -------------------------------------------------------------
    def handle(self, connection: int, message: ClientMessage) -> None:
        """One checked message from a page."""
        if connection not in self._connections:
            return  # it closed while the message was on its way
        player = self._player_of(connection)
        if isinstance(message, Hello):
            self._hello(connection, player, message)
        elif player is None:
            self._reply(connection, "error", text="say hello first: join with a name")
        elif message.type == "ping":
            self._reply(connection, "pong")
        else:
            self._answer(connection, player, message)

    def _answer(self, connection: int, player: Player, message: ClientMessage) -> None:
        if isinstance(message, Claim):
            self._claim(connection, player, message.token)
        elif isinstance(message, Release):
            self._release(connection, player, message.token)
        elif isinstance(message, Preview):
            ruling = self._ruling(player, message.token, Cell(*message.to), preview_move)
            self._reply(connection, "preview", **ruling.as_json(message.token))
        elif isinstance(message, Move) and not player.moves.allow():
            self._reply(connection, "move", seq=message.seq, token=message.token,
                        status="refused", text="too many moves at once: wait a moment")
        elif isinstance(message, Move):
            self._move(connection, player, message)
        elif isinstance(message, Measure):
            self._reply(connection, "measure", **ruler(self.host.encounter, message.points))

    def _hello(self, connection: int, player: Player | None, hello: Hello) -> None:
        if player is not None:
            self._reply(connection, "error", text="already joined")
            return
        if hello.session is not None:
            player = next((p for p in self.players.values() if p.session == hello.session), None)
            if player is None:
                self._reply(connection, "ended", text="That seat has ended (the GM stopped "
                            "sharing or removed you): join again with a name.")
                return
        elif hello.name is not None and (name := _clean_name(hello.name)):
            player = self._new_player(connection, name)
            if player is None:
                return
        else:
            self._reply(connection, "error", text="join with a name (letters, digits, spaces)")
            return
        self._seat(connection, player)

    def _new_player(self, connection: int, name: str) -> Player | None:
        if len(self.players) >= MAX_PLAYERS:
            self._reply(connection, "error", text=f"the table is full ({MAX_PLAYERS} players)")
            return None
        taken = {p.name for p in self.players.values()}
        numbered = (f"{name} ({i})" for i in itertools.count(2))
        unique = next(n for n in itertools.chain([name], numbered) if n not in taken)
        player = Player(f"p{next(self._ids)}", unique, secrets.token_urlsafe(SESSION_BYTES))
        self.players[player.id] = player
        return player

    def _seat(self, connection: int, player: Player) -> None:
        if len(player.connections) >= MAX_PAGES:
            self._reply(connection, "error", text=f"{player.name} has {MAX_PAGES} pages open: "
                        "close one first")
            return
        self._connections[connection] = player.id
        player.connections.add(connection)
        settings = self.settings
        self._reply(connection, "welcome", player={"id": player.id, "name": player.name},
                    session=player.session,
                    settings={"moves": settings.moves, "claims": settings.claims})
        self._reply(connection, "state", view=self.publisher.view())
        if self.pushed_view is not None:
            self.outbox.send([connection], self.pushed_view)
        self._roster_changed()

    # --- claims --------------------------------------------------------------------------
    def _claim(self, connection: int, player: Player, token_id: str) -> None:
        problem = self._claim_problem(player, token_id, by_gm=False)
        if problem:
            self._reply(connection, "claim", token=token_id, status="refused", text=problem)
        elif self.settings.claims == "open":
            self.assign(player.id, token_id)
        elif PendingClaim(player.id, token_id) not in self.pending_claims:
            self.pending_claims.append(PendingClaim(player.id, token_id))
            self._reply(connection, "claim", token=token_id, status="asked",
                        text="asked: waiting for the GM's OK")
            self._roster_changed()

    def _claim_problem(self, player: Player, token_id: str, *, by_gm: bool) -> str | None:
        encounter = self.host.encounter
        shown = by_gm or token_id in self.seen().token_ids
        if not encounter.has_token(token_id) or not shown:
            return "no such token on the map"
        token = encounter.token(token_id)
        if token.gm_only or token.combatant.side is not Side.PARTY:
            return f"{token.name} is not one of the party"
        owner = self.owner_of(token_id)
        if owner is not None and owner is not player:
            return f"{owner.name} plays {token.name}"
        return None

    def owner_of(self, token_id: str) -> Player | None:
        return next((p for p in self.players.values() if token_id in p.tokens), None)

    def assign(self, player_id: str, token_id: str) -> str | None:
        """The GM gives (or approves) a token to a player; why not, or None."""
        player = self.players.get(player_id)
        if player is None:
            return "that player has left"
        problem = self._claim_problem(player, token_id, by_gm=True)
        if problem:
            return problem
        player.tokens.add(token_id)
        self.pending_claims = [c for c in self.pending_claims if c.token != token_id]
        self.outbox.send(player.connections, {"type": "claim", "token": token_id,
                                              "status": "granted", "text": "yours to move"})
        self._roster_changed()
        return None

    def refuse_claim(self, claim: PendingClaim) -> None:
        if claim in self.pending_claims:
            self.pending_claims.remove(claim)
            player = self.players.get(claim.player)
            if player is not None:
                self.outbox.send(player.connections, {"type": "claim", "token": claim.token,
                                                      "status": "refused",
                                                      "text": "the GM said no"})
            self._roster_changed()

    def _release(self, connection: int, player: Player, token_id: str) -> None:
        if token_id in player.tokens:
            self.release(token_id)
        else:
            self._reply(connection, "error", text="you do not play that token")

    def release(self, token_id: str) -> None:
        """Nobody plays ``token_id`` any more (its player let go, or the GM took it)."""
        for player in self.players.values():
            player.tokens.discard(token_id)
        self.pending_moves = [m for m in self.pending_moves if m.token != token_id]
        self._roster_changed()

    # --- moves ---------------------------------------------------------------------------
    def _ruling(self, player: Player, token_id: str, goal: Cell,
                rule: Callable[..., MoveRuling] = rule_move) -> MoveRuling:
        """``rule`` (:func:`rule_move`, or :func:`preview_move` for a preview) of a drag of a
        token ``player`` plays."""
        if token_id not in player.tokens:
            owner = self.owner_of(token_id)
            shown = owner is not None and token_id in self.seen().token_ids
            return MoveRuling(goal, False, f"{owner.name} plays it" if shown and owner
                              else "not your token: claim it first")
        encounter = self.host.encounter
        if not encounter.has_token(token_id):
            return MoveRuling(goal, False, "that token has left the map")
        return rule(encounter, token_id, goal, self.host.budget_ft(), self.seen())

    def _move(self, connection: int, player: Player, move: Move) -> None:
        goal = Cell(*move.to)
        ruling = self._ruling(player, move.token, goal)
        fogged = self._in_fog(player, move.token, goal)
        if fogged:  # queued whatever is there; the GM reads core's ruling
            ruling = MoveRuling(goal, True, ruling.label, needs_gm=FOGGED_FOR_GM)

        def answer(status: str, text: str) -> None:
            self._reply(connection, "move", seq=move.seq, token=move.token, status=status,
                        text=text)

        if not ruling.legal:
            answer("refused", ruling.label)
        elif ruling.needs_gm or self.settings.moves == "approve":
            for earlier in [m for m in self.pending_moves if m.token == move.token]:
                self.pending_moves.remove(earlier)  # one move per token waits: the latest
                self._tell_move(earlier, "replaced by a later move")
            pending = PendingMove(next(self._ids), player.id, move.token, goal, ruling.label,
                                  ruling.needs_gm)
            self.pending_moves.append(pending)
            answer("queued", f"{UNEXPLORED}: the GM rules it" if fogged
                   else ruling.needs_gm or "waiting for the GM's OK")
            self.changed()
        else:
            problem = self._apply(move.token, goal)
            answer("refused" if problem else "applied", problem or ruling.label)

    def _in_fog(self, player: Player, token_id: str, goal: Cell) -> bool:
        """Whether a move of a token ``player`` plays ends on a cell the party has not
        explored: its ruling would tell what is there, so it waits for the GM."""
        encounter = self.host.encounter
        if token_id not in player.tokens or not encounter.has_token(token_id):
            return False
        return self.seen().in_fog(encounter.token(token_id).at(goal).footprint)

    def _apply(self, token_id: str, goal: Cell) -> str | None:
        """The move through core's MoveAction and the history; why it was refused, or None."""
        encounter = self.host.encounter
        try:
            outcome = move_outcome(encounter, token_id, goal, self.host.budget_ft())
        except IllegalMoveError as error:
            return Redactor(encounter, self.seen())(str(error))
        paths = outcome.result.paths
        if token_id in paths:
            self.publisher.walked[token_id] = paths[token_id].cells
        problem = self.host.perform(outcome)
        return None if problem is None else Redactor(encounter, self.seen())(problem)

    def approve_move(self, pending: PendingMove) -> str | None:
        """The GM's OK: the move is ruled again as things are now and applied (a move that
        asks for evade checks goes to the GM's Resolve panel). Why not, or None."""
        if pending not in self.pending_moves:
            return "no longer waiting"
        self.pending_moves.remove(pending)
        player = self.players.get(pending.player)
        if player is None or pending.token not in player.tokens:
            problem: str | None = "that player no longer plays that token"
        else:
            ruling = self._ruling(player, pending.token, pending.goal)
            problem = (ruling.label if not ruling.legal
                       else self.host.resolve(pending.token, pending.goal) if ruling.needs_gm
                       else self._apply(pending.token, pending.goal))
        self._tell_move(pending, problem)
        self.changed()
        return problem

    def refuse_move(self, pending: PendingMove) -> None:
        if pending in self.pending_moves:
            self.pending_moves.remove(pending)
            self._tell_move(pending, "the GM said no")
            self.changed()

    def _tell_move(self, pending: PendingMove, problem: str | None) -> None:
        player = self.players.get(pending.player)
        if player is not None:
            self.outbox.send(player.connections, {
                "type": "move", "seq": None, "token": pending.token,
                "status": "refused" if problem else "applied",
                "text": problem or f"the GM said yes: {pending.label}"})

    # --- the GM's other commands ---------------------------------------------------------
    def kick(self, player_id: str) -> None:
        """Remove a player: their pages are closed and their seat ends."""
        player = self.players.pop(player_id, None)
        if player is None:
            return
        for connection in player.connections:
            self._connections.pop(connection, None)
            self.outbox.close(connection, {"type": "kicked", "text": "The GM removed you "
                                                                    "from the table."})
        self.pending_moves = [m for m in self.pending_moves if m.player != player_id]
        self.pending_claims = [c for c in self.pending_claims if c.player != player_id]
        self._roster_changed()

    def push_view(self, x: float, y: float, width: float, height: float) -> None:
        """Show every page this area of the map (in cells), and every page that joins later."""
        self.pushed_view = {"type": "view", "x": x, "y": y, "width": width, "height": height}
        self.outbox.send(self._joined(), self.pushed_view)

    def set_settings(self, settings: ShareSettings) -> None:
        hp_changed = settings.enemy_hp != self.settings.enemy_hp
        self.settings = settings
        if settings.claims == "open":  # the claims asked for are granted now
            for claim in list(self.pending_claims):
                self.assign(claim.player, claim.token)
        if hp_changed:
            self.publisher.set_options(ViewOptions(settings.enemy_hp))
        for connection in self._joined():
            self._reply(connection, "settings", moves=settings.moves, claims=settings.claims)
        if hp_changed:
            self.refresh()

    def roster(self) -> list[Json]:
        """The players as every page shows them: name, tokens (those the players see),
        online or not, the claims they asked for."""
        shown = self.seen().token_ids
        asking = {c.player: c.token for c in self.pending_claims}
        return [{"id": p.id, "name": p.name, "online": bool(p.connections),
                 "tokens": sorted(t for t in p.tokens if t in shown),
                 "asking": asking.get(p.id)} for p in self.players.values()]

    def _roster_changed(self) -> None:
        self.outbox.set_sessions(frozenset(p.session for p in self.players.values()))
        self.outbox.send(self._joined(), {"type": "players", "players": self.roster()})
        self.changed()

    # --- the view ------------------------------------------------------------------------
    def seen(self) -> Seen:
        return self.publisher.seen()

    def refresh(self) -> None:
        """The encounter changed: every page gets what changed of its view."""
        self._forget_gone_tokens()
        self.publisher.refresh(self._joined())

    def replaced(self) -> None:
        """Another encounter: every page starts again from its whole view."""
        self.pushed_view = None  # an area of the map that is gone
        self._forget_gone_tokens()
        self.publisher.replaced(self._joined())

    def _forget_gone_tokens(self) -> None:
        """Claims (granted or asked for) of tokens that left the map, turned hidden or
        changed sides end."""
        encounter = self.host.encounter
        for player in self.players.values():
            kept = {t for t in player.tokens if encounter.has_token(t)
                    and not encounter.token(t).gm_only
                    and encounter.token(t).combatant.side is Side.PARTY}
            if kept != player.tokens:
                player.tokens = kept
                self._roster_changed()
        asked = [c for c in self.pending_claims if self._claim_problem(
            self.players[c.player], c.token, by_gm=True) is None]
        if asked != self.pending_claims:
            self.pending_claims = asked
            self._roster_changed()


def _clean_name(name: str) -> str:
    """A player's name as shown: control and format characters dropped, spaces joined.

    >>> _clean_name("  Ann\\u202e\\x00  the   Bold ")
    'Ann the Bold'
    """
    kept = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())

