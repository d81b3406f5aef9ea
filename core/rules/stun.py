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
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceSource, RollRecord
from core.model.profile import RulesProfile
from core.rules.conditions import roll_penalty

STUNNING = "002 Knockouts and stunning"
#: The stunning table by failure level (1 Unlucky … 5 Catastrophic), without the KO rows.
STAGES: tuple[frozenset[Condition], ...] = (
    frozenset({Condition.DAZED}), frozenset({Condition.STUNNED}),
    frozenset({Condition.KNOCKDOWN, Condition.PRONE}))
KNOCKED_OUT = frozenset({Condition.KNOCKED_OUT})
APPALLING, CATASTROPHIC = 4, 5


class StunEffect(BaseModel):
    """What a stun result does: the conditions gained, and whether a KO is the 5-minute one."""

    model_config = ConfigDict(frozen=True)

    conditions: frozenset[Condition] = frozenset()
    catastrophic: bool = False


def stun_effect(rank: int, knockout: bool = True) -> StunEffect:
    """The stunning table's row for ``rank`` failure levels (0: nothing). Without
    ``knockout`` (a charge: "there is no KO result", 002) the table stops at Knockdown."""
    if rank <= 0:
        return StunEffect()
    if knockout and rank >= APPALLING:
        return StunEffect(conditions=KNOCKED_OUT, catastrophic=rank >= CATASTROPHIC)
    return StunEffect(conditions=STAGES[min(rank, len(STAGES)) - 1])


class StunCheck(BaseModel):
    """One Endurance save against being stunned, and what failing it did."""

    model_config = ConfigDict(frozen=True)

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
        verdict = "holds" if not self.rank else (
            f"fails by {self.target.value - self.total.value} ({self.level}): "
            + (", ".join(sorted(c.value for c in self.conditions)) or "no effect")
            + (" for 5 minutes" if self.effect.catastrophic else ""))
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
                         *roll_penalty(combatant, profile))
    target = Breakdown.of(Term("Difficulty", profile.stun_check_base,
                               "002 Stunning: Difficulty = 10+SP suffered"),
                          Term("Damage suffered", damage, "002 Stunning"))
    rank = profile.failure_rank(target.value - total.value)
    return StunCheck(who=combatant.name, roll=roll, total=total, target=target, rank=rank,
                     level=profile.failure_level(target.value - total.value),
                     effect=stun_effect(rank, knockout))
