"""Universal VTT export (core/io/uvtt_export.py): every real map round-trips import →
export → import with the same walls, doors, windows, objects and lights; drawn maps export
what they hold; what would not import again is refused."""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path

import pytest

from core.io.uvtt import import_uvtt, import_uvtt_file
from core.io.uvtt_export import (
    MapImage,
    UvttExportError,
    background_image,
    export_uvtt,
    render_px_per_cell,
)
from core.model.encounter import Encounter
from core.model.mapmodel import Background, BattleMap, Light, WallKind, WallSegment

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = sorted([*(ROOT / "tests" / "fixtures" / "uvtt").glob("*.dd2vtt"),
                   *Path("/work/shared/fixtures/uvtt").glob("*.dd2vtt")])
PNG_1x1 = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                        "0000000d4944415478da63f8cfc0f01f0005000201a0b9a3550000000049454e44"
                        "ae426082")


def _walls(encounter: Encounter) -> Counter[tuple[object, ...]]:
    return Counter((w.kind, w.open, *w.points) for w in encounter.map.walls)


def _lights(encounter: Encounter) -> list[Light]:
    return list(encounter.map.lights)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.parent.parent.name}/{p.name}")
def test_every_real_map_round_trips(path: Path) -> None:
    first = import_uvtt_file(path)
    again = import_uvtt(export_uvtt(first.encounter), path.stem)
    assert _walls(again.encounter) == _walls(first.encounter)
    assert _lights(again.encounter) == _lights(first.encounter)
    assert (again.walls, again.objects, again.doors, again.windows, again.lights) == (
        first.walls, first.objects, first.doors, first.windows, first.lights)
    assert (again.encounter.map.width, again.encounter.map.height) == (
        first.encounter.map.width, first.encounter.map.height)
    background = again.encounter.map.background
    assert background is not None and first.encounter.map.background is not None
    assert background.data_base64 == first.encounter.map.background.data_base64
    assert background.px_per_cell == first.encounter.map.background.px_per_cell


def test_the_fixtures_are_there() -> None:
    assert len(FIXTURES) >= 4


def test_a_drawn_map_exports_its_walls_doors_windows_objects_and_lights() -> None:
    walls = [WallSegment(x1=1, y1=1, x2=4, y2=1), WallSegment(x1=4, y1=1, x2=4, y2=3),
             WallSegment(x1=0, y1=5, x2=1, y2=5, kind=WallKind.DOOR, open=True),
             WallSegment(x1=2, y1=5, x2=3, y2=5, kind=WallKind.WINDOW),
             WallSegment(x1=5, y1=5, x2=6, y2=6, kind=WallKind.OBJECT),
             WallSegment(x1=7, y1=0, x2=20, y2=0)]  # beyond the map: clipped to it
    light = Light(x=2.5, y=2.5, range_cells=4, colour="ff336699", intensity=0.5)
    encounter = Encounter(map=BattleMap(width=8, height=6, walls=walls, lights=[light]))
    data = json.loads(export_uvtt(encounter, MapImage(PNG_1x1, 1)))
    assert data["line_of_sight"] == [
        [{"x": 1.0, "y": 1.0}, {"x": 4.0, "y": 1.0}, {"x": 4.0, "y": 3.0}],
        [{"x": 7.0, "y": 0.0}, {"x": 8.0, "y": 0.0}]]
    assert [p["closed"] for p in data["portals"]] == [True, False]  # doors written shut
    assert data["lights"] == [{"position": {"x": 2.5, "y": 2.5}, "range": 4.0,
                               "intensity": 0.5, "color": "ff336699", "shadows": True}]
    again = import_uvtt(json.dumps(data).encode()).encounter
    assert [w.kind for w in again.map.walls].count(WallKind.DOOR) == 1
    assert [w.kind for w in again.map.walls].count(WallKind.WINDOW) == 1
    assert [w.kind for w in again.map.walls].count(WallKind.OBJECT) == 1


def test_an_aligned_background_is_the_image_and_a_shifted_one_is_not() -> None:
    png = base64.b64encode(PNG_1x1).decode()
    aligned = BattleMap(width=1, height=1, background=Background(data_base64=png,
                                                                 px_per_cell=1))
    assert background_image(aligned) == MapImage(PNG_1x1, 1)
    shifted = aligned.model_copy(update={"background": Background(
        data_base64=png, px_per_cell=1, offset_x=3)})
    assert background_image(shifted) is None
    wrong_scale = aligned.model_copy(update={"background": Background(
        data_base64=png, px_per_cell=70)})
    assert background_image(wrong_scale) is None
    rendered = MapImage(PNG_1x1 + b"", 1)
    data = json.loads(export_uvtt(Encounter(map=shifted), rendered))
    assert base64.b64decode(data["image"]) == PNG_1x1


def test_without_an_image_the_walls_go_alone() -> None:
    exported = import_uvtt(export_uvtt(Encounter(map=BattleMap(width=3, height=3))))
    assert exported.encounter.map.background is None
    assert "the file has no image; walls only" in exported.warnings


def test_a_map_the_importer_would_refuse_is_not_exported() -> None:
    walls = [WallSegment(x1=i % 50, y1=i // 50, x2=i % 50 + 0.5, y2=i // 50 + 0.5)
             for i in range(12_000)]  # 24,000 points apart: over the importer's 20,000
    with pytest.raises(UvttExportError, match="wall points; the limit is 20000"):
        export_uvtt(Encounter(map=BattleMap(width=60, height=300, walls=walls)))


def test_the_rendered_picture_stays_within_its_pixel_budget() -> None:
    for width, height in ((1, 1), (30, 20), (300, 300), (300, 1)):
        ppc = render_px_per_cell(BattleMap(width=width, height=height))
        assert 4 <= ppc <= 70
        assert width * height * ppc * ppc <= 16e6 or ppc == 4
