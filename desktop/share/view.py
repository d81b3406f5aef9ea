"""The player view as JSON for the players' pages: pure functions of the encounter and
:mod:`core.spatial.playerview` (the same view the TV draws), so nothing the GM hid can be in
it: hidden tokens and hazards are left out, fogged cells' contents (tokens, hazards,
terrain, walls, the map image) are not sent, hazards carry no effects or notes, and tokens
carry no stats but the party's hit points (the enemies' as the GM's setting allows).

A page gets a :func:`snapshot` when it joins and the :func:`delta` of each change after:
only the sections that changed, and of the tokens only those that changed or went.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap
>>> enc = Encounter(map=BattleMap(width=3, height=1), tokens=[
...     Token(id="hero", combatant=Combatant(name="Hero"), x=0, y=0),
...     Token(id="spy", combatant=Combatant(name="Spy"), x=2, y=0, gm_only=True)])
>>> view = snapshot(enc, ViewOptions())
>>> sorted(view["tokens"]), view["tokens"]["hero"]["hp"]
(['hero'], 8)
"""

from __future__ import annotations

import base64
import hashlib
import operator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from core.model.combatant import Combatant, Side
from core.model.mapmodel import TERRAINS, BattleMap, Hazard, WallSegment
from core.rules.timeline import acting_order
from core.spatial.known import KnownGroundGraph
from core.spatial.playerview import (
    PlayerItems,
    PlayerView,
    player_items,
    player_view,
)
from core.spatial.wallpieces import WallPieces

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.encounter import Encounter, Token
    from core.model.grid import Cell, Footprint
    from core.spatial.sweep import BoolArray

EnemyHp = Literal["hidden", "state", "exact"]
Json = dict[str, Any]
#: The sections of a snapshot; a delta carries those that changed.
SECTIONS = ("map", "fog", "explored", "visible", "terrain", "walls", "hazards", "tokens",
            "turn")
#: Sections that are maps of keys to items: a delta carries the items put and the keys gone.
KEYED = ("terrain", "walls", "hazards", "tokens")
#: Masks (as :func:`runs`): a delta carries the cells that flipped (:func:`flips`).
MASKS = ("explored", "visible")
UNSEEN = " "  # a terrain code for a cell the party has not seen


@dataclass(frozen=True)
class ViewOptions:
    """What the GM lets the players' pages show of the enemies: their hit points
    ``"exact"``, as a ``"state"`` (unhurt, hurt, bloodied, down), or ``"hidden"``."""

    enemy_hp: EnemyHp = "hidden"


@dataclass(frozen=True)
class Seen:
    """The player view of one state of the encounter: its masks and what they show."""

    view: PlayerView
    items: PlayerItems

    @classmethod
    def of(cls, encounter: Encounter) -> Seen:
        view = player_view(encounter)
        return cls(view, player_items(encounter, view))

    @cached_property
    def token_ids(self) -> frozenset[str]:
        return frozenset(token.id for token in self.items.tokens)

    @cached_property
    def _known_graphs(self) -> dict[str, KnownGroundGraph]:
        return {}

    def known_graph(self, encounter: Encounter, token: Token) -> KnownGroundGraph:
        """The ground a player's preview of ``token`` walks in this state of the encounter,
        kept for the drag's next cells (its search resumes where the last one stopped)."""
        graph = self._known_graphs.get(token.id)
        if graph is None or graph.token is not token:
            graph = KnownGroundGraph(encounter, token, self.view.explored, shown=self.token_ids)
            self._known_graphs[token.id] = graph
        return graph

    def in_fog(self, footprint: Footprint) -> bool:
        """Whether ``footprint`` covers a cell of the map the party has not explored."""
        x, y, size = footprint
        return not self.view.explored[max(y, 0):y + size, max(x, 0):x + size].all()


def snapshot(encounter: Encounter, options: ViewOptions, seen: Seen | None = None) -> Json:
    """Everything a page draws, as JSON-ready values (see the module's docstring)."""
    return ViewBuilder(options).build(encounter, seen or Seen.of(encounter))


