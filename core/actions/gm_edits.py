"""The GM's hand edits of a combatant (damage or healing typed in, a condition switched), each
one undo step that also writes a line in the combat log, so the log tells the whole fight.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Token
>>> enc = Encounter(tokens=[Token(id="b", combatant=Combatant(name="Brannoc", max_hp=42,
...                                                          hp=41), x=0, y=0)])
>>> step = change_hp(enc, "b", -5)
>>> _ = step.apply(enc)
>>> enc.token("b").combatant.hp, enc.log[-1].summary
(42, 'Brannoc heals 1 of 5 (at full HP, 42)')
"""

from __future__ import annotations

from core.actions.base import round_of
from core.actions.commands import AppendLog, Batch, UpdateCombatant
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, LogEntry

KIND = "gm"  # the log entries' kind: the GM's hand, not a roll


def change_hp(encounter: Encounter, token_id: str, damage: int) -> Batch:
    """Take ``damage`` hit points away (a negative amount heals, never above maximum HP)."""
    before = encounter.token(token_id).combatant
    after = before.hurt(damage) if damage >= 0 else before.healed(-damage)
    return _logged(encounter, token_id, after, _hp_summary(before, after, damage))


def _hp_summary(before: Combatant, after: Combatant, damage: int) -> str:
    if damage >= 0:
        return f"{before.name} takes {damage} damage (HP {before.hp} → {after.hp})"
    healed, asked = after.hp - before.hp, -damage
    if healed == asked:
        return f"{before.name} heals {asked} (HP {before.hp} → {after.hp})"
    return f"{before.name} heals {healed} of {asked} (at full HP, {after.hp})"


def toggle_condition(encounter: Encounter, token_id: str, condition: Condition) -> Batch:
    """Switch ``condition`` on or off."""
    before = encounter.token(token_id).combatant
    verb = "loses" if condition in before.conditions else "gains"
    label = condition.label
    return _logged(encounter, token_id, before.toggled(condition),
                   f"{before.name} {verb} {label} (set by the GM)")


def _logged(encounter: Encounter, token_id: str, after: Combatant, summary: str) -> Batch:
    entry = LogEntry(kind=KIND, summary=summary, text=summary, round=round_of(encounter))
    return Batch([UpdateCombatant(token_id, after, summary), AppendLog(entry)], summary)
