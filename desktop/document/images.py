"""Images decoded within a pixel budget: the size is read from the header first, and an
image over its budget is never decoded; one under it is decoded at the size it is shown
(``QImageReader.setScaledSize``: JPEG decodes scaled, the others are scaled as they come).

A 62 KB PNG can hold 8000 × 8000 pixels: decoded whole it was a 256 MB pixmap, once per
scene, and 200 of them (an encounter's most portraits) needed ~51 GB. The budgets are the
format's (``core.model.limits``: :data:`MAX_IMAGE_PIXELS` for a map background or an image
file chosen as art, :data:`MAX_PORTRAIT_PIXELS` for an embedded portrait).
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.io.files import FileReadError, read_image_file
from core.model.limits import MAX_IMAGE_PIXELS, MAX_PORTRAIT_PIXELS
from desktop.qt import QBuffer, QByteArray, QImage, QImageReader, QPixmap, QSize, Qt

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.combatant import Combatant
    from core.model.encounter import Encounter
    from core.model.mapmodel import Background

#: The side of a portrait as tokens show it (and as the app stores one made from a file).
PORTRAIT_PX = 256


class ImageRefusedError(ValueError):
    """An image not decoded: what it is not, or how far over its budget it is."""


def _reader(raw: bytes) -> tuple[QImageReader, QBuffer]:
    buffer = QBuffer()
    buffer.setData(QByteArray(raw))
    buffer.open(QBuffer.OpenModeFlag.ReadOnly)
    return QImageReader(buffer), buffer  # the reader reads from the buffer: keep both


def size_problem(raw: bytes, max_pixels: int) -> str | None:
    """Why ``raw`` would not be decoded (not an image Qt reads, or over ``max_pixels``),
    from its header alone; None when it would."""
    reader, _buffer = _reader(raw)
    return _problem(reader.size(), max_pixels)


def _problem(size: QSize, max_pixels: int) -> str | None:
    if not size.isValid() or size.isEmpty():
        return "it is not a PNG, JPEG or WebP image"
    if size.width() * size.height() > max_pixels:
        side = math.isqrt(max_pixels)
        return (f"it is {size.width()}×{size.height()} pixels, more than the {max_pixels:,} "
                f"({side}×{side}) an image may have to be shown")
    return None


def decode_within(raw: bytes, max_pixels: int, fit: int | None = None,
                  cover: bool = False) -> QImage:
    """``raw`` decoded, no larger than ``fit`` × ``fit`` (None: as it is) keeping its
    proportions, or its shorter side ``fit`` when ``cover``; ImageRefusedError when its
    header says it is over ``max_pixels`` or it cannot be decoded."""
    reader, _buffer = _reader(raw)
    size = reader.size()
    problem = _problem(size, max_pixels)
    if problem:
        raise ImageRefusedError(problem)
    mode = (Qt.AspectRatioMode.KeepAspectRatioByExpanding if cover
            else Qt.AspectRatioMode.KeepAspectRatio)
    scaled = size if fit is None else size.scaled(fit, fit, mode)
    if scaled.width() < size.width():
        reader.setScaledSize(scaled)
    image = reader.read()
    if image.isNull():
        raise ImageRefusedError(f"it cannot be decoded ({reader.errorString()})")
    return image


@dataclass
class EncounterArt:
    """The decoded art of one encounter, shared by the GM's and the players' scenes (kept
    with the encounter: a new one starts afresh): each portrait once, at the size tokens
    show it; the background once; and what could not be shown, and why."""

    portraits: dict[str, QPixmap | None] = field(default_factory=dict)
    background: tuple[Background | None, QPixmap | None] = (None, None)
    problems: dict[str, str] = field(default_factory=dict)  # what → why not shown

    def portrait(self, encounter: Encounter, combatant: Combatant) -> QPixmap | None:
        """The combatant's portrait, or None (its initials are shown). Older files name
        an image file instead (``image``): it is read once too."""
        if combatant.portrait is not None and combatant.portrait in encounter.portraits:
            key, limit = combatant.portrait, MAX_PORTRAIT_PIXELS
            read: Callable[[], bytes] = encounter.portraits[key].raw
        elif combatant.image:
            key, limit, path = f"file:{combatant.image}", MAX_IMAGE_PIXELS, combatant.image
            read = lambda: read_image_file(path)  # noqa: E731
        else:
            return None
        if key not in self.portraits:
            self.portraits[key] = self._decode(f"{combatant.name}'s portrait", read, limit,
                                               PORTRAIT_PX)
        return self.portraits[key]

    def background_of(self, encounter: Encounter) -> QPixmap | None:
        """The map's background image, decoded at its own size, or None."""
        background = encounter.map.background
        if self.background[0] is not background:
            self.background = (background, None if background is None else self._decode(
                "the background", lambda: _background_bytes(background), MAX_IMAGE_PIXELS))
        return self.background[1]

    def _decode(self, what: str, read: Callable[[], bytes], limit: int,
                fit: int | None = None) -> QPixmap | None:
        try:
            image = decode_within(read(), limit, fit)
        except (FileReadError, ImageRefusedError) as error:
            self.problems[what] = str(error)
            return None
        self.problems.pop(what, None)
        return QPixmap.fromImage(image)

    def notes(self) -> str:
        """What is not shown and why, in a few words ("" when all is)."""
        if not self.problems:
            return ""
        what, why = next(iter(self.problems.items()))
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"{what} is not shown: {why}{more}"


def art_of(encounter: Encounter) -> EncounterArt:
    return encounter.derived(EncounterArt, EncounterArt)


def _background_bytes(background: Background) -> bytes:
    if background.data_base64:
        return base64.b64decode(background.data_base64)
    if background.path:
        return read_image_file(background.path)
    raise ImageRefusedError("it names no image")
