"""What a weapon hit or a fumble does to the encounter, with the injury options (rules.md §14):
the damage with its wound points kept apart, a head hit's stun conditions with their timers,
the hero point spent, a fumble's critical event acted out — commands for the action's one undo
step."""

from __future__ import annotations

from core.actions.afflict import afflict, restart_timers
from core.actions.commands import ChangeCombatant, Command, CommandRefusedError
from core.actions.critical import critical_effects, critical_entry
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, LogEntry
from core.rules.attack import AttackResult
from core.rules.timeline import timer_for


def spend_hero_point(token_id: str) -> Command:
    """One hero point less (002 "Damage": "A hero point causes ..."); refused when none is
    left by the time it applies."""
    def spend(combatant: Combatant) -> Combatant:
        if combatant.round_hero_points:  # this round's first (critical event 23)
            return combatant.model_copy(
                update={"round_hero_points": combatant.round_hero_points - 1})
        if combatant.hero_points < 1:
            raise CommandRefusedError(f"{combatant.name} has no hero points left")
        return combatant.model_copy(update={"hero_points": combatant.hero_points - 1})

    return ChangeCombatant(token_id, spend, "Hero point")


def strike_effects(encounter: Encounter, attacker_id: str, target_id: str,
                   attack: AttackResult, label: str) -> list[Command]:
    """A hit's damage (stamina off HP, wound points apart), its stun conditions with their
    timers; a fumble's critical event; then the hero point spent (last: it changes the
    attacker as the earlier edits left it)."""
    commands: list[Command] = []
    if attack.fumble is not None and attack.fumble.event is not None:
        commands += critical_effects(encounter, attack.fumble.event)
    if attack.hit:
        stun = attack.stun
        commands += afflict(encounter, target_id, label, damage=attack.stamina_taken,
                            wounds=attack.wounds,
                            gained=stun.conditions if stun else frozenset(),
                            catastrophic=bool(stun and stun.effect.catastrophic))
    if attack.hero is not None:
        commands.append(spend_hero_point(attacker_id))
    return commands + opening_used(encounter, attacker_id) + befuddled_attacked(
        encounter, target_id)


def opening_used(encounter: Encounter, attacker_id: str) -> list[Command]:
    """A lucky opening (critical events 17, 18) is spent on the creature's next attack."""
    if not encounter.token(attacker_id).combatant.lucky_opening:
        return []
    return [ChangeCombatant(attacker_id, lambda c: c.model_copy(update={"lucky_opening": 0}),
                            "Lucky opening used")]


def befuddled_attacked(encounter: Encounter, target_id: str) -> list[Command]:
    """002 Critical event 25, "Befuddled: If attacked; no skill action next round": attacked,
    it stays befuddled through the next round, whose action it loses."""
    if not encounter.token(target_id).combatant.has(Condition.BEFUDDLED):
        return []
    profile = encounter.profile
    timer = timer_for(target_id, Condition.BEFUDDLED, profile,
                      rounds=profile.befuddled_attacked_rounds)
    return [restart_timers([timer])] if timer is not None else []


def fumble_entries(attack: AttackResult, round_number: int | None) -> list[LogEntry]:
    """A fumble's critical event as its own log line."""
    if attack.fumble is None or attack.fumble.event is None:
        return []
    return [critical_entry(attack.fumble.event, round_number,
                           f"{attack.attacker} fumbled, to {attack.defender}'s benefit")]
