"""Level of detail zoomed out (desktop.map.overview): tokens too small on screen are drawn as
dots by one item, hazards as one tinted image, and everything still behaves as on a map
drawn item by item: what the GM sees, selection, drags, edits, undo."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken, RemoveToken, UpdateCombatant
from core.model.combatant import Condition
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, WallSegment
from core.model.tables import Size
from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.map.items import DETAIL_PX, DOWN_GREY, TokenItem
from desktop.map.overview import NO_CONTENTS
from desktop.qt import (
    QApplication,
    QColor,
    QEvent,
    QImage,
    QObject,
    QPainter,
    QPaintEvent,
    QPoint,
    QRect,
    QStyleOptionGraphicsItem,
    Qt,
)
from tests.desktop.qt_fixtures import cell_point

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def zoom_to(window: MainWindow, cell_px: float) -> None:
    """Zoom so that a cell is ``cell_px`` screen pixels across, and paint."""
    renderer = window.scene.renderer
    window.view.zoom_by(cell_px / renderer.length(window.view.zoom))
    window.view.viewport().repaint()


def shown(window: MainWindow) -> QImage:
    return window.view.viewport().grab().toImage()


def colour_at(window: MainWindow, image: QImage, x: float, y: float) -> QColor:
    """The colour on screen at grid point (x, y)."""
    scene_point = window.scene.renderer.to_scene(x, y)
    point = window.view.mapFromScene(scene_point)
    return image.pixelColor(point)


def near(a: QColor, b: QColor, tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in
               ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue())))


def drawn_by_dots(item: TokenItem) -> bool:
    return bool(item.flags() & NO_CONTENTS)


def test_tokens_small_on_screen_are_dots_in_their_sides_colour(window: MainWindow) -> None:
    scene = window.scene
    assert not any(drawn_by_dots(item) for item in scene.tokens.values())  # the demo at fit
    zoom_to(window, 4)  # a Huge giant: 12 px, under DETAIL_PX
    assert all(drawn_by_dots(item) for item in scene.tokens.values())
    image = shown(window)
    party, opposition = style.SIDE_COLOURS.values()
    assert near(colour_at(window, image, 6.5, 9.5), party)  # Mira, Medium
    assert near(colour_at(window, image, 8, 9), opposition)  # the ogre, Large
    zoom_to(window, 3 * DETAIL_PX)
    assert not any(drawn_by_dots(item) for item in scene.tokens.values())
    assert not near(colour_at(window, shown(window), 6.5, 9.5), party)  # initials on cream


def test_a_big_token_keeps_its_detail_while_small_ones_are_dots(window: MainWindow) -> None:
    zoom_to(window, DETAIL_PX / 2.5)  # a Medium token 5.6 px, the Huge giant 16.8 px
    tokens = window.scene.tokens
    assert drawn_by_dots(tokens["mira"]) and drawn_by_dots(tokens["ogre"])
    assert not drawn_by_dots(tokens["giant"])


def test_a_selected_dot_is_ringed(window: MainWindow) -> None:
    zoom_to(window, 6)
    mira = window.scene.tokens["mira"]
    mira.setSelected(True)
    window.view.viewport().repaint()
    assert drawn_by_dots(mira)
    image = shown(window)
    assert near(colour_at(window, image, 6.5, 9.5), style.SIDE_COLOURS[mira.token.combatant.side])
    ring = colour_at(window, image, 6.5, 9.5 - 3.6 / 6)  # the disc is 5.3 px across
    assert near(ring, style.SELECTION, 40)


def test_a_rubber_band_at_low_zoom_selects_the_dots(qtbot: QtBot, window: MainWindow) -> None:
    zoom_to(window, 5)
    viewport = window.view.viewport()
    start, end = cell_point(window, 3, 3), cell_point(window, 12, 12)
    qtbot.mousePress(viewport, LEFT, NONE, start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + (end - start) * step / 5)
    qtbot.mouseRelease(viewport, LEFT, NONE, end)
    selected = {i.token_id for i in window.scene.selectedItems() if isinstance(i, TokenItem)}
    assert {"mira", "ogre", "pip", "kobold"} <= selected


def test_a_dragged_dot_draws_itself_on_the_way_and_lands_among_the_dots(
        qtbot: QtBot, window: MainWindow, drag: Callable[..., None]) -> None:
    zoom_to(window, 8)
    mira = window.scene.tokens["mira"]
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, LEFT, NONE, cell_point(window, 6, 9))
    qtbot.mouseMove(viewport, cell_point(window, 6, 12))
    assert not drawn_by_dots(mira)  # on the way: it draws itself where the pointer is
    qtbot.mouseRelease(viewport, LEFT, NONE, cell_point(window, 6, 12))
    mira.setSelected(False)
    assert window.document.encounter.token("mira").cell == Cell(6, 12)
    assert drawn_by_dots(mira)
    window.view.viewport().repaint()
    image = shown(window)
    party = style.SIDE_COLOURS[mira.token.combatant.side]
    assert near(colour_at(window, image, 6.5, 12.5), party)
    assert not near(colour_at(window, image, 6.5, 9.5), party)


def test_edits_and_undo_move_and_remove_dots(window: MainWindow) -> None:
    zoom_to(window, 8)
    party = style.SIDE_COLOURS[window.scene.tokens["mira"].token.combatant.side]
    window.document.push(MoveToken("mira", Cell(1, 14)))
    window.view.viewport().repaint()
    assert near(colour_at(window, shown(window), 1.5, 14.5), party)
    window.document.undo()
    window.document.push(RemoveToken("mira"))
    window.view.viewport().repaint()
    image = shown(window)
    assert not near(colour_at(window, image, 1.5, 14.5), party)
    assert not near(colour_at(window, image, 6.5, 9.5), party)
    window.document.undo()
    window.view.viewport().repaint()
    assert near(colour_at(window, shown(window), 6.5, 9.5), party)


def test_what_changed_zoomed_in_is_what_the_dots_show_zoomed_out(window: MainWindow) -> None:
    """Every resting token keeps its dot while it draws itself, so a move, a token down
    and a selection made zoomed in are what the dots show after zooming out."""
    zoom_to(window, 3 * DETAIL_PX)
    window.document.push(MoveToken("mira", Cell(1, 14)))
    orc = window.document.encounter.token("orc").combatant
    window.document.push(UpdateCombatant("orc", orc.model_copy(update={"hp": 0})))
    window.scene.tokens["brannoc"].setSelected(True)
    zoom_to(window, 6)
    image = shown(window)
    party = style.SIDE_COLOURS[window.scene.tokens["mira"].token.combatant.side]
    assert near(colour_at(window, image, 1.5, 14.5), party)
    assert not near(colour_at(window, image, 6.5, 9.5), party)
    assert near(colour_at(window, image, 9.5, 5.5), DOWN_GREY)
    assert near(colour_at(window, image, 10.5, 5.5 - 3.6 / 6), style.SELECTION, 40)


def test_a_zoom_step_past_a_size_threshold_recomputes_no_dot(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Crossing a size's threshold flags that size's items and nothing more: recomputing
    245 Huge tokens' dots there made the wheel notch 2–5 ms longer on a big map."""
    zoom_to(window, 3 * DETAIL_PX)
    asked: list[str] = []
    at_rest = TokenItem.at_rest
    monkeypatch.setattr(TokenItem, "at_rest", lambda item: asked.append(item.token_id)
                        or at_rest(item))
    zoom_to(window, 4)  # every size a dot, the Huge giant too
    assert all(drawn_by_dots(item) for item in window.scene.tokens.values())
    assert asked == []



