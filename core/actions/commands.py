"""Reversible edits of an encounter, each returning a typed change set.

Views redraw from the change set; undo is :meth:`Command.revert` (the desktop wraps each
command in a ``QUndoCommand``). :class:`History` is the core's own push/pop stack.

>>> from core.model.combatant import Combatant
>>> from core.model.mapmodel import BattleMap
>>> enc = Encounter(map=BattleMap(width=5, height=5),
...                 tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)])
>>> history = History(enc)
>>> history.push(MoveToken("a", Cell(3, 1))).tokens
frozenset({'a'})
>>> enc.token("a").cell
Cell(x=3, y=1)
>>> _ = history.pop(); enc.token("a").cell
Cell(x=0, y=0)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, LogEntry, Token
from core.model.grid import Cell, Footprint
from core.model.mapmodel import (
    Background,
    BattleMap,
    Hazard,
    Terrain,
    WallSegment,
    parse_cell_key,
)
from core.model.tables import SIZES
from core.rules.attack import AttackResult
from core.rules.report import format_attack, format_shove
from core.rules.shove import ShoveResult
from core.spatial.geometry import MapGeometry, clip_segment

V = TypeVar("V")


@dataclass(frozen=True)
class ChangeSet:
    """What an edit touched, so views redraw only that."""

    tokens: frozenset[str] = frozenset()
    cells: frozenset[Cell] = frozenset()
    walls: bool = False
    hazards: bool = False
    log: bool = False
    map_shape: bool = False
    timeline: bool = False

    def __or__(self, other: ChangeSet) -> ChangeSet:
        return ChangeSet(self.tokens | other.tokens, self.cells | other.cells,
                         self.walls or other.walls, self.hazards or other.hazards,
                         self.log or other.log, self.map_shape or other.map_shape,
                         self.timeline or other.timeline)


class Command(ABC):
    """One reversible edit. ``apply`` then ``revert`` leaves the encounter as it was."""

    label = "Edit"

    @abstractmethod
    def apply(self, encounter: Encounter) -> ChangeSet: ...

    @abstractmethod
    def revert(self, encounter: Encounter) -> ChangeSet: ...

    def merge(self, other: Command) -> bool:
        """Absorb a following command of the same kind (a drag becomes one step)."""
        return False


class MoveToken(Command):
    """Put a token's top-left cell on ``cell`` (legality is checked by the caller's path)."""

    label = "Move token"

    def __init__(self, token_id: str, cell: Cell) -> None:
        self.token_id, self.cell = token_id, cell
        self.before: Cell | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        footprint = Footprint(self.cell.x, self.cell.y, token.footprint.size)
        if not encounter.can_place(footprint, ignore=token.id):
            raise ValueError(f"{token.name} cannot stand at {tuple(self.cell)}")
        if self.before is None:
            self.before = token.cell
        token.x, token.y = self.cell
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        token = encounter.token(self.token_id)
        token.x, token.y = self.before
        return ChangeSet(tokens=frozenset({token.id}))

    def merge(self, other: Command) -> bool:
        if isinstance(other, MoveToken) and other.token_id == self.token_id:
            self.cell = other.cell
            return True
        return False


class UpdateCombatant(Command):
    """Replace a token's combatant (stats edited in the panel, damage, conditions)."""

    label = "Edit combatant"

    def __init__(self, token_id: str, combatant: Combatant, label: str | None = None) -> None:
        self.token_id, self.after = token_id, combatant
        self.before: Combatant | None = None
        if label:
            self.label = label

    @staticmethod
    def problem(encounter: Encounter, token_id: str, combatant: Combatant) -> str | None:
        """Why ``combatant`` cannot replace the token's (its size no longer fits), if so."""
        token = encounter.token(token_id)
        resized = Footprint(token.x, token.y, _footprint_of(combatant))
        if not encounter.can_place(resized, ignore=token.id):
            size = SIZES[combatant.size]
            return (f"{combatant.name} does not fit where it stands as {size.label} "
                    f"({size.footprint}×{size.footprint}); move it first")
        return None

    def apply(self, encounter: Encounter) -> ChangeSet:
        problem = self.problem(encounter, self.token_id, self.after)
        if problem:
            raise ValueError(problem)
        token = encounter.token(self.token_id)
        self.before = token.combatant
        token.combatant = self.after
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.token(self.token_id).combatant = self.before
        return ChangeSet(tokens=frozenset({self.token_id}))

    def merge(self, other: Command) -> bool:
        """Keystrokes in one field (pushed with one merge key) become one step."""
        if isinstance(other, UpdateCombatant) and other.token_id == self.token_id:
            self.after = other.after
            return True
        return False


