"""Recording what the party sees as part of the step that showed it (History.amend), and
hiding tokens from the players (SetGmOnly)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from core.actions.commands import MoveToken, UpdateCombatant, toggle_door
from core.actions.fog import (
    RecordPartyView,
    RevealCells,
    SetDarkness,
    SetFogEnabled,
    SetGmOnly,
    record_party_view,
)
from core.actions.history import History
from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.mapmodel import Darkness
from core.spatial.playerview import party_sight, player_items, player_view
from core.spatial.vision import party_vision

MakeEncounter = Callable[..., Encounter]

# A (party) in the west room; a door at x = 3 leads to O (opposition) in the east room.
ROOMS = """
    A . . . O
    . . . . .
"""


@pytest.fixture
def rooms(make_encounter: MakeEncounter) -> Encounter:
    return make_encounter(ROOMS, {"O": Combatant(name="O", side="opposition")},
                          walls=[(3, 0, 3, 1), (3, 1, 3, 2, "door")])


def explored(encounter: Encounter) -> set[tuple[int, int]]:
    mask = encounter.fog.cells("explored", encounter.map.width, encounter.map.height)
    return {(int(x), int(y)) for y, x in zip(*np.nonzero(mask), strict=True)}


def west() -> set[tuple[int, int]]:
    return {(x, y) for x in range(3) for y in range(2)}


def test_a_move_and_what_it_shows_are_one_step(rooms: Encounter) -> None:
    history = History(rooms)
    history.push(MoveToken("A", Cell(2, 1)))
    assert record_party_view(history)
    assert history.labels() == ["Move token"] and explored(rooms) == west()
    history.undo()
    assert rooms.token("A").cell == Cell(0, 0) and explored(rooms) == set()
    history.redo()
    assert rooms.token("A").cell == Cell(2, 1) and explored(rooms) == west()


def test_opening_a_door_records_the_room_beyond_and_undo_forgets_it(rooms: Encounter
                                                                    ) -> None:
    history = History(rooms)
    history.push(RecordPartyView())
    door = next(w for w in rooms.map.walls if w.kind.value == "door")
    history.push(toggle_door(door))
    record_party_view(history)
    assert explored(rooms) == west() | {(3, 1), (4, 1)}  # through the doorway
    assert history.labels() == ["Record explored area", "Open door"]
    history.undo()
    assert explored(rooms) == west()


def test_nothing_new_seen_adds_nothing_to_the_step(rooms: Encounter) -> None:
    history = History(rooms)
    history.push(RecordPartyView())
    history.push(MoveToken("A", Cell(1, 0)))
    assert not record_party_view(history)
    history.undo()
    assert explored(rooms) == west()


def test_nothing_is_recorded_while_the_fog_is_off(rooms: Encounter) -> None:
    history = History(rooms)
    history.push(SetFogEnabled(False))
    history.push(MoveToken("A", Cell(1, 0)))
    assert not record_party_view(history)
    assert explored(rooms) == set()


def test_a_saved_step_is_never_amended(rooms: Encounter) -> None:
    history = History(rooms)
    history.push(MoveToken("A", Cell(1, 0)))
    history.mark_clean()
    record_party_view(history)
    assert history.labels() == ["Move token", "Record explored area"]
    assert not history.is_clean
    history.undo()
    assert history.is_clean and explored(rooms) == set()


def test_a_stroke_merged_after_a_recording_undoes_and_redoes_exactly(rooms: Encounter
                                                                    ) -> None:
    """The recording keeps the cells it added, so the rest of a brush stroke merged into
    the same step after it is neither lost on redo nor left behind on undo."""
    history = History(rooms)
    stroke = object()
    history.push(RevealCells({Cell(4, 0)}), stroke)
    record_party_view(history)
    history.push(RevealCells({Cell(4, 1)}), stroke)  # no new recording after this one
    after = rooms.fog
    assert len(history.labels()) == 1
    history.undo()
    assert rooms.fog.revealed == () and rooms.fog.explored == ()
    history.redo()
    assert rooms.fog == after


def test_recordings_of_one_drag_merge_into_one(rooms: Encounter) -> None:
    history = History(rooms)
    drag = object()
    for x in (1, 2):
        history.push(MoveToken("A", Cell(x, 1)), drag)
        record_party_view(history)
    history.undo()
    assert explored(rooms) == set() and rooms.token("A").cell == Cell(0, 0)


def test_recording_inside_a_group_joins_the_group(rooms: Encounter) -> None:
    history = History(rooms)
    with history.group("Move and look"):
        history.push(MoveToken("A", Cell(1, 1)))
        record_party_view(history)
    assert history.labels() == ["Move and look"]
    history.undo()
    assert explored(rooms) == set()


def test_a_hidden_token_neither_shows_nor_sees_and_hiding_is_undoable(rooms: Encounter
                                                                     ) -> None:
    history = History(rooms)
    history.push(SetGmOnly(["A"], True))
    assert rooms.token("A").gm_only and history.labels() == ["Hide from players"]
    assert not party_vision(rooms).any()
    assert player_items(rooms, player_view(rooms)).tokens == ()
    history.undo()
    assert not rooms.token("A").gm_only and party_vision(rooms).any()


def test_hiding_several_tokens_is_one_step(rooms: Encounter) -> None:
    history = History(rooms)
    history.push(SetGmOnly(["A", "O"], True))
    assert all(t.gm_only for t in rooms.tokens)
    history.undo()
    assert not any(t.gm_only for t in rooms.tokens)


def test_hiding_a_missing_token_is_refused_and_changes_nothing(rooms: Encounter) -> None:
    from core.actions.commands import CommandRefusedError

    history = History(rooms)
    with pytest.raises(CommandRefusedError):
        history.push(SetGmOnly(["A", "nobody"], True))
    assert not rooms.token("A").gm_only and history.labels() == []


def test_editing_a_combatant_keeps_merging_after_a_recording(rooms: Encounter) -> None:
    """Keystrokes in one field stay one step though a recording joined it (darkvision
    typed in the dark shows more with each digit)."""
    history = History(rooms)
    typing = object()
    combatant: Any = rooms.token("A").combatant
    for feet in (6, 60):
        history.push(UpdateCombatant("A", combatant.model_copy(update={"darkvision_ft": feet})),
                     typing)
        record_party_view(history)
    assert len(history.labels()) == 1


# --- the party's sight, computed once per change -----------------------------------------

EDITS: dict[str, Callable[[History], object]] = {
    "move": lambda h: h.push(MoveToken("A", Cell(4, 1))),
    "open the door": lambda h: h.push(toggle_door(
        next(w for w in h.encounter.map.walls if w.kind.value == "door"))),
    "darkness": lambda h: h.push(SetDarkness(Darkness.DARK)),
    "darkvision": lambda h: h.push(UpdateCombatant(
        "A", h.encounter.token("A").combatant.model_copy(update={"darkvision_ft": 5}))),
    "hide A": lambda h: h.push(SetGmOnly(["A"], True)),
    "O joins the party": lambda h: h.push(UpdateCombatant(
        "O", h.encounter.token("O").combatant.model_copy(update={"side": Side.PARTY}))),
    "knock A out": lambda h: h.push(UpdateCombatant(
        "A", h.encounter.token("A").combatant.toggled(Condition.KNOCKED_OUT))),
}


@pytest.mark.parametrize("edit", EDITS)
def test_the_kept_party_sight_follows_every_edit_that_changes_it(rooms: Encounter,
                                                                 edit: str) -> None:
    history = History(rooms)
    if edit == "darkvision":
        history.push(SetDarkness(Darkness.DARK))
    before = party_sight(rooms)
    assert party_sight(rooms) is before  # nothing changed: kept
    EDITS[edit](history)
    assert (party_sight(rooms) == party_vision(rooms)).all()
    assert not (party_sight(rooms) == before).all()
    history.undo()
    assert (party_sight(rooms) == before).all()


def test_an_edit_that_changes_no_sight_keeps_it(rooms: Encounter) -> None:
    history = History(rooms)
    before = party_sight(rooms)
    history.push(UpdateCombatant("A", rooms.token("A").combatant.hurt(1)))
    assert party_sight(rooms) is before
    with pytest.raises(ValueError, match="read-only"):
        before[0, 0] = False
