"""Odds for a tool's live preview (a shove being aimed, a missile's target, a drag's
manoeuvre) without blocking the GUI.

Answers are memoised per (document revision, request): aiming back at a direction already
shown costs nothing. A request whose last computation took more than :data:`SYNC_MS`
goes to a worker thread; the GUI goes on and the answer is shown when it arrives.

The staleness rule: the worker reads the encounter as it is (no copy), so an answer is
shown only if the document is still at the revision it was asked at — any edit since
(the worker may have read it half done) drops it, and the request, if still wanted, is
worked out again on the document as it is now. An answer to a request the tool no longer
wants (the pointer moved on) is kept in the memo but not shown. A request still waiting
for the worker is dropped when a newer one comes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from typing import TYPE_CHECKING, Any, NamedTuple

from core.model.encounter import Encounter
from desktop.qt import QObject, Signal

if TYPE_CHECKING:
    from desktop.document.document import EncounterDocument

SYNC_MS = 4.0  # a computation this fast is done at once, on the GUI thread


class Answer(NamedTuple):
    """What a computation gave: its value, or the refusal it raised (a ValueError or
    LookupError: the shove cannot be made from there, the target is out of range)."""

    value: Any = None
    error: Exception | None = None


Compute = Callable[[Encounter], Any]
Show = Callable[[Answer], None]
Stamp = tuple[object, int]  # the document's history (a file opened starts a new one), revision


class _Request(NamedTuple):
    """What a tool wants shown, and the document revision it was last asked at."""

    key: Hashable
    compute: Compute
    show: Show
    revision: Stamp


class _Done(NamedTuple):
    key: Hashable
    revision: Stamp
    answer: Answer


class OddsService(QObject):
    """One tool's previews: at most one wanted request at a time."""

    _finished = Signal(object)  # a _Done, emitted on the worker thread, received here

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self.last_ms = 0.0  # how long the last computation took
        self._memo: dict[Hashable, Answer] = {}
        self._memo_revision = self.stamp()
        self._wanted: _Request | None = None
        self._queued: Future[None] | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="battlemap-odds")
        self._finished.connect(self._deliver)

    def ask(self, key: Hashable, compute: Compute, show: Show) -> bool:
        """Show the answer of ``compute`` for ``key``: now if memoised or quick (True),
        else when the worker has it and the document has not changed meanwhile (False)."""
        self._wanted = _Request(key, compute, show, self.stamp())
        return self._answer(self._wanted)

    def _answer(self, request: _Request) -> bool:
        if self._memo_revision != request.revision:
            self._memo, self._memo_revision = {}, request.revision
        if request.key in self._memo:
            request.show(self._memo[request.key])
            return True
        if self.last_ms <= SYNC_MS:
            answer = self._run(request.compute, self.document.encounter)
            self._memo[request.key] = answer
            request.show(answer)
            return True
        if self._queued is not None:
            self._queued.cancel()  # not started yet: nobody wants it any more
        self._queued = self._worker.submit(self._work, request.key, request.revision,
                                           request.compute, self.document.encounter)
        return False

    def stamp(self) -> Stamp:
        """The document's state the answers are remembered for."""
        return self.document.history, self.document.revision

    def forget(self) -> None:
        """Show nothing more (the tool was put away or its target is gone)."""
        self._wanted = None

    def _work(self, key: Hashable, revision: Stamp, compute: Compute,
              encounter: Encounter) -> None:
        try:
            answer = self._run(compute, encounter)
        except Exception as error:  # read half edited (then dropped), or a bug (raised)
            answer = Answer(error=error)
        with suppress(RuntimeError):  # the window closed meanwhile
            self._finished.emit(_Done(key, revision, answer))

    def _run(self, compute: Compute, encounter: Encounter) -> Answer:
        started = time.perf_counter()
        try:
            answer = Answer(value=compute(encounter))
        except (ValueError, LookupError) as error:
            answer = Answer(error=error)
        self.last_ms = (time.perf_counter() - started) * 1e3
        return answer

    def _deliver(self, done: _Done) -> None:
        """On the GUI thread: the staleness rule."""
        wanted = self._wanted
        if done.revision != self.stamp():  # computed on an encounter since changed
            if wanted is not None and wanted.key == done.key \
                    and wanted.revision != self.stamp():  # not asked again since
                self._wanted = wanted._replace(revision=self.stamp())
                self._answer(self._wanted)
            return
        error = done.answer.error
        if error is not None and not isinstance(error, ValueError | LookupError):
            raise error  # on an encounter nobody changed: a bug, raised as if done here
        if self._memo_revision != done.revision:
            self._memo, self._memo_revision = {}, done.revision
        self._memo[done.key] = done.answer
        if wanted is not None and wanted.key == done.key:
            wanted.show(done.answer)
