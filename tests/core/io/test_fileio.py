"""Encounter files: round trip, atomic saves, and a clear error for every kind of bad file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.actions.base import perform
from core.actions.history import History
from core.actions.shove import ShoveAction
from core.io.fileio import (
    EncounterFileError,
    encounter_from_json,
    encounter_to_bytes,
    encounter_to_json,
    load_encounter,
    save_encounter,
)
from core.model.combatant import Combatant, Condition
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import Background, Hazard, HazardEffect, HazardKind, Light
from core.model.profile import CreatureCollision, RulesProfile
from core.rules.shove import ShoveRequest

MakeEncounter = Callable[..., Encounter]
DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


@pytest.fixture
def rich(make_encounter: MakeEncounter) -> Encounter:
    """An encounter using every part of the format: profile change, terrain, elevation,
    walls of each kind, hazards, background, lights, conditions and a logged shove."""
    enc = make_encounter("""
        A B . . s
        . C . d d
        . . . . .
    """, {"A": Combatant(name="A", fr_slots=3),
          "C": Combatant(name="Cora", conditions=frozenset({Condition.PRONE,
                                                            Condition.STUNNED}), hp=-3)},
        walls=[(4, 0, 4, 1, "door"), (0, 2, 2, 2, "window"), (3, 1, 3, 2, "open door"),
               (1.5, 2.5, 2.25, 2.75, "object")],
        hazards=[Hazard(name="Fire", kind=HazardKind.FIRE, cells=(Cell(2, 2), Cell(3, 2)),
                        effect=HazardEffect(damage="2d6+1", save_target=12, notes="hot"))],
        elevation={(4, 2): 10, (0, 2): -5},
        profile=RulesProfile(creature_collision=CreatureCollision.SOLID, slippery_bonus_ft=3))
    enc.name = "Rich ✓ encounter"
    enc.map.background = Background(path="map.png", offset_x=3.5, px_per_cell=64)
    enc.map.lights = [Light(x=1.5, y=2.5, range_cells=4, colour="ffaa00ff")]
    enc.map.ceiling_ft = 15
    enc.timeline.round_number = 1
    perform(ShoveAction(ShoveRequest(attacker="A", defender="B")), History(enc),
            ScriptedDice([20]))
    return enc


def test_save_then_load_round_trips(rich: Encounter, tmp_path: Path) -> None:
    target = tmp_path / "rich.json"
    save_encounter(rich, target)
    loaded = load_encounter(target)
    assert loaded.model_dump() == rich.model_dump()
    assert loaded.log[0].summary == rich.log[0].summary
    assert json.loads(target.read_text(encoding="utf-8"))["schema"] == "battlemap.encounter"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rich.json"]   # no temp left


def test_demo_encounter_loads_and_round_trips(tmp_path: Path) -> None:
    demo = load_encounter(DEMO)
    assert (demo.map.width, demo.map.height) == (24, 16)
    assert {t.name for t in demo.tokens} >= {"Brannoc", "Ogre", "Hill Giant", "Kobold"}
    assert {h.name for h in demo.map.hazards} == {"Spiked pit", "Brazier fire"}
    save_encounter(demo, tmp_path / "demo.json")
    assert load_encounter(tmp_path / "demo.json").model_dump() == demo.model_dump()


def test_save_replaces_an_existing_file(rich: Encounter, tmp_path: Path) -> None:
    target = tmp_path / "enc.json"
    target.write_text("old contents")
    save_encounter(rich, target)
    assert target.read_text(encoding="utf-8") == encounter_to_json(rich)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc.json"]


def test_compact_text_is_one_line_that_loads_to_the_same_encounter(rich: Encounter) -> None:
    compact = encounter_to_json(rich, compact=True)
    assert "\n" not in compact and len(compact) < len(encounter_to_json(rich))
    assert encounter_from_json(compact).model_dump() == rich.model_dump()


def test_save_into_a_missing_folder_raises(rich: Encounter, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        save_encounter(rich, tmp_path / "missing" / "enc.json")
    assert list(tmp_path.iterdir()) == []


def test_failed_rename_keeps_the_old_file_and_leaves_no_temp(rich: Encounter, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    target = tmp_path / "enc.json"
    target.write_text("the previous save")

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        save_encounter(rich, target)
    assert target.read_text() == "the previous save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc.json"]


def test_saving_over_a_folder_fails_and_cleans_up(rich: Encounter, tmp_path: Path) -> None:
    (tmp_path / "enc.json").mkdir()
    with pytest.raises(OSError):
        save_encounter(rich, tmp_path / "enc.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enc.json"]


def valid_data(rich: Encounter) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(encounter_to_json(rich))
    return data


BAD_FILES: list[Any] = [
    pytest.param(lambda d: "{not json", r"enc\.json is not valid JSON", id="corrupt-json"),
    pytest.param(lambda d: b"\xff\xfe{}", r"enc\.json is not valid JSON", id="not-utf8"),
    pytest.param(lambda d: "", r"enc\.json is not valid JSON", id="empty"),
    pytest.param(lambda d: [1, 2], r"not a Battlemap encounter \(expected a JSON object\)",
                 id="a-list"),
    pytest.param(lambda d: {**d, "schema": "foundry.scene"},
                 r"not a Battlemap encounter: its \"schema\" is 'foundry.scene', not",
                 id="wrong-schema"),
    pytest.param(lambda d: {k: v for k, v in d.items() if k != "schema"},
                 r"it has no \"schema\" key", id="no-schema"),
    pytest.param(lambda d: {**d, "version": 2},
                 r"has encounter format version 2; this Battlemap reads version 1",
                 id="newer-version"),
    pytest.param(lambda d: {**d, "version": "1"}, r"version '1'", id="version-as-text"),
    pytest.param(lambda d: {**d, "tokens": "none"}, r"enc\.json: tokens: ", id="tokens-not-list"),
    pytest.param(lambda d: {**d, "map": {**d["map"], "terrain_rows": ["....."] * 2}},
                 r"terrain_rows has 2 rows; the map is 3 high", id="too-few-rows"),
    pytest.param(lambda d: {**d, "map": {**d["map"], "terrain_rows": [".....", "..x..",
                                                                       "....."]}},
                 r"terrain row 1 has unknown codes \['x'\]", id="unknown-terrain"),
    pytest.param(lambda d: {**d, "map": {**d["map"], "width": 2}},
                 r"terrain row 0 has 5 cells; the map is 2 wide", id="narrower-map"),
    pytest.param(lambda d: {**d, "map": {**d["map"], "elevation": {"9,9": 5}}},
                 r"elevation cell \(9, 9\) is outside the 5×3 map", id="elevation-off-map"),
    pytest.param(lambda d: {**d, "tokens": [d["tokens"][0], {**d["tokens"][1], "x": 0}]},
                 r"overlaps A at \(0, 0\)", id="overlapping-tokens"),
    pytest.param(lambda d: {**d, "tokens": [d["tokens"][0], {**d["tokens"][0]}]},
                 r"two tokens have the id 'A'", id="duplicate-ids"),
    pytest.param(lambda d: {**d, "tokens": [{**d["tokens"][0], "x": 5}]},
                 r"does not fit on the 5×3 map", id="token-off-map"),
    pytest.param(lambda d: {**d, "wizard": True}, r"wizard: Extra inputs are not permitted",
                 id="unknown-field"),
    pytest.param(lambda d: {**d, "tokens": [{**d["tokens"][0], "combatant": {
        **d["tokens"][0]["combatant"], "abilities": {"strength": 25}}}]},
                 r"strength 25 is outside the ability table", id="ability-out-of-range"),
    pytest.param(lambda d: {**d, "map": {**d["map"], "walls": [{"x1": 0, "y1": 0, "x2": "a",
                                                               "y2": 1}]}},
                 r"map\.walls\.0\.x2", id="bad-wall"),
]


@pytest.mark.parametrize(("corrupt", "message"), BAD_FILES)
def test_bad_files_raise_a_clear_error(rich: Encounter, tmp_path: Path,
                                       corrupt: Callable[[dict[str, Any]], Any], message: str
                                       ) -> None:
    bad = corrupt(valid_data(rich))
    target = tmp_path / "enc.json"
    if isinstance(bad, bytes):
        target.write_bytes(bad)
    else:
        target.write_text(bad if isinstance(bad, str) else json.dumps(bad), encoding="utf-8")
    with pytest.raises(EncounterFileError, match=message):
        load_encounter(target)


def test_missing_file_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(EncounterFileError, match=r"cannot read .*nothing\.json"):
        load_encounter(tmp_path / "nothing.json")


def test_oversized_file_is_refused_before_reading(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("core.io.fileio.MAX_FILE_BYTES", 2 * 2**20)
    target = tmp_path / "huge.json"
    target.write_bytes(b" " * (3 * 2**20))
    with pytest.raises(EncounterFileError, match=r"huge\.json is 3 MiB; the limit is 2 MiB"):
        load_encounter(target)


def test_many_problems_are_summarised(rich: Encounter, tmp_path: Path) -> None:
    data = valid_data(rich)
    data["tokens"] = [{"id": "?", "x": -1, "y": -1, "combatant": {"name": ""}}] * 2
    target = tmp_path / "enc.json"
    target.write_text(json.dumps(data))
    with pytest.raises(EncounterFileError, match=r"and \d+ more problem\(s\)$"):
        load_encounter(target)


def minimal(**parts: Any) -> dict[str, Any]:
    """A small encounter file's data with ``parts`` added at the top."""
    return {"schema": "battlemap.encounter", "version": 1, "map": {"width": 4, "height": 3},
            "tokens": [{"id": "a", "x": 0, "y": 0, "combatant": {"name": "A"}}], **parts}


