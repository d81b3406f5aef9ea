"""Whether an autosave's JSON would load, asked of a process of its own.

Parsing and validating tens of MB of JSON are long calls that hold the interpreter: on a
thread of the app's they held up the GUI thread (repaints of the 300×300 benchmark map
during a check: 20 ms median, 95 max; 8 and 23 with the check in a process of its own).
That process is ``battlemap check - --json``: this Python on the installed package, or the
standalone build's own executable. Where it gives no answer (it cannot start, crashes,
hangs, or is another version of the app after an upgrade), or the file is over the size it
reads, the check is made here. A save or a close stops a check in flight rather than wait
for its process (a third of a second to start; two minutes at most if it hangs).
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from typing import IO, TYPE_CHECKING, Any

from core.io.fileio import EncounterFileError, encounter_from_json
from core.model.limits import MAX_FILE_BYTES
from desktop.system.resources import app_version, is_frozen

if TYPE_CHECKING:
    import subprocess

CHECK_TIMEOUT_S = 120  # the check of a 64 MiB file takes seconds; a hung one is given up
ORIGIN = "the autosave"  # what the loader's messages call the file


class CheckStoppedError(Exception):
    """The check was stopped (the window saved or closed): there is nothing to write."""


def check_command() -> list[str]:
    """``battlemap`` run headless from this process: the standalone build's own executable,
    else this Python on the installed package (``-P``: a ``desktop`` folder where the app
    was started cannot stand in for it)."""
    if is_frozen():
        return [sys.executable]
    return [sys.executable, "-P", "-m", "desktop"]


class LoadCheck:
    """The check of one autosave; :meth:`stop` may come from any thread."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._stopped = False

    def problem(self, data: bytes) -> str | None:
        """Why the loader refuses ``data`` (None: it loads); CheckStoppedError if stopped."""
        report = self._report(data) if len(data) <= MAX_FILE_BYTES else None
        if self._stopped:
            raise CheckStoppedError
        if report is None:
            return _problem_here(data)
        return None if report["opens"] else str(report.get("problem"))

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._process is not None:
                self._process.kill()  # nothing if it has ended

    def _report(self, data: bytes) -> dict[str, Any] | None:
        """The process's answer, if it gave one as this version of the app."""
        import subprocess  # at the first autosave: 3 ms of the first frame otherwise

        try:
            # From a file, not a pipe: piping tens of MB took thousands of writes, each
            # waiting for the interpreter while the GUI thread painted (0.9 s, not 0.4).
            with tempfile.TemporaryFile() as stdin:
                stdin.write(data)
                stdin.seek(0)
                report = json.loads(self._run(stdin))
        except (OSError, subprocess.SubprocessError, ValueError):
            return None
        if (not isinstance(report, dict) or report.get("version") != app_version()
                or not isinstance(report.get("opens"), bool)):
            return None
        return report

    def _run(self, stdin: IO[bytes]) -> bytes:
        """What the check printed (nothing if stopped before it started)."""
        import subprocess

        with self._lock:
            if self._stopped:
                return b""
            self._process = subprocess.Popen(
                [*self.command, "check", "-", "--name", ORIGIN, "--json"], stdin=stdin,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        with self._process as process:
            try:
                return process.communicate(timeout=CHECK_TIMEOUT_S)[0]
            except subprocess.TimeoutExpired:
                process.kill()
                raise


def _problem_here(data: bytes) -> str | None:
    try:
        encounter_from_json(data, ORIGIN)
    except EncounterFileError as error:
        return str(error)
    return None
