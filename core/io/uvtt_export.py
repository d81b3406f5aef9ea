"""Universal VTT export (.dd2vtt): an encounter's map written back for other tools.

The file is what :mod:`core.io.uvtt` reads, so import → export → import keeps every wall,
door, window, sight-only object and light (docs/file-format.md, "Universal VTT export"):

- ``resolution``: ``map_origin`` 0, 0; ``map_size`` the map's squares; ``pixels_per_grid``
  the image's.
- walls clipped to the map (the importer drops what lies beyond), runs of walls end to end
  written as one ``line_of_sight`` polyline (so an imported map's polylines come back as
  they were); sight-only objects as ``objects_line_of_sight``;
- doors as ``portals`` with ``closed: true`` (a map starts with its doors shut; the
  importer reads an open portal as a window), windows with ``closed: false``;
- lights with their position, range, colour and intensity;
- ``image``: the map's background when it lines up with the grid (offset 0, 0, exactly
  ``map_size`` × ``pixels_per_grid`` pixels), else the picture the caller rendered of the
  drawn map (:class:`MapImage`), else none (walls only).

The bytes are imported again before they are returned: what would not import is refused
with :class:`UvttExportError` and nothing is written.

>>> from core.model.mapmodel import BattleMap, WallSegment
>>> wall = [WallSegment(x1=0, y1=0, x2=2, y2=0), WallSegment(x1=2, y1=0, x2=2, y2=2)]
>>> data = json.loads(export_uvtt(Encounter(map=BattleMap(width=4, height=3, walls=wall))))
>>> data["line_of_sight"], data["resolution"]["map_size"]
([[{'x': 0.0, 'y': 0.0}, {'x': 2.0, 'y': 0.0}, {'x': 2.0, 'y': 2.0}]], {'x': 4, 'y': 3})
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.io.fileio import write_atomic
from core.io.uvtt import UvttImportError, image_size, import_uvtt
from core.model.encounter import Encounter
from core.model.limits import MAX_FILE_BYTES
from core.model.mapmodel import BattleMap, Light, WallKind, WallSegment
from core.spatial.geometry import clip_segment

FORMAT = 0.3  # Dungeondraft's, which every reader takes
#: The rendered picture of a drawn map: at most this many pixels (the importer takes 64
#: megapixels; a 300 × 300 map is 13 px a square), and at most this many per square.
RENDER_MEGAPIXELS = 16.0
RENDER_MAX_PX_PER_CELL = 70
RENDER_MIN_PX_PER_CELL = 4
#: Ambient light for the map's darkness (Dungeondraft's ``environment.ambient_light``).
AMBIENT = {"daylight": "ffffffff", "dim": "ff7f7f7f", "dark": "ff1a1a1a"}


class UvttExportError(ValueError):
    """The map cannot be exported as it is (nothing was written); the message says why."""


@dataclass(frozen=True)
class MapImage:
    """The map's picture: image bytes (PNG, WebP or JPEG) exactly ``map_size`` ×
    ``px_per_cell`` pixels, the grid's origin at its top-left corner."""

    data: bytes
    px_per_cell: float


def render_px_per_cell(battle_map: BattleMap) -> int:
    """The pixels per square to render a drawn map at (within :data:`RENDER_MEGAPIXELS`).

    >>> render_px_per_cell(BattleMap(width=30, height=20)), render_px_per_cell(
    ...     BattleMap(width=300, height=300))
    (70, 13)
    """
    fit = math.sqrt(RENDER_MEGAPIXELS * 1e6 / (battle_map.width * battle_map.height))
    return max(RENDER_MIN_PX_PER_CELL, min(RENDER_MAX_PX_PER_CELL, math.floor(fit)))


def background_image(battle_map: BattleMap) -> MapImage | None:
    """The background as the exported image, when it lines up with the grid as a Universal
    VTT image must (else the caller renders the drawn map)."""
    background = battle_map.background
    if background is None or not background.data_base64:
        return None
    if background.offset_x or background.offset_y:
        return None
    raw = base64.b64decode(background.data_base64)
    sniffed = image_size(raw)
    if sniffed is None or sniffed[1] is None:
        return None
    width, height = sniffed[1]
    ppg = background.px_per_cell
    if abs(width - battle_map.width * ppg) > 1 or abs(height - battle_map.height * ppg) > 1:
        return None
    return MapImage(raw, ppg)


