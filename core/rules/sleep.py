"""Attacks on a creature woken from sleep (002 "Sleep"), in every attack and missile roll.

002 · Sleep: "When waking characters from sleep to fight it requires 1/2 round of shaking or
a loud noise. 1. Round 1 Waking up - Foe auto hits double damage 2. Round 2 Rising - Foe gets
+1d8 to their attack 3. Round 3 Defend - Foe attacks nornmally 4. Round 4+ Normal combat".

- The automatic hit is :func:`core.rules.conditions.helpless` (asleep or waking).
- Double damage (``waking_damage_multiplier``): :func:`doubled`, on the damage that gets
  through the armour, as its own term of the breakdown (RD reading: "double damage" of the
  damage done).
- The +1d8 (``rising_attack_die``): :func:`rising_terms`, a die rolled right after the
  attack's d20 and named in the hit roll's breakdown; the exact odds fold its
  distribution in (:func:`rising_bonus`).
- The stages and their rounds are the waking chain of :mod:`core.rules.conditions`.

>>> from core.model.combatant import Combatant
>>> from core.model.dice import ScriptedDice
>>> rising = Combatant(name="Gnoll", conditions=frozenset({Condition.RISING}))
>>> [(t.name, t.value) for t in rising_terms(rising, RulesProfile(), ScriptedDice([6]), "Ann")]
[('Gnoll rising: +d8 rolled 6', 6)]
>>> waking = Combatant(name="Gnoll", conditions=frozenset({Condition.WAKING}))
>>> doubled(waking, Breakdown.of(Term("Damage", 5)), RulesProfile()).value
10
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceExpression, DiceSource
from core.model.profile import RulesProfile
from core.rules.conditions import WAKE_CHAIN, rounds_of

SEED = "002 Sleep"


def rising_terms(defender: Combatant, profile: RulesProfile, dice: DiceSource,
                 attacker: str) -> tuple[Term, ...]:
    """"Round 2 Rising - Foe gets +1d8 to their attack": the die, rolled, as a term of the
    hit roll (none unless the defender is rising)."""
    if not defender.has(Condition.RISING):
        return ()
    die = profile.rising_attack_die
    roll = dice.roll(die, f"{attacker}: +{die} against {defender.name} rising")
    return (Term(f"{defender.name} rising: +{die} rolled {roll.total}", roll.total,
                 f"{SEED}: 'Round 2 Rising - Foe gets +1d8 to their attack'"),)


def rising_bonus(defender: Combatant, profile: RulesProfile) -> dict[int, Fraction]:
    """The distribution of what :func:`rising_terms` adds to the hit roll ({0: 1} when the
    defender is not rising), for the exact odds."""
    if not defender.has(Condition.RISING):
        return {0: Fraction(1)}
    return DiceExpression.parse(profile.rising_attack_die).outcomes().probabilities


def odds_notes(defender: Combatant, profile: RulesProfile) -> tuple[str, ...]:
    """What the target's state does to an attack's chances, for the odds cards (the terms
    themselves are rolled in the resolver): hit whatever the roll (knocked out, asleep,
    waking), doubled damage, a rising target's +1d8.

    >>> odds_notes(Combatant(name="Gnoll", conditions=frozenset({Condition.RISING})),
    ...            RulesProfile())
    ('Gnoll rising: +d8 to the attack (002 Sleep)',)
    """
    if defender.has(Condition.RISING):
        return (f"{defender.name} rising: +{profile.rising_attack_die} to the attack "
                f"({SEED})",)
    stage = next((c for c in (Condition.ASLEEP, Condition.WAKING) if defender.has(c)), None)
    if stage is not None:
        return (f"{defender.name} {stage.value}: hit whatever the roll, damage "
                f"×{profile.waking_damage_multiplier} ({SEED})",)
    if defender.has(Condition.KNOCKED_OUT):
        return (f"{defender.name} knocked out: hit whatever the roll (RD Conditions)",)
    return ()


def doubled(defender: Combatant, damage: Breakdown, profile: RulesProfile) -> Breakdown:
    """"Round 1 Waking up - Foe auto hits double damage" (a sleeper is hit the same way):
    the damage done, times ``waking_damage_multiplier``, the extra as its own term."""
    stage = next((c for c in (Condition.ASLEEP, Condition.WAKING) if defender.has(c)), None)
    extra = damage.value * (profile.waking_damage_multiplier - 1)
    if stage is None or not extra:
        return damage
    return damage.plus(Term(f"{defender.name} {stage.value}: ×"
                            f"{profile.waking_damage_multiplier} damage", extra,
                            f"{SEED}: 'Round 1 Waking up - Foe auto hits double damage'"))


class WakeStage(NamedTuple):
    """A stage of waking and the rounds it covers, first to last."""

    condition: Condition
    first: int
    last: int
    effect: str


EFFECTS = {Condition.WAKING: "foes hit automatically for double damage",
           Condition.RISING: "foes +1d8 to attack", Condition.DEFENDING: "defends only"}


def wake_schedule(combatant: Combatant, profile: RulesProfile, round_number: int
                  ) -> tuple[WakeStage, ...]:
    """The waking rounds of a creature woken now, in round ``round_number``: waking for the
    rest of this round and ``waking_rounds`` more, then rising and defending for their
    rounds (RD reading, as a knock-out: "lasts the rest of the current round and all of
    the next"); normal combat after the last."""
    if not combatant.has(Condition.ASLEEP):
        raise ValueError(f"{combatant.name} is not asleep")
    stages, first = [], round_number
    for condition in WAKE_CHAIN:
        length = rounds_of(condition, profile) or 1
        stages.append(WakeStage(condition, first, first + length - 1,
                                EFFECTS[condition].replace("1d8", profile.rising_attack_die)))
        first += length
    return tuple(stages)
