"""A hypothesis state machine drives one encounter's history the way a GM does: moves (some
refused), shoves with seeded dice, walls drawn and erased, doors toggled, terrain painted,
tokens removed mid-round, undo, redo, save and load. After every step:

- no two tokens overlap and every token is on the map (the loader's own checks);
- a refused command changed nothing and never reached the history;
- a shoved token never passed through a blocking wall (checked against the exact oracle);
- saving then loading gives the same encounter, and saving that gives the same bytes;

and at the end, undoing everything gives back the starting encounter exactly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from core.actions.base import perform
from core.actions.commands import (
    Command,
    CommandRefusedError,
    MoveToken,
    PaintTerrain,
    RemoveToken,
    ReplaceWalls,
    toggle_door,
)
from core.actions.history import History
from core.actions.initiative import InitiativeAction
from core.actions.shove import ShoveAction
from core.io.fileio import encounter_from_json, encounter_to_bytes
from core.model.dice import SeededDice
from core.model.encounter import Encounter
from core.model.grid import Cell, Direction
from core.model.mapmodel import Terrain, WallKind, WallSegment
from core.rules.shove import ShoveRequest, ShoveResult
from tests.conftest import build_encounter, touches_exact

ROOM = """
    A . . . . . . B
    . . d d . . . .
    . . . . s s . .
    . C . . . . D .
    . . . . . . . .
    . . . . . E . .
