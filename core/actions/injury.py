"""What a weapon hit or a fumble does to the encounter, with the injury options (rules.md §14):
the damage with its wound points kept apart, a head hit's stun conditions with their timers,
the hero point spent, a fumble's critical event acted out — commands for the action's one undo
step."""

from __future__ import annotations

from collections.abc import Callable

from core.actions.afflict import afflict
from core.actions.commands import ChangeSet, Command, CommandRefusedError
from core.actions.critical import critical_effects, critical_entry
from core.model.combatant import Combatant
from core.model.encounter import Encounter, LogEntry
from core.rules.attack import AttackResult


class ChangeCombatant(Command):
    """A change worked out on the token's combatant as it is when applied (so it composes
    with the other edits of the same step); undone by restoring it."""

    def __init__(self, token_id: str, change: Callable[[Combatant], Combatant],
                 label: str) -> None:
        self.token_id, self.change, self.label = token_id, change, label
        self.before: Combatant | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        self.before = token.combatant
        encounter.put_token(token.with_combatant(self.change(token.combatant)))
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        token = encounter.token(self.token_id)
        encounter.put_token(token.with_combatant(self.before))
        return ChangeSet(tokens=frozenset({token.id}))


def spend_hero_point(token_id: str) -> Command:
    """One hero point less (002 "Damage": "A hero point causes ..."); refused when none is
    left by the time it applies."""
    def spend(combatant: Combatant) -> Combatant:
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
    return commands


def fumble_entries(attack: AttackResult, round_number: int | None) -> list[LogEntry]:
    """A fumble's critical event as its own log line."""
    if attack.fumble is None or attack.fumble.event is None:
        return []
    return [critical_entry(attack.fumble.event, round_number,
                           f"{attack.attacker} fumbled, to {attack.defender}'s benefit")]
