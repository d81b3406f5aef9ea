"""The player view as JSON: what the pages may draw, and the deltas between two states."""

from __future__ import annotations

import numpy as np

from core.actions.commands import MoveToken
from core.actions.history import History
from core.model.grid import Cell
from core.model.mapmodel import WallSegment
from desktop.share.view import Seen, ViewOptions, delta, runs, snapshot, walk
from tests.desktop.share.pages import secret_encounter


def test_the_view_shows_what_the_tv_shows_and_no_more() -> None:
    encounter = secret_encounter()
    view = snapshot(encounter, ViewOptions())
    assert sorted(view["tokens"]) == ["A", "B", "O"]
    assert view["tokens"]["O"].keys() == {"id", "name", "x", "y", "size", "side",
                                          "conditions", "portrait"}
    assert [h["name"] for h in view["hazards"].values()] == ["Firepit"]
    assert sum(view["explored"][1::2]) == 16  # the west half: the east is beyond the wall
    assert list(view["walls"].values()) == [[4, 0, 4, 4, "wall", False]]


def test_fog_off_shows_every_cell_but_still_no_hidden_token() -> None:
    encounter = secret_encounter()
    encounter.fog = encounter.fog.model_copy(update={"enabled": False})
    view = snapshot(encounter, ViewOptions())
    assert sorted(view["tokens"]) == ["A", "B", "C", "G", "O"]
    assert view["explored"] == [0, 32] and view["fog"] == {"on": False}
    assert sorted(h["name"] for h in view["hazards"].values()) == ["Firepit", "Morlock Den"]


def test_a_move_is_a_delta_of_that_token_alone() -> None:
    history = History(secret_encounter())
    before = snapshot(history.encounter, ViewOptions())
    history.push(MoveToken("A", Cell(1, 1)))
    after = snapshot(history.encounter, ViewOptions())
    changes = delta(before, after)
    assert list(changes["tokens"]["put"]) == ["A"] and changes["tokens"]["gone"] == []
    assert set(changes) <= {"tokens", "explored", "visible", "terrain", "walls", "turn"}
    assert delta(after, after) == {}


def test_runs_round_trip() -> None:
    mask = np.random.default_rng(3).random((7, 9)) > 0.5
    lengths = runs(mask)
    flat = np.repeat(np.arange(len(lengths)) % 2 == 1, lengths)
    assert (flat.reshape(7, 9) == mask).all()


def test_a_walk_shows_only_the_cells_the_players_see() -> None:
    encounter = secret_encounter()
    visible = Seen.of(encounter).view.visible
    path = (Cell(2, 1), Cell(3, 1), Cell(4, 1), Cell(5, 1))
    assert walk(encounter, "O", Cell(2, 1), Cell(5, 1), visible, walked=path) == [
        [2, 1], [3, 1]]
    assert walk(encounter, "O", Cell(2, 1), Cell(2, 2), visible) == [[2, 1], [2, 2]]


def test_terrain_is_sent_for_explored_cells_only() -> None:
    encounter = secret_encounter()
    encounter.map.terrain_rows = ["d.......", "........", "......d.", "........"]
    assert snapshot(encounter, ViewOptions())["terrain"] == {"0,0": "d"}  # not (6, 2)


def test_a_wall_is_sent_only_as_far_as_it_runs_beside_explored_cells() -> None:
    encounter = secret_encounter()
    walls = [*encounter.map.walls, WallSegment(x1=0, y1=2, x2=8, y2=2)]  # on into the fog
    encounter = encounter.model_copy(update={"map": encounter.map.model_copy(
        update={"walls": walls})})
    view = snapshot(encounter, ViewOptions())
    assert sorted(view["walls"].values()) == [[0.0, 2.0, 4.0, 2.0, "wall", False],
                                              [4.0, 0.0, 4.0, 4.0, "wall", False]]
