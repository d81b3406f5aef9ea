"""Attack and damage (000 "Hit Roll", "Armor Value"): d20 + HR vs AC, damage through AV; with
002's injury options when the profile switches them on (:mod:`core.rules.injury`: aimed and
rolled hit locations, critical and fumble rolls, hero points, grips; head hits by bludgeons
call the stun check, :func:`core.rules.stun.stun_check`; wound points,
:func:`core.rules.damage.wound_points`).

The seed's worked examples:

>>> p = RulesProfile()
>>> damage_after_armour(9, av=4, profile=p).value    # Chain Mail takes 9
5
>>> damage_after_armour(5, av=6, profile=p).value    # Plate Mail takes 5
1
"""

from __future__ import annotations

from typing import NamedTuple

from pydantic import ConfigDict, Field, field_validator

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.injury import HeroUse
from core.model.limits import MAX_BONUS
from core.model.profile import RulesProfile
from core.model.weapons import DamageType, Grip, SpecialDamage, Weapon
from core.rules import melee, sleep
from core.rules.conditions import helpless, roll_penalty
from core.rules.damage import damage_after_armour, wound_points
from core.rules.defence import Defence, melee_defence
from core.rules.fumble import FumbleResult, resolve_fumble
from core.rules.injury import (
    LocationHit,
    Natural,
    aim_terms,
    grip_terms,
    hero_terms,
    hit_damage,
    hit_location,
    natural,
    with_die,
)
from core.rules.locations import (
    critical_location,
    location_av,
    special_damage,
    stunned_by_head_hits,
)
from core.rules.ratings import armour_class, armour_value, hit_rating
from core.rules.stun import StunCheck, stun_check
from core.rules.surprise import next_surprise_attack, surprise_terms
from core.rules.turns import require_turn
from core.rules.unarmed import is_pummel, pummel_die, pummel_refusal
from core.rules.value import RulesValue
from core.rules.weapons import melee_reach, out_of_hand, strength_to_damage


class DamageKind(RulesValue):
    """How a hit's damage meets armour."""

    missile: bool = False
    magic: bool = False
    damage_type: DamageType | None = Field(None, description="A bludgeon's head hit may stun")


class AttackOptions(RulesValue):
    """What the GM declares: the weapon (from the encounter's table) or its damage dice,
    and the situation."""

    model_config = ConfigDict(extra="forbid")

    weapon: str | None = None
    damage: str = "d6"
    modifier: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS,
                          description="Situational modifier to the hit roll")
    damage_bonus: int = Field(0, ge=-MAX_BONUS, le=MAX_BONUS)
    kind: DamageKind = DamageKind()
    aim: str | None = Field(None, max_length=40,
                            description="The hit location aimed at (002 Hitting specific "
                                        "locations)")
    hero: HeroUse | None = Field(None, description="A hero point spent on this attack")
    special: SpecialDamage | None = Field(None, description="The weapon's special damage "
                                                            "(002 Special Damage)")
    grip: Grip | None = Field(None, description="How the weapon is held (None: its usual grip)")
    free: bool = Field(False, description="A free attack a rule grants (surprise, a failed "
                                          "evade): not the creature's action this round")
    surprise: bool = Field(False, description="The attacker's next surprise free attack on "
                                              "the target scheduled this round (002 "
                                              "Surprise): free, with its bonuses")

    @field_validator("damage")
    @classmethod
    def _dice(cls, text: str) -> str:
        """Checked when declared, not only on a hit (a typo must not pass on a miss)."""
        DiceExpression.parse(text)
        return text


