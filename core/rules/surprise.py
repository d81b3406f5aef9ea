"""Surprise (002 "Surprise"): each character makes a Spot save; a failure gives the
ambushers free attacks, one per failure level.

002: "Surprise is a standard (12) Spot saving throw with a bonuses depending on the general
level of alertness of the party and ambushers stealth bonus level"; "If characters are
surprised the opponent automatically gain a free attack for each failure level"; "Attacks
are +2 to hit and +1 damage per failure level"; "Each suprise attack reduces the failure
level by 1 place"; "ambushers gain an iniative of 1 plus distance moved".

Interpretation (profile fields): the save is d20 + alertness bonus − ambushers' stealth
bonus ≥ ``surprise_spot_target``; the failure level is named by the profile's failure
levels; each free attack gets ``surprise_hit_bonus`` × the failure level left to hit
(rules-decisions "Shielding the surprised": "+2 × (L − k + 1)"; ``surprise_hit_per_level``
off: a flat ``surprise_hit_bonus``) and ``surprise_damage_per_level`` × the failure level
left to damage.

>>> from core.model.profile import AlertnessLevel, RulesProfile
>>> ambusher_initiative(15, RulesProfile())
4
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Side
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry, Token
from core.model.grid import distance_ft
from core.model.profile import AlertnessLevel, RulesProfile
from core.model.round import RoundState, ScheduledAttack
from core.rules.conditions import incapacity, save_terms
from core.rules.timeline import segments_moving
from core.rules.turns import strike_timing
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
    per_level = profile.surprise_hit_per_level  # RD: "+2 × (L − k + 1) to hit"
    return tuple(FreeAttack(number=n + 1, hit_bonus=profile.surprise_hit_bonus * (
                                rank - n if per_level else 1),
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


# --- scheduled on the timeline; shielding the surprised ----------------------------------
SHIELD_SEED = ("002 Surprise: 'if one character is surprised and another not then the "
               "unsuprised character may engage the enemy preventing them from getting the "
               "free attack on the surprised one'")


def schedule(encounter: Encounter, saves: list[SpotSave] | tuple[SpotSave, ...],
             ambushers: dict[str, str] | None = None) -> list[ScheduledAttack]:
    """The free attacks on the round's timeline: each surprised character's, made by the
    ambusher ``ambushers`` names for it (name or id of the character → of the ambusher), by
    default the nearest opposition creature able to act (ties: map order). None when there
    is no opposition to make them (they are only listed)."""
    chosen = {encounter.token(who).id: encounter.token(by).id
              for who, by in (ambushers or {}).items()}
    scheduled: list[ScheduledAttack] = []
    for save in saves:
        if not save.surprised:
            continue
        ambusher = chosen.get(save.token_id) or _nearest_ambusher(encounter, save.token_id)
        if ambusher is None:
            continue
        if encounter.token(ambusher).combatant.side is encounter.token(
                save.token_id).combatant.side:
            raise ValueError(f"{encounter.token(ambusher).name} is on "
                             f"{save.name}'s side: an ambusher is an enemy")
        scheduled += [ScheduledAttack(ambusher=ambusher, target=save.token_id,
                                      number=a.number, segment=a.segment,
                                      hit_bonus=a.hit_bonus, damage_bonus=a.damage_bonus,
                                      lost=a.lost) for a in save.free_attacks]
    return scheduled


def _nearest_ambusher(encounter: Encounter, target_id: str) -> str | None:
    target = encounter.token(target_id)
    profile = encounter.profile
    foes = [t for t in encounter.tokens if t.combatant.side is Side.OPPOSITION
            and not incapacity(t.combatant)]
    if not foes:
        return None
    return min(foes, key=lambda t: (distance_ft(t.footprint, target.footprint,
                                                profile.cell_size_ft, profile.diagonal_rule),
                                    encounter.order_of(t.id))).id


def surprised(state: RoundState) -> set[str]:
    """Who was surprised this round: the targets of the scheduled free attacks."""
    return {a.target for a in state.free_attacks}


def next_surprise_attack(encounter: Encounter, ambusher_id: str, target_id: str
                         ) -> ScheduledAttack:
    """The ambusher's next free attack on the target still to be made; ValueError saying
    why there is none (none scheduled, all made or lost, or cancelled by a shield)."""
    state = encounter.timeline
    theirs = [a for a in state.free_attacks
              if a.ambusher == ambusher_id and a.target == target_id]
    pending = next((a for a in theirs if a.pending), None)
    if pending is not None:
        return pending
    ambusher, target = encounter.token(ambusher_id).name, encounter.token(target_id).name
    if not theirs:
        raise SurpriseRefusedError(f"{ambusher} has no surprise attack on {target} this round "
                                   "(roll the surprise check first: Round ▸ Surprise check, "
                                   "'battlemap resolve surprise')")
    cancelled = next((a for a in theirs if a.cancelled_by), None)
    if cancelled is not None:
        shield = encounter.token(cancelled.cancelled_by or "").name
        raise SurpriseRefusedError(
            f"{ambusher}'s free attack on {target} is cancelled: {shield} engaged it at "
            f"segment {cancelled.cancelled_at} ({SHIELD_SEED})")
    raise SurpriseRefusedError(f"{ambusher} has made every surprise attack on {target} it had "
                               "(the others fell past the round and are lost)")


class SurpriseRefusedError(ValueError):
    """A surprise free attack that cannot be made; the message says why."""


def surprise_terms(attack: ScheduledAttack) -> Term:
    return Term(f"Surprise attack #{attack.number}", attack.hit_bonus,
                "002 Surprise: 'Attacks are +2 to hit'")


class Shielding(RulesValue):
    """An unsurprised creature engaging an ambusher at ``segment``: the ambusher's free
    attacks after that segment are cancelled (RD "Shielding the surprised")."""

    shield_id: str
    shield: str
    ambusher_id: str
    ambusher: str
    segment: int
    cancelled: tuple[ScheduledAttack, ...]

    def summary(self) -> str:
        return (f"{self.shield} engages {self.ambusher} at segment {self.segment}: "
                f"{len(self.cancelled)} free attack(s) cancelled")

    def text(self, names: dict[str, str]) -> str:
        return "\n".join([f"{self.summary()} ({SHIELD_SEED}; RD Shielding the surprised: "
                          "'one at the same segment still happens')",
                          *(f"  #{a.number} on {names.get(a.target, a.target)}, segment "
                            f"{a.segment}: cancelled" for a in self.cancelled)])


def shielding(encounter: Encounter, attacker_id: str, target_id: str) -> Shielding | None:
    """002 Surprise: 'the unsuprised character may engage the enemy preventing them from
    getting the free attack on the surprised one'; RD "Shielding the surprised": 'an
    unsurprised creature that reaches the ambusher and attacks it at an earlier segment
    cancels every later free attack (one at the same segment still happens)'. The attack's
    segment: the attacker's strike this round (initiative + movement + actions taken, 002
    "Movement"), or the segment being played when it has no initiative."""
    state, profile = encounter.timeline, encounter.profile
    attacker, target = encounter.token(attacker_id), encounter.token(target_id)
    if not profile.surprise_shielding or attacker.id in surprised(state):
        return None
    if attacker.combatant.side is target.combatant.side:
        return None
    entry = next((e for e in state.entries if e.token_id == attacker.id), None)
    segment = (strike_timing(entry, profile).segment if entry is not None
               else state.current_segment)
    later = tuple(a for a in state.free_attacks
                  if a.ambusher == target.id and a.pending and a.segment > segment)
    if not later:
        return None
    return Shielding(shield_id=attacker.id, shield=attacker.name, ambusher_id=target.id,
                     ambusher=target.name, segment=segment, cancelled=later)


def round_notes(encounter: Encounter, token_id: str) -> list[str]:
    """The round's surprise free attacks an ambusher makes or a surprised creature takes, for
    the timeline's tooltips and menus."""
    lines = []
    for attack in encounter.timeline.free_attacks:
        if token_id not in (attack.ambusher, attack.target):
            continue
        ambusher = encounter.token(attack.ambusher).name
        target = encounter.token(attack.target).name
        state = ("lost (past the round)" if attack.lost else "made" if attack.made else
                 f"cancelled: {encounter.token(attack.cancelled_by).name} engaged at segment "
                 f"{attack.cancelled_at}" if attack.cancelled_by else
                 f"{attack.hit_bonus:+d} to hit, {attack.damage_bonus:+d} damage")
        lines.append(f"Surprise attack #{attack.number} by {ambusher} on {target}, segment "
                     f"{attack.segment}: {state}")
    return lines
