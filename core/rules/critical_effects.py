"""What the d30 critical events do to the creatures they fall on (002 "Critical events";
rules-decisions "Critical events"), besides the moves of :mod:`core.rules.critical`.

RD: 'row 2 shield −1, row 4 AC −1 (not AV), both for the rest of the encounter (nothing
without a shield/armour); rows 5–7 the weapon is unusable until its wielder spends an action
recovering it (a dropped weapon lies on the map); 16 +d6 to AC and saves to the round's end;
17/18 +d6/+d10 on the character's next attack this round; 20 one extra attack this round
without the multiple-attack penalty; 23 a hero point usable this round only (even with hero
points off); 24 both hit automatically; 26 the same with damage doubled before AV; 27 both
miss (24, 26, 27 use both actions); 25 if attacked during the rest of this round, the
character loses its action next round.'

Each effect is a :class:`Change` — data, worked out on the creature as it is when the step is
applied (:func:`changed`), so several events and a fumble's attack compose in one step.
**Interp.**: row 3 (shield dropped) is recovered like a weapon; the weapon a row 5–7 takes is
the first the creature carries (its weapon in hand); rows 24 and 26 need the pair within each
other's reach (no clash across the room), each striking with its first melee weapon.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from core.model.combatant import (
    MAX_DENTS,
    MAX_HERO_POINTS,
    MAX_LUCK,
    Combatant,
    Condition,
    OutOfHand,
)
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.tables import SHIELDS
from core.rules.damage import damage_after_armour, wound_points
from core.rules.ratings import armour_value
from core.rules.value import RulesValue
from core.rules.weapons import carried, melee_reach, melee_weapons, strength_to_damage


class ChangeKind(StrEnum):
    """What an event changes on a creature or its round."""

    ARMOUR_GAP = "armour_gap"  # 1
    SHIELD_DAMAGE = "shield_damage"  # 2
    ARMOUR_DENT = "armour_dent"  # 4
    OUT_OF_HAND = "out_of_hand"  # 3, 5, 6, 7
    LUCKY_BREAK = "lucky_break"  # 16
    LUCKY_OPENING = "lucky_opening"  # 17, 18
    EXTRA_STRIKE = "extra_strike"  # 20 (the round)
    HERO_POINT = "hero_point"  # 23
    CONDITION = "condition"  # 22 stymied, 25 befuddled (with their timers)
    DAMAGE = "damage"  # 24, 26
    ACTION_USED = "action_used"  # 24, 26, 27 (the round)


ROUND_CHANGES = frozenset({ChangeKind.EXTRA_STRIKE, ChangeKind.ACTION_USED})


class Change(RulesValue):
    """One change an event makes to ``token_id``: ``amount`` of it, the ``item`` put out of
    hand, the ``condition`` gained; ``wounds`` of a clash's damage."""

    token_id: str
    kind: ChangeKind
    amount: int = 0
    item: OutOfHand | None = None
    condition: Condition | None = None
    wounds: int = 0
    location: str | None = None


def changed(combatant: Combatant, change: Change) -> Combatant:
    """``combatant`` after ``change`` (never past the schema's bounds)."""
    kind, amount = change.kind, change.amount
    if kind is ChangeKind.ARMOUR_GAP and change.location is not None:
        gaps = combatant.armour_gaps
        if change.location.casefold() in {g.casefold() for g in gaps}:
            return combatant
        return combatant.model_copy(update={"armour_gaps": (*gaps, change.location)})
    if kind is ChangeKind.SHIELD_DAMAGE:
        return combatant.model_copy(update={
            "shield_damage": min(combatant.shield_damage + amount, MAX_DENTS)})
    if kind is ChangeKind.ARMOUR_DENT:
        return combatant.model_copy(update={
            "armour_dents": min(combatant.armour_dents + amount, MAX_DENTS)})
    if kind is ChangeKind.OUT_OF_HAND and change.item is not None:
        kept = tuple(o for o in combatant.out_of_hand if o.item != change.item.item)
        return combatant.model_copy(update={"out_of_hand": (*kept, change.item)})
    if kind is ChangeKind.LUCKY_BREAK:
        return combatant.model_copy(update={"lucky_break": min(amount, MAX_LUCK)})
    if kind is ChangeKind.LUCKY_OPENING:
        return combatant.model_copy(update={"lucky_opening": min(amount, MAX_LUCK)})
    if kind is ChangeKind.HERO_POINT:
        return combatant.model_copy(update={"round_hero_points": min(
            combatant.round_hero_points + amount, MAX_HERO_POINTS)})
    if kind is ChangeKind.DAMAGE:
        return combatant.hurt(amount - change.wounds).wounded(change.wounds)
    if kind is ChangeKind.CONDITION and change.condition is not None:
        return combatant.model_copy(update={
            "conditions": combatant.conditions | {change.condition}})
    return combatant


