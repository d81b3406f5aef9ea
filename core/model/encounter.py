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

import itertools
import re
import threading
import unicodedata
from collections.abc import Callable
from copy import deepcopy
from typing import Annotated, Any, Literal, TypeVar, cast

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from core.model.combatant import NAME_CHARS, Combatant, Side
from core.model.fog import FogState
from core.model.grid import Cell, Footprint, ring
from core.model.limits import (
    MAX_LOG_ENTRIES,
    MAX_MAP_CELLS,
    MAX_NAME_CHARS,
    MAX_PORTRAITS,
    MAX_ROUND,
    MAX_TOKENS,
    MAX_WEAPON_TABLE,
    Lines,
    Name,
    at_most,
)
from core.model.mapmodel import BattleMap
from core.model.portrait import PORTRAIT_KEY, Portrait
from core.model.profile import DEFAULT_FOOTPRINTS, RulesProfile
from core.model.round import RoundState
from core.model.tables import SIZES, Size
from core.model.weapons import DEFAULT_WEAPONS, Weapon

D = TypeVar("D")
ID_CHARS = 60

SCHEMA = "battlemap.encounter"  # repeated as the Literal defaults of Encounter below
SCHEMA_VERSION = 1


def private(model: BaseModel) -> dict[str, Any]:
    """A model's private attributes, read from their dict: through pydantic's ``__getattr__``
    each read costs ~1.4 µs (it asks the attribute's descriptor first), and the token index,
    the derived values and a token's footprint are read thousands of times a move."""
    values = model.__pydantic_private__
    assert values is not None  # every model here has private attributes
    return values


def _slot(slots: dict[type, object], kind: type[D], build: Callable[[], D]) -> D:
    """The value of type ``kind`` in ``slots``, built and kept there on first use."""
    if kind not in slots:
        slots[kind] = build()
    return cast(D, slots[kind])


class UnknownTokenError(KeyError):
    """No token (or more than one) answers to the given name or id."""

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownWeaponError(KeyError):
    """The weapon table has no weapon of that name."""

    def __str__(self) -> str:
        return str(self.args[0])


