"""Surprise (002 "Surprise"): each character makes a Spot save; a failure gives the
ambushers free attacks, one per failure level.

002: "Surprise is a standard (12) Spot saving throw with a bonuses depending on the general
level of alertness of the party and ambushers stealth bonus level"; "If characters are
surprised the opponent automatically gain a free attack for each failure level"; "Attacks
are +2 to hit and +1 damage per failure level"; "Each suprise attack reduces the failure
level by 1 place"; "ambushers gain an iniative of 1 plus distance moved".

Interpretation (profile fields): the save is d20 + alertness bonus − ambushers' stealth
bonus ≥ ``surprise_spot_target``; the failure level is named by the profile's failure
levels; each free attack gets ``surprise_hit_bonus`` to hit and
``surprise_damage_per_level`` × the failure level left when it is made.

>>> from core.model.profile import AlertnessLevel, RulesProfile
>>> ambusher_initiative(15, RulesProfile())
4
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Side
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry, Token
from core.model.profile import AlertnessLevel, RulesProfile
from core.rules.conditions import save_terms
from core.rules.timeline import segments_moving
from core.rules.value import RulesValue


class FreeAttack(RulesValue):
    """One free attack: its bonuses and the segment it takes; past the last attack
    segment it is lost (002: "any that are move into the next round are lost")."""

    number: int
    hit_bonus: int
    damage_bonus: int
    segment: int = 1
    lost: bool = False


class SpotSave(RulesValue):
    """One character's surprise save and what it costs them."""

    token_id: str
    name: str
    roll: RollRecord
    total: Breakdown
    target: int
    failure_level: str | None
    free_attacks: tuple[FreeAttack, ...] = ()

    @property
    def surprised(self) -> bool:
        return self.failure_level is not None

    @property
    def attacks(self) -> tuple[FreeAttack, ...]:
        """The free attacks that happen (the lost ones left out)."""
        return tuple(a for a in self.free_attacks if not a.lost)

    def describe(self) -> str:
        verdict = (f"surprised ({self.failure_level}): {len(self.attacks)} free "
                   "attack(s) against them " + ", ".join(map(_describe, self.free_attacks))
                   ) if self.surprised else "not surprised"
        return f"{self.name}: {self.total.describe()} vs {self.target} — {verdict}"


def _describe(attack: FreeAttack) -> str:
    if attack.lost:
        return f"#{attack.number} lost (segment {attack.segment}, past the round)"
    return (f"#{attack.number} segment {attack.segment}: {attack.hit_bonus:+d} hit "
            f"{attack.damage_bonus:+d} dmg")


def spot_saves(encounter: Encounter, alertness: str, stealth_bonus: int, dice: DiceSource,
               moved_ft: float = 0) -> list[SpotSave]:
    """Every party character rolls individually (002 "Each character rolls individually");
    the ambushers, who moved ``moved_ft`` to close in, strike from segment 1 + segments
    moved, one free attack per segment."""
    profile = encounter.profile
    level = alertness_level(profile, alertness)
    first = ambusher_initiative(moved_ft, profile)
    return [_save(token, (level.bonus, stealth_bonus), profile, dice, first)
            for token in encounter.tokens if token.combatant.side is Side.PARTY]


def alertness_level(profile: RulesProfile, name: str) -> AlertnessLevel:
    """The row of 002's "State of alert" table with this name (any case)."""
    for level in profile.alertness:
        if level.name.casefold() == name.strip().casefold():
            return level
    known = ", ".join(a.name for a in profile.alertness)
    raise ValueError(f"unknown state of alert {name!r}; choose one of: {known}")


def _save(token: Token, bonuses: tuple[int, int], profile: RulesProfile, dice: DiceSource,
          first_segment: int) -> SpotSave:
    token_id, name = token.id, token.name
    alert, stealth = bonuses
    roll = dice.roll("d20", f"{name} Spot save (surprise)")
    total = Breakdown.of(Term("d20", roll.total, "002 Surprise: Spot saving throw"),
                         Term("State of alert", alert, "002 State of alert table"),
                         Term("Ambushers' stealth", -stealth, "002 Surprise: stealth bonus"),
                         *save_terms(token.combatant, profile))
    target = profile.surprise_spot_target
    level = profile.failure_level(target - total.value)
    return SpotSave(token_id=token_id, name=name, roll=roll, total=total, target=target,
                    failure_level=level,
                    free_attacks=_free_attacks(level, profile, first_segment))


def _free_attacks(level: str | None, profile: RulesProfile, first_segment: int
                  ) -> tuple[FreeAttack, ...]:
    """One attack per failure level, each a segment after the last (002: "Each attack
    requires 1 segment and any that are move into the next round are lost")."""
    if level is None:
        return ()
    rank = [lvl.name for lvl in profile.failure_levels].index(level) + 1
    return tuple(FreeAttack(number=n + 1, hit_bonus=profile.surprise_hit_bonus,
                            damage_bonus=profile.surprise_damage_per_level * (rank - n),
                            segment=first_segment + n,
                            lost=first_segment + n > profile.last_attack_segment)
                 for n in range(rank))


def ambusher_initiative(moved_ft: float, profile: RulesProfile) -> int:
    """002: "ambushers gain an iniative of 1 plus distance moved" (in segments)."""
    return 1 + segments_moving(moved_ft, profile)


def surprise_log(saves: list[SpotSave], alertness: str, stealth_bonus: int,
                 moved_ft: float = 0) -> LogEntry:
    surprised = [s.name for s in saves if s.surprised]
    summary = ("Surprise: " + (", ".join(surprised) + " surprised" if surprised
                               else "no one is surprised"))
    moved = f"; ambushers moved {moved_ft:g} ft" if moved_ft else ""
    text = "\n".join([f"{alertness}; ambushers' stealth {stealth_bonus:+d}{moved}",
                      *[s.describe() for s in saves]])
    return LogEntry(kind="surprise", summary=summary, text=text,
                    detail={"saves": [s.model_dump(mode="json") for s in saves]})
