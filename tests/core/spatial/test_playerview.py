"""The party's sight kept token by token and wall by wall equals the party's vision worked
out afresh, whatever the walls, doors and lights do."""

from __future__ import annotations

import random

import pytest

from core.actions.commands import (
    MoveToken,
    RemoveToken,
    ReplaceWalls,
    SetProfile,
    UpdateCombatant,
    toggle_door,
)
from core.actions.history import History
from core.model.combatant import Combatant, Size
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, Darkness, Light, WallKind, WallSegment
from core.model.profile import RulesProfile
from core.spatial.playerview import party_sight, token_boxes
from core.spatial.vision import party_vision


def busy_map(darkness: Darkness, seed: int) -> Encounter:
    """40 × 40: 250 seeded walls, 40 of them doors, four party tokens, a few lights."""
    rng = random.Random(seed)
    walls = []
    for index in range(250):
        x, y, run = rng.randint(0, 40), rng.randint(0, 40), rng.randint(1, 5)
        kind = WallKind.DOOR if index % 6 == 0 else WallKind.WALL
        end = (x + run, y) if index % 2 else (x, y + run)
        walls.append(WallSegment(x1=x, y1=y, x2=end[0], y2=end[1], kind=kind))
    lights = [Light(x=rng.uniform(0, 40), y=rng.uniform(0, 40), range_cells=rng.choice(
        [4.0, 12.0, 100.0])) for _ in range(6)]
    tokens = [Token(id=f"p{i}", combatant=Combatant(name=f"P{i}", darkvision_ft=10 * i),
                    x=5 + 9 * i, y=5 + 8 * i) for i in range(4)]
    return Encounter(map=BattleMap(width=40, height=40, walls=walls, lights=lights,
                                   darkness=darkness), tokens=tokens)


@pytest.mark.parametrize("darkness", [Darkness.DAYLIGHT, Darkness.DARK])
def test_doors_and_walls_changed_one_by_one_keep_the_partys_sight_exact(
        darkness: Darkness) -> None:
    encounter = busy_map(darkness, 11)
    history = History(encounter)
    rng = random.Random(5)
    assert (party_sight(encounter) == party_vision(encounter)).all()
    for _ in range(25):
        doors = [w for w in encounter.map.walls if w.kind is WallKind.DOOR]
        if rng.random() < 0.7:
            history.push(toggle_door(rng.choice(doors)))
        else:
            x, y = rng.randint(0, 39), rng.randint(0, 39)
            history.push(ReplaceWalls([WallSegment(x1=x, y1=y, x2=x + 1, y2=y + 1)], []))
        assert (party_sight(encounter) == party_vision(encounter)).all()
    history.set_index(0)
    assert (party_sight(encounter) == party_vision(encounter)).all()


def test_the_token_boxes_follow_moves_removals_growth_and_the_profile() -> None:
    """The cached boxes the players' items are read from stay exact as tokens move, are
    removed, grow (a new size) and as the profile changes every footprint."""
    encounter = Encounter(map=BattleMap(width=12, height=8), tokens=[
        Token(id="ogre", combatant=Combatant(name="Ogre", size=Size.LARGE), x=0, y=0),
        Token(id="rat", combatant=Combatant(name="Rat", size=Size.TINY), x=4, y=0)])
    history = History(encounter)

    def boxes() -> list[tuple[int, int, int]]:
        return [tuple(int(v) for v in box) for box in zip(*token_boxes(encounter), strict=True)]

    assert boxes() == [(0, 0, 2), (4, 0, 1)]
    history.push(MoveToken("rat", Cell(6, 3)))
    assert boxes() == [(0, 0, 2), (6, 3, 1)]
    ogre = encounter.token("ogre").combatant
    history.push(UpdateCombatant("ogre", ogre.model_copy(update={"size": Size.HUGE})))
    assert boxes() == [(0, 0, 3), (6, 3, 1)]
    history.push(SetProfile(RulesProfile(size_footprints=(1, 1, 1, 3, 5, 5))))
    assert boxes() == [(0, 0, 5), (6, 3, 1)]
    history.push(RemoveToken("ogre"))
    assert boxes() == [(6, 3, 1)]
    history.set_index(0)
    assert boxes() == [(0, 0, 2), (4, 0, 1)]
