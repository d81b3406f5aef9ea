"""The history: the single undo authority of an open encounter (python-chess's push/pop,
Qt's undo stack semantics).

``push`` applies a command and records it; a refused command raises
:class:`~core.actions.commands.CommandRefusedError` and is never recorded. So is one that
would leave the encounter past a bound of its file format (:mod:`core.actions.bounds`):
whatever the history accepted can be saved. Commands pushed with
the same merge key one after another become one step (a drag, a brush stroke, keystrokes in
a field); ``group`` makes several pushes one step; ``amend`` adds a consequence of the last
step to it (the cells the party sees after a move), undone and redone with it. Every
applied, reverted or merged change bumps :attr:`History.revision` (what autosave watches),
keeps the map's derived geometry in step, and is announced to the listeners.

>>> from core.actions.commands import MoveToken
>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Token
>>> from core.model.grid import Cell
>>> from core.model.mapmodel import BattleMap
>>> history = History(Encounter(map=BattleMap(width=5, height=5),
...     tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)]))
>>> _ = history.push(MoveToken("a", Cell(3, 1)))
>>> _ = history.undo(); history.encounter.token("a").cell
Cell(x=0, y=0)
>>> _ = history.redo(); history.encounter.token("a").cell, history.revision
(Cell(x=3, y=1), 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, field

from pydantic import ValidationError

from core.actions.bounds import FormatGuard
from core.actions.commands import Batch, ChangeSet, Command, CommandRefusedError
from core.model.encounter import Encounter
from core.spatial.geometry import MapGeometry

Listener = Callable[[ChangeSet], None]


@dataclass
class _Step:
    command: Command
    merge_key: object | None = None
    followers: list[Command] = field(default_factory=list)  # applied after, reverted before

    def apply(self, encounter: Encounter) -> ChangeSet:
        return Batch([self.command, *self.followers]).apply(encounter)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return Batch([self.command, *self.followers]).revert(encounter)

    def follow_with(self, command: Command) -> None:
        """Add an applied ``command`` after this step's (merged into the last follower
        when it can be: a brush stroke's recordings stay one)."""
        if not (self.followers and self.followers[-1].merge(command)):
            self.followers.append(command)


