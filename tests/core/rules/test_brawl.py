"""Brawling (core.rules.brawl; 002 "Brawling": "any armed defender gets to • Strike first • All
hits cause wound points directly"; "Martial artists ... suffers no penalties against armed
opponents"; RD "Brawling"), worked by hand.

Aldo (party, bare hands, 10 HP) pummels Grok (opposition, a club, 20 HP). Dice: Grok's first
strike (d20, the club's d4), then Aldo's (d20, the d2)."""

from __future__ import annotations

from collections.abc import Callable

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.grapple import GrappleAction
from core.actions.history import History
from core.model.combatant import Combatant, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry, RoundState
from core.rules.attack import AttackOptions
from core.rules.attack_odds import attack_odds
from core.rules.grapple import GrappleRequest

Make = Callable[..., Encounter]
PUMMEL = AttackOptions(weapon="Unarmed")


def brawl(make: Make, profile: RulesProfile | None = None, hp: int = 10,
          martial_artist: bool = False) -> History:
    return History(make("A G", {
        "A": Combatant(name="Aldo", max_hp=10, hp=hp, martial_artist=martial_artist),
        "G": Combatant(name="Grok", side=Side.OPPOSITION, weapons=("Club",), max_hp=20,
                       hp=20)}, profile=profile))


def hp_of(history: History, token: str) -> int:
    return history.encounter.token(token).combatant.hp


def test_an_armed_defender_strikes_first(make_encounter: Make) -> None:
    history = brawl(make_encounter)
    outcome = perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 3, 20, 2]))
    assert (hp_of(history, "A"), hp_of(history, "G")) == (10 - 3, 20 - 2)
    assert [e.summary for e in outcome.entries] == [
        "First strike (002 Brawling): Grok attacks Aldo: 20 vs AC 11 — hits, 3 damage",
        "Aldo attacks Grok: 20 vs AC 11 — hits, 2 damage"]
    assert outcome.summary == history.labels()[-1] == outcome.entries[1].summary
    history.undo()
    assert (hp_of(history, "A"), hp_of(history, "G")) == (10, 20)


def test_its_hits_are_wound_points_with_the_wounds_option(make_encounter: Make) -> None:
    """002: 'All hits cause wound points directly'."""
    history = brawl(make_encounter, RulesProfile(wounds=True))
    perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 3, 1]))
    aldo = history.encounter.token("A").combatant
    assert (aldo.hp, aldo.wounds) == (10, 3)


def test_a_first_strike_that_drops_the_brawler_stops_its_attack(make_encounter: Make) -> None:
    """Aldo at 2 HP takes the club's 3: down before he strikes; his action is spent."""
    history = brawl(make_encounter, hp=2)
    history.encounter.timeline = RoundState(round_number=1, entries=[
        InitiativeEntry(token_id="A", segment=2),
        InitiativeEntry(token_id="G", side=Side.OPPOSITION, segment=5)])
    outcome = perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 3]))
    assert outcome.result.stopped and (hp_of(history, "A"), hp_of(history, "G")) == (-1, 20)
    assert outcome.entries[-1].summary == ("Aldo attacks Grok: stopped by the first strike "
                                           "(002 Brawling)")
    assert history.encounter.timeline.entry("A").actions_taken == 1


def test_a_martial_artist_gets_no_first_strike(make_encounter: Make) -> None:
    history = brawl(make_encounter, martial_artist=True)
    perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 2]))
    assert (hp_of(history, "A"), hp_of(history, "G")) == (10, 18)


def test_a_grapple_attempt_meets_the_first_strike_too(make_encounter: Make) -> None:
    """A hold: Grok's strike misses (d20 1), then both grapple d20s."""
    history = brawl(make_encounter)
    outcome = perform(GrappleAction(GrappleRequest(attacker="A", defender="G")), history,
                      ScriptedDice([1, 15, 5]))
    assert outcome.result.first_strike is not None and not outcome.result.first_strike.hit
    assert outcome.result.hold is not None
    assert outcome.summary.startswith("Aldo grapples Grok")  # the step is the grapple
    again = perform(AttackAction("A", "G", PUMMEL), history, ScriptedDice([20, 2]))
    assert again.result.first_strike is None  # close combat already: no first strike


def test_the_odds_card_says_who_strikes_first(make_encounter: Make) -> None:
    odds = attack_odds(brawl(make_encounter).encounter, "A", "G", PUMMEL)
    assert "Grok strikes first with its Club (002 Brawling)" in odds.notes
