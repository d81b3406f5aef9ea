"""``battlemap export FILE.json OUT.dd2vtt``: an encounter's map as a Universal VTT file
for other tools (:mod:`core.io.uvtt_export`); the drawn map is rendered offscreen when the
background does not line up with the grid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.io.fileio import EncounterFileError, load_encounter
from core.io.uvtt_export import UvttExportError, write_uvtt
from core.model.mapmodel import WallKind
from desktop.cli.errors import CliError

if TYPE_CHECKING:
    from pathlib import Path

    from core.io.uvtt_export import MapImage
    from core.model.encounter import Encounter


def export_command(file: Path, out: Path) -> str:
    """Write ``out``; what was written, in one line (CliError: nothing written)."""
    try:
        encounter = load_encounter(file)
    except EncounterFileError as error:
        raise CliError(str(error)) from None
    try:
        drawn = write_uvtt(encounter, out, _draw_map)
    except UvttExportError as error:
        raise CliError(str(error)) from None
    except OSError as error:
        raise CliError(f"cannot write {out}: {error.strerror or error}") from None
    kinds = [w.kind for w in encounter.map.walls]
    return (f"wrote {out}: {kinds.count(WallKind.WALL)} walls, "
            f"{kinds.count(WallKind.DOOR)} doors, {kinds.count(WallKind.WINDOW)} windows, "
            f"{kinds.count(WallKind.OBJECT)} sight-blocking objects, "
            f"{len(encounter.map.lights)} lights, "
            + ("the drawn map as the image" if drawn else "the background image"))


def _draw_map(encounter: Encounter) -> MapImage:
    from desktop.map.picture import map_picture  # Qt only when there is a map to draw

    return map_picture(encounter)
