"""Render the application icon's PNG sizes from its SVG (run after editing the SVG):

    python packaging/render_icons.py

The PNGs are committed, so neither the app nor the desktop entry needs an SVG renderer
(and the standalone build does not bundle QtSvg).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from desktop.system.resources import ICON_SIZES, icon_png, icon_svg


def render(renderer: QSvgRenderer, size: int, out: Path) -> None:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    if not image.save(str(out)):
        raise SystemExit(f"cannot write {out}")
    print(f"wrote {out}")


def main() -> None:
    app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(icon_svg()))
    if not renderer.isValid():
        raise SystemExit(f"{icon_svg()} is not a valid SVG")
    for size in ICON_SIZES:
        render(renderer, size, icon_png(size))
    del app


if __name__ == "__main__":
    main()
