"""Shove tool: pick the attacker (the selected token, or click one), click an adjacent
target, aim — an arrow follows the pointer, snapped to the directions the rules allow, and
the landing odds are shaded live — then click to confirm and roll in the Resolve panel.
Esc steps back."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from core.model.grid import Direction, allowed_directions, bearing
from core.rules.conditions import NoActionError
from desktop.document.odds_service import Answer, OddsService
from desktop.map.shove_overlay import ShovePreview
from desktop.qt import QKeyEvent, Qt
from desktop.tools.base import MapTool, TokenEntry, ToolContext

if TYPE_CHECKING:
    from core.actions.commands import ChangeSet
    from core.rules.shove import ShoveRequest
    from desktop.map.tool_events import ToolEvent

AIM_PROMPT = ("Shove: aim with the pointer (the arrow snaps to allowed directions), click to "
              "confirm")


class ShoveTool(MapTool):
    name = "shove"
    label = "Shove"
    shortcut = "S"
    tooltip = ("Shove (S): the selected token (or click one) shoves an adjacent target; aim "
               "with the pointer, click to confirm, then roll in the Resolve panel. Esc goes "
               "back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.panel = context.resolve_panel
        self.attacker: str | None = None
        self.target: str | None = None
        self.offered: str | None = None  # the selected token, offered as the attacker
        self.direction: Direction | None = None
        self.preview = ShovePreview(self.renderer)
        self.odds = OddsService(self.document)
        self.scene.addItem(self.preview)
        self.panel.released.connect(self._panel_released)

    def activate(self) -> None:
        """The selected token is offered as the attacker, not taken: a click on a creature
        it can shove takes the offer; a click on any other token makes that the attacker
        (a GM's selected token was the one to be shoved as often as the shover)."""
        super().activate()
        self.attacker, self.offered = None, self.context.selection.single()
        self.target, self.direction = None, None
        self._prompt()

    def deactivate(self) -> None:
        self._clear_aim()
        self.target, self.direction = None, None
        self.mark_chosen(None)

    def reset(self) -> None:
        self.deactivate()
        self.attacker = self.offered = None

    def follow(self, changes: ChangeSet) -> None:
        """Re-check the shove being aimed when its tokens change; drop what is gone."""
        held = {self.attacker, self.target, self.offered} & changes.tokens
        if not held:
            return
        encounter = self.document.encounter
        if self.offered is not None and not encounter.has_token(self.offered):
            self.offered = None
        if self.attacker is not None and not encounter.has_token(self.attacker):
            self.reset()
        elif self.target is not None and not encounter.has_token(self.target):
            self.deactivate()
        elif self.target is not None:
            target, self.target, self.direction = self.target, None, None
            self._clear_aim()
            self._choose_target(target)  # says why when it no longer can
            return
        self._prompt()

    def token_entries(self, token_id: str) -> list[TokenEntry]:
        name = self._name(token_id)
        return [(f"Shove… ({name} shoves)", lambda: self.start(token_id))]

    def start(self, attacker_id: str, target_id: str | None = None) -> None:
        """Begin from a context menu: the attacker, and maybe the target, already known."""
        self.attacker, self.offered = attacker_id, None
        self.target, self.direction = None, None
        self._clear_aim()
        if target_id is not None:
            self._choose_target(target_id)
        self._prompt()

    def _prompt(self) -> None:
        self.mark_chosen(self.attacker or self.offered)
        if self.attacker is None and self.offered is not None:
            self.say(f"Shove: {self._name(self.offered)} (selected) shoves? Click its "
                     "target — or click another attacker")
        elif self.attacker is None:
            self.say("Shove: click the attacker")
        elif self.target is None:
            self.say(f"Shove: {self._name(self.attacker)} — click an adjacent target "
                     "(Esc: another attacker)")

    def _name(self, token_id: str) -> str:
        return self.document.encounter.token(token_id).name

    # --- pointer ---------------------------------------------------------------------------
    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        token = self.document.encounter.token_at(event.cell)
        if self.attacker is None:
            if token is not None and self._takes_offer(token.id):
                self.attacker, self.offered = self.offered, None
                self.mark_chosen(self.attacker)
                self._choose_target(token.id)  # it says why, when it cannot be shoved
                return True
            if token is not None:
                self.attacker, self.offered = token.id, None
            self._prompt()
            return True
        if self.target is None:
            if token is not None and token.id != self.attacker:
                self._choose_target(token.id)
            elif token is not None:
                self.say("Shove: a token cannot shove itself — click another")
            return True
        self._confirm()
        return True

    def _takes_offer(self, token_id: str) -> bool:
        """Whether a click on ``token_id`` takes the offered attacker: it stands next to it
        (whether the shove is allowed, the target's choice then says)."""
        if self.offered is None or token_id == self.offered:
            return False
        encounter = self.document.encounter
        return encounter.token(self.offered).footprint.adjacent(
            encounter.token(token_id).footprint)

    def _choose_target(self, target_id: str) -> None:
        assert self.attacker is not None
        from core.rules.shove import IllegalShoveError, ShoveRequest, prepare_shove

        try:
            setup = prepare_shove(self.document.encounter,
                                  ShoveRequest(attacker=self.attacker, defender=target_id))
        except (IllegalShoveError, NoActionError) as error:
            # The attacker stays chosen after a shove: a GM clicking the next creature to
            # act is told how to choose it (a GM's walk-through).
            self.say(f"Cannot shove: {error} — Esc chooses another attacker")
            return
        self.target = target_id
        self._aim(setup.direction)

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
        """Show the odds when the direction changes (memoised; worked out on the odds
        worker when they take a while)."""
        if direction == self.direction or self.target is None:
            return
        from core.rules.odds import shove_odds  # see desktop/__init__

        self.direction = direction
        request = self.request()
        target = self.document.encounter.token(self.target)
        origin, size = target.cell, target.footprint.size

        def show(answer: Answer) -> None:
            if answer.error is not None:
                self.preview.clear()
                self.say(f"Cannot shove: {answer.error}")
                return
            self.preview.show_odds(answer.value, origin, size)
            self.panel.preview_shove(answer.value)
            self.say(AIM_PROMPT)

        if not self.odds.ask(request, partial(shove_odds, request=request), show):
            self.say("Shove: working out the odds…")

    def _clear_aim(self) -> None:
        """No odds shown, and none to come."""
        self.odds.forget()
        self.preview.clear()
        self.panel.forget_preview()

    def request(self) -> ShoveRequest:
        assert self.attacker is not None and self.target is not None
        from core.rules.shove import ShoveRequest

        return ShoveRequest(attacker=self.attacker, defender=self.target,
                            direction=self.direction)

    def _confirm(self) -> None:
        if self.target is None:
            return
        from core.actions.shove import ShoveAction

        self.panel.begin(ShoveAction(self.request()), owner=self)
        self.say("Shove: roll for it or type the dice in the Resolve panel")

    def _panel_released(self, owner: object) -> None:
        if owner is self:
            self.finished()

    def finished(self) -> None:
        """The shove was resolved or cancelled: ready for the next one."""
        self._clear_aim()
        self.target, self.direction = None, None
        if self.attacker is not None and not self.document.encounter.has_token(self.attacker):
            self.attacker = None
        self._prompt()

    def hides_map_tips(self) -> bool:
        return self.target is not None  # aiming: the landing odds are around the target

    def key(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        if self.target is not None:
            if self.panel.owner is self:
                self.panel.clear()
            else:
                self.finished()
        else:
            self.attacker = self.offered = None
            self._prompt()
        return True


def _nearest(directions: tuple[Direction, ...], wanted: float) -> Direction:
    return min(directions, key=lambda d: abs((d.bearing - wanted + 180) % 360 - 180))
