"""The token's portrait in the panels: picked from a file (the token menu's Portrait…,
the combatant form's Choose…) and shown as a thumbnail; the file is made into an embedded
portrait by :mod:`desktop.document.portraits`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.actions.portraits import SetPortrait
from desktop.document.images import art_of
from desktop.document.portraits import PortraitError, portrait_from_file
from desktop.qt import (
    QFileDialog,
    QHBoxLayout,
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
