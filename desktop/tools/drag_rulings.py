"""What a token drag becomes besides a plain move, for the select tool: a held creature is
refused, a straight line through an enemy offers an overrun (Shift goes around), and during
a round a path past able enemies asks its evade checks (core.rules.manoeuvres.drag_offer).
The marks show on the map while dragging; on the drop the manoeuvre goes to the Resolve
panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from core.model.grid import Cell, Footprint
from core.rules.holds import move_refusal
from desktop.document.odds_service import Answer, OddsService, Stamp
from desktop.map.melee_items import CellMarks, Mark, chance_colour
from desktop.map.shove_overlay import percent

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.encounter import Encounter
    from core.rules.manoeuvres import DragOffer
    from core.rules.overrun import OverrunOdds, OverrunRequest
    from core.spatial.pathing import MovePath
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
    """The manoeuvre a drag in progress would be, and its marks on the map. Worked out
    per cell the pointer enters: memoised, and on the odds worker when it takes a while
    (:class:`desktop.document.odds_service.OddsService`); the drop settles it at once."""

    def __init__(self, context: ToolContext) -> None:
        self.context = context
        self.marks = CellMarks(context.scene.renderer)
        context.scene.addItem(self.marks)
        self.offer: DragOffer | None = None
        self.previews = OddsService(context.document)
        # Overrun odds per request at one document state (the previews' stamp): every goal
        # past the same enemy along the same line is the same overrun, ~1 ms each to work out.
        self._overruns: tuple[Stamp | None, dict[OverrunRequest, OverrunOdds]] = (None, {})
        # the drag's last cell while its offer is still being worked out: mover, work
        self._unsettled: tuple[str, Callable[[Encounter], DragOffer | None]] | None = None

    def preview(self, token_id: str, goal: Cell, path: MovePath, *, around: bool,
                budget_ft: float | None, show: Callable[[Ruling | None], None]) -> bool:
        """Work out how to show the drag when it is more than a move and hand that to
        ``show`` (None: a plain move); False when the answer comes later."""
        from core.rules.manoeuvres import drag_offer  # see desktop/__init__

        refusal = move_refusal(self.context.document.encounter, token_id)
        if refusal:
            self._unsettled, self.offer = None, None
            self.marks.clear()
            show(Ruling("held: cannot move", False, refusal))
            return True

        def compute(encounter: Encounter) -> DragOffer | None:
            return drag_offer(encounter, token_id, goal, path=path.cells if path.legal else (),
                              around=around, budget_ft=budget_ft, odds_of=self.overrun_odds)

        self.offer, self._unsettled = None, (token_id, compute)

        def take(answer: Answer) -> None:
            self._unsettled = None
            show(self._take(token_id, answer.value if answer.error is None else None))

        return self.previews.ask((token_id, goal, around, budget_ft, path.legal), compute,
                                 take)

    def overrun_odds(self, encounter: Encounter, request: OverrunRequest) -> OverrunOdds:
        """The odds of ``request``, remembered until the document changes (on the odds
        worker too: an answer from an encounter changed meanwhile is dropped by the odds
        service, and the next state starts a new memo)."""
        from core.rules.overrun import overrun_odds

        stamp = self.previews.stamp()
        if self._overruns[0] != stamp:
            self._overruns = (stamp, {})
        memo = self._overruns[1]
        if request not in memo:
            memo[request] = overrun_odds(encounter, request)
        return memo[request]

    def settle(self) -> DragOffer | None:
        """The offer of the drag's last cell, worked out now if the worker has not
        answered yet (a drop must not miss an evade check)."""
        if self._unsettled is not None:
            (token_id, compute), self._unsettled = self._unsettled, None
            self.previews.forget()
            self._take(token_id, compute(self.context.document.encounter))
        return self.offer

    def _take(self, token_id: str, offer: DragOffer | None) -> Ruling | None:
        self.offer = offer
        self.marks.show_marks(self._marks(token_id))
        if offer is None:
            return None
        return Ruling(offer.label, True, offer.text, offer.manoeuvre == "overrun")

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
        from core.actions.manoeuvre import action_for
        from desktop.tools.manoeuvre_cards import card

        panel, encounter = self.context.resolve_panel, self.context.document.encounter
        if offer.manoeuvre == "evade":
            panel.begin_roll(action_for(offer.request), card(encounter, offer.request))
        else:
            panel.begin(action_for(offer.request), card(encounter, offer.request))
        return True

    def clear(self) -> None:
        self.offer, self._unsettled = None, None
        self.previews.forget()
        self.marks.clear()
