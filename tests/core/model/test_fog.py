"""Fog of war: the saved layers, their validation, the GM's edits (undo, one step per drag),
and what the players' screen may show."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.actions.commands import MoveToken
from core.actions.fog import (
    ClearFogOverrides,
    HideCells,
    RecordPartyView,
    RevealCells,
    SetDarkness,
    SetFogEnabled,
)
from core.actions.history import History
from core.io.fileio import EncounterFileError, encounter_to_json, load_encounter, save_encounter
from core.model.combatant import Combatant
from core.model.encounter import Encounter
from core.model.fog import MAX_RUNS, FogState, mask_of, runs_of
from core.model.grid import Cell
from core.model.mapmodel import Darkness, Hazard, HazardKind
from core.spatial.playerview import player_items, player_view, seen_now
from core.spatial.vision import party_vision

MakeEncounter = Callable[..., Encounter]

# A (party) looks east; a wall at x = 3 hides O (opposition) and the pit from it.
CORRIDOR = """
    A . . . O
    . . . . .
"""


@pytest.fixture
def corridor(make_encounter: MakeEncounter) -> Encounter:
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(4, 1),))
    return make_encounter(CORRIDOR, {"O": Combatant(name="O", side="opposition")},
                          walls=[(3, 0, 3, 2)], hazards=[pit])


def hide_from_players(corridor: Encounter) -> None:
    """Mark O and the pit GM-only."""
    corridor.put_token(corridor.token("O").model_copy(update={"gm_only": True}))
    corridor.map.hazards[0] = corridor.map.hazards[0].model_copy(update={"gm_only": True})


def cells_of(mask: np.ndarray[Any, Any]) -> set[tuple[int, int]]:
    return {(int(x), int(y)) for y, x in zip(*np.nonzero(mask), strict=True)}


# --- the saved form --------------------------------------------------------------------

@given(arrays(np.bool_, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_runs_hold_exactly_the_cells_of_a_mask(mask: np.ndarray[Any, Any]) -> None:
    runs = runs_of(mask)
    assert (mask_of(runs, mask.shape[1], mask.shape[0]) == mask).all()
    assert list(runs) == sorted(runs, key=lambda r: (r[1], r[0]))
    assert sum(length for _, _, length in runs) == mask.sum()


def test_cells_beyond_the_map_are_ignored() -> None:
    fog = FogState(explored=((2, 0, 5), (0, 7, 1)))
    assert cells_of(fog.cells("explored", 4, 3)) == {(2, 0), (3, 0)}


@pytest.mark.parametrize(("explored", "message"), [
    ([[0, 0, float("nan")]], r"fog\.explored\.0\.2"),
    ([[10**12, 0, 1]], r"explored run 0 \[x=1000000000000, y=0, length=1\]"),
    ([[-1, 0, 1]], r"explored run 0 \[x=-1"),
    ([[0, 300, 1]], r"explored run 0 .* within 300×300"),
    ([[299, 0, 2]], r"explored run 0 \[x=299, y=0, length=2\]"),
    ([[0, 0, 0]], r"length=0"),
    ([[0, 0]], r"fog\.explored\.0"),
    ([[0, 0, 1]] * (MAX_RUNS + 1), r"explored has 45001 runs; at most 45000"),
])
def test_hostile_fog_is_refused_naming_the_field(corridor: Encounter, tmp_path: Path,
                                                 explored: Any, message: str) -> None:
    data = json.loads(encounter_to_json(corridor))
    data["fog"] = {"explored": explored}
    target = tmp_path / "enc.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EncounterFileError, match=message):
        load_encounter(target)


@pytest.mark.parametrize(("where", "value", "message"), [
    ("token", {"gm_only": "perhaps"}, r"tokens\.0\.gm_only"),
    ("darkvision", {"darkvision_ft": 10**9}, r"darkvision_ft: Input should be less"),
    ("darkvision", {"darkvision_ft": float("nan")}, r"darkvision_ft"),
    ("light", {"x": float("nan")}, r"map\.lights\.0\.x"),
    ("light", {"range_cells": 1e300}, r"map\.lights\.0\.range_cells"),
    ("map", {"darkness": "pitch"}, r"map\.darkness"),
])
def test_hostile_vision_fields_are_refused_naming_the_field(
        corridor: Encounter, tmp_path: Path, where: str, value: dict[str, Any],
        message: str) -> None:
    data = json.loads(encounter_to_json(corridor))
    data["map"]["lights"] = [{"x": 1, "y": 1, "range_cells": 2}]
    target_object = {"token": data["tokens"][0], "darkvision": data["tokens"][0]["combatant"],
                     "light": data["map"]["lights"][0], "map": data["map"]}[where]
    target_object.update(value)
    target = tmp_path / "enc.json"
    target.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EncounterFileError, match=message):
        load_encounter(target)


def test_fog_flags_and_darkness_survive_save_and_load(corridor: Encounter, tmp_path: Path
                                                      ) -> None:
    history = History(corridor)
    history.push(RecordPartyView())
    history.push(RevealCells({Cell(4, 0)}))
    history.push(HideCells({Cell(0, 1)}))
    history.push(SetFogEnabled(False))
    hide_from_players(corridor)
    corridor.map.darkness = Darkness.DIM
    save_encounter(corridor, tmp_path / "fog.json")
    loaded = load_encounter(tmp_path / "fog.json")
    assert loaded.fog == corridor.fog
    assert cells_of(loaded.fog.cells("explored", 5, 2)) == cells_of(party_vision(corridor))
    assert not loaded.fog.enabled
    assert loaded.token("O").gm_only and loaded.map.hazards[0].gm_only
    assert loaded.map.darkness is Darkness.DIM


# --- the GM's edits --------------------------------------------------------------------

def test_a_brush_drag_is_one_undo_step(corridor: Encounter) -> None:
    history = History(corridor)
    history.push(RevealCells({Cell(3, 0)}), merge_key="drag")
    history.push(RevealCells({Cell(4, 0), Cell(4, 1)}), merge_key="drag")
    assert cells_of(corridor.fog.cells("revealed", 5, 2)) == {(3, 0), (4, 0), (4, 1)}
    assert history.labels() == ["Reveal area"]
    assert history.undo().fog
    assert corridor.fog == FogState()
    history.redo()
    assert cells_of(corridor.fog.cells("revealed", 5, 2)) == {(3, 0), (4, 0), (4, 1)}


def test_a_hide_stroke_does_not_merge_into_a_reveal_drag(corridor: Encounter) -> None:
    history = History(corridor)
    history.push(RevealCells({Cell(0, 0)}), merge_key="drag")
    history.push(HideCells({Cell(0, 0)}), merge_key="drag")
    assert history.labels() == ["Reveal area", "Hide area"]
    history.undo()
    assert cells_of(corridor.fog.cells("revealed", 5, 2)) == {(0, 0)}


def test_reveal_and_hide_take_cells_from_each_other(corridor: Encounter) -> None:
    history = History(corridor)
    history.push(RevealCells({Cell(3, 0), Cell(4, 0), Cell(9, 9)}))  # (9, 9): off the map
    history.push(HideCells({Cell(4, 0), Cell(0, 0)}))
    assert cells_of(corridor.fog.cells("revealed", 5, 2)) == {(3, 0)}
    assert cells_of(corridor.fog.cells("hidden", 5, 2)) == {(4, 0), (0, 0)}
    history.push(ClearFogOverrides())
    assert corridor.fog.revealed == corridor.fog.hidden == ()
    history.undo()
    history.undo()
    assert cells_of(corridor.fog.cells("revealed", 5, 2)) == {(3, 0), (4, 0)}
    assert corridor.fog.hidden == ()


def test_recording_adds_what_the_party_sees_now_to_the_explored_cells(corridor: Encounter
                                                                     ) -> None:
    history = History(corridor)
    history.push(RecordPartyView())
    assert cells_of(corridor.fog.cells("explored", 5, 2)) == {(x, y) for x in range(3)
                                                                 for y in range(2)}
    history.push(MoveToken("A", Cell(3, 1)))  # to the far side of the wall
    history.push(RecordPartyView())
    assert corridor.fog.cells("explored", 5, 2).all()
    history.undo()
    assert not corridor.fog.cells("explored", 5, 2)[:, 3:].any()


# --- what the players see ----------------------------------------------------------------

def test_a_token_behind_a_wall_is_in_the_gm_view_but_not_the_players(corridor: Encounter
                                                                     ) -> None:
    view = player_view(corridor)
    assert [t.id for t in player_items(corridor, view).tokens] == ["A"]
    assert [t.id for t in corridor.tokens] == ["A", "O"]
    assert player_items(corridor, view).hazards == ()


def test_revealed_cells_show_what_stands_there_and_hidden_ones_hide_it(corridor: Encounter
                                                                      ) -> None:
    history = History(corridor)
    history.push(RevealCells({Cell(4, 0), Cell(4, 1)}))
    view = player_view(corridor)
    assert [t.id for t in player_items(corridor, view).tokens] == ["A", "O"]
    assert [h.name for h in player_items(corridor, view).hazards] == ["Pit"]
    history.push(HideCells({Cell(0, 0)}))
    assert [t.id for t in player_items(corridor, player_view(corridor)).tokens] == ["O"]


def test_explored_cells_stay_on_the_players_screen_but_show_no_tokens(corridor: Encounter
                                                                      ) -> None:
    history = History(corridor)
    history.push(MoveToken("A", Cell(3, 1)))
    history.push(RecordPartyView())
    history.push(MoveToken("A", Cell(0, 0)))
    view = player_view(corridor)
    assert view.explored.all() and not view.visible[:, 3:].any()
    items = player_items(corridor, view)
    assert [t.id for t in items.tokens] == ["A"] and [h.name for h in items.hazards] == ["Pit"]
    history.push(HideCells({Cell(4, 1)}))
    assert player_items(corridor, player_view(corridor)).hazards == ()


def test_gm_only_tokens_and_hazards_never_reach_the_players(corridor: Encounter) -> None:
    hide_from_players(corridor)
    History(corridor).push(SetFogEnabled(False))
    view = player_view(corridor)
    assert view.visible.all() and view.explored.all()
    items = player_items(corridor, view)
    assert [t.id for t in items.tokens] == ["A"] and items.hazards == ()


def test_fog_off_shows_everything_yet_records_only_what_is_seen(corridor: Encounter) -> None:
    history = History(corridor)
    history.push(SetFogEnabled(False))
    assert [t.id for t in player_items(corridor, player_view(corridor)).tokens] == ["A", "O"]
    history.push(RecordPartyView())
    assert (corridor.fog.cells("explored", 5, 2) == seen_now(corridor)).all()
    assert not seen_now(corridor)[:, 3:].any()


def test_darkness_is_one_undoable_step_that_changes_what_the_players_see(
        corridor: Encounter) -> None:
    history = History(corridor)
    assert history.push(SetDarkness(Darkness.DARK)).fog
    assert cells_of(player_view(corridor).visible) == {(0, 0)}  # A's own cell only
    history.undo()
    assert corridor.map.darkness is Darkness.DAYLIGHT
    assert player_view(corridor).visible[:, :3].all()
