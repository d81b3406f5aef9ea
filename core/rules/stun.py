"""Stun checks and the stunning table (002 "Knockouts and stunning": "They are stunned unless
an Endurance save", "Difficulty = 10+SP suffered", the table Unlucky Dazed, Bad Stunned,
Dreadful Knockdown, Appalling "KO for 1 round then knockdown", Catastrophic "5 minutes";
rules-decisions "Conditions": "Stun checks: Endurance save d20 + CON modifier ≥ 10 + damage
suffered; the failure level picks Dazed / Stunned / Knockdown / KO (Appalling) / KO 5 min
(Catastrophic)").

>>> from core.model.combatant import Combatant
>>> from core.model.dice import ScriptedDice
>>> check = stun_check(Combatant(name="Mira"), 3, RulesProfile(), ScriptedDice([6]))
>>> check.total.value, check.target.value, check.level, sorted(check.conditions)
(6, 13, 'Dreadful', [<Condition.KNOCKDOWN: 'knockdown'>, <Condition.PRONE: 'prone'>])
>>> check.effect.describe()
'knockdown to the end of this round, prone until it gets up'
>>> stun_effect(5, RulesProfile()).describe()
'knocked out for the rest of this round and 30 more (5 minutes)'
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceSource, RollRecord
from core.model.profile import RulesProfile
from core.rules.conditions import STUN_CHAIN, rounds_of, save_terms
from core.rules.value import RulesValue

STUNNING = "002 Knockouts and stunning"
#: The stunning table by failure level (1 Unlucky … 5 Catastrophic), without the KO rows.
STAGES: tuple[frozenset[Condition], ...] = (
    frozenset({Condition.DAZED}), frozenset({Condition.STUNNED}),
    frozenset({Condition.KNOCKDOWN, Condition.PRONE}))
KNOCKED_OUT = frozenset({Condition.KNOCKED_OUT})
APPALLING, CATASTROPHIC = 4, 5


class StunEffect(RulesValue):
    """What a stun result does: the failure level, the conditions gained, whether a KO is
    the 5-minute one, and how many round ends each condition lasts (None: Prone, until the
    creature gets up) — the timers :func:`core.actions.afflict.afflict` starts."""

    level: str | None = None
    conditions: frozenset[Condition] = frozenset()
    catastrophic: bool = False
    rounds: tuple[tuple[Condition, int | None], ...] = ()

    def describe(self) -> str:
        """Each condition with its duration, worst first."""
        if not self.conditions:
            return "no effect"
        return ", ".join(f"{c.value.replace('_', ' ')} {_lasting(n, self.catastrophic)}"
                         for c, n in self.rounds)


def _lasting(rounds: int | None, catastrophic: bool) -> str:
    if rounds is None:
        return "until it gets up"
    if rounds == 1:
        return "to the end of this round"
    return (f"for the rest of this round and {rounds - 1} more"
            + (" (5 minutes)" if catastrophic else ""))


def stun_effect(rank: int, profile: RulesProfile, knockout: bool = True) -> StunEffect:
    """The stunning table's row for ``rank`` failure levels (0: nothing), with the
    conditions' durations (rules-decisions "Conditions"). Without ``knockout`` (a charge:
    "there is no KO result", 002) the table stops at Knockdown."""
    if rank <= 0:
        return StunEffect()
    catastrophic = knockout and rank >= CATASTROPHIC
    conditions = (KNOCKED_OUT if knockout and rank >= APPALLING
                  else STAGES[min(rank, len(STAGES)) - 1])
    order = [*STUN_CHAIN, *sorted(conditions - set(STUN_CHAIN))]
    rounds = tuple((c, rounds_of(c, profile, catastrophic)) for c in order if c in conditions)
    return StunEffect(level=profile.failure_levels[rank - 1].name, conditions=conditions,
                      catastrophic=catastrophic, rounds=rounds)


class StunCheck(RulesValue):
    """One Endurance save against being stunned, and what failing it did."""

    who: str
    roll: RollRecord
    total: Breakdown
    target: Breakdown
    rank: int
    level: str | None
    effect: StunEffect

    @property
    def conditions(self) -> frozenset[Condition]:
        return self.effect.conditions

    def describe(self) -> str:
        """The save, and on a failure its level and each condition with its duration."""
        verdict = "holds" if not self.rank else (
            f"fails by {self.target.value - self.total.value} ({self.level}): "
            + self.effect.describe())
        return (f"{self.who} stun check: {self.total.describe()} vs {self.target.describe()}"
                f" — {verdict}")


def stun_check(combatant: Combatant, damage: int, profile: RulesProfile, dice: DiceSource,
               knockout: bool = True) -> StunCheck:
    """Roll the Endurance save d20 + CON modifier (+ the creature's stun condition) against
    ``stun_check_base`` + damage suffered; the failure level picks the table's row."""
    roll = dice.roll("d20", f"{combatant.name} stun check (Endurance)")
    total = Breakdown.of(Term("d20", roll.total, STUNNING),
                         Term("CON modifier", profile.ability_modifier(
                             combatant.abilities.constitution), "RD Conditions: Stun checks"),
                         *save_terms(combatant, profile))
    target = Breakdown.of(Term("Difficulty", profile.stun_check_base,
                               "002 Stunning: Difficulty = 10+SP suffered"),
                          Term("Damage suffered", damage, "002 Stunning"))
    rank = profile.failure_rank(target.value - total.value)
    return StunCheck(who=combatant.name, roll=roll, total=total, target=target, rank=rank,
                     level=profile.failure_level(target.value - total.value),
                     effect=stun_effect(rank, profile, knockout))
