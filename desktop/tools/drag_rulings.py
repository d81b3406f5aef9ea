"""What a token drag becomes besides a plain move, for the select tool: a held creature is
refused, a straight line through an enemy offers an overrun (Shift goes around), and during
a round a path past able enemies asks its evade checks (core.rules.manoeuvres.drag_offer).
The marks show on the map while dragging; on the drop the manoeuvre goes to the Resolve
panel."""

from __future__ import annotations

from typing import NamedTuple

from core.actions.manoeuvre import action_for
from core.model.grid import Cell, Footprint
from core.rules.holds import move_refusal
from core.rules.manoeuvres import DragOffer, drag_offer
from core.spatial.pathing import MovePath
from desktop.manoeuvre_cards import card
from desktop.melee_items import CellMarks, Mark, chance_colour
from desktop.overlay import percent
from desktop.tools.base import ToolContext


class Ruling(NamedTuple):
    """How the path preview shows a drag that is more than a move: its tag, whether it is
    allowed, the whole story (tooltip and status), and whether the drag goes straight (an
    overrun charges in a line, not along the path around)."""

    label: str
    legal: bool
    tip: str
    straight: bool = False


class DragRulings:
    """The manoeuvre a drag in progress would be, and its marks on the map."""

    def __init__(self, context: ToolContext) -> None:
        self.context = context
        self.marks = CellMarks(context.scene.renderer)
        context.scene.addItem(self.marks)
        self.offer: DragOffer | None = None

    def preview(self, token_id: str, goal: Cell, path: MovePath, *, around: bool,
                budget_ft: float | None) -> Ruling | None:
        """How to show the drag when it is more than a move."""
        encounter = self.context.document.encounter
        refusal = move_refusal(encounter, token_id)
        self.offer = None if refusal else drag_offer(
            encounter, token_id, goal, path=path.cells if path.legal else (), around=around,
            budget_ft=budget_ft)
        self.marks.show_marks(self._marks(token_id))
        if refusal:
            return Ruling("held: cannot move", False, refusal)
        if self.offer is None:
            return None
        return Ruling(self.offer.label, True, self.offer.text,
                      self.offer.manoeuvre == "overrun")

    def _marks(self, token_id: str) -> list[Mark]:
        offer = self.offer
        if offer is None:
            return []
        if offer.target is not None:
            return [Mark(offer.target, f"over {percent(offer.chance)}",
                         chance_colour(float(offer.chance)))]
        size = self.context.document.encounter.token(token_id).footprint.size
        return [Mark(Footprint(c.cell.x, c.cell.y, size), f"evade {c.enemy} {percent(c.chance)}",
                     chance_colour(float(c.chance))) for c in offer.checks]

    def drop(self) -> bool:
        """Hand the drag's manoeuvre to the Resolve panel (evade checks roll at once with
        "Roll for me"); False when the drag is a plain move."""
        offer, self.offer = self.offer, None
        self.marks.clear()
        if offer is None:
            return False
        panel, encounter = self.context.resolve_panel, self.context.document.encounter
        if offer.manoeuvre == "evade":
            panel.begin_roll(action_for(offer.request), card(encounter, offer.request))
        else:
            panel.begin(action_for(offer.request), card(encounter, offer.request))
        return True

    def clear(self) -> None:
        self.offer = None
        self.marks.clear()
