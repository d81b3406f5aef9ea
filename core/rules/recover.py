"""Recovering a weapon or a shield a critical event took out of hand (002 "Critical events" 3,
5-7; rules-decisions: "the weapon is unusable until its wielder spends an action recovering
it (a dropped weapon lies on the map)").

Recovering is the creature's action this round (:mod:`core.rules.turns`). A dropped item is
picked up from where it lies: the creature must stand on that cell or next to it; a tangled
weapon or one stuck in the opponent is freed where the creature stands.
"""

from __future__ import annotations

from core.model.combatant import OutOfHand
from core.model.encounter import Encounter
from core.model.grid import Footprint
from core.rules.turns import TurnRefusedError, require_turn
from core.rules.value import RulesValue
from core.rules.weapons import label_of


class Recovery(RulesValue):
    """What a creature takes back into hand."""

    token_id: str
    name: str
    item: OutOfHand
    label: str

    def summary(self) -> str:
        verb = "picks up" if self.item.how == "dropped" else "frees"
        return f"{self.name} {verb} the {self.label}"


def recover(encounter: Encounter, token_id: str, item: str | None = None) -> Recovery:
    """``token_id`` takes back ``item`` (its first one out of hand when None); refused with
    the reason when it has none, cannot act, or stands too far from where it lies."""
    token = encounter.token(token_id)
    held = token.combatant.out_of_hand
    chosen = next((o for o in held if item is None or item in (o.item, label_of(o))), None)
    if chosen is None:
        raise TurnRefusedError(f"{token.name} has nothing out of hand to recover"
                               + (f" named {item!r}" if item else ""))
    require_turn(encounter, token.id)
    where = chosen.cell
    if where is not None and token.footprint.gap(Footprint(where.x, where.y, 1)) > 0:
        raise TurnRefusedError(f"{token.name}'s {label_of(chosen)} lies at ({where.x},"
                               f"{where.y}): stand on or next to it to pick it up")
    return Recovery(token_id=token.id, name=token.name, item=chosen, label=label_of(chosen))
