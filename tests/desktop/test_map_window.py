"""The map window driven like a GM would: drag tokens, draw walls, paint, undo, files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.io.fileio import load_encounter, save_encounter
from core.model.grid import Cell, Direction
from core.model.mapmodel import Terrain, WallKind, WallSegment
from core.spatial.geometry import geometry_of
from desktop.cli.main import main
from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.map.items import MIN_BADGE_PX
from desktop.map.scene import MIN_HAZARD_NAME_CELL_PX, MapScene
from desktop.qt import (
    QApplication,
    QImage,
    QLabel,
    QPainter,
    QStyleOptionGraphicsItem,
    Qt,
    QWidgetAction,
)
from desktop.tools import select as select_tool
from tests.desktop.conftest import cell_point

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def option(window: MainWindow, tool: str, name: str) -> Any:
    """The tool bar option widget of ``tool`` named ``name`` (its accessible name)."""
    widgets = [a.defaultWidget() for a in window.tools[tool].option_actions()
               if isinstance(a, QWidgetAction)]
    return next(w for w in widgets if w.accessibleName() == name)


def test_drag_token_moves_it_to_the_drop_cell(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    drag((6, 9), [(6, 10), (6, 11), (7, 12)])
    assert window.document.encounter.token("mira").cell == Cell(7, 12)
    assert (
        window.scene.tokens["mira"].pos() == window.scene.renderer.cell_rect(Cell(7, 12)).topLeft()
    )
    window.document.undo()
    assert window.document.encounter.token("mira").cell == Cell(6, 9)


def test_a_click_that_only_selects_builds_no_movement_graph(
        drag: Callable[..., None], qtbot: QtBot, window: MainWindow,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The graph is for the drag (0.7 ms of a press on a 300×300 map): the first move
    builds it."""
    built: list[str] = []
    make = select_tool.movement_graph
    monkeypatch.setattr(select_tool, "movement_graph",
                        lambda encounter, token: built.append(token.id) or make(encounter, token))
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, cell_point(window, 6, 9))
    assert window.scene.tokens["mira"].isSelected() and built == []
    drag((6, 9), [(6, 10), (6, 11)])
    assert built == ["mira"]
    assert window.document.encounter.token("mira").cell == Cell(6, 11)


def test_the_combatants_panel_shows_a_pressed_token_when_the_button_comes_up(
        qtbot: QtBot, window: MainWindow) -> None:
    """The press lifts the token and rings it at once; the panel follows on the release
    (its text was 2-5 ms of the press's frame)."""
    viewport, panel = window.view.viewport(), window.token_panel
    qtbot.mousePress(viewport, LEFT, NONE, cell_point(window, 6, 9))
    assert window.scene.tokens["mira"].isSelected()
    assert panel.form.token_id is None and not panel.list.selected_ids()
    qtbot.mouseRelease(viewport, LEFT, NONE, cell_point(window, 6, 9))
    assert panel.form.token_id == "mira" and panel.list.selected_ids() == ["mira"]
    assert panel.editing.text() == "Editing Mira"


