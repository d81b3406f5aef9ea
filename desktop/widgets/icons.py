"""The tools' icons, drawn by QPainter from a few strokes on a 24 × 24 grid, so they stay
sharp at any size and UI scale (table mode enlarges the tool bar's icons) without the SVG
plugin, which the standalone build leaves out. Each icon is a list of shapes:

- ``("path", "M x y L x y Q cx cy x y C c1x c1y c2x c2y x y Z", filled)`` — absolute
  commands only;
- ``("circle", cx, cy, r, filled)``; ``("rect", x, y, w, h, filled)``.

>>> sorted(TOOL_SHAPES) == sorted(["select", "shove", "attack", "missile", "manoeuvre",
...     "ruler", "wall", "door", "erase", "terrain", "elevation", "hazard", "fog"])
True
>>> path_of("M 1 2 L 3 4 Z").elementCount()
3
"""

from __future__ import annotations

from desktop.qt import (
    QColor,
    QIcon,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPointF,
    QRectF,
    Qt,
)

Shape = tuple[object, ...]
GRID = 24
INK = QColor("#2f2f2f")
#: Pixel sizes drawn for each icon (Qt picks the nearest; each also at 2× for HiDPI).
SIZES = (16, 20, 24, 32, 40, 48, 64)
RATIOS = (1.0, 2.0)
#: Every pixmap an icon holds, as (pixels, device pixel ratio).
EVERY_SIZE: tuple[tuple[int, float], ...] = tuple((px, ratio) for px in SIZES for ratio in RATIOS)
#: The tool bar's icons at UI scale 100 % (table mode scales them).
TOOL_ICON_PX = 24

TOOL_SHAPES: dict[str, list[Shape]] = {
    "select": [("path", "M 6 3 L 6 19 L 10 15 L 13 21 L 15.5 20 L 12.5 14 L 18 14 Z", True)],
    "shove": [("circle", 6, 12, 3.5, False),
              ("path", "M 10.5 12 L 17 12 M 14 8.5 L 17.5 12 L 14 15.5", False),
              ("rect", 19.5, 4, 2.5, 16, True)],
    "attack": [("path", "M 4 20 L 16 8 L 20 4 L 19 9 L 17 11 M 7 13 L 11 17 M 3 21 L 6 18",
                False)],
    "missile": [("path", "M 6 3 Q 17 12 6 21", False),
                ("path", "M 6 3 L 6 21", False),
                ("path", "M 3 12 L 21 12 M 18 9 L 21 12 L 18 15", False)],
    "manoeuvre": [("circle", 9, 12, 5.5, False), ("circle", 15, 12, 5.5, False)],
    "ruler": [("path", "M 3 15 L 15 3 L 21 9 L 9 21 Z", False),
              ("path", "M 7 11 L 9 13 M 10 8 L 12 10 M 13 5 L 15 7", False)],
    "wall": [("path", "M 4 18 L 20 6", False),
             ("circle", 4, 18, 2.2, True), ("circle", 20, 6, 2.2, True)],
    "door": [("rect", 6, 3, 12, 18, False), ("circle", 15, 12.5, 1.3, True)],
    "erase": [("path", "M 8 20 L 3 15 L 13 5 L 20 12 L 12 20 Z M 8 10 L 15 17", False),
              ("path", "M 12 20 L 21 20", False)],
    "terrain": [("rect", 3, 3, 18, 18, False), ("path", "M 12 3 L 12 21 M 3 12 L 21 12",
                                                       False),
                ("rect", 3, 3, 9, 9, True), ("rect", 12, 12, 9, 9, True)],
    "elevation": [("path", "M 2 20 L 9 9 L 13 14 L 16 10 L 22 20 Z", False),
                  ("path", "M 18 8 L 18 2 M 15.5 4.5 L 18 2 L 20.5 4.5", False)],
    "hazard": [("path", "M 12 3 L 22 20 L 2 20 Z", False),
               ("path", "M 12 9 L 12 14.5", False), ("circle", 12, 17.3, 1.1, True)],
    "fog": [("path", "M 6 18 Q 2 18 2 14.5 Q 2 11 6 11 Q 7 6 12 6 Q 17 6 18 10 "
                     "Q 22 10.5 22 14 Q 22 18 18 18 Z", False),
            ("path", "M 7 21 L 17 21", False)],
}


def tool_icon(name: str, sizes: tuple[tuple[int, float], ...] = EVERY_SIZE) -> QIcon:
    """The icon of the tool called ``name`` (a :attr:`MapTool.name`) with the pixmaps of
    ``sizes`` (every size unless :func:`sizes_shown` says which few are needed)."""
    icon = QIcon()
    for size, ratio in sizes:
        icon.addPixmap(_pixmap(TOOL_SHAPES[name], size, ratio))
    return icon


def sizes_shown(px: int, ratio: float) -> tuple[tuple[int, float], ...]:
    """The pixmaps an icon shown at ``px`` pixels and device pixel ratio ``ratio`` needs to
    look exactly as the whole icon does there: the one drawn at that size, which Qt picks
    among all (an exact size and ratio is its best match), or all of them for a size not
    among them (Qt scales the nearest).

    >>> sizes_shown(24, 1.0), len(sizes_shown(24, 1.5)) == len(EVERY_SIZE)
    (((24, 1.0),), True)
    """
    return ((px, ratio),) if (px, ratio) in EVERY_SIZE else EVERY_SIZE


def _pixmap(shapes: list[Shape], size: int, ratio: float) -> QPixmap:
    pixmap = QPixmap(round(size * ratio), round(size * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(size / GRID, size / GRID)
    pen = QPen(INK, 1.8)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    for shape in shapes:
        _draw(painter, shape)
    painter.end()
    return pixmap


def _draw(painter: QPainter, shape: Shape) -> None:
    kind, *numbers, filled = shape
    painter.setBrush(INK if filled else Qt.BrushStyle.NoBrush)
    if kind == "path":
        painter.drawPath(path_of(str(numbers[0])))
    elif kind == "circle":
        x, y, r = (float(str(n)) for n in numbers)
        painter.drawEllipse(QPointF(x, y), r, r)
    else:
        painter.drawRect(QRectF(*(float(str(n)) for n in numbers)))


def path_of(commands: str) -> QPainterPath:
    """A painter path from absolute M, L, Q, C and Z commands (SVG's syntax, spaces only)."""
    path = QPainterPath()
    words = commands.split()
    steps = {"M": (2, path.moveTo), "L": (2, path.lineTo), "Q": (4, path.quadTo),
             "C": (6, path.cubicTo)}
    index = 0
    while index < len(words):
        command = words[index]
        if command == "Z":
            path.closeSubpath()
            index += 1
            continue
        count, step = steps[command]
        step(*(float(word) for word in words[index + 1:index + 1 + count]))
        index += 1 + count
    return path