def _footprint_of(combatant: Combatant) -> int:
    return SIZES[combatant.size].footprint


class AddToken(Command):
    label = "Add token"

    def __init__(self, token: Token) -> None:
        self.token = token

    def apply(self, encounter: Encounter) -> ChangeSet:
        encounter.add_token(self.token)
        return ChangeSet(tokens=frozenset({self.token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.remove_token(self.token.id)
        return ChangeSet(tokens=frozenset({self.token.id}))


class RemoveToken(Command):
    label = "Remove token"

    def __init__(self, token_id: str) -> None:
        self.token_id = token_id
        self.removed: tuple[int, Token] | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        self.removed = encounter.remove_token(self.token_id)
        return ChangeSet(tokens=frozenset({self.token_id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.removed is not None
        index, token = self.removed
        encounter.add_token(token, index)
        return ChangeSet(tokens=frozenset({self.token_id}))


class CellEdit(Command, Generic[V]):
    """Set one value on many cells; the strokes of one brush drag merge into one step."""

    def __init__(self, cells: set[Cell] | frozenset[Cell], value: V) -> None:
        self.value = value
        self.cells = set(cells)
        self.before: dict[Cell, V] = {}

    @abstractmethod
    def read(self, battle_map: BattleMap, cell: Cell) -> V: ...

    @abstractmethod
    def write(self, battle_map: BattleMap, cell: Cell, value: V) -> None: ...

    def apply(self, encounter: Encounter) -> ChangeSet:
        for cell in self.cells:
            if encounter.map.contains(cell):
                self.before.setdefault(cell, self.read(encounter.map, cell))
                self.write(encounter.map, cell, self.value)
        return self._changed(encounter)

    def revert(self, encounter: Encounter) -> ChangeSet:
        for cell, value in self.before.items():
            self.write(encounter.map, cell, value)
        return self._changed(encounter)

    def _changed(self, encounter: Encounter) -> ChangeSet:
        if (geometry := encounter.peek_derived(MapGeometry)) is not None:
            geometry.refresh_cells()
        return ChangeSet(cells=frozenset(self.before))

    def merge(self, other: Command) -> bool:
        if type(other) is type(self) and isinstance(other, CellEdit) and other.value == self.value:
            self.cells |= other.cells
            for cell, value in other.before.items():
                self.before.setdefault(cell, value)
            return True
        return False


class PaintTerrain(CellEdit[Terrain]):
    label = "Paint terrain"

    def read(self, battle_map: BattleMap, cell: Cell) -> Terrain:
        return battle_map.terrain_at(cell).name

    def write(self, battle_map: BattleMap, cell: Cell, value: Terrain) -> None:
        battle_map.set_terrain(cell, value)


class SetElevation(CellEdit[int]):
    """Set elevation in feet."""

    label = "Set elevation"

    def read(self, battle_map: BattleMap, cell: Cell) -> int:
        return battle_map.elevation_at(cell)

    def write(self, battle_map: BattleMap, cell: Cell, value: int) -> None:
        battle_map.set_elevation(cell, value)


class ReplaceWalls(Command):
    """Add and remove wall segments in one step (draw, erase, open or close a door). Each
    added wall takes the place of a removed one where there is one, so toggling a door
    keeps the wall list in order, and undo puts every wall back where it was."""

    label = "Edit walls"

    def __init__(self, add: list[WallSegment], remove: list[WallSegment],
                 label: str | None = None, merges: bool = False) -> None:
        self.add, self.remove, self.merges = add, remove, merges
        if label:
            self.label = label
        self.slots: list[int] = []
        self.removed_in_order: list[WallSegment] = []
        self.added_at: list[int] = []
        self.followers: list[ReplaceWalls] = []

    def apply(self, encounter: Encounter) -> ChangeSet:
        walls = encounter.map.walls
        self.slots = _indices_of(walls, self.remove)
        self.removed_in_order = [walls[index] for index in self.slots]
        _take_walls(encounter, self.slots)
        self.added_at = _put_walls(encounter, self.add, self.slots)
        for follower in self.followers:
            follower.apply(encounter)
        return ChangeSet(walls=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        for follower in reversed(self.followers):
            follower.revert(encounter)
        _take_walls(encounter, self.added_at)
        _put_walls(encounter, self.removed_in_order, self.slots)
        return ChangeSet(walls=True)

    def merge(self, other: Command) -> bool:
        """An eraser drag (``merges=True``) is one step however many walls it takes."""
        if self.merges and isinstance(other, ReplaceWalls) and other.label == self.label:
            self.followers.append(other)
            return True
        return False


def _indices_of(walls: list[WallSegment], wanted: list[WallSegment]) -> list[int]:
    """Distinct positions of ``wanted`` in ``walls`` (equal walls each get their own)."""
    taken: set[int] = set()
    for wall in wanted:
        taken.add(next(i for i, w in enumerate(walls) if w == wall and i not in taken))
    return sorted(taken)


def _take_walls(encounter: Encounter, indices: list[int]) -> None:
    for index in sorted(indices, reverse=True):
        wall = encounter.map.walls.pop(index)
        if (geometry := encounter.peek_derived(MapGeometry)) is not None:
            geometry.remove_wall(wall)


def _put_walls(encounter: Encounter, walls: list[WallSegment], slots: list[int]) -> list[int]:
    """Insert ``walls`` at ``slots`` (ascending), the rest at the end; their indices."""
    placed = []
    for position, wall in enumerate(walls):
        index = slots[position] if position < len(slots) else len(encounter.map.walls)
        encounter.map.walls.insert(index, wall)
        placed.append(index)
        if (geometry := encounter.peek_derived(MapGeometry)) is not None:
            geometry.add_wall(wall)
    return placed


def toggle_door(door: WallSegment) -> ReplaceWalls:
    opened = door.model_copy(update={"open": not door.open})
    return ReplaceWalls([opened], [door], "Open door" if opened.open else "Close door")


class ReplaceHazard(Command):
    """Add (before=None), edit, or remove (after=None) a hazard."""

    label = "Edit hazard"

    def __init__(self, before: Hazard | None, after: Hazard | None) -> None:
        self.before, self.after = before, after
        self.index: int | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        return self._swap(encounter, self.before, self.after)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return self._swap(encounter, self.after, self.before)

    def _swap(self, encounter: Encounter, old: Hazard | None, new: Hazard | None) -> ChangeSet:
        hazards = encounter.map.hazards
        if old is not None:
            self.index = hazards.index(old)
            hazards.pop(self.index)
        if new is not None:
            hazards.insert(len(hazards) if self.index is None else self.index, new)
        if (geometry := encounter.peek_derived(MapGeometry)) is not None:
            geometry.refresh_cells()
        return ChangeSet(hazards=True)


class ResizeMap(Command):
    """Change the map's size: cells, walls (clipped) and hazards outside are dropped;
    refused while a token would fall outside."""

    label = "Resize map"

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.before: BattleMap | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        outside = [t.name for t in encounter.tokens
                   if t.x + t.footprint.size > self.width or t.y + t.footprint.size > self.height]
        if outside:
            raise ValueError(f"move {', '.join(outside)} inside {self.width}×{self.height} "
                             "first")
        self.before = encounter.map
        encounter.map = resized_map(encounter.map, self.width, self.height)
        encounter.drop_derived(MapGeometry)
        return ChangeSet(map_shape=True, walls=True, hazards=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.map = self.before
        encounter.drop_derived(MapGeometry)
        return ChangeSet(map_shape=True, walls=True, hazards=True)


def resized_map(old: BattleMap, width: int, height: int) -> BattleMap:
    """A copy of ``old`` cropped or padded (with normal floor) to width × height."""
    rows = [(row + "." * width)[:width] for row in old.terrain_rows[:height]]
    rows += ["." * width] * (height - len(rows))
    def inside(cell: Cell) -> bool:
        return 0 <= cell.x < width and 0 <= cell.y < height

    walls = []
    for wall in old.walls:
        clipped = clip_segment(wall.points, width, height)
        if clipped is not None and (clipped[0], clipped[1]) != (clipped[2], clipped[3]):
            x1, y1, x2, y2 = clipped
            walls.append(wall.model_copy(update={"x1": x1, "y1": y1, "x2": x2, "y2": y2}))
    hazards = []
    for hazard in old.hazards:
        cells = tuple(c for c in hazard.cells if inside(c))
        if cells:
            hazards.append(hazard.model_copy(update={"cells": cells}))
    elevation = {k: v for k, v in old.elevation.items()
                 if inside(parse_cell_key(k))}
    return old.model_copy(update={"width": width, "height": height, "terrain_rows": rows,
                                  "walls": walls, "hazards": hazards, "elevation": elevation})


class SetBackground(Command):
    """Set, re-align or remove (None) the map's background image."""

    label = "Background image"

    def __init__(self, background: Background | None) -> None:
        self.after = background
        self.before: Background | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        self.before, encounter.map.background = encounter.map.background, self.after
        return ChangeSet(map_shape=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.map.background = self.before
        return ChangeSet(map_shape=True)


class ApplyOutcome(Command):
    """Apply a resolved action to its target: move it, take the damage, add conditions, and
    log it. One undo step puts everything back."""

    def __init__(self, token_id: str, entry: LogEntry, damage: int,
                 final_cell: Cell | None = None,
                 conditions: frozenset[Condition] = frozenset()) -> None:
        self.token_id, self.entry, self.damage = token_id, entry, damage
        self.final_cell, self.conditions = final_cell, conditions
        self.label = entry.summary
        self.before: tuple[Cell, Combatant] | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        self.before = (token.cell, token.combatant)
        token.combatant = token.combatant.model_copy(update={
            "hp": max(token.combatant.hp - self.damage, HP_FLOOR),
            "conditions": token.combatant.conditions | self.conditions})
        if self.final_cell is not None:
            token.x, token.y = self.final_cell
        encounter.log.append(self.entry)
        return ChangeSet(tokens=frozenset({token.id}), log=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        token = encounter.token(self.token_id)
        (token.x, token.y), token.combatant = self.before
        encounter.log.pop()
        return ChangeSet(tokens=frozenset({token.id}), log=True)


HP_FLOOR = -9999


class ApplyShove(ApplyOutcome):
    """A resolved shove: the defender moves to the final cell, takes slam and hazard
    damage, and goes Prone on a Double Success."""

    def __init__(self, result: ShoveResult, defender_id: str, round_number: int | None = None
                 ) -> None:
        entry = LogEntry(kind="shove", summary=result.summary(), text=format_shove(result),
                         detail=result.model_dump(mode="json"), round=round_number)
        prone = frozenset({Condition.PRONE}) if result.prone else frozenset()
        super().__init__(defender_id, entry, result.total_damage, result.final_cell, prone)
        self.result = result


class ApplyAttack(ApplyOutcome):
    """A resolved attack: the defender takes the damage after armour."""

    def __init__(self, result: AttackResult, defender_id: str, round_number: int | None = None
                 ) -> None:
        entry = LogEntry(kind="attack", summary=result.summary(), text=format_attack(result),
                         detail=result.model_dump(mode="json"), round=round_number)
        super().__init__(defender_id, entry, result.damage_taken)
        self.result = result


@dataclass
class History:
    """The core's undo stack: ``push`` applies, ``pop`` reverts (as python-chess)."""

    encounter: Encounter
    done: list[Command] = field(default_factory=list)

    def push(self, command: Command) -> ChangeSet:
        changes = command.apply(self.encounter)
        self.done.append(command)
        return changes

    def pop(self) -> ChangeSet:
        return self.done.pop().revert(self.encounter)
