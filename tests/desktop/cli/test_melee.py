"""``battlemap resolve force-back|charge|overrun|evade|grapple FILE ... [--json]`` on a real
file: the scene is written to disk, each command is run as the GM would type it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Abilities, Combatant, Condition, Side
from core.model.encounter import Encounter
from core.model.grid import Cell
from core.model.melee import HoldKind

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture (tests/core/conftest.py)

Make = Callable[..., Encounter]


@pytest.fixture
def room(make_encounter: Make, tmp_path: Path) -> Path:
    """Aldo (HR 6, FR 5) next to Bram (an orc); a wall two cells east of Bram; Cora far off
    to the south, with Dusk (an orc) on her way."""
    encounter = make_encounter("""
        A B . . .
        . . . . .
        C . D . .
    """, {
        "A": Combatant(name="Aldo", hr_slots=4, fr_slots=3, abilities=Abilities(strength=16)),
        "B": Combatant(name="Bram", side=Side.OPPOSITION),
        "C": Combatant(name="Cora"), "D": Combatant(name="Dusk", side=Side.OPPOSITION)},
        walls=[(3, 0, 3, 1)])
    path = tmp_path / "room.json"
    save_encounter(encounter, path)
    return path


def test_force_back_json_and_apply(room: Path, tmp_path: Path,
                                   cli: Cli) -> None:
    out_file = tmp_path / "after.json"
    code, out, err = cli("resolve", "force-back", str(room), "--attacker", "Aldo",
                         "--target", "Bram", "--follow", "--dice", "15", "--json", "--apply",
                         "--out", str(out_file))
    assert (code, err) == (0, "")
    totals = json.loads(out)["totals"]
    assert (totals["margin"], totals["final_cell"], totals["attacker_cell"]) == (11, [2, 0],
                                                                                [1, 0])
    assert totals["stopped_by"] == "wall" and totals["slam"] is False
    after = load_encounter(out_file)
    assert after.token("Bram").cell == Cell(2, 0) and after.log[-1].kind == "force-back"


def test_grapple_throw_text(room: Path, cli: Cli) -> None:
    code, out, err = cli("resolve", "grapple", str(room), "--attacker", "Aldo",
                         "--target", "Bram", "--attempt", "throw", "--throw-direction", "s",
                         "--dice", "18,4,2,15")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Aldo grapples Bram (throw): 23 vs 7 — throws Bram S: 2 damage"


def test_grapple_lock_needs_a_martial_artist(room: Path,
                                             cli: Cli) -> None:
    code, _, err = cli("resolve", "grapple", str(room), "--attacker", "Aldo",
                       "--target", "Bram", "--attempt", "lock", "--dice", "18,4,2")
    assert code == 2 and err == ("battlemap: only martial artists can attempt a lock "
                                 "(002 Grappling)\n")


def test_hold_then_escape_through_files(room: Path, tmp_path: Path,
                                        cli: Cli) -> None:
    held = tmp_path / "held.json"
    cli("resolve", "grapple", str(room), "--attacker", "Aldo", "--target", "Bram",
        "--dice", "12,5", "--apply", "--out", str(held))
    assert [h.kind for h in load_encounter(held).timeline.holds] == [HoldKind.HOLD]
    code, out, _ = cli("resolve", "evade", str(held), "--mover", "Bram", "--to", "2,1")
    assert code == 2
    code, out, _ = cli("resolve", "grapple", str(held), "--attacker", "Bram",
                       "--target", "Aldo", "--attempt", "escape", "--dice", "20,1", "--json")
    assert code == 0 and json.loads(out)["totals"]["hold"] is None


def test_charge_with_a_declared_run(room: Path, cli: Cli) -> None:
    code, out, _ = cli("resolve", "charge", str(room), "--attacker", "Aldo",
                       "--target", "Bram", "--run", "25", "--dice", "10,15,3", "--json")
    totals = json.loads(out)["totals"]
    assert code == 0 and totals["hit"] and totals["run_ft"] == 25
    assert totals["defender_conditions"] == sorted([Condition.KNOCKDOWN.value,
                                                    Condition.PRONE.value])


def test_overrun_and_evade(room: Path, cli: Cli) -> None:
    code, out, _ = cli("resolve", "overrun", str(room), "--mover", "Cora", "--target",
                       "Dusk", "--approach", "1,2", "--dice", "3", "--json")
    totals = json.loads(out)["totals"]
    assert code == 0 and totals["final_cell"] == [3, 2] and totals["defender_prone"]
    code, out, _ = cli("resolve", "evade", str(room), "--mover", "Cora", "--to", "3,1",
                       "--dice", "4,2", "--json")
    totals = json.loads(out)["totals"]
    # The cheapest walk (15 ft) steps east first, beside Dusk, whose check fails.
    assert code == 0 and [c["enemy"] for c in totals["checks"]] == ["Dusk"]
    assert totals["final_cell"] == [1, 2] and totals["damage"]["total"] == 2


def test_group_overrun_by_a_pack_of_dogs(make_encounter: Make, tmp_path: Path,
                                         cli: Cli) -> None:
    """Four Small dogs in a corridor at a Medium orc: Small − Medium + ⌊log2 2⌋ = 0 categories
    larger: it stands on d20 ≥ 10; a 3 knocks it Prone and the dogs pour past, lead first."""
    encounter = make_encounter("A B C D X . . . .", {
        **{k: Combatant(name=f"Dog {k}", size="small") for k in "ABCD"},
        "X": Combatant(name="Orc", side=Side.OPPOSITION)})
    path, out_file = tmp_path / "corridor.json", tmp_path / "after.json"
    save_encounter(encounter, path)
    code, out, err = cli("resolve", "group-overrun", str(path), "--mover", "Dog A",
                         "--mover", "Dog B", "--mover", "Dog C", "--mover", "Dog D",
                         "--target", "Orc", "--dice", "3", "--json", "--apply",
                         "--out", str(out_file))
    assert (code, err) == (0, "")
    totals = json.loads(out)["totals"]
    assert (totals["stand_total"], totals["target_number"], totals["defender_prone"]) == (
        3, 10, True)
    assert totals["final_cells"] == {"D": [5, 0], "C": [6, 0], "B": [7, 0], "A": [8, 0]}
    after = load_encounter(out_file)
    assert Condition.PRONE in after.token("Orc").combatant.conditions
    code, out, err = cli("resolve", "group-overrun", str(path), "--mover", "Dog A",
                         "--target", "Orc", "--dice", "3")
    assert code != 0 and "two or more" in err
