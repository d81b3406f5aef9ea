"""The tool interface (as Tiled's AbstractTool): activate, pointer and key handlers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.model.grid import Cell
from desktop.document import EncounterDocument
from desktop.qt import QKeyEvent, QPointF, Qt
from desktop.renderer import MapRenderer

if TYPE_CHECKING:
    from desktop.scene import MapScene
    from desktop.view import MapView


@dataclass(frozen=True)
class ToolEvent:
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


class MapTool:
    """Base class: handlers return True when they used the event. Tools never change the
    model directly; they push core commands through the document."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    tooltip = ""
    cursor = Qt.CursorShape.ArrowCursor
    wants_right_button = False

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        self.document = document
        self.scene = scene
        self.view: MapView | None = None
        self.notify: Callable[[str], object] = lambda _text: None  # the window's status bar

    @property
    def renderer(self) -> MapRenderer:
        return self.scene.renderer

    def activate(self, view: MapView) -> None:
        self.view = view

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
