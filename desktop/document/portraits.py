"""Token art: an image file made into an embedded portrait (portraits are decoded for the
map by :mod:`desktop.document.images`).

Any PNG, JPEG or WebP the GM picks (a 4000-pixel photo too, up to a map image's pixels)
becomes a 256 × 256 PNG cropped to its centre square, so a portrait costs at most ~200 KB
in the file and draws fast at any zoom; it is decoded at about that size (a JPEG decodes
scaled). Files are read only through :func:`core.io.files.read_image_file` (regular files,
size-capped), so a FIFO or a device never blocks the GUI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.actions.portraits import SetPortrait
from core.io.files import FileReadError, read_image_file
from core.model.limits import MAX_IMAGE_PIXELS
from core.model.portrait import Portrait
from desktop.document.images import PORTRAIT_PX, ImageRefusedError, art_of, decode_within
from desktop.qt import (
    QBuffer,
    QFileDialog,
    QHBoxLayout,
    QImage,
    QLabel,
    QMessageBox,
    QPixmap,
    QPushButton,
    Qt,
    QWidget,
)

if TYPE_CHECKING:
    from core.model.combatant import Combatant
    from desktop.document.document import EncounterDocument

IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.webp);;All files (*)"


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


def choose_portrait(document: EncounterDocument, token_id: str, parent: QWidget) -> bool:
    """Ask for an image file and show it in the token's circle (one undo step); a file
    that cannot be used is explained and nothing changes."""
    name, _ = QFileDialog.getOpenFileName(parent, "Token portrait", "", IMAGE_FILTER)
    return bool(name) and set_portrait_from_file(document, token_id, Path(name), parent)


def set_portrait_from_file(document: EncounterDocument, token_id: str, path: Path,
                           parent: QWidget) -> bool:
    try:
        key, portrait = portrait_from_file(path)
    except PortraitError as error:
        QMessageBox.warning(parent, "Cannot use that image", str(error))
        return False
    return document.push(SetPortrait(token_id, key, portrait))


class PortraitRow(QWidget):
    """The token's portrait in the combatant editor: a thumbnail, Choose… and Remove."""

    THUMB_PX = 40

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.token_id: str | None = None
        self.thumbnail = QLabel()
        self.thumbnail.setFixedSize(self.THUMB_PX, self.THUMB_PX)
        self.thumbnail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.choose = QPushButton("Choose…")
        self.choose.setToolTip("Show a PNG, JPEG or WebP image in the token's circle (cropped "
                               "square, stored in the encounter file; undoable)")
        self.choose.clicked.connect(self._choose)
        self.remove = QPushButton("Remove")
        self.remove.setToolTip("Show the initials again (undoable)")
        self.remove.clicked.connect(self._remove)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for widget in (self.thumbnail, self.choose, self.remove):
            row.addWidget(widget)
        row.addStretch(1)

    def show_combatant(self, token_id: str | None, combatant: Combatant | None) -> None:
        """The combatant's portrait, or an empty row when there is none to edit."""
        self.token_id = token_id
        pixmap = (art_of(self.document.encounter).portrait(self.document.encounter, combatant)
                  if combatant else None)
        self.thumbnail.setPixmap(pixmap.scaled(
            self.THUMB_PX, self.THUMB_PX, Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation) if pixmap else QPixmap())
        self.thumbnail.setText("" if pixmap or combatant is None else "none")
        self.choose.setEnabled(combatant is not None)
        self.remove.setEnabled(pixmap is not None)

    def _choose(self) -> None:
        if self.token_id is not None:
            choose_portrait(self.document, self.token_id, self)

    def _remove(self) -> None:
        if self.token_id is not None:
            self.document.push(SetPortrait(self.token_id, None))
