"""The replay (core/actions/replay.py): the encounter at every step of a real fight, the
step's log lines, and the live encounter and history left exactly as they were."""

from __future__ import annotations

from pathlib import Path

from core.actions.base import perform
from core.actions.commands import MoveToken, ResizeMap
from core.actions.history import History
from core.actions.replay import Replay
from core.actions.shove import ShoveAction
from core.io.fileio import encounter_to_json, load_encounter
from core.model.dice import ScriptedDice
from core.model.grid import Cell
from core.rules.shove import ShoveRequest

DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


def _fight() -> History:
    history = History(load_encounter(DEMO))
    ogre, mira = history.encounter.token("Ogre"), history.encounter.token("Mira")
    history.push(MoveToken(ogre.id, Cell(mira.x - 2, mira.y)))
    perform(ShoveAction(ShoveRequest(attacker=ogre.id, defender=mira.id)), history,
            ScriptedDice([20, 6, 6, 6, 6, 6, 6]))
    history.push(ResizeMap(history.encounter.map.width + 2, history.encounter.map.height))
    history.undo()  # a step undone is not part of the fight
    return history


def test_each_frame_is_the_encounter_at_that_step_and_the_live_one_is_untouched() -> None:
    history = _fight()
    live_text, live_index = encounter_to_json(history.encounter), history.index
    states = []
    probe = _fight()
    probe.set_index(0)
    for index in range(len(probe.labels()) + 1):
        probe.set_index(index)
        states.append(encounter_to_json(probe.encounter))
    replay = Replay(history)
    assert len(replay) == 3 and replay.current == 2
    assert replay.seek(3).index == 2  # the undone resize is not a frame
    for index in (2, 0, 1, 2, 0):
        frame = replay.seek(index)
        assert encounter_to_json(frame.encounter) == states[index]
        assert frame.label == (["Start", *probe.labels()])[index]
    assert encounter_to_json(history.encounter) == live_text
    assert history.index == live_index and history.can_redo
    history.undo()
    history.undo()
    assert history.index == 0  # its own steps still undo as before


def test_a_frame_names_the_log_lines_its_step_wrote() -> None:
    replay = Replay(_fight())
    assert replay.seek(0).log_lines == range(0)
    assert replay.seek(1).log_lines == range(0)  # a move logs nothing
    shove = replay.seek(2)
    assert shove.log_lines == range(1)
    assert shove.encounter.log[0].kind == "shove"
    assert replay.seek(99).index == 2 and replay.seek(-5).index == 0
