"""The open encounter: the core model, its undo stack, and change notifications.

Every edit goes through :meth:`EncounterDocument.push`, which wraps a core command in a
``QUndoCommand``; views listen to :attr:`EncounterDocument.changed` and redraw only what the
change set names.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from core.actions.commands import ChangeSet, Command
from core.model.encounter import Encounter
from desktop.qt import QObject, QUndoCommand, QUndoStack, Signal

_merge_ids = itertools.count(1000)


class CoreCommand(QUndoCommand):
    """A thin Qt wrapper: redo applies the core command, undo reverts it."""

    def __init__(self, document: EncounterDocument, command: Command, merge_key: int = -1
                 ) -> None:
        super().__init__(command.label)
        self.document, self.command, self.merge_key = document, command, merge_key

    def redo(self) -> None:
        self.document.notify(self.command.apply(self.document.encounter))

    def undo(self) -> None:
        self.document.notify(self.command.revert(self.document.encounter))

    def id(self) -> int:
        return self.merge_key

    def mergeWith(self, other: QUndoCommand) -> bool:
        return (isinstance(other, CoreCommand) and other.merge_key == self.merge_key
                and self.command.merge(other.command))


class EncounterDocument(QObject):
    """Holds the encounter being edited, where it is saved, and its undo history."""

    changed = Signal(object)  # ChangeSet
    replaced = Signal()  # a different encounter was loaded
    path_changed = Signal()

    def __init__(self, encounter: Encounter, path: Path | None = None) -> None:
        super().__init__()
        self.encounter = encounter
        self.path = path
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()

    def notify(self, changes: ChangeSet) -> None:
        self.changed.emit(changes)

    def push(self, command: Command, merge_key: int = -1) -> None:
        """Apply ``command`` as one undoable step; commands with the same ``merge_key``
        pushed one after another merge into one step (a brush stroke, a drag)."""
        self.undo_stack.push(CoreCommand(self, command, merge_key))

    def macro(self, label: str) -> _Macro:
        return _Macro(self.undo_stack, label)

    @staticmethod
    def new_merge_key() -> int:
        """A fresh key for one gesture, so separate strokes stay separate steps."""
        return next(_merge_ids)

    def replace(self, encounter: Encounter, path: Path | None) -> None:
        """Switch to another encounter (after a successful open); history starts afresh."""
        self.encounter, self.path = encounter, path
        self.undo_stack.clear()
        self.replaced.emit()
        self.path_changed.emit()

    def mark_saved(self, path: Path) -> None:
        self.path = path
        self.undo_stack.setClean()
        self.path_changed.emit()

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def title(self) -> str:
        name = self.path.name if self.path else self.encounter.name
        return f"{name}{' *' if self.modified else ''} — Battlemap"


class _Macro:
    """``with document.macro("Move 3 tokens"):`` groups pushes into one undo step."""

    def __init__(self, stack: QUndoStack, label: str) -> None:
        self.stack, self.label = stack, label

    def __enter__(self) -> None:
        self.stack.beginMacro(self.label)

    def __exit__(self, *exc: object) -> None:
        self.stack.endMacro()
