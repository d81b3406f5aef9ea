"""``battlemap morale`` and ``battlemap resolve morale|wake`` on a file written to disk: a
goblin band at half strength facing two fighters, one asleep gnoll."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter
from desktop.cli.main import main


def foe(name: str, **update: object) -> Combatant:
    return Combatant(name=name, side=Side.OPPOSITION, weapons=("Spear",),
                     **update)  # type: ignore[arg-type]


@pytest.fixture
def band(make_encounter: Callable[..., Encounter], tmp_path: Path) -> Path:
    encounter = make_encounter('''
        . . . O P . . .
        . . . G Q . . .
        . Z Y X . . . S
    ''', {"O": foe("Orc", leadership=1), "G": foe("Goblin", morale=10),
          "X": foe("Goblin 2", hp=0), "Y": foe("Goblin 3", hp=0), "Z": foe("Goblin 4", hp=-1),
          "S": foe("Gnoll", conditions=frozenset({Condition.ASLEEP})),
          "P": Combatant(name="Pia"), "Q": Combatant(name="Quinn")})
    path = tmp_path / "band.json"
    save_encounter(encounter, path)
    return path


Cli = Callable[..., tuple[int, str, str]]


def test_morale_lists_scores_chances_and_the_triggers_to_offer(
        band: Path, cli: Cli) -> None:
    code, out, err = cli("morale", str(band))
    assert (code, err) == (0, "")
    assert "  Goblin: Morale 10 + Leader Orc +1 = 11 — holds 55%; would run" in out
    assert "Offer now: 50% of the opposition down [opposition/casualties-50]" in out
    code, out, _ = cli("morale", str(band), "--json")
    data = json.loads(out)
    assert [t["key"] for t in data["pending"]] == ["opposition/casualties-50"]
    goblin = next(c for c in data["sides"]["opposition"] if c["name"] == "Goblin")
    assert (goblin["score"], goblin["holds"], goblin["retreat"]["escapes"]) == (11, 0.55, True)
    assert data["sides"]["party"] == [] and data["retreat_budget_ft"] == 50


def test_resolve_morale_applies_the_rout_and_answers_the_trigger(
        band: Path, tmp_path: Path, cli: Cli) -> None:
    out_file = tmp_path / "after.json"
    code, out, err = cli("resolve", "morale", str(band), "--dice", "6,7", "--json",
                         "--apply", "--out", str(out_file))
    assert (code, err) == (0, "")
    totals = json.loads(out)["totals"]
    assert totals["triggers"] == ["opposition/casualties-50"]
    assert {k: (v["level"], v["result"]) for k, v in totals["creatures"].items()} == {
        "G": ("Unlucky", "retreat"), "O": ("Unlucky", "retreat")}
    after = load_encounter(out_file)
    assert after.token("G").cell == tuple(totals["creatures"]["G"]["path"][-1])
    assert after.token("O").combatant.has(Condition.SCARPERING)
    code, out, _ = cli("morale", str(out_file))
    assert "Offer now: nothing" in out and "Answered: 50% of the opposition down" in out


def test_resolve_morale_pass_and_bad_keys(band: Path, cli: Cli,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli("resolve", "morale", str(band), "--pass")
    assert code == 0 and out.startswith("Opposition morale: no check (50% of the opposition")
    code, _, err = cli("resolve", "morale", str(band), "--side", "party")
    assert code == 2 and "nobody on the party's side checks morale" in err
    with pytest.raises(SystemExit):
        main(["resolve", "morale", str(band), "--trigger", "opposition/panic"])
    assert "names no morale trigger" in capsys.readouterr().err


def test_resolve_wake_prints_the_rounds(band: Path, cli: Cli) -> None:
    code, out, _ = cli("resolve", "wake", str(band), "--target", "Gnoll", "--json")
    totals = json.loads(out)["totals"]
    assert code == 0 and totals == {"stages": {"waking": [0, 1], "rising": [2, 2],
                                               "defending": [3, 3]}, "normal_from_round": 4}
    code, _, err = cli("resolve", "wake", str(band), "--target", "Pia")
    assert code == 2 and "Pia is not asleep" in err
