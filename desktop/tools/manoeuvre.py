"""Manoeuvres tool: forcing back, charges, overruns and grappling. A token's right-click menu
lists the manoeuvres it can make where it stands, with their odds
(:func:`core.rules.manoeuvres.offers`); so does a click on the actor and then on its target.
A throw or a forcing back then asks where the creature goes: the choices are marked on the
map, a click picks one. The Resolve panel rolls and applies. Holds are drawn as links
between the tokens. Esc steps back."""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING

from core.actions.commands import ChangeSet, UpdateCombatant
from core.model.combatant import Condition
from core.model.melee import HoldKind
from core.rules.holds import active_holds
from desktop.map.melee_items import CellMarks, HoldLinks, Link, Mark, chance_colour
from desktop.qt import QCheckBox, QKeyEvent, QMenu, QPointF, Qt, QWidget
from desktop.tools.base import MapTool, TokenEntry, ToolContext

if TYPE_CHECKING:
    from core.model.grid import Footprint
    from core.rules.manoeuvres import Choice, Offer
    from desktop.map.tool_events import ToolEvent


class ManoeuvreTool(MapTool):
    name = "manoeuvre"
    label = "Manoeuvres"
    shortcut = "B"
    tooltip = ("Manoeuvres (B, for brawl): right-click a token, or click it and then its "
               "target, for forcing back, charges, overruns and grapples with their odds; a "
               "throw or a forcing back asks where the creature goes. Esc goes back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.panel = context.resolve_panel
        self.actor: str | None = None
        self.choices: list[Choice] = []
        self.leads: list[tuple[float, float]] = []  # where each choice is labelled
        self.follow_up = False
        self.menu: QMenu | None = None  # the manoeuvres against a clicked target
        self.links = HoldLinks(self.renderer)
        self.marks = CellMarks(self.renderer)
        self.scene.addItem(self.links)
        self.scene.addItem(self.marks)
        self.draw_holds()

    def make_options(self) -> list[QWidget]:
        follow = QCheckBox("Follow into the space left")
        follow.setToolTip("Forcing back: the attacker steps into the space the defender "
                          "leaves (002 Forcing opponents back)")
        follow.toggled.connect(lambda on: setattr(self, "follow_up", on))
        return [follow]

    # --- following the document -----------------------------------------------------------
    def draw_holds(self) -> None:
        encounter = self.document.encounter
        self.links.set_links([Link(encounter.token(h.holder).footprint,
                                   encounter.token(h.held).footprint, h.kind,
                                   f"lock {h.lock_damage}" if h.kind is HoldKind.LOCK
                                   else h.kind.value) for h in active_holds(encounter)])

    def reset(self) -> None:
        self.deactivate()
        self.actor = None
        self.draw_holds()

    def follow(self, changes: ChangeSet) -> None:
        if changes.tokens or changes.timeline:
            self.draw_holds()
        if self.choices and changes.tokens:
            self.deactivate()
            self._prompt()

    def deactivate(self) -> None:
        self.choices, self.leads = [], []
        self.marks.clear()

    def activate(self) -> None:
        super().activate()
        self.actor = self.context.selection.single()
        self._prompt()

    # --- menus --------------------------------------------------------------------------
    def token_entries(self, token_id: str) -> list[TokenEntry]:
        from core.rules.manoeuvres import offers  # see desktop/__init__

        entries: list[TokenEntry] = [(offer.text, partial(self.take, offer))
                                     for offer in offers(self.document.encounter, token_id)]
        combatant = self.document.encounter.token(token_id).combatant
        braced = combatant.has(Condition.BRACED)
        entries.append(("Stop bracing" if braced else "Brace against overruns",
                        lambda: self.toggle(token_id, braced=not braced)))
        entries.append((("Not a martial artist" if combatant.martial_artist
                         else "Martial artist (takedowns, locks)"),
                        lambda: self.toggle(token_id, martial=not combatant.martial_artist)))
        return entries

    def toggle(self, token_id: str, *, braced: bool | None = None,
               martial: bool | None = None) -> None:
        """Declare or drop the braced stance (002 Overruns), or mark a martial artist."""
        combatant = self.document.encounter.token(token_id).combatant
        update: dict[str, object] = {}
        if braced is not None:
            update["conditions"] = (combatant.conditions | {Condition.BRACED} if braced
                                    else combatant.conditions - {Condition.BRACED})
        if martial is not None:
            update["martial_artist"] = martial
        label = "Brace" if braced else "Stop bracing" if braced is False else "Martial artist"
        self.document.push(UpdateCombatant(token_id, combatant.model_copy(update=update), label))

    def take(self, offer: Offer) -> None:
        """Begin ``offer``: straight to the Resolve panel, or first pick where it sends the
        creature."""
        from core.actions.manoeuvre import action_for
        from core.rules.manoeuvres import push_choices, throw_choices
        from desktop.tools.manoeuvre_cards import card

        encounter = self.document.encounter
        if not offer.pick:
            self.panel.begin(action_for(offer.request), card(encounter, offer.request),
                             owner=self)
            self.say("Manoeuvre: roll for it or type the dice in the Resolve panel")
            return
        actor = encounter.token(_actor_of(offer))
        target = encounter.token(offer.target)
        self.choices = (push_choices(encounter, actor, target, self.follow_up)
                        if offer.manoeuvre == "force-back"
                        else throw_choices(encounter, actor, target))
        self.leads = [leading_point(c.footprint, target.footprint) for c in self.choices]
        self.marks.show_marks([Mark(c.footprint, c.text, chance_colour(float(c.chance)), lead)
                               for c, lead in zip(self.choices, self.leads, strict=True)])
        # What the marks' percentages are: "70%" beside the menu's "85% success" read as
        # a mistake (a wall or a creature behind stops some successes).
        meaning = "is moved there" if offer.manoeuvre == "force-back" else "falls in"
        self.say(f"{offer.text.split(' —')[0].rstrip('…')}: click where "
                 f"{target.name} goes (%: the chance {target.name} {meaning})")

    # --- pointer ------------------------------------------------------------------------
    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        if self.choices:
            self._pick(event)
            return True
        token = self.document.encounter.token_at(event.cell)
        if token is None:
            return True
        if self.actor is None or token.id == self.actor:
            self.actor = token.id
            self._prompt()
            return True
        self._menu_against(token.id, event.scene_pos)
        return True

    def _pick(self, event: ToolEvent) -> None:
        """The marked place clicked: of those whose footprint holds the cell (a big
        creature's overlap), the one whose label (its leading edge) is nearest."""
        x, y = self.renderer.to_grid(event.scene_pos)
        held = [(math.dist((x, y), lead), index) for index, (choice, lead)
                in enumerate(zip(self.choices, self.leads, strict=True))
                if event.cell in set(choice.footprint.cells())]
        choice = self.choices[min(held)[1]] if held else None
        if choice is None:
            self.say("Manoeuvre: click one of the marked places (Esc: back)")
            return
        self.deactivate()
        from core.actions.manoeuvre import action_for
        from desktop.tools.manoeuvre_cards import card

        self.panel.begin(action_for(choice.request),
                         card(self.document.encounter, choice.request), owner=self)
        self.say("Manoeuvre: roll for it or type the dice in the Resolve panel")

    def _menu_against(self, target_id: str, where: QPointF) -> None:
        assert self.actor is not None
        from core.rules.manoeuvres import offers

        found = [o for o in offers(self.document.encounter, self.actor)
                 if o.target == target_id]
        if not found:
            name = self.document.encounter.token(target_id).name
            self.say(f"Manoeuvre: nothing {self._name(self.actor)} can do to {name} "
                     "from here (it must be next to it)")
            return
        self.menu = QMenu(self.view)
        for offer in found:
            self.menu.addAction(offer.text, partial(self.take, offer))
        self.menu.popup(self.view.viewport().mapToGlobal(self.view.mapFromScene(where)))

    def _prompt(self) -> None:
        if self.actor is None or not self.document.encounter.has_token(self.actor):
            self.actor = None
            self.say("Manoeuvre: click the creature that acts")
        else:
            self.say(f"Manoeuvre: {self._name(self.actor)} — click its target")

    def _name(self, token_id: str) -> str:
        return self.document.encounter.token(token_id).name

    def hides_map_tips(self) -> bool:
        return bool(self.choices)  # the marks of a throw's or a force-back's places

    def key(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        if self.choices:
            self.deactivate()
        elif self.panel.owner is self:
            self.panel.clear()
        else:
            self.actor = None
        self._prompt()
        return True


def _actor_of(offer: Offer) -> str:
    request = offer.request
    return request.mover if hasattr(request, "mover") else request.attacker


def leading_point(footprint: Footprint, start: Footprint) -> tuple[float, float]:
    """Where a choice for a creature now on ``start`` is labelled and picked (grid units):
    the middle of the cells it newly takes on its side, so that a big creature's choices,
    which overlap, are labelled apart. A Medium creature's is its cell's centre."""
    (cx, cy), (sx, sy) = footprint.centre, start.centre
    reach = (footprint.size - 1) / 2
    return cx + _sign(cx - sx) * reach, cy + _sign(cy - sy) * reach


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)