"""
WIDTH, HEIGHT = 8, 6
cells = st.builds(Cell, st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
grid_points = st.tuples(st.integers(0, WIDTH), st.integers(0, HEIGHT))


def start() -> Encounter:
    return build_encounter(ROOM, walls=[(4, 0, 4, 2), (4, 2, 4, 3, "door"), (0, 5, 2, 5)])


def dump(encounter: Encounter) -> dict[str, Any]:
    data: dict[str, Any] = encounter.model_dump(mode="json")
    return data


class GmSession(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.encounter = start()
        self.history = History(self.encounter)
        self.initial = dump(self.encounter)
        self.dice = SeededDice(7)

    def push(self, command: Command) -> None:
        """Push; a refusal must leave the encounter and the history as they were."""
        before, steps = dump(self.encounter), self.history.labels()
        try:
            self.history.push(command)
        except CommandRefusedError:
            assert dump(self.encounter) == before
            assert self.history.labels() == steps

    def token_ids(self) -> list[str]:
        return [t.id for t in self.encounter.tokens]

    @rule(data=st.data(), cell=cells)
    def move(self, data: st.DataObject, cell: Cell) -> None:
        if self.token_ids():
            self.push(MoveToken(data.draw(st.sampled_from(self.token_ids())), cell))

    @rule(data=st.data(), direction=st.sampled_from(list(Direction)), seed=st.integers(0, 99))
    def shove(self, data: st.DataObject, direction: Direction, seed: int) -> None:
        pairs = [(a.id, d.id) for a in self.encounter.tokens for d in self.encounter.tokens
                 if a.id != d.id and a.footprint.adjacent(d.footprint)]
        if not pairs:
            return
        attacker, defender = data.draw(st.sampled_from(pairs))
        action = ShoveAction(ShoveRequest(attacker=attacker, defender=defender,
                                          direction=direction))
        try:
            outcome = perform(action, self.history, SeededDice(seed))
        except (ValueError, CommandRefusedError):
            return  # an illegal direction or shove: refused before anything changed
        self.check_no_wall_crossed(outcome.result)

    def check_no_wall_crossed(self, result: ShoveResult) -> None:
        blocking = [w for w in self.encounter.map.walls if w.blocks_movement]
        for a, b in zip(result.path, result.path[1:], strict=False):
            step = (a.x + 0.5, a.y + 0.5, b.x + 0.5, b.y + 0.5)
            assert not any(touches_exact(step, w.points) for w in blocking), (a, b)

    @rule(ends=st.tuples(grid_points, grid_points), kind=st.sampled_from(list(WallKind)))
    def draw_wall(self, ends: tuple[tuple[int, int], tuple[int, int]], kind: WallKind) -> None:
        (x1, y1), (x2, y2) = ends
        if (x1, y1) != (x2, y2):
            self.push(ReplaceWalls([WallSegment(x1=x1, y1=y1, x2=x2, y2=y2, kind=kind)], []))

    @precondition(lambda self: bool(self.encounter.map.walls))
    @rule(data=st.data())
    def erase_wall(self, data: st.DataObject) -> None:
        self.push(ReplaceWalls([], [data.draw(st.sampled_from(self.encounter.map.walls))]))

    @rule(data=st.data())
    def toggle_a_door(self, data: st.DataObject) -> None:
        doors = [w for w in self.encounter.map.walls if w.kind is WallKind.DOOR]
        if doors:
            self.push(toggle_door(data.draw(st.sampled_from(doors))))

    @rule(painted=st.sets(cells, min_size=1, max_size=6), terrain=st.sampled_from(list(Terrain)))
    def paint(self, painted: set[Cell], terrain: Terrain) -> None:
        self.push(PaintTerrain(painted, terrain))

    @rule()
    def roll_initiative(self) -> None:
        if self.encounter.tokens:
            perform(InitiativeAction(), self.history, self.dice)

    @precondition(lambda self: len(self.encounter.tokens) > 2)
    @rule(data=st.data())
    def remove_token(self, data: st.DataObject) -> None:
        self.push(RemoveToken(data.draw(st.sampled_from(self.token_ids()))))

    @rule(steps=st.integers(1, 3))
    def undo(self, steps: int) -> None:
        for _ in range(min(steps, self.history.index)):
            self.history.undo()

    @rule(steps=st.integers(1, 3))
    def redo(self, steps: int) -> None:
        for _ in range(min(steps, len(self.history.labels()) - self.history.index)):
            self.history.redo()

    @invariant()
    def saves_and_loads_exactly(self) -> None:
        saved = encounter_to_bytes(self.encounter)  # refuses what the loader would refuse
        again = encounter_from_json(saved)
        assert dump(again) == dump(self.encounter)
        assert encounter_to_bytes(again) == saved

    def teardown(self) -> None:
        self.history.set_index(0)
        assert dump(self.encounter) == self.initial


TestGmSession = GmSession.TestCase
TestGmSession.settings = settings(max_examples=40, stateful_step_count=20, deadline=None,
                                  suppress_health_check=[HealthCheck.too_slow])


SAVE_A_SESSION = """
import sys
from core.actions.base import perform
from core.actions.initiative import InitiativeAction
from core.actions.shove import ShoveAction
from core.actions.history import History
from core.io.fileio import encounter_to_bytes, load_encounter
from core.model.combatant import Condition
from core.model.dice import SeededDice
from core.rules.shove import ShoveRequest

encounter = load_encounter(sys.argv[1])
history = History(encounter)
perform(InitiativeAction(), history, SeededDice(3))
perform(ShoveAction(ShoveRequest(attacker="Ogre", defender="Mira")), history, SeededDice(1))
for token in encounter.tokens:
    encounter.put_token(token.with_combatant(token.combatant.model_copy(update={
        "conditions": frozenset({Condition.DAZED, Condition.PRONE, Condition.AIMING})})))
sys.stdout.buffer.write(encounter_to_bytes(encounter))
"""


def test_saved_bytes_do_not_depend_on_the_hash_seed() -> None:
    """Sets (conditions, fog cells, wall indexes) are written in a fixed order."""
    demo = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
    outputs = set()
    for seed in ("0", "1", "12345"):
        run = subprocess.run([sys.executable, "-c", SAVE_A_SESSION, str(demo)],
                             capture_output=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.add(run.stdout)
    assert len(outputs) == 1
    assert json.loads(outputs.pop())["log"]
