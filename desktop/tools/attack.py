"""Attack tool: the selected token (or the one clicked first) attacks the token clicked
next; the Resolve panel takes the weapon, the dice, and applies the damage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.document import EncounterDocument
from desktop.items import TokenItem
from desktop.panels.resolve import ResolvePanel
from desktop.qt import QKeyEvent, Qt
from desktop.tools.base import MapTool, ToolEvent

if TYPE_CHECKING:
    from desktop.scene import MapScene
    from desktop.view import MapView


class AttackTool(MapTool):
    name = "attack"
    label = "Attack"
    shortcut = "K"
    tooltip = ("Attack (K): the selected token (or click one) attacks the token you click "
               "next: d20 + HR vs AC, damage through AV. Esc goes back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, document: EncounterDocument, scene: MapScene) -> None:
        super().__init__(document, scene)
        self.panel: ResolvePanel | None = None
        self.attacker: str | None = None

    def activate(self, view: MapView) -> None:
        super().activate(view)
        selected = [i for i in self.scene.selectedItems() if isinstance(i, TokenItem)]
        self.start(selected[0].token_id if len(selected) == 1 else None)

    def start(self, attacker_id: str | None) -> None:
        self.attacker = attacker_id
        if attacker_id is None:
            self.notify("Attack: click the attacker")
        else:
            name = self.document.encounter.token(attacker_id).name
            self.notify(f"Attack: {name} — click the target")

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        token = self.document.encounter.token_at(event.cell)
        if token is None:
            return True
        if self.attacker is None or token.id == self.attacker:
            self.start(token.id)
        elif self.panel is not None:
            self.panel.begin_attack(self.attacker, token.id)
            self.notify("Attack: set the weapon, roll or type the dice in the Resolve panel")
        return True

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            if self.panel is not None:
                self.panel.clear()
            self.start(None)
            return True
        return False