class AttackResult(RulesValue):
    attacker: str
    defender: str
    roll: RollRecord
    to_hit: Breakdown
    target_ac: Breakdown
    hit: bool
    damage_roll: RollRecord | None = None
    damage: Breakdown | None = None
    automatic: bool = Field(False, description="A helpless (knocked out) target: hit anyway")
    natural: Natural | None = Field(None, description="Every attack die at its top face, or 1")
    hero: HeroUse | None = None
    location: LocationHit | None = None
    raw_damage: Breakdown | None = Field(None, description="Damage before armour")
    wounds: int = Field(0, description="Of the damage taken, the wound points")
    stun: StunCheck | None = None
    fumble: FumbleResult | None = None
    against: str = Field("AC", description="What the roll met: AC, or a parry or dodge")
    first_strike: AttackResult | None = Field(None, description=(
        "The armed defender's strike before this unarmed attack (002 Brawling)"))
    stopped: bool = Field(False, description="The first strike stopped the attack")

    @property
    def damage_taken(self) -> int:
        return self.damage.value if self.damage else 0

    @property
    def stamina_taken(self) -> int:
        """The damage that comes off hit points: what is not taken as wound points."""
        return self.damage_taken - self.wounds

    @property
    def critical(self) -> bool:
        return self.hit and self.natural is Natural.CRITICAL

    @property
    def fumbled(self) -> bool:
        return not self.hit and self.natural is Natural.FUMBLE

    def summary(self) -> str:
        if self.stopped:
            return (f"{self.attacker} attacks {self.defender}: stopped by the first strike "
                    "(002 Brawling)")
        return (f"{self.attacker} attacks {self.defender}: {self.to_hit.value} vs "
                f"{self.against} {self.target_ac.value} — {self.outcome()}")

    def outcome(self) -> str:
        """"hits the head (critical roll: maximum damage, multiplied on a critical location),
        18 damage (3 wound points); dazed", "misses"."""
        return self._verdict() + (f", {self._damage_text()}" if self.hit else "")

    def _verdict(self) -> str:
        if not self.hit:
            return "misses (fumble)" if self.fumbled else "misses"
        verdict = "hits"
        if self.location is not None:
            verdict += f" the {self.location.name.lower()}"
        if self.automatic:
            verdict += " (helpless)"
        elif self.hero is HeroUse.AUTOMATIC_HIT:
            verdict += " (hero point)"
        return verdict + self._critical_text()

    def _critical_text(self) -> str:
        """The roll was critical, which "(critical)" after "the head" read as the place was
        (002 Critical Roll: "automatically causes maximum damage ... on a critical location
        double maximum damage")."""
        if not self.critical:
            return ""
        doubled = self.location is not None and self.location.critical
        return (" (critical roll: maximum damage"
                + (", multiplied on a critical location)" if doubled else ")"))

    def _damage_text(self) -> str:
        text = f"{self.damage_taken} damage"
        if self.wounds:
            text += f" ({self.wounds} wound point{'s' if self.wounds != 1 else ''})"
        if self.stun is not None and self.stun.rank:
            text += "; " + ", ".join(sorted(c.label for c in self.stun.conditions))
        return text


def attack_terms(attacker: Combatant, defender: Combatant, action: AttackOptions,
                 profile: RulesProfile,
                 round_terms: tuple[tuple[Term, ...], tuple[Term, ...]] = ((), ()), *,
                 defence: Breakdown | None = None) -> tuple[Breakdown, Breakdown]:
    """The hit roll's terms besides the d20, and the target: HR, ``round_terms[0]`` (aiming;
    a missile's accuracy and range), the attacker's stun condition and the situational
    modifier against AC — or ``defence``, a parry or dodge (:mod:`core.rules.defence`) — and
    ``round_terms[1]`` (scarpering; a missile target's cover)."""
    bonus = Breakdown.of(*hit_rating(attacker, profile).terms, *round_terms[0],
                         *roll_penalty(attacker, profile), *opening_terms(attacker),
                         *aim_terms(profile, action.aim, action.kind.missile),
                         *hero_terms(attacker, action.hero, action.aim, profile))
    if action.modifier:
        bonus = bonus.plus(Term("Situational", action.modifier, "GM"))
    base = armour_class(defender, profile) if defence is None else defence
    return bonus, base.plus(*round_terms[1])


def opening_terms(attacker: Combatant) -> tuple[Term, ...]:
    """Critical events 17 and 18, "Lucky opening +d6 to hit", "Really lucky opening +d10 to
    hit": on the creature's next attack this round."""
    if not attacker.lucky_opening:
        return ()
    return (Term("Lucky opening", attacker.lucky_opening, "002 Critical events 17, 18"),)


