"""Fog-of-war edits (docs/vision.md): the GM reveals or hides cells by hand, clears those
overrides, turns the fog on or off, records what the party sees now as explored, sets the
map's darkness, and hides tokens from the players.

Each hand edit computes the new :class:`FogState` on its first apply and swaps whole states,
so undo and redo restore exactly. Edits of one kind pushed with one merge key (the strokes of
a brush drag: ``history.push(RevealCells(cells), merge_key=drag)``) become one undo step.

What the party sees is recorded by :func:`record_party_view` as part of the step that showed
it (a move, a door opened, a shove): undoing that step forgets it again, redoing it
remembers it, and no step of its own appears in the history.

>>> from core.actions.history import History
>>> from core.model.mapmodel import BattleMap
>>> enc = Encounter(map=BattleMap(width=3, height=1))
>>> history = History(enc)
>>> history.push(RevealCells({Cell(0, 0), Cell(2, 0)})).fog
True
>>> enc.fog.revealed
((0, 0, 1), (2, 0, 1))
>>> _ = history.undo(); enc.fog.revealed
()
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable

import numpy as np

from core.actions.commands import ChangeSet, Command, CommandRefusedError
from core.actions.history import History
from core.model.encounter import Encounter
from core.model.fog import BoolArray, FogLayer, FogState
from core.model.grid import Cell
from core.model.mapmodel import Darkness


class FogEdit(Command):
    """Replace the encounter's fog with the state :meth:`edited` computes."""

    def __init__(self) -> None:
        self.before: FogState | None = None
        self.after: FogState | None = None

    @abstractmethod
    def edited(self, encounter: Encounter) -> FogState: ...

    def apply(self, encounter: Encounter) -> ChangeSet:
        if self.after is None:
            self.before, self.after = encounter.fog, self.edited(encounter)
        encounter.fog = self.after
        return ChangeSet(fog=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.fog = self.before
        return ChangeSet(fog=True)

    def merge(self, other: Command) -> bool:
        """A following edit of the same kind, already applied, joins this step."""
        if type(other) is type(self) and isinstance(other, FogEdit) and other.after:
            self.after = other.after
            return True
        return False


class _CellOverride(FogEdit):
    """Add cells to one override layer and take them out of the other."""

    adds_to: FogLayer
    takes_from: FogLayer

    def __init__(self, cells: Iterable[Cell]) -> None:
        super().__init__()
        self.cells = frozenset(cells)

    def edited(self, encounter: Encounter) -> FogState:
        fog, width, height = encounter.fog, encounter.map.width, encounter.map.height
        painted = _mask(self.cells, width, height)
        return fog.with_cells(**{
            self.adds_to: fog.cells(self.adds_to, width, height) | painted,
            self.takes_from: fog.cells(self.takes_from, width, height) & ~painted})


class RevealCells(_CellOverride):
    """Show these cells to the players whatever the party sees (a brush or rectangle)."""

    label = "Reveal area"
    adds_to = "revealed"
    takes_from = "hidden"


class HideCells(_CellOverride):
    """Hide these cells from the players whatever the party sees."""

    label = "Hide area"
    adds_to = "hidden"
    takes_from = "revealed"


class ClearFogOverrides(FogEdit):
    """Forget every cell revealed or hidden by hand."""

    label = "Clear revealed and hidden areas"

    def edited(self, encounter: Encounter) -> FogState:
        return encounter.fog.model_copy(update={"revealed": (), "hidden": ()})


class SetFogEnabled(FogEdit):
    """Turn the fog of war on or off for the players (the layers are kept)."""

    def __init__(self, enabled: bool) -> None:
        super().__init__()
        self.enabled = enabled
        self.label = "Fog of war on" if enabled else "Fog of war off"

    def edited(self, encounter: Encounter) -> FogState:
        return encounter.fog.model_copy(update={"enabled": self.enabled})


class SetDarkness(Command):
    """Set the map's darkness (daylight, dim, dark): what the party sees changes."""

    def __init__(self, darkness: Darkness) -> None:
        self.after = darkness
        self.before: Darkness | None = None
        self.label = f"Darkness: {darkness.value}"

    def apply(self, encounter: Encounter) -> ChangeSet:
        self.before, encounter.map.darkness = encounter.map.darkness, self.after
        return ChangeSet(fog=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.map.darkness = self.before
        return ChangeSet(fog=True)


class RecordPartyView(Command):
    """Add what the party sees now (with the GM's overrides) to the explored cells.

    It keeps the cells it added, not whole states, so it stays exact when a later edit of
    the same step (the rest of a brush stroke) changes the other layers."""

    label = "Record explored area"

    def __init__(self) -> None:
        self.added: BoolArray | None = None

    def new_cells(self, encounter: Encounter) -> BoolArray:
        """The cells the party sees now that are not explored yet (computed once)."""
        if self.added is None:
            fog, battle_map = encounter.fog, encounter.map
            explored = fog.cells("explored", battle_map.width, battle_map.height)
            # Imported here: the sight sweep's modules are not part of a window's start
            # (desktop/__init__); the first edit that may change the party's view loads them.
            from core.spatial.playerview import seen_now

            self.added = seen_now(encounter) & ~explored
        return self.added

    def apply(self, encounter: Encounter) -> ChangeSet:
        return self._set(encounter, lambda explored, added: explored | added)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return self._set(encounter, lambda explored, added: explored & ~added)

    def _set(self, encounter: Encounter,
             combine: Callable[[BoolArray, BoolArray], BoolArray]) -> ChangeSet:
        added, fog = self.new_cells(encounter), encounter.fog
        explored = fog.cells("explored", encounter.map.width, encounter.map.height)
        if explored.shape != added.shape:
            raise CommandRefusedError("the map was resized since the explored area was seen")
        encounter.fog = fog.with_cells(explored=combine(explored, added))
        return ChangeSet(fog=True)

    def merge(self, other: Command) -> bool:
        """A later recording of the same step (a drag, a brush stroke) joins this one."""
        if (isinstance(other, RecordPartyView) and other.added is not None
                and self.added is not None and other.added.shape == self.added.shape):
            self.added = self.added | other.added
            return True
        return False


def record_party_view(history: History) -> bool:
    """Add what the party now sees and has not explored to the last step of ``history``
    (see the module's docstring); True when there was something new. Nothing is recorded
    while the fog is off: the players see the whole map then anyway."""
    encounter = history.encounter
    if not encounter.fog.enabled:
        return False
    command = RecordPartyView()
    if not command.new_cells(encounter).any():
        return False
    history.amend(command)
    return True


class SetGmOnly(Command):
    """Hide tokens from the players' screen (``gm_only``), or show them again. Hidden
    tokens show nothing to the players either (docs/vision.md §3)."""

    def __init__(self, token_ids: Iterable[str], gm_only: bool) -> None:
        self.token_ids, self.gm_only = tuple(token_ids), gm_only
        self.before: dict[str, bool] = {}
        self.label = "Hide from players" if gm_only else "Show to players"

    def apply(self, encounter: Encounter) -> ChangeSet:
        tokens = [encounter.token(token_id) for token_id in self.token_ids]
        self.before = {token.id: token.gm_only for token in tokens}
        encounter.put_tokens([token.model_copy(update={"gm_only": self.gm_only})
                              for token in tokens])
        return ChangeSet(tokens=frozenset(self.before))

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.put_tokens([encounter.token(token_id).model_copy(update={"gm_only": hidden})
                              for token_id, hidden in self.before.items()])
        return ChangeSet(tokens=frozenset(self.before))


def _mask(cells: Iterable[Cell], width: int, height: int) -> BoolArray:
    """The cells on the map as a (height, width) mask."""
    mask = np.zeros((height, width), dtype=bool)
    inside = [c for c in cells if 0 <= c.x < width and 0 <= c.y < height]
    if inside:
        xs, ys = zip(*inside, strict=True)
        mask[list(ys), list(xs)] = True
    return mask
