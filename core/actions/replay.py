"""A replay of the fight: the encounter as it was at each step of its history, worked out
on a copy (:meth:`core.actions.history.History.replica`), so the live encounter, its
history and its undo stack are never touched.

Frame ``n`` is the encounter after the first ``n`` steps (frame 0: before any of them), up
to the step the live history stands at (steps undone are not part of the fight); its log
lines are those step ``n`` wrote (none for an edit that logs nothing).

>>> from core.actions.commands import AppendLog, MoveToken
>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, LogEntry, Token
>>> from core.model.grid import Cell
>>> history = History(Encounter(tokens=[Token(id="a", combatant=Combatant(name="A"), x=0,
...                                           y=0)]))
>>> _ = history.push(MoveToken("a", Cell(3, 1)))
>>> _ = history.push(AppendLog(LogEntry(kind="note", summary="A waits")))
>>> replay = Replay(history)
>>> frame = replay.seek(1)
>>> frame.encounter.token("a").cell, frame.label, frame.log_lines
(Cell(x=3, y=1), 'Move token', range(0, 0))
>>> replay.seek(2).log_lines, history.encounter.token("a").cell, history.index
(range(0, 1), Cell(x=3, y=1), 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from core.actions.history import History, Listener
from core.model.encounter import Encounter


@dataclass(frozen=True)
class Frame:
    """The encounter at step ``index`` (read it, do not edit it: the replay moves it on),
    the step's label and the indexes of the log lines it wrote."""

    index: int
    label: str
    encounter: Encounter
    log_lines: range


class Replay:
    """Every step of a history, on a copy, to show one at a time."""

    def __init__(self, history: History) -> None:
        self._history = history.replica()
        # What happened: the steps undone (and not redone) are not part of the fight.
        self.labels = self._history.labels()[:history.index]
        self.current = history.index  # where the live history stands: the last frame
        self._log_sizes = self._measure_log()

    def __len__(self) -> int:
        """The number of frames: one before any step, one after each."""
        return len(self.labels) + 1

    def _measure_log(self) -> list[int]:
        """The log's length at every frame (walked once: then each seek is one step)."""
        sizes = [0] * len(self)
        for index in range(self.current, -1, -1):
            self._history.set_index(index)
            sizes[index] = len(self._history.encounter.log)
        return sizes

    def seek(self, index: int) -> Frame:
        """The encounter after ``index`` steps (clamped to the frames there are)."""
        index = min(max(index, 0), len(self) - 1)
        self._history.set_index(index)
        before = self._log_sizes[index - 1] if index else self._log_sizes[0]
        return Frame(index, self.labels[index - 1] if index else "Start",
                     self._history.encounter, range(before, self._log_sizes[index]))

    def subscribe(self, listener: Listener) -> None:
        """Hear the change set of every step the replay moves (a view of its encounter)."""
        self._history.subscribe(listener)

    @property
    def encounter(self) -> Encounter:
        """The replay's own encounter (the copy its frames show)."""
        return self._history.encounter
