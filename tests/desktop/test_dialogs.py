"""Dialogs: values go through the core models; a bad value shows the model's message."""

from __future__ import annotations

from core.model.grid import Cell
from core.model.mapmodel import HazardKind
from desktop.dialogs import HazardDialog, MapSizeDialog, SurpriseDialog
from desktop.mainwindow import MainWindow


def test_hazard_dialog_refuses_bad_dice_and_builds_a_hazard(window: MainWindow) -> None:
    dialog = HazardDialog((Cell(1, 1), Cell(2, 1)), parent=window)
    dialog.name.setText("Acid pool")
    dialog.kind.setCurrentText("spell")
    dialog.damage.setText("2x6")
    dialog._accept()
    assert "bad token" in dialog.error.text() and dialog.result_hazard is None
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