@dataclass(frozen=True)
class Effect:
    """What one event does: the log's note, tokens moved, knocked down, and changes."""

    note: str
    moves: dict[str, Cell] = field(default_factory=dict)
    knocked_down: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()


class Context:
    """What an event handler needs: the encounter, the pair, the dice and the side."""

    def __init__(self, encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
                 rolls: list[RollRecord], affected: list[str]) -> None:
        self.encounter, self.pair, self.dice, self.rolls = encounter, pair, dice, rolls
        self._affected = affected

    def roll(self, expression: str, purpose: str) -> int:
        record = self.dice.roll(expression, purpose)
        self.rolls.append(record)
        return record.total

    def affected(self) -> list[str]:
        """The pair members the event falls on (the rolled side; both for a pair row)."""
        return list(self._affected)

    def names(self, ids: list[str]) -> str:
        return " and ".join(self.encounter.token(i).name for i in ids)

    def combatant(self, token_id: str) -> Combatant:
        return self.encounter.token(token_id).combatant


def _each(context: Context, make: Callable[[str], tuple[str, Change | None]]) -> Effect:
    """Apply ``make`` to each affected creature: its words for the note, its change."""
    words, changes = [], []
    for token_id in context.affected():
        text, change = make(token_id)
        words.append(text)
        if change is not None:
            changes.append(change)
    return Effect("; ".join(words), changes=tuple(changes))


def helm_off(context: Context, number: int) -> Effect:
    """Row 1 "Small - Medium helm knocked off": with hit locations rolled, the critical
    locations (the head) are bare until the GM covers them again (its menu ▸ Armour and
    body); without them, a note."""
    profile = context.encounter.profile
    heads = [row.name for row in profile.hit_locations if row.critical]

    def make(token_id: str) -> tuple[str, Change | None]:
        c = context.combatant(token_id)
        if not profile.hit_location or not heads or c.armour == "none":
            return c.name, None
        return (f"{c.name}'s {heads[0].lower()} is bare (AV 0 there)",
                Change(token_id=token_id, kind=ChangeKind.ARMOUR_GAP, location=heads[0]))
    return _each(context, make)


def shield_damaged(context: Context, number: int) -> Effect:
    """Row 2 "Shield damaged ( -1 Def) (New shield required)": −1 (``shield_damage_penalty``
    each)."""
    def make(token_id: str) -> tuple[str, Change | None]:
        c = context.combatant(token_id)
        if not c.has_shield:
            return f"{c.name} has no shield", None
        penalty = context.encounter.profile.shield_damage_penalty
        return (f"{c.name}'s {SHIELDS[c.shield].label} is damaged: −{penalty} defence until "
                f"replaced", Change(token_id=token_id, kind=ChangeKind.SHIELD_DAMAGE, amount=1))
    return _each(context, make)


def armour_dented(context: Context, number: int) -> Effect:
    """Row 4 "Armour dented ( -1 Defence)(10% repair cost)": AC −1 (``armour_dent_penalty``
    each), not AV (RD)."""
    def make(token_id: str) -> tuple[str, Change | None]:
        c = context.combatant(token_id)
        if c.armour == "none":
            return f"{c.name} wears no armour", None
        penalty = context.encounter.profile.armour_dent_penalty
        return (f"{c.name}'s armour is dented: −{penalty} AC until repaired",
                Change(token_id=token_id, kind=ChangeKind.ARMOUR_DENT, amount=1))
    return _each(context, make)


HOW = {3: "dropped", 5: "dropped", 6: "tangled", 7: "stuck"}


def out_of_hand(context: Context, number: int) -> Effect:
    """Rows 3 "Shield dropped", 5 "Weapon dropped, disarmed", 6 "Weapon tangled, string
    broke", 7 "Weapon stuck in opponent": unusable until recovered (an action); a dropped
    one lies where its owner stands."""
    how = HOW[number]

    def make(token_id: str) -> tuple[str, Change | None]:
        token = context.encounter.token(token_id)
        item = _item_in_hand(context.encounter, token, shield=number == 3)
        if item is None:
            return f"{token.name} has {'no shield' if number == 3 else 'no weapon'} in hand", None
        label, key = item
        gone = OutOfHand(item=key, shield=number == 3, how=how,
                         cell=token.cell if how == "dropped" else None)
        return (f"{token.name}'s {gone.describe(label)}: recovering it takes an action",
                Change(token_id=token_id, kind=ChangeKind.OUT_OF_HAND, item=gone))
    return _each(context, make)


def _item_in_hand(encounter: Encounter, token: Token, shield: bool) -> tuple[str, str] | None:
    """The label and key of the shield or the first weapon it still holds."""
    c = token.combatant
    if shield:
        held = c.has_shield and not any(o.shield for o in c.out_of_hand)
        return (SHIELDS[c.shield].label, c.shield) if held else None
    weapons = carried(encounter, c)
    return (weapons[0].name, weapons[0].name) if weapons else None


