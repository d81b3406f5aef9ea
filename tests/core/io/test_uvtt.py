"""Universal VTT import (core/uvtt.py) against real Dungeondraft exports and broken files.

The expected counts were worked out by reading the fixtures (tests/fixtures/uvtt/NOTICE.md
says where each comes from) with plain ``json``: every pair of consecutive points
of a ``line_of_sight`` polyline is one segment; segments wholly outside the exported area, or
reduced to a point by clipping, or of zero length in the file, are dropped.

- dd02_cropped_window_sampleMap: 7 segments, all inside; 1 door, 1 window (``closed: false``,
  0.762 wide); 2 lights.
- dd03_crop_outside_geometry_red_tower: 441 segments in the file, 88 inside the crop (two of
  them zero-length: (4,17)-(4,17) and (12,16)-(12,16)), plus (8,24)-(14,24) clipped to x <= 12
  on the bottom edge; (4,25.1)-(4,24) only touches the edge at a point. 88 - 2 + 1 = 87.
  4 of the 41 portals lie inside; the 15 windows (0.777 wide) are all outside.
- dd03_objects_lights_test: 197 wall segments, 50 object segments, 3 doors, 1 light.
- dd03_webp_litch_tomb: 168 segments (one crosses y = 0 and is clipped), 5 doors, 2 lights.
"""

from __future__ import annotations

import base64
import contextlib
import json
import math
import os
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.io.fileio import load_encounter, save_encounter
from core.io.uvtt import (
    ImportLimits,
    UvttImport,
    UvttImportError,
    image_size,
    import_uvtt,
    import_uvtt_file,
)
from core.model.limits import MAX_LIGHTS
from core.model.mapmodel import WallKind, WallSegment

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "uvtt"
LITCH = FIXTURES / "dd03_webp_litch_tomb.dd2vtt"
CROPPED = FIXTURES / "dd02_cropped_window_sampleMap.dd2vtt"
RED = FIXTURES / "dd03_crop_outside_geometry_red_tower.dd2vtt"
OBJECTS = FIXTURES / "dd03_objects_lights_test.dd2vtt"

# name: (width, height, walls, objects, doors, windows, lights, image format, px per cell)
EXPECTED = {
    CROPPED.name: (10, 10, 7, 0, 1, 1, 2, "png", 256),
    RED.name: (10, 12, 87, 0, 4, 0, 0, "png", 128),
    OBJECTS.name: (20, 20, 197, 50, 3, 0, 1, "png", 64),
    LITCH.name: (48, 27, 168, 0, 5, 0, 2, "webp", 128),
}


def _import(path: Path) -> UvttImport:
    return import_uvtt_file(path)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_counts(name: str) -> None:
    result = _import(FIXTURES / name)
    m = result.encounter.map
    width, height, walls, objects, doors, windows, lights, fmt, ppg = EXPECTED[name]
    assert (m.width, m.height) == (width, height)
    assert (result.walls, result.objects, result.doors, result.windows, result.lights) == (
        walls, objects, doors, windows, lights)
    assert len(m.walls) == walls + objects + doors + windows and len(m.lights) == lights
    assert m.background is not None
    assert (m.background.format, m.background.px_per_cell) == (fmt, ppg)
    assert (m.background.offset_x, m.background.offset_y) == (0, 0)
    assert result.warnings == []
    assert result.encounter.name == Path(name).stem


@pytest.mark.parametrize("path", [CROPPED, RED, LITCH])
def test_geometry_inside_the_map(path: Path) -> None:
    m = _import(path).encounter.map
    for wall in m.walls:
        assert all(0 <= v <= m.width for v in (wall.x1, wall.x2)), wall
        assert all(0 <= v <= m.height for v in (wall.y1, wall.y2)), wall
    for light in m.lights:
        assert 0 <= light.x <= m.width and 0 <= light.y <= m.height


def _has(walls: list[WallSegment], *segment: float, kind: WallKind = WallKind.WALL) -> bool:
    return any(w.kind is kind and all(map(math.isclose, w.points, segment)) for w in walls)


