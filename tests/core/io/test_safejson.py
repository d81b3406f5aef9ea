"""Hostile JSON: random mutations of a rich encounter either load or raise EncounterFileError
(never another exception), and whatever loads saves to bytes that load again to an equal
encounter; those bytes do not depend on PYTHONHASHSEED.

The mutations replace, delete or insert a value anywhere in the document, with values a
hostile file would use: NaN and infinities, 1e400, integers past 2⁵³ or past Python's 4,300
digits, lone surrogates, dice bombs, deep nesting, huge lists; or they damage the bytes.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from core.io.fileio import EncounterFileError, encounter_from_json, encounter_to_bytes
from core.io.safejson import JsonDocumentError, parse_json

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "assets" / "demo_encounter.json"
RAW = "@@raw:"  # a string "@@raw:TEXT" is written as the bare JSON text TEXT


def rich_document() -> dict[str, Any]:
    """The demo encounter plus every part it lacks: background, light, ceiling, a round in
    progress with a timer, a logged shove with free-form detail, several conditions."""
    data: dict[str, Any] = json.loads(DEMO.read_text(encoding="utf-8"))
    first = data["tokens"][0]["id"]
    data["tokens"][0]["combatant"]["conditions"] = ["stunned", "prone", "dazed", "aiming"]
    data["map"]["background"] = {"data_base64": base64.b64encode(b"\x89PNG\r\n").decode(),
                                 "format": "png", "offset_x": 3.5, "px_per_cell": 64}
    data["map"]["lights"] = [{"x": 1.5, "y": 2.5, "range_cells": 4, "colour": "ffaa00ff"}]
    data["map"]["ceiling_ft"] = 15
    data["timeline"] = {"round_number": 2, "current_segment": 3,
                        "entries": [{"token_id": first, "segment": 3, "moved_ft": 7.5,
                                     "notes": ["aimed"]}],
                        "timers": [{"token_id": first, "condition": "dazed", "rounds": 2}],
                        "aimed_last_round": [first]}
    data["log"] = [{"kind": "shove", "summary": "A shoves B", "text": "every roll",
                    "detail": {"path": [[1, 2], [2, 2]], "moved_ft": 5.0, "x": None},
                    "round": 2}]
    return data


BASE = rich_document()


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every location in a JSON value (the root included)."""
    found = [prefix]
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, item in items:
        found += paths(item, (*prefix, key))
    return found


SPECIAL = st.sampled_from([
    RAW + "NaN", RAW + "Infinity", RAW + "-Infinity", RAW + "1e400", RAW + "-1e400",
    RAW + "9" * 5000, 2**53 + 1, -(2**63), 2**31, 10**30, -1, 0, 1e308, -1e-308, 0.5,
    "\ud800", "x\udfffy", "", " ", "1,1", "01,1", "100d1000", "1d6+" * 30 + "1",
    "d6+999999999999", "a" * 300, "ghost", "wall", "door", "d2", "\x00", "🦉",
    RAW + "[" * 3000 + "]" * 3000, RAW + "[" * 80 + "]" * 80,
    [[3, 1]] * 50, [[0, 0], [0, 0]], {"x1": 0, "y1": 0, "x2": 1e308, "y2": 1e308},
])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | SPECIAL,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=6) | st.sampled_from(["x", "y", "token_id", "cells", "damage"]),
        inner, max_size=4),
    max_leaves=8)


def text_of(document: Any) -> bytes:
    """Compact JSON; ``"@@raw:…"`` strings become the bare text (NaN, deep nesting, …)."""
    text = json.dumps(document, separators=(",", ":"))
    marker = json.dumps(RAW)[:-1]
    while marker in text:
        start = text.index(marker)
        end = text.index('"', start + len(marker))
        text = text[:start] + text[start + len(marker):end] + text[end + 1:]
    return text.encode("utf-8", "surrogatepass")


