"""Universal VTT import (.dd2vtt, .uvtt, .df2vtt): JSON in, an encounter map out.

Format facts used here (Dungeondraft formats 0.2/0.3, Arkenforge 1.0; docs/file-format.md):

- All coordinates are **grid squares** and absolute. ``resolution.map_origin`` is the
  exported area's top-left corner and ``resolution.map_size`` its size in squares, so a
  point's map position is ``coord - map_origin``. Cropped exports still carry the whole
  map's walls and portals; whatever falls outside ``[0, map_size]`` is clipped or dropped.
- ``image`` is base64 of a PNG, WebP or JPEG exactly ``map_size * pixels_per_grid`` pixels
  big, aligned with the exported area (offset 0, 0).
- ``line_of_sight`` and ``objects_line_of_sight`` are lists of polylines (lists of
  ``{"x", "y"}``); each pair of consecutive points is one segment.
- ``portals`` have ``bounds`` (two endpoints) and ``closed``. Dungeondraft writes windows as
  portals about 0.78 squares wide (0.76-0.78 in real files), sometimes with
  ``closed: false``; doors are 1 square wide or more.
- ``lights`` have ``position``, ``range`` (squares), ``intensity`` and ``color`` (AARRGGBB).

Nothing is evaluated and no image is decoded: its size is read from the PNG IHDR, the
WebP VP8/VP8L/VP8X or the JPEG SOF header. Every problem is one :class:`UvttImportError`.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from core.io.fileio import EncounterSaveError, encounter_to_bytes
from core.io.files import FileReadError, read_regular_file
from core.io.safejson import JsonDocumentError, parse_json
from core.model.encounter import Encounter
from core.model.limits import (
    CONTROLS,
    MAX_COORDINATE,
    MAX_FILE_BYTES,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_LIGHTS,
    MAX_MAP_CELLS,
    MAX_NAME_CHARS,
    MAX_PX_PER_CELL,
    MIN_PX_PER_CELL,
)
from core.model.mapmodel import Background, BattleMap, Light, WallKind, WallSegment
from core.spatial.geometry import clip_segment

KNOWN_FORMATS = (0.2, 0.3, 1.0)
MAX_FILE_COORDINATE = 1e6  # absolute squares in the file, before the origin is subtracted
WINDOW_WIDTH = (0.70, 0.86)  # squares; Dungeondraft windows are 0.76-0.78 wide
Segment = tuple[float, float, float, float]


class UvttImportError(ValueError):
    """A Universal VTT file cannot be imported; the message says why (nothing is imported)."""


@dataclass(frozen=True)
class ImportLimits:
    """Caps against hostile or broken files. The image cap is the encounter's embedded-image
    cap, so what is imported also saves (base64 grows it by 4/3: 40 MiB → 53.3 MiB, within
    the 64 MiB encounter file cap with room for 20,000 wall points)."""

    max_file_bytes: int = MAX_FILE_BYTES
    max_image_bytes: int = MAX_IMAGE_BYTES
    max_megapixels: float = MAX_IMAGE_PIXELS / 1e6
    max_wall_points: int = 20_000


@dataclass
class UvttImport:
    """The imported encounter, what was odd about the file, and what was imported."""

    encounter: Encounter
    warnings: list[str] = field(default_factory=list)
    walls: int = 0
    objects: int = 0
    doors: int = 0
    windows: int = 0
    lights: int = 0


@dataclass(frozen=True)
class _Frame:
    """The exported area: ``origin`` in absolute squares, ``width`` × ``height`` squares."""

    ox: float
    oy: float
    width: int
    height: int

    def clip(self, x1: float, y1: float, x2: float, y2: float) -> Segment | None:
        """The segment shifted by the origin and clipped to the map, or None if outside."""
        clipped = clip_segment((x1 - self.ox, y1 - self.oy, x2 - self.ox, y2 - self.oy),
                               self.width, self.height)
        if clipped is None or math.hypot(clipped[2] - clipped[0], clipped[3] - clipped[1]) < 1e-6:
            return None
        return clipped


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UvttImportError(f"{where} should be a number, not {_kind(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UvttImportError(f"{where} is not a finite number")
    if abs(value) > MAX_FILE_COORDINATE:  # before float(): huge JSON integers overflow it
        raise UvttImportError(f"{where} is too large ({MAX_FILE_COORDINATE:g} at most)")
    return float(value)


def _object(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise UvttImportError(f"{where} should be an object, not {_kind(value)}")
    return value


def _list(value: object, where: str) -> list[object]:
    if value is None:  # optional: missing is empty
        return []
    if not isinstance(value, list):
        raise UvttImportError(f"{where} should be a list, not {_kind(value)}")
    return value


def _point(value: object, where: str) -> tuple[float, float]:
    point = _object(value, where)
    return _number(point.get("x"), f"{where}.x"), _number(point.get("y"), f"{where}.y")


def _format_warning(value: object) -> str | None:
    """``format`` may be a number or a string; unknown versions are read as 0.3."""
    if value is None:
        return "the file has no format version; read as 0.3"
    try:
        version = float(value) if isinstance(value, int | float | str) else math.nan
    except (ValueError, OverflowError):
        version = math.nan
    if isinstance(value, bool) or not any(math.isclose(version, k) for k in KNOWN_FORMATS):
        return f"unknown format version {value!r}; read as 0.3"
    return None


def _frame(resolution: dict[str, object]) -> _Frame:
    size = _point(resolution.get("map_size"), "resolution.map_size")
    origin = (_point(resolution["map_origin"], "resolution.map_origin")
              if resolution.get("map_origin") is not None else (0.0, 0.0))
    width, height = (math.ceil(v - 1e-6) for v in size)
    if not (1 <= width <= MAX_MAP_CELLS and 1 <= height <= MAX_MAP_CELLS):
        raise UvttImportError(f"the map is {size[0]:g}×{size[1]:g} squares; Battlemap maps are "
                              f"1 to {MAX_MAP_CELLS} squares on each side")
    return _Frame(origin[0], origin[1], width, height)


def _wall(s: Segment, kind: WallKind) -> WallSegment:
    return WallSegment(x1=s[0], y1=s[1], x2=s[2], y2=s[3], kind=kind)


def _count_points(data: dict[str, object], limits: ImportLimits) -> None:
    """The wall-point cap, checked before any point is read (portals count as two)."""
    lines = [line for key in ("line_of_sight", "objects_line_of_sight")
             for line in _list(data.get(key), key)]
    points = sum(len(line) for line in lines if isinstance(line, list))
    points += 2 * len(_list(data.get("portals"), "portals"))
    if points > limits.max_wall_points:
        raise UvttImportError(f"the file has {points} wall points; the limit is "
                              f"{limits.max_wall_points}")


def _segments(data: dict[str, object], key: str, kind: WallKind, frame: _Frame
              ) -> list[WallSegment]:
    """Consecutive points of each polyline, shifted and clipped to the map."""
    found: list[WallSegment] = []
    for i, line in enumerate(_list(data.get(key), key)):
        where = f"{key}[{i}]"
        points = [_point(p, f"{where}[{j}]") for j, p in enumerate(_list(line, where))]
        found += [_wall(c, kind) for a, b in itertools.pairwise(points)
                  if (c := frame.clip(*a, *b))]
    return found


def _portal(value: object, where: str, frame: _Frame) -> WallSegment | None:
    """A door, or a window (``closed: false``, or WINDOW_WIDTH squares wide)."""
    portal = _object(value, where)
    bounds = _list(portal.get("bounds"), f"{where}.bounds")
    if len(bounds) != 2:
        raise UvttImportError(f"{where}.bounds should hold two points, not {len(bounds)}")
    (x1, y1), (x2, y2) = (_point(p, f"{where}.bounds[{i}]") for i, p in enumerate(bounds))
    closed = portal.get("closed", True)
    if not isinstance(closed, bool):
        raise UvttImportError(f"{where}.closed should be true/false, not {_kind(closed)}")
    width = math.hypot(x2 - x1, y2 - y1)
    window = not closed or WINDOW_WIDTH[0] <= width <= WINDOW_WIDTH[1]
    clipped = frame.clip(x1, y1, x2, y2)
    return _wall(clipped, WallKind.WINDOW if window else WallKind.DOOR) if clipped else None


def _colour(value: object, where: str) -> str:
    text = value.lower() if isinstance(value, str) else ""
    if len(text) == 6:
        text = "ff" + text
    if len(text) != 8 or any(ch not in "0123456789abcdef" for ch in text):
        raise UvttImportError(f"{where} should be an AARRGGBB hex colour, not {value!r:.20}")
    return text


def _light(value: object, where: str, frame: _Frame) -> Light | None:
    light = _object(value, where)
    x, y = _point(light.get("position"), f"{where}.position")
    x, y = x - frame.ox, y - frame.oy
    if not (0 <= x <= frame.width and 0 <= y <= frame.height):
        return None
    reach = _number(light.get("range", 0), f"{where}.range")
    intensity = _number(light.get("intensity", 1), f"{where}.intensity")
    return Light(x=x, y=y, range_cells=min(max(reach, 0.0), MAX_COORDINATE),
                 colour=_colour(light.get("color", "ffffffff"), f"{where}.color"),
                 intensity=min(max(intensity, -1000), 1000))


def image_size(raw: bytes) -> tuple[str, tuple[int, int] | None] | None:
    """(format, (width, height) or None if the header is cut short) from the magic bytes.

    >>> image_size(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(4) + b"IHDR" + struct.pack(">II", 3, 2))
    ('png', (3, 2))
    """
    if raw.startswith(b"\x89PNG\r\n\x1a\n"):
        ok = len(raw) >= 24 and raw[12:16] == b"IHDR"
        return "png", struct.unpack(">II", raw[16:24]) if ok else None
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "webp", _webp_size(raw)
    if raw.startswith(b"\xff\xd8\xff"):
        return "jpeg", _jpeg_size(raw)
    return None


def _webp_size(raw: bytes) -> tuple[int, int] | None:
    """VP8 (lossy: 14-bit sizes after the 9d 01 2a start code), VP8L (lossless: 0x2f then
    14+14 bits of size - 1) or VP8X (extended: 24-bit size - 1 at bytes 24 and 27)."""
    chunk = raw[12:16]
    if chunk == b"VP8 " and len(raw) >= 30 and raw[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", raw[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(raw) >= 25 and raw[20] == 0x2F:
        bits = int.from_bytes(raw[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(raw) >= 30:
        return int.from_bytes(raw[24:27], "little") + 1, int.from_bytes(raw[27:30], "little") + 1
    return None


def _jpeg_size(raw: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments to the first SOFn (C0-CF except C4, C8, CC): height, width."""
    i = 2
    while i + 9 <= len(raw) and raw[i] == 0xFF:
        marker = raw[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", raw[i + 5:i + 9])
            return width, height
        i += 2 + int.from_bytes(raw[i + 2:i + 4], "big")
    return None


def _background(data: dict[str, object], resolution: dict[str, object], frame: _Frame,
                limits: ImportLimits, warnings: list[str]) -> Background | None:
    """The embedded image, sniffed and size-checked; None (with a warning) if unusable."""
    text = data.get("image")
    if text is None or text == "":
        warnings.append("the file has no image; walls only")
        return None
    if not isinstance(text, str):
        raise UvttImportError(f"image should be a base64 string, not {_kind(text)}")
    text = "".join(text.split())
    if len(text) // 4 * 3 - (len(text) - len(text.rstrip("="))) > limits.max_image_bytes:
        raise UvttImportError(f"the image is over {limits.max_image_bytes // 2**20} MiB")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        warnings.append("the image is not base64 (perhaps a file path); walls only")
        return None
    sniffed = image_size(raw)
    if sniffed is None or sniffed[1] is None:
        warnings.append("the image is not a PNG, WebP or JPEG (or its header is cut short); "
                        "walls only")
        return None
    fmt, (width, height) = sniffed[0], sniffed[1]
    if width * height > limits.max_megapixels * 1e6:
        raise UvttImportError(f"the image is {width}×{height} px; the limit is "
                              f"{limits.max_megapixels:g} megapixels")
    ppg = _px_per_cell(resolution, width, frame, warnings)
    if abs(width - frame.width * ppg) > 1 or abs(height - frame.height * ppg) > 1:
        warnings.append(f"the image is {width}×{height} px, not map_size × pixels_per_grid "
                        f"({frame.width * ppg:g}×{frame.height * ppg:g}); it may not line up")
    return Background(data_base64=text, format=fmt, px_per_cell=ppg)


def _px_per_cell(resolution: dict[str, object], image_width: int, frame: _Frame,
                 warnings: list[str]) -> float:
    if resolution.get("pixels_per_grid") is not None:
        ppg = _number(resolution["pixels_per_grid"], "resolution.pixels_per_grid")
        if MIN_PX_PER_CELL <= ppg <= MAX_PX_PER_CELL:
            return ppg
    warnings.append("no usable pixels_per_grid; taken from the image width")
    return min(max(image_width / frame.width, MIN_PX_PER_CELL), MAX_PX_PER_CELL)


def _parse(data: bytes, limits: ImportLimits) -> dict[str, object]:
    if len(data) > limits.max_file_bytes:
        raise UvttImportError(f"the file is over {limits.max_file_bytes // 2**20} MiB")
    try:
        parsed = parse_json(data)
    except JsonDocumentError as error:
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                        for part in error.path).lstrip(".")
        raise UvttImportError(f"{where} {error.problem}" if where else error.problem[:120]
                              ) from None
    return _object(parsed, "the file")


