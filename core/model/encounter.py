"""The encounter: rules profile, map, tokens on it, and the combat log.

>>> from core.model.combatant import Combatant
>>> enc = Encounter(map=BattleMap(width=6, height=6))
>>> enc.add_token(Token(id="ogre", combatant=Combatant(name="Ogre", size="large"), x=1, y=1))
>>> enc.token_at(Cell(2, 2)).id
'ogre'
>>> enc.token("OGRE").footprint
Footprint(x=1, y=1, size=2)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from core.model.combatant import Combatant
from core.model.grid import Cell, Footprint, ring
from core.model.limits import (
    MAX_LOG_ENTRIES,
    MAX_MAP_CELLS,
    MAX_NAME_CHARS,
    MAX_ROUND,
    MAX_TOKENS,
    at_most,
)
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.model.round import RoundState
from core.model.tables import SIZES

D = TypeVar("D")

SCHEMA = "battlemap.encounter"  # repeated as the Literal defaults of Encounter below
SCHEMA_VERSION = 1


class UnknownTokenError(KeyError):
    """No token (or more than one) answers to the given name or id."""

    def __str__(self) -> str:
        return str(self.args[0])


class Token(BaseModel):
    """A combatant placed on the map; (x, y) is the top-left cell of its footprint."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=60, pattern=r"^[A-Za-z0-9_.-]+$")
    combatant: Combatant
    x: int = Field(ge=0, lt=MAX_MAP_CELLS)
    y: int = Field(ge=0, lt=MAX_MAP_CELLS)

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, SIZES[self.combatant.size].footprint)

    @property
    def cell(self) -> Cell:
        return Cell(self.x, self.y)

    @property
    def name(self) -> str:
        return self.combatant.name


class LogEntry(BaseModel):
    """One resolution in the combat log: a one-line summary and its full detail."""

    model_config = ConfigDict(frozen=True)

    kind: str
    summary: str
    text: str = Field("", description="Every roll and modifier, one per line")
    detail: dict[str, Any] = Field(default_factory=dict)
    round: int | None = Field(None, ge=0, le=MAX_ROUND)


