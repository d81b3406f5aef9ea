"""The File menu's work: saving and opening (a corrupt file leaves the encounter untouched),
and importing Universal VTT maps (File > Import, drop, refusals, alignment)."""

from __future__ import annotations

import base64
import gc
from pathlib import Path

import pytest

from core.actions.commands import MoveToken
from core.io.fileio import load_encounter, save_encounter
from core.io.uvtt import import_uvtt_file
from core.model.grid import Cell
from desktop.cli.render import MARGIN_PX, render_encounter
from desktop.mainwindow import MainWindow
from desktop.qt import QColor, QImage
from desktop.system.resources import DEMO

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "uvtt"
SAMPLE = FIXTURES / "dd02_cropped_window_sampleMap.dd2vtt"


def test_open_imports_a_map_as_an_unsaved_encounter(window: MainWindow) -> None:
    assert window.files.open_path(SAMPLE)
    encounter = window.document.encounter
    assert (encounter.map.width, encounter.map.height) == (10, 10)
    assert window.document.path is None and window.document.modified
    assert "7 walls, 1 doors, 1 windows, 2 lights" in window.statusBar().currentMessage()
    assert window.scene.walls.boundingRect().width() > 0


def test_a_broken_map_is_refused_and_changes_nothing(window: MainWindow, tmp_path: Path,
                                                    answer_dialogs: list[str]) -> None:
    broken = tmp_path / "broken.dd2vtt"
    broken.write_bytes(SAMPLE.read_bytes()[:5000])
    before = window.document.encounter.model_dump()
    assert not window.files.open_path(broken)
    assert window.document.encounter.model_dump() == before
    assert answer_dialogs and "Cannot import map" in answer_dialogs[0]


def test_a_refused_map_leaves_no_cycle_behind(window: MainWindow, tmp_path: Path,
                                              answer_dialogs: list[str]) -> None:
    """The refused file and its error are freed when the refusal has been shown, not at
    some later collection (one that froze them would keep them: desktop.document.collector)."""
    broken = tmp_path / "broken.dd2vtt"
    broken.write_bytes(SAMPLE.read_bytes()[:5000])
    gc.collect()
    gc.disable()
    try:
        assert not window.files.open_path(broken)
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert answer_dialogs


@pytest.mark.parametrize("cell", [(2, 3), (5, 5), (8, 1)])
def test_the_image_lines_up_with_the_grid(cell: tuple[int, int]) -> None:
    """Rendered 1:1, the map pixel at a cell's centre is the image's pixel there."""
    encounter = import_uvtt_file(SAMPLE).encounter
    background = encounter.map.background
    assert background is not None and background.data_base64
    source = QImage.fromData(base64.b64decode(background.data_base64))
    px = int(background.px_per_cell)
    side = encounter.map.width * px
    rendered = render_encounter(encounter, side + 2 * MARGIN_PX, side + 2 * MARGIN_PX)
    x, y = (cell[0] * px + px // 3, cell[1] * px + px // 3)  # off the grid lines and walls
    expected = QColor(source.pixel(x, y))
    actual = QColor(rendered.pixel(MARGIN_PX + x, MARGIN_PX + y))
    assert abs(expected.red() - actual.red()) <= 6
    assert abs(expected.green() - actual.green()) <= 6
    assert abs(expected.blue() - actual.blue()) <= 6


def test_save_open_round_trip(window: MainWindow, tmp_path: Path) -> None:
    window.document.push(MoveToken("mira", Cell(6, 11)))
    target = tmp_path / "saved.json"
    assert window.files.save_to(target)
    before = window.document.encounter.model_dump()
    window.document.push(MoveToken("mira", Cell(6, 12)))
    assert window.files.open_path(target)
    assert window.document.encounter.model_dump() == before
    assert window.document.path == target
    assert str(target.resolve()) in [str(p) for p in window.files.recent()]


def test_corrupt_file_leaves_the_encounter_untouched(
    window: MainWindow, tmp_path: Path, answer_dialogs: list[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": "battlemap.encounter", "version": 1, "tokens": [', "utf-8")
    before = window.document.encounter.model_dump()
    assert not window.files.open_path(broken)
    assert window.document.encounter.model_dump() == before
    assert answer_dialogs and "not valid JSON" in answer_dialogs[0]


def test_saved_file_loads_in_core(window: MainWindow, tmp_path: Path) -> None:
    target = tmp_path / "e.json"
    save_encounter(window.document.encounter, target)
    assert load_encounter(target).model_dump() == window.document.encounter.model_dump()


def test_the_bundled_demo_opens_untitled_so_save_never_overwrites_it(
        window: MainWindow) -> None:
    assert window.files.open_path(DEMO)
    assert window.document.path is None and not window.document.modified


def test_an_encounter_built_in_the_window_asks_to_be_saved(window: MainWindow) -> None:
    window.files.new(load_encounter(DEMO), saved=False)
    assert window.document.path is None and window.document.modified
    window.files.new(load_encounter(DEMO))  # a blank start: nothing to lose
    assert not window.document.modified