class History:
    """The encounter's undo and redo stacks, its clean state and its revision counter."""

    def __init__(self, encounter: Encounter) -> None:
        self.encounter = encounter
        self.revision = 0
        self._done: list[_Step] = []
        self._undone: list[_Step] = []
        self._clean: int | None = 0
        self._group: list[Command] | None = None
        self._listeners: list[Listener] = []
        self._guard = FormatGuard(encounter)

    # --- listening -------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with the change set of every change to the encounter."""
        self._listeners.append(listener)

    def _changed(self, changes: ChangeSet) -> ChangeSet:
        self.revision += 1
        refresh_derived(self.encounter, changes)
        for listener in self._listeners:
            listener(changes)
        return changes

    # --- pushing ---------------------------------------------------------------------
    def push(self, command: Command, merge_key: object | None = None) -> ChangeSet:
        """Apply ``command`` and record it as one step; CommandRefusedError (nothing changed,
        nothing recorded) when it cannot be applied."""
        changes = self._apply(command)
        if self._group is not None:
            self._group.append(command)
        elif not self._merged(command, merge_key):
            self._record(_Step(command, merge_key))
        return self._changed(changes)

    def amend(self, command: Command) -> ChangeSet:
        """Apply ``command`` as part of the last step: undo reverts it with that step, redo
        applies it again after. Inside a group it joins the group; with no step to join
        (nothing done, or the last step is the saved state) it becomes a step of its own."""
        if self._group is not None or not self._done or self.is_clean:
            return self.push(command)
        changes = self._apply(command)
        self._done[-1].follow_with(command)
        return self._changed(changes)

    def _apply(self, command: Command) -> ChangeSet:
        try:
            changes = command.apply(self.encounter)
        except CommandRefusedError:
            raise
        except ValidationError as error:  # a value the model refuses (round 1,000,001)
            raise CommandRefusedError(f"an encounter file cannot hold this: "
                                      f"{in_one_line(error)}") from None
        except (ValueError, LookupError) as error:
            raise CommandRefusedError(str(error.args[0]) if error.args else str(error)) from None
        problem = self._guard.problem(self.encounter, changes)
        if problem:
            command.revert(self.encounter)
            raise CommandRefusedError(problem)
        return changes

    def _merged(self, command: Command, merge_key: object | None) -> bool:
        """Merge into the last step when pushed with its key (never into a saved state)."""
        last = self._done[-1] if self._done else None
        return (last is not None and merge_key is not None and last.merge_key == merge_key
                and self._clean != len(self._done) and last.command.merge(command))

    def _record(self, step: _Step) -> None:
        if self._clean is not None and self._clean > len(self._done):
            self._clean = None  # the saved state was undone and is now out of reach
        self._undone.clear()
        self._done.append(step)

    @contextmanager
    def group(self, label: str) -> Iterator[None]:
        """Pushes inside the block become one step labelled ``label``; if one is refused,
        those already applied are reverted and the refusal goes on up."""
        if self._group is not None:  # nested: part of the outer group
            yield
            return
        self._group = []
        try:
            yield
        except BaseException:
            commands, self._group = self._group, None
            self._changed(Batch(commands).revert(self.encounter))
            raise
        commands, self._group = self._group, None
        if commands:
            self._record(_Step(Batch(commands, label)))
            self._changed(ChangeSet())

    # --- moving through the history --------------------------------------------------
    def undo(self) -> ChangeSet:
        step = self._done.pop()
        self._undone.append(step)
        return self._changed(step.revert(self.encounter))

    def redo(self) -> ChangeSet:
        step = self._undone.pop()
        changes = step.apply(self.encounter)
        self._done.append(step)
        return self._changed(changes)

    def withdraw(self, merge_key: object) -> bool:
        """Revert and forget the last step when it was pushed with ``merge_key`` (keystrokes
        whose final value was refused: the field goes back to where it was, and there is
        nothing to redo). False when the last step is another's."""
        last = self._done[-1] if self._done else None
        if last is None or last.merge_key is None or last.merge_key != merge_key:
            return False
        self._done.pop()
        if self._clean is not None and self._clean > len(self._done):
            self._clean = None  # the withdrawn state was the saved one
        self._changed(last.revert(self.encounter))
        return True

    def set_index(self, index: int) -> None:
        """Undo or redo until ``index`` steps are done (the History view's click)."""
        while len(self._done) > index and self._done:
            self.undo()
        while len(self._done) < index and self._undone:
            self.redo()

    # --- state -----------------------------------------------------------------------
    @property
    def index(self) -> int:
        """How many steps are done."""
        return len(self._done)

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def labels(self) -> list[str]:
        """Every step's label, done ones first, then the ones that can be redone."""
        return [s.command.label for s in self._done] + [
            s.command.label for s in reversed(self._undone)]

    def is_done(self, command: Command) -> bool:
        """Whether ``command`` is a done step (not undone, not merged away)."""
        return any(step.command is command for step in self._done)

    def mark_clean(self) -> None:
        """The encounter as it is now is saved."""
        self._clean = len(self._done)

    def mark_never_saved(self) -> None:
        """No state of this history is saved (an import, a restored recovery file)."""
        self._clean = None

    @property
    def is_clean(self) -> bool:
        return self._clean == len(self._done)

    def replica(self) -> History:
        """A history of its own over a copy of the encounter and of every step (the steps
        keep what they changed, so they are copied with it): moving through it leaves this
        one and its encounter as they are (a replay of the fight). No listeners, never
        saved."""
        encounter, done, undone = deepcopy((self.encounter, self._done, self._undone))
        copy = History(encounter)
        copy._done, copy._undone, copy._clean = done, undone, None
        return copy


def in_one_line(error: ValidationError) -> str:
    """The model's first problems as "where: what; ..." on one line."""
    return "; ".join(f"{'.'.join(map(str, item['loc'])) or 'value'}: "
                     f"{item['msg'].removeprefix('Value error, ')}"
                     for item in error.errors()[:3])


def refresh_derived(encounter: Encounter, changes: ChangeSet) -> None:
    """Bring the encounter's derived geometry in step with an applied or reverted change."""
    geometry = encounter.peek_derived(MapGeometry)
    if geometry is None:
        return
    if changes.map_shape:
        encounter.drop_derived(MapGeometry)
        return
    geometry.update(changes.walls_added, changes.walls_removed, cells=changes.cells,
                    hazards=changes.hazards)
