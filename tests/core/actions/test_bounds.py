"""Every bound of the encounter format holds whatever the GM does: a value that grows with
play is bounded where it grows, so an encounter the window or the command line accepted
can always be saved (issue 39)."""

from __future__ import annotations

import base64
import json

import pytest

from core.actions.commands import (
    AddToken,
    Command,
    CommandRefusedError,
    SetBackground,
    UpdateCombatant,
)
from core.actions.history import History
from core.actions.portraits import SetPortrait
from core.actions.round import NextRound, RecordMovement, SetActionLength
from core.io.fileio import EncounterFileError, encounter_from_json, encounter_to_bytes
from core.model.combatant import NAME_CHARS, Combatant, Condition
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.limits import (
    MAX_FEET,
    MAX_FILE_BYTES,
    MAX_IMAGE_BYTES,
    MAX_PORTRAIT_BYTES,
    MAX_ROUND,
    MAX_TOKENS,
)
from core.model.mapmodel import Background, BattleMap
from core.model.portrait import Portrait
from core.model.round import ConditionTimer, InitiativeEntry, RoundState


def saved_and_loaded(encounter: Encounter) -> dict[str, object]:
    """The encounter saved (the save refuses what the loader would) and loaded again."""
    again: dict[str, object] = encounter_from_json(encounter_to_bytes(encounter)).model_dump()
    return again


def walker() -> Encounter:
    """A 300 × 3 map in round 1, ``a`` on it with initiative."""
    return Encounter(map=BattleMap(width=300, height=3),
                     tokens=[Token(id="a", combatant=Combatant(name="A"), x=0, y=1)],
                     timeline=RoundState(round_number=1,
                                         entries=[InitiativeEntry(token_id="a")]))


def test_the_feet_moved_in_a_round_stop_at_the_formats_bound() -> None:
    """Dragging a token across a 300-cell map and back seven times walked 21,000 ft, past
    the 10,000 ft a file holds: the window accepted every drag, and then could not save."""
    encounter = walker()
    history = History(encounter)
    across = tuple(Cell(x, 1) for x in range(300))
    for there_and_back in range(7):
        history.push(RecordMovement("a", 1495.0, across))
        history.push(RecordMovement("a", 1495.0, across[::-1]))
        assert encounter.timeline.entry("a").moved_ft == min(2990.0 * (there_and_back + 1),
                                                             MAX_FEET)
    assert saved_and_loaded(encounter) == encounter.model_dump()
    history.set_index(0)
    assert encounter.timeline.entry("a").moved_ft == 0


TWINS = {
    "morale_answered": [{"side": "opposition", "kind": "outnumbered"}] * 2,
    "timers": [{"token_id": "a", "condition": "dazed", "rounds": 1},
               {"token_id": "a", "condition": "dazed", "rounds": 3}],
    "ac_penalties": [{"token_id": "a", "value": -1, "until_round": 2}] * 2,
    "pop_ups": [{"token_id": "a", "spot": [0, 0], "round_number": 1}] * 2,
    "waiting": [{"token_id": "a", "spot": [0, 0], "round_number": 1}] * 2,
}


@pytest.mark.parametrize("field", list(TWINS))
def test_what_the_round_keeps_one_of_is_refused_twice_in_a_file(field: str) -> None:
    """10,000 answered triggers (no more than 2,202 differ) loaded, and one more check
    took them past their cap: the file is refused instead, naming the twin."""
    data = {"schema": "battlemap.encounter", "version": 1,
            "tokens": [{"id": "a", "x": 0, "y": 0, "combatant": {"name": "A"}}],
            "timeline": {"round_number": 1, field: TWINS[field]}}
    with pytest.raises(EncounterFileError, match=rf"timeline\.{field}: item 1 is the same"):
        encounter_from_json(json.dumps(data))


def test_a_lowered_guard_lasts_no_longer_than_the_next_round() -> None:
    data = {"schema": "battlemap.encounter", "version": 1,
            "tokens": [{"id": "a", "x": 0, "y": 0, "combatant": {"name": "A"}}],
            "timeline": {"round_number": 1, "ac_penalties": [
                {"token_id": "a", "value": -1, "until_round": 900}]}}
    with pytest.raises(EncounterFileError, match="until round 900"):
        encounter_from_json(json.dumps(data))


def test_a_stun_stepping_down_beside_a_running_daze_leaves_the_longer_timer() -> None:
    stunned = Combatant(name="A", conditions=frozenset({Condition.STUNNED, Condition.DAZED}))
    encounter = Encounter(map=BattleMap(width=3, height=3),
                          tokens=[Token(id="a", combatant=stunned, x=0, y=0)],
                          timeline=RoundState(round_number=1, timers=[
                              ConditionTimer(token_id="a", condition=Condition.STUNNED,
                                             rounds=1),
                              ConditionTimer(token_id="a", condition=Condition.DAZED,
                                             rounds=3)]))
    History(encounter).push(NextRound())
    assert encounter.timeline.timers == [
        ConditionTimer(token_id="a", condition=Condition.DAZED, rounds=2)]
    assert saved_and_loaded(encounter) == encounter.model_dump()