def _build(data: dict[str, object], name: str, limits: ImportLimits) -> UvttImport:
    warnings = [w for w in [_format_warning(data.get("format"))] if w]
    resolution = _object(data.get("resolution"), "resolution")
    frame = _frame(resolution)
    _count_points(data, limits)
    segments = _segments(data, "line_of_sight", WallKind.WALL, frame)
    segments += _segments(data, "objects_line_of_sight", WallKind.OBJECT, frame)
    segments += [w for i, p in enumerate(_list(data.get("portals"), "portals"))
                 if (w := _portal(p, f"portals[{i}]", frame))]
    lights = [light for i, v in enumerate(_list(data.get("lights"), "lights"))
              if (light := _light(v, f"lights[{i}]", frame))]
    if len(lights) > MAX_LIGHTS:
        warnings.append(f"the map has {len(lights):,} lights; the first {MAX_LIGHTS:,} were "
                        "imported (an encounter holds no more)")
        lights = lights[:MAX_LIGHTS]
    background = _background(data, resolution, frame, limits, warnings)
    battle_map = BattleMap(width=frame.width, height=frame.height, walls=segments,
                           background=background, lights=lights)
    kinds = [w.kind for w in segments]
    return UvttImport(Encounter(name=name, map=battle_map), warnings,
                      walls=kinds.count(WallKind.WALL), objects=kinds.count(WallKind.OBJECT),
                      doors=kinds.count(WallKind.DOOR), windows=kinds.count(WallKind.WINDOW),
                      lights=len(lights))