def test_a_drag_shows_its_token_in_the_panel_once_where_it_lands(
        drag: Callable[..., None], window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[object] = []
    show = window.token_panel.ratings.show_ratings
    monkeypatch.setattr(window.token_panel.ratings, "show_ratings",
                        lambda ratings: shown.append(ratings) or show(ratings))
    drag((6, 9), [(6, 10), (6, 11)])
    assert window.document.encounter.token("mira").cell == Cell(6, 11)
    assert len(shown) == 1 and window.token_panel.form.token_id == "mira"


def test_drop_on_an_occupied_cell_returns_the_token(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    start = window.scene.tokens["mira"].pos()
    drag((6, 9), [(7, 9), (8, 9)])  # the Ogre stands there
    assert window.document.encounter.token("mira").cell == Cell(6, 9)
    assert window.scene.tokens["mira"].pos() == start
    assert window.document.history.index == 0


def test_drop_through_a_wall_beyond_the_budget_is_refused(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    option(window, "select", "Move budget").setValue(15)
    drag((10, 5), [(11, 5), (13, 5)])  # the wall at x = 12: around by the door
    assert window.document.encounter.token("brannoc").cell == Cell(10, 5)
    assert "Brannoc cannot move" in window.statusBar().currentMessage()
    qtbot.mousePress(window.view.viewport(), LEFT, NONE, cell_point(window, 10, 5))
    assert window.statusBar().currentMessage() == ""  # the refusal is not about this drag
    qtbot.mouseRelease(window.view.viewport(), LEFT, NONE, cell_point(window, 10, 5))
    drag((10, 5), [(10, 6), (10, 7)])  # what a drop did replaces the refusal
    assert window.statusBar().currentMessage() == "Move Brannoc: 10 ft · 2 seg"


def test_path_preview_shows_cost_and_turns_red(
    points: SimpleNamespace, qtbot: QtBot, window: MainWindow
) -> None:
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, LEFT, NONE, points.cell(6, 9))
    qtbot.mouseMove(viewport, points.cell(6, 11))
    preview = window.scene.path_preview
    assert preview.isVisible() and preview.toolTip() == "10 ft · 2 seg"
    qtbot.mouseMove(viewport, points.cell(7, 9))
    assert preview.toolTip() == "Ogre is in the way"
    qtbot.mouseRelease(viewport, LEFT, NONE, points.cell(7, 9))
    assert not preview.isVisible()


def test_alt_drag_places_freely_through_walls(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    drag((10, 5), [(12, 5), (14, 5)], Qt.KeyboardModifier.AltModifier)
    assert window.document.encounter.token("brannoc").cell == Cell(14, 5)


def test_draw_wall_with_the_tool(points: SimpleNamespace, qtbot: QtBot, window: MainWindow) -> None:
    window.select_tool("wall")
    viewport = window.view.viewport()
    start, end = points.corner(3, 2), points.corner(3, 6)
    qtbot.mousePress(viewport, LEFT, NONE, start)
    qtbot.mouseMove(viewport, end)
    qtbot.mouseRelease(viewport, LEFT, NONE, end)
    walls = window.document.encounter.map.walls
    assert walls[-1] == WallSegment(x1=3, y1=2, x2=3, y2=6)
    assert geometry_of(window.document.encounter).move_blocked(Cell(2, 4), Direction.E)
    window.document.undo()
    assert WallSegment(x1=3, y1=2, x2=3, y2=6) not in window.document.encounter.map.walls
    assert not geometry_of(window.document.encounter).move_blocked(Cell(2, 4), Direction.E)
    window.document.redo()
    assert walls[-1] == WallSegment(x1=3, y1=2, x2=3, y2=6)


def test_paint_terrain_stroke_is_one_undo_step(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    window.select_tool("terrain")
    option(window, "terrain", "Terrain").setCurrentText(Terrain.SLIPPERY.value)
    drag((2, 6), [(3, 6), (4, 6), (5, 7)])
    battle_map = window.document.encounter.map
    painted = [Cell(2, 6), Cell(3, 6), Cell(4, 6), Cell(5, 7)]
    assert all(battle_map.terrain_at(c).name is Terrain.SLIPPERY for c in painted)
    assert window.document.history.index == 1
    window.document.undo()
    assert all(battle_map.terrain_at(c).name is Terrain.NORMAL for c in painted)
    window.document.redo()
    assert battle_map.terrain_at(Cell(5, 7)).name is Terrain.SLIPPERY


def test_paint_terrain_rectangle(
    drag: Callable[..., None], qtbot: QtBot, window: MainWindow
) -> None:
    window.select_tool("terrain")
    drag((2, 2), [(4, 4)], Qt.KeyboardModifier.ShiftModifier)
    battle_map = window.document.encounter.map
    assert all(
        battle_map.terrain_at(Cell(x, y)).name is Terrain.DIFFICULT
        for x in range(2, 5)
        for y in range(2, 5)
        if (x, y) != (3, 3)
    )


def test_set_elevation_brush(drag: Callable[..., None], qtbot: QtBot, window: MainWindow) -> None:
    window.select_tool("elevation")
    option(window, "elevation", "Height").setValue(15)
    drag((8, 12), [(9, 12)])
    assert window.document.encounter.map.elevation_at(Cell(9, 12)) == 15
    assert geometry_of(window.document.encounter).elevation[12, 9] == 15


def scene_image(scene: MapScene) -> QImage:
    """The scene's background (cells, ledges, grid) over the whole map, as pixels."""
    area = scene.renderer.map_rect(scene.encounter.map.width, scene.encounter.map.height)
    image = QImage(int(area.width()), int(area.height()), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    scene.drawBackground(painter, area)
    painter.end()
    return image


def test_a_brush_step_redraws_its_cells_as_a_fresh_scene_would(
        drag: Callable[..., None], window: MainWindow) -> None:
    """Only the brushed box of the cell image and the ledge chunks around it are redrawn:
    the result is what a scene drawn from scratch shows, and not what it showed before."""
    before = scene_image(window.scene)
    window.select_tool("elevation")
    option(window, "elevation", "Height").setValue(15)
    # Cells of x = 16 begin a ledge chunk; their west edges are the chunk before's.
    drag((16, 10), [(16, 11), (16, 12), (17, 12)])
    after = scene_image(window.scene)
    assert after != before
    assert after == scene_image(MapScene(window.document))


def test_hazard_names_are_hidden_while_cells_are_tiny_on_screen(window: MainWindow) -> None:
    labels = [item.label for item in window.scene.hazard_items]
    assert labels and all(label.isVisible() for label in labels)  # the demo at fit
    window.view.zoom_by(MIN_HAZARD_NAME_CELL_PX / 2 / window.scene.renderer.length(
        window.view.zoom))
    assert not any(label.isVisible() for label in labels)
    window.view.fit_map()
    assert all(label.isVisible() for label in labels)


def test_zooming_past_the_map_size_keeps_the_viewport_size(
        qtbot: QtBot, window: MainWindow) -> None:
    """Scroll bars that appeared in the notch that zoomed past the map's size resized the
    viewport: the map jumped by a bar's width and the window was laid out mid-zoom."""
    viewport = window.view.viewport()
    qtbot.waitExposed(window)
    size = viewport.size()
    for factor in (1.5, 1.5, 1 / 1.5, 1 / 1.5, 1 / 1.5):
        window.view.zoom_by(factor)
        qtbot.wait(1)
        assert viewport.size() == size


def test_the_scroll_bars_are_flat_in_the_map_surround_and_touch_sized_at_the_table(
        qtbot: QtBot, window: MainWindow) -> None:
    """Fusion's bars, gradients and step arrows, took 0.9 and 3.0 ms to repaint, and every
    wheel notch repaints both: the map's are flat, in the colour around the map."""
    qtbot.waitExposed(window)
    bars = (window.view.horizontalScrollBar(), window.view.verticalScrollBar())
    for bar in bars:
        image = bar.grab().toImage()
        ends = (image.pixelColor(1, 1), image.pixelColor(image.width() - 2,
                                                          image.height() - 2))
        assert [colour.name() for colour in ends] == [style.BACKGROUND.name()] * 2
    window.table.mode.set_percent(200)
    QApplication.processEvents()
    touch = window.table.mode.target_px()
    assert (bars[0].height(), bars[1].width()) == (touch, touch)


def test_click_door_opens_it(points: SimpleNamespace, qtbot: QtBot, window: MainWindow) -> None:
    point = points.corner(12, 8)
    window.statusBar().showMessage("Brannoc cannot move to (14, 7): a wall is in the way")
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, point)
    doors = [w for w in window.document.encounter.map.walls if w.kind is WallKind.DOOR]
    assert doors[0].open
    assert not geometry_of(window.document.encounter).move_blocked(Cell(11, 7), Direction.E)
    assert window.statusBar().currentMessage() == "Door opened"  # not the last refusal
    qtbot.mouseClick(window.view.viewport(), LEFT, NONE, point)
    assert window.statusBar().currentMessage() == "Door closed"


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


def test_render_writes_a_png_of_the_requested_size(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    demo = Path(__file__).resolve().parents[2] / "assets" / "demo_encounter.json"
    assert main(["render", str(demo), "--out", str(out), "--size", "800x500"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 500)
    colours = {image.pixel(x, y) for x in range(0, 800, 20) for y in range(0, 500, 20)}
    assert len(colours) > 5  # not blank


@pytest.mark.parametrize("size", ["800", "10x10", "axb"])
def test_render_rejects_a_bad_size(
    tmp_path: Path, size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = Path(__file__).resolve().parents[2] / "assets" / "demo_encounter.json"
    assert main(["render", str(demo), "--out", str(tmp_path / "x.png"), "--size", size]) == 2
    assert "--size" in capsys.readouterr().err


def test_saved_file_loads_in_core(window: MainWindow, tmp_path: Path) -> None:
    target = tmp_path / "e.json"
    save_encounter(window.document.encounter, target)
    assert load_encounter(target).model_dump() == window.document.encounter.model_dump()


@pytest.mark.parametrize(("zoom", "count"), [(0.5, 1), (0.5, 3), (3.0, 2)])
def test_condition_badges_stay_readable_and_inside_the_token(window: MainWindow, zoom: float,
                                                             count: int) -> None:
    """A GM's walk-through: at fit on a big map a badge was a few pixels wide."""
    item = window.scene.tokens["ogre"]
    image = QImage(200, 200, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.scale(zoom, zoom)
    try:
        side = item._badge_side(painter, count)
    finally:
        painter.end()
    assert side * zoom >= MIN_BADGE_PX  # the Large ogre: 50 px across at half zoom
    assert side * (1 + 0.9 * (count - 1)) <= item.side_px + 1e-9


def test_switching_tools_never_moves_the_map(qtbot: QtBot, window: MainWindow) -> None:
    """The options bar is as tall as the tallest tool's options (measured one turn of the
    event loop after the window is built), and the Select tool's options are shown."""
    qtbot.waitUntil(lambda: window.options_bar.minimumHeight() > 0)
    # The bar lays out its widgets on a later turn of the event loop (a full run of the
    # suite once looked between the two turns).
    qtbot.waitUntil(option(window, "select", "Move budget").isVisible)
    top = window.view.mapToGlobal(window.view.rect().topLeft()).y()
    for name in window.tools:
        window.select_tool(name)
        QApplication.processEvents()
        assert window.view.mapToGlobal(window.view.rect().topLeft()).y() == top, name


def test_a_tool_without_options_says_how_it_works(qtbot: QtBot, window: MainWindow) -> None:
    """A GM's walk-through read "Shove: no options" in the options bar."""
    window.select_tool("shove")
    qtbot.waitUntil(lambda: any(w.isVisible() for w in window.options_bar.findChildren(QLabel)))
    labels = [w for w in window.options_bar.findChildren(QLabel) if w.isVisible()]
    assert [label.text().strip() for label in labels] == [window.tools["shove"].tooltip]
    assert not labels[0].isEnabled()  # greyed: words, not a control


def test_a_selected_token_shows_a_ring_a_gm_can_see(window: MainWindow) -> None:
    """A GM's walk-through: the selection ring was a hairline outside the token's own ring;
    the face is drawn smaller when selected, so a band of the selection colour shows."""
    item = window.scene.tokens["mira"]

    def edge_colour(selected: bool) -> str:
        item.setSelected(selected)
        zoom, side = 4, item.side_px
        image = QImage(round(side * zoom), round(side * zoom), QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.white)
        painter = QPainter(image)
        painter.scale(zoom, zoom)
        item.paint(painter, QStyleOptionGraphicsItem())
        painter.end()
        return image.pixelColor(round(side * zoom * 0.04), round(side * zoom / 2)).name()

    assert edge_colour(True) == style.SELECTION.name()
    assert edge_colour(False) != style.SELECTION.name()


@pytest.mark.qt_log_ignore("This plugin does not support")  # the offscreen popup's grabs
def test_a_press_whose_release_goes_to_a_menu_leaves_the_panel_following(
        qtbot: QtBot, window: MainWindow) -> None:
    """A review: the Manoeuvre tool opens its menu on the press, the menu takes the
    release, and the Combatants panel stayed held: it went on showing Mira, and a
    condition ticked there wrote her old conditions back. Real input, through the window."""
    from PySide6.QtTest import QTest

    qtbot.waitExposed(window)
    panel, handle = window.token_panel, window.windowHandle()
    window.selection.set({"mira"})
    window.select_tool("manoeuvre")
    window.tools["manoeuvre"].actor = "ogre"
    point = window.view.viewport().mapTo(window, cell_point(window, 6, 9))
    QTest.mousePress(handle, LEFT, NONE, point)  # opens the offers menu on the press
    QTest.mouseRelease(handle, LEFT, NONE, point)  # the menu takes it
    menu = QApplication.activePopupWidget()
    assert menu is not None
    menu.close()
    window.selection.set({"brannoc"})
    assert panel.form.token_id == "brannoc"
