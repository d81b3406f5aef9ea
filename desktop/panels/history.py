"""The History dock: every step of the core history, the current one highlighted; a click
undoes or redoes up to that step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.qt import QListWidget, QSignalBlocker

if TYPE_CHECKING:
    from desktop.document.document import EncounterDocument

START = "‹Opened›"


class HistoryView(QListWidget):
    """Rows: the opened state, then each step; steps that can be redone are greyed."""

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self.setToolTip("Every edit since the encounter was opened. Click a step to undo or "
                        "redo up to it.")
        self._labels: list[str] = []
        self._index = 0
        self._done_brush = self.palette().text()
        self._redo_brush = self.palette().placeholderText()
        self.addItem(START)
        self.currentRowChanged.connect(self._go_to)
        document.history_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Replace only the rows after the first changed step, then the marks (a long
        session has hundreds of steps; a brush stroke merges into its step on every move)."""
        history = self.document.history
        blocker = QSignalBlocker(self)
        labels = history.labels()
        same = next((i for i, (a, b) in enumerate(zip(labels, self._labels, strict=False))
                     if a != b), min(len(labels), len(self._labels)))
        while self.count() > same + 1:
            self.takeItem(self.count() - 1)
        self.addItems(labels[same:])
        self._labels = labels
        for row in range(min(same, self._index, history.index) + 1, self.count()):
            item = self.item(row)
            item.setForeground(self._redo_brush if row > history.index else self._done_brush)
        self._index = history.index
        self.setCurrentRow(history.index)
        blocker.unblock()

    def _go_to(self, row: int) -> None:
        if row >= 0 and row != self.document.history.index:
            self.document.set_index(row)
