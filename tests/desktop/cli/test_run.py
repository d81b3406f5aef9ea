"""The headless ``battlemap resolve ACTION`` and ``battlemap odds shove`` commands.

The encounter (A: FR +2, B: leather, FD 11, AV 2, a wall right behind B) is written to a
temporary file, so every number below is worked out by hand:
d20 12 + 2 = 14 vs FD 11, success; d6 5: 5 + 2 - 3 = 4 ft, all unused at the wall; slam
d6 5 through AV 2: 1 + (4 - 2) = 3 damage.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant
from core.model.encounter import Encounter
from desktop.cli.errors import CliError
from desktop.cli.main import main
from desktop.cli.run import save
from desktop.system.resources import DEMO

MakeEncounter = Callable[..., Encounter]
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def encounter_file(make_encounter: MakeEncounter, tmp_path: Path) -> Path:
    enc = make_encounter("""
        A B . .
        . . . .
        . . D .
    """, {"A": Combatant(name="Aldo", fr_slots=2),
          "B": Combatant(name="Bram", armour="leather"), "D": Combatant(name="Dusk")},
        walls=[(2, 0, 2, 1)])
    path = tmp_path / "room.json"
    save_encounter(enc, path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def shove_args(path: Path, *extra: str, command: str = "resolve") -> list[str]:
    return [command, "shove", str(path), "--attacker", "Aldo", "--target", "Bram", *extra]


def test_resolve_prints_the_summary_and_every_roll(encounter_file: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *shove_args(encounter_file, "--dice", "12,5,5"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Aldo shoves Bram E — success, slams the wall: 3 damage (AV 2)"
    assert "  Final cell: (1,0); damage taken: 3" in lines
    assert any(line.startswith("  Slam: ") for line in lines)


def test_resolve_accepts_ids_and_a_direction_in_lower_case(
        encounter_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "resolve", "shove", str(encounter_file), "--attacker", "A",
                       "--target", "B", "--direction", "s", "--dice", "19")
    assert code == 0                                # 19 + 2 = 21 vs FD 11: double
    assert out.splitlines()[0] == "Aldo shoves Bram 10 ft S — double success, Prone"


def test_resolve_json_has_the_final_cell(encounter_file: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *shove_args(encounter_file, "--dice", "12,5,5", "--json"))
    assert code == 0
    data = json.loads(out)
    totals = data["totals"]
    assert (totals["attack_total"], totals["target_number"], totals["margin"]) == (14, 11, 3)
    assert totals["final_cell"] == [1, 0] and totals["cells_moved"] == 0
    assert totals["damage"] == {"slam_per_hit": [3], "hazard": 0, "total": 3}
    assert totals["summary"] == data["summary"] == data["log"][0]["summary"]
    assert data["result"]["level"] == "success" and data["result"]["stop_reason"] == "wall"
    assert [roll["values"] for roll in data["result"]["slam_rolls"]] == [[5]]
    assert data["dice"] == {"used": [[12], [5], [5]], "unused": []}


def test_spare_dice_are_reported_not_refused(encounter_file: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *shove_args(encounter_file, "--dice", "12,5,5,1,2"))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "Unused dice: 1, 2"
    code, out, _ = run(capsys, *shove_args(encounter_file, "--dice", "12,5,5,1,2", "--json"))
    assert json.loads(out)["dice"]["unused"] == [1, 2]


def test_help_states_the_order_dice_are_consumed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["resolve", "shove", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Dice are consumed in this order: attack d20; the shove die" in text


def test_apply_writes_the_encounter_after_the_action(encounter_file: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "after.json"
    code, out, _ = run(capsys, *shove_args(encounter_file, "--dice", "12,5,5", "--apply",
                                           "--out", str(out_file)))
    assert code == 0 and out.splitlines()[-1] == f"Applied; wrote {out_file}"
    after = load_encounter(out_file)
    assert after.token("B").combatant.hp == 8 - 3
    assert [entry.kind for entry in after.log] == ["shove"]
    assert load_encounter(encounter_file).token("B").combatant.hp == 8   # the input is kept
    code, _, err = run(capsys, *shove_args(encounter_file, "--seed", "1", "--apply"))
    assert code == 2 and "--apply needs --out" in err


@pytest.mark.parametrize(("argv", "first_line"), [
    pytest.param(["attack", "--attacker", "Aldo", "--target", "Bram", "--damage", "d8",
                  "--dice", "15,7"], "Aldo attacks Bram: 15 vs AC 11 — hits, 5 damage",
                 id="attack"),   # HR 0; d8 7 through leather AV 2: 1 + (6 - 2)
    pytest.param(["initiative", "--dice", "4,7,9"], "Round 1 initiative", id="initiative"),
    pytest.param(["critical", "--party", "Aldo", "--foe", "Dusk", "--dice", "30"],
                 "Critical event 30: Nothing happens — called for Aldo and Dusk", id="critical"),
    pytest.param(["surprise", "--alertness", "normal travel", "--stealth", "1",
                  "--dice", "15,9,3"], "Surprise: Bram, Dusk surprised", id="surprise"),
    pytest.param(["move", "--move", "Dusk=3,2"], "Move Dusk", id="move"),
])
def test_every_action_resolves_from_the_command_line(
        encounter_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        first_line: str) -> None:
    code, out, err = run(capsys, "resolve", argv[0], str(encounter_file), *argv[1:])
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == first_line


def test_an_illegal_move_is_refused_with_its_reason(encounter_file: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "resolve", "move", str(encounter_file), "--move", "Dusk=1,0")
    assert (code, out) == (2, "")
    assert err == ("battlemap: Dusk cannot move to (1, 0): an ally stands there: you can "
                   "pass through but not stop\n")


def test_seeded_resolution_is_repeatable(encounter_file: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, *shove_args(encounter_file, "--seed", "7", "--json"))
    second = run(capsys, *shove_args(encounter_file, "--seed", "7", "--json"))
    assert first[0] == 0
    assert first == second


def test_odds_json_sums_to_one(encounter_file: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *shove_args(encounter_file, "--json", command="odds"))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert sum(Fraction(cell["exact"]) for cell in data["landing"]) == 1
    assert sum(cell["p"] for cell in data["landing"]) == pytest.approx(1)
    # fail 1-8 (stays), success 9-18: d6 - 1 ft, a slam on d6 2-6 (1 ft or more against
    # the wall, RD Shove 10); double 19-20: slam
    assert Fraction(data["slam"]["exact"]) == Fraction(10, 20) * Fraction(5, 6) + Fraction(2, 20)
    assert data["target_fd"] == 11


def test_odds_on_the_bundled_demo(capsys: pytest.CaptureFixture[str]) -> None:
    # Brannoc: FR 3 slots + STR 17 (+2) = 5. Orc Warrior: FD 10 + STR/CON +1 + scale 1 +
    # shield 2 = 14; Shove Resist 3 + ½ level 0 + STR 1 + FR (1 + 1) = 6
    code, out, _ = run(capsys, "odds", "shove", str(REPO / "assets" / "demo_encounter.json"),
                       "--attacker", "Brannoc", "--target", "Orc Warrior", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["attack_bonus"], data["target_fd"], data["shove_resist"]) == (5, 14, 6)
    assert data["direction"] == "W"
    assert sum(Fraction(cell["exact"]) for cell in data["landing"]) == 1


def test_odds_text(encounter_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *shove_args(encounter_file, command="odds"))
    assert code == 0
    assert out.startswith("Aldo shoves Bram E: d20 +2 vs FD 11; Shove Resist 3")
    assert "  Landing cells:" in out.splitlines()


@pytest.mark.parametrize(("argv", "message"), [
    pytest.param(["--target", "Zed"], "no token named 'Zed' (tokens: Aldo, Bram, Dusk)",
                 id="unknown-name"),
    pytest.param(["--target", "Dusk"], "Aldo is not adjacent to Dusk (1 cell(s) between "
                 "them); move closer first", id="not-adjacent"),
    pytest.param(["--direction", "W"], "W is not within 90° of straight away from Aldo; "
                 "allowed: N, NE, E, SE, S", id="direction-backwards"),
    pytest.param(["--dice", "12"], "--dice ran out: no die value left for Aldo shove die "
                 "(needs a d6)", id="too-few-dice"),
    pytest.param(["--dice", "12,7"], "7 is not a face of a d6 (rolled for Aldo shove die): "
                 "enter 1 to 6", id="value-above-faces"),
    pytest.param(["--dice", "21"], "21 is not a face of a d20", id="d20-above-20"),
    pytest.param(["--dice", "0"], "0 is not a face of a d20", id="zero"),
])
def test_bad_input_exits_2_with_one_line(encounter_file: Path,
                                         capsys: pytest.CaptureFixture[str], argv: list[str],
                                         message: str) -> None:
    args = shove_args(encounter_file)
    if "--target" in argv:
        args = args[:-2]                            # the parametrised target replaces Bram
    code, out, err = run(capsys, *args, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("battlemap: ")
    assert message in err


@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_unknown_name_in_odds_too(encounter_file: Path, capsys: pytest.CaptureFixture[str],
                                  command: str) -> None:
    code, _, err = run(capsys, command, "shove", str(encounter_file), "--attacker", "Nobody",
                       "--target", "Bram")
    assert code == 2
    assert err.strip() == "battlemap: no token named 'Nobody' (tokens: Aldo, Bram, Dusk)"


@pytest.mark.parametrize(("contents", "message"), [
    (None, "cannot read"),
    ("{oops", "room.json is not valid JSON"),
    ('{"schema": "x"}', "room.json is not a Battlemap encounter"),
])
def test_bad_file_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        contents: str | None, message: str) -> None:
    path = tmp_path / "room.json"
    if contents is not None:
        path.write_text(contents)
    for command in ("resolve", "odds"):
        code, out, err = run(capsys, *shove_args(path, command=command))
        assert code == 2
        assert out == ""
        assert err.count("\n") == 1
        assert message in err


@pytest.mark.parametrize("argv", [
    pytest.param(["resolve", "shove", "x.json", "--attacker", "A"], id="missing-target"),
    pytest.param(["resolve", "shove", "x.json", "--attacker", "A", "--target", "B",
                  "--dice", "a,b"], id="dice-not-numbers"),
    pytest.param(["resolve", "shove", "x.json", "--attacker", "A", "--target", "B",
                  "--dice", "1", "--seed", "2"], id="dice-and-seed"),
    pytest.param(["odds", "shove", "x.json", "--attacker", "A", "--target", "B",
                  "--direction", "UP"], id="bad-direction"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "usage: battlemap" in capsys.readouterr().err


def test_headless_commands_import_no_qt(encounter_file: Path) -> None:
    code = (
        "import sys\n"
        "from desktop.cli.main import main\n"
        f"rc = main(['odds', 'shove', {str(encounter_file)!r}, '--attacker', 'A', "
        "'--target', 'B', '--json'])\n"
        "assert rc == 0, rc\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6')))\n"
        "assert not qt, qt\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_an_unsaveable_result_is_refused_with_the_reason(tmp_path: Path) -> None:
    """A result the loader would refuse is never written; the CLI says why in one line."""
    encounter = Encounter()
    encounter.name = "Crypt \udc80"  # assignment is not validated: how a result can carry it
    with pytest.raises(CliError, match=r"not saved to .*out\.json: cannot save: name has a "
                                       r"lone surrogate"):
        save(encounter, tmp_path / "out.json")
    assert list(tmp_path.iterdir()) == []


def test_an_applied_move_records_what_the_party_saw(tmp_path: Path) -> None:
    """As in the window: the cells the party sees after the step are explored in the file."""
    demo = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
    before = load_encounter(demo)
    assert before.fog.enabled and not before.fog.explored
    out = tmp_path / "after.json"
    assert main(["resolve", "move", str(demo), "--move", "mira=6,10", "--apply",
                 "--out", str(out)]) == 0
    assert load_encounter(out).fog.explored


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_and_version_load_no_rules_engine(option: str) -> None:
    """What ``battlemap --help`` prints needs argparse only: no numpy, pydantic or core (the
    stand-in for pydantic's plugin loader, desktop.system.pydantic_plugins, imports none:
    it has no spec)."""
    code = ("import sys\nfrom desktop.cli.main import main\ntry:\n"
            f"    main([{option!r}])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('core', 'numpy', 'pydantic', 'PySide6') and sys.modules[m].__spec__))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


def test_check_says_an_encounter_opens_and_how_big_it_is(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code, out, err = run(capsys, "check", str(DEMO))
    assert (code, err) == (0, "")
    assert out == "demo_encounter.json opens: 24×16 squares, 8 tokens, 7 wall segments\n"


def test_check_says_why_a_file_does_not_open_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "room.json"
    path.write_text('{"schema": "battlemap.encounter", "version": 1, "tokens": 7}')
    code, out, err = run(capsys, "check", str(path))
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert err.startswith("battlemap: room.json")
    code, out, _ = run(capsys, "check", str(path), "--json")
    report = json.loads(out)
    assert code == 2 and report["opens"] is False and report["problem"] in err


@pytest.mark.parametrize(("text", "opens"), [
    pytest.param(None, True, id="the-demo"),
    pytest.param("{not json", False, id="not-json"),
])
def test_check_reads_standard_input_under_the_name_it_is_given(text: str | None,
                                                               opens: bool) -> None:
    """As the window's autosave runs it, in a process of its own (``python -m desktop``)."""
    data = DEMO.read_bytes() if text is None else text.encode()
    done = subprocess.run([sys.executable, "-m", "desktop", "check", "-", "--name",
                           "the autosave", "--json"], input=data, cwd=REPO,
                          capture_output=True, timeout=120, check=False)
    report = json.loads(done.stdout)
    assert (done.returncode, report["file"], report["opens"]) == (
        0 if opens else 2, "the autosave", opens)
    assert opens or report["problem"].startswith("the autosave is not valid JSON")
