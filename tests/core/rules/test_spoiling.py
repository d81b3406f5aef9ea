"""Readiness to spoil a long action (002 Spoiling attacks: 'If you are not concentrating then
a perception roll must be made to notice the movements of the caster. For each segment that
the action is performed the perception roll difficulty reduces by one'), worked by hand."""

from __future__ import annotations

import pytest

from core.actions.attack import AttackAction
from core.actions.base import perform
from core.actions.history import History
from core.actions.spoiling import ConcentrateAction, PerceptionAction
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter, Token
from core.model.mapmodel import BattleMap
from core.model.round import InitiativeEntry, RoundState, WatchKind
from core.rules.attack import AttackOptions
from core.rules.spoiling import SpoilRefusedError, perception_chance, readiness
from core.rules.turns import TurnRefusedError


def casting(segment: int) -> Encounter:
    """The Shaman casts a 4-segment spell from segment 3; Aldo (initiative 8) and Bree next
    to it; the timeline at ``segment``."""
    encounter = Encounter(map=BattleMap(width=4, height=2), tokens=[
        Token(id="s", combatant=Combatant(name="Shaman", side=Side.OPPOSITION), x=1, y=0),
        Token(id="a", combatant=Combatant(name="Aldo", hr_slots=5), x=0, y=0),
        Token(id="b", combatant=Combatant(name="Bree"), x=2, y=0)])
    encounter.timeline = RoundState(round_number=1, current_segment=segment, entries=[
        InitiativeEntry(token_id="s", side=Side.OPPOSITION, segment=3, action_segments=4),
        InitiativeEntry(token_id="a", segment=8), InitiativeEntry(token_id="b", segment=9)])
    return encounter


def test_the_perception_difficulty_falls_a_point_each_segment() -> None:
    """d20 ≥ 12 at the spell's first segment (9 in 20), ≥ 10 two segments on (11 in 20)."""
    assert perception_chance(casting(3), "a", "s") == pytest.approx(9 / 20)
    assert perception_chance(casting(5), "a", "s") == pytest.approx(11 / 20)


def test_a_noticed_action_is_spoiled_from_the_next_segment() -> None:
    encounter = casting(4)
    history = History(encounter)
    outcome = perform(PerceptionAction("a", "s"), history, ScriptedDice([11]))
    assert outcome.result.noticed and outcome.result.difficulty.value == 11
    assert outcome.summary == ("Aldo watches Shaman's long action: 11 vs 11 — notices it: "
                               "its hits from segment 5 spoil the action")
    # the perception takes one segment: at segment 4 a hit does not spoil yet
    assert "spoil from segment 5" in readiness(encounter, "a", "s")
    encounter.timeline.current_segment = 5
    assert readiness(encounter, "a", "s") == ""
    hit = perform(AttackAction("a", "s", AttackOptions(damage="d6")), history,
                  ScriptedDice([20, 2]))
    assert [e.kind for e in hit.entries] == ["attack", "spoiled"]


def test_a_hit_by_a_creature_that_did_not_notice_does_not_spoil() -> None:
    encounter = casting(4)
    history = History(encounter)
    perform(PerceptionAction("b", "s"), history, ScriptedDice([3]))  # 3 vs 11: missed
    with pytest.raises(SpoilRefusedError, match="rolled this segment already"):
        perform(PerceptionAction("b", "s"), history, ScriptedDice([20]))
    hit = perform(AttackAction("b", "s", AttackOptions(damage="d6")), history,
                  ScriptedDice([20, 2]))
    assert [e.kind for e in hit.entries] == ["attack", "not-spoiled"]
    assert hit.entries[1].summary == ("Shaman's long action goes on: Bree was not "
                                      "concentrating on it and has not noticed it")
    encounter.profile = encounter.profile.model_copy(update={"spoiling_needs_notice": False})
    assert readiness(encounter, "b", "s") == ""


def test_a_concentrating_creature_spoils_without_a_roll() -> None:
    encounter = casting(2)
    history = History(encounter)
    perform(ConcentrateAction("a", "s"), history, ScriptedDice([]))
    assert [(w.token_id, w.kind) for w in encounter.timeline.watches] == [
        ("a", WatchKind.CONCENTRATING)]
    encounter.timeline.current_segment = 3
    with pytest.raises(SpoilRefusedError, match="concentrating on Shaman: no roll needed"):
        perform(PerceptionAction("a", "s"), history, ScriptedDice([20]))
    hit = perform(AttackAction("a", "s", AttackOptions(damage="d6")), history,
                  ScriptedDice([20, 2]))
    assert [e.kind for e in hit.entries] == ["attack", "spoiled"]
    history.undo()
    history.undo()
    assert encounter.timeline.watches == []


def test_only_a_creature_that_has_not_acted_may_watch() -> None:
    encounter = casting(4)
    encounter.timeline.replace_entry(InitiativeEntry(token_id="a", segment=8,
                                                     actions_taken=1))
    with pytest.raises(TurnRefusedError, match="has already acted"):
        perform(PerceptionAction("a", "s"), History(encounter), ScriptedDice([20]))
    encounter.timeline.current_segment = 8  # the spell is over
    with pytest.raises(SpoilRefusedError, match="not in the midst of a multi-segment action"):
        perform(PerceptionAction("b", "s"), History(encounter), ScriptedDice([20]))


def test_a_stunned_watcher_takes_its_penalty() -> None:
    encounter = casting(3)
    bree = encounter.token("b")
    encounter.put_token(bree.with_combatant(bree.combatant.model_copy(
        update={"conditions": frozenset({Condition.STUNNED})})))
    outcome = perform(PerceptionAction("b", "s"), History(encounter), ScriptedDice([15]))
    assert (outcome.result.total.value, outcome.result.noticed) == (11, False)