class Encounter(BaseModel):
    """Everything saved in an encounter file (see docs/file-format.md)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_id: Literal["battlemap.encounter"] = Field("battlemap.encounter", alias="schema")
    version: Literal[1] = 1
    name: str = Field("Untitled encounter", max_length=MAX_NAME_CHARS)
    profile: RulesProfile = RulesProfile()
    map: BattleMap = Field(default_factory=BattleMap)
    tokens: Annotated[list[Token], at_most(MAX_TOKENS, "tokens")] = Field(default_factory=list)
    log: Annotated[list[LogEntry], at_most(MAX_LOG_ENTRIES, "log entries")] = Field(
        default_factory=list)
    timeline: RoundState = Field(default_factory=RoundState)

    _derived: dict[type, object] = PrivateAttr(default_factory=dict)
    _occupancy_key: tuple[object, ...] | None = PrivateAttr(None)
    _occupancy_cells: dict[Cell, Token] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _tokens_fit(self) -> Encounter:
        """Ids unique, footprints on the map and apart (a cell → token grid, not all pairs)."""
        seen: set[str] = set()
        owner: dict[Cell, Token] = {}
        for token in self.tokens:
            if token.id in seen:
                raise ValueError(f"two tokens have the id {token.id!r}")
            seen.add(token.id)
            self._check_placement(token.footprint, token.name, [])
            for cell in token.footprint.cells():
                other = owner.setdefault(cell, token)
                if other is not token:
                    raise ValueError(f"{token.name} overlaps {other.name} at "
                                     f"({other.x}, {other.y})")
        return self

    def _check_placement(self, footprint: Footprint, name: str, others: list[Token]) -> None:
        if not self.map.contains_footprint(footprint):
            raise ValueError(f"{name} at ({footprint.x}, {footprint.y}) does not fit on the "
                             f"{self.map.width}×{self.map.height} map")
        for other in others:
            if other.footprint.overlaps(footprint):
                raise ValueError(f"{name} overlaps {other.name} at ({other.x}, {other.y})")

    def derived(self, kind: type[D], build: Callable[[], D]) -> D:
        """The value of type ``kind`` derived from this encounter (the map's geometry
        indexes), built on first use and kept until :meth:`drop_derived`. Layers above the
        model own what it holds; the model only keeps the slot."""
        if kind not in self._derived:
            self._derived[kind] = build()
        return cast(D, self._derived[kind])

    def peek_derived(self, kind: type[D]) -> D | None:
        """The derived value of type ``kind`` if it was built, else None."""
        return cast("D | None", self._derived.get(kind))

    def drop_derived(self, kind: type | None = None) -> None:
        """Forget one derived value (or all): the next use rebuilds it."""
        if kind is None:
            self._derived.clear()
        else:
            self._derived.pop(kind, None)

    @model_validator(mode="after")
    def _timeline_names_tokens(self) -> Encounter:
        """The round refers only to tokens on the map (a stray id broke Next round)."""
        problem = self.timeline.stray_token({token.id for token in self.tokens})
        if problem:
            raise ValueError(problem)
        return self

    def token(self, key: str) -> Token:
        """The token with this id, or whose combatant has this name (case-insensitive)."""
        for token in self.tokens:
            if token.id == key:
                return token
        matches = [t for t in self.tokens if t.name.casefold() == key.casefold()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UnknownTokenError(f"{len(matches)} tokens are named {key!r}; use the id")
        names = ", ".join(t.name for t in self.tokens) or "none"
        raise UnknownTokenError(f"no token named {key!r} (tokens: {names})")

    def _occupancy(self) -> dict[Cell, Token]:
        """Cell → token, rebuilt only when some token moved, changed size or came or went
        (checked by a cheap key, so direct edits of token positions are seen too)."""
        key = tuple((id(t), t.x, t.y, t.combatant.size) for t in self.tokens)
        if self._occupancy_key != key:
            self._occupancy_cells = {cell: t for t in self.tokens for cell in t.footprint.cells()}
            self._occupancy_key = key
        return self._occupancy_cells

    def token_at(self, cell: Cell) -> Token | None:
        return self._occupancy().get(cell)

    def tokens_overlapping(self, footprint: Footprint, ignore: str | None = None
                           ) -> list[Token]:
        occupancy = self._occupancy()
        found: dict[str, Token] = {}
        for cell in footprint.cells():
            token = occupancy.get(cell)
            if token is not None and token.id != ignore:
                found.setdefault(token.id, token)
        return list(found.values())

    def can_place(self, footprint: Footprint, ignore: str | None = None) -> bool:
        return (self.map.contains_footprint(footprint)
                and not self.tokens_overlapping(footprint, ignore))

    def free_spot(self, size: int, near: Cell) -> Cell | None:
        """The top-left cell, nearest ``near`` ring by ring, where a ``size``-cell square
        fits on the map without overlapping a token; None when the map is full."""
        battle_map = self.map
        # Centre the footprint on the hint rather than hanging it down-right of it.
        centre = Cell(min(max(near.x, 0), battle_map.width - 1) - (size - 1) // 2,
                      min(max(near.y, 0), battle_map.height - 1) - (size - 1) // 2)
        for radius in range(max(battle_map.width, battle_map.height) + 1):
            for cell in ring(centre, radius):
                if self.can_place(Footprint(cell.x, cell.y, size)):
                    return cell
        return None

    def add_token(self, token: Token, index: int | None = None) -> None:
        """Add a token; ValueError when it does not fit or its id is taken."""
        if any(t.id == token.id for t in self.tokens):
            raise ValueError(f"a token with id {token.id!r} already exists")
        self._check_placement(token.footprint, token.name, self.tokens)
        self.tokens.insert(len(self.tokens) if index is None else index, token)

    def remove_token(self, token_id: str) -> tuple[int, Token]:
        index = next(i for i, t in enumerate(self.tokens) if t.id == token_id)
        return index, self.tokens.pop(index)

    def unique_id(self, name: str) -> str:
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        base = "".join(ch if ch.isalnum() else "-" for ch in ascii_name.lower()).strip("-")
        base = base or "token"
        candidate, n = base, 1
        while any(t.id == candidate for t in self.tokens):
            n += 1
            candidate = f"{base}-{n}"
        return candidate
