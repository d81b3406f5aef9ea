"""Token portraits embedded in the encounter: shared, undoable, bounded, saved exactly."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from core.actions.commands import AddToken, CommandRefusedError
from core.actions.history import History
from core.actions.portraits import SetPortrait
from core.io.fileio import EncounterFileError, encounter_from_json, encounter_to_json
from core.model.combatant import Combatant
from core.model.encounter import Encounter, Token
from core.model.limits import MAX_PORTRAIT_BYTES, MAX_PORTRAITS
from core.model.portrait import Portrait

RED_KEY, RED = Portrait.from_bytes(b"red art", "png")
BLUE_KEY, BLUE = Portrait.from_bytes(b"blue art", "webp")


def band() -> Encounter:
    return Encounter(tokens=[Token(id=name, combatant=Combatant(name=name), x=i, y=0)
                             for i, name in enumerate(("a", "b", "c"))])


def shown(encounter: Encounter) -> list[str | None]:
    return [t.combatant.portrait for t in encounter.tokens]


def test_art_is_stored_once_however_many_tokens_show_it() -> None:
    encounter = band()
    history = History(encounter)
    history.push(SetPortrait("a", RED_KEY, RED))
    history.push(SetPortrait("b", RED_KEY, RED))
    assert shown(encounter) == [RED_KEY, RED_KEY, None]
    assert encounter.portraits == {RED_KEY: RED}


def test_replaced_art_leaves_when_no_token_shows_it_and_undo_brings_it_back() -> None:
    encounter = band()
    history = History(encounter)
    history.push(SetPortrait("a", RED_KEY, RED))
    history.push(SetPortrait("b", RED_KEY, RED))
    history.push(SetPortrait("a", BLUE_KEY, BLUE))
    assert set(encounter.portraits) == {RED_KEY, BLUE_KEY}  # b still shows red
    history.push(SetPortrait("b", None))
    assert encounter.portraits == {BLUE_KEY: BLUE}
    history.undo()
    history.undo()
    assert shown(encounter) == [RED_KEY, RED_KEY, None]
    assert encounter.portraits == {RED_KEY: RED}
    history.set_index(0)
    assert shown(encounter) == [None, None, None] and encounter.portraits == {}


def test_a_key_without_its_art_is_refused() -> None:
    encounter = band()
    with pytest.raises(CommandRefusedError, match=f"no portrait {RED_KEY}"):
        History(encounter).push(SetPortrait("a", RED_KEY))
    assert encounter.portraits == {} and shown(encounter) == [None, None, None]


def test_the_portrait_table_is_bounded() -> None:
    encounter = band()
    encounter.portraits = dict(Portrait.from_bytes(bytes([i % 256, i // 256]), "png")
                               for i in range(MAX_PORTRAITS))
    with pytest.raises(CommandRefusedError, match=f"at most {MAX_PORTRAITS} portraits"):
        History(encounter).push(SetPortrait("a", RED_KEY, RED))


def test_a_token_naming_art_the_encounter_lacks_is_refused() -> None:
    encounter = band()
    stranger = Token(id="d", combatant=Combatant(name="Dara", portrait=RED_KEY), x=5, y=5)
    with pytest.raises(CommandRefusedError, match=r"Dara's portrait .* is not among"):
        History(encounter).push(AddToken(stranger))
    assert not encounter.has_token("d")


def test_portraits_save_and_load_exactly() -> None:
    encounter = band()
    History(encounter).push(SetPortrait("c", BLUE_KEY, BLUE))
    again = encounter_from_json(encounter_to_json(encounter))
    assert again.portraits == {BLUE_KEY: BLUE}
    assert again.token("c").combatant.portrait == BLUE_KEY
    assert again.portraits[BLUE_KEY].raw() == b"blue art"


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["tokens"][0]["combatant"].update(portrait="0" * 16), "is not among"),
    (lambda d: d["portraits"].update({"NOT-A-KEY": d["portraits"][RED_KEY]}),
     "String should match pattern"),
    (lambda d: d["portraits"][RED_KEY].update(data_base64="@@@@"), "not valid base64"),
    (lambda d: d["portraits"][RED_KEY].update(data_base64="A" * (MAX_PORTRAIT_BYTES * 2)),
     "String should have at most"),
    (lambda d: d["portraits"][RED_KEY].update(format="gif"), "Input should be 'png'"),
])
def test_a_bad_portrait_in_a_file_is_refused_by_name(
        change: Callable[[dict[str, Any]], None], message: str) -> None:
    encounter = band()
    History(encounter).push(SetPortrait("a", RED_KEY, RED))
    data = json.loads(encounter_to_json(encounter))
    change(data)
    with pytest.raises(EncounterFileError, match=message):
        encounter_from_json(json.dumps(data))