def test_a_creature_added_again_keeps_its_numbered_name_within_the_limit() -> None:
    """A 60-character name (the limit) numbered "… 2" was 62 characters: the creature was
    added, and the encounter could not be saved."""
    long_name = "Skeleton of the Forgotten Crypt Beneath the Weeping Mountain"
    assert len(long_name) == NAME_CHARS
    encounter = Encounter(map=BattleMap(width=40, height=40))
    history = History(encounter)
    for column in range(12):
        name, renames = encounter.numbered_name(long_name)
        with history.group("Add"):
            for token_id, new_name in renames.items():
                old = encounter.token(token_id).combatant
                history.push(UpdateCombatant(token_id, old.model_copy(update={"name": new_name})))
            history.push(AddToken(Token(id=encounter.unique_id(name), x=column, y=0,
                                        combatant=Combatant(name=name))))
    names = [t.name for t in encounter.tokens]
    assert len(set(names)) == 12 and max(map(len, names)) <= NAME_CHARS
    assert names[-1].endswith(" 12") and max(len(t.id) for t in encounter.tokens) <= 60
    assert saved_and_loaded(encounter) == encounter.model_dump()


def refused(history: History, command: Command) -> str:
    """Push ``command``, which must be refused leaving the encounter and the history as
    they were; the reason."""
    before, steps = history.encounter.model_dump(), history.labels()
    with pytest.raises(CommandRefusedError) as refusal:
        history.push(command)
    assert history.encounter.model_dump() == before and history.labels() == steps
    return str(refusal.value)


def test_the_token_past_the_cap_is_refused_with_the_reason() -> None:
    encounter = Encounter(map=BattleMap(width=300, height=300), tokens=[
        Token(id=f"t{i}", combatant=Combatant(name="T"), x=i % 300, y=i // 300)
        for i in range(MAX_TOKENS)])
    reason = refused(History(encounter), AddToken(Token(id="one-more", x=0, y=299,
                                                       combatant=Combatant(name="T"))))
    assert reason == "an encounter file cannot hold this: tokens: 1,001 tokens; at most 1,000"


def test_the_round_past_the_last_a_file_holds_is_refused() -> None:
    encounter = walker()
    encounter.timeline.round_number = MAX_ROUND
    assert refused(History(encounter), NextRound()) == (
        "an encounter file cannot hold this: round_number: Input should be less than or "
        "equal to 1000000")


def test_a_long_action_past_the_segments_a_file_holds_is_refused() -> None:
    reason = refused(History(walker()), SetActionLength("a", 101))
    assert "the initiative of a: action_segments: 101 is more than 100" in reason


def test_a_combatant_edited_past_a_bound_is_refused() -> None:
    encounter = walker()
    giant = encounter.token("a").combatant.model_copy(update={"max_hp": 10**6})
    assert "A: max_hp: 1000000 is more than 9999" in refused(History(encounter),
                                                             UpdateCombatant("a", giant))


def test_art_that_would_take_the_file_past_its_size_is_refused() -> None:
    """A background at the embedded-image cap (40 MiB, 53.3 MiB in base64) leaves room
    for some portraits of the largest size, not for 40 of them."""
    encounter = walker()
    big = base64.b64encode(bytes(MAX_IMAGE_BYTES)).decode("ascii")
    history = History(encounter)
    history.push(SetBackground(Background(data_base64=big)))
    tokens = [Token(id=f"p{i}", combatant=Combatant(name="P"), x=i, y=0) for i in range(40)]
    for token in tokens:
        history.push(AddToken(token))
    with pytest.raises(CommandRefusedError, match=r"file: it would be 6\d\.\d MiB without"):
        for index, token in enumerate(tokens):
            key, art = Portrait.from_bytes(index.to_bytes(4) * (MAX_PORTRAIT_BYTES // 4), "png")
            history.push(SetPortrait(token.id, key, art))
    assert len(encounter.portraits) < 40
    assert len(encounter_to_bytes(encounter)) <= MAX_FILE_BYTES


def test_an_encounter_built_past_a_bound_by_code_is_let_be_past_it() -> None:
    """The scale benchmark's 3,000 tokens (placed one by one: no file holds them) still
    move; every bound the encounter was within is still kept."""
    encounter = walker()
    encounter.name = "x" * 300  # past MAX_NAME_CHARS, as only code can make it
    history = History(encounter)
    history.push(RecordMovement("a", 5.0))
    assert encounter.timeline.entry("a").moved_ft == 5
    assert "the initiative of a: action_segments" in refused(history, SetActionLength("a", 101))
