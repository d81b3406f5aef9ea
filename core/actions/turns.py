"""The round's count of actions as commands (002 "The fight": one action each; rules-decisions
"One action each"): an attack or a manoeuvre adds one to its creature's count in the same
undo step (:mod:`core.rules.turns` refuses one too many)."""

from __future__ import annotations

from core.actions.commands import Command
from core.actions.round import EditRound
from core.model.encounter import Encounter
from core.model.round import MAX_ACTIONS, RoundState
from core.rules.turns import entry_of


def spend_action(encounter: Encounter, token_id: str) -> list[Command]:
    """One action taken by ``token_id`` this round; nothing outside a round or for a
    creature without initiative."""
    if entry_of(encounter, token_id) is None:
        return []

    def count(state: RoundState) -> RoundState:
        entry = state.entry(token_id)
        state.replace_entry(entry.model_copy(
            update={"actions_taken": min(entry.actions_taken + 1, MAX_ACTIONS)}))
        return state

    return [EditRound(count, "Action taken", frozenset({token_id}))]
