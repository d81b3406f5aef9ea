"""Creatures from the bestiary onto the map (core/actions/bestiary.py): numbered apart, in
free cells near the drop point, their weapons and art brought along, one undo step; and the
sides' summed balance."""

from __future__ import annotations

import pytest

from core.actions.bestiary import add_templates, balance
from core.actions.history import History
from core.model.bestiary import Template
from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap
from core.model.portrait import Portrait
from core.model.weapons import Weapon

KEY, ART = Portrait.from_bytes(b"\x89PNG kobold", "png")
SPEAR = Weapon(name="Kobold spear", damage="d6", reach_ft=10)
KOBOLD = Template(combatant=Combatant(name="Kobold", side=Side.OPPOSITION, portrait=KEY,
                                      weapons=("Kobold spear",)),
                  weapons=[SPEAR], portrait=ART)


def _history() -> History:
    return History(Encounter(map=BattleMap(width=6, height=6), tokens=[
        Token(id="kobold", combatant=Combatant(name="Kobold", side=Side.OPPOSITION), x=3, y=3),
        Token(id="mira", combatant=Combatant(name="Mira"), x=2, y=3)]))


def test_several_are_numbered_apart_near_the_drop_in_one_undo_step() -> None:
    history = _history()
    added = add_templates(history.encounter, KOBOLD, Cell(3, 3), count=3)
    assert history.encounter.token("kobold").name == "Kobold"  # worked out on a copy
    history.push(added.command)
    names = {history.encounter.token(i).name for i in added.token_ids}
    assert names == {"Kobold 2", "Kobold 3", "Kobold 4"}
    assert history.encounter.token("kobold").name == "Kobold 1"
    cells = [history.encounter.token(i).cell for i in added.token_ids]
    assert all(max(abs(c.x - 3), abs(c.y - 3)) == 1 for c in cells)  # the ring round it
    assert history.encounter.weapon("Kobold spear") == SPEAR
    assert all(history.encounter.token(i).combatant.portrait == KEY for i in added.token_ids)
    assert history.encounter.portraits[KEY] == ART
    history.undo()
    assert [t.name for t in history.encounter.tokens] == ["Kobold", "Mira"]
    assert not history.encounter.portraits
    assert all(w.name != "Kobold spear" for w in history.encounter.weapons)


def test_no_room_or_too_many_is_refused_and_nothing_changes() -> None:
    history = History(Encounter(map=BattleMap(width=2, height=1)))
    with pytest.raises(ValueError, match="no free 1×1 space on the map for Kobold"):
        add_templates(history.encounter, KOBOLD, Cell(0, 0), count=3)
    with pytest.raises(ValueError, match="1 to 50 creatures"):
        add_templates(history.encounter, KOBOLD, Cell(0, 0), count=51)
    assert not history.encounter.tokens and not history.can_undo


def test_a_weapon_named_apart_only_by_case_is_refused() -> None:
    encounter = Encounter()
    encounter.weapons.append(Weapon(name="KOBOLD SPEAR", reach_ft=5))
    with pytest.raises(ValueError, match="rename one first"):
        add_templates(encounter, KOBOLD, Cell(0, 0))


def test_the_balance_sums_what_still_stands() -> None:
    encounter = Encounter(tokens=[
        Token(id="a", combatant=Combatant(name="A", level=3, max_hp=20, hp=12), x=0, y=0),
        Token(id="b", combatant=Combatant(name="B", level=2, hp=-1), x=1, y=0),
        Token(id="k", combatant=Combatant(name="K", side=Side.OPPOSITION, level=1, hp=4,
                                          conditions=frozenset({Condition.KNOCKED_OUT})),
              x=2, y=0)])
    sums = balance(encounter)
    assert (sums[Side.PARTY].creatures, sums[Side.PARTY].standing, sums[Side.PARTY].levels,
            sums[Side.PARTY].hp) == (2, 1, 3, 12)
    assert sums[Side.OPPOSITION].standing == 0 and sums[Side.OPPOSITION].hp == 0
