"""What passes between the map view and the active tool: the pointer event as a tool sees it
and the interface the view drives (as Tiled's AbstractTool). The view knows tools only
through :class:`ViewTool`; :class:`desktop.tools.base.MapTool` implements it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

from desktop.qt import QKeyEvent, QPointF, Qt

if TYPE_CHECKING:
    from core.model.grid import Cell


class ToolEvent(NamedTuple):
    """A pointer event as a tool sees it: scene point, cell, buttons and modifiers."""

    scene_pos: QPointF
    cell: Cell
    button: Qt.MouseButton
    buttons: Qt.MouseButton
    modifiers: Qt.KeyboardModifier

    @property
    def alt(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.AltModifier)

    @property
    def shift(self) -> bool:
        return bool(self.modifiers & Qt.KeyboardModifier.ShiftModifier)

    @property
    def left(self) -> bool:
        return self.button == Qt.MouseButton.LeftButton


class ViewTool(Protocol):
    """The active tool as the map view drives it: handlers return True when they used the
    event (else the view pans, zooms or opens a menu)."""

    cursor: Qt.CursorShape
    wants_right_button: bool

    def activate(self) -> None: ...

    def deactivate(self) -> None: ...

    def hides_map_tips(self) -> bool: ...

    def press(self, event: ToolEvent) -> bool: ...

    def move(self, event: ToolEvent) -> bool: ...

    def release(self, event: ToolEvent) -> bool: ...

    def key(self, event: QKeyEvent) -> bool: ...
