"""The open encounter for the window: a thin Qt adaptor over the core history.

Every edit goes through :meth:`EncounterDocument.push` (or :meth:`perform` for a resolved
action), which pushes a core command onto :class:`core.actions.history.History` — the one
undo authority. Views listen to :attr:`changed` and redraw only what the change set names;
a refused command changes nothing, never reaches the history, and is announced on
:attr:`refused` with its message.

After every step that may change what the party sees (tokens, walls, the map, the fog), the
cells the party now sees for the first time are recorded as explored *into that step*
(:func:`core.actions.fog.record_party_view`): undoing a move forgets what it showed, and the
history shows no extra steps. A push and what it records reach the views as one change set
(:attr:`changed` once), so they work out the players' view once per move. The lit cells of
a dark map are kept by :class:`desktop.document.lighting.LightKeeper`; while it sweeps on
its worker, the recording waits for them.
"""

from __future__ import annotations

import functools
import itertools
import operator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from core.actions.commands import ChangeSet, Command, CommandRefusedError
from core.actions.fog import record_party_view
from core.actions.history import History
from desktop.document.lighting import LightKeeper
from desktop.qt import QObject, Signal

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from core.actions.base import Outcome
    from core.model.encounter import Encounter

_merge_keys = itertools.count(1)


class EncounterDocument(QObject):
    """Holds the encounter being edited, where it is saved, and its history."""

    changed = Signal(object)  # ChangeSet
    replaced = Signal()  # a different encounter was loaded
    path_changed = Signal()  # the file or the saved state changed (the title)
    history_changed = Signal()  # steps were pushed, undone, redone or merged
    refused = Signal(str)  # a command could not be applied: why

    def __init__(self, encounter: Encounter, path: Path | None = None, *,
                 keep_lights: bool = True) -> None:
        """``keep_lights`` False: a document drawn once (a render), whose lit cells are
        computed at once, the quicker way, rather than kept light by light."""
        super().__init__()
        self.path = path
        self._grouping = 0
        self._group_changes = ChangeSet()  # what the pushes of the open group touched
        self._was_clean = True
        self._held: list[ChangeSet] | None = None  # changes of a push not yet announced
        self.lights = LightKeeper(self) if keep_lights else None
        if self.lights is not None:
            self.lights.lit.connect(self._relit)
        self.history = self._new_history(encounter)
        self._keep_lights()

    def _new_history(self, encounter: Encounter) -> History:
        history = History(encounter)
        history.subscribe(self._on_change)
        return history

    def _keep_lights(self) -> None:
        """Light the encounter now in the document (its first lighting may come later,
        from the worker)."""
        if self.lights is not None:
            self.lights.keep(self.encounter)

    @property
    def encounter(self) -> Encounter:
        return self.history.encounter

    def _on_change(self, changes: ChangeSet) -> None:
        if self.lights is not None and (changes.walls or changes.map_shape or changes.fog
                                        or changes.hazards):
            if changes.hazards and not self.lights.current:  # a fire lit or put out
                changes = changes | ChangeSet(fog=True)
            self.lights.catch_up()  # before the views read the lit cells
        if self._held is not None:
            self._held.append(changes)
        else:
            self._announce(changes)

    def _announce(self, changes: ChangeSet) -> None:
        self.changed.emit(changes)
        self.history_changed.emit()
        if self.history.is_clean != self._was_clean:
            self._was_clean = self.history.is_clean
            self.path_changed.emit()

    @contextmanager
    def _one_announcement(self) -> Iterator[None]:
        """The changes made inside the block announced once, at its end: a move and the
        explored cells recorded into it are one change to the views (the players' view
        and items were worked out twice per party move)."""
        if self._held is not None:
            yield
            return
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
            if held:
                self._announce(functools.reduce(operator.or_, held))

    # --- editing ---------------------------------------------------------------------
    def push(self, command: Command, merge_key: object | None = None) -> bool:
        """Apply ``command`` as one step; pushes with the same ``merge_key`` one after
        another merge into one step (a brush stroke, a drag). False, with :attr:`refused`
        emitted, when the encounter refuses it."""
        with self._one_announcement():
            try:
                changes = self.history.push(command, merge_key)
            except CommandRefusedError as error:
                if self._grouping:
                    raise
                self.refused.emit(str(error))
                return False
            if self._grouping:
                self._group_changes = self._group_changes | changes
            elif _may_show_more(changes):
                self._record()
            return True

    def _record(self) -> None:
        """Record what the party sees now as explored, unless the lit cells are still
        being worked out: then when they come (:meth:`_relit`)."""
        if self.lights is None or self.lights.current:
            record_party_view(self.history)

    def _relit(self) -> None:
        """Newer lit cells: the views redraw the party's sight, and what it shows is
        recorded (into the last step)."""
        self.changed.emit(ChangeSet(fog=True))
        if not self._grouping:
            self._record()

    def perform(self, outcome: Outcome[Any]) -> bool:
        """Apply a resolved action (its effects and log lines) as one step."""
        return self.push(outcome.command)

    @contextmanager
    def group(self, label: str) -> Iterator[None]:
        """Pushes inside the block are one step; a refusal inside undoes the block's pushes
        and is announced once."""
        self._grouping += 1
        if self._grouping == 1:
            self._group_changes = ChangeSet()
        try:
            with self.history.group(label):
                yield
                if self._grouping == 1 and _may_show_more(self._group_changes):
                    self._record()
        except CommandRefusedError as error:
            self.refused.emit(str(error))
        finally:
            self._grouping -= 1

    @staticmethod
    def new_merge_key() -> int:
        """A fresh key for one gesture, so separate strokes stay separate steps."""
        return next(_merge_keys)

    def withdraw(self, merge_key: object) -> bool:
        """Take back the last step if it was pushed with ``merge_key``, leaving no redo."""
        return self.history.withdraw(merge_key)

    def undo(self) -> None:
        if self.history.can_undo:
            self.history.undo()

    def redo(self) -> None:
        if self.history.can_redo:
            self.history.redo()

    def set_index(self, index: int) -> None:
        self.history.set_index(index)

    # --- the file --------------------------------------------------------------------
    def replace(self, encounter: Encounter, path: Path | None, saved: bool = True) -> None:
        """Switch to another encounter (after a successful open); the history starts
        afresh. ``saved`` False: an import or a restored recovery file, unsaved."""
        self.history = self._new_history(encounter)
        self._keep_lights()
        if not saved:
            self.history.mark_never_saved()
        self.path = path
        self._was_clean = self.history.is_clean
        self.replaced.emit()
        self.history_changed.emit()
        self.path_changed.emit()

    def mark_saved(self, path: Path) -> None:
        self.path = path
        self.history.mark_clean()
        self._was_clean = True
        self.path_changed.emit()

    @property
    def modified(self) -> bool:
        return not self.history.is_clean

    @property
    def revision(self) -> int:
        """Bumped by every applied, reverted or merged change (autosave watches it)."""
        return self.history.revision

    @property
    def title(self) -> str:
        name = self.path.name if self.path else self.encounter.name
        return f"{name}{' *' if self.modified else ''} — Battlemap"


def _may_show_more(changes: ChangeSet) -> bool:
    """Whether a change may let the party see cells it has not seen (a token moved or was
    added, a door opened, the map or the light changed, a fire lit)."""
    return (bool(changes.tokens) or changes.walls or changes.map_shape or changes.fog
            or changes.hazards)