def delta(before: Json, after: Json) -> Json:
    """The sections of ``after`` that differ from ``before``; the tokens as ``put`` (new or
    changed) and ``gone`` (ids). Empty when nothing a page draws changed. (A section or
    token :class:`ViewBuilder` kept is the same object, and compares at once.)"""
    changed: Json = {}
    for section in SECTIONS:
        old, new = before[section], after[section]
        if old is new:
            continue
        if section in KEYED:
            items = _keyed_delta(old, new)
            if items:
                changed[section] = items
        elif old is not new and old != new:
            changed[section] = new
    return changed


def _keyed_delta(before: dict[str, Any], after: dict[str, Any]) -> Json:
    put = {key: item for key, item in after.items()
           if (old := before.get(key)) is not item and old != item}
    gone = sorted(set(before) - set(after))
    return {"put": put, "gone": gone} if put or gone else {}


class ViewBuilder:
    """Makes the :func:`snapshot` of each state of one encounter again only where its inputs
    changed: a section whose inputs are the same objects (the masks equal) is the last
    one, and so is a token's JSON while the token is the same object (tokens are frozen
    and replaced on every edit). On the scale map (3,000 tokens, 10,000 walls) a move
    made the whole snapshot, 1.2 MB of it, over again."""

    def __init__(self, options: ViewOptions) -> None:
        self.options = options
        self._inputs: dict[str, tuple[Any, ...]] = {}
        self._sections: Json = {}
        self._tokens: dict[str, tuple[Token, Json]] = {}
        self._terrain: TerrainCodes | None = None
        self._walls: ShownWalls | None = None

    def build(self, encounter: Encounter, seen: Seen) -> Json:
        battle_map, view = encounter.map, seen.view
        explored = (view.explored,)
        self._section("map", (battle_map.width, battle_map.height, battle_map.background,
                              encounter.profile.cell_size_ft), lambda: map_section(encounter))
        self._section("fog", (encounter.fog.enabled,), lambda: {"on": encounter.fog.enabled})
        self._section("explored", explored, lambda: runs(view.explored))
        self._section("visible", (view.visible,), lambda: runs(view.visible))
        terrain, walls = self._terrain_codes(battle_map), self._shown_walls(battle_map)
        self._section("terrain", (*explored, terrain), lambda: terrain.shown(view.explored))
        self._section("walls", (*explored, walls), lambda: walls.shown(view.explored))
        self._section("hazards", (*explored, seen.items.hazards),
                      lambda: {str(i): hazard_view(h, view.explored)
                               for i, h in enumerate(seen.items.hazards)})
        self._sections["tokens"] = self._token_section(seen.items.tokens)
        self._sections["turn"] = turn_section(encounter, seen.token_ids)
        return dict(self._sections)

    def _terrain_codes(self, battle_map: BattleMap) -> TerrainCodes:
        kept = self._terrain
        if kept is None or not _same((kept.rows,), (tuple(battle_map.terrain_rows),)):
            kept = self._terrain = TerrainCodes.of(battle_map)
        return kept

    def _shown_walls(self, battle_map: BattleMap) -> ShownWalls:
        kept = self._walls
        if kept is None or not _same((kept.walls,), (tuple(battle_map.walls),)):
            kept = self._walls = ShownWalls(WallPieces.of(battle_map.walls))
        return kept

    def _section(self, name: str, inputs: tuple[Any, ...], make: Callable[[], Any]) -> None:
        if name not in self._sections or not _same(self._inputs[name], inputs):
            self._sections[name], self._inputs[name] = make(), inputs

    def _token_section(self, tokens: tuple[Token, ...]) -> dict[str, Json]:
        made: dict[str, tuple[Token, Json]] = {}
        for token in tokens:
            kept = self._tokens.get(token.id)
            made[token.id] = kept if kept is not None and kept[0] is token else (
                token, token_view(token, self.options))
        self._tokens = made
        return {token_id: shown for token_id, (_token, shown) in made.items()}


