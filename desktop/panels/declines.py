"""The Resolve panel's offer to decline what a roll just did (002 "Critical events": the GM
may turn an event down): one row per event that changed the map, each with a Decline button.
Declining replaces the step by the same roll with that event declined — the same dice, so
nothing else changes — as long as the step is still the last one done (after a later step
the offer stays in sight, greyed, until the GM undoes back to it). When the encounter
refuses the declined form, the step stays as rolled and the box says why."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.actions.base import Outcome, plan
from core.model.dice import ReplayedDice
from desktop.qt import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget, Signal

if TYPE_CHECKING:
    from desktop.document.document import EncounterDocument


STALE = "A later step was done: undo back to this roll to decline its events"


class DeclineBox(QWidget):
    """The events of the last roll a GM may still decline."""

    declined = Signal(object)  # the Outcome that replaced the step

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self.offered: tuple[Outcome[Any], int] | None = None  # the step and its index
        self._busy = False
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c0392b")
        document.history_changed.connect(self._follow)
        document.replaced.connect(self.withdraw)
        self.hide()

    def offer(self, outcome: Outcome[Any]) -> None:
        """Show the outcome's declinable effects (nothing when it has none)."""
        self.withdraw()
        suggestions = outcome.action.suggestions(outcome.result)
        if not suggestions:
            return
        self.offered = (outcome, self.document.history.index)
        head = QLabel("<b>Applied</b> — decline any you do not want (002 Critical events):")
        head.setWordWrap(True)
        self.rows.addWidget(head)
        for number, text in suggestions:
            row = QHBoxLayout()
            label = QLabel(text)
            label.setWordWrap(True)
            button = QPushButton("Decline")
            button.setToolTip("Log it as declined and undo its effect (the rest of the roll "
                              "stays as it is)")
            button.clicked.connect(lambda _on=False, n=number: self.decline(n))
            row.addWidget(label, 1)
            row.addWidget(button)
            self.rows.addLayout(row)
        self.rows.addWidget(self.message)
        self.show()

    def decline(self, number: int) -> None:
        """Replace the step by the same dice with suggestion ``number`` declined."""
        if self.offered is None:
            return
        outcome, index = self.offered
        history = self.document.history
        if not history.is_done(outcome.command) or history.index != index:
            self.message.setText("Too late to decline: it is no longer the last step")
            return
        self._busy = True  # our own undo and push: the offer stays until replaced
        try:
            again = self._replace(outcome, number)
        except (ValueError, LookupError) as error:
            self.message.setText(str(error.args[0]) if error.args else str(error))
            return
        finally:
            self._busy = False
        self.declined.emit(again)
        self.offer(again)

    def _replace(self, outcome: Outcome[Any], number: int) -> Outcome[Any]:
        self.document.undo()
        try:
            again = plan(outcome.action.declining(frozenset({number})),
                         self.document.encounter, ReplayedDice(outcome.rolls))
        except (ValueError, LookupError):
            self.document.redo()
            raise
        refusals: list[str] = []
        note = refusals.append
        self.document.refused.connect(note)
        try:
            done = self.document.perform(again)
        finally:
            self.document.refused.disconnect(note)
        if not done:  # the step as rolled goes back: declining must never lose the roll
            self.document.redo()
            raise ValueError(f"Not declined: {refusals[0] if refusals else 'refused'}. The "
                             f"roll stands as it was.")
        return again

    def withdraw(self) -> None:
        self.offered = None
        self.message = _replace_label(self.message)
        while self.rows.count():
            item = self.rows.takeAt(0)
            _delete(item)
        self.hide()

    def _follow(self) -> None:
        """Undone: nothing to decline any more. Another step after it (the next segment, a
        move): the events stay in sight, their buttons greyed, until that step is undone
        (a GM's walk-through: the offer vanished at the next segment, unread)."""
        if self.offered is None or self._busy:
            return
        outcome, index = self.offered
        history = self.document.history
        if not history.is_done(outcome.command):
            self.withdraw()
            return
        last = history.index == index
        for button in self.findChildren(QPushButton):
            button.setEnabled(last)
        self.message.setText("" if last else STALE)


def _replace_label(old: QLabel) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(old.styleSheet())
    return label


def _delete(item: Any) -> None:
    """Remove a layout item's widgets (and a row's), later: a button may be delivering the
    click that got here."""
    if item.widget() is not None:
        item.widget().hide()
        item.widget().deleteLater()
    elif item.layout() is not None:
        while item.layout().count():
            _delete(item.layout().takeAt(0))
