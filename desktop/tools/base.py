"""The tool interface (as Tiled's AbstractTool): activate, pointer and key handlers, the
tool's own options for the tool bar, its entries in a token's context menu, and its status
text. Tools follow the document: whatever they hold is dropped when the encounter is
replaced or when an edit removes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from desktop.qt import QAction, QKeyEvent, QObject, Qt, QWidget, QWidgetAction, Signal

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet
    from desktop.document.document import EncounterDocument
    from desktop.document.selection import SelectionModel
    from desktop.map.renderer import MapRenderer
    from desktop.map.scene import MapScene
    from desktop.map.tool_events import ToolEvent
    from desktop.map.view import MapView
    from desktop.panels.resolve import ResolvePanel


class ToolContext(NamedTuple):
    """What every tool works with."""

    document: EncounterDocument
    scene: MapScene
    selection: SelectionModel
    resolve_panel: ResolvePanel
    view: MapView


TokenEntry = tuple[str, Callable[[], None]]
#: The width a tool's options may take on the tool bar (at UI scale 100 %): the window
#: puts them beside the tools where it has this much room left.
OPTIONS_ROOM_PX = 700


class MapTool(QObject):
    """Base class: handlers return True when they used the event. Tools never change the
    model directly; they push core commands and actions through the document."""

    status = Signal(str)  # what the tool expects next, for the status bar
    reported = Signal(str)  # what just happened ("Door opened"), for the status bar

    name = "tool"
    label = "Tool"
    shortcut = ""
    tooltip = ""
    cursor = Qt.CursorShape.ArrowCursor
    wants_right_button = False

    def __init__(self, context: ToolContext) -> None:
        super().__init__()
        self.context = context
        self.document = context.document
        self.scene = context.scene
        self.view = context.view
        self._options: list[QAction] | None = None
        self.document.replaced.connect(self.reset)
        self.document.changed.connect(self.follow)

    @property
    def renderer(self) -> MapRenderer:
        return self.scene.renderer

    # --- what the window shows ----------------------------------------------------------
    def option_actions(self) -> list[QAction]:
        """The tool's options for the tool bar, made once."""
        if self._options is None:
            self._options = [_widget_action(self, widget) for widget in self.make_options()]
        return self._options

    def make_options(self) -> list[QWidget]:
        return []

    def hides_map_tips(self) -> bool:
        """Whether the map's hover tips (a token's ratings, a hazard's effect) would now
        cover what the tool shows: the odds marks while it aims."""
        return False

    def token_entries(self, token_id: str) -> list[TokenEntry]:
        """Entries for a token's context menu (the window activates the tool first)."""
        return []

    @property
    def is_active(self) -> bool:
        return self.view.tool is self

    def say(self, text: str) -> None:
        """Tell the GM what the tool expects next (only the active tool speaks): the window
        shows it again when a passing message ends."""
        if self.is_active:
            self.status.emit(text)

    def report(self, text: str) -> None:
        """Tell the GM what just happened ("Removed Mira"): shown once, never brought back
        (after an undo it would tell of a token that is back)."""
        if self.is_active:
            self.reported.emit(text)

    def mark_chosen(self, token_id: str | None) -> None:
        """Ring the token the active tool has chosen (an attacker), or none."""
        if not self.is_active:
            return
        encounter = self.document.encounter
        if token_id is not None and encounter.has_token(token_id):
            self.scene.focus_ring.show_on(encounter.token(token_id).footprint)
        else:
            self.scene.focus_ring.hide()

    # --- following the document ---------------------------------------------------------
    def reset(self) -> None:
        """A different encounter: drop everything held (the default: as on deactivation)."""
        self.deactivate()

    def follow(self, changes: ChangeSet) -> None:
        """An edit happened: drop or re-check anything it touched."""

    # --- events -------------------------------------------------------------------------
    def activate(self) -> None:
        """The tool became the view's active one."""

    def deactivate(self) -> None:
        """Drop any preview the tool shows."""

    def press(self, event: ToolEvent) -> bool:
        return False

    def move(self, event: ToolEvent) -> bool:
        return False

    def release(self, event: ToolEvent) -> bool:
        return False

    def key(self, event: QKeyEvent) -> bool:
        return False


def _widget_action(parent: QObject, widget: QWidget) -> QAction:
    action = QWidgetAction(parent)
    action.setDefaultWidget(widget)
    return action
