"""``battlemap resolve attack`` under the round's rules (issue 37's three bugs and what a
creature may do in a round): a refused attack prints one line and writes nothing.

Aldo (party, no armour) stands next to Grok (opposition, 8 HP, AC 11); a d20 of 20 hits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter
from core.model.round import InitiativeEntry, RoundState

Cli = Callable[..., tuple[int, str, str]]  # the ``cli`` fixture (tests/conftest.py)


def written(make_encounter: Callable[..., Encounter], path: Path, grok: Combatant | None = None,
            **aldo: object) -> Path:
    encounter = make_encounter("A G", {
        "A": Combatant(name="Aldo"),
        "G": grok or Combatant(name="Grok", side=Side.OPPOSITION)})
    encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="A", **aldo),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=3)])
    save_encounter(encounter, path)
    return path


def attack(cli: Cli, path: Path, *extra: str) -> tuple[int, str, str]:
    return cli("resolve", "attack", str(path), "--attacker", "Aldo", "--target", "Grok",
               "--dice", "20,6", "--apply", "--out", str(path.with_name("after.json")), *extra)


@pytest.mark.parametrize(("aldo", "reason"), [
    ({"segment": 6, "moved_ft": 45},
     "Aldo has no attack this round: moves 45 ft (9 segments) from initiative 6: segment 15 "
     "is past 10"),
    ({"segment": 2, "aiming": True}, "Aldo is aiming this round: no attack"),
    ({"segment": 2, "actions_taken": 1}, "Aldo has already acted this round (1 of 1 action"),
])
def test_an_attack_the_round_does_not_allow_is_refused(
        make_encounter: Callable[..., Encounter], tmp_path: Path, cli: Cli,
        aldo: dict[str, object], reason: str) -> None:
    path = written(make_encounter, tmp_path / "round.json", **aldo)
    code, out, err = attack(cli, path)
    assert (code, out) == (2, "")
    assert err.startswith(f"battlemap: {reason}")
    assert not path.with_name("after.json").exists()


def test_a_free_attack_is_made_and_the_count_is_kept(
        make_encounter: Callable[..., Encounter], tmp_path: Path, cli: Cli) -> None:
    path = written(make_encounter, tmp_path / "round.json", segment=2, actions_taken=1)
    code, out, _ = attack(cli, path, "--free")
    assert code == 0 and out.startswith("Aldo attacks Grok: 20 vs AC 11 — hits, 6 damage")
    after = load_encounter(path.with_name("after.json"))
    assert after.timeline.entry("A").actions_taken == 1


def test_no_pummelling_against_chain_mail(make_encounter: Callable[..., Encounter],
                                          tmp_path: Path, cli: Cli) -> None:
    """002 Pummelling: 'You can't pummel against metal armour.'"""
    grok = Combatant(name="Grok", side=Side.OPPOSITION, armour="chain_mail")
    path = written(make_encounter, tmp_path / "round.json", grok, segment=2)
    code, out, err = attack(cli, path, "--weapon", "Unarmed")
    assert (code, out) == (2, "")
    assert err.startswith("battlemap: Grok wears Chain Mail, metal armour: 002 Pummelling")
    assert not path.with_name("after.json").exists()


def test_declare_two_attacks_then_make_both(make_encounter: Callable[..., Encounter],
                                            tmp_path: Path, cli: Cli) -> None:
    """002 Multiple Attacks: −3 to each; 20 − 3 = 17 vs AC 11."""
    path = written(make_encounter, tmp_path / "round.json", segment=2)
    declared = tmp_path / "declared.json"
    code, out, _ = cli("resolve", "declare", str(path), "--token", "Aldo", "--attacks", "2",
                       "--apply", "--out", str(declared))
    assert code == 0
    assert out.startswith("Aldo declares 2 attacks this round: -3 to each and to its defence")
    code, out, err = cli("resolve", "attack", str(declared), "--attacker", "Aldo", "--target",
                         "Grok", "--dice", "20,1", "--apply", "--out", str(declared))
    assert code == 0 and out.startswith("Aldo attacks Grok: 17 vs AC 11 — hits")
    code, out, _ = attack(cli, declared)
    assert code == 0
    code, _, err = cli("resolve", "attack", str(tmp_path / "after.json"), "--attacker", "Aldo",
                       "--target", "Grok", "--dice", "20,1")
    assert code == 2 and "already acted this round (2 of 2 actions" in err


def test_a_critical_event_drops_a_weapon_and_recovering_it_is_an_action(
        make_encounter: Callable[..., Encounter], tmp_path: Path, cli: Cli) -> None:
    """002 Critical events 5 'Weapon dropped, disarmed.' (d30 5, d3 1: Aldo); --decline
    logs it without applying it; 'resolve recover' picks the sword up as Aldo's action."""
    path = tmp_path / "round.json"
    encounter = make_encounter("A G", {
        "A": Combatant(name="Aldo", weapons=("Long sword",)),
        "G": Combatant(name="Grok", side=Side.OPPOSITION)})
    encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="A", segment=3),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=3)])
    save_encounter(encounter, path)
    after = tmp_path / "after.json"
    args = ("resolve", "critical", str(path), "--party", "Aldo", "--foe", "Grok",
            "--dice", "5,1", "--apply", "--out", str(after))
    code, out, _ = cli(*args, "--decline")
    assert code == 0 and "takes an action — declined by the GM\n" in out
    assert load_encounter(after).token("A").combatant.out_of_hand == ()
    code, out, _ = cli(*args)
    assert code == 0 and "Aldo's Long sword dropped at (0,0)" in out
    code, out, err = cli("resolve", "attack", str(after), "--attacker", "Aldo", "--target",
                         "Grok", "--weapon", "Long sword", "--dice", "20,1")
    assert code == 2 and "recovering it takes an action" in err
    code, out, _ = cli("resolve", "recover", str(after), "--token", "Aldo", "--apply", "--out",
                       str(after))
    assert code == 0 and out.startswith("Aldo picks up the Long sword")
    recovered = load_encounter(after)
    assert recovered.token("A").combatant.out_of_hand == ()
    assert recovered.timeline.entry("A").actions_taken == 1


def test_a_lock_forces_submission_at_the_rounds_end(make_encounter: Callable[..., Encounter],
                                                    tmp_path: Path, cli: Cli) -> None:
    """002 Locks: 'Will submit when all SP are lost': Grok (3 HP) locked for 4 a round
    submits when 'resolve next-round' ends the round; the lock ends."""
    path = tmp_path / "lock.json"
    encounter = make_encounter("A G", {
        "A": Combatant(name="Aldo", martial_artist=True),
        "G": Combatant(name="Grok", side=Side.OPPOSITION, max_hp=20, hp=3)})
    save_encounter(encounter, path)
    code, _, err = cli("resolve", "grapple", str(path), "--attacker", "Aldo", "--target",
                       "Grok", "--attempt", "lock", "--dice", "20,1,4", "--apply", "--out",
                       str(path))
    assert code == 0, err
    code, out, _ = cli("resolve", "next-round", str(path), "--apply", "--out", str(path))
    assert code == 0 and out.startswith("Round 0 ends: Aldo locks Grok (4 a round): 4 damage "
                                        "at the round's end — Grok submits")
    grok = load_encounter(path).token("G").combatant
    assert (grok.hp, "submitted" in grok.conditions) == (0, True)
    assert load_encounter(path).timeline.holds == []