def resolve_attack(attacker: Combatant, defender: Combatant, action: AttackOptions,
                   profile: RulesProfile, dice: DiceSource, *,
                   round_terms: tuple[tuple[Term, ...], tuple[Term, ...]] = ((), ()),
                   defence: Breakdown | None = None) -> AttackResult:
    """Roll the attack dice (``attack_die``, d20) + HR + modifiers against AC
    (:func:`attack_terms`); on a hit roll damage and pass it through AV (or AV vs missiles).
    ``round_terms`` are the round's bonuses to the hit roll and to the defence (aiming,
    scarpering) and the missile's own terms. The attacker's stun condition is a penalty on
    the roll; a Prone target's AC is 5 lower; a knocked-out one is hit whatever the roll
    (rules-decisions "Conditions"), as is any target of a hero point's automatic hit. With
    the ``fumble`` option a roll of all 1s misses (the fumble itself is the map's:
    :func:`core.rules.fumble.resolve_fumble`). Against a creature woken from sleep (002
    "Sleep", :mod:`core.rules.sleep`): a sleeper or a waking one is hit whatever the roll for
    double damage; a rising one gives +1d8, rolled right after the attack dice."""
    roll = dice.roll(profile.attack_die, f"{attacker.name} attack roll")
    bonus, target = attack_terms(attacker, defender, action, profile, round_terms,
                                 defence=defence)
    to_hit = Breakdown.of(Term(profile.attack_die, roll.total, "000 Hit Roll: roll d20 + HR"),
                          *bonus.terms, *sleep.rising_terms(defender, profile, dice,
                                                            attacker.name))
    rolled = natural(roll, profile)
    hit = automatic_hit(defender, action) or (to_hit.value >= target.value
                                               and rolled is not Natural.FUMBLE)
    result = AttackResult(attacker=attacker.name, defender=defender.name, roll=roll,
                          to_hit=to_hit, target_ac=target, hit=hit,
                          automatic=helpless(defender), natural=rolled, hero=action.hero)
    return _struck(result, defender, action, profile, dice) if hit else result


def automatic_hit(defender: Combatant, action: AttackOptions) -> bool:
    """Hit whatever the roll: a helpless target (knocked out, asleep or waking), or a hero
    point's automatic hit."""
    return helpless(defender) or action.hero is HeroUse.AUTOMATIC_HIT


def _struck(result: AttackResult, defender: Combatant, action: AttackOptions,
            profile: RulesProfile, dice: DiceSource) -> AttackResult:
    """A hit: where it lands, its damage through the armour there (doubled on a sleeping or
    waking target; a non-humanoid's critical location doubles the roll), special damage
    when it penetrated, the wound points, and a humanoid's head hit's stun check (002
    "Stunning": "Bludgeon/chop strikes to the head may stun a creature", against the damage
    after armour): :mod:`core.rules.locations`."""
    location = hit_location(profile, action.aim, dice, result.attacker)
    damage_roll, raw = hit_damage(action.damage, action.damage_bonus, critical=result.critical,
                                  location=location, hero=action.hero, profile=profile,
                                  dice=dice, who=result.attacker)
    raw = critical_location(defender, location, raw, result.critical, profile)
    av = location_av(defender, location, armour_value(defender, missile=action.kind.missile))
    damage = sleep.doubled(defender, damage_after_armour(raw.value, av.value, profile,
                                                         magic=action.kind.magic), profile)
    poison = special_damage(action.special, (raw.value, av.value), profile, dice,
                            result.attacker)
    damage = damage.plus(poison) if poison is not None else damage
    stuns = (profile.head_hits_stun and location is not None and location.critical
             and action.kind.damage_type in profile.stunning_damage_types
             and stunned_by_head_hits(defender))
    return result.model_copy(update={
        "location": location, "damage_roll": damage_roll, "raw_damage": raw, "damage": damage,
        "wounds": wound_points(damage.value, profile),
        "stun": stun_check(defender, damage.value, profile, dice) if stuns else None})


class IllegalAttackError(ValueError):
    """The attack cannot be made as asked (out of reach, no line of sight)."""


class MeleeSetup(NamedTuple):
    """A melee attack on the map before any die: the two tokens, the options with the
    weapon's dice and kind, and the round's and the map's terms."""

    attacker: Token
    defender: Token
    options: AttackOptions
    terms: tuple[tuple[Term, ...], tuple[Term, ...]]
    defence: Defence | None = None  # a parry or dodge instead of AC


