"""The map scene: terrain, elevation and grid painted in ``drawBackground`` (one image, not
one item per cell), walls as one item, hazards and tokens as items. It redraws from the
document's change sets."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from core.model.grid import Cell
from core.model.mapmodel import TERRAIN_BY_CODE, Hazard
from core.spatial.geometry import geometry_of
from desktop.document.images import art_of
from desktop.map import style
from desktop.map.cell_image import image_of
from desktop.map.dropped import DroppedItems
from desktop.map.floor import Floor
from desktop.map.items import (
    DETAIL_PX,
    Z_TOKEN,
    FocusRing,
    HazardItem,
    PathPreview,
    TokenItem,
)
from desktop.map.labels import ScreenLabel
from desktop.map.ledges import Ledges
from desktop.map.overview import HazardTint, TokenDots, dot_sizes
from desktop.map.renderer import MapRenderer
from desktop.map.token_faces import FaceBook
from desktop.map.wall_layer import WallLayer
from desktop.qt import (
    QColor,
    QFont,
    QGraphicsScene,
    QImage,
    QLineF,
    QPainter,
    QPen,
    QPixmap,
    QRectF,
    QSignalBlocker,
    Qt,
    isValid,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from core.actions.commands import ChangeSet
    from core.model.encounter import Encounter, Token
    from desktop.document.document import EncounterDocument
    from desktop.document.selection import SelectionModel

MIN_LABEL_PX = 28
TOKEN_Z_STEP = 1e-5  # 10,000 tokens stay below the ring drawn at Z_TOKEN + 0.5
MIN_GRID_PX = 6
MIN_HAZARD_NAME_CELL_PX = 8  # hazard names hidden while a cell is smaller on screen
DISC_WHILE_ZOOMING = 2  # of DETAIL_PX: a dot grown up to this while the wheel turns stays one
# Levels of the scene's item index (a BSP tree of 2^depth leaves). Qt picks about log2 of
# the item count: 13 on the scale map's 5,000 items, and the layers covering the whole map
# (walls, dots, hazard tint, fog) sit in each of its 8,192 leaves, gathered from every one
# on each frame at fit (0.35-0.5 ms of a full repaint); lookups at a point stay as fast.
ITEM_INDEX_DEPTH = 8


class _GroundOption:
    """A View-menu switch of what the ground shows (the grid, the heights): switched, the
    floor's picture is drawn anew (:mod:`desktop.map.floor`)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attribute = f"_{name}"

    def __get__(self, scene: MapScene, owner: type | None = None) -> bool:
        return bool(getattr(scene, self.attribute))

    def __set__(self, scene: MapScene, shown: bool) -> None:
        setattr(scene, self.attribute, shown)
        scene.floor.forget()


