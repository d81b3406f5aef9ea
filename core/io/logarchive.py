"""The combat log's archive beside an encounter file: where the oldest entries go when the
log outgrows the file.

An encounter file holds at most :data:`MAX_LOG_ENTRIES` log entries, and no more than the
room the rest of the file leaves under its limits (64 MiB; the JSON objects and values
the loader counts). The window and the command line never refuse a ruling for the log's
sake: the encounter keeps every entry while it is open, and a save writes the newest
entries that fit into the file (:func:`kept_from`) and appends the older ones not yet
archived to ``NAME.log-archive.jsonl`` beside it, one JSON object per line, oldest first
(:func:`archive`). Undo and redo are untouched: the history knows nothing of it.

Each entry is archived once per file: the encounter remembers, for the file it was last
saved to, which of its oldest entries are in that file's archive. A crash between the
archive's append and the file's replacement archives those entries again at the next
save (they were in the archive already; nothing is lost). Save As starts the new file's
archive with the entries the open encounter holds.

>>> archive_path(Path("/maps/crypt.json")).name
'crypt.log-archive.jsonl'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.model.encounter import Encounter, LogEntry
from core.model.limits import MAX_LOG_ENTRIES
from core.model.weight import LIMITS, Weight, entry_weight, estimate, measure

#: Room kept free under the limits, for what the weights leave out (the log key, brackets).
MARGIN = Weight(64 * 2**10, 16, 16)


def archive_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.log-archive.jsonl")


@dataclass
class _Weights:
    """Each log entry's weight, by identity (entries are immutable)."""

    known: dict[int, tuple[LogEntry, Weight]] = field(default_factory=dict)

    def of(self, entry: LogEntry) -> Weight:
        found = self.known.get(id(entry))
        if found is None or found[0] is not entry:
            found = self.known[id(entry)] = (entry, entry_weight(entry))
        return found[1]

    def forget_all_but(self, log: list[LogEntry]) -> None:
        if len(self.known) > 2 * len(log) + 100:
            self.known = {id(entry): self.known[id(entry)] for entry in log
                          if id(entry) in self.known}


def kept_from(encounter: Encounter) -> int:
    """The index of the oldest log entry the file holds: the newest entries, at most
    :data:`MAX_LOG_ENTRIES` of them, that fit in the room the rest of the file leaves."""
    log = encounter.log
    start = max(0, len(log) - MAX_LOG_ENTRIES)
    weights = encounter.derived(_Weights, _Weights)
    each = [weights.of(entry) for entry in log[start:]]
    weights.forget_all_but(log)
    tail = sum(each, Weight())
    if (estimate(encounter) + tail + MARGIN).within(LIMITS):
        return start
    room = LIMITS - measure(encounter) - MARGIN
    for weight in each:
        if tail.within(room):
            break
        tail -= weight
        start += 1
    return start


@dataclass
class _Archived:
    """The entries of the encounter's log in the archive beside ``path``, oldest first
    (undoing them all and logging others would put others in their places)."""

    path: Path | None = None
    entries: list[LogEntry] = field(default_factory=list)

    def start(self, path: Path, log: list[LogEntry]) -> int:
        """How many of ``log``'s oldest entries the archive beside ``path`` holds."""
        if self.path != path:
            return 0
        same = (a is b for a, b in zip(self.entries, log, strict=False))
        return next((index for index, alike in enumerate(same) if not alike),
                    min(len(self.entries), len(log)))


def archive(encounter: Encounter, path: Path, until: int) -> None:
    """Append the log's entries before ``until`` that the archive beside ``path`` lacks
    (OSError when it cannot be written: the encounter file is then not written either)."""
    log = encounter.log
    archived = encounter.kept(_Archived, _Archived)
    start = archived.start(path, log)
    if until > start:
        lines = b"".join(entry.model_dump_json(by_alias=True).encode("utf-8") + b"\n"
                         for entry in log[start:until])
        with open(archive_path(path), "ab") as out:
            out.write(lines)
            out.flush()
            os.fsync(out.fileno())
        archived.path, archived.entries = path, log[:until]
