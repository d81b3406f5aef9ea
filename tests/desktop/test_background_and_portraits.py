"""Background images aligned to the grid, and token portraits."""

from __future__ import annotations

from pathlib import Path

from core.actions.commands import SetBackground, UpdateCombatant
from desktop.dialogs import BackgroundDialog
from desktop.mainwindow import MainWindow
from desktop.qt import QColor, QImage, QPainter, Qt
from desktop.render import render_encounter


def red_image(path: Path, size: int = 140) -> Path:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(QColor("red"))
    assert image.save(str(path))
    return path


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


def test_token_shows_its_portrait(window: MainWindow, tmp_path: Path) -> None:
    portrait = red_image(tmp_path / "mira.png")
    mira = window.document.encounter.token("mira").combatant
    window.document.push(UpdateCombatant("mira", mira.model_copy(update={"image": str(portrait)})))
    item = window.scene.tokens["mira"]
    image = QImage(item.boundingRect().size().toSize(), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    item.paint(painter, None, None)  # type: ignore[arg-type]
    painter.end()
    centre = QColor(image.pixel(image.width() // 2, image.height() // 3))
    assert centre.red() > 200 and centre.green() < 60