def test_a_token_grown_by_an_edit_follows_its_new_sizes_threshold(
        window: MainWindow, qtbot: QtBot) -> None:
    """The scene keeps its token items by size for the zoom step that flags one size:
    an item whose size an edit changed is flagged with its new size, and after undo with
    its old one."""
    window.document.push(MoveToken("mira", Cell(2, 12)))  # room to grow
    mira = window.scene.tokens["mira"]

    def zoom_and_rest(cell_px: float) -> None:
        zoom_to(window, cell_px)
        qtbot.waitUntil(lambda: not window.scene.faces.zooming)

    zoom_and_rest(DETAIL_PX / 2.5)  # a Medium token 5.6 px: a dot; a Huge one 16.8 px
    assert drawn_by_dots(mira)
    combatant = window.document.encounter.token("mira").combatant
    assert window.document.push(UpdateCombatant("mira", combatant.model_copy(
        update={"size": Size.HUGE})))
    zoom_and_rest(3 * DETAIL_PX)
    zoom_and_rest(DETAIL_PX / 2.5)
    assert not drawn_by_dots(mira)  # Huge: in detail at this zoom, as the giant
    window.document.undo()
    zoom_and_rest(3 * DETAIL_PX)
    zoom_and_rest(DETAIL_PX / 2.5)
    assert drawn_by_dots(mira)

