"""Autosave and crash recovery, one recovery file per window.

Each window writes its own file, ``recovery-<process id>-<window number>.json`` in the data
folder, so two windows or two running copies never offer or delete each other's live work.
At start-up the files whose process has gone are offered for restoring, newest first.

Autosave follows the document's content revision, which every applied, undone, redone or
merged edit bumps (a typed name or a brush stroke merged into one undo step still autosaves).
The JSON is made on the GUI thread, compact (19 ms for the 300×300 benchmark map, 30
indented), so a write that falls due while the GM is busy (an edit in the last second, a
mouse button held: a drag, a brush stroke) waits for the pause, for :data:`MAX_WAIT_MS`
at most. The atomic write runs on a worker thread, and the check that the file loads again
(the loader's every check) in a process of its own (:mod:`desktop.document.load_check`). A failure
(a full disk, a value no file can hold) is shown in the status bar and retried every
:data:`RETRY_MS` until a write succeeds.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from core.io.fileio import (
    encounter_from_data,
    encounter_to_json,
    process_alive,
    sweep_orphans,
    write_atomic,
)
from core.io.files import read_regular_file
from core.io.safejson import parse_json
from core.model.limits import MAX_FILE_BYTES
from desktop.document.load_check import CheckStoppedError, LoadCheck, check_command
from desktop.qt import QApplication, QObject, Qt, QTimer, Signal

if TYPE_CHECKING:
    from core.model.encounter import Encounter
    from desktop.document.document import EncounterDocument

AUTOSAVE_MS = 60_000
RETRY_MS = 10_000
QUIET_MS = 1_000  # no edit for this long and no button held: the GM has paused
MAX_WAIT_MS = 180_000  # however busy the GM, a write that fell due waits no longer
RECOVERY_FILE = re.compile(r"recovery-(\d+)-(\d+)\.json")
LEGACY_RECOVERY = "recovery.json"  # one shared file, written before 2026-12
#: A recovery file is an encounter file and the path it was editing, wrapped in an object.
MAX_RECOVERY_BYTES = MAX_FILE_BYTES + 2**16
_window_numbers = itertools.count(1)


class RecoveryError(ValueError):
    """A recovery file that cannot be restored; the message says why."""


def orphaned_recoveries(data_dir: Path) -> list[Path]:
    """Recovery files left by processes that have ended, newest first."""
    try:
        paths = list(data_dir.iterdir())
    except OSError:
        return []
    orphans = [p for p in paths if p.name == LEGACY_RECOVERY or _owner_gone(p.name)]
    return sorted(orphans, key=_modified, reverse=True)


def _owner_gone(name: str) -> bool:
    match = RECOVERY_FILE.fullmatch(name)
    return match is not None and not process_alive(int(match[1]))


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_recovery(path: Path) -> tuple[Encounter, Path | None]:
    """The encounter in a recovery file and the file it was editing (None: never saved),
    read within the encounter loader's bounds (size, JSON containers, depth, values): it
    sits in the data folder, where anything may have put it."""
    try:
        data = parse_json(read_regular_file(path, MAX_RECOVERY_BYTES))
        encounter = encounter_from_data(data["encounter"], "the recovery file")
        source = data.get("source")
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as error:
        raise RecoveryError(f"{path.name} cannot be restored: {error}") from None
    return encounter, Path(source) if isinstance(source, str) and source else None


def _check_and_write(path: Path, source: str, encounter_json: str, check: LoadCheck
                     ) -> None:
    """Worker thread: write only what would restore (the loader's every check)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = encounter_json.encode("utf-8")
    problem = check.problem(data)
    if problem:
        raise RecoveryError(problem)
    write_atomic(path, b'{"source": %b, "encounter": %b}' % (json.dumps(source).encode(), data))


class Autosaver(QObject):
    """Writes this window's recovery file while there are unsaved changes. Starting, it
    removes what autosaves killed mid-write left in the data folder (their temporary files
    hold the dead process's id, so no later write of the same file would)."""

    status = Signal(str)
    _finished = Signal(object, object)  # (the state written, None or the error)

    def __init__(self, document: EncounterDocument, data_dir: Path,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.path = data_dir / f"recovery-{os.getpid()}-{next(_window_numbers)}.json"
        sweep_orphans(data_dir, RECOVERY_FILE.pattern)
        self.failure = ""
        self.check_command = check_command()
        self._check: LoadCheck | None = None  # the last one submitted
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="battlemap-autosave")
        self._written = self._state()
        self._refused: tuple[int, int] | None = None  # content no file can hold: no retry
        self._submitted: tuple[int, int] | None = None  # being written
        self._pending: Future[None] | None = None
        self._finished.connect(self._on_finished)
        self._edited = time.monotonic()
        self._due: float | None = None  # when the write being put off fell due
        document.history_changed.connect(self._note_edit)
        self.timer = QTimer(self)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(self._when_quiet)
        self.timer.start()

    def _note_edit(self) -> None:
        self._edited = time.monotonic()

    def _when_quiet(self) -> None:
        """The timer is up: autosave, unless the GM is busy; then look again when a pause
        may have come (but never put it off longer than :data:`MAX_WAIT_MS`)."""
        now = time.monotonic()
        self._due = now if self._due is None else self._due
        busy = (now - self._edited < QUIET_MS / 1000
                or QApplication.mouseButtons() != Qt.MouseButton.NoButton)
        if busy and now - self._due < MAX_WAIT_MS / 1000:
            self.timer.setInterval(QUIET_MS)
            return
        self._due = None
        self.timer.setInterval(AUTOSAVE_MS)  # a failure sets the retry interval
        self.autosave()

    def _state(self) -> tuple[int, int]:
        """Which encounter and which revision of it."""
        return id(self.document.history), self.document.revision

    def mark_written(self) -> None:
        """The document as it is now needs no recovery file (just opened or saved)."""
        self._written = self._state()
        self.timer.setInterval(AUTOSAVE_MS)

    def autosave(self) -> Future[None] | None:
        """Start writing the recovery file if anything changed since the last write."""
        state = self._state()
        if not self.document.modified or state in (self._written, self._submitted, self._refused):
            return None
        try:
            encounter_json = encounter_to_json(self.document.encounter, compact=True)
        except ValueError as error:  # text no UTF-8 file can hold
            self._on_finished(state, RecoveryError(str(error)))
            return None
        source = str(self.document.path or "")
        self._submitted = state  # before the callback, which runs at once if it is done
        self._check = LoadCheck(self.check_command)
        job = self._worker.submit(_check_and_write, self.path, source, encounter_json,
                                  self._check)
        job.add_done_callback(lambda done: self._finished.emit(state, done.exception()))
        self._pending = job
        return job

    def _on_finished(self, state: tuple[int, int], error: BaseException | None) -> None:
        if isinstance(error, CheckStoppedError):  # saved, restored or closed meanwhile
            self._submitted = None
            return
        if error is None:
            self._written = state
            if self.failure:
                self.status.emit("Autosave works again")
            self.failure = ""
            self.timer.setInterval(AUTOSAVE_MS)
            return
        self._submitted = None
        self.failure = _describe(error)
        if isinstance(error, RecoveryError):
            self._refused = state  # the same content would fail again: wait for an edit
            self.status.emit(f"Autosave failed: {self.failure} — it tries again after the "
                             "next edit")
        else:
            self.status.emit(f"Autosave failed: {self.failure} — retrying every "
                             f"{RETRY_MS // 1000} s")
        self.timer.setInterval(RETRY_MS)

    def claim(self, recovery: Path) -> None:
        """Take over a restored file, so it lasts until this window's next write."""
        self._stop_writing()
        recovery.replace(self.path)

    def discard(self) -> None:
        """Forget this window's recovery file (saved, or closed on purpose)."""
        self._stop_writing()
        self.path.unlink(missing_ok=True)

    def _stop_writing(self) -> None:
        """Stop a write in flight, or wait for it if it is past its check."""
        if self._check is not None:
            self._check.stop()
        self.wait()

    def wait(self) -> None:
        """Until the write in flight, if any, is over."""
        if self._pending is not None:
            self._pending.exception()

    def shutdown(self) -> None:
        self.timer.stop()
        self._stop_writing()
        self._worker.shutdown(wait=True)


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError):
        return f"cannot write the recovery file: {error.strerror or error}"
    return str(error)
