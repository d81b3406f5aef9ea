"""The battle map window: the map view, tool bars, docks, menus and status bar.

The window only assembles: tools declare their own options, status texts and token-menu
entries; menus and shortcuts are a table (:meth:`MainWindow._menu_items`); what the rules
decide comes from core actions through the Resolve panel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.actions.commands import ChangeSet, ResizeMap, SetBackground, SetProfile
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter
from core.model.mapmodel import BattleMap
from core.spatial.geometry import geometry_of
from desktop.document.document import EncounterDocument
from desktop.document.fileops import FileController
from desktop.document.selection import SelectionModel
from desktop.map import style
from desktop.map.animation import LastingMarks, marker, show_missile, slide
from desktop.map.scene import MapScene
from desktop.map.view import MapView
from desktop.panels.context_menus import TokenMenu, add_combatant
from desktop.panels.evening import EveningController
from desktop.panels.history import HistoryView
from desktop.panels.log import LogPanel
from desktop.panels.resolve import ResolvePanel
from desktop.panels.sidebars import LAYOUT_VERSION, Sidebars
from desktop.panels.timeline import TimelinePanel
from desktop.panels.tokens import TokenPanel
from desktop.qt import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QColor,
    QDockWidget,
    QDragEnterEvent,
    QDropEvent,
    QKeyEvent,
    QKeySequence,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPoint,
    QRect,
    QResizeEvent,
    QSettings,
    QSize,
    Qt,
    QTimer,
    QToolButton,
    QToolTip,
    QVariantAnimation,
    QWidget,
)
from desktop.table.controller import TableController
from desktop.table.mode import as_bool
from desktop.table.share import ShareController
from desktop.tools.attack import AttackTool
from desktop.tools.base import OPTIONS_ROOM_PX, MapTool, ToolContext
from desktop.tools.fog import FogTool
from desktop.tools.hazards import HazardTool
from desktop.tools.manoeuvre import ManoeuvreTool
from desktop.tools.missile import MissileTool
from desktop.tools.morale import MoraleController
from desktop.tools.paint import ElevationTool, TerrainTool
from desktop.tools.ruler import RulerTool
from desktop.tools.select import SelectTool
from desktop.tools.shove import ShoveTool
from desktop.tools.walls import DoorTool, EraseTool, WallTool
from desktop.widgets.elided import ElidedLabel
from desktop.widgets.icons import EVERY_SIZE, TOOL_ICON_PX, sizes_shown, tool_icon
from desktop.widgets.readout import Readout
from desktop.widgets.screen_fit import sidebar_width
from desktop.widgets.shortcuts import SEPARATOR, MenuItem, add_items, shortcut_text
from desktop.widgets.window_memory import WindowMemory

if TYPE_CHECKING:
    from core.actions.base import Outcome
    from core.model.grid import Cell
    from core.rules.missile import MissileResult
    from core.rules.shove import ShoveResult

TOOL_KINDS: tuple[type[MapTool], ...] = (SelectTool, ShoveTool, AttackTool, MissileTool,
                                         ManoeuvreTool, RulerTool, WallTool, DoorTool, EraseTool,
                                         TerrainTool, ElevationTool, HazardTool, FogTool)
ANIMATION_SPEEDS = {"Off": 0, "Fast": 60, "Normal": 140, "Slow": 300}
STATUS_MS = 8000
TIMELINE_EXPANDED = "timeline/expanded"


class MainWindow(QMainWindow):
    """One encounter in one window."""

    def __init__(self, encounter: Encounter, path: Path | None, data_dir: Path,
                 settings: QSettings) -> None:
        super().__init__()
        self.settings = settings
        self.document = EncounterDocument(encounter, path)
        self.selection = SelectionModel(self.document)
        self.scene = MapScene(self.document)
        self.scene.follow_selection(self.selection)
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.files = FileController(self.document, self, data_dir, settings)
        self.files.message.connect(lambda text: self.statusBar().showMessage(text, 5000))
        self.animation: QVariantAnimation | None = None
        self.landings = LastingMarks()  # a missed missile's, until the next ruling
        self.resolve_panel = ResolvePanel(self.document)
        self.morale = MoraleController(self.document, self.scene, self.resolve_panel)
        self.morale.bar.attach(self.view)
        context = ToolContext(self.document, self.scene, self.selection, self.resolve_panel,
                              self.view)
        self.tools: dict[str, MapTool] = {kind.name: kind(context) for kind in TOOL_KINDS}
        self._build_tool_bars()
        fog_tool = self.tools["fog"]
        assert isinstance(fog_tool, FogTool)
        # player window, fog, table mode
        self.memory = WindowMemory(self, settings, LAYOUT_VERSION, self._arrange_panels)
        self.table = TableController(self.memory, self.document, self.view, fog_tool)
        self.table.mode.changed.connect(self._rescaled)
        select = self.tools["select"]
        assert isinstance(select, SelectTool)
        self.share = ShareController(self, self.settings, self.document, self.view,
                                     resolve_panel=self.resolve_panel,
                                     budget=lambda: select.budget_ft, table_play=self.table)
        self.evening = EveningController(self, self.document, self.files, self.selection,
                                         data_dir=data_dir, drop_point=self._view_centre_cell)
        self._build_docks()
        self.token_panel.library_requested.connect(self.evening.open_library)
        self.token_panel.keep_requested.connect(self.evening.save_to_bestiary)
        self._build_menus()
        self._build_status_bar()
        self._connect()
        self._update_title()
        self.setAcceptDrops(True)
        self.memory.restore()
        self.timeline_panel.set_expanded(as_bool(settings.value(TIMELINE_EXPANDED, False)))
        self.select_tool("select")
        self.view.fit_map()  # and kept fitted while the window settles
        self._show_sides()

    def _connect(self) -> None:
        self.document.path_changed.connect(self._update_title)
        self.document.changed.connect(lambda changes: changes.log and self.landings.clear())
        self.document.replaced.connect(self.landings.clear)
        self.document.replaced.connect(self.view.fit_map)
        self.document.refused.connect(self._refused)
        self.document.history_changed.connect(self._update_undo_actions)
        self.resolve_panel.applied.connect(self._show_result)
        # What the status bar said of the cancelled action (a drag's "Overrun Kobold:
        # knocked over 75%") goes; the active tool's question, if any, comes back.
        self.resolve_panel.cancel_button.clicked.connect(self.statusBar().clearMessage)
        self.view.token_menu_requested.connect(self._token_menu)
        self.view.cell_menu_requested.connect(self._cell_menu)
        self.view.pressed.connect(self.skip_animation)
        self.view.pressed.connect(self.token_panel.hold)
        self.view.released.connect(self.token_panel.let_go)
        self._asked = ""  # what the active tool last asked for
        for tool in self.tools.values():
            tool.status.connect(self._tool_asks)
            tool.reported.connect(self._tool_reports)
        self.statusBar().messageChanged.connect(self._ask_again)
        self.document.replaced.connect(lambda: self._tool_asks(""))  # its tokens are gone

    # --- tools ---------------------------------------------------------------------------
    def _tool_asks(self, text: str) -> None:
        self._asked = text
        self.statusBar().showMessage(text)

    def _tool_reports(self, text: str) -> None:
        """What happened ("Door opened", "Removed Mira"): never shown again after an undo."""
        self._asked = ""
        self.statusBar().showMessage(text)

    def _ask_again(self, text: str) -> None:
        """When a passing message ends (the tool's hint on choosing it, "Undone: …") or the
        pointer leaves a button or a menu item, the status bar went blank: what the active
        tool asked for comes back (a GM's walk-through lost "Shove: Ogre — click an adjacent
        target" that way)."""
        if not text and self._asked:
            self.statusBar().showMessage(self._asked)

    def select_tool(self, name: str) -> None:
        tool = self.tools[name]
        self._asked = ""  # the last tool's question: the new tool asks its own
        self.view.set_tool(tool)
        self.tool_actions[name].setChecked(True)
        if self.resolve_panel.pending is None:
            self.resolve_panel.clear()  # no stale aim card or refusal from the last tool
        self._show_options(tool)
        self._show_fitting(tool.tooltip, 6000)

    def _show_fitting(self, text: str, ms: int) -> None:
        """Show ``text`` in the status bar cut with "…" where the cell read-out begins (a
        tool's whole hint ran into it); the tool's button keeps the whole text."""
        bar = self.statusBar()
        if bar.isVisible():  # laid out: before the first show, its width means nothing
            label = self.cell_label  # its right edge stays; a new text is not laid out yet
            room = (label.geometry().right() - label.sizeHint().width()
                    - 3 * bar.fontMetrics().averageCharWidth())
            text = bar.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room)
        bar.showMessage(text, ms)

    def _show_options(self, tool: MapTool) -> None:
        self.options_bar.clear()
        self.options_bar.addActions(tool.option_actions())
        if not tool.option_actions():  # the bar stays, so the map never jumps: it says how
            how = ElidedLabel(f" {tool.tooltip}")  # (a walk-through read "Shove: no options")
            how.setEnabled(False)  # greyed: words, not a control
            self.options_bar.addWidget(how)

    def _steady_options_bar(self) -> None:
        """The options bar as tall as the tallest tool's options, so switching tools never
        moves the map up or down. Run after the map's first frame, which shows only the
        Select tool's options: making every tool's was 4.6 ms of it (each tool keeps the
        options made here)."""
        tallest = 0
        for tool in self.tools.values():
            self._show_options(tool)
            tallest = max(tallest, self.options_bar.sizeHint().height())
        self.options_bar.setMinimumHeight(tallest)
        self._options_steady = True
        if self.view.tool is not None:
            self._show_options(self.view.tool)

    def _rescaled(self) -> None:
        """Table mode's UI scale changed the tools' width and the options' height."""
        if self._options_steady:  # the first frame is past: steady it again at this scale
            self._steady_options_bar()
        self._place_options_bar()

    def _place_options_bar(self) -> None:
        """The options beside the tools where the window leaves them
        :data:`desktop.tools.base.OPTIONS_ROOM_PX` (every tool's options fit in it), so a
        laptop keeps the row for the map; else on a row of their own. Decided by the
        window's width alone, so switching tools never moves the map."""
        room = OPTIONS_ROOM_PX * style.ui_scale()
        wrap = self.width() < self.tools_bar.sizeHint().width() + room
        if wrap != self._options_wrapped:
            self._options_wrapped = wrap
            if wrap:
                self.insertToolBarBreak(self.options_bar)
            else:
                self.removeToolBarBreak(self.options_bar)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_options_bar()

    def _build_tool_bars(self) -> None:
        """One row over the map: the tools as icons (their names and keys in the tips and
        the Tools menu), then the active tool's options in the rest of the row."""
        self.tools_bar = bar = self.addToolBar("Tools")
        bar.setObjectName("tools")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        bar.setIconSize(QSize(TOOL_ICON_PX, TOOL_ICON_PX))
        group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.tools.items():
            action = QAction(tool.label, self, checkable=True)
            action.setShortcut(QKeySequence(tool.shortcut))
            action.setToolTip(tool.tooltip)
            action.triggered.connect(lambda _=False, n=name: self.select_tool(n))
            group.addAction(action)
            bar.addAction(action)
            self.tool_actions[name] = action
        self._icon_sizes: tuple[tuple[int, float], ...] = ()
        self._draw_tool_icons(self._sizes_shown())
        self.view.first_painted.connect(lambda: self._draw_tool_icons(EVERY_SIZE))
        self.options_bar = self.addToolBar("Tool options")
        self._options_wrapped = self._options_steady = False
        self.options_bar.setObjectName("tool-options")
        self.view.first_painted.connect(self._steady_options_bar)

    def _sizes_shown(self) -> tuple[tuple[int, float], ...]:
        return sizes_shown(self.tools_bar.iconSize().width(), self.devicePixelRatio())

    def _draw_tool_icons(self, sizes: tuple[tuple[int, float], ...]) -> None:
        """The tools' icons with the pixmaps of ``sizes``: until the first frame only those
        the tool bar shows (13 of 182, 13 ms of the start), every size after it."""
        if sizes != self._icon_sizes:
            self._icon_sizes = sizes
            for name, action in self.tool_actions.items():
                action.setIcon(tool_icon(name, sizes))

    # --- docks ---------------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.token_panel = TokenPanel(self.document, self.selection)
        self.token_panel.placement_hint = self._view_centre_cell
        self.token_panel.centre_requested.connect(
            lambda tid: self.view.centre_on_cell(self.document.encounter.token(tid).cell))
        self.log_panel = LogPanel(self.document)
        self.log_panel.start_dir = self.files.start_dir
        self.sidebars = Sidebars(self, [
            ("Combatants", self.token_panel, "right"), ("Resolve", self.resolve_panel, "right"),
            ("Combat log", self.log_panel, "left"), ("History", HistoryView(self.document),
                                                     "left")])
        docks = self.sidebars.docks
        self.combatants_dock, self.resolve_dock = docks["Combatants"], docks["Resolve"]
        self.log_dock, self.history_dock = docks["Combat log"], docks["History"]
        # A ruling's odds and dice come to the front of their sidebar when a tool asks.
        self.resolve_panel.wants_sight.connect(lambda: self.sidebars.bring_forward("Resolve"))
        self.timeline_panel = TimelinePanel(self.document, self.resolve_panel,
                                            self.highlight_acting)
        self.timeline_dock = QDockWidget("Round timeline", self)
        self.timeline_dock.setObjectName("round timeline")
        self.timeline_dock.setWidget(self.timeline_panel)
        self.timeline_dock.setTitleBarWidget(QWidget())  # its own row says "Round 2"
        self.timeline_dock.setAllowedAreas(Qt.DockWidgetArea.BottomDockWidgetArea
                                           | Qt.DockWidgetArea.TopDockWidgetArea)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.timeline_dock)

    def _arrange_panels(self, screen: QRect) -> None:
        self.sidebars.arrange(sidebar_width(screen.width()))

    def show_on_screen(self) -> None:
        """Show the window as the GM left it, or maximised the first time: the map gets the
        screen. Either way within the screen's free area, its frame included."""
        if self._icon_sizes != EVERY_SIZE:  # table mode may have scaled the tool bar
            self._draw_tool_icons(self._sizes_shown())
        if self.memory.geometry_restored:
            self.show()
        else:
            self.showMaximized()
        QTimer.singleShot(0, self.memory.keep_on_screen)  # its frame is known once shown

    def reset_layout(self) -> None:
        self.timeline_panel.set_expanded(False)
        self.settings.setValue(TIMELINE_EXPANDED, False)
        self.memory.reset()

    def _expand_timeline(self, on: bool) -> None:
        self.timeline_panel.set_expanded(on)
        self.settings.setValue(TIMELINE_EXPANDED, on)
        self.resizeDocks([self.timeline_dock], [self.timeline_panel.sizeHint().height()],
                         Qt.Orientation.Vertical)

    def _view_centre_cell(self) -> Cell:
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        return self.scene.renderer.cell_at(centre)

    # --- results on the map --------------------------------------------------------------
    def _show_result(self, outcome: Outcome[Any]) -> None:
        """Animate what the core resolved; the model already holds the outcome."""
        from core.actions.shove import ShoveAction  # at the first ruling: see desktop/__init__
        from core.rules.missile import MissileResult
        from core.rules.shove import ShoveResult

        result, action = outcome.result, outcome.action
        if isinstance(result, MissileResult):
            self._show_missile(result)
        if isinstance(result, ShoveResult) and isinstance(action, ShoveAction):
            defender = self.document.encounter.token(action.request.defender).id
            items = [scene.tokens[defender] for scene in self.table.scenes()
                     if defender in scene.tokens]  # the GM's and the players' token
            self.animation = slide(items, _shown_path(result), self.scene.renderer,
                                   self.animation_ms)
            for scene in self.table.scenes():
                self._mark(scene, result)
        self.statusBar().showMessage(outcome.summary, STATUS_MS)

    def _show_missile(self, result: MissileResult) -> None:
        """The flight in the GM's scene and, unless the shooter is hidden from them, in
        the players'."""
        encounter = self.document.encounter
        shooter = result.attacker_id
        hidden = encounter.has_token(shooter) and encounter.token(shooter).gm_only
        for scene in self.table.scenes():
            if scene.for_players and not hidden:
                show_missile(scene, encounter, result, scene.renderer, self.animation_ms,
                             lasting=self.landings)
        self.animation = show_missile(self.scene, encounter, result, self.scene.renderer,
                                      self.animation_ms, lasting=self.landings)

    def _mark(self, scene: MapScene, result: ShoveResult) -> None:
        at = scene.renderer.cell_rect(result.final_cell).topLeft()
        if result.slam_damage:
            marker(scene, at, f"✸ slam −{result.total_damage}", QColor("#d7263d"))
        elif result.hazard is not None:
            text = "caught the edge" if result.hazard.saved else \
                f"fell in −{result.hazard.damage.value}"
            marker(scene, at, text, QColor("#7a1f1f"))

    def skip_animation(self) -> None:
        """Jump a sliding token to its end (a click on the map does this)."""
        if self.animation is not None and self.animation.state() == \
                QVariantAnimation.State.Running:
            self.animation.setCurrentTime(self.animation.duration())

    def highlight_acting(self, token_ids: list[str]) -> None:
        """Select the first token acting in the current segment (its chip says who else
        acts) and bring it into view: one token, so a drag moves only it."""
        self.selection.set(token_ids[:1])
        first = self.scene.tokens.get(token_ids[0]) if token_ids else None
        if first is not None:
            self.view.ensureVisible(first, 40, 40)

    def _token_menu(self, token_id: str, where: QPoint) -> None:
        """The menu of one token, which it acts on: a token outside the selection becomes the
        selection, so the Combatants form shows whom Damage… or Heal… changes."""
        if token_id not in self.selection.ids:
            self.selection.set({token_id})
        entries = [(text, lambda n=name, r=run: (self.select_tool(n), r()))
                   for name, tool in self.tools.items()
                   for text, run in tool.token_entries(token_id)]
        entries += self.morale.token_entries(token_id)
        entries.append(("Centre on map", lambda: self.view.centre_on_cell(
            self.document.encounter.token(token_id).cell)))
        entries.append(("Save to bestiary…", lambda: self.evening.save_to_bestiary(token_id)))
        self.token_menu = TokenMenu(self.document, token_id, entries, self)
        self.token_menu.popup(where)

    def _cell_menu(self, cell: Cell, where: QPoint) -> None:
        """Add a combatant on this cell (or the nearest free space)."""
        menu = QMenu(self)
        menu.addAction("Add from library here…", lambda: self.evening.open_library(cell))
        menu.addAction("New combatant here",
                       lambda: self._add_at(Combatant(name="New combatant"), cell))
        self.cell_menu = menu
        menu.popup(where)

    def _add_at(self, template: Combatant, cell: Cell) -> None:
        token_id = add_combatant(self.document, template, cell)
        if token_id is not None:
            self.selection.set({token_id})

    def _refused(self, message: str) -> None:
        """A refused edit changed nothing; say why."""
        self.statusBar().showMessage(f"Not done: {message}", STATUS_MS)
        QMessageBox.warning(self, "Not done", f"{message}\n\nNothing was changed.")

    # --- menus ---------------------------------------------------------------------------
    def _menu_items(self) -> list[MenuItem]:
        view, files, timeline = self.view, self.files, self.timeline_panel
        std = QKeySequence.StandardKey
        return [
            MenuItem("&File", "&New encounter…", std.New, self.new_map),
            MenuItem("&File", "&Open…", std.Open, files.open_dialog),
            MenuItem("&File", "&Import Universal VTT map…", "Ctrl+I", files.import_dialog),
            MenuItem("&File", "&Save", std.Save, files.save),
            MenuItem("&File", "Save &as…", std.SaveAs, files.save_as),
            MenuItem("&File", "&Export combat log…", "Ctrl+E", self.log_panel.export_dialog),
            MenuItem("&File", SEPARATOR, None, lambda: None),
            MenuItem("&File", "&Quit", std.Quit, self.close),
            MenuItem("&Edit", "&Undo", std.Undo, lambda: self.step_history(undo=True)),
            MenuItem("&Edit", "&Redo", ("Ctrl+Shift+Z", "Ctrl+Y"),
                     lambda: self.step_history(undo=False)),
            MenuItem("&View", "&Fit map", "F", view.fit_map),
            MenuItem("&View", "Zoom &in", std.ZoomIn, lambda: view.zoom_by(1.25)),
            MenuItem("&View", "Zoom &out", std.ZoomOut, lambda: view.zoom_by(0.8)),
            MenuItem("&Map", "&Resize map…", "Ctrl+R", self.resize_map),
            MenuItem("&Map", "&Background image…", "Ctrl+B", self.edit_background),
            MenuItem("&Map", "Rules &settings…", "Ctrl+,", self.edit_rules,
                     "Every rules number and option, with its default and its source"),
            MenuItem("&Map", "&Weapons…", None, self.edit_weapons,
                     "The weapon table: damage, reach, ranges, miss distance, accuracy"),
            MenuItem("&Round", "&Roll initiative", "I", timeline.roll,
                     "Start a round: roll initiative"),
            MenuItem("&Round", "&Next segment", "N", timeline.next_segment,
                     "Step to the next second"),
            MenuItem("&Round", "Next &round", "Shift+N", timeline.next_round,
                     "End the round: timers tick"),
            MenuItem("&Round", "&More declaration time", "Shift+T", timeline.add_time,
                     "Add the rules profile's step of declaration time to the countdown"),
            MenuItem("&Round", "&Surprise check…", "Shift+S", self.surprise_check),
            MenuItem("&Round", "Mora&le check…", "Shift+M", self.morale_check,
                     "2d10 morale check of the selected token's side (else the opposition)"),
        ]

    # The dialogs are imported when opened: the first frame shows none of them.
    def show_shortcuts(self) -> None:
        from desktop.dialogs.help import ShortcutSheet

        ShortcutSheet(self.menuBar(), self).exec()

    def _build_menus(self) -> None:
        self.menus: dict[str, QMenu] = {}
        self.actions_by_name = add_items(self.menuBar(), self.menus, self._menu_items(), self)
        self.recent_menu = QMenu("Open &recent", self)
        self.menus["&File"].insertMenu(self.actions_by_name["Save"], self.recent_menu)
        self.evening.build_menus(self.menus["&File"], self.actions_by_name["Save"])
        self.files.recent_changed.connect(self._fill_recent)
        self._fill_recent()
        view = self.menus["&View"]
        self._toggle(view, "Show &grid", "G", "show_grid")
        self._toggle(view, "Show &elevation numbers", "Shift+H", "show_elevation_numbers")
        view.addSeparator()
        self._layout_menu(view)
        self._animation_menu(view.addMenu("&Animation speed"))
        self.actions_by_name |= self.table.build_menus(self.menuBar(), self.menus)
        self.actions_by_name |= add_items(self.menuBar(), self.menus, self.share.menu_items(), self)
        self.share.follow_actions(self.actions_by_name)
        self.menuBar().addMenu("&Tools").addActions(list(self.tool_actions.values()))
        self.actions_by_name |= add_items(self.menuBar(), self.menus, [
            MenuItem("&Help", "&Keyboard shortcuts", "F1", self.show_shortcuts,
                     "Every shortcut and map gesture in one sheet")], self)
        self._update_undo_actions()

    def _layout_menu(self, view: QMenu) -> None:
        """The sidebars (one key each), each panel, the timeline's segments, the default
        layout back."""
        for side, key, panels in (("left", "Ctrl+[", "Combat log, History"),
                                  ("right", "Ctrl+]", "Combatants, Resolve")):
            action = QAction(f"{side.title()} sidebar", self, checkable=True)
            action.setShortcut(QKeySequence(key))
            action.setToolTip(f"Hide or show the panels on the {side} ({key}): {panels}")
            action.triggered.connect(lambda _=False, s=side: self.sidebars.toggle(s))
            view.addAction(action)
            self.actions_by_name[f"{side.title()} sidebar"] = action
        panels = view.addMenu("&Panels")
        panels.addActions([dock.toggleViewAction() for dock in self.sidebars.docks.values()])
        segments = QAction("Timeline &segments", self, checkable=True)
        segments.setShortcut(QKeySequence("Ctrl+J"))
        segments.setToolTip("The round timeline as one row, or with a column per segment "
                            "(Ctrl+J)")
        segments.toggled.connect(self._expand_timeline)
        self.timeline_panel.expanded_changed.connect(segments.setChecked)
        view.addAction(segments)
        view.addAction("Reset &layout", self.reset_layout)
        self.actions_by_name["Timeline segments"] = segments
        self.sidebars.changed.connect(self._show_sides)

    def _show_sides(self) -> None:
        for side in ("left", "right"):
            action = self.actions_by_name[f"{side.title()} sidebar"]
            action.setChecked(self.sidebars.shown(side))
            action.setEnabled(bool(self.sidebars.on(side)))

    def _toggle(self, menu: QMenu, text: str, shortcut: str, attribute: str) -> None:
        action = QAction(text, self, checkable=True)
        action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(f"{text.replace('&', '')} ({shortcut_text(action)})")
        action.setChecked(getattr(self.scene, attribute))
        action.toggled.connect(lambda on: (setattr(self.scene, attribute, on),
                                           self.scene.update()))
        menu.addAction(action)

    def step_history(self, *, undo: bool) -> None:
        """Undo or redo one step and say which: it replaces whatever the status bar said
        about the step before (a refused drop's reason stayed after its undo)."""
        label = self._step_label(undo=undo)
        if label is None:
            return
        if undo:
            self.document.undo()
        else:
            self.document.redo()
        self.statusBar().showMessage(f"{'Undone' if undo else 'Redone'}: {label}", STATUS_MS)

    def _step_label(self, *, undo: bool) -> str | None:
        """The label of the step Undo (or Redo) would take; None when there is none."""
        history = self.document.history
        if not (history.can_undo if undo else history.can_redo):
            return None
        return history.labels()[history.index - 1 if undo else history.index]

    def _update_undo_actions(self) -> None:
        for name, undo in (("Undo", True), ("Redo", False)):
            label, action = self._step_label(undo=undo), self.actions_by_name[name]
            action.setEnabled(label is not None)
            action.setText(f"&{name}" if label is None else f"&{name} {label}")

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

    # --- map and round commands ------------------------------------------------------------
    def new_map(self) -> None:
        if not self.files.confirm_discard():
            return
        from desktop.dialogs.edits import MapSizeDialog

        dialog = MapSizeDialog(30, 20, "New encounter", self)
        if dialog.exec():
            width, height = dialog.size
            self.files.new(Encounter(map=BattleMap(width=width, height=height)))

    def resize_map(self) -> None:
        from desktop.dialogs.edits import MapSizeDialog

        battle_map = self.document.encounter.map
        dialog = MapSizeDialog(battle_map.width, battle_map.height, "Resize map", self)
        if dialog.exec() and dialog.size != (battle_map.width, battle_map.height):
            self.document.push(ResizeMap(*dialog.size))

    def edit_background(self) -> None:
        from desktop.dialogs.edits import BackgroundDialog

        current = self.document.encounter.map.background
        dialog = BackgroundDialog(current, self)
        if dialog.exec() and dialog.result_background != current:
            self.document.push(SetBackground(dialog.result_background))

    def edit_rules(self) -> None:
        from desktop.dialogs.rules import RulesDialog

        dialog = RulesDialog(self.document.encounter.profile, self)
        if dialog.exec() and dialog.result_profile not in (None, self.document.encounter.profile):
            assert dialog.result_profile is not None
            self.document.push(SetProfile(dialog.result_profile))

    def edit_weapons(self) -> None:
        from desktop.dialogs.weapons import WeaponsDialog

        WeaponsDialog(self.document, self).exec()

    def morale_check(self) -> None:
        chosen = self.selection.single()
        encounter = self.document.encounter
        side = (encounter.token(chosen).combatant.side if chosen and encounter.has_token(chosen)
                else Side.OPPOSITION)
        self.morale.begin_check(side)

    def surprise_check(self) -> None:
        from desktop.dialogs.edits import SurpriseDialog

        levels = [a.name for a in self.document.encounter.profile.alertness]
        dialog = SurpriseDialog(levels, self)
        if dialog.exec():
            self.timeline_panel.surprise(dialog.alertness.currentText(), dialog.stealth.value(),
                                         dialog.moved.value())

    # --- status and title ------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        self.cell_label = Readout()
        self.statusBar().addPermanentWidget(self.cell_label)
        self.statusBar().addPermanentWidget(self.share.status_button())
        for side, text in (("left", "◧ Log"), ("right", "Panels ◨")):
            self.statusBar().addPermanentWidget(_side_button(
                self.actions_by_name[f"{side.title()} sidebar"], text))
        self.hovered_cell: Cell | None = None
        self.view.cell_hovered.connect(self._describe_cell)
        self.document.changed.connect(self._after_change)
        self.document.replaced.connect(lambda: self._describe_cell(None))

    def _after_change(self, _changes: ChangeSet) -> None:
        """What was just painted, moved or undone under the pointer is said at once, not on
        the next mouse move; a tip shown before the change would tell of the old state (a
        walk-through read "HP -3/5" over a shove already undone)."""
        QToolTip.hideText()
        self._describe_cell(self.hovered_cell)

    def _describe_cell(self, cell: Cell | None) -> None:
        self.hovered_cell = cell
        battle_map = self.document.encounter.map
        if cell is None:
            self.cell_label.setText("")
            return
        if not battle_map.contains(cell):
            self.cell_label.setText("")
            return
        parts = [f"({cell.x}, {cell.y})", battle_map.terrain_at(cell).name.value,
                 f"{battle_map.elevation_at(cell):+d} ft"]
        hazard = geometry_of(self.document.encounter).hazard_at(cell)  # indexed: every move
        if hazard:
            parts.append(f"{hazard.name} ({hazard.kind.value})")
        token = self.document.encounter.token_at(cell)
        if token:
            parts.append(token.name)
        self.cell_label.setText(" · ".join(parts))

    def _update_title(self) -> None:
        self.setWindowTitle(self.document.title)

    # --- window events ---------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.confirm_discard():
            event.ignore()
            return
        self.files.autosaver.discard()
        self.files.shutdown()
        self.memory.save()
        self.table.close()
        self.share.close()
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Esc that no widget took (the Resolve panel's Cancel just clicked, a dice box)
        goes to the map's tool, which drops what it holds: it did nothing until the map
        was clicked, and in the Attack tool that click picked a target."""
        tool = self.view.tool
        if event.key() == Qt.Key.Key_Escape and tool is not None and tool.key(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile() and self.files.confirm_discard():
                self.files.open_path(Path(url.toLocalFile()))
                return


def _side_button(action: QAction, text: str) -> QToolButton:
    """A status-bar button for a sidebar's action, with fewer words than the menu's."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(action.toolTip())
    button.setCheckable(True)
    button.setAutoRaise(True)
    button.clicked.connect(lambda _=False: action.trigger())
    action.changed.connect(lambda: (button.setChecked(action.isChecked()),
                                    button.setEnabled(action.isEnabled())))
    return button


def _shown_path(result: ShoveResult) -> tuple[Cell, ...]:
    """The cells to slide through: the path, and the hazard cell if the target fell in
    (none when the shove failed and nobody moved)."""
    if result.path and result.final_cell != result.path[-1]:
        return (*result.path, result.final_cell)
    return result.path