def like(value: Any) -> st.SearchStrategy[Any]:
    """A value of the same JSON type, often in range (so more mutations still load)."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(-20, 400) | st.integers()
    if isinstance(value, float):
        return st.floats(-500, 500) | st.floats()
    if isinstance(value, str):
        return st.text(max_size=12) | st.sampled_from(["d6", "2d8", "fire", "pit", "E"])
    return VALUES


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    document = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(document)[3:]))  # not the root, schema, version
        how = draw(st.sampled_from(["like", "set", "delete", "insert"]))
        current = _at(document, path)
        value = draw(like(current) if how == "like" else VALUES)
        document = _mutate(document, path, how, copy.deepcopy(value))
    data = text_of(document)
    if draw(st.integers(0, 9)) == 9:  # damage the bytes too
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=4)) + data[cut + 1:]
    return data


def _at(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


def _mutate(document: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return value
    parent, key = _at(document, path[:-1]), path[-1]
    if how == "delete":
        del parent[key]
    elif how == "insert" and isinstance(parent, list):
        parent.insert(key, value)
    elif how == "insert":
        parent[f"{key}_extra"] = value
    else:
        parent[key] = value
    return document


def load_or_refuse(data: bytes) -> None:
    """The property: load or EncounterFileError; what loads saves and reloads equal."""
    try:
        encounter = encounter_from_json(data, "hostile.json")
    except EncounterFileError as error:
        assert "\n" not in str(error)
        event("refused")
        return
    event("loaded")
    saved = encounter_to_bytes(encounter)
    assert encounter_from_json(saved).model_dump() == encounter.model_dump()


def test_the_base_document_loads() -> None:
    encounter = encounter_from_json(text_of(BASE))
    assert encounter.timeline.entries and encounter.map.lights and encounter.log


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_load_or_are_refused_and_loaded_ones_round_trip(data: bytes) -> None:
    load_or_refuse(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_are_refused_cleanly(data: bytes) -> None:
    load_or_refuse(data)
    with contextlib.suppress(JsonDocumentError):
        parse_json(data)


@pytest.mark.parametrize(("value", "message"), [
    (RAW + "NaN", "log.0.detail.x is not a finite number (nan)"),
    (RAW + "1e400", "log.0.detail.x is not a finite number (inf)"),
    (RAW + "9" * 5000, "log.0.detail.x is a 5000-digit integer, too large"),
    (2**53 + 1, "log.0.detail.x is 9007199254740993, beyond ±2^53"),
    ("\ud800", "log.0.detail.x has a lone surrogate (U+D800)"),
    (RAW + "[" * 70 + "]" * 70, "log.0.detail.x.0.0.0.0 is nested deeper than 64 levels"),
])
def test_values_that_would_not_write_back_are_named_by_their_path(value: Any, message: str
                                                                  ) -> None:
    # in the free-form detail, where only this check sees them (typed fields refuse
    # non-finite and out-of-range numbers themselves, e.g. map.lights.0.x)
    document = copy.deepcopy(BASE)
    document["log"][0]["detail"]["x"] = value
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(text_of(document), "x.json")
    assert str(refused.value).startswith(f"x.json: {message}")


def test_nesting_too_deep_for_the_parser_is_refused_not_a_recursion_error() -> None:
    deep = b'{"schema": "battlemap.encounter", "a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    with pytest.raises(EncounterFileError, match=r"x\.json is not valid JSON: nested too deeply"):
        encounter_from_json(deep, "x.json")


def test_a_json_bomb_is_refused_before_parsing() -> None:
    bomb = b"[" + b"{}," * 2_000_000 + b"{}]"
    with pytest.raises(EncounterFileError, match=r"too big: 2,000,002 JSON objects and arrays"):
        encounter_from_json(bomb, "x.json")


def test_utf8_encoded_surrogates_are_not_text() -> None:
    # json.loads(bytes) itself would let these through ('surrogatepass')
    with pytest.raises(EncounterFileError,
                       match=r"x\.json is not an encounter file: it is not text \(not UTF-8"):
        encounter_from_json(b'{"name": "\xed\xa0\x80"}', "x.json")


HASH_SEED_SCRIPT = """
import hashlib, json, sys
from core.io.fileio import encounter_from_json, encounter_to_bytes
for text in json.load(sys.stdin):
    print(hashlib.sha256(encounter_to_bytes(encounter_from_json(text))).hexdigest())
"""


def test_saved_bytes_do_not_depend_on_the_hash_seed() -> None:
    documents = [text_of(BASE).decode(), DEMO.read_text(encoding="utf-8")]
    digests = []
    for seed in ("0", "1", "4242"):
        done = subprocess.run([sys.executable, "-c", HASH_SEED_SCRIPT], input=json.dumps(documents),
                              cwd=REPO, capture_output=True, text=True, timeout=120, check=True,
                              env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"})
        digests.append(done.stdout)
    assert digests[0].count("\n") == len(documents)
    assert digests[0] == digests[1] == digests[2]
