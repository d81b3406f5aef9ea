"""The battle map window: the map view, tool bar, docks, menus and status bar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.actions.commands import ChangeSet, ResizeMap, SetBackground
from core.actions.round import AppendLog, spoil_note
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, Terrain
from core.rules.attack import AttackResult
from core.rules.shove import ShoveResult
from desktop.animation import marker, slide
from desktop.dialogs import BackgroundDialog, MapSizeDialog, SurpriseDialog
from desktop.document import EncounterDocument
from desktop.fileops import FileController
from desktop.panels.log import LogPanel
from desktop.panels.resolve import PendingAction, ResolvePanel
from desktop.panels.timeline import TimelinePanel
from desktop.panels.tokens import TokenPanel
from desktop.qt import (
    QAction,
    QActionGroup,
    QCheckBox,
    QCloseEvent,
    QColor,
    QComboBox,
    QDockWidget,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPoint,
    QSettings,
    QSpinBox,
    Qt,
    QToolBar,
    QUndoView,
    QVariantAnimation,
    QWidget,
)
from desktop.scene import MapScene
from desktop.tools.attack import AttackTool
from desktop.tools.base import MapTool
from desktop.tools.hazards import HazardTool
from desktop.tools.paint import ElevationTool, TerrainTool
from desktop.tools.select import SelectTool
from desktop.tools.shove import ShoveTool
from desktop.tools.walls import DoorTool, EraseTool, WallTool
from desktop.view import MapView


class MainWindow(QMainWindow):
    """One encounter in one window."""

    def __init__(self, encounter: Encounter, path: Path | None, data_dir: Path,
                 settings: QSettings) -> None:
        super().__init__()
        self.document = EncounterDocument(encounter, path)
        self.scene = MapScene(self.document)
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.files = FileController(self.document, self, data_dir, settings)
        self.files.message.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.settings = settings
        self.animation: QVariantAnimation | None = None
        self.tools = self._make_tools()
        self._build_tool_bar()
        self._build_docks()
        self._build_resolution()
        self._build_menus()
        self._build_status_bar()
        self.document.path_changed.connect(self._update_title)
        self.document.changed.connect(self._on_changed)
        self.document.replaced.connect(self.view.fit_map)
        self._update_title()
        self.setAcceptDrops(True)
        self.resize(1400, 900)
        self.select_tool("select")

    # --- tools ---------------------------------------------------------------------------
    def _make_tools(self) -> dict[str, MapTool]:
        kinds: list[type[MapTool]] = [SelectTool, ShoveTool, AttackTool, WallTool, DoorTool,
                                      EraseTool, TerrainTool, ElevationTool, HazardTool]
        tools = {kind.name: kind(self.document, self.scene) for kind in kinds}
        for tool in tools.values():
            tool.notify = lambda text: self.statusBar().showMessage(text)
        return tools

    def select_tool(self, name: str) -> None:
        self.view.set_tool(self.tools[name])
        self.tool_actions[name].setChecked(True)
        self.statusBar().showMessage(self.tools[name].tooltip, 6000)

    def _build_tool_bar(self) -> None:
        bar = self.addToolBar("Tools")
        bar.setObjectName("tools")
        group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.tools.items():
            action = QAction(tool.label, self, checkable=True)
            action.setShortcut(QKeySequence(tool.shortcut))
            action.setToolTip(f"{tool.tooltip}")
            action.triggered.connect(lambda _=False, n=name: self.select_tool(n))
            group.addAction(action)
            bar.addAction(action)
            self.tool_actions[name] = action
        bar.addSeparator()
        self._add_tool_options(bar)

    def _add_tool_options(self, bar: QToolBar) -> None:
        terrain, elevation = self.tools["terrain"], self.tools["elevation"]
        select = self.tools["select"]
        assert isinstance(terrain, TerrainTool) and isinstance(elevation, ElevationTool)
        assert isinstance(select, SelectTool)
        self.terrain_kind = QComboBox()
        self.terrain_kind.addItems([t.value for t in Terrain])
        self.terrain_kind.setCurrentText(terrain.terrain.value)
        self.terrain_kind.setToolTip("Terrain to paint")
        self.terrain_kind.currentTextChanged.connect(
            lambda text: setattr(terrain, "terrain", Terrain(text)))
        self.rectangle_mode = QCheckBox("Rectangle")
        self.rectangle_mode.setToolTip("Paint terrain and elevation as rectangles "
                                       "(or hold Shift while dragging)")
        self.rectangle_mode.toggled.connect(lambda on: (setattr(terrain, "rectangle", on),
                                                        setattr(elevation, "rectangle", on)))
        self.brush_size = _spin(1, 9, 1, " cells", "Brush size")
        self.brush_size.valueChanged.connect(lambda v: (setattr(terrain, "brush_size", v),
                                                        setattr(elevation, "brush_size", v)))
        self.elevation_feet = _spin(-100, 200, elevation.feet, " ft", "Elevation to set")
        self.elevation_feet.setSingleStep(5)
        self.elevation_feet.valueChanged.connect(lambda v: setattr(elevation, "feet", v))
        self.budget = _spin(0, 300, 0, " ft", "Movement budget while dragging tokens "
                            "(0 = no limit); paths beyond it turn red")
        self.budget.setSpecialValueText("no budget")
        self.budget.setSingleStep(5)
        self.budget.valueChanged.connect(
            lambda v: setattr(select, "budget_ft", float(v) if v else None))
        for label, widget in (("Terrain", self.terrain_kind), ("", self.rectangle_mode),
                              ("Brush", self.brush_size), ("Height", self.elevation_feet),
                              ("Move budget", self.budget)):
            if label:
                bar.addWidget(QLabel(f" {label} "))
            bar.addWidget(widget)

    # --- docks ---------------------------------------------------------------------------
    def _build_resolution(self) -> None:
        """The Resolve and Combat log docks, wired to the shove and attack tools."""
        self.resolve_panel = ResolvePanel(self.document)
        self.log_panel = LogPanel(self.document)
        shove, attack = self.tools["shove"], self.tools["attack"]
        assert isinstance(shove, ShoveTool) and isinstance(attack, AttackTool)
        shove.panel = attack.panel = self.resolve_panel
        self.resolve_panel.applied.connect(self._show_result)
        self.resolve_panel.cancel_button.clicked.connect(shove.finished)
        self.resolve_dock = self._dock("Resolve", self.resolve_panel,
                                       Qt.DockWidgetArea.LeftDockWidgetArea)
        self.log_dock = self._dock("Combat log", self.log_panel,
                                   Qt.DockWidgetArea.LeftDockWidgetArea)
        self.view.token_menu_requested.connect(self._token_menu)
        self.timeline_panel = TimelinePanel(self.document, self.resolve_panel,
                                            self.highlight_acting)
        self.timeline_dock = self._dock("Round timeline", self.timeline_panel,
                                        Qt.DockWidgetArea.BottomDockWidgetArea)
        self.view.pressed.connect(self.skip_animation)

    def _show_result(self, result: object, pending: PendingAction) -> None:
        """Animate what the core resolved; the model already holds the outcome."""
        item = self.scene.tokens.get(pending.target_id)
        shove = self.tools["shove"]
        assert isinstance(shove, ShoveTool)
        if isinstance(result, AttackResult) and result.hit:
            note = spoil_note(self.document.encounter, pending.target_id)
            if note is not None:
                self.document.push(AppendLog(note))
        if isinstance(result, ShoveResult):
            shove.finished()
            if item is not None:
                self.animation = slide(item, _shown_path(result), self.scene.renderer,
                                       self.animation_ms)
            self._mark(result)
        self.statusBar().showMessage(self.document.encounter.log[-1].summary, 8000)

    def surprise_check(self) -> None:
        levels = [a.name for a in self.document.encounter.profile.alertness]
        dialog = SurpriseDialog(levels, self)
        if dialog.exec():
            self.timeline_panel.surprise(dialog.alertness.currentText(), dialog.stealth.value())

    def highlight_acting(self, token_ids: list[str]) -> None:
        """Select the tokens acting in the current segment and bring them into view."""
        self.scene.clearSelection()
        for token_id in token_ids:
            item = self.scene.tokens.get(token_id)
            if item is not None:
                item.setSelected(True)
        first = self.scene.tokens.get(token_ids[0])
        if first is not None:
            self.view.ensureVisible(first, 40, 40)

    def skip_animation(self) -> None:
        """Jump a sliding token to its end (a click on the map does this)."""
        if self.animation is not None and self.animation.state() == \
                QVariantAnimation.State.Running:
            self.animation.setCurrentTime(self.animation.duration())

    def _mark(self, result: ShoveResult) -> None:
        renderer = self.scene.renderer
        at = renderer.cell_rect(result.final_cell).topLeft()
        if result.slam_damage:
            marker(self.scene, at, f"✸ slam −{result.total_damage}", QColor("#d7263d"))
        elif result.hazard is not None:
            text = "caught the edge" if result.hazard.saved else \
                f"fell in −{result.hazard.damage.value}"
            marker(self.scene, at, text, QColor("#7a1f1f"))

    def _token_menu(self, token_id: str, where: QPoint) -> None:
        menu = QMenu(self)
        name = self.document.encounter.token(token_id).name
        shove, attack = self.tools["shove"], self.tools["attack"]
        assert isinstance(shove, ShoveTool) and isinstance(attack, AttackTool)
        menu.addAction(f"Shove… ({name} shoves)", lambda: (
            self.select_tool("shove"), shove.start(token_id)))
        menu.addAction(f"Attack… ({name} attacks)", lambda: (
            self.select_tool("attack"), attack.start(token_id)))
        menu.addAction("Centre on map", lambda: self.view.centre_on_cell(
            self.document.encounter.token(token_id).cell))
        menu.popup(where)

    def _build_docks(self) -> None:
        self.token_panel = TokenPanel(self.document, self.scene)
        self.token_panel.placement_hint = self._view_centre_cell
        self.token_panel.centre_requested.connect(
            lambda tid: self.view.centre_on_cell(self.document.encounter.token(tid).cell))
        self.combatants_dock = self._dock("Combatants", self.token_panel,
                                          Qt.DockWidgetArea.RightDockWidgetArea)
        self.history_dock = self._dock("History", QUndoView(self.document.undo_stack),
                                       Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.combatants_dock, self.history_dock)
        self.combatants_dock.raise_()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower())
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _view_centre_cell(self) -> Cell:
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        return self.scene.renderer.cell_at(centre)

    # --- menus ---------------------------------------------------------------------------
    def _build_menus(self) -> None:
        menus = self.menuBar()
        file_menu = menus.addMenu("&File")
        self._action(file_menu, "&New encounter…", QKeySequence.StandardKey.New, self.new_map)
        self._action(file_menu, "&Open…", QKeySequence.StandardKey.Open, self.files.open_dialog)
        self._action(file_menu, "&Import Universal VTT map…", QKeySequence("Ctrl+I"),
                     self.files.import_dialog)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.files.recent_changed.connect(self._fill_recent)
        self._fill_recent()
        self._action(file_menu, "&Save", QKeySequence.StandardKey.Save, self.files.save)
        self._action(file_menu, "Save &as…", QKeySequence.StandardKey.SaveAs, self.files.save_as)
        self._action(file_menu, "&Export combat log…", QKeySequence("Ctrl+E"),
                     self.log_panel.export_dialog)
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", QKeySequence.StandardKey.Quit, self.close)
        edit = menus.addMenu("&Edit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addActions([undo, redo])
        view = menus.addMenu("&View")
        self._action(view, "&Fit map", QKeySequence("F"), self.view.fit_map)
        self._action(view, "Zoom &in", QKeySequence.StandardKey.ZoomIn,
                     lambda: self.view.zoom_by(1.25))
        self._action(view, "Zoom &out", QKeySequence.StandardKey.ZoomOut,
                     lambda: self.view.zoom_by(0.8))
        self._toggle(view, "Show &grid", QKeySequence("G"), "show_grid")
        self._toggle(view, "Show &elevation numbers", QKeySequence("Shift+H"),
                     "show_elevation_numbers")
        view.addSeparator()
        view.addActions([self.combatants_dock.toggleViewAction(),
                         self.history_dock.toggleViewAction(),
                         self.resolve_dock.toggleViewAction(),
                         self.log_dock.toggleViewAction(),
                         self.timeline_dock.toggleViewAction()])
        self._animation_menu(view.addMenu("&Animation speed"))
        map_menu = menus.addMenu("&Map")
        self._action(map_menu, "&Resize map…", QKeySequence("Ctrl+R"), self.resize_map)
        self._action(map_menu, "&Background image…", QKeySequence("Ctrl+B"),
                     self.edit_background)
        round_menu = menus.addMenu("&Round")
        timeline = self.timeline_panel
        self._action(round_menu, "&Roll initiative", QKeySequence("I"), timeline.roll)
        self._action(round_menu, "&Next segment", QKeySequence("N"), timeline.next_segment)
        self._action(round_menu, "Next &round", QKeySequence("Shift+N"), timeline.next_round)
        self._action(round_menu, "&More declaration time (+2 min)", QKeySequence("Shift+T"),
                     timeline.add_time)
        self._action(round_menu, "&Surprise check…", QKeySequence("Shift+S"),
                     self.surprise_check)
        tools = menus.addMenu("&Tools")
        tools.addActions(list(self.tool_actions.values()))

    def _action(self, menu: QMenu, text: str,
                shortcut: QKeySequence | QKeySequence.StandardKey,
                slot: Callable[[], object]) -> QAction:
        action = QAction(text, self)
        action.setShortcut(shortcut)
        action.triggered.connect(lambda _=False: slot())
        menu.addAction(action)
        return action

    def _toggle(self, menu: QMenu, text: str, shortcut: QKeySequence, attribute: str) -> None:
        action = QAction(text, self, checkable=True)
        action.setShortcut(shortcut)
        action.setChecked(getattr(self.scene, attribute))
        action.toggled.connect(lambda on: (setattr(self.scene, attribute, on),
                                           self.scene.update()))
        menu.addAction(action)

    @property
    def animation_ms(self) -> int:
        """Milliseconds per cell when a token is pushed (0: no animation)."""
        return int(self.settings.value("animation_ms", ANIMATION_SPEEDS["Normal"]))

    def _animation_menu(self, menu: QMenu) -> None:
        group = QActionGroup(self)
        for label, ms in ANIMATION_SPEEDS.items():
            action = QAction(label, self, checkable=True)
            action.setChecked(ms == self.animation_ms)
            action.triggered.connect(lambda _=False, v=ms: self.settings.setValue(
                "animation_ms", v))
            group.addAction(action)
            menu.addAction(action)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.files.recent():
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda _=False, p=path: self.files.confirm_discard()
                                     and self.files.open_path(p))
        self.recent_menu.setEnabled(bool(self.recent_menu.actions()))

    # --- map commands ----------------------------------------------------------------------
    def new_map(self) -> None:
        if not self.files.confirm_discard():
            return
        dialog = MapSizeDialog(30, 20, "New encounter", self)
        if dialog.exec():
            width, height = dialog.size
            self.files.new(Encounter(map=BattleMap(width=width, height=height)))

    def resize_map(self) -> None:
        battle_map = self.document.encounter.map
        dialog = MapSizeDialog(battle_map.width, battle_map.height, "Resize map", self)
        if not dialog.exec() or dialog.size == (battle_map.width, battle_map.height):
            return
        try:
            self.document.push(ResizeMap(*dialog.size))
        except ValueError as error:
            QMessageBox.warning(self, "Cannot resize", str(error))

    def edit_background(self) -> None:
        current = self.document.encounter.map.background
        dialog = BackgroundDialog(current, self)
        if dialog.exec() and dialog.result_background != current:
            self.document.push(SetBackground(dialog.result_background))

    # --- status and title ------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        self.cell_label = QLabel()
        self.statusBar().addPermanentWidget(self.cell_label)
        self.view.cell_hovered.connect(self._describe_cell)

    def _describe_cell(self, cell: Cell) -> None:
        battle_map = self.document.encounter.map
        if not battle_map.contains(cell):
            self.cell_label.setText("")
            return
        parts = [f"({cell.x}, {cell.y})", battle_map.terrain_at(cell).name.value,
                 f"{battle_map.elevation_at(cell):+d} ft"]
        hazard = battle_map.hazard_at(cell)
        if hazard:
            parts.append(f"{hazard.name} ({hazard.kind.value})")
        token = self.document.encounter.token_at(cell)
        if token:
            parts.append(token.name)
        self.cell_label.setText(" · ".join(parts))

    def _on_changed(self, changes: ChangeSet) -> None:
        self._update_title()

    def _update_title(self) -> None:
        self.setWindowTitle(self.document.title)

    # --- window events ---------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.confirm_discard():
            event.ignore()
            return
        self.files.discard_recovery()
        self.files.shutdown()
        event.accept()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile() and self.files.confirm_discard():
                self.files.open_path(Path(url.toLocalFile()))
                return


def _spin(low: int, high: int, value: int, suffix: str, tooltip: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setSuffix(suffix)
    box.setToolTip(tooltip)
    return box


ANIMATION_SPEEDS = {"Off": 0, "Fast": 60, "Normal": 140, "Slow": 300}


def _shown_path(result: ShoveResult) -> tuple[Cell, ...]:
    """The cells to slide through: the path, and the hazard cell if the target fell in."""
    if result.final_cell != result.path[-1]:
        return (*result.path, result.final_cell)
    return result.path