def test_cropped_alignment_subtracts_the_origin() -> None:
    walls = _import(CROPPED).encounter.map.walls  # origin (2, 1)
    assert _has(walls, 7 - 2, 2 - 1, 7 - 2, 2.5 - 1)  # line_of_sight[0]
    assert _has(walls, 7 - 2, 2.5 - 1, 7 - 2, 3.5 - 1, kind=WallKind.DOOR)  # portals[0]
    assert _has(walls, 7 - 2, 8.619141 - 1, 7 - 2, 9.380859 - 1, kind=WallKind.WINDOW)
    lights = _import(CROPPED).encounter.map.lights
    assert math.isclose(lights[0].x, 8.570312 - 2) and lights[0].y == 9 - 1
    assert lights[0].colour == "ffeccd8b"


def test_red_tower_alignment_and_clipping() -> None:
    walls = _import(RED).encounter.map.walls  # origin (2, 12), 10 x 12
    assert _has(walls, 7 - 2, 12 - 12, 7 - 2, 14 - 12)  # line_of_sight[5]
    assert _has(walls, 8 - 2, 24 - 12, 12 - 2, 24 - 12)  # (8,24)-(14,24) clipped at x = 12
    assert _has(walls, 4 - 2, 17 - 12, 4 - 2, 16 - 12, kind=WallKind.DOOR)  # portals[4]


def test_litch_webp_lights_and_objects() -> None:
    m = _import(LITCH).encounter.map
    assert m.background is not None and m.background.format == "webp"
    raw = base64.b64decode(m.background.data_base64 or "")
    assert image_size(raw) == ("webp", (6144, 3456))
    assert _has(m.walls, 30, 9, 39, 9)
    assert [(light.colour, light.range_cells, light.intensity) for light in m.lights] == [
        ("ffffad58", 4.7, 0.8)] * 2
    objects = [w for w in _import(OBJECTS).encounter.map.walls if w.kind is WallKind.OBJECT]
    assert objects and all(w.blocks_sight and not w.blocks_movement for w in objects)


# --- synthetic files ---------------------------------------------------------------------
def _png(width: int, height: int) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(
        ">IIBBBBB", width, height, 8, 6, 0, 0, 0) + bytes(4)


def _file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": 0.3,
        "resolution": {"map_origin": {"x": 1, "y": 1}, "map_size": {"x": 4, "y": 3},
                       "pixels_per_grid": 10},
        "line_of_sight": [[{"x": 1, "y": 1}, {"x": 5, "y": 1}, {"x": 5, "y": 4}]],
        "objects_line_of_sight": [[{"x": 2, "y": 2}, {"x": 3, "y": 2}]],
        "portals": [{"bounds": [{"x": 1, "y": 2}, {"x": 1, "y": 3}], "closed": True},
                    {"bounds": [{"x": 3, "y": 4}, {"x": 3.78, "y": 4}], "closed": True},
                    {"bounds": [{"x": 2, "y": 4}, {"x": 3, "y": 4}], "closed": False}],
        "lights": [{"position": {"x": 2, "y": 2}, "range": 3, "intensity": 0.5,
                    "color": "ff102030"}],
        "image": base64.b64encode(_png(40, 30)).decode(),
    }
    data.update(changes)
    return data


def _bytes(data: Any) -> bytes:
    return json.dumps(data).encode()


SMALL = _bytes(_file())


def test_small_file_and_window_rule() -> None:
    result = import_uvtt(SMALL, "small")
    assert (result.walls, result.objects, result.doors, result.windows, result.lights) == (
        2, 1, 1, 2, 1)
    walls = result.encounter.map.walls
    assert _has(walls, 0, 0, 4, 0) and _has(walls, 4, 0, 4, 3)
    assert _has(walls, 2, 3, 2.78, 3, kind=WallKind.WINDOW)  # 0.78 wide, closed: true
    assert _has(walls, 1, 3, 2, 3, kind=WallKind.WINDOW)  # closed: false
    assert _has(walls, 0, 1, 0, 2, kind=WallKind.DOOR)


@pytest.mark.parametrize(("changes", "warning"), [
    ({"image": None}, "no image"),
    ({"image": "maps/ballroom.webp"}, "not base64"),
    ({"image": base64.b64encode(b"GIF89a....").decode()}, "not a PNG"),
    ({"format": "2.5"}, "unknown format"),
    ({"format": None}, "no format"),
    ({"image": base64.b64encode(_png(50, 30)).decode()}, "it may not line up"),
    ({"resolution": {"map_origin": {"x": 1, "y": 1}, "map_size": {"x": 4, "y": 3}}},
     "taken from the image width"),
])
def test_walls_only_or_warning(changes: dict[str, Any], warning: str) -> None:
    result = import_uvtt(_bytes(_file(**changes)))
    assert any(warning in w for w in result.warnings), result.warnings
    assert result.walls == 2


