"""Core actions: every ruling the GM asks for, in one shape.

An :class:`Action` is resolved by a pure resolver against the encounter as it is now and a
dice source (seeded, or the GM's typed dice); :func:`plan` turns the result into its log
entries and one reversible command (the effects on the map plus the log lines), which the
history applies as one step. The GUI and the CLI both go through here, so they cannot
disagree.

>>> from core.actions.history import History
>>> from core.actions.shove import ShoveAction
>>> from core.model.combatant import Combatant
>>> from core.model.dice import ScriptedDice
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap
>>> from core.rules.shove import ShoveRequest
>>> history = History(Encounter(map=BattleMap(width=6, height=3), tokens=[
...     Token(id="a", combatant=Combatant(name="A", fr_slots=3), x=0, y=1),
...     Token(id="b", combatant=Combatant(name="B"), x=1, y=1)]))
>>> outcome = perform(ShoveAction(ShoveRequest(attacker="a", defender="b")), history,
...                   ScriptedDice([15, 4]))
>>> outcome.summary
'A shoves B 5 ft E — success'
>>> history.encounter.token("b").cell, len(history.encounter.log)
(Cell(x=2, y=1), 1)
>>> _ = history.undo(); history.encounter.token("b").cell, len(history.encounter.log)
(Cell(x=1, y=1), 0)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from core.actions.commands import AppendLog, Batch, Command
from core.actions.history import History
from core.actions.waking import woken_by
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry

R = TypeVar("R")


class Action(ABC, Generic[R]):
    """A ruling: resolved with dice into a result, applied as commands, logged."""

    #: The action's name on the command line (``battlemap resolve NAME``).
    name: ClassVar[str]
    #: The order in which the resolver consumes dice, for ``--help`` and typed dice.
    dice_order: ClassVar[str]

    @abstractmethod
    def title(self, encounter: Encounter) -> str:
        """What is being resolved, e.g. "Ogre shoves Mira"."""

    def tokens(self) -> frozenset[str]:
        """The tokens the action names: a view holding it drops it when one goes."""
        return frozenset()

    @abstractmethod
    def resolve(self, encounter: Encounter, dice: DiceSource) -> R:
        """The result, computed without changing the encounter."""

    @abstractmethod
    def effects(self, encounter: Encounter, result: R) -> list[Command]:
        """The commands that put the result on the map (none for a pure log entry)."""

    @abstractmethod
    def entries(self, encounter: Encounter, result: R) -> list[LogEntry]:
        """The combat log lines of the result."""

    @abstractmethod
    def totals(self, result: R) -> dict[str, Any]:
        """The headline numbers (totals, targets, margins, damage, cells) for ``--json``."""

    def headline(self, result: R, entries: list[LogEntry]) -> str:
        """What the step is called (the history, the Resolve panel's result, the status
        bar): its first log line's summary, or the title when it logs nothing."""
        return entries[0].summary if entries else ""

    def suggestions(self, result: R) -> tuple[tuple[int, str], ...]:
        """Effects of the result the GM may decline (critical events), as (number, what it
        does); :meth:`declining` those numbers gives the action that leaves them out."""
        return ()

    def declining(self, numbers: frozenset[int]) -> Action[R]:
        """This action with the suggestions ``numbers`` declined (logged, not applied)."""
        return self


class Outcome(NamedTuple, Generic[R]):
    """A resolved action: the result, its log entries, the one command applying both, and
    the dice it used."""

    action: Action[R]
    result: R
    entries: tuple[LogEntry, ...]
    command: Command
    rolls: tuple[RollRecord, ...]

    @property
    def summary(self) -> str:
        return self.command.label

    @property
    def text(self) -> str:
        """Every log line with every roll and modifier, each headed by its summary."""
        return "\n\n".join(entry.text if entry.text.startswith(entry.summary)
                           else f"{entry.summary}\n{entry.text}".rstrip()
                           for entry in self.entries)


def plan(action: Action[R], encounter: Encounter, dice: DiceSource) -> Outcome[R]:
    """Resolve ``action`` against the encounter as it is now; nothing is changed yet."""
    first_roll = len(dice.rolls)
    result = action.resolve(encounter, dice)
    effects = action.effects(encounter, result)
    entries = (*action.entries(encounter, result), *woken_by(encounter, effects))
    commands = [*effects, *(AppendLog(e) for e in entries)]
    label = action.headline(result, list(entries)) or action.title(encounter)
    return Outcome(action, result, entries, Batch(commands, label),
                   tuple(dice.rolls[first_roll:]))


def perform(action: Action[R], history: History, dice: DiceSource) -> Outcome[R]:
    """Resolve ``action`` and apply it as one step of ``history``."""
    outcome = plan(action, history.encounter, dice)
    history.push(outcome.command)
    return outcome


def round_of(encounter: Encounter) -> int | None:
    """The round a log entry belongs to (None before the first round)."""
    return encounter.timeline.round_number or None
