"""Headless rendering of an encounter's map to a PNG (docs, tests, bug reports): as the GM
sees it, or as the players do (``--view player``: the player window's scene, with the fog
of war and without GM-only tokens and hazards)."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from core.io.fileio import EncounterFileError, load_encounter, write_atomic
from desktop.cli.errors import CliError
from desktop.document.document import EncounterDocument
from desktop.document.portraits import png_bytes
from desktop.map.fog_layer import PlayerViewModel
from desktop.map.players import PlayerScene
from desktop.map.scene import MapScene
from desktop.qt import QImage, QPainter, QRectF
from desktop.system.application import application

if TYPE_CHECKING:
    from pathlib import Path

    from core.model.encounter import Encounter

MARGIN_PX = 20
VIEWS = ("gm", "player")


def render_encounter(encounter: Encounter, width: int, height: int, view: str = "gm"
                     ) -> QImage:
    """The map drawn as in the GM's map view (``view`` "gm") or the player window
    ("player"), fitted into a width × height QImage."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    application()
    document = EncounterDocument(encounter)
    scene = (PlayerScene(document, PlayerViewModel(document)) if view == "player"
             else MapScene(document))
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(scene.backdrop)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    source = scene.renderer.map_rect(encounter.map.width, encounter.map.height)
    target = QRectF(MARGIN_PX, MARGIN_PX, width - 2 * MARGIN_PX, height - 2 * MARGIN_PX)
    scene.render(painter, target, source)
    painter.end()
    return image


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", text)
    if not match:
        raise CliError(f"--size wants WIDTHxHEIGHT in pixels (e.g. 1600x1000), got {text!r}")
    width, height = int(match[1]), int(match[2])
    if not (64 <= width <= 16384 and 64 <= height <= 16384):
        raise CliError(f"--size {width}x{height} is outside 64..16384 pixels per side")
    return width, height


def render_command(file: Path, out: Path, size: str, view: str = "gm") -> int:
    width, height = parse_size(size)
    try:
        encounter = load_encounter(file)
    except EncounterFileError as error:
        raise CliError(str(error)) from None
    png = png_bytes(render_encounter(encounter, width, height, view))
    if png is None:
        raise CliError(f"cannot encode a {width}×{height} PNG")
    try:  # atomic: a full disk leaves the old file (or none), never a partial one
        write_atomic(out, png)
    except OSError as error:
        raise CliError(f"cannot write {out}: {error.strerror or error}") from None
    print(f"wrote {out} ({width}×{height}, {view} view)")
    return 0