@pytest.mark.parametrize("version", [0.2, 0.3, 1.0, "0.3", "1.0", 1])
def test_known_versions(version: object) -> None:
    assert import_uvtt(_bytes(_file(format=version))).warnings == []


def test_missing_optional_keys() -> None:
    minimal = {"resolution": {"map_size": {"x": 2, "y": 2}}, "format": 0.2}
    result = import_uvtt(_bytes(minimal))
    assert (result.encounter.map.width, result.walls) == (2, 0)
    assert result.warnings == ["the file has no image; walls only"]


def test_image_headers() -> None:
    jpeg = (b"\xff\xd8\xff\xe0" + struct.pack(">H", 16) + bytes(14)
            + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 300, 500) + bytes(10))
    assert image_size(jpeg) == ("jpeg", (500, 300))
    vp8l = b"RIFF" + bytes(4) + b"WEBPVP8L" + bytes(4) + b"\x2f" + (
        (99 | (49 << 14)).to_bytes(4, "little"))
    assert image_size(vp8l) == ("webp", (100, 50))
    vp8x = b"RIFF" + bytes(4) + b"WEBPVP8X" + bytes(8) + (799).to_bytes(3, "little") + (
        599).to_bytes(3, "little")
    assert image_size(vp8x) == ("webp", (800, 600))
    assert image_size(b"hello") is None


BROKEN = {
    "truncated": (SMALL[: len(SMALL) // 2], "not valid JSON"),
    "not an object": (b"[1, 2]", "the file should be an object"),
    "wrong type": (_bytes(_file(line_of_sight="walls")), "line_of_sight should be a list"),
    "string size": (_bytes(_file(resolution={"map_size": {"x": "4", "y": 3}})),
                    "resolution.map_size.x should be a number"),
    "NaN": (SMALL.replace(b'"x": 5,', b'"x": NaN,', 1), "line_of_sight[0][1].x is not a finite"),
    "huge": (SMALL.replace(b'"x": 5,', b'"x": 1e300,', 1), "is too large"),
    "too big a map": (_bytes(_file(resolution={"map_size": {"x": 400, "y": 3}})),
                      "Battlemap maps are 1 to 300 squares"),
    "50,000 points": (_bytes(_file(line_of_sight=[[{"x": i % 7, "y": 1} for i in range(50_000)]])),
                      "wall points; the limit is 20000"),
    "100,000 px": (_bytes(_file(image=base64.b64encode(_png(100_000, 100_000)).decode())),
                   "the image is 100000×100000 px; the limit is 64 megapixels"),
    "bad portal": (_bytes(_file(portals=[{"bounds": [{"x": 1, "y": 1}]}])),
                   "portals[0].bounds should hold two points"),
    "bad colour": (_bytes(_file(lights=[{"position": {"x": 1, "y": 1}, "color": 7}])),
                   "lights[0].color should be an AARRGGBB"),
    "no resolution": (b"{}", "resolution should be an object"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_files_refused(case: str) -> None:
    data, message = BROKEN[case]
    with pytest.raises(UvttImportError, match=r"^broken: ") as error:
        import_uvtt(data, "broken")
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_limits_are_configurable() -> None:
    with pytest.raises(UvttImportError, match="3 wall points; the limit is 2"):
        import_uvtt(_bytes(_file(portals=[], objects_line_of_sight=[])), "f",
                    ImportLimits(max_wall_points=2))
    with pytest.raises(UvttImportError, match="image is over"):
        import_uvtt(SMALL, "f", ImportLimits(max_image_bytes=10))
    with pytest.raises(UvttImportError, match="file is over"):
        import_uvtt(SMALL, "f", ImportLimits(max_file_bytes=10))


# --- fuzzing -------------------------------------------------------------------------------
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["x", "y", "bounds", "closed", "position", "range", "color", "map_size",
                         "map_origin", "pixels_per_grid", "intensity"]) | st.text(max_size=3),
        inner, max_size=4),
    max_leaves=12)
KEYS = ["format", "resolution", "line_of_sight", "objects_line_of_sight", "portals", "lights",
        "image", "environment"]


def _expect_only_uvtt_errors(data: bytes) -> None:
    with contextlib.suppress(UvttImportError):
        import_uvtt(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(KEYS), JSONISH, max_size=8) | JSONISH)
