"""Pop-up missile shots (002 "Pop-up missile shots": "manouver, spot and shoot. Spot difficulty
is a 9 ... only enemies waiting for you to pop up at that location may target you. They can
fire irrespective of initiative"), on a map where a wall hides the archer (A) from the orcs:
it pops up one cell east, past the wall's end."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from core.actions.base import perform
from core.actions.history import History
from core.actions.popup import PopUpAction, WaitAction
from core.io.fileio import EncounterFileError, encounter_from_json, save_encounter
from core.model.combatant import Combatant, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.rules.missile import IllegalMissileError, MissileRequest, resolve_missile
from core.rules.missile_odds import missile_odds
from core.rules.popup import PopUpRequest, pop_up_odds, resolve_pop_up
from desktop.cli.main import main

Make = Callable[..., Encounter]
# A at (0,5) behind crates along x = 1 (rows 0-5); it pops up at (1,5), clear of them. The
# orc T (5,0) waits for it there; the orc U (4,0) does not; the friend F (2,5) waits too.
PICTURE = "\n".join(["....UT", "......", "......", "......", "......", "A.F..."])
ARCHER = Combatant(name="Ash", level=3, weapons=("Long bow",))
ORC = Combatant(name="Orc", side=Side.OPPOSITION, weapons=("Sling",), max_hp=20, hp=20)
WALL = (1, 0, 1, 6, "object")  # crates: they hide, they do not stop a step
SPOT = Cell(1, 5)


def field(make: Make) -> Encounter:
    orc_u = ORC.model_copy(update={"name": "Urk"})
    encounter = make(PICTURE, {"A": ARCHER, "T": ORC, "U": orc_u}, walls=[WALL])
    encounter.timeline.round_number = 2
    return encounter


def pop(target: str = "T", spot: Cell = SPOT) -> PopUpRequest:
    return PopUpRequest(shot=MissileRequest(attacker="A", target=target), spot=spot)


def waiting(encounter: Encounter, *who: str) -> History:
    history = History(encounter)
    for token in who:
        perform(WaitAction(token, SPOT), history, ScriptedDice([]))
    return history


def test_hidden_the_archer_has_no_line_of_fire_and_popping_up_gives_one(make_encounter: Make
                                                                       ) -> None:
    encounter = field(make_encounter)
    with pytest.raises(IllegalMissileError, match="no line of fire"):
        resolve_missile(encounter, MissileRequest(attacker="A", target="T"), ScriptedDice([]))
    result = resolve_pop_up(encounter, pop(), ScriptedDice([9, 15, 4]))  # spot 9: spotted
    assert result.spotted and result.check.value == 9 and result.target == 9
    assert result.missile is not None and result.missile.attack.hit
    assert result.missile.range.distance_ft == 35  # from (1,5): 4 diagonals (30 ft), a row
    assert encounter.token("A").cell == Cell(0, 5)  # ducked back: the token never moved


def test_a_failed_spot_means_no_foe_to_react_to_and_no_shot(make_encounter: Make) -> None:
    result = resolve_pop_up(field(make_encounter), pop(), ScriptedDice([8]))
    assert not result.spotted and result.missile is None
    assert result.summary().endswith("no foe close enough to react to, no shot")
    spotted, odds = pop_up_odds(field(make_encounter), pop())
    assert spotted == Fraction(12, 20) and odds.setup.range.distance_ft == 35


@pytest.mark.parametrize(("spot", "message"), [
    (Cell(2, 4), "pops up where it stands or one step away"),
    (Cell(0, 4), "no line of fire"),  # a legal step, still behind the crates
    (Cell(1, 4), None)])
def test_the_spot_is_one_legal_step_away(make_encounter: Make, spot: Cell,
                                         message: str | None) -> None:
    encounter = field(make_encounter)
    if message is None:
        resolve_pop_up(encounter, pop(spot=spot), ScriptedDice([20, 1, 1, 1, 1]))
        return
    with pytest.raises(IllegalMissileError, match=message):
        resolve_pop_up(encounter, pop(spot=spot), ScriptedDice([20]))


def test_a_wall_or_a_creature_in_the_way_refuses_the_spot(make_encounter: Make) -> None:
    walled = make_encounter(PICTURE, {"A": ARCHER, "T": ORC}, walls=[WALL, (1, 5, 1, 6)])
    with pytest.raises(IllegalMissileError, match="cannot pop up at \\(1,5\\): wall in"):
        resolve_pop_up(walled, pop(), ScriptedDice([20]))
    crowded = make_encounter("....UT\n" * 1 + "......\n" * 4 + "AB....",
                             {"A": ARCHER, "T": ORC}, walls=[WALL])
    with pytest.raises(IllegalMissileError, match="B in the way"):
        resolve_pop_up(crowded, pop(), ScriptedDice([20]))


def test_only_an_enemy_waiting_on_the_spot_shoots_it_there(make_encounter: Make) -> None:
    history = waiting(field(make_encounter), "T")
    outcome = perform(PopUpAction(pop()), history, ScriptedDice([15, 3, 1]))  # a miss
    assert outcome.result.exposed_names == ("Orc",) and "exposed to Orc" in outcome.summary
    assert [(p.token_id, p.spot) for p in history.encounter.timeline.pop_ups] == [("A", SPOT)]
    back = MissileRequest(attacker="T", target="A")
    assert missile_odds(history.encounter, back).setup.range.distance_ft == 35
    assert resolve_missile(history.encounter, back, ScriptedDice([20, 2])).attack.hit
    with pytest.raises(IllegalMissileError, match="no line of fire"):  # Urk does not wait
        missile_odds(history.encounter, MissileRequest(attacker="U", target="A"))


def test_a_waiting_friend_is_not_an_enemy_and_last_round_does_not_count(make_encounter: Make
                                                                       ) -> None:
    encounter = field(make_encounter)
    friend = make_encounter(PICTURE, {"A": ARCHER, "T": ORC, "F": ARCHER.model_copy(
        update={"name": "Fay"})}, walls=[WALL])
    assert resolve_pop_up(waiting(friend, "F").encounter, pop(),
                          ScriptedDice([3])).exposed_to == ()
    history = waiting(encounter, "T")
    history.encounter.timeline.round_number = 3  # the waiting was last round's
    assert resolve_pop_up(history.encounter, pop(), ScriptedDice([3])).exposed_to == ()


def test_a_pop_up_is_one_undo_step_and_a_new_one_replaces_the_old(make_encounter: Make
                                                                  ) -> None:
    history = waiting(field(make_encounter), "T")
    perform(PopUpAction(pop()), history, ScriptedDice([15, 19, 5, 6]))
    orc = history.encounter.token("T").combatant
    assert orc.hp < 20 and len(history.encounter.timeline.pop_ups) == 1
    perform(PopUpAction(pop(spot=Cell(0, 5))), history, ScriptedDice([2]))
    assert [p.spot for p in history.encounter.timeline.pop_ups] == [Cell(0, 5)]
    history.undo()
    history.undo()
    assert history.encounter.token("T").combatant.hp == 20
    assert not history.encounter.timeline.pop_ups
    assert [w.spot for w in history.encounter.timeline.waiting] == [SPOT]


def test_pop_ups_and_waiting_round_trip_and_name_tokens_of_the_file(make_encounter: Make,
                                                                    tmp_path: Path) -> None:
    history = waiting(field(make_encounter), "T")
    perform(PopUpAction(pop()), history, ScriptedDice([2]))
    path = tmp_path / "popped.json"
    save_encounter(history.encounter, path)
    text = path.read_text()
    again = encounter_from_json(text, str(path))
    assert again.timeline.pop_ups == history.encounter.timeline.pop_ups
    assert again.timeline.waiting == history.encounter.timeline.waiting
    data = json.loads(text)
    data["timeline"]["waiting"][0]["token_id"] = "ghost"
    with pytest.raises(EncounterFileError, match=r"timeline\.waiting\.0\.token_id"):
        encounter_from_json(json.dumps(data), "bad.json")
    data["timeline"]["waiting"][0] = {"token_id": "T", "spot": [400, 0], "round_number": 2}
    with pytest.raises(EncounterFileError, match="outside any map"):
        encounter_from_json(json.dumps(data), "bad.json")
    assert history.encounter.timeline.without_token("T").waiting == []


def test_the_cli_pops_up_waits_and_gives_the_odds(make_encounter: Make, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, after = tmp_path / "field.json", tmp_path / "after.json"
    save_encounter(field(make_encounter), path)
    assert main(["resolve", "wait", str(path), "--token", "Orc", "--spot", "1,5", "--apply",
                 "--out", str(after)]) == 0
    assert "Orc waits for a foe to pop up at (1,5)" in capsys.readouterr().out
    assert main(["resolve", "missile", str(after), "--attacker", "Ash", "--target", "Orc",
                 "--pop-up", "1,5", "--dice", "12,15,4,3", "--json"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert totals["spotted"] and totals["exposed_to"] == ["T"]
    assert totals["missile"]["hit"] and totals["missile"]["location"] is None
    assert main(["odds", "missile", str(after), "--attacker", "Ash", "--target", "Orc",
                 "--pop-up", "1,5", "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert odds["spot"]["exact"] == "3/5" and odds["distance_ft"] == 35