@pytest.mark.parametrize(("parts", "where", "character"), [
    ({"name": "Crypt\r\nbattlemap: all fine"}, "name", "U+000D"),
    ({"tokens": [{"id": "a", "x": 0, "y": 0, "combatant": {"name": "\x1b[31mA"}}]},
     "tokens.0.combatant.name", "U+001B"),
    ({"weapons": [{"name": "Axe\x9b2J", "reach_ft": 5}]}, "weapons.0.name", "U+009B"),
    ({"log": [{"kind": "note", "summary": "x", "detail": {"who": "\x00"}}]},
     "log.0.detail.who", "U+0000"),
    ({"log": [{"kind": "note", "summary": "x", "detail": {"\x07": 1}}]}, "log.0.detail",
     "a key"),
    ({"log": [{"kind": "note", "summary": "x", "text": "line\x7f"}]}, "log.0.text", "U+007F"),
], ids=["cr-lf-in-the-name", "esc-in-a-combatant", "csi-in-a-weapon", "nul-in-log-detail",
        "bel-in-a-key", "del-in-log-text"])
def test_text_with_a_control_character_is_refused_in_one_line(
        parts: dict[str, Any], where: str, character: str) -> None:
    """An ESC printed by the command line starts an escape sequence in the GM's terminal;
    CR/LF break a one-line refusal. Names refuse every control character, other text all
    but line feeds and tabs; the message names the value without printing it."""
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(json.dumps(minimal(**parts)).encode())
    message = str(refused.value)
    assert where in message and character in message, message
    assert message.isprintable()


def test_text_of_several_lines_keeps_its_line_breaks_and_tabs() -> None:
    data = minimal(log=[{"kind": "note", "summary": "Round 2", "text": "a\n\tb",
                         "detail": {"text": "c\nd"}}],
                   map={"width": 4, "height": 3, "hazards": [
                       {"name": "Oil", "cells": [[1, 1]],
                        "effect": {"notes": "burns\n\t3 rounds"}}]})
    encounter = encounter_from_json(json.dumps(data))
    assert encounter.log[0].text == "a\n\tb"
    assert encounter.map.hazards[0].effect.notes == "burns\n\t3 rounds"
    assert encounter_from_json(encounter_to_bytes(encounter)).model_dump() == encounter.model_dump()
