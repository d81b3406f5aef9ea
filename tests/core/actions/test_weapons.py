"""The weapon table edited as one undoable step (RD "Missiles": editable, saved)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.actions.commands import CommandRefusedError
from core.actions.history import History
from core.actions.weapons import ReplaceWeapons
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.weapons import DEFAULT_WEAPONS, MissileKind, Weapon

ARCHER = Token(id="a", combatant=Combatant(name="Ann", weapons=("Long bow",)), x=0, y=0)
BOLAS = Weapon(name="Bolas", damage="d4", missile_kind=MissileKind.THROWN, ranges=(10, 20, 40),
               miss_ft_per_point=1)


def test_a_new_table_is_one_step_and_saved(tmp_path: Path) -> None:
    encounter = Encounter(tokens=[ARCHER])
    history = History(encounter)
    changes = history.push(ReplaceWeapons([*DEFAULT_WEAPONS, BOLAS]))
    assert changes.weapons and encounter.weapon("bolas") == BOLAS
    history.undo()
    assert [w.name for w in encounter.weapons] == [w.name for w in DEFAULT_WEAPONS]
    history.redo()
    path = tmp_path / "table.json"
    save_encounter(encounter, path)
    assert load_encounter(path).weapon("Bolas") == BOLAS


@pytest.mark.parametrize(("table", "message"), [
    ([w for w in DEFAULT_WEAPONS if w.name != "Long bow"],
     "Ann carries the Long bow: take it from Ann first"),
    ([*DEFAULT_WEAPONS, BOLAS.model_copy(update={"name": "dagger"})],
     "two weapons are named 'dagger'"),
])
def test_refused_tables_change_nothing(table: list[Weapon], message: str) -> None:
    encounter = Encounter(tokens=[ARCHER])
    history = History(encounter)
    with pytest.raises(CommandRefusedError, match=message):
        history.push(ReplaceWeapons(table))
    assert encounter.weapons == list(DEFAULT_WEAPONS) and not history.can_undo