def test_fuzz_json_structures(value: Any) -> None:
    _expect_only_uvtt_errors(json.dumps(value).encode())


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(KEYS), value=JSONISH)
def test_fuzz_one_key_of_a_valid_file(key: str, value: Any) -> None:
    _expect_only_uvtt_errors(_bytes(_file(**{key: value})))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SMALL) - 1), st.integers(0, 255)), max_size=6),
       st.integers(0, len(SMALL)))
def test_fuzz_byte_mutations(edits: list[tuple[int, int]], cut: int) -> None:
    data = bytearray(SMALL)
    for index, byte in edits:
        data[index] = byte
    _expect_only_uvtt_errors(bytes(data[:cut]) if cut % 3 == 0 else bytes(data))


# --- command line --------------------------------------------------------------------------
def test_cli_import_writes_a_loadable_encounter(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli.main import main

    out = tmp_path / "red.json"
    assert main(["import", str(RED), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "87 wall segments" in printed and "4 doors" in printed
    encounter = load_encounter(out)
    assert encounter.name == RED.stem and len(encounter.map.walls) == 91
    assert main(["import", str(RED), "--out", str(tmp_path / "no" / "x.json")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_cli_import_refuses_a_broken_file(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from desktop.cli.main import main

    bad = tmp_path / "bad.dd2vtt"
    bad.write_bytes(SMALL[:40])
    assert main(["import", str(bad), "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("battlemap: bad: not valid JSON") and err.count("\n") == 1
    assert not (tmp_path / "x.json").exists()


# --- what is imported must save and reopen ----------------------------------------------------
def test_odd_lights_and_scales_are_brought_within_the_encounter_limits() -> None:
    data = _file(lights=[{"position": {"x": 2, "y": 2}, "range": 1e6, "intensity": -5e5}],
                 image=base64.b64encode(_png(40, 30)).decode())
    data["resolution"]["pixels_per_grid"] = 0.001
    result = import_uvtt(_bytes(data))
    light = result.encounter.map.lights[0]
    assert (light.range_cells, light.intensity) == (10_000, -1000)
    assert result.encounter.map.background is not None
    assert result.encounter.map.background.px_per_cell == 10  # 40 px / 4 squares
    assert "no usable pixels_per_grid; taken from the image width" in result.warnings


def test_a_file_name_that_is_not_utf8_still_names_a_savable_encounter(tmp_path: Path) -> None:
    path = Path(os.fsdecode(bytes(tmp_path) + b"/crypt\xff.dd2vtt"))
    path.write_bytes(SMALL)
    encounter = import_uvtt_file(path).encounter
    assert encounter.name == "crypt\ufffd"
    save_encounter(encounter, tmp_path / "crypt.json")
    assert load_encounter(tmp_path / "crypt.json").name == "crypt\ufffd"


def test_a_file_name_with_control_characters_still_names_a_savable_encounter(
        tmp_path: Path) -> None:
    path = tmp_path / "crypt\x1b[2J.dd2vtt"
    path.write_bytes(SMALL)
    encounter = import_uvtt_file(path).encounter
    assert encounter.name == "crypt\ufffd[2J"
    save_encounter(encounter, tmp_path / "crypt.json")


def test_a_fifo_is_not_imported(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.dd2vtt")
    with pytest.raises(UvttImportError, match=r"pipe\.dd2vtt is not a regular file \(a FIFO\)"):
        import_uvtt_file(tmp_path / "pipe.dd2vtt")


def test_more_lights_than_an_encounter_holds_are_imported_up_to_its_limit() -> None:
    lights = [{"position": {"x": 1 + i % 4, "y": 1 + i // 1000}, "range": 3}
              for i in range(MAX_LIGHTS + 5)]
    result = import_uvtt(_bytes(_file(lights=lights)))
    assert len(result.encounter.map.lights) == MAX_LIGHTS
    assert f"the map has {MAX_LIGHTS + 5:,} lights; the first {MAX_LIGHTS:,}" in \
        " ".join(result.warnings)
