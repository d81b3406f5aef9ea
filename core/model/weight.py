"""How much of the file's limits an encounter takes: its size, and the JSON objects, arrays
and values the loader counts before parsing (:mod:`core.model.limits`).

Everything but the combat log is weighed together: :func:`estimate` gives an upper bound
from the counts (cheap: no serialising), :func:`measure` the exact weight (the JSON made,
without the embedded images' text, whose length is added). The log is weighed entry by
entry (:func:`entry_weight`): it gives way when the file would be too heavy, its oldest
entries going to an archive beside the file (:mod:`core.io.logarchive`).

>>> from core.model.encounter import Encounter
>>> estimate(Encounter()).fits(), measure(Encounter()).size < estimate(Encounter()).size
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from core.model.encounter import Encounter, LogEntry
from core.model.limits import MAX_COMMAS, MAX_CONTAINERS, MAX_FILE_BYTES

#: Upper bounds of what one item of each kind adds to the file (indented JSON, bytes).
WALL, LIGHT, CELL, RUN, ELEVATION = 200, 200, 48, 48, 32
TOKEN, ENTRY, ROUND_ITEM, HAZARD, WEAPON, PORTRAIT = 4096, 4096, 400, 2048, 1024, 256
#: The rest: the profile's tables, the background's fields, the names.
FIXED = 256 * 1024
#: How deep a log entry sits in the file: each of its lines is indented this much more.
LOG_INDENT = 2


@dataclass(frozen=True)
class Weight:
    """What (part of) a file holds, as the loader counts it before parsing."""

    size: int = 0
    containers: int = 0
    commas: int = 0

    def __add__(self, other: Weight) -> Weight:
        return Weight(self.size + other.size, self.containers + other.containers,
                      self.commas + other.commas)

    def __sub__(self, other: Weight) -> Weight:
        return Weight(self.size - other.size, self.containers - other.containers,
                      self.commas - other.commas)

    def within(self, room: Weight) -> bool:
        return (self.size <= room.size and self.containers <= room.containers
                and self.commas <= room.commas)

    def fits(self) -> bool:
        return self.within(LIMITS)

    def over(self) -> str | None:
        """Which of the file's limits this is past, in words, or None."""
        if self.size > MAX_FILE_BYTES:
            return (f"it would be {self.size / 2**20:.1f} MiB without its log; at most "
                    f"{MAX_FILE_BYTES // 2**20} MiB")
        if self.containers > MAX_CONTAINERS:
            return (f"it would hold {self.containers:,} JSON objects and arrays; at most "
                    f"{MAX_CONTAINERS:,}")
        if self.commas > MAX_COMMAS:
            return f"it would hold {self.commas:,} values; at most {MAX_COMMAS:,}"
        return None




#: The whole of a file's limits.
LIMITS = Weight(MAX_FILE_BYTES, MAX_CONTAINERS, MAX_COMMAS)


def of_text(data: bytes) -> Weight:
    """The weight of JSON text, counted as the loader counts it."""
    return Weight(len(data), data.count(b"{") + data.count(b"["), data.count(b","))


def _images(encounter: Encounter) -> int:
    background = encounter.map.background
    embedded = len(background.data_base64 or "") if background else 0
    return embedded + sum(len(p.data_base64) for p in encounter.portraits.values())


def estimate(encounter: Encounter) -> Weight:
    """An upper bound of the file's weight without its log, from the counts."""
    battle_map, state = encounter.map, encounter.timeline
    cells = sum(len(h.cells) for h in battle_map.hazards)
    path_cells = sum(len(e.path) for e in state.entries)
    notes = (sum(len(h.effect.notes) for h in battle_map.hazards)
             + sum(len(note) for e in state.entries for note in e.notes))
    round_items = sum(len(items) for items in (
        state.timers, state.holds, state.ac_penalties, state.morale_answered, state.pop_ups,
        state.waiting, state.aimed_last_round))
    fog_runs = sum(len(runs) for runs in (encounter.fog.explored, encounter.fog.revealed,
                                          encounter.fog.hidden))
    size = (FIXED + _images(encounter) + 4 * notes + len(battle_map.walls) * WALL
            + len(battle_map.lights) * LIGHT + cells * CELL + fog_runs * RUN
            + len(battle_map.elevation) * ELEVATION + battle_map.width * battle_map.height
            + len(encounter.tokens) * TOKEN + len(state.entries) * ENTRY
            + path_cells * CELL + round_items * ROUND_ITEM + len(battle_map.hazards) * HAZARD
            + len(encounter.weapons) * WEAPON + len(encounter.portraits) * PORTRAIT)
    items = (len(battle_map.walls) + len(battle_map.lights) + cells + fog_runs + path_cells
             + round_items + 16 * (len(encounter.tokens) + len(state.entries)
                                   + len(battle_map.hazards) + len(encounter.weapons)))
    return Weight(size, 1000 + items, 1000 + 8 * items + len(battle_map.elevation))


def measure(encounter: Encounter) -> Weight:
    """The file's weight without its log, measured: the JSON without the log and the
    embedded images' text (which holds no brackets or commas), and that text's length."""
    text = encounter.model_dump_json(by_alias=True, indent=1, exclude={
        "log": True, "portraits": True, "map": {"background": {"data_base64"}}})
    portraits = len(encounter.portraits)
    return of_text(text.encode("utf-8")) + Weight(_images(encounter) + portraits * PORTRAIT,
                                                  portraits, 2 * portraits)


def entry_weight(entry: LogEntry) -> Weight:
    """What one log entry adds to the file: its indented JSON, each line indented
    :data:`LOG_INDENT` more, and the comma and line break after it."""
    data = entry.model_dump_json(by_alias=True, indent=1).encode("utf-8")
    lines = data.count(b"\n") + 1
    return of_text(data) + Weight(LOG_INDENT * lines + 2, 0, 1)
