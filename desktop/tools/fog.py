"""Fog of war tool: reveal cells to the players or hide them, with a brush or a rectangle
(Shift or rectangle mode); Alt does the other one. A stroke is one undo step. The tool bar
also turns the fog on or off, clears the cells revealed or hidden by hand, and sets the
map's darkness. While the tool is active (or View > Show players' fog is on) the GM's map
shows the players' fog as a tint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.fog import ClearFogOverrides, HideCells, RevealCells, SetDarkness, SetFogEnabled
from core.model.mapmodel import Darkness
from desktop.map.fog_layer import GM_FOG, FogLayer, PlayerViewModel
from desktop.qt import (
    QCheckBox,
    QColor,
    QComboBox,
    QLabel,
    QPushButton,
    QSignalBlocker,
    QTimer,
    QWidget,
)
from desktop.tools.paint import CellPaintTool

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet, Command
    from core.model.grid import Cell
    from desktop.map.tool_events import ToolEvent
    from desktop.tools.base import ToolContext

REVEAL, HIDE = "Reveal", "Hide"


class FogTool(CellPaintTool):
    name = "fog"
    label = "Fog of war"
    shortcut = "O"
    tooltip = ("Fog of war (O): drag to reveal cells to the players (Alt: hide them); Shift+"
               "drag or rectangle mode for a rectangle. The players' fog shows as a tint.")

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.hiding = False
        self._inverted = False  # Alt held when the stroke began
        self.players = PlayerViewModel(self.document)
        self.preview = FogLayer(self.renderer, GM_FOG)
        self.preview.hide()
        self.scene.addItem(self.preview)
        self.scene.floor.underlays.append(self.preview)  # drawn under the walls
        self.pinned = False  # View > Show players' fog
        self.fog_on: QCheckBox | None = None  # the options, once made
        self.darkness: QComboBox | None = None
        self.players.updated.connect(self._refresh_preview)
        self.document.replaced.connect(self._show_settings)

    # --- painting ------------------------------------------------------------------------
    def command(self, cells: set[Cell]) -> Command:
        hide = self.hiding != self._inverted
        return HideCells(cells) if hide else RevealCells(cells)

    def press(self, event: ToolEvent) -> bool:
        self._inverted = event.alt
        return super().press(event)

    def preview_colour(self) -> QColor:
        return QColor(20, 20, 20, 120) if self.hiding != self._inverted else \
            QColor(255, 255, 255, 110)

    # --- the GM's preview ----------------------------------------------------------------
    def set_pinned(self, on: bool) -> None:
        """Show the players' fog on the GM's map even when another tool is active."""
        self.pinned = on
        self._update_preview()

    def activate(self) -> None:
        super().activate()
        self._update_preview()

    def deactivate(self) -> None:
        super().deactivate()
        # Switching tools deactivates before the view takes the next one: look afterwards.
        QTimer.singleShot(0, self._update_preview)

    def _update_preview(self) -> None:
        self.preview.setVisible(self.pinned or self.is_active)
        self._refresh_preview()

    def _refresh_preview(self) -> None:
        if self.preview.isVisible():
            self.preview.show_view(self.players.view)

    # --- the options ---------------------------------------------------------------------
    def make_options(self) -> list[QWidget]:
        mode = QComboBox()
        mode.addItems([REVEAL, HIDE])
        mode.setToolTip("What a stroke does to the players' screen (Alt: the other one)")
        mode.setAccessibleName("Fog brush")
        mode.currentTextChanged.connect(lambda text: setattr(self, "hiding", text == HIDE))
        fog_on = self.fog_on = QCheckBox("Fog on")
        fog_on.setToolTip("Off: the players see the whole map (the explored and hand-made "
                          "areas are kept)")
        fog_on.toggled.connect(self.set_fog)
        clear = QPushButton("Clear hand edits")
        clear.setToolTip("Forget every cell revealed or hidden by hand (one undo step)")
        clear.clicked.connect(self.clear_overrides)
        darkness = self.darkness = QComboBox()
        darkness.addItems([d.value for d in Darkness])
        darkness.setToolTip("Daylight: the party sees as far as walls allow; dim: 30 ft "
                            "unless lit; dark: only lit cells and darkvision")
        darkness.setAccessibleName("Darkness")
        darkness.currentTextChanged.connect(lambda text: self.set_darkness(Darkness(text)))
        self._show_settings()
        return [QLabel(" Mode "), mode, *super().make_options(), fog_on, clear,
                QLabel(" Light "), darkness]

    def clear_overrides(self) -> None:
        fog = self.document.encounter.fog
        if fog.revealed or fog.hidden:
            self.document.push(ClearFogOverrides())

    def set_fog(self, on: bool) -> None:
        if on != self.document.encounter.fog.enabled:
            self.document.push(SetFogEnabled(on))

    def set_darkness(self, darkness: Darkness) -> None:
        if darkness is self.document.encounter.map.darkness:
            return
        if self.document.push(SetDarkness(darkness)) and darkness is not Darkness.DAYLIGHT:
            # The GM's map shows everything, dark or not: say where the dark shows.
            self.reported.emit(f"The map is {darkness.value}: the players see lit cells "
                               "and their darkvision — Shift+O tints what they cannot "
                               "see here")

    def follow(self, changes: ChangeSet) -> None:
        if changes.fog or changes.map_shape:
            self._show_settings()

    def _show_settings(self) -> None:
        """The options show the encounter's fog and darkness (an undo changes them too)."""
        if self.fog_on is None or self.darkness is None:
            return
        encounter = self.document.encounter
        with QSignalBlocker(self.fog_on), QSignalBlocker(self.darkness):
            self.fog_on.setChecked(encounter.fog.enabled)
            self.darkness.setCurrentText(encounter.map.darkness.value)
