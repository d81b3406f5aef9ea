"""Grappling holds in place and what they forbid (002 "Grappling": "Holds go last in an
attack round but are held from one round to the next", "Once grappled the opponent can no
longer use any weapon larger than a dagger", locks: "The opponent may only make an escape
roll"; rules-decisions: "Held creatures cannot move").

A hold is in place while both its creatures are on the map where it was taken
(:class:`core.model.melee.Hold`): whatever separates them — a move of the holder, a shove,
a throw, a critical event — ends it, and undoing that brings it back. The saved list may
keep holds that ended that way; every rule reads :func:`active_holds`. A lock in place hurts
its creature at each round's end (:func:`locks_at_round_end`).
"""

from __future__ import annotations

from core.model.breakdown import Breakdown
from core.model.combatant import Combatant
from core.model.encounter import Encounter, LogEntry
from core.model.melee import Hold, HoldKind
from core.model.weapons import Weapon
from core.rules.damage import damage_after_armour
from core.rules.ratings import armour_value
from core.rules.value import RulesValue


def in_place(encounter: Encounter, hold: Hold) -> bool:
    """Both creatures are on the map where the hold was taken."""
    return all(encounter.has_token(tid) and encounter.token(tid).cell == cell
               for tid, cell in ((hold.holder, hold.holder_cell), (hold.held, hold.held_cell)))


def active_holds(encounter: Encounter) -> list[Hold]:
    return [hold for hold in encounter.timeline.holds if in_place(encounter, hold)]


def holds_of(encounter: Encounter, token_id: str) -> list[Hold]:
    """The holds in place that ``token_id`` takes part in (as holder or held)."""
    return [h for h in active_holds(encounter) if token_id in (h.holder, h.held)]


def hold_between(encounter: Encounter, a: str, b: str) -> Hold | None:
    return next((h for h in holds_of(encounter, a) if {h.holder, h.held} == {a, b}), None)


def partner(hold: Hold, token_id: str) -> str:
    """The other creature of the hold."""
    return hold.held if hold.holder == token_id else hold.holder


def is_held(hold: Hold, token_id: str) -> bool:
    """Held in it: the pinned or locked creature, or either one of a mutual hold."""
    return hold.held == token_id or (hold.kind is HoldKind.HOLD and hold.holder == token_id)


def describe(encounter: Encounter, hold: Hold) -> str:
    """E.g. "Ogre locks Mira (3 a round)"."""
    holder, held = encounter.token(hold.holder).name, encounter.token(hold.held).name
    if hold.kind is HoldKind.LOCK:
        return f"{holder} locks {held} ({hold.lock_damage} a round)"
    verb = {HoldKind.HOLD: "and {held} hold each other", HoldKind.PIN: "pins {held}"}
    return f"{holder} " + verb[hold.kind].format(held=held)


def move_refusal(encounter: Encounter, token_id: str) -> str | None:
    """Why the creature cannot move (it is held), or None."""
    for hold in holds_of(encounter, token_id):
        if is_held(hold, token_id):
            return (f"{encounter.token(token_id).name} is held ({describe(encounter, hold)}): "
                    "a held creature cannot move; it must escape first")
    return None


def locked_by(encounter: Encounter, token_id: str) -> Hold | None:
    """The lock the creature is caught in, if any: it may only try to escape."""
    return next((h for h in holds_of(encounter, token_id)
                 if h.kind is HoldKind.LOCK and h.held == token_id), None)


def weapon_refusal(encounter: Encounter, token_id: str, weapon: Weapon | None) -> str | None:
    """Why the creature cannot strike with ``weapon`` now: a locked creature may only try to
    escape; a grappling one uses only dagger-size weapons (None when it may)."""
    name = encounter.token(token_id).name
    lock = locked_by(encounter, token_id)
    if lock is not None:
        return f"{name} is caught in a lock ({describe(encounter, lock)}): it may only escape"
    hold = next(iter(holds_of(encounter, token_id)), None)
    if hold is not None and weapon is not None and not weapon.dagger_size:
        return (f"{name} is grappling ({describe(encounter, hold)}): only dagger-size weapons, "
                f"not a {weapon.name}")
    return None


# --- locks at the round's end ---------------------------------------------------------------
class LockHurt(RulesValue):
    """A lock's damage at the end of a round, and its log line; ``submits`` when it takes the
    creature's last hit points (002 Locks: "Will submit when all SP are lost")."""

    token_id: str
    damage: Breakdown
    entry: LogEntry
    submits: bool = False

    def hurt(self, encounter: Encounter) -> Combatant:
        """The creature after the lock: never below 0 HP from it (RD: 'yields, not dying,
        HP stays 0'; it is then ``submitted``: :class:`core.actions.round.NextRound`)."""
        held = encounter.token(self.token_id).combatant
        return held.model_copy(update={"hp": 0}) if self.submits else held.hurt(
            self.damage.value)


def locks_at_round_end(encounter: Encounter) -> list[LockHurt]:
    """002 Locks: "Cause D4 SP each round. Roll once and keep the same damage each round";
    "Holds go last in an attack round": each lock in place hurts its creature at the round's
    end, through AV (000: "AV applies to all physical damage including ... Wrestling
    damage")."""
    hurts = []
    for hold in active_holds(encounter):
        if hold.kind is not HoldKind.LOCK:
            continue
        held = encounter.token(hold.held)
        damage = damage_after_armour(hold.lock_damage, armour_value(held.combatant).value,
                                     encounter.profile)
        submits = 0 < held.combatant.hp <= damage.value
        summary = f"{describe(encounter, hold)}: {damage.value} damage at the round's end"
        if submits:
            summary += (f" — {held.name} submits, the lock ends (002 Locks: 'Will submit when "
                        "all SP are lost')")
        hurts.append(LockHurt(token_id=held.id, damage=damage, submits=submits, entry=LogEntry(
            kind="lock", summary=summary, text=f"{summary}\n  {damage.describe()}",
            round=encounter.timeline.round_number or None)))
    return hurts