class MapScene(QGraphicsScene):
    """Everything drawn on the map, kept in step with an :class:`EncounterDocument`."""

    for_players = False  # the players' scene (desktop.table.player_window) leaves GM things out
    show_grid = _GroundOption()
    show_elevation_numbers = _GroundOption()

    def __init__(self, document: EncounterDocument, renderer: MapRenderer | None = None
                 ) -> None:
        super().__init__()
        self.setBspTreeDepth(ITEM_INDEX_DEPTH)
        self.document = document
        self.renderer = renderer or MapRenderer()
        self._show_elevation_numbers = True
        self._show_grid = True
        self.backdrop = style.BACKGROUND
        self.tokens: dict[str, TokenItem] = {}
        # The same items by footprint side: a zoom step that turns one size into dots
        # flags only that size's items (asking 3,000 items their size took 1.2 ms).
        self._tokens_by_size: dict[int, dict[str, TokenItem]] = {}
        self.hazard_items: list[HazardItem] = []
        self._hazard_names_shown = True
        self.walls = WallLayer(self.renderer)
        self.addItem(self.walls)
        self.path_preview = PathPreview(self.renderer)
        self.addItem(self.path_preview)
        self.addItem(self.path_preview.label)
        self.focus_ring = FocusRing(self.renderer)
        self.addItem(self.focus_ring)
        self.faces = FaceBook()
        self.walls.picture.lend_while_zooming(self.faces)
        self.faces.rested.connect(self._zoom_rested)
        self._zoom = 1.0  # the view's, as last told (follow_zoom)
        self._resting_dots: frozenset[int] = frozenset()  # dot sizes at the last rest
        self._resting_zoom = 1.0
        self.dots = TokenDots()
        self.dots.picture.lend_while_zooming(self.faces)
        self.addItem(self.dots)
        self.hazard_tint = HazardTint(self.renderer)
        self.addItem(self.hazard_tint)
        self.floor = Floor(self, self._draw_ground, self.hazard_tint, self.walls, self.faces)
        self._selected: set[str] = set()
        self._cells = QImage()
        self._ledges = Ledges(self.renderer)
        self._background: QPixmap | None = None
        self._selection: SelectionModel | None = None
        self.dropped = DroppedItems(self, self.renderer, self.shows_token)
        document.changed.connect(self.apply_changes)
        document.replaced.connect(self.rebuild)
        self.selectionChanged.connect(self._dots_follow_selection)
        self.rebuild()

    @property
    def encounter(self) -> Encounter:
        return self.document.encounter

    def rebuild(self) -> None:
        """Draw everything afresh (a new or resized map)."""
        enc = self.encounter
        self.focus_ring.hide()
        area = self.renderer.map_rect(enc.map.width, enc.map.height)
        self.setSceneRect(area.adjusted(-100, -100, 100, 100))
        self.dots.set_bounds(area)
        self.hazard_tint.set_bounds(enc.map.width, enc.map.height)
        # Decoded once for the encounter (within the pixel budget), shared with the other
        # scene: the players' window draws the same pixmaps.
        self._background = art_of(enc).background_of(enc)
        self._refresh_cells()
        self.floor.forget()
        self.walls.set_walls(enc.map.walls)
        self._refresh_hazards()
        blocker = QSignalBlocker(self)  # new items for the same tokens: the same selection
        for item in self.tokens.values():
            self.removeItem(item)
        self.tokens = {}
        self._tokens_by_size = {}
        self.dots.forget()
        for token in enc.tokens:
            if self.shows_token(token.id):
                self._add_token_item(token.id)
        blocker.unblock()
        self.dropped.rebuild(enc)
        if self._selection is not None:  # a new encounter's selection is already empty
            self._show_selection(self._selection.ids)
        self.update()

    def apply_changes(self, changes: ChangeSet) -> None:
        if changes.map_shape:
            self.rebuild()
            return
        if changes.cells:
            area = self._refresh_some_cells(changes.cells)
            self.floor.redraw(area)
            self.update(area)
        if changes.walls:
            self.walls.change(changes.walls_added, changes.walls_removed)
            self.floor.forget()
        if changes.hazards:
            self._refresh_hazards()
        for token_id in changes.tokens:
            self._sync_token(token_id)

    def restyle_labels(self) -> None:
        """Labels take the UI scale and the map's turn anew (table mode changed them)."""
        for item in self.items():
            if isinstance(item, ScreenLabel):
                item.restyle()

    # --- selection -----------------------------------------------------------------------
    def follow_selection(self, selection: SelectionModel) -> None:
        """Show ``selection`` on the tokens, and make it what the GM selects here."""
        self._selection = selection
        selection.changed.connect(self._show_selection)
        self.selectionChanged.connect(self._selection_changed)

    def _selection_changed(self) -> None:
        # A scene being deleted from Python announces its emptied selection on the way out.
        if isValid(self) and self._selection is not None:
            self._selection.set(i.token_id for i in self.selectedItems()
                                if isinstance(i, TokenItem))

    def _show_selection(self, ids: frozenset[str]) -> None:
        blocker = QSignalBlocker(self)
        for item in self.selectedItems():
            if not (isinstance(item, TokenItem) and item.token_id in ids):
                item.setSelected(False)
        for token_id in ids:
            item = self.tokens.get(token_id)
            if item is not None:
                item.setSelected(True)
        blocker.unblock()
        self._dots_follow_selection()

    def _dots_follow_selection(self) -> None:
        """Tokens drawn as dots show their selection ring too."""
        if not isValid(self):
            return
        selected = {i.token_id for i in self.selectedItems() if isinstance(i, TokenItem)}
        for token_id in selected ^ self._selected:
            token_item = self.tokens.get(token_id)
            if token_item is not None:
                self.dots.follow(token_item)
        self._selected = selected

    # --- what is drawn (the players' scene shows less) ------------------------------------
    def shows_token(self, token_id: str) -> bool:
        return self.encounter.has_token(token_id)

    def shown_hazards(self) -> list[Hazard]:
        return list(self.encounter.map.hazards)

    # --- tokens --------------------------------------------------------------------------
    def _add_token_item(self, token_id: str) -> None:
        token = self.encounter.token(token_id)
        item = TokenItem(token, self.renderer, self.faces, for_players=self.for_players,
                         portrait=self._portrait(token), moved=self.dots.follow)
        self.tokens[token_id] = item
        self._tokens_by_size.setdefault(item.cells, {})[token_id] = item
        self.addItem(item)
        self._stack(token_id, item)

    def _stack(self, token_id: str, item: TokenItem) -> None:
        """Later tokens are drawn above earlier ones (Bring to front moves one last)."""
        item.setZValue(Z_TOKEN + self.encounter.order_of(token_id) * TOKEN_Z_STEP)

    def _sync_token(self, token_id: str) -> None:
        """The token's item and the items it dropped, as the scene shows them (the players'
        scene calls this too when the party's sight changes)."""
        self.dropped.sync(self.encounter, token_id)
        present = self.shows_token(token_id)
        item = self.tokens.get(token_id)
        if not present:
            if item is not None:
                self.removeItem(self.tokens.pop(token_id))
                del self._tokens_by_size[item.cells][token_id]
                self.dots.release(token_id)
            return
        if item is None:
            self._add_token_item(token_id)
        else:
            token = self.encounter.token(token_id)
            item.portrait = self._portrait(token)
            del self._tokens_by_size[item.cells][token_id]  # its size may change
            item.sync(token)
            self._tokens_by_size.setdefault(item.cells, {})[token_id] = item
            self._stack(token_id, item)

    def _portrait(self, token: Token) -> QPixmap | None:
        return art_of(self.encounter).portrait(self.encounter, token.combatant)

    # --- hazards -------------------------------------------------------------------------
    def _refresh_hazards(self) -> None:
        for item in self.hazard_items:
            self.removeItem(item)
            self.removeItem(item.label)
        self.hazard_items = [HazardItem(h, self.renderer, self.for_players)
                             for h in self.shown_hazards()]
        self.floor.forget()
        for item in self.hazard_items:
            self.addItem(item)
            self.addItem(item.label)
        self._show_hazards_in_detail(self._hazard_names_shown)

    def follow_zoom(self, zoom: float) -> None:
        """Detail only where it can be seen: tokens smaller than :data:`DETAIL_PX` on
        screen are drawn as dots by one item; while a cell is too small to tell which
        hazard a name is for, the names are hidden (zoomed out on a big map they covered
        it, and cost a fifth of each frame) and the hazards are one tinted area per kind.

        While the GM zooms, the sizes that were dots when the zoom last rested stay dots
        until twice that size: each would be a plain disc anyway, its face not drawn yet
        (:mod:`desktop.map.token_faces`), and a hundred Gargantuan discs drawn item by item
        took 2 ms of each wheel notch at fit.
        Hazards stay one tint until the zoom rests (a thousand hazards' outlines and names
        cached anew took 5 ms of the notch that showed them)."""
        self._zoom = zoom
        sizes = dot_sizes(self.renderer, zoom, DETAIL_PX)
        if self.faces.zooming:
            sizes |= self._resting_dots & dot_sizes(self.renderer, zoom,
                                                    DETAIL_PX * DISC_WHILE_ZOOMING)
        else:
            self._resting_dots = sizes
            self._resting_zoom = zoom
        self.dots.show_sizes(sizes, self._tokens_by_size)
        shown = self.renderer.length(zoom) >= MIN_HAZARD_NAME_CELL_PX
        if shown != self._hazard_names_shown and not (shown and self.faces.zooming):
            self._show_hazards_in_detail(shown)

    def _zoom_rested(self) -> None:
        """Tokens kept as dots through the zoom draw themselves, their faces drawn with
        the others owed (a few milliseconds at a time, not all in the next frame)."""
        if self._grid_shown(self._resting_zoom) != self._grid_shown(self._zoom):
            self.update()
        leaving = self.dots.sizes - dot_sizes(self.renderer, self._zoom, DETAIL_PX)
        if leaving:
            views = self.views()
            scale = self._zoom * (views[0].devicePixelRatioF() if views else 1.0)
            for item in self.tokens.values():
                if item.cells in leaving:
                    self.faces.owe(item, scale)
        self.follow_zoom(self._zoom)

    def _show_hazards_in_detail(self, shown: bool) -> None:
        self._hazard_names_shown = shown
        for item in self.hazard_items:
            item.label.setVisible(shown)
        self.hazard_tint.hold([] if shown else self.hazard_items)

    # --- cells ---------------------------------------------------------------------------
    def _refresh_cells(self) -> None:
        """The cell image and the ledge lines, rebuilt from the model."""
        self._cells = _cells_image(self.encounter, opaque=self._background is None)
        self._ledges.follow(geometry_of(self.encounter).elevation,
                            self.encounter.profile.drop_hazard_ft)

    def _refresh_some_cells(self, cells: Iterable[Cell]) -> QRectF:
        """Bring the cell image and the ledge lines up to date over the box around
        ``cells`` (a brush step: not the whole map); the scene rectangle to repaint."""
        battle_map = self.encounter.map
        listed = [c for c in cells if battle_map.contains(c)]
        if not listed:
            return QRectF()
        box = (min(c.x for c in listed), min(c.y for c in listed),
               max(c.x for c in listed) + 1, max(c.y for c in listed) + 1)
        painter = QPainter(self._cells)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        painter.drawImage(box[0], box[1], _cells_image(
            self.encounter, opaque=self._background is None, box=box))
        painter.end()
        self._ledges.follow(geometry_of(self.encounter).elevation,
                            self.encounter.profile.drop_hazard_ft)
        x0, y0, x1, y1 = box
        top_left = self.renderer.cell_rect(Cell(x0 - 1, y0 - 1)).topLeft()
        return QRectF(top_left, self.renderer.cell_rect(Cell(x1, y1)).bottomRight())

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        """The ground, or zoomed far out the floor (:mod:`desktop.map.floor`)."""
        if not self.floor.holds(painter, hazards_in_detail=self._hazard_names_shown):
            self._draw_ground(painter, rect)
            return
        enc = self.encounter
        bounds = self.renderer.map_rect(enc.map.width, enc.map.height).united(
            self.walls.boundingRect())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for band in _around_rect(rect, bounds):
            painter.fillRect(band, self.backdrop)
        self.floor.copy(painter, rect, bounds)

    def _draw_ground(self, painter: QPainter, rect: QRectF) -> None:
        """Backdrop, background art, cells, ledges, grid and heights over ``rect``."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # no seams at edges
        enc = self.encounter
        area = self.renderer.map_rect(enc.map.width, enc.map.height)
        self._fill_backdrop(painter, rect, area)
        if self._background is not None:
            bg = enc.map.background
            assert bg is not None
            scale = self.renderer.cell_px / bg.px_per_cell
            target = QRectF(-bg.offset_x * scale, -bg.offset_y * scale,
                            self._background.width() * scale, self._background.height() * scale)
            painter.drawPixmap(target, self._background, QRectF(self._background.rect()))
        self._draw_cell_images(painter, rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._ledges.draw(painter, self.renderer.cell_range(rect, enc.map.width,
                                                           enc.map.height))
        if self.show_grid:
            self._draw_grid(painter, rect.intersected(area))
        if self.show_elevation_numbers:
            self._draw_elevation_numbers(painter, rect.intersected(area))

    def _fill_backdrop(self, painter: QPainter, rect: QRectF, area: QRectF) -> None:
        """The backdrop over ``rect``, but not under the cells' opaque floor (filling the
        whole view was a fifth of a frame's pixels at fit and all of them zoomed in): a
        device pixel of the map's edge is filled too, then painted over."""
        if self._background is not None:  # the cells are drawn translucent over it
            painter.fillRect(rect, self.backdrop)
            return
        edge = 1 / max(MapRenderer.zoom_of(painter.worldTransform()), 1e-6)
        floor = area.adjusted(edge, edge, -edge, -edge)
        for band in _around_rect(rect, floor):
            painter.fillRect(band, self.backdrop)

    def _draw_cell_images(self, painter: QPainter, rect: QRectF) -> None:
        """The cell image (1 pixel per cell), scaled up without smoothing, only the cells in
        the exposed rectangle."""
        battle_map = self.encounter.map
        x0, y0, x1, y1 = self.renderer.cell_range(rect, battle_map.width, battle_map.height)
        if x0 >= x1 or y0 >= y1:
            return
        source = QRectF(x0, y0, x1 - x0, y1 - y0)
        target = self.renderer.cell_rect(Cell(x0, y0)).united(
            self.renderer.cell_rect(Cell(x1 - 1, y1 - 1)))
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(target, self._cells, source)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)

    def _grid_shown(self, zoom: float) -> bool:
        return self.renderer.length(zoom) >= MIN_GRID_PX

    def _draw_grid(self, painter: QPainter, rect: QRectF) -> None:
        """Opaque cosmetic lines in one call; none when cells are too small to tell apart
        (the lines would be a grey wash costing a third of the frame). Zooming in from
        there, the grid comes once the zoom rests: its 600 lines at fit took 2.5 ms of
        the wheel notch that showed them."""
        zoom = self.renderer.zoom_of(painter.worldTransform())
        if rect.isEmpty() or not self._grid_shown(zoom) or (
                self.faces.zooming and not self._grid_shown(self._resting_zoom)):
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        pen = QPen(style.GRID, 0)
        painter.setPen(pen)
        battle_map = self.encounter.map
        x0, y0, x1, y1 = self.renderer.cell_range(rect, battle_map.width, battle_map.height)
        lines = []
        for x in range(x0, x1 + 1):
            sx = self.renderer.to_scene(x, 0).x()
            lines.append(QLineF(sx, rect.top(), sx, rect.bottom()))
        for y in range(y0, y1 + 1):
            sy = self.renderer.to_scene(0, y).y()
            lines.append(QLineF(rect.left(), sy, rect.right(), sy))
        painter.drawLines(lines)  # one call: per-line calls cost more than the drawing

    def _draw_elevation_numbers(self, painter: QPainter, rect: QRectF) -> None:
        """Heights as text, only where a cell is big enough on screen to read them (the
        tint and ledge lines show height when zoomed out)."""
        on_screen = self.renderer.on_screen(1, painter.worldTransform())
        if rect.isEmpty() or not self.encounter.map.elevation or on_screen < MIN_LABEL_PX:
            return
        battle_map = self.encounter.map
        x0, y0, x1, y1 = self.renderer.cell_range(rect, battle_map.width, battle_map.height)
        window = geometry_of(self.encounter).elevation[y0:y1, x0:x1]
        font = QFont()
        font.setPixelSize(int(self.renderer.length(0.22)))
        painter.setFont(font)
        painter.setPen(QColor(70, 45, 15))
        for dy, dx in zip(*np.nonzero(window), strict=True):
            cell_rect = self.renderer.cell_rect(Cell(x0 + int(dx), y0 + int(dy)))
            painter.drawText(cell_rect.adjusted(2, 0, -3, -1),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                             f"{int(window[dy, dx]):+d}")


