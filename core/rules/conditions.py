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
- 002 · Sleep: "Round 1 Waking up - Foe auto hits double damage", "Round 2 Rising - Foe gets
  +1d8 to their attack", "Round 3 Defend", "Round 4+ Normal combat": :data:`WAKE_CHAIN`, one
  stage per round like the stun chain; a sleeper and a waking creature are helpless, and no
  stage of it attacks (the attack terms are :mod:`core.rules.sleep`).
- 002 · Morale: a surrendered creature "plead[s] for mercy": it takes no action.

>>> from core.model.combatant import Combatant
>>> from core.model.profile import RulesProfile
>>> dazed = Combatant(name="A", conditions=frozenset({Condition.DAZED, Condition.STUNNED}))
>>> [(t.name, t.value) for t in roll_penalty(dazed, RulesProfile())]
[('Stunned', -4)]
>>> next_stage(Condition.KNOCKED_OUT), next_stage(Condition.DAZED)
(<Condition.KNOCKDOWN: 'knockdown'>, None)
>>> next_stage(Condition.WAKING), rounds_of(Condition.WAKING, RulesProfile())
(<Condition.RISING: 'rising'>, 2)
"""

from __future__ import annotations

from core.model.breakdown import Term
from core.model.combatant import Combatant, Condition
from core.model.profile import RulesProfile

STUN = "002 Stunning table: on all skills"

#: 002 "better by 1 place each round (all KO degrade to Knockdown)", worst first.
STUN_CHAIN: tuple[Condition, ...] = (Condition.KNOCKED_OUT, Condition.KNOCKDOWN,
                                     Condition.STUNNED, Condition.DAZED)
#: 002 Sleep: the rounds after a sleeper is woken, first to last.
WAKE_CHAIN: tuple[Condition, ...] = (Condition.WAKING, Condition.RISING, Condition.DEFENDING)
#: Conditions that take the creature's action, and why (besides the stun chain and Prone).
IDLE: dict[Condition, str] = {
    Condition.ASLEEP: "asleep: no action",
    Condition.WAKING: "waking up: no action (002 Sleep round 1)",
    Condition.RISING: "rising: no attack (002 Sleep round 2)",
    Condition.DEFENDING: "defends only (002 Sleep round 3)",
    Condition.SURRENDERED: "surrendered: pleads for mercy",
    Condition.SUBMITTED: "submitted to a lock (002 Locks)",
}


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


def save_terms(combatant: Combatant, profile: RulesProfile) -> tuple[Term, ...]:
    """The terms of a save the creature rolls: its stun condition and a lucky break
    (critical event 16: "+d6 to defence & saves")."""
    return (*roll_penalty(combatant, profile), *lucky_terms(combatant))


def lucky_terms(combatant: Combatant) -> tuple[Term, ...]:
    """Critical event 16, a lucky break: to AC and saves until the round ends."""
    if not combatant.lucky_break:
        return ()
    return (Term("Lucky break", combatant.lucky_break, "002 Critical event 16: +d6 to "
                                                        "defence & saves"),)


def gear_terms(combatant: Combatant, profile: RulesProfile) -> tuple[Term, ...]:
    """A damaged shield in hand (critical event 2, "-1 Def": ``shield_damage_penalty`` each
    time) and dented armour (4, "-1 Defence": ``armour_dent_penalty`` each; RD: AC, not AV),
    until repaired."""
    shield = (combatant.shield_damage and combatant.has_shield
              and not any(o.shield for o in combatant.out_of_hand))
    damaged = -combatant.shield_damage * profile.shield_damage_penalty
    dented = -combatant.armour_dents * profile.armour_dent_penalty
    return ((*((Term("Shield damaged", damaged, "002 Critical event 2: -1 Def"),)
               if shield and damaged else ()),
             *((Term("Armour dented", dented, "002 Critical event 4: -1 Defence"),)
               if dented else ())))


def helpless(combatant: Combatant) -> bool:
    """Knocked out, asleep or waking up: attacks hit it automatically (002 Sleep: "Foe auto
    hits") and it takes no action."""
    return bool(combatant.conditions & {Condition.KNOCKED_OUT, Condition.ASLEEP,
                                        Condition.WAKING})


class NoActionError(ValueError):
    """The creature cannot act at all now (down, knocked out or down, asleep, ...)."""


def incapacity(combatant: Combatant) -> str:
    """Why the combatant can take no action at all, as it is now ('' when it can): at 0 HP
    or below (down, as morale counts it), knocked out, or a condition of :data:`IDLE`. Not
    Knockdown: 002's table gives it "-6 on all skills", not a lost action (its Prone costs
    the next action, getting up: :func:`gets_up`).

    >>> incapacity(Combatant(name="A", hp=0, max_hp=8))
    'down (0 HP): no action'
    """
    if combatant.hp <= 0:
        return f"down ({combatant.hp} HP): no action"
    if combatant.has(Condition.KNOCKED_OUT):
        return "knocked out: no action"
    return next((IDLE[c] for c in IDLE if c in combatant.conditions), "")


def down(combatant: Combatant) -> bool:
    """RD: "down (0 HP or KO)"."""
    return combatant.hp <= 0 or combatant.has(Condition.KNOCKED_OUT)


def inactive(combatant: Combatant) -> bool:
    """Does nothing at all (down, knocked out, asleep, waking); a rising, defending or
    surrendered creature still acts, without attacking."""
    return combatant.hp <= 0 or helpless(combatant)


def require_action(combatant: Combatant) -> None:
    """Refuse an attack, missile or manoeuvre by a creature that cannot act now."""
    reason = incapacity(combatant)
    if reason:
        raise NoActionError(f"{combatant.name} cannot act: {reason} (the form's conditions "
                            "and HP say so)")


BEFUDDLED = "befuddled: no skill action this round (002 Critical event 25)"


def no_action_reason(combatant: Combatant) -> str:
    """Why the combatant takes no action this round, if it does not (at the roll: a Prone
    one spends it getting up; a befuddled one, attacked last round, loses it)."""
    return incapacity(combatant) or ("gets up this round (no attack)" if gets_up(combatant)
                                     else "") or (
        BEFUDDLED if combatant.has(Condition.BEFUDDLED) else "")


def befuddled(reason_at_roll: str, combatant: Combatant) -> str:
    """The round's lost action of a befuddled creature (decided at the roll), while it is
    still befuddled ('' otherwise)."""
    return reason_at_roll if (reason_at_roll == BEFUDDLED
                              and combatant.has(Condition.BEFUDDLED)) else ""


def gets_up(combatant: Combatant) -> bool:
    """Prone and able to rise: "the creature spends its next action getting up" (RD); a
    knocked-down creature too (RD "Knockdown and Prone": then it acts at −6 while Knockdown
    lasts)."""
    return combatant.has(Condition.PRONE) and not helpless(combatant)


def next_stage(condition: Condition) -> Condition | None:
    """The condition one place better on the stun chain or the waking chain (None: it
    ends)."""
    chain = next((c for c in (STUN_CHAIN, WAKE_CHAIN) if condition in c), ())
    if not chain:
        return None
    index = chain.index(condition)
    return chain[index + 1] if index + 1 < len(chain) else None


def rounds_of(condition: Condition, profile: RulesProfile, catastrophic: bool = False
              ) -> int | None:
    """Round ends a newly gained condition lasts before it steps down the chain (a
    condition gained mid-round counts that round's end): KO lasts its rounds plus the rest
    of the current one; the other stun stages one round end each; waking, like KO, lasts
    the rest of the round it is woken in and its rounds, rising and defending their rounds;
    Prone and sleep have no timer (they last until the creature gets up or is woken)."""
    if condition is Condition.KNOCKED_OUT:
        return 1 + (profile.catastrophic_ko_rounds if catastrophic else profile.ko_rounds)
    waking = {Condition.WAKING: 1 + profile.waking_rounds,
              Condition.RISING: profile.rising_rounds,
              Condition.DEFENDING: profile.defending_rounds}
    if condition in waking:
        return waking[condition]
    # Critical events: 22 "No hero points this or next round"; 25 to this round's end
    # (lengthened when the befuddled creature is attacked: core.actions.injury).
    critical = {Condition.STYMIED: profile.stymied_rounds,
                Condition.BEFUDDLED: profile.befuddled_rounds}
    if condition in critical:
        return critical[condition]
    return 1 if condition in STUN_CHAIN else None
