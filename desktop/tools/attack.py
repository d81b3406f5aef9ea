"""Attack tool: the selected token (or the one clicked first) attacks the token clicked
next; the Resolve panel takes the weapon, the dice, and applies the damage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.qt import QKeyEvent, Qt
from desktop.tools.base import MapTool, TokenEntry, ToolContext

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet
    from desktop.map.tool_events import ToolEvent


class AttackTool(MapTool):
    name = "attack"
    label = "Attack"
    shortcut = "K"
    tooltip = ("Attack (K): the selected token (or click one) attacks the token you click "
               "next: d20 + HR vs AC, damage through AV. Esc goes back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.panel = context.resolve_panel
        self.attacker: str | None = None
        self.panel.released.connect(self._panel_released)

    def activate(self) -> None:
        super().activate()
        self.start(self.context.selection.single())

    def reset(self) -> None:
        self.attacker = None
        self.mark_chosen(None)

    def deactivate(self) -> None:
        self.mark_chosen(None)

    def follow(self, changes: ChangeSet) -> None:
        if self.attacker in changes.tokens:
            gone = not self.document.encounter.has_token(self.attacker)
            self.start(None if gone else self.attacker)

    def token_entries(self, token_id: str) -> list[TokenEntry]:
        name = self.document.encounter.token(token_id).name
        return [(f"Attack… ({name} attacks)", lambda: self.start(token_id))]

    def start(self, attacker_id: str | None) -> None:
        self.attacker = attacker_id
        self.mark_chosen(attacker_id)
        if attacker_id is None:
            self.say("Attack: click the attacker")
        else:
            name = self.document.encounter.token(attacker_id).name
            self.say(f"Attack: {name} — click the target (Esc: another attacker)")

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        token = self.document.encounter.token_at(event.cell)
        if token is None:
            return True
        if self.attacker is None or token.id == self.attacker:
            self.start(token.id)
        else:
            from core.actions.attack import AttackAction  # see desktop/__init__

            self.panel.begin(AttackAction(self.attacker, token.id), self._cover(token.id),
                             owner=self)
            self.say("Attack: set the weapon, roll or type the dice in the Resolve "
                             "panel")
        return True

    def _panel_released(self, owner: object) -> None:
        """The attack was resolved or cancelled: the attacker stays chosen for the next
        (its ring stays), and the status bar says so instead of asking for the weapon."""
        if owner is self:
            gone = self.attacker is not None and not self.document.encounter.has_token(
                self.attacker)
            self.start(None if gone else self.attacker)

    def _cover(self, target_id: str) -> str:
        """The target's cover from the attacker as measured on the map: it counts against
        missiles (the Missile tool); in melee only a shield does (RD "Cover from the map")."""
        from core.rules.cover import cover_on_map  # at the first aim: see desktop/__init__

        assert self.attacker is not None
        report = cover_on_map(self.document.encounter, self.attacker, target_id)
        return (f"Cover from here: {report.describe()} — against missiles; in melee only a "
                "shield counts")

    def key(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            if self.panel.owner is self:  # not a shove or a shot left waiting
                self.panel.clear()
            self.start(None)
            return True
        return False
