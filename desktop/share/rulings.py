"""What core rules of a player's drag, the same as of the GM's: the path and its cost from
:func:`core.spatial.pathing.movement_graph`, a held creature refused
(:func:`core.rules.holds.move_refusal`), the evade checks a path during a round asks for
(:func:`core.rules.manoeuvres.drag_offer`), and the move itself as a core ``MoveAction``.
A preview of a drag is ruled over what the players know of the map
(:class:`core.spatial.known.KnownGroundGraph`, kept per state: :meth:`Seen.known_graph`);
the move asked for, over the whole map.
Nothing here decides a rule; it only words core's answers for a player, leaving out what
the players may not know (:class:`Redactor`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.actions.base import Outcome, plan
from core.actions.move import MoveAction, placement_problem
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.rules.holds import move_refusal
from core.rules.measure import measure
from core.rules.timeline import segments_moving
from core.spatial.pathing import MovePath, movement_graph

if TYPE_CHECKING:
    from core.model.encounter import Encounter
    from desktop.share.view import Seen

UNSEEN = "something unseen"
UNEXPLORED = "unexplored ground"


@dataclass(frozen=True)
class MoveRuling:
    """A drag to ``goal`` as core rules it: allowed or not, the path (only its cells the
    players see), its cost, a label for the page, and why the GM must resolve it (evade
    checks roll dice the GM's Resolve panel asks for), if so."""

    goal: Cell
    legal: bool
    label: str
    path: tuple[Cell, ...] = ()
    cost_ft: float = 0.0
    needs_gm: str = ""

    def as_json(self, token_id: str) -> dict[str, Any]:
        return {"token": token_id, "to": list(self.goal), "legal": self.legal,
                "label": self.label, "path": [list(c) for c in self.path],
                "cost_ft": self.cost_ft, "needs_gm": self.needs_gm}


@dataclass
class Redactor:
    """Words core's texts for the players: a name the players' view does not show (a hidden
    token, a creature in the fog, a hidden hazard) becomes "something unseen", and where
    it stands is left out. The names are gathered at the first text (a legal move needs
    none: 8 ms on the scale map)."""

    encounter: Encounter
    seen: Seen
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)
    _shown: set[str] = field(default_factory=set, repr=False)

    def names(self) -> tuple[list[str], set[str]]:
        """Every name a text may hold, longest first, and those the players may read."""
        seen, encounter = self.seen, self.encounter
        shown_hazards = {id(h) for h in seen.items.hazards}
        shown = {t.name for t in seen.items.tokens} | {h.name for h in seen.items.hazards}
        hidden = {t.name for t in encounter.tokens if t.id not in seen.token_ids}
        hidden |= {h.name for h in encounter.map.hazards if id(h) not in shown_hazards}
        return sorted((hidden | shown) - {""}, key=len, reverse=True), shown

    def __call__(self, text: str) -> str:
        if self._pattern is None:
            names, self._shown = self.names()
            alternatives = "|".join(re.escape(name) for name in names)
            self._pattern = re.compile(
                rf"(?<!\w)({alternatives})(?!\w)(?: at \(\d+, \d+\))?" if names else r"(?!)")
        return self._pattern.sub(self._word, text)

    def _word(self, found: re.Match[str]) -> str:
        """A shown name stays (with where it stands); a hidden one goes, and where too. (A
        shown "Orc Warrior" is not a hidden "Orc" and a word.)"""
        return found[0] if found[1] in self._shown else UNSEEN


def rule_move(encounter: Encounter, token_id: str, goal: Cell, budget_ft: float | None,
              seen: Seen) -> MoveRuling:
    """Core's ruling of a move of ``token_id`` to ``goal`` on the whole map, as the GM's drag
    has it (see :class:`MoveRuling`): what a player's move request is decided by."""
    from core.rules.manoeuvres import drag_offer

    redact = Redactor(encounter, seen)
    held = move_refusal(encounter, token_id)
    if held:
        return MoveRuling(goal, False, redact(held))
    path = movement_graph(encounter, encounter.token(token_id)).path_to(goal, budget_ft)
    if not path.legal:
        return MoveRuling(goal, False, redact(path.reason))
    problem = placement_problem(encounter, {token_id: goal})
    if problem:
        return MoveRuling(goal, False, redact(problem))
    offer = drag_offer(encounter, token_id, goal, path=path.cells, around=True,
                       budget_ft=budget_ft)
    return _ruled(encounter, goal, path, seen, offer and (redact(offer.label),
                                                         redact(offer.text)))


def preview_move(encounter: Encounter, token_id: str, goal: Cell, budget_ft: float | None,
                 seen: Seen) -> MoveRuling:
    """Core's ruling of a player's drag as the players may know it (a preview, asked for
    as often as a finger moves): ruled over the explored cells, with only the creatures
    the players see (:meth:`desktop.share.view.Seen.known_graph`). A goal in the fog has
    one answer whatever is there, and the move asked for goes to the GM."""
    from core.rules.manoeuvres import drag_offer

    token = encounter.token(token_id)
    held = move_refusal(encounter, token_id)
    if held:
        return MoveRuling(goal, False, Redactor(encounter, seen)(held))
    if seen.in_fog(token.at(goal).footprint):
        return MoveRuling(goal, True, UNEXPLORED, needs_gm=f"{UNEXPLORED}: the GM rules it")
    path = seen.known_graph(encounter, token).path_to(goal, budget_ft)
    if not path.legal:
        return MoveRuling(goal, False, path.reason)
    offer = drag_offer(encounter, token_id, goal, path=path.cells, around=True,
                       budget_ft=budget_ft, seen=seen.token_ids)
    return _ruled(encounter, goal, path, seen, offer and (offer.label, offer.text))


def _ruled(encounter: Encounter, goal: Cell, path: MovePath, seen: Seen,
           offer: tuple[str, str] | None) -> MoveRuling:
    """A legal move's ruling: its cost, the path's explored cells, and the evade checks
    (``offer``: label, text) the GM resolves, if any."""
    label = f"{path.cost_ft:g} ft · {segments_moving(path.cost_ft, encounter.profile)} seg"
    explored = seen.view.explored
    shown = tuple(c for c in path.cells if explored[c.y, c.x])
    if offer is None:
        return MoveRuling(goal, True, label, shown, path.cost_ft)
    return MoveRuling(goal, True, f"{label} · {offer[0]}", shown, path.cost_ft,
                      needs_gm=f"{offer[1]}: the GM resolves it")


def move_outcome(encounter: Encounter, token_id: str, goal: Cell,
                 budget_ft: float | None) -> Outcome[Any]:
    """The player's move planned as the GM's drag plans it: a core ``MoveAction`` (raises
    ``IllegalMoveError`` when core refuses it)."""
    return plan(MoveAction({token_id: goal}, budget_ft=budget_ft), encounter, ScriptedDice([]))


def ruler(encounter: Encounter, points: tuple[tuple[int, int], ...]) -> dict[str, Any]:
    """The ruler's answer: each leg's feet and the total, by the profile's diagonal rule."""
    measured = measure([Cell(*p) for p in points], encounter.profile)
    return {"points": [list(p) for p in points], "legs_ft": list(measured.legs_ft),
            "total_ft": measured.total_ft, "label": measured.describe()}
