"""Fog-of-war edits (docs/vision.md): the GM reveals or hides cells by hand, clears those
overrides, turns the fog on or off, records what the party sees now as explored, and sets
the map's darkness.

Each edit computes the new :class:`FogState` on its first apply and swaps whole states, so
undo and redo restore exactly. Edits of one kind pushed with one merge key (the strokes of a
brush drag: ``history.push(RevealCells(cells), merge_key=drag)``) become one undo step.

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
from collections.abc import Iterable

import numpy as np

from core.actions.commands import ChangeSet, Command
from core.model.encounter import Encounter
from core.model.fog import BoolArray, FogLayer, FogState
from core.model.grid import Cell
from core.model.mapmodel import Darkness
from core.spatial.playerview import seen_now


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


class RecordPartyView(FogEdit):
    """Add what the party sees now (with the GM's overrides) to the explored cells."""

    label = "Record explored area"

    def edited(self, encounter: Encounter) -> FogState:
        fog, width, height = encounter.fog, encounter.map.width, encounter.map.height
        return fog.with_cells(explored=fog.cells("explored", width, height)
                              | seen_now(encounter))


def _mask(cells: Iterable[Cell], width: int, height: int) -> BoolArray:
    """The cells on the map as a (height, width) mask."""
    mask = np.zeros((height, width), dtype=bool)
    inside = [c for c in cells if 0 <= c.x < width and 0 <= c.y < height]
    if inside:
        xs, ys = zip(*inside, strict=True)
        mask[list(ys), list(xs)] = True
    return mask
