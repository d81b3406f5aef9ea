"""Shove tool: pick the attacker (the selected token, or click one), click an adjacent
target, aim — an arrow follows the pointer, snapped to the directions the rules allow, and
the landing odds are shaded live — then click to confirm and roll in the Resolve panel.
Esc steps back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.model.encounter import Token
from core.model.grid import Direction, allowed_directions, bearing
from core.rules.odds import shove_odds
from core.rules.shove import IllegalShoveError, ShoveRequest, prepare_shove
from desktop.document import EncounterDocument
from desktop.items import TokenItem
from desktop.overlay import ShovePreview
from desktop.panels.resolve import ResolvePanel
from desktop.qt import QKeyEvent, Qt
from desktop.tools.base import MapTool, ToolEvent

if TYPE_CHECKING:
    from desktop.scene import MapScene
    from desktop.view import MapView


class ShoveTool(MapTool):
    name = "shove"
    label = "Shove"
    shortcut = "S"
    tooltip = ("Shove (S): the selected token (or click one) shoves an adjacent target; aim "
               "with the pointer, click to confirm, then roll in the Resolve panel. Esc goes "
               "back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.panel: ResolvePanel | None = None
        self.attacker: str | None = None
        self.target: str | None = None
        self.direction: Direction | None = None
        self.preview = ShovePreview(self.renderer)
        self.scene.addItem(self.preview)

    def activate(self, view: MapView) -> None:
        super().activate(view)
        selected = [i for i in self.scene.selectedItems() if isinstance(i, TokenItem)]
        self.attacker = selected[0].token_id if len(selected) == 1 else None
        self.target, self.direction = None, None
        self._prompt()

    def deactivate(self) -> None:
        self.preview.clear()
        self.target, self.direction = None, None

    def start(self, attacker_id: str, target_id: str | None = None) -> None:
        """Begin from a context menu: the attacker, and maybe the target, already known."""
        self.attacker = attacker_id
        self.target, self.direction = None, None
        if target_id is not None:
            self._choose_target(target_id)
        self._prompt()

    def _prompt(self) -> None:
        if self.attacker is None:
            self.notify("Shove: click the attacker")
        elif self.target is None:
            self.notify(f"Shove: {self._name(self.attacker)} — click an adjacent target")

    def _name(self, token_id: str) -> str:
        return self.document.encounter.token(token_id).name

    # --- pointer ---------------------------------------------------------------------------
    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        token = self.document.encounter.token_at(event.cell)
        if self.attacker is None:
            if token is not None:
                self.attacker = token.id
            self._prompt()
            return True
        if self.target is None:
            if token is not None and token.id != self.attacker:
                self._choose_target(token.id)
            elif token is not None:
                self.notify("Shove: a token cannot shove itself — click another")
            return True
        self._confirm()
        return True

    def _choose_target(self, target_id: str) -> None:
        assert self.attacker is not None
        try:
            setup = prepare_shove(self.document.encounter,
                                  ShoveRequest(attacker=self.attacker, defender=target_id))
        except IllegalShoveError as error:
            self.notify(f"Cannot shove: {error}")
            return
        self.target = target_id
        self._aim(setup.direction)
        self.notify("Shove: aim with the pointer (the arrow snaps to allowed directions), "
                    "click to confirm")

    def move(self, event: ToolEvent) -> bool:
        if self.attacker is None or self.target is None:
            return False
        encounter = self.document.encounter
        attacker, target = encounter.token(self.attacker), encounter.token(self.target)
        pointer = self.renderer.to_grid(event.scene_pos)
        wanted = bearing(target.footprint.centre, pointer)
        self._aim(_nearest(allowed_directions(attacker.footprint, target.footprint,
                                              encounter.profile.direction_spread_deg), wanted))
        return True

    def _aim(self, direction: Direction) -> None:
        """Recompute and show the odds when the direction changes."""
        if direction == self.direction or self.target is None:
            return
        self.direction = direction
        odds = shove_odds(self.document.encounter, self.request())
        target: Token = self.document.encounter.token(self.target)
        self.preview.show_odds(odds, target.cell, target.footprint.size)
        if self.panel is not None:
            self.panel.preview_shove(odds)

    def request(self) -> ShoveRequest:
        assert self.attacker is not None and self.target is not None
        return ShoveRequest(attacker=self.attacker, defender=self.target,
                            direction=self.direction)

    def _confirm(self) -> None:
        if self.panel is None or self.target is None:
            return
        self.panel.begin_shove(self.request(), self.target)
        self.notify("Shove: roll for it or type the dice in the Resolve panel")

    def finished(self) -> None:
        """The shove was resolved or cancelled: ready for the next one."""
        self.preview.clear()
        self.target, self.direction = None, None
        self._prompt()

    def key(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        if self.target is not None:
            self.finished()
            if self.panel is not None:
                self.panel.clear()
        else:
            self.attacker = None
            self._prompt()
        return True


def _nearest(directions: tuple[Direction, ...], wanted: float) -> Direction:
    return min(directions, key=lambda d: abs((d.bearing - wanted + 180) % 360 - 180))
