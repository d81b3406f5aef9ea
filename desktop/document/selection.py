"""The selected tokens: one model shared by the map and the lists. Views set it from the
user's clicks and show it when it changes; setting what is already selected changes nothing
and says nothing, so no view echoes another."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.qt import QObject, Signal

if TYPE_CHECKING:
    from collections.abc import Iterable

    from desktop.document.document import EncounterDocument


class SelectionModel(QObject):
    """The ids of the selected tokens, kept to tokens that exist."""

    changed = Signal(object)  # frozenset[str]

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self._ids: frozenset[str] = frozenset()
        document.replaced.connect(lambda: self.set(()))
        document.changed.connect(lambda _changes: self._drop_missing())

    @property
    def ids(self) -> frozenset[str]:
        return self._ids

    def set(self, ids: Iterable[str]) -> None:
        new = frozenset(ids)
        if new != self._ids:
            self._ids = new
            self.changed.emit(new)

    def single(self) -> str | None:
        """The one selected token, if exactly one is."""
        return next(iter(self._ids)) if len(self._ids) == 1 else None

    def _drop_missing(self) -> None:
        encounter = self.document.encounter
        self.set(i for i in self._ids if encounter.has_token(i))
