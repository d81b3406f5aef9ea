"""Write the hostile-file corpus: files a hostile or careless user could hand to Battlemap.

    python tests/hostile/make_corpus.py             rewrite the small files in tests/hostile/corpus/
    python tests/hostile/make_corpus.py --big DIR   write the big ones into DIR (the tests do this
                                                    into a temporary folder: they are not committed)
    python tests/hostile/make_corpus.py --small DIR the small ones into DIR (to compare)

Every file is a small valid encounter (6×4 map, token ``a`` beside token ``b`` with a wall
behind it) with one thing wrong, or a Universal VTT file for ``battlemap import``. The
manifest ``MANIFEST.json`` written beside the files says what Battlemap must do with each:
``"refused"`` (exit status 2, one line naming ``field``) or ``"handled"`` (it loads and every
command works). Each entry's ``issue`` says which line of issue 15 (or 39: "round two") it
reproduces. An entry may also name a ``ruling``: a ``battlemap resolve`` command applied to
the file and saved (``--apply --out``), which must succeed and write a file that loads; a
``view`` for ``battlemap render`` (``player``: the players' screen, fog and lights); and a
``peak_mib``: the most resident memory any of its commands may take.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import struct
import sys
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = "MANIFEST.json"
RAW = "@@raw:"  # a string "@@raw:TEXT" in a document is written as the bare JSON text TEXT
MiB = 2**20


@dataclass(frozen=True)
class Hostile:
    file: str
    expect: str  # "refused" or "handled"
    field: str  # what the one-line message names (refused), or "" (handled)
    issue: str
    kind: str = "encounter"  # or "uvtt": run through `battlemap import`; "recovery": restored
    ruling: tuple[str, ...] = ()  # `battlemap resolve` ACTION [ARGS]: applied and saved
    view: str = "gm"  # `battlemap render --view`
    peak_mib: int = 0  # when not 0: the most resident memory a command may take


def base() -> dict[str, Any]:
    """A small valid encounter: a can shove b east into the wall at x = 4."""
    return {
        "schema": "battlemap.encounter", "version": 1, "name": "Hostile base",
        "map": {"width": 6, "height": 4,
                "walls": [{"x1": 4, "y1": 0, "x2": 4, "y2": 4}]},
        "tokens": [
            {"id": "a", "x": 1, "y": 1, "combatant": {"name": "A", "fr_slots": 3}},
            {"id": "b", "x": 2, "y": 1, "combatant": {"name": "B"}},
        ],
    }


def with_(**parts: Any) -> dict[str, Any]:
    """The base encounter with top-level keys replaced (``map`` keys are merged)."""
    document = base()
    for key, value in parts.items():
        if key == "map":
            document["map"] = {**document["map"], **value}
        else:
            document[key] = value
    return document


def text_of(document: Any) -> bytes:
    """Compact JSON; ``"@@raw:…"`` strings become bare text (NaN, 1e400, 5000-digit ints)."""
    text = json.dumps(document, separators=(",", ":"))
    while f'"{RAW}' in text:
        start = text.index(f'"{RAW}')
        end = text.index('"', start + 1)
        text = text[:start] + text[start + 1 + len(RAW):end] + text[end + 1:]
    return text.encode()


def wall(x1: float | str, y1: float | str, x2: float | str, y2: float | str) -> dict[str, Any]:
    return {"x1": x1, "y1": y1, "x2": x2, "y2": y2}


def entry(token_id: str, **fields: Any) -> dict[str, Any]:
    return {"token_id": token_id, **fields}


def hazard(damage: str, cells: list[list[int]] | None = None) -> dict[str, Any]:
    return {"name": "Fire pit", "kind": "fire", "cells": cells or [[3, 1]],
            "effect": {"damage": damage}}


def nested(depth: int) -> str:
    return RAW + "[" * depth + "]" * depth


def log_with(detail: Any) -> list[dict[str, Any]]:
    return [{"kind": "shove", "summary": "x", "detail": {"deep": detail}}]


def png_header(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


def uvtt(image: bytes | str, size: tuple[int, int] = (6, 4)) -> dict[str, Any]:
    text = image if isinstance(image, str) else base64.b64encode(image).decode("ascii")
    return {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0},
                                          "map_size": {"x": size[0], "y": size[1]},
                                          "pixels_per_grid": 256},
            "line_of_sight": [[{"x": 4, "y": 0}, {"x": 4, "y": 4}]], "portals": [],
            "lights": [], "image": text}


def profile(**fields: Any) -> dict[str, Any]:
    return with_(profile=fields)


SMALL: list[tuple[Hostile, Callable[[], Any]]] = [
    (Hostile("wall-far-away.json", "refused", "map.walls.1.x2",
             "a wall to (1e308, 1e308)"),
     lambda: with_(map={"walls": [base()["map"]["walls"][0], wall(0, 0, 1e308, 1e308)]})),
    (Hostile("wall-long-diagonal.json", "refused", "map.walls.0.x2",
             "a long diagonal (0,0)→(16000,16000)"),
     lambda: with_(map={"walls": [wall(0, 0, 16000, 16000)]})),
    (Hostile("wall-diagonal-at-the-limit.json", "handled", "",
             "a long diagonal inside the coordinate limit"),
     lambda: with_(map={"walls": [wall(-10000, -9997.5, 9997.5, 10000),
                                  wall(4, 0, 4, 4)]})),
    (Hostile("elevation-2-31.json", "refused", "map.elevation.1,1", "elevation ≥ 2³¹"),
     lambda: with_(map={"elevation": {"1,1": 2**31}})),
    (Hostile("elevation-5000-digits.json", "refused", "map.elevation",
             "an integer too long for Python to read"),
     lambda: with_(map={"elevation": {"1,1": RAW + "9" * 5000}})),
    (Hostile("elevation-key-padded.json", "refused", "map.elevation",
             "two spellings of one elevation cell"),
     lambda: with_(map={"elevation": {"01,1": 5, "1,1": 10}})),
    (Hostile("nested-200.json", "refused", "log.0.detail.deep",
             "JSON nested deeper than any encounter needs (200 levels)"),
     lambda: with_(log=log_with(nested(200)))),
    (Hostile("nan-background-offset.json", "refused", "map.background.offset_x",
             "NaN in the background offset"),
     lambda: with_(map={"background": {"path": "map.png", "offset_x": RAW + "NaN"}})),
    (Hostile("infinity-light.json", "refused", "map.lights.0.x", "Infinity in a light"),
     lambda: with_(map={"lights": [{"x": RAW + "Infinity", "y": 1, "range_cells": 3}]})),
    (Hostile("overflow-light-range.json", "refused", "map.lights.0.range_cells",
             "1e400 (read as infinity) in a light"),
     lambda: with_(map={"lights": [{"x": 1, "y": 1, "range_cells": RAW + "1e400"}]})),
    (Hostile("nan-moved-ft.json", "refused", "timeline.entries.0.moved_ft",
             "NaN in the timeline's moved_ft"),
     lambda: with_(timeline={"round_number": 1, "entries": [entry("a", moved_ft=RAW + "NaN")]})),
    (Hostile("nan-in-log-detail.json", "refused", "log.0.detail.deep",
             "NaN in free-form log detail (saved as null, so it would not round-trip)"),
     lambda: with_(log=log_with(RAW + "-Infinity"))),
    (Hostile("bad-base64.json", "refused", "map.background.data_base64",
             "data_base64 that is not base64"),
     lambda: with_(map={"background": {"data_base64": "this is not base64!"}})),
    (Hostile("lone-surrogate-name.json", "refused", "name",
             "a lone surrogate in the encounter name"),
     lambda: with_(name="Crypt \ud800")),
    (Hostile("initiative-max-segment-1e9.json", "refused", "profile.initiative_max_segment",
             "initiative_max_segment 1e9"),
     lambda: profile(initiative_max_segment=10**9)),
    (Hostile("hazard-duplicate-cells.json", "refused", "map.hazards.0.cells",
             "a hazard with duplicate cells"),
     lambda: with_(map={"hazards": [hazard("1d6", [[3, 1], [3, 2], [3, 1]])]})),
    (Hostile("timeline-unknown-token.json", "refused", "timeline.entries.0.token_id",
             "a timeline entry for an unknown token"),
     lambda: with_(timeline={"round_number": 1, "entries": [entry("ghost")]})),
    (Hostile("timer-unknown-token.json", "refused", "timeline.timers.0.token_id",
             "a condition timer for an unknown token"),
     lambda: with_(timeline={"timers": [{"token_id": "ghost", "condition": "dazed",
                                         "rounds": 1}]})),
    (Hostile("hazard-100d1000.json", "handled", "", "hazard damage 100d1000: exact odds"),
     lambda: with_(map={"hazards": [hazard("100d1000")]})),
    (Hostile("shove-die-100d1000.json", "handled", "",
             "a die chain stepping up to 100d1000"),
     lambda: profile(die_chain=["d2", "d4", "d6", "100d1000"], die_chain_cap="100d1000")),
    (Hostile("dice-101-groups.json", "refused", "map.hazards.0.effect.damage",
             "101 dice spread over one-die groups"),
     lambda: with_(map={"hazards": [hazard("+".join(["1d1000"] * 101))]})),
    (Hostile("dice-modifier-huge.json", "refused", "map.hazards.0.effect.damage",
             "a dice modifier of 10^15"),
     lambda: with_(map={"hazards": [hazard("d6+" + "9" * 15)]})),
    (Hostile("token-far-away.json", "refused", "tokens.1.x", "a token at x = 10^20"),
     lambda: with_(tokens=[base()["tokens"][0], {**base()["tokens"][1], "x": 10**20}])),
    (Hostile("slam-min-rolls-1e9.json", "refused", "profile.slam_min_rolls",
             "a billion slam rolls per slam"),
     lambda: profile(slam_min_rolls=10**9)),
    (Hostile("cell-size-1e12.json", "refused", "profile.cell_size_ft",
             "a 10^12 ft grid cell"),
     lambda: profile(cell_size_ft=10**12)),
    (Hostile("px-per-cell-tiny.json", "refused", "map.background.px_per_cell",
             "a background scaled by 10^300"),
     lambda: with_(map={"background": {"path": "map.png", "px_per_cell": 1e-300}})),
    (Hostile("ceiling-1e30.json", "refused", "map.ceiling_ft", "a ceiling at 10^30 ft"),
     lambda: with_(map={"ceiling_ft": 10**30})),
    (Hostile("log-round-1e30.json", "refused", "log.0.round", "a log entry in round 10^30"),
     lambda: with_(log=[{"kind": "shove", "summary": "x", "round": 10**30}])),
    (Hostile("segment-1e12.json", "refused", "timeline.entries.0.segment",
             "an initiative segment of 10^12"),
     lambda: with_(timeline={"round_number": 1, "entries": [entry("a", segment=10**12)]})),
    (Hostile("empty.json", "refused", "not valid JSON", "an empty file"), lambda: b""),
    (Hostile("truncated.json", "refused", "not valid JSON", "a file cut short"),
     lambda: text_of(base())[:-7]),
    (Hostile("not-an-object.json", "refused", "expected a JSON object", "a JSON list"),
     lambda: [base()]),
    (Hostile("name-terminal-escapes.json", "refused", "tokens.0.combatant.name",
             "round two: a name with ANSI escape sequences (they reach the GM's terminal)"),
     lambda: with_(tokens=[{**base()["tokens"][0], "combatant": {
         "name": "\x1b]0;pwned\x07\x1b[2J\x1b[31mA", "fr_slots": 3}}, base()["tokens"][1]])),
    (Hostile("name-line-breaks.json", "refused", "name",
             "round two: an encounter name with CR/LF (a one-line refusal spans several)"),
     lambda: with_(name="Crypt\r\nbattlemap: the file is fine")),
    (Hostile("name-nul.json", "refused", "map.hazards.0.name",
             "round two: a hazard name with a NUL"),
     lambda: with_(map={"hazards": [{**hazard("1d6"), "name": "Fire\x00pit"}]})),
    (Hostile("roll-faces-values-differ.json", "refused", "timeline.entries.0.roll",
             "round two: a roll whose faces and values differ in length"),
     lambda: with_(timeline={"round_number": 1, "entries": [entry("a", roll={
         "purpose": "initiative: A", "expression": "d10", "faces": [10],
         "values": [3, 4]})]})),
    (Hostile("uvtt-not-base64.dd2vtt", "handled", "", "a Universal VTT image that is a path",
             kind="uvtt"),
     lambda: uvtt("C:/maps/crypt.png")),
    (Hostile("uvtt-64-gigapixel-header.dd2vtt", "refused", "megapixels",
             "a PNG header claiming 2^18 × 2^18 pixels", kind="uvtt"),
     lambda: uvtt(png_header(2**18, 2**18))),
    (Hostile("background-dev-zero.json", "handled", "",
             "a background path that is a device (/dev/zero): must never be read"),
     lambda: with_(map={"background": {"path": "/dev/zero"}})),
]


def _json_bomb(count: int) -> bytes:
    return text_of(with_(log=log_with(RAW + "[" + ",".join(["{}"] * count) + "]")))


def _walls(count: int) -> bytes:
    """Walls right of b (x = 4 to 5.5; the half-cell ones lie on lines through cell centres)."""
    walls = [wall(4 + i % 4 / 2, 0, 4 + i % 4 / 2, 4) for i in range(count)]
    return text_of(with_(map={"walls": walls}))


def _uvtt_with_image(image_bytes: int) -> bytes:
    header = png_header(4000, 4000)
    return text_of(uvtt(header + bytes(image_bytes - len(header)), size=(100, 100)))


def _lights_in_the_dark(count: int, walls: int = 5_000) -> bytes:
    """A dark 300 × 300 map: ``walls`` grid-snapped walls and doors 1-6 cells long, and
    ``count`` lights each reaching 10,000 cells (the whole map), at seeded places."""
    rng = random.Random(39)
    segments = []
    for index in range(walls):
        x, y, length = rng.randrange(300), rng.randrange(300), rng.randint(1, 6)
        end = (min(x + length, 300), y) if index % 2 else (x, min(y + length, 300))
        segments.append({**wall(x, y, *end), "kind": "door" if index % 10 == 0 else "wall"})
    lights = [{"x": round(rng.uniform(0, 300), 2), "y": round(rng.uniform(0, 300), 2),
               "range_cells": 10_000} for _ in range(count)]
    return text_of(with_(map={"width": 300, "height": 300, "darkness": "dark",
                              "walls": segments, "lights": lights}))


def _png(width: int, height: int, note: str) -> bytes:
    """A grey PNG of width × height zero pixels (it compresses ~1000:1), with a text chunk
    ``note`` making its bytes (so its portrait key) its own."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    squeeze = zlib.compressobj(9)
    row = bytes(width + 1)  # filter byte 0, then the row's grey values
    idat = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    text = b"Comment\x00" + note.encode()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"tEXt", text)
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def _portrait_bombs(count: int) -> bytes:
    """``count`` tokens below ``a`` and ``b``, each with its own 8000 × 8000 portrait of
    ~62 KB."""
    image = _png(8000, 8000, "n=0")
    portraits, tokens = {}, []
    for index in range(count):
        raw = image.replace(b"n=0", f"{index:03}".encode(), 1)  # same length: CRC redone
        raw = _with_text_crc(raw)
        key = hashlib.sha256(raw).hexdigest()[:16]
        portraits[key] = {"format": "png", "data_base64": base64.b64encode(raw).decode()}
        tokens.append({"id": f"t{index}", "x": index % 20, "y": 2 + index // 20,
                       "combatant": {"name": f"T{index}", "portrait": key}})
    return text_of(with_(map={"width": 20, "height": 3 + count // 20, "walls": []},
                         tokens=[*base()["tokens"], *tokens], portraits=portraits))


def _with_text_crc(raw: bytes) -> bytes:
    """``raw`` with its tEXt chunk's CRC made right again."""
    start = raw.index(b"tEXt") - 4
    length = struct.unpack(">I", raw[start:start + 4])[0]
    body = raw[start + 4:start + 8 + length]
    return (raw[:start + 8 + length] + struct.pack(">I", zlib.crc32(body))
            + raw[start + 12 + length:])


def _background_bomb(side: int) -> bytes:
    raw = _png(side, side, "background")
    return text_of(with_(map={"background": {"data_base64": base64.b64encode(raw).decode(),
                                             "format": "png", "px_per_cell": side / 6}}))


def _a_long_walk() -> bytes:
    """A round on a 300 × 3 map in which ``b`` has already walked 9,990 ft (``a``, who
    has not, still has its attack: the corpus shoves ``b`` with it)."""
    return text_of(with_(map={"width": 300, "height": 3, "walls": []},
                         timeline={"round_number": 1, "entries": [
                             entry("a"), entry("b", moved_ft=9_990)]}))


def _answered_triggers(count: int) -> bytes:
    trigger = {"side": "opposition", "kind": "outnumbered"}
    return text_of(with_(timeline={"morale_answered": [trigger] * count}))


def _recovery_bomb(count: int) -> bytes:
    return b'{"source": "", "encounter": %b}' % _json_bomb(count)


def _fifo(folder: Path) -> Path:
    pipe = folder / "pipe"
    if not pipe.exists():
        os.mkfifo(pipe)
    return pipe


def _fifo_encounter(folder: Path) -> None:
    os.mkfifo(folder / "fifo.json")


def _directory_encounter(folder: Path) -> None:
    (folder / "directory.json").mkdir()


def _portrait_fifo(folder: Path) -> bytes:
    a, b = base()["tokens"]
    b = {**b, "combatant": {"name": "B", "image": str(_fifo(folder))}}
    return text_of(with_(tokens=[a, b]))


BIG: list[tuple[Hostile, Callable[[Path], bytes | None]]] = [
    (Hostile("fifo.json", "refused", "not a regular file",
             "the encounter file is a FIFO: a blocking open would hang"), _fifo_encounter),
    (Hostile("directory.json", "refused", "not a regular file", "the encounter is a folder"),
     _directory_encounter),
    (Hostile("background-fifo.json", "handled", "",
             "a background path that is a FIFO: must never be opened"),
     lambda folder: text_of(with_(map={"background": {"path": str(_fifo(folder))}}))),
    (Hostile("portrait-fifo.json", "handled", "",
             "a portrait path that is a FIFO: must never be opened"), _portrait_fifo),
    (Hostile("nested-100000.json", "refused", "nested", "JSON nested 100,000 deep"),
     lambda _: text_of(with_(log=log_with(nested(100_000))))),
    (Hostile("walls-1000000.json", "refused", "map.walls", "1,000,000 walls (30 MB)"),
     lambda _: _walls(1_000_000)),
    (Hostile("walls-100000.json", "handled", "", "100,000 walls: the limit, still usable"),
     lambda _: _walls(100_000)),
    (Hostile("hazard-200000-duplicate-cells.json", "refused", "map.hazards.0.cells",
             "a hazard with 200,000 duplicate cells (1.6 MB)"),
     lambda _: text_of(with_(map={"hazards": [hazard("1d6", [[3, 1]] * 200_000)]}))),
    (Hostile("hazard-whole-300x300-map.json", "handled", "",
             "one hazard covering every cell of the largest map (90,000 cells)"),
     lambda _: text_of(with_(map={"width": 300, "height": 300, "hazards": [
         hazard("2d6", [[x, y] for y in range(300) for x in range(300)])]}))),
    (Hostile("json-3000000-containers.json", "refused", "JSON objects and arrays",
             "3,000,000 empty objects (6 MB that would take 1.5 GB to parse)"),
     lambda _: _json_bomb(3_000_000)),
    (Hostile("tokens-1001.json", "refused", "tokens", "1,001 tokens"),
     lambda _: text_of(with_(map={"width": 300, "height": 300}, tokens=[
         {"id": f"t{i}", "x": i % 300, "y": i // 300, "combatant": {"name": f"T{i}"}}
         for i in range(1001)]))),
    (Hostile("log-10001.json", "refused", "log", "10,001 log entries"),
     lambda _: text_of(with_(log=[{"kind": "note", "summary": "x"}] * 10_001))),
    (Hostile("lights-10001.json", "refused", "map.lights", "10,001 lights"),
     lambda _: text_of(with_(map={"lights": [{"x": 1, "y": 1, "range_cells": 1}] * 10_001}))),
    (Hostile("hazards-1001.json", "refused", "map.hazards", "1,001 hazards"),
     lambda _: text_of(with_(map={"hazards": [hazard("1d6")] * 1001}))),
    (Hostile("over-64-mib.json", "refused", "the limit is 64 MiB", "a 65 MiB file"),
     lambda _: text_of(with_(name="x" * (65 * MiB)))),
    (Hostile("uvtt-image-59-mb.dd2vtt", "refused", "the limit is 64 MiB",
             "a Universal VTT image of 59 MB (it made an 80 MB encounter the loader refused)",
             kind="uvtt"),
     lambda _: _uvtt_with_image(59 * 10**6)),
    (Hostile("uvtt-image-45-mib.dd2vtt", "refused", "the image is over 40 MiB",
             "a 60 MiB Universal VTT file whose image is over the embedded-image cap",
             kind="uvtt"),
     lambda _: _uvtt_with_image(45 * MiB)),
    (Hostile("uvtt-image-at-the-cap.dd2vtt", "handled", "",
             "a Universal VTT image exactly at the cap: imports, and the encounter reopens",
             kind="uvtt"),
     lambda _: _uvtt_with_image(40 * MiB)),
    (Hostile("lights-2000-walls-5000-dark.json", "handled", "",
             "round two: 2,000 lights reaching the whole dark map, 5,000 walls: the players' "
             "screen", view="player"),
     lambda _: _lights_in_the_dark(2_000)),
    (Hostile("lights-10000-walls-5000-dark.json", "refused", "map.lights",
             "round two: 10,000 lights reaching the whole map (render --view player took 91 s)",
             view="player"),
     lambda _: _lights_in_the_dark(10_000)),
    (Hostile("portraits-200-8000px.json", "handled", "",
             "round two: 200 portraits of 8000 × 8000 pixels, 62 KB each (~51 GB decoded)",
             peak_mib=1536),
     lambda _: _portrait_bombs(200)),
    (Hostile("background-30000px.json", "handled", "",
             "round two: a 30000 × 30000 pixel background in a 1 MB PNG", peak_mib=1536),
     lambda _: _background_bomb(30_000)),
    (Hostile("log-10000.json", "handled", "",
             "round two: 10,000 log entries (the cap), then a ruling that logs one more",
             ruling=("shove", "--attacker", "a", "--target", "b")),
     lambda _: text_of(with_(log=[{"kind": "note", "summary": "x"}] * 10_000))),
    (Hostile("moved-ft-9990.json", "handled", "",
             "round two: a token that walked 9,990 ft this round walks 1,400 ft more",
             ruling=("move", "--move", "b=290,1")),
     lambda _: _a_long_walk()),
    (Hostile("morale-answered-10000.json", "refused", "timeline.morale_answered",
             "round two: 10,000 answered morale triggers (no more than 2,202 differ)"),
     lambda _: _answered_triggers(10_000)),
    (Hostile("recovery-3000000-containers.json", "refused", "JSON objects and arrays",
             "round two: a recovery file that would take 1.5 GB to parse", kind="recovery"),
     lambda _: _recovery_bomb(3_000_000)),
]


def write_small(folder: Path) -> None:
    for case, build in SMALL:
        built = build()
        (folder / case.file).write_bytes(built if isinstance(built, bytes) else text_of(built))
    write_manifest(folder, [case for case, _ in SMALL])


def write_big(folder: Path) -> None:
    for case, build in BIG:
        built = build(folder)
        if built is not None:
            (folder / case.file).write_bytes(built)
    write_manifest(folder, [case for case, _ in BIG])


def write_manifest(folder: Path, cases: list[Hostile]) -> None:
    manifest = [asdict(case) for case in cases]
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=Path, help="write the big files into this folder")
    parser.add_argument("--small", type=Path, default=CORPUS,
                        help="write the small files into this folder (default: the corpus)")
    args = parser.parse_args(argv)
    folder = args.big or args.small
    folder.mkdir(parents=True, exist_ok=True)
    (write_big if args.big else write_small)(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