def import_uvtt(data: bytes, name: str = "file", limits: ImportLimits = ImportLimits()
                ) -> UvttImport:
    """Import a Universal VTT file's bytes; ``name`` names the encounter and the errors."""
    try:
        imported = _build(_parse(data, limits), name, limits)
        encounter_to_bytes(imported.encounter)  # what is imported must save and reopen
    except UvttImportError as error:
        raise UvttImportError(f"{name}: {error}") from None
    except ValidationError as error:
        raise UvttImportError(f"{name}: {error.errors()[0]['msg']}") from None
    except EncounterSaveError as error:
        raise UvttImportError(f"{name}: {error}") from None
    return imported


def import_uvtt_file(path: str | Path, limits: ImportLimits = ImportLimits()) -> UvttImport:
    """Read and import a .dd2vtt / .uvtt / .df2vtt file (the encounter is named after it)."""
    file = Path(path)
    try:
        data = read_regular_file(file, limits.max_file_bytes)
    except FileReadError as error:
        raise UvttImportError(str(error)) from None
    # A file name that is not UTF-8 decodes to lone surrogates, which no encounter can hold;
    # nor a name its control characters (a file may be called "map\nx.dd2vtt").
    name = CONTROLS.sub("\ufffd", os.fsencode(file.stem).decode("utf-8", "replace"))
    return import_uvtt(data, name[:MAX_NAME_CHARS], limits)