class PaintedAreas(QObject):
    """The bounding rectangles of a widget's paint events."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(event, QPaintEvent):
            self.rects.append(event.region().boundingRect())
        return False


def test_selecting_a_token_drawn_in_detail_repaints_only_around_it(window: MainWindow
                                                                   ) -> None:
    """Its dot is kept, not drawn, and the dot's area (four times the token's) is not
    repainted: a press on a Gargantuan token at zoom 1 repainted most of the view."""
    window.view.resetTransform()
    window.view.centre_on_cell(Cell(8, 9))
    viewport = window.view.viewport()
    viewport.repaint()
    painted = PaintedAreas()
    viewport.installEventFilter(painted)
    try:
        window.scene.tokens["ogre"].setSelected(True)  # Large: 100 px a side at zoom 1
        for _ in range(3):
            QApplication.processEvents()
    finally:
        viewport.removeEventFilter(painted)
    assert painted.rects
    assert max(max(r.width(), r.height()) for r in painted.rects) < 150


def test_hazards_are_one_tint_zoomed_out(window: MainWindow, qtbot: QtBot) -> None:
    """Zoomed out the hazards are one tint; zoomed in again they draw themselves once
    the wheel has rested (not in the notch that passes the threshold)."""
    scene = window.scene
    fire = next(i for i in scene.hazard_items if i.hazard.name == "Brazier fire")
    zoom_to(window, 6)
    assert scene.hazard_tint.holding and fire.flags() & NO_CONTENTS
    assert not fire.label.isVisible()
    image = shown(window)
    tinted, bare = colour_at(window, image, 3.5, 3.5), colour_at(window, image, 2.5, 3.5)
    assert tinted.red() > bare.red() and tinted.blue() < bare.blue()  # fire: orange
    zoom_to(window, 40)
    assert scene.faces.zooming and scene.hazard_tint.holding
    qtbot.waitUntil(lambda: not scene.faces.zooming)
    assert not scene.hazard_tint.holding and not fire.flags() & NO_CONTENTS
    assert fire.label.isVisible()


def test_the_scene_follows_a_zoom_set_without_a_word(window: MainWindow) -> None:
    """A transform set directly (not through the view's zoom methods) still changes what
    is drawn as dots before the next frame is painted."""
    zoom_to(window, 5)
    window.view.resetTransform()  # zoom 1: a cell is 50 px
    window.view.viewport().repaint()
    assert not any(drawn_by_dots(item) for item in window.scene.tokens.values())
    assert window.scene.dots.sizes == frozenset()


def test_the_players_map_draws_dots_too(window: MainWindow) -> None:
    window.table.show_player_window(True)
    players = window.table.player_window
    assert players is not None
    try:
        view, scene = players.view, players.scene
        view.zoom_by(4 / scene.renderer.length(view.zoom))
        view.centre_on_cell(Cell(6, 9))
        view.viewport().repaint()
        assert all(drawn_by_dots(item) for item in scene.tokens.values())
        point = view.mapFromScene(scene.renderer.to_scene(6.5, 9.5))
        image = view.viewport().grab().toImage()
        mira = scene.tokens["mira"].token.combatant
        assert near(image.pixelColor(point), style.SIDE_COLOURS[mira.side])
    finally:
        players.close()


def test_a_dot_is_where_the_token_is(window: MainWindow) -> None:
    """The dot's middle is the token's middle (a Large token, two cells)."""
    zoom_to(window, 6.5)
    image = shown(window)
    ogre = window.scene.tokens["ogre"]
    opposition = style.SIDE_COLOURS[ogre.token.combatant.side]
    for x, y in ((8, 9), (7.5, 9), (8.5, 9), (8, 8.5), (8, 9.5)):
        assert near(colour_at(window, image, x, y), opposition), (x, y)
    assert not near(colour_at(window, image, 7.03, 8.03), opposition)  # the corner


def wall_image(window: MainWindow, zoom: float, coarse: bool) -> QImage:
    """The wall layer over the whole map at ``zoom``, from fine or merged chunks."""
    walls = window.scene.walls
    area = walls.boundingRect()
    image = QImage(int(area.width() * zoom) + 1, int(area.height() * zoom) + 1,
                   QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.scale(zoom, zoom)
    painter.translate(-area.topLeft())
    option = QStyleOptionGraphicsItem()
    option.exposedRect = area  # type: ignore[attr-defined]
    walls.COARSE_BELOW_PX = math.inf if coarse else 0.0
    walls.paint(painter, option, None)
    painter.end()
    return image


def test_merged_wall_chunks_draw_the_same_walls(window: MainWindow) -> None:
    fine, coarse = wall_image(window, 0.1, False), wall_image(window, 0.1, True)
    pixels = [(x, y) for x in range(fine.width()) for y in range(fine.height())]
    differ = sum(fine.pixel(x, y) != coarse.pixel(x, y) for x, y in pixels)
    assert any(fine.pixel(x, y) for x, y in pixels)
    assert differ <= len(pixels) // 100  # antialiasing where two strokes meet


def test_a_long_wall_shows_where_its_middle_is_off_screen(window: MainWindow) -> None:
    """Walls are kept in the chunk of their middle: one crossing the view from far
    away must still be drawn."""
    long_wall = WallSegment(x1=0, y1=1, x2=60, y2=1)  # its middle: cell 30, a chunk on
    window.document.replace(Encounter(map=BattleMap(width=60, height=8, walls=[long_wall])),
                            None, saved=False)
    window.view.resetTransform()
    window.view.centre_on_cell(Cell(1, 3))
    window.view.viewport().repaint()
    wall_colour = style.WALL_COLOURS[long_wall.kind]
    assert near(colour_at(window, shown(window), 0.5, 1), wall_colour, 30)


def test_a_token_picture_follows_its_hit_points(window: MainWindow) -> None:
    """A token's picture is kept per zoom step; an edit draws it anew (the HP bar of the
    Large ogre turns from green to red), and the zoom step after shows the edit too."""
    window.view.resetTransform()
    window.view.centre_on_cell(Cell(8, 9))
    window.view.viewport().repaint()
    bar = (7.6, 9.5)  # inside the HP bar of the ogre at (7, 8), at any HP above a tenth
    assert near(colour_at(window, shown(window), *bar), QColor("#2ea043"), 30)
    ogre = window.document.encounter.token("ogre").combatant
    window.document.push(UpdateCombatant("ogre", ogre.model_copy(update={"hp": 6})))
    window.view.viewport().repaint()
    assert near(colour_at(window, shown(window), *bar), QColor("#d7263d"), 30)
    window.view.zoom_by(1.6)
    window.view.centre_on_cell(Cell(8, 9))
    window.view.viewport().repaint()
    assert near(colour_at(window, shown(window), *bar), QColor("#d7263d"), 30)


def on_screen(window: MainWindow) -> QImage:
    """What the screen shows of the map (Qt's partial repaints included), unlike
    ``shown``, which paints the whole view afresh."""
    viewport = window.view.viewport()
    for _ in range(5):
        QApplication.processEvents()
    top = viewport.window()
    grabbed = top.screen().grabWindow(top.winId()).toImage()
    corner = viewport.mapTo(top, QPoint(0, 0))
    return grabbed.copy(corner.x(), corner.y(), viewport.width(), viewport.height())


def trail_pixels(window: MainWindow) -> int:
    """Pixels where the screen differs from a fresh full repaint (a trail, a hole)."""
    screen = on_screen(window).convertToFormat(QImage.Format.Format_RGB32)
    fresh = shown(window).convertToFormat(QImage.Format.Format_RGB32)
    return sum(not near(screen.pixelColor(x, y), fresh.pixelColor(x, y), 24)
               for y in range(screen.height()) for x in range(screen.width()))


def test_a_token_shrunk_to_a_dot_leaves_no_ring_behind(window: MainWindow) -> None:
    """A review found a Huge token turned Medium zoomed out left arcs of its ring on
    screen: Qt skipped its old area once it was drawn as a dot."""
    window.document.push(MoveToken("mira", Cell(2, 12)))
    zoom_to(window, 10)
    window.view.centre_on_cell(Cell(3, 12))
    window.view.viewport().update()
    mira = window.document.encounter.token("mira").combatant
    window.document.push(UpdateCombatant("mira", mira.model_copy(update={"size": Size.HUGE})))
    assert trail_pixels(window) == 0
    window.document.undo()
    assert trail_pixels(window) == 0


def test_condition_badges_stay_inside_the_token_zoomed_in(window: MainWindow) -> None:
    """Nothing clips a token's paint: a badge's outline past its bounds stayed on screen
    as a sliver when the token moved."""
    pip = window.document.encounter.token("pip").combatant
    window.document.push(UpdateCombatant("pip", pip.model_copy(
        update={"conditions": frozenset({Condition.PRONE})})))
    window.view.resetTransform()
    window.view.zoom_by(4)
    window.view.centre_on_cell(Cell(4, 3))
    window.view.viewport().update()
    assert trail_pixels(window) == 0  # painted, settled
    window.document.push(MoveToken("pip", Cell(3, 3)))  # up and left: off its old top edge
    assert trail_pixels(window) == 0