def prepare_attack(encounter: Encounter, attacker_key: str, defender_key: str,
                   action: AttackOptions) -> MeleeSetup:
    """Every term of a melee attack between two tokens (raises
    :class:`IllegalAttackError` when it cannot be made): the target must be within the
    attacker's reach (its natural reach or its weapon's). A named weapon gives the damage
    dice (with its grip's die), STR to damage (002 "Damage") and whether the damage is
    magic. The map adds its melee terms (:func:`core.rules.melee.attack_terms`: multiple
    attackers, a pinner's +1, a lowered guard) and refuses a weapon a hold does not allow,
    and a pummel against metal armour (002 "Pummelling")."""
    attacker, defender = encounter.token(attacker_key), encounter.token(defender_key)
    if attacker.id == defender.id:
        raise IllegalAttackError(f"{attacker.name} cannot attack itself")
    require_turn(encounter, attacker.id, free=action.free or action.surprise)
    surprise: tuple[Term, ...] = ()
    if action.surprise:  # 002 Surprise: '+2 to hit and +1 damage per failure level'
        scheduled = next_surprise_attack(encounter, attacker.id, defender.id)
        surprise = (surprise_terms(scheduled),)
        action = action.model_copy(update={
            "damage_bonus": action.damage_bonus + scheduled.damage_bonus})
    weapon = encounter.weapon(action.weapon) if action.weapon else None
    if weapon is not None and (gone := out_of_hand(attacker.combatant, weapon.name)):
        raise IllegalAttackError(gone)
    if action.kind.missile:
        raise IllegalAttackError("a missile is the missile action: the Missile tool (M) or "
                                 "'battlemap resolve missile'")
    _check_melee_reach(encounter, attacker, defender, weapon)
    if is_pummel(weapon) and (refusal := pummel_refusal(defender.combatant, encounter.profile)):
        raise IllegalAttackError(refusal)
    hit, defence = round_terms(encounter, attacker.id, defender.id)
    on_map = melee.attack_terms(encounter, attacker, defender, weapon, missile=False)
    grip, grip_die = grip_terms(weapon, action.grip, encounter.profile)
    options = _with_weapon(action, weapon, attacker.combatant, encounter.profile, grip_die)
    return MeleeSetup(attacker, defender, options,
                      ((*hit, *grip, *on_map[0], *surprise), (*defence, *on_map[1])),
                      melee_defence(encounter, defender))


def attack_on_map(encounter: Encounter, attacker_key: str, defender_key: str,
                  action: AttackOptions, dice: DiceSource) -> AttackResult:
    """Resolve a melee attack between two tokens (:func:`prepare_attack`), with a fumble's
    save and critical event. Missiles are :func:`core.rules.missile.resolve_missile`
    (range, cover, scatter)."""
    return attack_with(encounter, prepare_attack(encounter, attacker_key, defender_key, action),
                       dice)


def attack_with(encounter: Encounter, setup: MeleeSetup, dice: DiceSource) -> AttackResult:
    """Roll the attack :func:`prepare_attack` set up (the encounter unchanged since)."""
    parry = setup.defence
    result = resolve_attack(setup.attacker.combatant, setup.defender.combatant, setup.options,
                            encounter.profile, dice, round_terms=setup.terms,
                            defence=parry.value if parry else None)
    if parry is not None:
        result = result.model_copy(update={"against": parry.name})
    return with_fumble(encounter, result, (setup.attacker.id, setup.defender.id), dice)


def with_fumble(encounter: Encounter, result: AttackResult, pair: tuple[str, str],
                dice: DiceSource) -> AttackResult:
    """A fumbled attack with its save and critical event (002 "Fumble"); any other as it
    is."""
    if not result.fumbled:
        return result
    return result.model_copy(update={"fumble": resolve_fumble(encounter, *pair, dice)})


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
                 profile: RulesProfile, grip_die: str | None) -> AttackOptions:
    """The declared options with the weapon's dice (and its grip's die; a martial artist's
    pummel die, :func:`core.rules.unarmed.pummel_die`), its STR bonus and its damage kind."""
    if weapon is None:
        return action
    bonus = sum(t.value for t in strength_to_damage(attacker, profile, fired=False))
    kind = action.kind.model_copy(update={"magic": action.kind.magic or weapon.magic_damage,
                                          "damage_type": weapon.damage_type})
    die = pummel_die(weapon.damage, attacker, profile) if is_pummel(weapon) else weapon.damage
    return action.model_copy(update={"damage": with_die(die, grip_die), "kind": kind,
                                     "damage_bonus": action.damage_bonus + bonus,
                                     "special": weapon.special})


def round_terms(encounter: Encounter, attacker_id: str, defender_id: str
                 ) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """This round's bonuses from the timeline: +3 to hit after aiming, +2 defence while
    scarpering (002 "Aiming / setting up position", "Scarper"), −3 to hit per extra attack
    declared (002 "Multiple Attacks")."""
    entries = {e.token_id: e for e in encounter.timeline.entries}
    hit: tuple[Term, ...] = melee.multiple_attacks_terms(encounter, attacker_id)
    defence: tuple[Term, ...] = ()
    if attacker_id in entries and entries[attacker_id].attack_bonus:
        hit += (Term("Aimed last round", entries[attacker_id].attack_bonus,
                     "002 Aiming: +3 to attack"),)
    if defender_id in entries and entries[defender_id].defence_bonus:
        defence = (Term("Scarpering", entries[defender_id].defence_bonus,
                        "002 Scarper: defence +2"),)
    return hit, defence
