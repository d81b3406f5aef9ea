"""Dialogs: hazard editor, map size. Values are validated by the core models; a bad value
shows the model's message and the dialog stays open."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from core.io.fileio import describe_validation_error
from core.io.files import FileReadError, read_image_file
from core.model.limits import MAX_IMAGE_PIXELS, MAX_MAP_CELLS
from core.model.mapmodel import Background, Hazard, HazardEffect, HazardKind
from desktop.document.images import size_problem
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from core.model.grid import Cell


class HazardDialog(QDialog):
    """Create or edit a hazard; :attr:`result_hazard` is set on OK, :attr:`deleted` on
    Delete."""

    def __init__(self, cells: tuple[Cell, ...], hazard: Hazard | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit hazard" if hazard else "New hazard")
        self.cells = cells
        self.result_hazard: Hazard | None = None
        self.deleted = False
        effect = hazard.effect if hazard else HazardEffect()
        self.name = QLineEdit(hazard.name if hazard else "Pit")
        self.kind = QComboBox()
        self.kind.addItems([k.value for k in HazardKind])
        self.kind.setCurrentText((hazard.kind if hazard else HazardKind.PIT).value)
        self.damage = QLineEdit(effect.damage or "")
        self.damage.setPlaceholderText("e.g. 2d6 (empty: none)")
        self.damage_type = QLineEdit(effect.damage_type)
        self.through_armour = QCheckBox("Physical: armour (AV) reduces it")
        self.through_armour.setChecked(effect.through_armour)
        self.fall_ft = QSpinBox()
        self.fall_ft.setRange(0, 1000)
        self.fall_ft.setSingleStep(10)
        self.fall_ft.setSuffix(" ft")
        self.fall_ft.setValue(effect.fall_ft)
        self.save_target = QSpinBox()
        self.save_target.setRange(0, 20)
        self.save_target.setSpecialValueText("no save")
        self.save_target.setValue(effect.save_target or 0)
        self.save_halves = QCheckBox("A passed save halves the damage (else negates it)")
        self.save_halves.setChecked(effect.save_halves)
        self.light_cells = QDoubleSpinBox()
        self.light_cells.setRange(0, 100)
        self.light_cells.setDecimals(1)
        self.light_cells.setSuffix(" cells")
        self.light_cells.setSpecialValueText("no light")
        self.light_cells.setValue(hazard.light_cells if hazard else 0)
        self.light_cells.setToolTip("How far beyond its own cells it lights a dark map "
                                    "(a brazier: 4 cells); the party sees what it lights")
        self.expires_after_round = hazard.expires_after_round if hazard else None
        self.notes = QLineEdit(effect.notes)
        self.gm_only = QCheckBox("Hidden from the players (GM only)")
        self.gm_only.setChecked(hazard.gm_only if hazard else False)
        self.gm_only.setToolTip("Never drawn in the player window or the player render")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b")
        self.error.setWordWrap(True)
        self._layout(hazard is not None)

    def _layout(self, editing: bool) -> None:
        form = QFormLayout()
        for label, widget in (("Name", self.name), ("Kind", self.kind),
                              ("Damage dice", self.damage), ("Damage type", self.damage_type),
                              ("", self.through_armour), ("Fall depth", self.fall_ft),
                              ("Own save (d20 ≥)", self.save_target), ("", self.save_halves),
                              ("Gives light", self.light_cells), ("Notes", self.notes),
                              ("", self.gm_only)):
            form.addRow(label, widget)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        if editing:
            delete = buttons.addButton("Delete hazard",
                                       QDialogButtonBox.ButtonRole.DestructiveRole)
            delete.clicked.connect(self._delete)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(f"{len(self.cells)} cell(s)"))
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def build(self) -> Hazard:
        """The hazard described by the fields; ValidationError if a field is invalid."""
        effect = HazardEffect(
            damage=self.damage.text().strip() or None, damage_type=self.damage_type.text(),
            through_armour=self.through_armour.isChecked(), fall_ft=self.fall_ft.value(),
            save_target=self.save_target.value() or None,
            save_halves=self.save_halves.isChecked(), notes=self.notes.text())
        return Hazard(name=self.name.text().strip(), kind=HazardKind(self.kind.currentText()),
                      cells=self.cells, effect=effect, gm_only=self.gm_only.isChecked(),
                      light_cells=self.light_cells.value(),
                      expires_after_round=self.expires_after_round)

    def _accept(self) -> None:
        try:
            self.result_hazard = self.build()
        except ValidationError as error:
            self.error.setText(describe_validation_error(error))
            return
        self.accept()

    def _delete(self) -> None:
        self.deleted = True
        self.accept()


class MapSizeDialog(QDialog):
    """Ask for a map size in cells."""

    def __init__(self, width: int, height: int, title: str, parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.width_box, self.height_box = QSpinBox(), QSpinBox()
        for box, value in ((self.width_box, width), (self.height_box, height)):
            box.setRange(1, MAX_MAP_CELLS)
            box.setValue(value)
            box.setSuffix(" cells")
        form = QFormLayout(self)
        form.addRow("Width", self.width_box)
        form.addRow("Height", self.height_box)
        form.addRow(ok_cancel(self))

    @property
    def size(self) -> tuple[int, int]:
        return self.width_box.value(), self.height_box.value()


IMAGE_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


class BackgroundDialog(QDialog):
    """Choose a map image and align it: where the grid's corner is in the image (pixels) and
    how many image pixels one cell spans. :attr:`result_background` is the outcome (None
    when the GM removes the image)."""

    def __init__(self, current: Background | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Background image")
        self.data, self.format = (current.data_base64, current.format) if current else (None, "")
        self.result_background: Background | None = current
        self.file_label = QLabel("embedded image" if self.data else "no image")
        choose = QPushButton("Choose image…")
        choose.setToolTip("PNG, JPEG or WebP; the image is stored inside the encounter file")
        choose.clicked.connect(self._choose)
        self.offset_x, self.offset_y = _pixels(current.offset_x if current else 0), \
            _pixels(current.offset_y if current else 0)
        self.px_per_cell = QDoubleSpinBox()
        self.px_per_cell.setRange(4, 1000)
        self.px_per_cell.setValue(current.px_per_cell if current else 70)
        self.px_per_cell.setToolTip("Image pixels per grid cell (Dungeondraft exports use 256, "
                                    "many maps 70 or 100)")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b")
        form = QFormLayout(self)
        form.addRow(self.file_label, choose)
        form.addRow("Grid origin x in the image", self.offset_x)
        form.addRow("Grid origin y in the image", self.offset_y)
        form.addRow("Pixels per cell", self.px_per_cell)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        remove = buttons.addButton("Remove image", QDialogButtonBox.ButtonRole.DestructiveRole)
        remove.clicked.connect(self._remove)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def load_file(self, path: Path) -> bool:
        """Read an image file; False (and a message) if it is not a PNG, JPEG or WebP, or
        has more pixels than a map image may (read from its header: nothing is decoded)."""
        image_format = IMAGE_FORMATS.get(path.suffix.lower())
        try:
            raw = read_image_file(path)
        except FileReadError as error:
            self.error.setText(f"Cannot read it: {error}")
            return False
        problem = ("it is not a PNG, JPEG or WebP image" if image_format is None
                   else size_problem(raw, MAX_IMAGE_PIXELS))
        if problem:
            self.error.setText(f"Cannot use {path.name}: {problem}")
            return False
        self.data, self.format = base64.b64encode(raw).decode("ascii"), image_format
        self.file_label.setText(path.name)
        self.error.clear()
        return True

    def _choose(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Background image", "",
                                              "Images (*.png *.jpg *.jpeg *.webp)")
        if name:
            self.load_file(Path(name))

    def build(self) -> Background | None:
        if not self.data:
            return None
        return Background(data_base64=self.data, format=self.format,
                          offset_x=self.offset_x.value(), offset_y=self.offset_y.value(),
                          px_per_cell=self.px_per_cell.value())

    def _accept(self) -> None:
        self.result_background = self.build()
        self.accept()

    def _remove(self) -> None:
        self.result_background = None
        self.accept()


def _pixels(value: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(-100000, 100000)
    box.setSuffix(" px")
    box.setValue(value)
    return box


class SurpriseDialog(QDialog):
    """The party's state of alert and the ambushers' stealth bonus for a surprise check."""

    def __init__(self, levels: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Surprise check")
        self.alertness = QComboBox()
        self.alertness.addItems(levels)
        self.alertness.setToolTip("002 State of alert: the party's bonus to the Spot save")
        self.stealth = QSpinBox()
        self.stealth.setRange(-10, 20)
        self.stealth.setToolTip("Ambushers' stealth bonus (002: Dex + Covert vs 9)")
        self.moved = QSpinBox()
        self.moved.setRange(0, 300)
        self.moved.setSingleStep(5)
        self.moved.setSuffix(" ft")
        self.moved.setToolTip("How far the ambushers move to strike: they attack from segment "
                              "1 + 1 per 5 ft, one free attack per segment; those past "
                              "segment 10 are lost (002 Surprise)")
        form = QFormLayout(self)
        form.addRow("State of alert", self.alertness)
        form.addRow("Ambushers' stealth bonus", self.stealth)
        form.addRow("Ambushers move", self.moved)
        form.addRow(ok_cancel(self))


def ok_cancel(dialog: QDialog) -> QDialogButtonBox:
    """OK and Cancel wired to accept and reject."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons
