"""``battlemap cover``, ``battlemap resolve missile`` and ``battlemap odds missile`` on a
file written to disk: an archer (A) ten cells south of an orc (T) who stands behind a wall
covering the left half of its near side (50 %, +3)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture (tests/core/conftest.py)

PICTURE = "\n".join(["......", "..T..."] + ["......"] * 9 + ["..A..."])


@pytest.fixture
def field(make_encounter: Callable[..., Encounter], tmp_path: Path) -> Path:
    encounter = make_encounter(PICTURE, {
        "A": Combatant(name="Ash", weapons=("Long bow", "Flask of oil")),
        "T": Combatant(name="Orc", side=Side.OPPOSITION, max_hp=20, hp=20)},
        walls=[(2, 2, 2.5, 2)])
    path = tmp_path / "field.json"
    save_encounter(encounter, path)
    return path


def test_cover_prints_the_percentage_the_bonus_and_the_blockers(
        field: Path, cli: Cli) -> None:
    code, out, err = cli("cover", str(field), "--from", "Ash", "--to", "Orc")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Orc's cover from Ash: 50% (+3): wall (2,2)-(2.5,2) 50%"
    assert "  wall (2,2)-(2.5,2): 50.0%" in lines
    code, out, _ = cli("cover", str(field), "--from", "A", "--to", "T", "--json")
    data = json.loads(out)
    assert (data["percent"], data["bonus"], data["line_of_fire"]) == (50, 3, True)
    assert [b["kind"] for b in data["blockers"]] == ["wall"]


def test_resolve_missile_prints_every_roll_and_applies(
        field: Path, tmp_path: Path, cli: Cli) -> None:
    out_file = tmp_path / "after.json"
    code, out, _ = cli("resolve", "missile", str(field), "--attacker", "Ash",
                       "--target", "Orc", "--dice", "14,6", "--apply", "--out", str(out_file))
    assert code == 0  # 14 vs AC 11 + cover 3 = 14: a hit; d8 6 through AV 0
    lines = out.splitlines()
    assert lines[0] == "Ash's Long bow at Orc (short range): 14 vs 14 — hits, 6 damage"
    assert "  Cover: 50% (+3): wall (2,2)-(2.5,2) 50%" in lines
    assert load_encounter(out_file).token("Orc").combatant.hp == 14


def test_resolve_missile_json_names_where_a_miss_landed(
        field: Path, cli: Cli) -> None:
    code, out, _ = cli("resolve", "missile", str(field), "--attacker", "Ash",
                       "--target", "Orc", "--weapon", "flask of oil", "--cover", "0",
                       "--dice", "5,6", "--json")
    totals = json.loads(out)["totals"]
    # 5 − 5 (long: 50 ft) vs 11, GM cover 0: missed by 11. Lobbed: from the orc's centre
    # (2.5, 1.5) 4 ft on to y = 0.7, then 11 ft back towards 6 o'clock: y = 2.9, cell (2, 2)
    assert code == 0 and totals["hit"] is False and totals["band"] == "long"
    assert totals["landing"] == totals["fire"] == [2, 2]
    assert totals["flight_segments"] == 2


def test_odds_missile_in_text_and_json(field: Path, cli: Cli) -> None:
    code, out, _ = cli("odds", "missile", str(field), "--attacker", "Ash", "--target",
                       "Orc")
    assert code == 0 and "Hit 35.0%; miss 65.0%" in out  # d20 ≥ 14
    code, out, _ = cli("odds", "missile", str(field), "--attacker", "Ash", "--target",
                       "Orc", "--json")
    data = json.loads(out)
    assert data["hit"]["exact"] == "7/20" and data["cover_bonus"] == 3


def test_refusals_are_one_line(field: Path, cli: Cli) -> None:
    code, _, err = cli("cover", str(field), "--from", "Ash", "--to", "Nobody")
    assert code == 2 and err.startswith("battlemap: no token named 'Nobody'")
    code, _, err = cli("resolve", "missile", str(field), "--attacker", "Ash",
                       "--target", "Orc", "--weapon", "Dagger", "--dice", "10")
    assert code == 2 and "beyond the Dagger's long range of 30 ft" in err
