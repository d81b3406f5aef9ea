"""Reversible edits of an encounter, each returning a typed change set.

A command checks everything before it changes anything, so a refused command leaves the
encounter exactly as it was (and :class:`core.actions.history.History` never records it).
Views redraw from the change set; the history keeps derived state (the map's geometry) in
step with it.

>>> from core.model.combatant import Combatant
>>> from core.model.mapmodel import BattleMap
>>> enc = Encounter(map=BattleMap(width=5, height=5),
...                 tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)])
>>> MoveToken("a", Cell(3, 1)).apply(enc).tokens
frozenset({'a'})
>>> enc.token("a").cell
Cell(x=3, y=1)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from pydantic import ValidationError

from core.model.combatant import Combatant
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
from core.model.profile import RulesProfile
from core.model.round import RoundState
from core.model.tables import SIZES
from core.spatial.geometry import clip_segment

V = TypeVar("V")


class CommandRefusedError(ValueError):
    """A command that cannot be applied here; the message tells the GM why. Nothing changed."""


class ChangeSet(NamedTuple):
    """What an edit touched, so views redraw only that and derived state follows."""

    tokens: frozenset[str] = frozenset()
    cells: frozenset[Cell] = frozenset()
    walls_added: tuple[WallSegment, ...] = ()
    walls_removed: tuple[WallSegment, ...] = ()
    hazards: bool = False
    log: bool = False
    map_shape: bool = False
    timeline: bool = False
    fog: bool = False  # the fog of war (or what the players may see) changed
    weapons: bool = False  # the encounter's weapon table changed

    @property
    def walls(self) -> bool:
        return bool(self.walls_added or self.walls_removed)

    def __or__(self, other: ChangeSet) -> ChangeSet:
        """Both change sets: sets united, wall lists joined, flags or-ed."""
        merged: dict[str, Any] = {}
        for name in self._fields:
            mine, theirs = getattr(self, name), getattr(other, name)
            merged[name] = mine + theirs if isinstance(mine, tuple) else mine | theirs
        return ChangeSet(**merged)


class Command(ABC):
    """One reversible edit. ``apply`` then ``revert`` leaves the encounter as it was."""

    label = "Edit"

    @abstractmethod
    def apply(self, encounter: Encounter) -> ChangeSet: ...

    @abstractmethod
    def revert(self, encounter: Encounter) -> ChangeSet: ...

    def merge(self, other: Command) -> bool:
        """Absorb a following, already applied command of the same kind (a drag becomes one
        step); True when it did."""
        return False


def _refuse(error: Exception) -> CommandRefusedError:
    return CommandRefusedError(str(error.args[0]) if error.args else str(error))


class MoveToken(Command):
    """Put a token's top-left cell on ``cell`` (path legality is the move action's job)."""

    label = "Move token"

    def __init__(self, token_id: str, cell: Cell) -> None:
        self.token_id, self.cell = token_id, cell
        self.before: Cell | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        try:
            encounter.put_token(token.at(self.cell))
        except ValueError as error:
            raise CommandRefusedError(f"{token.name} cannot stand at {tuple(self.cell)}: "
                                 f"{error}") from None
        if self.before is None:
            self.before = token.cell
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.put_token(encounter.token(self.token_id).at(self.before))
        return ChangeSet(tokens=frozenset({self.token_id}))

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
        resized = Footprint(token.x, token.y, encounter.footprint_cells(combatant.size))
        if not encounter.can_place(resized, ignore=token.id):
            size, across = SIZES[combatant.size], resized.size
            return (f"{combatant.name} does not fit where it stands as {size.label} "
                    f"({across}×{across}); move it first")
        return None

    def apply(self, encounter: Encounter) -> ChangeSet:
        problem = self.problem(encounter, self.token_id, self.after)
        if problem:
            raise CommandRefusedError(problem)
        token = encounter.token(self.token_id)
        self.before = token.combatant
        encounter.put_token(token.with_combatant(self.after))
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        token = encounter.token(self.token_id)
        encounter.put_token(token.with_combatant(self.before))
        return ChangeSet(tokens=frozenset({self.token_id}))

    def merge(self, other: Command) -> bool:
        """Keystrokes in one field (pushed with one merge key) become one step."""
        if isinstance(other, UpdateCombatant) and other.token_id == self.token_id:
            self.after = other.after
            return True
        return False


class ChangeCombatant(Command):
    """A change worked out on the token's combatant as it is when applied (so it composes
    with the other edits of the same step); undone by restoring it."""

    def __init__(self, token_id: str, change: Callable[[Combatant], Combatant],
                 label: str) -> None:
        self.token_id, self.change, self.label = token_id, change, label
        self.before: Combatant | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        self.before = token.combatant
        encounter.put_token(token.with_combatant(self.change(token.combatant)))
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        token = encounter.token(self.token_id)
        encounter.put_token(token.with_combatant(self.before))
        return ChangeSet(tokens=frozenset({token.id}))


class AddToken(Command):
    label = "Add token"

    def __init__(self, token: Token) -> None:
        self.token = token

    def apply(self, encounter: Encounter) -> ChangeSet:
        try:
            encounter.add_token(self.token)
        except ValueError as error:
            raise _refuse(error) from None
        return ChangeSet(tokens=frozenset({self.token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.remove_token(self.token.id)
        return ChangeSet(tokens=frozenset({self.token.id}))


class RemoveToken(Command):
    """Take a token off the map, and out of the round: its initiative, timers and aim go
    with it (a round naming a missing token could not be saved)."""

    label = "Remove token"

    def __init__(self, token_id: str) -> None:
        self.token_id = token_id
        self.removed: tuple[int, Token, RoundState] | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        round_before = encounter.timeline
        index, token = encounter.remove_token(self.token_id)
        self.removed = index, token, round_before
        encounter.timeline = round_before.without_token(token.id)
        return ChangeSet(tokens=frozenset({token.id}), timeline=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.removed is not None
        index, token, round_before = self.removed
        encounter.add_token(token, index)
        encounter.timeline = round_before
        return ChangeSet(tokens=frozenset({token.id}), timeline=True)


class RaiseToken(Command):
    """Draw a token above the others (last in the list)."""

    label = "Bring to front"

    def __init__(self, token_id: str) -> None:
        self.token_id = token_id
        self.before: int | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        self.before = encounter.move_in_order(self.token_id, len(encounter.tokens) - 1)
        return ChangeSet(tokens=frozenset({self.token_id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.move_in_order(self.token_id, self.before)
        return ChangeSet(tokens=frozenset({self.token_id}))


class PlaceTokens(Command):
    """Move several tokens at once (a group move, a swap, a battlefield shift): every new
    place is checked against the others' new places, so one may take a cell another
    leaves."""

    label = "Move tokens"

    def __init__(self, cells: dict[str, Cell], label: str | None = None) -> None:
        self.cells = dict(cells)
        self.before: dict[str, Cell] = {}
        if label:
            self.label = label

    def apply(self, encounter: Encounter) -> ChangeSet:
        self.before = {tid: encounter.token(tid).cell for tid in self.cells}
        return self._place(encounter, self.cells)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return self._place(encounter, self.before)

    @staticmethod
    def _place(encounter: Encounter, cells: dict[str, Cell]) -> ChangeSet:
        try:
            encounter.put_tokens([encounter.token(tid).at(cell) for tid, cell in cells.items()])
        except ValueError as error:
            raise _refuse(error) from None
        return ChangeSet(tokens=frozenset(cells))


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
        return ChangeSet(cells=frozenset(self.before))

    def revert(self, encounter: Encounter) -> ChangeSet:
        for cell, value in self.before.items():
            self.write(encounter.map, cell, value)
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
        slots = _indices_of(walls, self.remove)
        self.slots = slots
        self.removed_in_order = [walls[index] for index in slots]
        _take_walls(walls, slots)
        self.added_at = _put_walls(walls, self.add, slots)
        changes = ChangeSet(walls_added=tuple(self.add),
                            walls_removed=tuple(self.removed_in_order))
        for follower in self.followers:
            changes = changes | follower.apply(encounter)
        return changes

    def revert(self, encounter: Encounter) -> ChangeSet:
        changes = ChangeSet()
        for follower in reversed(self.followers):
            changes = changes | follower.revert(encounter)
        walls = encounter.map.walls
        _take_walls(walls, self.added_at)
        _put_walls(walls, self.removed_in_order, self.slots)
        return changes | ChangeSet(walls_added=tuple(self.removed_in_order),
                                   walls_removed=tuple(self.add))

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
        index = next((i for i, w in enumerate(walls) if w == wall and i not in taken), None)
        if index is None:
            raise CommandRefusedError("that wall is no longer on the map")
        taken.add(index)
    return sorted(taken)


def _take_walls(walls: list[WallSegment], indices: list[int]) -> None:
    for index in sorted(indices, reverse=True):
        walls.pop(index)


def _put_walls(walls: list[WallSegment], added: list[WallSegment], slots: list[int]
               ) -> list[int]:
    """Insert ``added`` at ``slots`` (ascending), the rest at the end; their indices."""
    placed = []
    for position, wall in enumerate(added):
        index = slots[position] if position < len(slots) else len(walls)
        walls.insert(index, wall)
        placed.append(index)
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
            if old not in hazards:
                raise CommandRefusedError(f"the hazard {old.name!r} is no longer on the map")
            self.index = hazards.index(old)
            hazards.pop(self.index)
        if new is not None:
            hazards.insert(len(hazards) if self.index is None else self.index, new)
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
            raise CommandRefusedError(
                f"move {', '.join(outside)} inside {self.width}×{self.height} first")
        self.before = encounter.map
        encounter.map = resized_map(encounter.map, self.width, self.height)
        return ChangeSet(map_shape=True, hazards=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.map = self.before
        return ChangeSet(map_shape=True, hazards=True)


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


class SetProfile(Command):
    """Replace the rules profile (the Rules settings dialog); refused when a combatant no
    longer fits it (an ability score outside a new ability table)."""

    label = "Rules settings"

    def __init__(self, profile: RulesProfile) -> None:
        self.after = profile
        self.before: RulesProfile | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        for token in encounter.tokens:
            try:
                Combatant.model_validate(token.combatant.model_dump(),
                                         context={"profile": self.after})
            except ValidationError as error:
                message = error.errors()[0]["msg"].removeprefix("Value error, ")
                raise CommandRefusedError(f"{token.name} does not fit these rules: "
                                          f"{message}") from None
        before = encounter.profile
        try:
            encounter.set_profile(self.after)  # new footprints must still fit (RD "Sizes")
        except ValueError as error:
            raise CommandRefusedError(f"these rules do not fit the map: {error}") from None
        self.before = before
        return _everything(encounter)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.set_profile(self.before)
        return _everything(encounter)


def _everything(encounter: Encounter) -> ChangeSet:
    """Every number may have changed: redraw the map, every token and the round."""
    return ChangeSet(tokens=frozenset(t.id for t in encounter.tokens), map_shape=True,
                     timeline=True, log=True)


class AppendLog(Command):
    """Add one entry to the combat log."""

    label = "Log"

    def __init__(self, entry: LogEntry) -> None:
        self.entry = entry

    def apply(self, encounter: Encounter) -> ChangeSet:
        encounter.log.append(self.entry)
        return ChangeSet(log=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.log.pop()
        return ChangeSet(log=True)


class Batch(Command):
    """Several commands as one undo step, applied in order and reverted in reverse. If one
    is refused, those already applied are reverted, so the batch is refused as a whole."""

    def __init__(self, commands: list[Command], label: str = "Edit") -> None:
        self.commands, self.label = commands, label

    def apply(self, encounter: Encounter) -> ChangeSet:
        changes = ChangeSet()
        for done, command in enumerate(self.commands):
            try:
                changes = changes | command.apply(encounter)
            except Exception:
                for applied in reversed(self.commands[:done]):
                    applied.revert(encounter)
                raise
        return changes

    def revert(self, encounter: Encounter) -> ChangeSet:
        changes = ChangeSet()
        for command in reversed(self.commands):
            changes = changes | command.revert(encounter)
        return changes
