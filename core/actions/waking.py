"""The log line of a sleeper woken (002 "Sleep": "When waking characters from sleep to
fight it requires 1/2 round of shaking or a loud noise"), whether by the Wake action or by
the damage of any action (:func:`core.actions.afflict.afflict` makes it Waking): the rounds
of each stage, so the GM reads when it fights again."""

from __future__ import annotations

from collections.abc import Iterable

from core.actions.commands import ChangeCombatant, Command, UpdateCombatant
from core.model.combatant import Condition
from core.model.encounter import Encounter, LogEntry
from core.rules.sleep import WakeStage, wake_schedule


def wake_entry(encounter: Encounter, token_id: str, how: str) -> LogEntry:
    """"Ogre is woken by the hit: normal combat from round 5" with each stage's rounds."""
    token = encounter.token(token_id)
    stages = wake_schedule(token.combatant, encounter.profile, encounter.timeline.round_number)
    lines = [f"  {stage.condition.value.capitalize()}: {_rounds(stage)} — {stage.effect}"
             for stage in stages]
    return LogEntry(kind="wake", summary=f"{token.name} {how}: normal combat from round "
                                         f"{stages[-1].last + 1}",
                    text="\n".join([*lines, "  (002 Sleep)"]),
                    round=encounter.timeline.round_number or None,
                    detail={"stages": [s._asdict() for s in stages]})


def woken_by(encounter: Encounter, commands: Iterable[Command]) -> list[LogEntry]:
    """A wake line for each sleeper an action's commands wake (its damage did)."""
    return [wake_entry(encounter, command.token_id, "is woken by the hit")
            for command in commands if isinstance(command, UpdateCombatant | ChangeCombatant)
            and _wakes(encounter, command)]


def _wakes(encounter: Encounter, command: UpdateCombatant | ChangeCombatant) -> bool:
    """A sleeper hurt awake (the Wake action wakes without hurting and says so itself)."""
    before = encounter.token(command.token_id).combatant
    after = (command.after if isinstance(command, UpdateCombatant)
             else command.change(before))
    hurt = after.hp < before.hp or after.wounds > before.wounds
    return hurt and before.has(Condition.ASLEEP) and after.has(Condition.WAKING)


def _rounds(stage: WakeStage) -> str:
    if stage.first == stage.last:
        return f"round {stage.first}"
    return f"rounds {stage.first}–{stage.last}"
