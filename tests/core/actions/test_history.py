"""History.withdraw: a field's refused typing is taken back with nothing left to redo."""

from __future__ import annotations

from core.actions.commands import MoveToken
from core.actions.history import History
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap


def _history() -> History:
    return History(Encounter(map=BattleMap(width=5, height=5),
                             tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=0)]))


def test_withdraw_reverts_the_keyed_step_and_leaves_no_redo() -> None:
    history = _history()
    history.push(MoveToken("a", Cell(1, 0)))
    history.push(MoveToken("a", Cell(2, 0)), merge_key=7)
    history.push(MoveToken("a", Cell(3, 0)), merge_key=7)
    assert history.withdraw(7)
    assert history.encounter.token("a").cell == Cell(1, 0)
    assert (history.index, history.can_redo) == (1, False)


def test_withdraw_leaves_another_gestures_step_alone() -> None:
    history = _history()
    history.push(MoveToken("a", Cell(1, 0)), merge_key=3)
    assert not history.withdraw(4)
    assert history.encounter.token("a").cell == Cell(1, 0)
    history.mark_clean()
    assert history.withdraw(3) and not history.is_clean
