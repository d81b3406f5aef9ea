"""A Universal VTT file with an 8000×8000 map image (80×80 squares at 100 px), written once
per run into a scratch folder: rooms of floor tiles with shading and noise (so the JPEG is
as large as a drawn map's), walls along the room sides and a door in each."""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

from desktop.qt import QBuffer, QByteArray, QColor, QImage, QPainter, QPen, QRectF

IMAGE_PX = 8000
PX_PER_SQUARE = 100
SQUARES = IMAGE_PX // PX_PER_SQUARE
ROOM = 10  # squares


def _image(rng: random.Random) -> bytes:
    """The map image as JPEG bytes."""
    image = QImage(IMAGE_PX, IMAGE_PX, QImage.Format.Format_RGB32)
    image.fill(QColor(96, 84, 70))
    painter = QPainter(image)
    for gy in range(SQUARES):
        for gx in range(SQUARES):
            shade = rng.randint(150, 200)
            painter.fillRect(QRectF(gx * PX_PER_SQUARE + 2, gy * PX_PER_SQUARE + 2,
                                    PX_PER_SQUARE - 4, PX_PER_SQUARE - 4),
                             QColor(shade, shade - 12, shade - 30))
    painter.setPen(QPen(QColor(40, 30, 20), 18))
    for i in range(0, SQUARES + 1, ROOM):
        painter.drawLine(i * PX_PER_SQUARE, 0, i * PX_PER_SQUARE, IMAGE_PX)
        painter.drawLine(0, i * PX_PER_SQUARE, IMAGE_PX, i * PX_PER_SQUARE)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QBuffer.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPEG", 88)
    return bytes(data.data())


def _walls() -> tuple[list[list[dict[str, float]]], list[dict[str, Any]]]:
    """Room sides as polylines with a one-square gap for a door in each."""
    walls: list[list[dict[str, float]]] = []
    doors: list[dict[str, Any]] = []
    for i in range(0, SQUARES + 1, ROOM):
        for j in range(0, SQUARES, ROOM):
            door = j + ROOM // 2
            for a, b in ((j, door), (door + 1, j + ROOM)):
                walls.append([{"x": i, "y": a}, {"x": i, "y": b}])
                walls.append([{"x": a, "y": i}, {"x": b, "y": i}])
            if 0 < i < SQUARES:
                for bounds in ([{"x": i, "y": door}, {"x": i, "y": door + 1}],
                               [{"x": door, "y": i}, {"x": door + 1, "y": i}]):
                    doors.append({"position": bounds[0], "bounds": bounds, "rotation": 0,
                                  "closed": True, "freestanding": False})
    return walls, doors


def big_uvtt(folder: Path) -> Path:
    """Write the file into ``folder`` (once) and return its path."""
    path = folder / "big-8000px.dd2vtt"
    if path.exists():
        return path
    walls, doors = _walls()
    document = {"format": 0.3,
                "resolution": {"map_origin": {"x": 0, "y": 0},
                               "map_size": {"x": SQUARES, "y": SQUARES},
                               "pixels_per_grid": PX_PER_SQUARE},
                "line_of_sight": walls, "objects_line_of_sight": [], "portals": doors,
                "lights": [], "environment": {"baked_lighting": True,
                                              "ambient_light": "ffffffff"},
                "image": base64.b64encode(_image(random.Random(8000))).decode("ascii")}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
