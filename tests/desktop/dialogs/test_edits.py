"""The small dialogs: a hazard, the map's size and background, who is surprised. Values go
through the core models; a bad value shows the model's message and the dialog stays open."""

from __future__ import annotations

from pathlib import Path

from core.actions.commands import SetBackground
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardKind
from desktop.cli.render import render_encounter
from desktop.dialogs.edits import BackgroundDialog, HazardDialog, MapSizeDialog, SurpriseDialog
from desktop.mainwindow import MainWindow
from desktop.qt import QColor
from tests.desktop.qt_fixtures import red_image


def test_hazard_dialog_refuses_bad_dice_and_builds_a_hazard(window: MainWindow) -> None:
    dialog = HazardDialog((Cell(1, 1), Cell(2, 1)), parent=window)
    dialog.name.setText("Acid pool")
    dialog.kind.setCurrentText("spell")
    dialog.damage.setText("2x6")
    dialog._accept()
    assert "is not dice" in dialog.error.text() and dialog.result_hazard is None
    dialog.damage.setText("2d6")
    dialog.save_target.setValue(12)
    dialog._accept()
    hazard = dialog.result_hazard
    assert hazard is not None and hazard.kind is HazardKind.SPELL
    assert hazard.effect.damage == "2d6" and hazard.effect.save_target == 12


def test_size_and_surprise_dialogs_offer_their_values(window: MainWindow) -> None:
    size = MapSizeDialog(30, 20, "Resize map", window)
    size.width_box.setValue(400)  # clamped to the 300-cell limit
    assert size.size == (300, 20)
    levels = [a.name for a in window.document.encounter.profile.alertness]
    surprise = SurpriseDialog(levels, window)
    assert surprise.alertness.count() == 4 and surprise.alertness.currentText() == levels[0]


def test_background_dialog_embeds_and_aligns_an_image(window: MainWindow,
                                                     tmp_path: Path) -> None:
    dialog = BackgroundDialog(None, window)
    assert dialog.load_file(red_image(tmp_path / "map.webp"))
    dialog.px_per_cell.setValue(70)
    background = dialog.build()
    assert background is not None and background.format == "webp"
    window.document.push(SetBackground(background))
    assert window.document.encounter.map.background == background
    # 140 px at 70 px per cell covers cells (0,0)-(1,1): red under cell (1, 1) in a render
    image = render_encounter(window.document.encounter, 960, 640)
    cell_px = (960 - 40) / 24
    pixel = QColor(image.pixel(int(20 + 1.5 * cell_px), int(20 + 1.5 * cell_px)))
    assert pixel.red() > 200 and pixel.green() < 60
    window.document.undo()
    assert window.document.encounter.map.background is None


def test_a_file_that_is_not_an_image_is_refused(window: MainWindow, tmp_path: Path) -> None:
    bogus = tmp_path / "notes.png"
    bogus.write_text("not an image", "utf-8")
    dialog = BackgroundDialog(None, window)
    assert not dialog.load_file(bogus)
    assert "not a PNG, JPEG or WebP" in dialog.error.text()
    assert dialog.build() is None


def test_hazard_dialog_sets_the_light_it_gives_and_keeps_a_timed_fires_round(
        window: MainWindow) -> None:
    oil = Hazard(name="Burning oil", kind=HazardKind.FIRE, cells=(Cell(4, 4),),
                 expires_after_round=3)
    dialog = HazardDialog(oil.cells, oil, parent=window)
    assert dialog.light_cells.text() == "no light"
    dialog.light_cells.setValue(2.5)
    dialog._accept()
    assert dialog.result_hazard == oil.model_copy(update={"light_cells": 2.5})