def _same(before: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """The same inputs: equal masks, equal plain values, and sequences of the same objects
    (walls, hazards and terrain rows are immutable: an edit puts new ones in)."""
    for old, new in zip(before, now, strict=True):
        if old is new:
            continue
        if isinstance(new, np.ndarray):
            same = np.array_equal(old, new)
        elif isinstance(new, tuple):
            same = len(old) == len(new) and all(map(operator.is_, old, new))
        else:
            same = old == new
        if not same:
            return False
    return True


# --- sections -----------------------------------------------------------------------------
def map_section(encounter: Encounter) -> Json:
    battle_map, profile = encounter.map, encounter.profile
    background = battle_map.background
    image = None
    if background is not None and background_bytes(encounter):
        image = {"key": background_key(encounter), "offset_x": background.offset_x,
                 "offset_y": background.offset_y, "px_per_cell": background.px_per_cell}
    return {"width": battle_map.width, "height": battle_map.height,
            "cell_ft": profile.cell_size_ft, "background": image}


def background_bytes(encounter: Encounter) -> bytes:
    """The map image's bytes as embedded in the encounter (an image kept only as a path
    on the GM's disk is not sent: the path says where the GM keeps files)."""
    background = encounter.map.background
    if background is None or not background.data_base64:
        return b""
    return base64.b64decode(background.data_base64)


def background_key(encounter: Encounter) -> str:
    """A name for the map image that changes when the image does (pages cache it)."""
    return hashlib.sha256(background_bytes(encounter)).hexdigest()[:24]


def runs(mask: BoolArray) -> list[int]:
    """A (height, width) mask row by row as run lengths, starting with a run of unset
    cells (0 when the first cell is set).

    >>> runs(np.array([[True, True, False], [False, False, True]]))
    [0, 2, 3, 1]
    """
    flat = np.asarray(mask, dtype=bool).ravel()
    if flat.size == 0:
        return []
    edges = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    bounds = np.concatenate(([0], edges, [flat.size]))
    lengths = np.diff(bounds).tolist()
    return [0, *lengths] if flat[0] else lengths


def flips(before: BoolArray, after: BoolArray) -> list[int]:
    """The cells that changed between two masks of one map, as :func:`runs`: a page
    applies them to the mask it has (a move changes the sight of a few cells, where the
    whole mask of a 300 × 300 map was 17 KB of runs).

    >>> flips(np.array([[True, False]]), np.array([[True, True]]))
    [1, 1]
    """
    return runs(np.asarray(before) ^ np.asarray(after))


@dataclass(frozen=True, eq=False)  # one is the same as another only if it is that one
class TerrainCodes:
    """The map's terrain codes as an array, made once per set of rows: what the pages are
    sent of it is the explored cells whose terrain is not normal, ``"x,y"`` → code (``d``
    difficult, ``s`` slippery, ``u`` undergrowth); the page lays the floor on every
    explored cell."""

    rows: tuple[str, ...]
    codes: npt.NDArray[np.str_]
    special: BoolArray

    @classmethod
    def of(cls, battle_map: BattleMap) -> TerrainCodes:
        width, height = battle_map.width, battle_map.height
        normal = TERRAINS[next(iter(TERRAINS))].code
        rows = [row.ljust(width, normal)[:width] for row in battle_map.terrain_rows[:height]]
        rows += [normal * width] * (height - len(rows))
        codes = np.array([list(row) for row in rows], dtype="<U1").reshape(height, width)
        return cls(tuple(battle_map.terrain_rows), codes, codes != normal)

    def shown(self, explored: BoolArray) -> dict[str, str]:
        ys, xs = np.nonzero(self.special & explored)
        return {f"{x},{y}": str(self.codes[y, x])
                for x, y in zip(xs.tolist(), ys.tolist(), strict=True)}


class ShownWalls:
    """The walls, doors, windows and objects as far as they run beside an explored cell
    (:class:`core.spatial.wallpieces.WallPieces`), the run's first piece → ``[x1, y1, x2,
    y2, kind, open]``, for one set of walls. Made again only for the walls whose pieces beside
    the explored cells changed: a party's step shows a few more pieces of a few walls (all
    9,000 shown runs of the scale map took 30 ms)."""

    def __init__(self, pieces: WallPieces) -> None:
        self.pieces = pieces
        self._beside: BoolArray | None = None
        self._by_wall: dict[int, list[tuple[str, list[Any]]]] = {}

    @property
    def walls(self) -> tuple[WallSegment, ...]:
        return self.pieces.walls

    def shown(self, explored: BoolArray) -> dict[str, list[Any]]:
        pieces = self.pieces
        beside = pieces.beside(explored)
        changed = (None if self._beside is None
                   else np.unique(pieces.wall_of[beside != self._beside]))
        if changed is None:
            self._by_wall.clear()
        for wall in () if changed is None else changed.tolist():
            self._by_wall.pop(wall, None)
        for run in pieces.runs(beside, changed):
            item = [run.x1, run.y1, run.x2, run.y2, run.wall.kind.value, run.wall.open]
            self._by_wall.setdefault(run.index, []).append((str(run.first), item))
        self._beside = beside
        return {key: item for items in self._by_wall.values() for key, item in items}


def hazard_view(hazard: Hazard, explored: BoolArray) -> Json:
    """A hazard as the players see it: its name and kind over its explored cells (its
    damage, save and notes are the GM's)."""
    cells = [[c.x, c.y] for c in hazard.cells if explored[c.y, c.x]]
    return {"name": hazard.name, "kind": hazard.kind.value, "cells": cells}


def token_view(token: Token, options: ViewOptions) -> Json:
    """A token as the players see it: where, how big, whose side, its conditions; hit
    points for the party (and for enemies as ``options`` allow). No other stats."""
    combatant = token.combatant
    shown: Json = {"id": token.id, "name": token.name, "x": token.x, "y": token.y,
                   "size": token.footprint.size, "side": combatant.side.value,
                   "conditions": sorted(c.label for c in combatant.conditions),
                   "portrait": combatant.portrait}
    if combatant.side is Side.PARTY or options.enemy_hp == "exact":
        shown |= {"hp": combatant.hp, "max_hp": combatant.max_hp}
    elif options.enemy_hp == "state":
        shown["health"] = health(combatant)
    return shown


def health(combatant: Combatant) -> str:
    """How hurt a creature looks, without its numbers.

    >>> health(Combatant(name="Orc", max_hp=10, hp=4))
    'bloodied'
    """
    if combatant.hp <= 0:
        return "down"
    if combatant.hp * 2 <= combatant.max_hp:
        return "bloodied"
    return "hurt" if combatant.hp < combatant.max_hp else "unhurt"


def turn_section(encounter: Encounter, shown: frozenset[str]) -> Json:
    """The round, the segment, and who acts in it among the tokens the players see."""
    timeline = encounter.timeline
    if not timeline.entries:
        return {"round": timeline.round_number, "segment": None, "acting": []}
    order = dict(acting_order(timeline, encounter))
    now = order.get(timeline.current_segment, [])
    return {"round": timeline.round_number, "segment": timeline.current_segment,
            "acting": [tid for group in now for tid in group if tid in shown]}


def walk(encounter: Encounter, token_id: str, start: Cell, end: Cell, visible: BoolArray, *,
         walked: tuple[Cell, ...] = ()) -> list[list[int]]:
    """The cells a token walked from ``start`` to ``end`` that the players see now, for the
    page to animate: ``walked`` (the path of the move just made) or its path this round
    when either runs from ``start`` to ``end``, else the two ends (a push, a placement)."""
    cells: list[Cell] = [start, end]
    entries = [e for e in encounter.timeline.entries if e.token_id == token_id]
    path = list(walked) or (list(entries[0].path) if entries else [])
    if path and path[-1] == end and start in path:
        at = len(path) - 1 - path[::-1].index(start)
        cells = path[at:]
    return [[c.x, c.y] for c in cells if visible[c.y, c.x]]
