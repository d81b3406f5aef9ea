"""Every bound of the encounter format holds whatever the GM does: a value that grows with
play is bounded where it grows, so an encounter the window or the command line accepted
can always be saved (issue 39)."""

from __future__ import annotations

from core.actions.history import History
from core.actions.round import RecordMovement
from core.io.fileio import encounter_from_json, encounter_to_bytes
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.limits import MAX_FEET
from core.model.mapmodel import BattleMap
from core.model.round import InitiativeEntry, RoundState


def walker() -> Encounter:
    """A 300 × 3 map in round 1, ``a`` on it with initiative."""
    return Encounter(map=BattleMap(width=300, height=3),
                     tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=1)],
                     timeline=RoundState(round_number=1,
                                         entries=[InitiativeEntry(token_id="a")]))


def test_the_feet_moved_in_a_round_stop_at_the_formats_bound() -> None:
    """Dragging a token across a 300-cell map and back seven times walked 21,000 ft, past
    the 10,000 ft a file holds: the window accepted every drag, and then could not save."""
    encounter = walker()
    history = History(encounter)
    across = tuple(Cell(x, 1) for x in range(300))
    for there_and_back in range(7):
        history.push(RecordMovement("a", 1495.0, across))
        history.push(RecordMovement("a", 1495.0, across[::-1]))
        assert encounter.timeline.entry("a").moved_ft == min(2990.0 * (there_and_back + 1),
                                                             MAX_FEET)
    assert encounter_from_json(encounter_to_bytes(encounter)) == encounter
    history.set_index(0)
    assert encounter.timeline.entry("a").moved_ft == 0
