"""The wall layer strokes again only the chunks a wall edit touches, and ends up as if all
the walls were drawn afresh."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.model.mapmodel import WallKind, WallSegment
from desktop.map.renderer import MapRenderer
from desktop.map.wall_layer import WallLayer


def strokes(layer: WallLayer) -> dict[tuple[int, int], list[tuple[int, str]]]:
    """Per chunk: each stroke's path length and pen colour."""
    return {chunk: sorted((path.elementCount(), pen.color().name()) for _, pen, path in found)
            for chunk, found in layer._fine.strokes.items() if found}


def test_an_edit_strokes_only_its_chunks_and_ends_as_drawn_afresh(qtbot: QtBot) -> None:
    walls = [WallSegment(x1=x, y1=0, x2=x, y2=1) for x in range(0, 64, 2)]
    door = WallSegment(x1=40, y1=3, x2=40, y2=4, kind=WallKind.DOOR)
    layer = WallLayer(MapRenderer())
    layer.set_walls([*walls, door])
    far_chunk = layer._fine.strokes[(0, 0)]
    opened = door.model_copy(update={"open": True})
    layer.change([opened], [door])
    assert layer._fine.strokes[(0, 0)] is far_chunk  # untouched
    afresh = WallLayer(MapRenderer())
    afresh.set_walls([*walls, opened])
    assert strokes(layer) == strokes(afresh)
    layer.change([], [opened, walls[0]])
    afresh.set_walls(walls[1:])
    assert strokes(layer) == strokes(afresh)


def test_copies_of_a_wall_are_stroked_once_and_stay_until_the_last_goes(qtbot: QtBot) -> None:
    wall = WallSegment(x1=2, y1=0, x2=2, y2=3)
    door = WallSegment(x1=2, y1=0, x2=2, y2=3, kind=WallKind.DOOR)
    single = WallLayer(MapRenderer())
    single.set_walls([wall, door])
    stacked = WallLayer(MapRenderer())
    stacked.set_walls([wall] * 500 + [door])
    assert strokes(stacked) == strokes(single)
    stacked.change([], [wall] * 499)
    assert strokes(stacked) == strokes(single)
    stacked.change([], [wall])
    single.set_walls([door])
    assert strokes(stacked) == strokes(single)
