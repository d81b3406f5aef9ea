"""Token art: an image file made into an embedded portrait (portraits are decoded for the
map by :mod:`desktop.document.images`).

Any PNG, JPEG or WebP the GM picks (a 4000-pixel photo too, up to a map image's pixels)
becomes a 256 × 256 PNG cropped to its centre square, so a portrait costs at most ~200 KB
in the file and draws fast at any zoom; it is decoded at about that size (a JPEG decodes
scaled). Files are read only through :func:`core.io.files.read_image_file` (regular files,
size-capped), so a FIFO or a device never blocks the GUI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.io.files import FileReadError, read_image_file
from core.model.limits import MAX_IMAGE_PIXELS
from core.model.portrait import Portrait
from desktop.document.images import PORTRAIT_PX, ImageRefusedError, decode_within
from desktop.qt import QBuffer, QImage, Qt

if TYPE_CHECKING:
    from pathlib import Path


class PortraitError(ValueError):
    """An image file that cannot become a portrait; the message says why."""


def portrait_from_file(path: Path) -> tuple[str, Portrait]:
    """The portrait (and its key) made from the image file at ``path``."""
    try:
        raw = read_image_file(path)
    except FileReadError as error:
        raise PortraitError(str(error)) from None
    try:
        image = decode_within(raw, MAX_IMAGE_PIXELS, fit=PORTRAIT_PX, cover=True)
    except ImageRefusedError as error:
        raise PortraitError(f"{path.name} cannot be a portrait: {error}") from None
    png = png_bytes(_square(image))
    if png is None:
        raise PortraitError(f"{path.name} could not be made into a PNG portrait")
    return Portrait.from_bytes(png, "png")


def _square(image: QImage) -> QImage:
    side = min(image.width(), image.height())
    centre = image.copy((image.width() - side) // 2, (image.height() - side) // 2, side, side)
    return centre.scaled(PORTRAIT_PX, PORTRAIT_PX, Qt.AspectRatioMode.IgnoreAspectRatio,
                         Qt.TransformationMode.SmoothTransformation)


def png_bytes(image: QImage) -> bytes | None:
    """``image`` as PNG file bytes; None if Qt cannot encode it."""
    buffer = QBuffer()
    buffer.open(QBuffer.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        return None
    return bytes(buffer.data().data())
