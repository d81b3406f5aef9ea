"""What conditions do to the numbers (rules-decisions "Conditions"; 002 "Stunning" table and
critical event 15; 000's Prone).

- 002 · Stunning: "Dazed -2 on all skills", "Stunned -4 on all skills", "Knockdown -6 on all
  skills": a penalty on every roll the creature makes (attack, FR, saves, manoeuvres) —
  :func:`roll_penalty`. Only the worst one counts.
- RD: "Prone ... −5 defence (AC and FD)" — in :func:`core.rules.ratings.armour_class` and
  :func:`~core.rules.ratings.force_defense` through :func:`defence_penalty`.
- RD: "Knocked out: helpless (attacks against it hit automatically; it takes no action)".
- 002: "Stunned characters get better by 1 place each round (all KO degrade to Knockdown)":
  :data:`STUN_CHAIN`, one step at each round's end (:func:`next_stage`); RD "Knocked out for
  1 round lasts the rest of the current round and all of the next; the Knockdown stage that
  follows includes Prone".

>>> from core.model.combatant import Combatant
>>> from core.model.profile import RulesProfile
>>> dazed = Combatant(name="A", conditions=frozenset({Condition.DAZED, Condition.STUNNED}))
>>> [(t.name, t.value) for t in roll_penalty(dazed, RulesProfile())]
[('Stunned', -4)]
>>> next_stage(Condition.KNOCKED_OUT), next_stage(Condition.DAZED)
(<Condition.KNOCKDOWN: 'knockdown'>, None)
"""

from __future__ import annotations

from core.model.breakdown import Term
from core.model.combatant import Combatant, Condition
from core.model.profile import RulesProfile

STUN = "002 Stunning table: on all skills"

#: 002 "better by 1 place each round (all KO degrade to Knockdown)", worst first.
STUN_CHAIN: tuple[Condition, ...] = (Condition.KNOCKED_OUT, Condition.KNOCKDOWN,
                                     Condition.STUNNED, Condition.DAZED)


def _penalties(profile: RulesProfile) -> dict[Condition, int]:
    return {Condition.KNOCKDOWN: profile.knockdown_penalty,
            Condition.STUNNED: profile.stunned_penalty, Condition.DAZED: profile.dazed_penalty}


def roll_penalty(combatant: Combatant, profile: RulesProfile) -> tuple[Term, ...]:
    """The term every roll of ``combatant`` takes from its stun condition (the worst one),
    or none."""
    penalties = _penalties(profile)
    worst = min(((penalties[c], c) for c in combatant.conditions if c in penalties),
                default=None)
    if worst is None or worst[0] == 0:
        return ()
    return (Term(worst[1].value.capitalize(), worst[0], STUN),)


def defence_penalty(combatant: Combatant, profile: RulesProfile) -> tuple[Term, ...]:
    """Prone: −5 to AC and FD (rules-decisions "Conditions")."""
    if not combatant.has(Condition.PRONE) or not profile.prone_defence_penalty:
        return ()
    return (Term("Prone", profile.prone_defence_penalty, "RD Conditions: Prone −5 defence"),)


def helpless(combatant: Combatant) -> bool:
    """Knocked out: attacks hit it automatically and it takes no action."""
    return combatant.has(Condition.KNOCKED_OUT)


def no_action_reason(combatant: Combatant) -> str:
    """Why the combatant takes no action this round, if it does not."""
    if helpless(combatant):
        return "knocked out: no action"
    if combatant.has(Condition.KNOCKDOWN):
        return "knocked down: no action"
    if gets_up(combatant):
        return "gets up this round (no attack)"
    return ""


def gets_up(combatant: Combatant) -> bool:
    """Prone and able to rise: "the creature spends its next action getting up" (RD)."""
    return (combatant.has(Condition.PRONE) and not helpless(combatant)
            and not combatant.has(Condition.KNOCKDOWN))


def next_stage(condition: Condition) -> Condition | None:
    """The condition one place better on the stun chain (None: it ends)."""
    if condition not in STUN_CHAIN:
        return None
    index = STUN_CHAIN.index(condition)
    return STUN_CHAIN[index + 1] if index + 1 < len(STUN_CHAIN) else None


def rounds_of(condition: Condition, profile: RulesProfile, catastrophic: bool = False
              ) -> int | None:
    """Round ends a newly gained condition lasts before it steps down the chain (a
    condition gained mid-round counts that round's end): KO lasts its rounds plus the rest
    of the current one; the other stun stages one round end each; Prone has no timer (it
    lasts until the creature gets up)."""
    if condition is Condition.KNOCKED_OUT:
        return 1 + (profile.catastrophic_ko_rounds if catastrophic else profile.ko_rounds)
    return 1 if condition in STUN_CHAIN else None
