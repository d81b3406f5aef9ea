"""What a player's page may send, as a schema: every message is one JSON object of at most
:data:`MAX_MESSAGE_BYTES`, of one of the kinds below, each field bounded. Anything else is
refused with a message saying why, and changes nothing.

>>> parse_message('{"type": "move", "token": "hero", "to": [3, 4], "seq": 7}')
Move(type='move', token='hero', to=(3, 4), seq=7)
>>> parse_message('{"type": "move", "token": "hero", "to": [3]}')
Traceback (most recent call last):
...
desktop.share.protocol.MessageError: move.to.1: Field required
>>> parse_message('{"type": "shout"}')
Traceback (most recent call last):
...
desktop.share.protocol.MessageError: unknown message type 'shout' (known: hello, claim, ...)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from core.model.limits import MAX_MAP_CELLS

if TYPE_CHECKING:
    from collections.abc import Callable

#: The largest message a page sends (a move, a ruler of 20 points) is under 600 bytes.
MAX_MESSAGE_BYTES = 4096
MAX_NAME_CHARS = 40
MAX_RULER_POINTS = 20
TOKEN_ID = r"^[A-Za-z0-9_.-]+$"
#: A session token: 32 URL-safe characters (secrets.token_urlsafe(24): 192 bits).
SESSION = r"^[A-Za-z0-9_-]{32}$"

GridNumber = Annotated[int, Field(ge=0, lt=MAX_MAP_CELLS)]
GridCell = tuple[GridNumber, GridNumber]
TokenId = Annotated[str, Field(min_length=1, max_length=60, pattern=TOKEN_ID)]


class MessageError(ValueError):
    """A message that is not one the page may send: why, in words for the player."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Hello(_Message):
    """The first message: join with a name, or come back with the session token the
    server gave (a reconnecting page keeps its player and claims)."""

    type: Literal["hello"]
    name: Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)] | None = None
    session: Annotated[str, Field(pattern=SESSION)] | None = None


class Claim(_Message):
    """Ask to play a party token (the GM approves, unless the GM's setting lets it be)."""

    type: Literal["claim"]
    token: TokenId


class Release(_Message):
    type: Literal["release"]
    token: TokenId


class Preview(_Message):
    """Where would this drag go: the path, its cost and whether it is allowed."""

    type: Literal["preview"]
    token: TokenId
    to: GridCell


class Move(_Message):
    """Move a claimed token (``seq``: the page's number for the answer)."""

    type: Literal["move"]
    token: TokenId
    to: GridCell
    seq: Annotated[int, Field(ge=0, le=2**31)] = 0


class Measure(_Message):
    """The ruler: distance along the grid through these points."""

    type: Literal["measure"]
    points: Annotated[tuple[GridCell, ...], Field(min_length=2, max_length=MAX_RULER_POINTS)]


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Hello | Claim | Release | Preview | Move | Measure | Ping
KINDS: dict[str, type[ClientMessage]] = {
    "hello": Hello, "claim": Claim, "release": Release, "preview": Preview, "move": Move,
    "measure": Measure, "ping": Ping}
_ANY_OBJECT: TypeAdapter[dict[str, object]] = TypeAdapter(dict[str, object])


def parse_message(text: str | bytes) -> ClientMessage:
    """The message in ``text``, or :class:`MessageError` saying what is wrong with it."""
    size = len(text.encode()) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too long ({size} bytes; at most {MAX_MESSAGE_BYTES})")
    try:
        raw = _ANY_OBJECT.validate_json(text)
    except ValidationError:
        raise MessageError("not a JSON object") from None
    kind = raw.get("type")
    model = KINDS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise MessageError(f"unknown message type {str(kind)[:20]!r} (known: {', '.join(KINDS)})")
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in (kind, *first["loc"]))
        raise MessageError(f"{where}: {first['msg']}") from None


@dataclass
class RateLimit:
    """A token bucket: ``burst`` messages at once, refilled at ``per_second``. A page sends
    a preview per cell a drag enters (about 10 a second on a fast drag)."""

    per_second: float = 20.0
    burst: float = 40.0
    clock: Callable[[], float] = time.monotonic
    _level: float = field(default=-1.0, repr=False)
    _at: float = field(default=0.0, repr=False)

    def allow(self) -> bool:
        """Whether one more message may come now (and count it if so)."""
        now = self.clock()
        if self._level < 0:
            self._level, self._at = self.burst, now
        self._level = min(self.burst, self._level + (now - self._at) * self.per_second)
        self._at = now
        if self._level < 1:
            return False
        self._level -= 1
        return True
