"""Attack and damage (000 "Hit Roll", "Armor Value"): d20 + HR vs AC, damage through AV.

The seed's worked examples:

>>> p = RulesProfile()
>>> damage_after_armour(9, av=4, profile=p).value    # Chain Mail takes 9
5
>>> damage_after_armour(5, av=6, profile=p).value    # Plate Mail takes 5
1
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.limits import MAX_BONUS
from core.model.profile import RulesProfile
from core.model.weapons import Weapon
from core.rules import melee, sleep
from core.rules.conditions import helpless, roll_penalty
from core.rules.ratings import armour_class, armour_value, hit_rating
from core.rules.weapons import melee_reach, strength_to_damage


class DamageKind(BaseModel):
    """How a hit's damage meets armour."""

    model_config = ConfigDict(frozen=True)

    missile: bool = False
    magic: bool = False


class AttackOptions(BaseModel):
    """What the GM declares: the weapon (from the encounter's table) or its damage dice,
    and the situation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    weapon: str | None = None
    damage: str = "d6"
    modifier: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS,
                          description="Situational modifier to the hit roll")
    damage_bonus: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    kind: DamageKind = DamageKind()

    @field_validator("damage")
    @classmethod
    def _dice(cls, text: str) -> str:
        """Checked when declared, not only on a hit (a typo must not pass on a miss)."""
        DiceExpression.parse(text)
        return text


class AttackResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    attacker: str
    defender: str
    roll: RollRecord
    to_hit: Breakdown
    target_ac: Breakdown
    hit: bool
    damage_roll: RollRecord | None = None
    damage: Breakdown | None = None
    automatic: bool = Field(False, description="A helpless (knocked out) target: hit anyway")

    @property
    def damage_taken(self) -> int:
        return self.damage.value if self.damage else 0

    def summary(self) -> str:
        verdict = ("hits (helpless)" if self.automatic else "hits") if self.hit else "misses"
        text = (f"{self.attacker} attacks {self.defender}: {self.to_hit.value} vs AC "
                f"{self.target_ac.value} — {verdict}")
        return text + (f", {self.damage_taken} damage" if self.hit else "")


def damage_after_armour(raw: int, av: int, profile: RulesProfile, magic: bool = False
                        ) -> Breakdown:
    """Physical damage through AV: ``penetration_points`` always get through, the rest is
    reduced by AV, never below that guaranteed point (000 "AV Damage Resolution").
    Magic damage ignores AV (000: "Magic damage follows the rules ... Motes")."""
    raw = max(raw, 0)
    if magic:
        return Breakdown.of(Term("Magic damage (ignores AV)", raw, "000 AV applies to physical"))
    guaranteed = profile.penetration_points
    remainder = max(0, raw - guaranteed)
    absorbed = min(av, remainder)
    return Breakdown.of(
        Term("Penetrating point", guaranteed, "000 AV: one point always penetrates"),
        Term("Remaining damage", remainder, "000 AV Damage Resolution"),
        Term(f"Absorbed by AV {av}", -absorbed, "000 AV Damage Resolution"),
    )


def attack_terms(attacker: Combatant, defender: Combatant, action: AttackOptions,
                 profile: RulesProfile,
                 round_terms: tuple[tuple[Term, ...], tuple[Term, ...]] = ((), ())
                 ) -> tuple[Breakdown, Breakdown]:
    """The hit roll's terms besides the d20, and the target: HR, ``round_terms[0]`` (aiming;
    a missile's accuracy and range), the attacker's stun condition and the situational
    modifier against AC and ``round_terms[1]`` (scarpering; a missile target's cover)."""
    bonus = Breakdown.of(*hit_rating(attacker, profile).terms, *round_terms[0],
                         *roll_penalty(attacker, profile))
    if action.modifier:
        bonus = bonus.plus(Term("Situational", action.modifier, "GM"))
    return bonus, armour_class(defender, profile).plus(*round_terms[1])


def resolve_attack(attacker: Combatant, defender: Combatant, action: AttackOptions,
                   profile: RulesProfile, dice: DiceSource, *,
                   round_terms: tuple[tuple[Term, ...], tuple[Term, ...]] = ((), ())
                   ) -> AttackResult:
    """Roll d20 + HR + modifiers against AC (:func:`attack_terms`); on a hit roll damage
    and pass it through AV (or AV vs missiles). ``round_terms`` are the round's bonuses to
    the hit roll and to the defence (aiming, scarpering) and the missile's own terms. The
    attacker's stun condition is a penalty on the roll; a Prone target's AC is 5 lower; a
    knocked-out one is hit whatever the roll (rules-decisions "Conditions"). Against a
    creature woken from sleep (002 "Sleep", :mod:`core.rules.sleep`): a sleeper or a waking
    one is hit whatever the roll for double damage; a rising one gives +1d8, rolled right
    after the d20."""
    roll = dice.roll("d20", f"{attacker.name} attack roll")
    bonus, target = attack_terms(attacker, defender, action, profile, round_terms)
    to_hit = Breakdown.of(Term("d20", roll.total, "000 Hit Roll: roll d20 + HR"), *bonus.terms,
                          *sleep.rising_terms(defender, profile, dice, attacker.name))
    hit = to_hit.value >= target.value or helpless(defender)
    if not hit:
        return AttackResult(attacker=attacker.name, defender=defender.name, roll=roll,
                            to_hit=to_hit, target_ac=target, hit=False)
    damage_roll = dice.roll(action.damage, f"{attacker.name} damage")
    av = armour_value(defender, missile=action.kind.missile).value
    damage = sleep.doubled(defender, damage_after_armour(
        damage_roll.total + action.damage_bonus, av, profile, magic=action.kind.magic), profile)
    return AttackResult(attacker=attacker.name, defender=defender.name, roll=roll,
                        to_hit=to_hit, target_ac=target, hit=True, damage_roll=damage_roll,
                        damage=damage, automatic=helpless(defender))


class IllegalAttackError(ValueError):
    """The attack cannot be made as asked (out of reach, no line of sight)."""


def attack_on_map(encounter: Encounter, attacker_key: str, defender_key: str,
                  action: AttackOptions, dice: DiceSource) -> AttackResult:
    """Resolve a melee attack between two tokens: the target must be within the attacker's
    reach (its natural reach or its weapon's). A named weapon gives the damage dice, STR to
    damage (002 "Damage") and whether the damage is magic. The map adds its melee terms
    (:func:`core.rules.melee.attack_terms`: multiple attackers, a pinner's +1, a lowered
    guard) and refuses a weapon a hold does not allow. Missiles are
    :func:`core.rules.missile.resolve_missile` (range, cover, scatter)."""
    attacker, defender = encounter.token(attacker_key), encounter.token(defender_key)
    if attacker.id == defender.id:
        raise IllegalAttackError(f"{attacker.name} cannot attack itself")
    weapon = encounter.weapon(action.weapon) if action.weapon else None
    if action.kind.missile:
        raise IllegalAttackError("a missile is the missile action: the Missile tool (M) or "
                                 "'battlemap resolve missile'")
    _check_melee_reach(encounter, attacker, defender, weapon)
    hit, defence = round_terms(encounter, attacker.id, defender.id)
    on_map = melee.attack_terms(encounter, attacker, defender, weapon, missile=False)
    return resolve_attack(attacker.combatant, defender.combatant,
                          _with_weapon(action, weapon, attacker.combatant, encounter.profile),
                          encounter.profile, dice,
                          round_terms=((*hit, *on_map[0]), (*defence, *on_map[1])))


def _check_melee_reach(encounter: Encounter, attacker: Token, defender: Token,
                       weapon: Weapon | None) -> None:
    if weapon is not None and not weapon.melee:
        raise IllegalAttackError(f"a {weapon.name} is not a melee weapon")
    natural = attacker.combatant.reach_ft
    reach = max(natural, weapon.reach_ft or 0) if weapon else melee_reach(encounter,
                                                                          attacker.combatant)
    gap = attacker.footprint.gap(defender.footprint)
    if (gap + 1) * encounter.profile.cell_size_ft > reach:
        raise IllegalAttackError(
            f"{defender.name} is out of {attacker.name}'s {reach} ft reach "
            f"({gap} cell(s) between them)")


def _with_weapon(action: AttackOptions, weapon: Weapon | None, attacker: Combatant,
                 profile: RulesProfile) -> AttackOptions:
    """The declared options with the weapon's dice, its STR bonus and its damage kind."""
    if weapon is None:
        return action
    bonus = sum(t.value for t in strength_to_damage(attacker, profile, fired=False))
    kind = action.kind.model_copy(update={"magic": action.kind.magic or weapon.magic_damage})
    return action.model_copy(update={"damage": weapon.damage, "kind": kind,
                                     "damage_bonus": action.damage_bonus + bonus})


def round_terms(encounter: Encounter, attacker_id: str, defender_id: str
                 ) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """This round's bonuses from the timeline: +3 to hit after aiming, +2 defence while
    scarpering (002 "Aiming / setting up position", "Scarper")."""
    entries = {e.token_id: e for e in encounter.timeline.entries}
    hit: tuple[Term, ...] = ()
    defence: tuple[Term, ...] = ()
    if attacker_id in entries and entries[attacker_id].attack_bonus:
        hit = (Term("Aimed last round", entries[attacker_id].attack_bonus,
                    "002 Aiming: +3 to attack"),)
    if defender_id in entries and entries[defender_id].defence_bonus:
        defence = (Term("Scarpering", entries[defender_id].defence_bonus,
                        "002 Scarper: defence +2"),)
    return hit, defence
