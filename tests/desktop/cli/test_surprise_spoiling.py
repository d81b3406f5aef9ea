"""``battlemap resolve surprise --ambusher``, ``attack --surprise`` (shielding the surprised)
and ``concentrate`` / ``perceive`` (spoiling's perception roll) on a real file, as the GM
would type them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter
from core.model.round import InitiativeEntry, RoundState

Cli = Callable[..., tuple[int, str, str]]


def test_surprise_then_a_shield_cancels_the_later_free_attacks(
        make_encounter: Callable[..., Encounter], tmp_path: Path, cli: Cli) -> None:
    """Ann fails her Spot save by 8 (Dreadful: attacks at segments 1, 2, 3 by the Orc named);
    Bo (initiative 2) engages the Orc first: the attack at segment 3 is cancelled."""
    encounter = make_encounter("A O .\nB . .", {
        "A": Combatant(name="Ann"), "B": Combatant(name="Bo"),
        "O": Combatant(name="Orc", side=Side.OPPOSITION)})
    start, after, shielded = (tmp_path / n for n in ("start.json", "after.json",
                                                      "shielded.json"))
    save_encounter(encounter, start)
    code, out, err = cli("resolve", "surprise", str(start), "--alertness", "Normal travel",
                         "--ambusher", "Ann=Orc", "--dice", "6,16", "--apply", "--out",
                         str(after))
    assert (code, err) == (0, "") and "Ann's free attacks: by Orc" in out
    scheduled = load_encounter(after)
    assert [a.segment for a in scheduled.timeline.free_attacks] == [1, 2, 3]
    scheduled.timeline = scheduled.timeline.model_copy(update={
        "round_number": 1, "entries": [InitiativeEntry(token_id="A", segment=9),
                                       InitiativeEntry(token_id="B", segment=2),
                                       InitiativeEntry(token_id="O", side=Side.OPPOSITION,
                                                       segment=1)]})
    save_encounter(scheduled, after)
    code, out, err = cli("resolve", "attack", str(after), "--attacker", "Bo", "--target",
                         "Orc", "--dice", "3", "--json", "--apply", "--out", str(shielded))
    assert (code, err) == (0, "")
    log = json.loads(out)["log"]
    assert log[1]["summary"] == "Bo engages Orc at segment 2: 1 free attack(s) cancelled"
    code, out, err = cli("resolve", "attack", str(shielded), "--attacker", "Orc", "--target",
                         "Ann", "--surprise", "--dice", "10,4")
    assert code == 0 and "Surprise attack #1 +6" in out
    for _ in range(2):  # #1 and #2 made; #3 is cancelled
        cli("resolve", "attack", str(shielded), "--attacker", "Orc", "--target", "Ann",
            "--surprise", "--dice", "1", "--apply", "--out", str(shielded))
    code, out, err = cli("resolve", "attack", str(shielded), "--attacker", "Orc", "--target",
                         "Ann", "--surprise", "--dice", "20,4")
    assert code == 2 and "cancelled: Bo engaged it at segment 2" in err


def test_perceive_and_concentrate(make_encounter: Callable[..., Encounter], tmp_path: Path,
                                  cli: Cli) -> None:
    encounter = make_encounter("A S B", {"A": Combatant(name="Aldo"),
                                         "S": Combatant(name="Shaman", side=Side.OPPOSITION),
                                         "B": Combatant(name="Bree")})
    encounter.timeline = RoundState(round_number=1, current_segment=5, entries=[
        InitiativeEntry(token_id="S", side=Side.OPPOSITION, segment=3, action_segments=4),
        InitiativeEntry(token_id="A", segment=8), InitiativeEntry(token_id="B", segment=9)])
    path, out_file = tmp_path / "cast.json", tmp_path / "after.json"
    save_encounter(encounter, path)
    code, out, err = cli("resolve", "perceive", str(path), "--token", "Aldo", "--target",
                         "Shaman", "--dice", "10", "--json")
    assert (code, err) == (0, "")
    totals = json.loads(out)["totals"]
    assert (totals["total"], totals["target_number"], totals["noticed"]) == (10, 10, True)
    code, out, err = cli("resolve", "concentrate", str(path), "--token", "Bree", "--target",
                         "Shaman", "--apply", "--out", str(out_file))
    assert code == 0 and out.startswith("Bree concentrates on Shaman")
    code, out, err = cli("resolve", "perceive", str(out_file), "--token", "Bree", "--target",
                         "Shaman", "--dice", "10")
    assert code == 2 and "no roll needed" in err