def _around_rect(rect: QRectF, inner: QRectF) -> list[QRectF]:
    """``rect`` less ``inner``: up to four bands (above, below, left and right of it),
    the side bands the whole height, so that bands overlap rather than meet (two fills
    meeting on a line between pixel centres may both leave a pixel out)."""
    if not rect.intersects(inner):
        return [rect]
    middle = rect.intersected(inner)
    bands = [QRectF(rect.left(), rect.top(), rect.width(), middle.top() - rect.top()),
             QRectF(rect.left(), middle.bottom(), rect.width(), rect.bottom() - middle.bottom()),
             QRectF(rect.left(), rect.top(), middle.left() - rect.left(), rect.height()),
             QRectF(middle.right(), rect.top(), rect.right() - middle.right(), rect.height())]
    return [band for band in bands if not band.isEmpty()]


def _cells_image(encounter: Encounter, opaque: bool,
                 box: tuple[int, int, int, int] | None = None) -> QImage:
    """Floor (when ``opaque``), elevation tint and terrain composited into one image of one
    pixel per cell, so a repaint scales one image instead of three layers; of the cells
    x0 ≤ x < x1, y0 ≤ y < y1 of ``box`` only if given. Layers are composited
    premultiplied ("over"), which needs no division."""
    geometry = geometry_of(encounter)
    x0, y0, x1, y1 = box or (0, 0, geometry.width, geometry.height)
    feet = geometry.elevation[y0:y1, x0:x1]
    out = np.zeros((*feet.shape, 4), dtype=np.float32)
    if opaque:
        floor = style.FLOOR
        out[...] = (floor.blue(), floor.green(), floor.red(), 255)
    rows = [row[x0:x1] for row in encounter.map.terrain_rows[y0:y1]]
    for layer in (_elevation_layer(feet), _terrain_layer(rows)):
        alpha = layer[..., 3:4] / 255.0
        premultiplied = np.concatenate([layer[..., :3] * alpha, layer[..., 3:4]], axis=-1)
        out = premultiplied + out * (1 - alpha)
    return image_of(np.rint(out).astype(np.uint8))


def _terrain_layer(rows: list[str]) -> np.ndarray:
    height, width = len(rows), len(rows[0]) if rows else 0
    lut = np.zeros((256, 4), dtype=np.float32)
    for code, spec in TERRAIN_BY_CODE.items():
        colour = style.TERRAIN_COLOURS[spec.name]
        lut[ord(code)] = (colour.blue(), colour.green(), colour.red(), colour.alpha())
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(height, width)
    return lut[codes]


def _elevation_layer(feet: np.ndarray) -> np.ndarray:
    pixels = np.zeros((*feet.shape, 4), dtype=np.float32)
    strength = np.clip(np.abs(feet) / 30.0, 0, 1) * 110
    for mask, colour in ((feet > 0, style.ELEVATION_UP), (feet < 0, style.ELEVATION_DOWN)):
        pixels[mask] = (colour.blue(), colour.green(), colour.red(), 0)
        pixels[mask, 3] = strength[mask]
    return pixels