def lucky(context: Context, number: int) -> Effect:
    """Rows 16 "Lucky break +d6 to defence & saves", 17 "Lucky opening +d6 to hit", 18
    "Really lucky opening +d10 to hit": rolled now, to the round's end (16) or on its next
    attack this round (17, 18)."""
    profile = context.encounter.profile
    die = {16: profile.lucky_break_die, 17: profile.lucky_opening_die,
           18: profile.really_lucky_opening_die}[number]
    kind = ChangeKind.LUCKY_BREAK if number == 16 else ChangeKind.LUCKY_OPENING
    what = "to AC and saves this round" if number == 16 else "on its next attack this round"

    def make(token_id: str) -> tuple[str, Change | None]:
        name = context.combatant(token_id).name
        luck = "break" if number == 16 else "opening"
        value = context.roll(die, f"{name}: {die} for the lucky {luck}")
        return f"{name}: +{value} {what}", Change(token_id=token_id, kind=kind, amount=value)
    return _each(context, make)


def strike_two(context: Context, number: int) -> Effect:
    """Row 20 "Strike 2 | Another strike attempt": one more attack this round, without the
    multiple-attack penalty."""
    return _each(context, lambda token_id: (
        f"{context.combatant(token_id).name} has another strike this round",
        Change(token_id=token_id, kind=ChangeKind.EXTRA_STRIKE, amount=1)))


def hero_point(context: Context, number: int) -> Effect:
    """Row 23 "Additional hero point (must be used this round)"."""
    return _each(context, lambda token_id: (
        f"{context.combatant(token_id).name} gains a hero point to use this round",
        Change(token_id=token_id, kind=ChangeKind.HERO_POINT, amount=1)))


def conditioned(context: Context, number: int) -> Effect:
    """Rows 22 "Stymied: No hero points this or next round", 25 "Befuddled: If attacked;
    no skill action next round"."""
    condition = Condition.STYMIED if number == 22 else Condition.BEFUDDLED
    words = ("no hero points this round or next" if number == 22
             else "if attacked this round, no action next round")
    return _each(context, lambda token_id: (
        f"{context.combatant(token_id).name} is {condition.label}: {words}",
        Change(token_id=token_id, kind=ChangeKind.CONDITION, condition=condition)))


def clash(context: Context, number: int) -> Effect:
    """Rows 24 "Clash: Both combatents hit", 26 "Wild opening: Both combatents critical (hit
    for double damage)", 27 "Shield clash: Both combatents miss"; each uses both actions."""
    party, foe = context.pair
    used = tuple(Change(token_id=t, kind=ChangeKind.ACTION_USED, amount=1)
                 for t in context.pair)
    if number == 27:
        return Effect("both miss; each has used its action this round", changes=used)
    encounter = context.encounter
    a, b = encounter.token(party), encounter.token(foe)
    if not (_reaches(encounter, a, b) and _reaches(encounter, b, a)):
        return Effect(f"{a.name} and {b.name} are not within each other's reach: no clash")
    hits = [_hit(context, striker, struck, wild=number == 26)
            for striker, struck in ((a, b), (b, a))]
    note = "; ".join(text for text, _ in hits) + "; each has used its action this round"
    return Effect(note, changes=(*(change for _, change in hits), *used))


def _reaches(encounter: Encounter, striker: Token, struck: Token) -> bool:
    gap = striker.footprint.gap(struck.footprint)
    return (gap + 1) * encounter.profile.cell_size_ft <= melee_reach(encounter,
                                                                     striker.combatant)


def _hit(context: Context, striker: Token, struck: Token, wild: bool
         ) -> tuple[str, Change]:
    """An automatic hit with the striker's first melee weapon (+ STR), through AV;
    multiplied before AV on a wild opening (``wild_opening_multiplier``, RD: doubled)."""
    profile = context.encounter.profile
    weapons = melee_weapons(context.encounter, striker.combatant)
    dice = weapons[0].damage if weapons else "d2"
    raw = context.roll(dice, f"{striker.name} clash damage") + sum(
        t.value for t in strength_to_damage(striker.combatant, profile, fired=False))
    raw *= profile.wild_opening_multiplier if wild else 1
    av = armour_value(struck.combatant, missile=False).value
    damage = damage_after_armour(raw, av, profile,
                                 magic=bool(weapons and weapons[0].magic_damage)).value
    wounds = wound_points(damage, profile)
    times = f" (×{profile.wild_opening_multiplier})" if wild else ""
    return (f"{striker.name} hits {struck.name} for {damage}{times}",
            Change(token_id=struck.id, kind=ChangeKind.DAMAGE, amount=damage, wounds=wounds))


HANDLERS = {1: helm_off, 2: shield_damaged, 3: out_of_hand, 4: armour_dented, 5: out_of_hand,
            6: out_of_hand, 7: out_of_hand, 16: lucky, 17: lucky, 18: lucky, 20: strike_two,
            22: conditioned, 23: hero_point, 24: clash, 25: conditioned, 26: clash,
            27: clash}