class Token(BaseModel):
    """A combatant placed on the map; (x, y) is the top-left cell of its footprint.

    Immutable: an edit replaces the token through the encounter (:meth:`Encounter.put_token`),
    which keeps the encounter's indexes right."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=ID_CHARS, pattern=r"^[A-Za-z0-9_.-]+$")
    combatant: Combatant
    x: int = Field(ge=0, lt=MAX_MAP_CELLS)
    y: int = Field(ge=0, lt=MAX_MAP_CELLS)
    gm_only: bool = False

    # The footprints of the encounter the token stands in when its rules profile changes
    # them (``size_footprints``): set by the encounter as the token enters it, kept by
    # copies; None for the default (RD "Sizes", ``tables.SIZES``). Not saved.
    _footprints: tuple[int, ...] | None = PrivateAttr(None)

    @property
    def footprint(self) -> Footprint:
        table = private(self)["_footprints"]
        size = (table[self.combatant.size.rank] if table is not None
                else SIZES[self.combatant.size].footprint)
        return Footprint(self.x, self.y, size)

    @property
    def cell(self) -> Cell:
        return Cell(self.x, self.y)

    @property
    def name(self) -> str:
        return self.combatant.name

    def at(self, cell: Cell) -> Token:
        """This token with its top-left cell on ``cell``."""
        return self.model_copy(update={"x": cell.x, "y": cell.y})

    def with_combatant(self, combatant: Combatant) -> Token:
        return self.model_copy(update={"combatant": combatant})


class LogEntry(BaseModel):
    """One resolution in the combat log: a one-line summary and its full detail."""

    model_config = ConfigDict(frozen=True)

    kind: Name
    summary: Lines
    text: Lines = Field("", description="Every roll and modifier, one per line")
    detail: dict[str, Any] = Field(default={})
    round: int | None = Field(None, ge=0, le=MAX_ROUND)


class Encounter(BaseModel):
    """Everything saved in an encounter file (see docs/file-format.md)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_id: Literal["battlemap.encounter"] = Field("battlemap.encounter", alias="schema")
    version: Literal[1] = 1
    name: Name = Field("Untitled encounter", max_length=MAX_NAME_CHARS)
    profile: RulesProfile = RulesProfile()
    map: BattleMap = Field(default_factory=BattleMap)
    weapons: list[Weapon] = Field(default_factory=lambda: list(DEFAULT_WEAPONS),
                                 max_length=MAX_WEAPON_TABLE)
    tokens: Annotated[list[Token], at_most(MAX_TOKENS, "tokens")] = Field(default=[])
    log: Annotated[list[LogEntry], at_most(MAX_LOG_ENTRIES, "log entries")] = Field(
        default=[])
    timeline: RoundState = Field(default_factory=RoundState)
    fog: FogState = Field(default_factory=FogState)
    portraits: Annotated[dict[Annotated[str, Field(pattern=PORTRAIT_KEY)], Portrait],
                         at_most(MAX_PORTRAITS, "portraits")] = Field(default={})

    _derived: dict[type, object] = PrivateAttr(default_factory=dict)
    _kept: dict[type, object] = PrivateAttr(default_factory=dict)
    _index: _TokenIndex | None = PrivateAttr(None)

    @field_validator("weapons")
    @classmethod
    def _weapon_names_unique(cls, weapons: list[Weapon]) -> list[Weapon]:
        names = [w.name.casefold() for w in weapons]
        twice = sorted({w.name for w in weapons if names.count(w.name.casefold()) > 1})
        if twice:
            raise ValueError(f"the weapon table names {', '.join(twice)} more than once")
        return weapons

    @model_validator(mode="after")
    def _tokens_fit(self) -> Encounter:
        """Ids unique, footprints on the map and apart (a cell → token grid, not all pairs)."""
        seen: set[str] = set()
        owner: dict[Cell, Token] = {}
        self._stamp(self.tokens)
        for token in self.tokens:
            if token.id in seen:
                raise ValueError(f"two tokens have the id {token.id!r}")
            seen.add(token.id)
            self._check_on_map(token)
            self._check_references(token.combatant)
            for cell in token.footprint.cells():
                other = owner.setdefault(cell, token)
                if other is not token:
                    raise ValueError(f"{token.name} overlaps {other.name} at "
                                     f"({other.x}, {other.y})")
        return self

    def _check_references(self, combatant: Combatant) -> None:
        """The combatant's weapons are in the weapon table and its portrait is embedded."""
        known = {w.name for w in self.weapons}
        unknown = [name for name in combatant.weapons if name not in known]
        if unknown:
            raise ValueError(f"{combatant.name} carries {', '.join(map(repr, unknown))}, not in "
                             "the encounter's weapon table")
        if combatant.portrait is not None and combatant.portrait not in self.portraits:
            raise ValueError(f"{combatant.name}'s portrait {combatant.portrait} is not among "
                             "the encounter's portraits")

    def weapon(self, name: str) -> Weapon:
        """The weapon of the table with this name (any case); KeyError when none."""
        for weapon in self.weapons:
            if weapon.name.casefold() == name.casefold():
                return weapon
        raise UnknownWeaponError(f"no weapon named {name!r} (weapons: "
                                 f"{', '.join(w.name for w in self.weapons)})")

    def _check_on_map(self, token: Token) -> None:
        if not self.map.contains_footprint(token.footprint):
            raise ValueError(f"{token.name} at ({token.x}, {token.y}) does not fit on the "
                             f"{self.map.width}×{self.map.height} map")

    def derived(self, kind: type[D], build: Callable[[], D]) -> D:
        """The value of type ``kind`` derived from this encounter (the map's geometry
        indexes), built on first use and kept until :meth:`drop_derived`. Layers above the
        model own what it holds; the model only keeps the slot."""
        return _slot(private(self)["_derived"], kind, build)

    def kept(self, kind: type[D], build: Callable[[], D]) -> D:
        """Like :meth:`derived`, but for what layers above remember of this encounter
        rather than work out from it (which log entries a file's archive holds): kept
        through every change, a new profile included."""
        return _slot(private(self)["_kept"], kind, build)

    def peek_derived(self, kind: type[D]) -> D | None:
        """The derived value of type ``kind`` if it was built, else None."""
        return cast("D | None", private(self)["_derived"].get(kind))

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
        by_id = self._tokens().by_id.get(key)
        if by_id is not None:
            return by_id
        matches = [t for t in self.tokens if t.name.casefold() == key.casefold()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise UnknownTokenError(f"{len(matches)} tokens are named {key!r}; use the id")
        names = ", ".join(t.name for t in self.tokens) or "none"
        raise UnknownTokenError(f"no token named {key!r} (tokens: {names})")

    def has_token(self, token_id: str) -> bool:
        return token_id in self._tokens().by_id

    def _tokens(self) -> _TokenIndex:
        """Id → token and cell → token, built once and kept up to date by the methods that
        add, put and remove tokens (the only ways tokens change)."""
        index: _TokenIndex | None = private(self)["_index"]
        if index is None:
            self._stamp(self.tokens)
            index = self._index = _TokenIndex(self.tokens)
        return index

    def token_at(self, cell: Cell) -> Token | None:
        return self._tokens().at.get(cell)

    def token_stamp(self) -> tuple[int, int]:
        """Changes whenever a token of this encounter is added, put or removed (and differs
        between encounters): what a cache of anything derived from the tokens compares."""
        index = self._tokens()
        return index.serial, index.version

    def occupancy(self, side: Side) -> npt.NDArray[np.int16]:
        """Per cell of the map, how many tokens of ``side`` cover it (read-only). Built on
        first use and then kept up to date as tokens are added, put and removed, so a
        movement graph reads it instead of painting every token's footprint."""
        return self._tokens().occupancy(side, (self.map.height, self.map.width))

    def tokens_overlapping(self, footprint: Footprint, ignore: str | None = None
                           ) -> list[Token]:
        occupancy = self._tokens().at
        found: dict[str, Token] = {}
        for cell in footprint.cells():
            token = occupancy.get(cell)
            if token is not None and token.id != ignore:
                found.setdefault(token.id, token)
        return list(found.values())

    def neighbours(self, token: Token, cells: int) -> list[Token]:
        """The other tokens standing within ``cells`` cells of the token's square
        (Chebyshev), from the cell index."""
        x, y, size = token.footprint
        around = Footprint(x - cells, y - cells, size + 2 * cells)
        return self.tokens_overlapping(around, ignore=token.id)

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
        if self.has_token(token.id):
            raise ValueError(f"a token with id {token.id!r} already exists")
        self._check_references(token.combatant)
        self.check_placement(token)
        position = len(self.tokens) if index is None else index
        self.tokens.insert(position, token)
        self._tokens().add(token)
        self._tokens().number(self.tokens, position)

    def footprint_cells(self, size: Size) -> int:
        """Cells across a creature of ``size`` takes here (the profile's
        ``size_footprints``, RD "Sizes")."""
        return self.profile.footprint(size)

    def _stamp(self, tokens: list[Token]) -> None:
        """Give ``tokens`` this encounter's footprints (nothing for the default ones)."""
        table = self.profile.size_footprints
        stamp = None if table == DEFAULT_FOOTPRINTS else table
        for token in tokens:
            if token._footprints != stamp:
                token._footprints = stamp

    def footprint_problem(self, profile: RulesProfile) -> str | None:
        """Why the tokens would not all fit with ``profile``'s footprints (off the map, on
        each other), or None."""
        if profile.size_footprints == self.profile.size_footprints:
            return None
        owner: dict[Cell, Token] = {}
        for token in self.tokens:
            across = profile.footprint(token.combatant.size)
            footprint = Footprint(token.x, token.y, across)
            if not self.map.contains_footprint(footprint):
                return (f"{token.name} at ({token.x}, {token.y}) would not fit on the "
                        f"{self.map.width}×{self.map.height} map as {across}×{across}")
            for cell in footprint.cells():
                other = owner.setdefault(cell, token)
                if other is not token:
                    return (f"{token.name} as {across}×{across} would overlap {other.name} "
                            f"at ({cell.x}, {cell.y})")
        return None

    def set_profile(self, profile: RulesProfile) -> None:
        """Replace the rules profile; ValueError (and nothing changed) when its footprints
        would leave a token off the map or on another. The token index and the derived
        caches are rebuilt when the footprints change."""
        problem = self.footprint_problem(profile)
        if problem:
            raise ValueError(problem)
        resized = profile.size_footprints != self.profile.size_footprints
        self.profile = profile
        if resized:
            self._stamp(self.tokens)
            self._index, self._derived = None, {}

    def check_placement(self, token: Token) -> None:
        """ValueError unless ``token`` fits on the map clear of every other token."""
        self._stamp([token])
        self._check_on_map(token)
        others = self.tokens_overlapping(token.footprint, ignore=token.id)
        if others:
            raise ValueError(f"{token.name} overlaps {others[0].name} at "
                             f"({others[0].x}, {others[0].y})")

    def put_token(self, token: Token) -> Token:
        """Replace the token with the same id (moved, resized, edited); the old one.
        ValueError (and nothing changed) when the new one does not fit."""
        return self.put_tokens([token])[0]

    def put_tokens(self, tokens: list[Token]) -> list[Token]:
        """Replace several tokens at once (a group move, a swap): each new place is checked
        against the others' new places, so tokens may move into cells another one leaves.
        The old tokens; ValueError (and nothing changed) when one does not fit."""
        problem = self.placement_problem(tokens)
        if problem:
            raise ValueError(problem)
        for token in tokens:
            self._check_references(token.combatant)
        index = self._tokens()
        old = [index.by_id[t.id] for t in tokens]
        for token in old:
            index.remove(token)
        for token in tokens:
            index.add(token)
            self.tokens[index.position[token.id]] = token
        return old

    def placement_problem(self, tokens: list[Token]) -> str | None:
        """Why these tokens cannot all stand where they say at once (an unknown id, off
        the map, on a token that stays, on each other), or None."""
        moving = {t.id for t in tokens}
        taken: dict[Cell, Token] = {}
        self._stamp(tokens)
        for token in tokens:
            if not self.has_token(token.id):
                return f"no token with id {token.id!r}"
            if not self.map.contains_footprint(token.footprint):
                return (f"{token.name} at ({token.x}, {token.y}) does not fit on the "
                        f"{self.map.width}×{self.map.height} map")
            for cell in token.footprint.cells():
                other = self.token_at(cell)
                if other is not None and other.id not in moving:
                    return f"{token.name} overlaps {other.name} at ({other.x}, {other.y})"
                mate = taken.setdefault(cell, token)
                if mate is not token:
                    return f"{token.name} overlaps {mate.name} at ({token.x}, {token.y})"
        return None

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Encounter:
        """A copy of the data only: the token index, the derived caches and what is kept
        of this encounter stay behind (the copy builds its own as it goes its own way, and
        they hold what cannot be copied: locks, per-thread pathfinders)."""
        copy = self.model_copy()
        object.__setattr__(copy, "__dict__", deepcopy(self.__dict__, memo))
        copy._index, copy._derived, copy._kept = None, {}, {}
        return copy

    def scratch_copy(self) -> Encounter:
        """A copy whose tokens can be moved while working out a ruling, leaving this
        encounter as it is; the map and its derived geometry are shared, not copied."""
        copy = self.model_copy(update={"tokens": list(self.tokens)})
        # The same tokens: their index is copied, not built again (22 ms with 3,000
        # tokens, once per overrun asked about in a token's menu).
        copy._index = None if self._index is None else self._index.copy()
        copy._derived = self._derived
        return copy

    def order_of(self, token_id: str) -> int:
        """The token's place in the drawing order (later is drawn above)."""
        return self._tokens().position[token_id]

    def move_in_order(self, token_id: str, position: int) -> int:
        """Put the token at ``position`` in the drawing order (the list); its old place."""
        old, token = self.remove_token(token_id)
        self.add_token(token, position)
        return old

    def remove_token(self, token_id: str) -> tuple[int, Token]:
        index = self._tokens()
        token = self.token(token_id)
        position = index.position[token.id]
        self.tokens.pop(position)
        index.remove(token)
        del index.position[token.id]
        index.number(self.tokens, position)
        return position, token

    def numbered_name(self, name: str) -> tuple[str, dict[str, str]]:
        """A name for one more creature called ``name``, and the tokens to rename so that
        same-named creatures are told apart: the second Skeleton is "Skeleton 2" and the
        first becomes "Skeleton 1". A name at the length limit is shortened to make room
        for its number.

        >>> from core.model.combatant import Combatant
        >>> enc = Encounter(tokens=[Token(id="s", combatant=Combatant(name="Skeleton"), x=0,
        ...                               y=0)])
        >>> enc.numbered_name("Skeleton"), enc.numbered_name("Ghoul")
        (('Skeleton 2', {'s': 'Skeleton 1'}), ('Ghoul', {}))
        """
        base = re.sub(r"\s+\d+$", "", name.strip()) or name
        bare = [t for t in self.tokens if t.name.casefold() == base.casefold()]
        numbers = {number for t in self.tokens
                   if (number := _number_of(t.name, base)) is not None}
        if not numbers and not bare:
            return name, {}
        free = (n for n in range(1, len(self.tokens) + 2) if n not in numbers)
        renames = {t.id: _numbered(base, next(free)) for t in bare}
        used = numbers | {int(n.rsplit(" ", 1)[1]) for n in renames.values()}
        return _numbered(base, max(used) + 1), renames

    def unique_id(self, name: str) -> str:
        """A token id made from ``name`` that no token has, within the id's length."""
        ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
        base = "".join(ch if ch.isalnum() else "-" for ch in ascii_name.lower()).strip("-")
        base = base[:ID_CHARS] or "token"
        candidate, n = base, 1
        while self.has_token(candidate):
            n += 1
            candidate = f"{base[:ID_CHARS - 1 - len(str(n))]}-{n}"
        return candidate


def _numbered(base: str, number: int) -> str:
    """``base`` and ``number``, within a combatant name's length."""
    return f"{base[:NAME_CHARS - 1 - len(str(number))].rstrip()} {number}"


def _number_of(name: str, base: str) -> int | None:
    """N when ``name`` is :func:`_numbered` (``base``, N), any case; else None."""
    found = re.fullmatch(r".* (\d+)", name)
    if found and _numbered(base, int(found[1])).casefold() == name.casefold():
        return int(found[1])
    return None


_INDEX_SERIALS = itertools.count(1)


class _TokenIndex:
    """Tokens by id and by the cells of their footprints; per side, a grid of how many
    tokens cover each cell (made on first use).

    The odds worker reads tokens while the GUI thread edits them (what it reads half done
    is dropped, by the document's revision): so :attr:`version` moves after a change is
    complete, and the grids are painted and kept up to date under one lock, lest a grid
    painted during an edit be kept without it or counted with it twice."""

    def __init__(self, tokens: list[Token]) -> None:
        self.serial = next(_INDEX_SERIALS)
        self.version = 0
        self.by_id: dict[str, Token] = {}
        self.at: dict[Cell, Token] = {}
        self.position: dict[str, int] = {}
        self.grids: dict[Side, npt.NDArray[np.int16]] = {}
        self._lock = threading.Lock()
        for token in tokens:
            self.add(token)
        self.number(tokens)

    def copy(self) -> _TokenIndex:
        """An index of the same tokens, to be changed apart from this one."""
        twin = _TokenIndex([])
        with self._lock:
            twin.by_id, twin.at = dict(self.by_id), dict(self.at)
            twin.position = dict(self.position)
            twin.grids = {side: grid.copy() for side, grid in self.grids.items()}
        return twin

    def occupancy(self, side: Side, shape: tuple[int, int]) -> npt.NDArray[np.int16]:
        with self._lock:
            if side not in self.grids or self.grids[side].shape != shape:  # first, or resized
                self.grids = self._painted(shape)
            view = self.grids[side].view()
        view.flags.writeable = False
        return view

    def _painted(self, shape: tuple[int, int]) -> dict[Side, npt.NDArray[np.int16]]:
        """Every token's footprint counted on its side's grid, the footprints of one side
        and size at once (one token at a time took 11 ms for the 3,000 tokens of the
        benchmark's big map, in the first drag after it opened: now 4.5). Every footprint is on
        the map (loading, placing and resizing refuse one that is not)."""
        grids = {side: np.zeros(shape, dtype=np.int16) for side in Side}
        corners: dict[tuple[Side, int], list[tuple[int, int]]] = {}
        for token in self.by_id.values():
            x, y, size = token.footprint
            corners.setdefault((token.combatant.side, size), []).append((y, x))
        width = shape[1]
        for (side, size), where in corners.items():
            steps = np.arange(size)
            top_left = np.array(where, dtype=np.intp)
            cells = ((top_left[:, 0, None, None] + steps[:, None]) * width
                     + top_left[:, 1, None, None] + steps).ravel()
            grids[side] += np.bincount(cells, minlength=grids[side].size).reshape(
                shape).astype(np.int16)
        return grids

    def _cover(self, token: Token, delta: int) -> None:
        if self.grids:
            fp = token.footprint
            self.grids[token.combatant.side][fp.y:fp.y + fp.size, fp.x:fp.x + fp.size] += delta

    def number(self, tokens: list[Token], start: int = 0) -> None:
        """Each token's place in the list, from ``start`` on (where one was inserted or
        removed: the places before it stand; adding at the end numbers one token)."""
        self.position.update((token.id, index) for index, token in
                             enumerate(tokens[start:], start))

    def add(self, token: Token) -> None:
        with self._lock:
            self.by_id[token.id] = token
            for cell in token.footprint.cells():
                self.at[cell] = token
            self._cover(token, 1)
            self.version += 1

    def remove(self, token: Token) -> None:
        with self._lock:
            del self.by_id[token.id]
            for cell in token.footprint.cells():
                if self.at.get(cell) is token:
                    del self.at[cell]
            self._cover(token, -1)
            self.version += 1