def export_uvtt(encounter: Encounter, image: MapImage | None = None) -> bytes:
    """The ``.dd2vtt`` file's bytes; ``image`` when the background does not line up
    (:func:`background_image`). UvttExportError when the file would not import again."""
    battle_map = encounter.map
    picture = background_image(battle_map) or image
    walls = _clipped(battle_map)
    data = {
        "format": FORMAT,
        "resolution": {"map_origin": {"x": 0, "y": 0},
                       "map_size": {"x": battle_map.width, "y": battle_map.height},
                       "pixels_per_grid": _number(picture.px_per_cell if picture else 70)},
        "line_of_sight": _polylines([w for w in walls if w.kind is WallKind.WALL]),
        "objects_line_of_sight": _polylines([w for w in walls if w.kind is WallKind.OBJECT]),
        "portals": [_portal(w) for w in walls if w.kind in (WallKind.DOOR, WallKind.WINDOW)],
        "environment": {"baked_lighting": False,
                        "ambient_light": AMBIENT[battle_map.darkness.value]},
        "lights": [_light(light) for light in battle_map.lights],
        "image": base64.b64encode(picture.data).decode("ascii") if picture else "",
    }
    raw = json.dumps(data, allow_nan=False).encode("utf-8")
    _check(raw, encounter.name)
    return raw


def write_uvtt(encounter: Encounter, path: Path,
               draw_map: Callable[[Encounter], MapImage]) -> bool:
    """Write the ``.dd2vtt`` file to ``path`` (atomically); the map is drawn by
    ``draw_map`` when the background does not line up. Whether it was drawn.
    UvttExportError or OSError: nothing was written."""
    image = draw_map(encounter) if background_image(encounter.map) is None else None
    write_atomic(path, export_uvtt(encounter, image))
    return image is not None


def _check(raw: bytes, name: str) -> None:
    """Refuse what the importer would refuse: the export must open again."""
    if len(raw) > MAX_FILE_BYTES:
        raise UvttExportError(f"cannot export: the file would be {len(raw) // 2**20} MiB; "
                              f"the limit is {MAX_FILE_BYTES // 2**20} MiB")
    try:
        import_uvtt(raw, name or "map")
    except UvttImportError as error:
        raise UvttExportError(f"cannot export: {error}") from None


def _clipped(battle_map: BattleMap) -> list[WallSegment]:
    """The walls as the importer will keep them: clipped to the map, points dropped."""
    kept = []
    for wall in battle_map.walls:
        clipped = clip_segment(wall.points, battle_map.width, battle_map.height)
        if clipped is None or math.hypot(clipped[2] - clipped[0], clipped[3] - clipped[1]) < 1e-6:
            continue
        x1, y1, x2, y2 = clipped
        kept.append(wall.model_copy(update={"x1": x1, "y1": y1, "x2": x2, "y2": y2}))
    return kept


def _polylines(walls: list[WallSegment]) -> list[list[dict[str, float]]]:
    """Runs of walls in their order, each starting where the last one ended, as one
    polyline (each consecutive pair of points is one wall again on import)."""
    lines: list[list[dict[str, float]]] = []
    end: tuple[float, float] | None = None
    for wall in walls:
        if (wall.x1, wall.y1) != end:
            lines.append([_point(wall.x1, wall.y1)])
        lines[-1].append(_point(wall.x2, wall.y2))
        end = (wall.x2, wall.y2)
    return lines


def _portal(wall: WallSegment) -> dict[str, object]:
    x1, y1, x2, y2 = wall.points
    return {"position": _point((x1 + x2) / 2, (y1 + y2) / 2),
            "bounds": [_point(x1, y1), _point(x2, y2)],
            "rotation": math.atan2(y2 - y1, x2 - x1),
            "closed": wall.kind is WallKind.DOOR, "freestanding": False}


def _light(light: Light) -> dict[str, object]:
    return {"position": _point(light.x, light.y), "range": light.range_cells,
            "intensity": light.intensity, "color": light.colour, "shadows": True}


def _point(x: float, y: float) -> dict[str, float]:
    return {"x": float(x), "y": float(y)}


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
