"""The commands a manoeuvre's result needs besides moves: damage and conditions with their
timers (rules-decisions "Conditions": Dazed, Stunned and Knockdown one round each, KO its
rounds, a Catastrophic KO 5 minutes — :func:`core.rules.conditions.rounds_of`), holds and
lowered guards on the round's state."""

from __future__ import annotations

from collections.abc import Iterable

from core.actions.commands import ChangeCombatant, Command
from core.actions.round import EditRound
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter
from core.model.melee import MIN_PENALTY, AcPenalty, Hold
from core.model.round import ConditionTimer, RoundState
from core.rules.conditions import rounds_of
from core.rules.holds import active_holds
from core.rules.timeline import timer_for


def afflict(encounter: Encounter, token_id: str, label: str, *, damage: int = 0,
            gained: frozenset[Condition] = frozenset(), lost: frozenset[Condition] = frozenset(),
            catastrophic: bool = False, wounds: int = 0) -> list[Command]:
    """Damage (and wound points), conditions gained and lost, and a fresh timer for each
    timed condition gained (one it already had starts again). Damage wakes a sleeper (002
    "Sleep": "a loud noise" wakes; its waking rounds start). Worked out on the creature as
    the step finds it, so it composes with the step's other changes to the same creature
    (a brawler struck first, then hurt by its own throw's slam)."""
    before = encounter.token(token_id).combatant
    if (damage > 0 or wounds > 0) and before.has(Condition.ASLEEP):
        gained, lost = gained | {Condition.WAKING}, lost | {Condition.ASLEEP}

    def change(combatant: Combatant) -> Combatant:
        after = combatant.hurt(damage, gained).wounded(wounds)
        return after.model_copy(update={"conditions": after.conditions - lost})

    commands: list[Command] = ([ChangeCombatant(token_id, change, label)]
                               if change(before) != before else [])
    profile = encounter.profile
    timers = [t for c in sorted(gained) if (t := timer_for(
        token_id, c, profile, rounds_of(c, profile, catastrophic))) is not None]
    if timers:
        commands.append(restart_timers(timers))
    return commands


def restart_timers(timers: list[ConditionTimer]) -> Command:
    """The round's timers with ``timers`` started afresh (one already running restarts)."""
    return EditRound(lambda state: _restart(state, timers), "Condition timers")


def _restart(state: RoundState, timers: list[ConditionTimer]) -> RoundState:
    fresh = {(t.token_id, t.condition) for t in timers}
    kept = [t for t in state.timers if (t.token_id, t.condition) not in fresh]
    return state.model_copy(update={"timers": kept + timers})


def set_hold(encounter: Encounter, pair: Iterable[str], hold: Hold | None) -> Command:
    """The round's holds with the one between ``pair`` replaced by ``hold`` (None: broken);
    holds no longer in place are dropped."""
    ids = set(pair)
    kept = [h for h in active_holds(encounter) if {h.holder, h.held} != ids]
    holds = kept + ([hold] if hold is not None else [])
    return EditRound(lambda state: state.model_copy(update={"holds": holds}), "Hold",
                     frozenset(ids))


def lower_guard(penalty: AcPenalty) -> Command:
    """Add a lowered guard (a forcing-back attacker's AC) to the round: failures that last
    until the same action add up in one entry (so the list stays one per creature)."""
    return EditRound(lambda state: _with_penalty(state, penalty), "Lowered guard",
                     frozenset({penalty.token_id}))


def _with_penalty(state: RoundState, penalty: AcPenalty) -> RoundState:
    key = (penalty.token_id, penalty.until_round)
    same = [p for p in state.ac_penalties if (p.token_id, p.until_round) == key]
    others = [p for p in state.ac_penalties if (p.token_id, p.until_round) != key]
    if same:
        penalty = penalty.model_copy(update={
            "value": max(MIN_PENALTY, penalty.value + sum(p.value for p in same)),
            "reason": f"Forcing back failed {len(same) + 1} times"})
    return state.model_copy(update={"ac_penalties": [*others, penalty]})
