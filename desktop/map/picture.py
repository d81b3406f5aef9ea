"""Pictures of an encounter's map drawn offscreen, for files: a PNG of the map as the GM or
the players see it (``battlemap render``, replay frames), and the drawn map alone, without
tokens, as the image of a Universal VTT export (:mod:`core.io.uvtt_export`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from core.io.uvtt_export import MapImage, render_px_per_cell
from core.model.encounter import Encounter
from desktop.document.document import EncounterDocument
from desktop.document.portraits import png_bytes
from desktop.map.fog_layer import PlayerViewModel
from desktop.map.players import PlayerScene
from desktop.map.scene import MapScene
from desktop.qt import QImage, QPainter, QRectF
from desktop.system.application import application
from desktop.system.display import has_display

if TYPE_CHECKING:
    from desktop.map.scene import MapScene as Scene

MARGIN_PX = 20
VIEWS = ("gm", "player")


def render_encounter(encounter: Encounter, width: int, height: int, view: str = "gm",
                     margin: int = MARGIN_PX) -> QImage:
    """The map drawn as in the GM's map view (``view`` "gm") or the player window
    ("player"), fitted into a width × height QImage ``margin`` pixels in."""
    if not has_display(os.environ):  # a command line with no screen draws offscreen
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    application()
    document = EncounterDocument(encounter, keep_lights=False)  # drawn once: lit at once
    scene = (PlayerScene(document, PlayerViewModel(document)) if view == "player"
             else MapScene(document))
    return render_scene(scene, width, height, margin)


def render_scene(scene: Scene, width: int, height: int, margin: int = MARGIN_PX) -> QImage:
    """A scene's map fitted into a width × height QImage ``margin`` pixels in."""
    encounter = scene.document.encounter
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(scene.backdrop)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    source = scene.renderer.map_rect(encounter.map.width, encounter.map.height)
    target = QRectF(margin, margin, width - 2 * margin, height - 2 * margin)
    scene.render(painter, target, source)
    painter.end()
    return image


def map_picture(encounter: Encounter) -> MapImage:
    """The drawn map without its creatures (other tools place their own), exactly
    :func:`~core.io.uvtt_export.render_px_per_cell` pixels a square, as PNG."""
    battle_map = encounter.map
    ppc = render_px_per_cell(battle_map)
    bare = Encounter(name=encounter.name, profile=encounter.profile, map=battle_map)
    image = render_encounter(bare, battle_map.width * ppc, battle_map.height * ppc, margin=0)
    data = png_bytes(image)
    if data is None:
        raise ValueError(f"cannot encode the {image.width()}×{image.height()} map picture")
    return MapImage(data, ppc)
