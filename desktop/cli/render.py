"""Headless rendering of an encounter's map to a PNG (docs, tests, bug reports): as the GM
sees it, or as the players do (``--view player``: the player window's scene, with the fog
of war and without GM-only tokens and hazards)."""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING

from core.io.fileio import EncounterFileError, load_encounter, write_atomic
from desktop.cli.errors import CliError, one_line
from desktop.document.images import art_of
from desktop.document.portraits import png_bytes
from desktop.map.picture import MARGIN_PX, VIEWS, render_encounter

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["MARGIN_PX", "VIEWS", "parse_size", "render_command", "render_encounter"]


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
    notes = art_of(encounter).notes()
    if notes:  # drawn without it: say so, on one line
        print(f"battlemap: {one_line(notes)}", file=sys.stderr)
    try:  # atomic: a full disk leaves the old file (or none), never a partial one
        write_atomic(out, png)
    except OSError as error:
        raise CliError(f"cannot write {out}: {error.strerror or error}") from None
    print(f"wrote {out} ({width}×{height}, {view} view)")
    return 0
