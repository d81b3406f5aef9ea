"""Table play, run from the GM's window: the players' window (on which screen, following the
GM's view or not), the players' fog shown to the GM, table mode (UI scale and touch sizes),
turning the maps, and the fog and darkness of the map. Its menus are a table
(:meth:`TableController.menu_items`) added to the window's View and Map menus; choices are
remembered (QSettings ``player/...``, ``table/...``, ``fog/...``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.model.mapmodel import Darkness
from desktop.panels.layout import lay_out_now
from desktop.qt import (
    QAction,
    QActionGroup,
    QGuiApplication,
    QMenu,
    QMenuBar,
    QObject,
    QScreen,
    QTimer,
    QWidget,
)
from desktop.table.mode import SCALES, TableMode, as_bool
from desktop.widgets.screen_fit import FRAME_ROOM_PX
from desktop.widgets.shortcuts import SEPARATOR, MenuItem, add_items

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from desktop.document.document import EncounterDocument
    from desktop.map.scene import MapScene
    from desktop.map.view import MapView
    from desktop.table.player_window import PlayerWindow
    from desktop.tools.fog import FogTool
    from desktop.widgets.window_memory import WindowMemory


class TableController(QObject):
    """The window's table-play commands and the players' window they open."""

    def __init__(self, memory: WindowMemory, document: EncounterDocument, view: MapView,
                 fog_tool: FogTool) -> None:
        """Table play in ``memory``'s window, remembered in its settings."""
        window, settings = memory.window, memory.settings
        super().__init__(window)
        self.window, self.settings, self.document = window, settings, document
        self.view, self.fog_tool, self.memory = view, fog_tool, memory
        self.player_window: PlayerWindow | None = None
        self.mode = TableMode(window, settings, self.scenes)
        self.actions: dict[str, QAction] = {}
        document.changed.connect(lambda _changes: self._show_map_settings())
        document.replaced.connect(self._show_map_settings)
        view.turn_to(int(str(self.settings.value("table/turns", 0))))
        fog_tool.set_pinned(self._flag("fog/preview", False))
        if self.mode.enabled:
            self.mode.apply()

    def _flag(self, key: str, default: bool) -> bool:
        return as_bool(self.settings.value(key, default))

    def scenes(self) -> list[MapScene]:
        """The scenes showing the map: the GM's, and the players' while their window is
        open (animations and markers play in each)."""
        players = self.player_window
        shown = players is not None and players.isVisible()
        return [self.view.map_scene, *([players.scene] if shown and players else [])]

    # --- menus ---------------------------------------------------------------------------
    def menu_items(self) -> list[MenuItem]:
        fog = self.fog_tool
        return [
            MenuItem("&View", SEPARATOR, None, lambda: None),
            MenuItem("&View", "&Player window", "Ctrl+Shift+P", self.show_player_window,
                     "The map as the players see it, full screen on the player screen",
                     checked=lambda: False),
            MenuItem("&View", "Players f&ollow my view", "Ctrl+Shift+F", self.set_following,
                     "The player window shows what this view shows (off: pan it there)",
                     checked=lambda: self._flag("player/follow", True)),
            MenuItem("&View", "Turn players' map 90°", "Ctrl+Alt+R", self.turn_players,
                     "Turn the player window's map a quarter clockwise"),
            MenuItem("&View", "Show players' f&og", "Shift+O", self.pin_fog_preview,
                     "Tint what the players cannot see now on this map",
                     checked=lambda: fog.pinned),
            MenuItem("&View", SEPARATOR, None, lambda: None),
            MenuItem("&View", "&Table mode", "Ctrl+Shift+T", self.set_table_mode,
                     "Large text and touch-sized controls for a screen on the table",
                     checked=lambda: self.mode.enabled),
            MenuItem("&View", "T&urn map 90°", "Ctrl+Shift+R", self.turn_map,
                     "Turn this map a quarter clockwise (for players across the table)"),
            MenuItem("&Map", SEPARATOR, None, lambda: None),
            MenuItem("&Map", "&Fog of war on", None, fog.set_fog,
                     "Off: the players see the whole map",
                     checked=lambda: self.document.encounter.fog.enabled),
            MenuItem("&Map", "&Clear revealed and hidden areas", None, fog.clear_overrides,
                     "Forget the cells revealed or hidden by hand (one undo step)"),
        ]

    def build_menus(self, bar: QMenuBar, menus: dict[str, QMenu]) -> dict[str, QAction]:
        """Add the table-play entries to the View and Map menus; the actions by text."""
        self.actions = add_items(bar, menus, self.menu_items(), self.window)
        view = menus["&View"]
        screens = _choices("Player &screen", self.window, self._screen_choices,
                           lambda: screen_key(self._chosen_screen()), self.choose_screen)
        view.insertMenu(self.actions["Players follow my view"], screens)
        scale = _choices("UI &scale (table mode)", self.window,
                         lambda: [(f"{percent} %", percent) for percent in SCALES],
                         lambda: self.mode.percent, self.set_scale)
        view.insertMenu(self.actions["Turn map 90°"], scale)
        darkness = _choices("&Darkness", self.window,
                            lambda: [(d.value.capitalize(), d) for d in Darkness],
                            lambda: self.document.encounter.map.darkness,
                            self.fog_tool.set_darkness)
        menus["&Map"].addMenu(darkness)
        self.mode.changed.connect(lambda: self.actions["Table mode"].setChecked(
            self.mode.enabled))
        return self.actions

    # --- table mode ----------------------------------------------------------------------
    def set_table_mode(self, on: bool) -> None:
        """Table mode on or off. Off gives back exactly the window and panels it found
        (table mode's larger text widens them and the GM may rearrange them for the table)."""
        if on == self.mode.enabled:
            return
        if on:
            self.memory.keep_before_table()
        self.mode.set_enabled(on)
        if on:
            self._fit_screen()
        else:  # the normal text's sizes laid out first, then the layout they had
            QTimer.singleShot(0, self._give_back_layout)

    def _give_back_layout(self) -> None:
        lay_out_now()
        self.memory.give_back_after_table()

    def set_scale(self, percent: int) -> None:
        """A UI scale chosen from the menu: table mode comes on at that scale."""
        if not self.mode.enabled:
            self.memory.keep_before_table()
        self.mode.set_percent(percent)
        self._fit_screen()

    def _fit_screen(self) -> None:
        """Table mode's text only as large as the window's screen holds, saying so."""
        self.mode.fit_screen(self._fits_screen)
        shown = round(self.mode.scale * 100)
        if shown < self.mode.percent:
            self.window.statusBar().showMessage(
                f"Table mode at {shown} %: {self.mode.percent} % does not fit this screen",
                8000)

    def _fits_screen(self) -> bool:
        lay_out_now()
        least = self.window.minimumSizeHint()
        room = self.window.screen().availableGeometry()
        return (least.width() <= room.width() - FRAME_ROOM_PX.x()
                and least.height() <= room.height() - FRAME_ROOM_PX.y())

    def _show_map_settings(self) -> None:
        if "Fog of war on" in self.actions:
            self.actions["Fog of war on"].setChecked(self.document.encounter.fog.enabled)

    # --- the players' window -------------------------------------------------------------
    def show_player_window(self, on: bool = True) -> None:
        """Open the players' window on the player screen (full screen unless that is the
        GM's screen), or close it."""
        if not on:
            if self.player_window is not None:
                self.player_window.close()
            return
        if self.player_window is None:
            self.player_window = self._make_player_window()
        screen = self._chosen_screen()
        self.player_window.show_on(screen, full_screen=screen != self.window.screen())
        self.actions["Player window"].setChecked(True)

    def _make_player_window(self) -> PlayerWindow:
        from desktop.table.player_window import PlayerWindow  # at the first opening: 5 ms of start

        players = PlayerWindow(self.document, self.fog_tool.players, self.view)
        players.view.turn_to(int(str(self.settings.value("player/turns", 0))))
        players.following = self._flag("player/follow", True)
        players.closed.connect(lambda: self.actions["Player window"].setChecked(False))
        players.addAction(self.actions["Player window"])  # its key closes it from there too
        players.following_changed.connect(self._following_changed)
        return players

    def set_following(self, on: bool) -> None:
        self.settings.setValue("player/follow", on)
        if self.player_window is not None:
            self.player_window.set_following(on)

    def _following_changed(self, on: bool) -> None:
        self.settings.setValue("player/follow", on)
        self.actions["Players follow my view"].setChecked(on)

    def _screen_choices(self) -> list[tuple[str, str]]:
        return [(f"{index + 1}: {_describe(screen)}", screen_key(screen))
                for index, screen in enumerate(QGuiApplication.screens())]

    def _chosen_screen(self) -> QScreen:
        """The remembered player screen; else one that is not the GM's; else the GM's."""
        screens = QGuiApplication.screens()
        remembered = str(self.settings.value("player/screen", ""))
        gm_screen = self.window.screen()
        return (next((s for s in screens if screen_key(s) == remembered), None)
                or next((s for s in screens if s != gm_screen), gm_screen))

    def choose_screen(self, key: str) -> None:
        """Use this screen (by :func:`screen_key`) for the players: the window opens or
        moves there."""
        self.settings.setValue("player/screen", key)
        self.show_player_window(True)

    # --- turning, the fog preview --------------------------------------------------------
    def turn_map(self) -> None:
        view = self.view
        view.turn_to(view.map_scene.renderer.quarter_turns + 1)
        self.settings.setValue("table/turns", view.map_scene.renderer.quarter_turns)

    def turn_players(self) -> None:
        turns = (int(str(self.settings.value("player/turns", 0))) + 1) % 4
        self.settings.setValue("player/turns", turns)
        if self.player_window is not None:
            self.player_window.view.turn_to(turns)
            self.player_window.match_gm()

    def pin_fog_preview(self, on: bool) -> None:
        self.settings.setValue("fog/preview", on)
        self.fog_tool.set_pinned(on)

    def close(self) -> None:
        """The GM's window closes: so does the players', and the application's look is
        given back."""
        if self.player_window is not None:
            self.player_window.close()
        self.mode.restore()


def _describe(screen: QScreen) -> str:
    size = screen.geometry()
    return f"{screen.name() or 'screen'} — {size.width()}×{size.height()}"


def screen_key(screen: QScreen) -> str:
    """What tells a screen from the others, kept across runs (two X screens may share a
    name; monitors differ by where they are)."""
    area = screen.geometry()
    return (f"{screen.name()}|{screen.serialNumber()}|{area.width()}x{area.height()}"
            f"+{area.x()}+{area.y()}")


def _choices(title: str, parent: QWidget, choices: Callable[[], Sequence[tuple[str, Any]]],
             current: Callable[[], Any], choose: Callable[[Any], object]) -> QMenu:
    """A submenu of exclusive choices, filled each time it opens (the current one ticked)."""
    menu = QMenu(title, parent)

    def fill() -> None:
        menu.clear()
        group = QActionGroup(menu)
        chosen = current()
        for text, value in choices():
            action = menu.addAction(text)
            action.setCheckable(True)
            action.setChecked(value == chosen)
            action.triggered.connect(lambda _=False, v=value: choose(v))
            group.addAction(action)

    menu.aboutToShow.connect(fill)
    fill()
    return menu
