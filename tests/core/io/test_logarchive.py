"""The combat log outgrowing its file: the newest entries stay in the file, the oldest go
to the archive beside it, each once; no ruling is refused for the log's sake."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.actions.base import perform
from core.actions.history import History
from core.actions.initiative import InitiativeAction
from core.io import logarchive
from core.io.fileio import encounter_to_json, load_encounter, save_encounter
from core.io.logarchive import archive_path, kept_from
from core.model.combatant import Combatant
from core.model.dice import SeededDice
from core.model.encounter import Encounter, LogEntry, Token
from core.model.limits import MAX_LOG_ENTRIES
from core.model.mapmodel import BattleMap
from core.model.profile import RulesProfile
from core.model.weight import Weight, of_text


def note(number: int) -> LogEntry:
    return LogEntry(kind="note", summary=f"note {number}", detail={"n": number})


def logged(count: int) -> Encounter:
    """An encounter with ``count`` notes in its log (more than a file holds: logged in play)."""
    encounter = Encounter()
    encounter.log.extend(note(n) for n in range(count))
    return encounter


def archived(path: Path) -> list[int]:
    lines = archive_path(path).read_text("utf-8").splitlines()
    return [json.loads(line)["detail"]["n"] for line in lines]


def test_a_full_log_takes_one_more_ruling_and_saves_its_newest_entries(tmp_path: Path) -> None:
    """10,000 entries (the cap) opened and saved; one more ruling and it could no longer
    be saved or autosaved."""
    encounter = Encounter(map=BattleMap(width=4, height=4), tokens=[
        Token(id="a", combatant=Combatant(name="A"), x=0, y=0)],
        log=[note(n) for n in range(MAX_LOG_ENTRIES)])
    perform(InitiativeAction(), History(encounter), SeededDice(3))
    path = tmp_path / "crypt.json"
    save_encounter(encounter, path)
    saved = load_encounter(path)
    assert len(saved.log) == MAX_LOG_ENTRIES and saved.log[-1].kind == "initiative"
    assert saved.log[0] == note(1) and archived(path) == [0]
    assert len(encounter.log) == MAX_LOG_ENTRIES + 1  # the open encounter keeps it all


def test_each_entry_is_archived_once_whatever_the_saves(tmp_path: Path) -> None:
    encounter = logged(MAX_LOG_ENTRIES + 3)
    path = tmp_path / "crypt.json"
    save_encounter(encounter, path)
    save_encounter(encounter, path)
    encounter.log.append(note(MAX_LOG_ENTRIES + 3))
    save_encounter(encounter, path)
    assert archived(path) == [0, 1, 2, 3]
    again = tmp_path / "copy.json"
    save_encounter(encounter, again)  # Save As: the new file's archive starts afresh
    assert archived(again) == [0, 1, 2, 3] and load_encounter(again).log[0] == note(4)


def test_entries_undone_and_replaced_are_not_taken_for_archived_ones(tmp_path: Path) -> None:
    encounter = logged(MAX_LOG_ENTRIES + 2)
    path = tmp_path / "crypt.json"
    save_encounter(encounter, path)
    del encounter.log[1:]  # undone, back to one entry
    encounter.log.extend(note(n) for n in range(100, 100 + MAX_LOG_ENTRIES + 1))
    save_encounter(encounter, path)
    assert archived(path) == [0, 1, 100]


def test_a_log_too_heavy_for_the_files_room_gives_way_by_weight(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Long before 10,000 entries a log of big rulings (a morale check's retreat paths)
    could take the file past its 2,000,000 JSON objects and arrays: the file keeps the
    newest entries that fit in the room the rest leaves."""
    encounter = Encounter(log=[LogEntry(kind="morale", summary=f"check {n}",
                                        detail={"paths": [[n, y] for y in range(99)]})
                               for n in range(50)])
    rest = json.loads(encounter_to_json(encounter))
    rest["log"] = []
    twenty = 20 * (99 + 3)  # an entry: its object, the detail's, the list and its 99 cells
    room = of_text(json.dumps(rest).encode()).containers + logarchive.MARGIN.containers + twenty
    monkeypatch.setattr(logarchive, "LIMITS", Weight(2**30, room, 2**30))
    start = kept_from(encounter)
    assert 25 < start < 40
    kept = json.loads(encounter_to_json(encounter))["log"]
    assert [entry["summary"] for entry in kept] == [f"check {n}" for n in range(start, 50)]


def test_a_footprint_change_does_not_archive_the_log_again(tmp_path: Path) -> None:
    """A new profile with other footprints drops the map's caches, not what the archive
    holds: the next save appends nothing twice."""
    encounter = logged(MAX_LOG_ENTRIES + 2)
    path = tmp_path / "crypt.json"
    save_encounter(encounter, path)
    encounter.set_profile(RulesProfile(size_footprints=(1, 1, 1, 3, 4, 5)))
    save_encounter(encounter, path)
    assert archived(path) == [0, 1]
    assert load_encounter(path).profile.size_footprints == (1, 1, 1, 3, 4, 5)
