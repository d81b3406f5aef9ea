"""The history's last check of every step: the encounter it leaves still fits its file
format, so nothing the window or the command line accepts becomes unsaveable (issue 39).

Values that grow with play are bounded where they grow, the way a GM expects: the feet
moved in a round stop at the format's bound (:class:`core.actions.round.RecordMovement`),
the round's lists hold no twins (so their caps are never reached), numbered names are
shortened to fit, and the combat log gives its oldest entries to an archive beside the
file when it outgrows the file (:mod:`core.io.logarchive`). This guard refuses, with the
reason, the step that would still go past a bound: the 1,001st token, the 100,001st wall,
round 1,000,001, a portrait that would take the file past 64 MiB. It reads what the step
may have changed, and each combatant and initiative entry once (they are immutable: a
move checks nothing). An encounter built past a bound by code (the scale benchmark's 3,000
tokens; a file could not hold them) is let be past that bound.
"""

from __future__ import annotations

from collections.abc import Iterator

from core.actions.commands import ChangeSet
from core.model.combatant import Combatant
from core.model.encounter import Encounter
from core.model.limits import MAX_HAZARD_CELLS, breaches
from core.model.round import InitiativeEntry
from core.model.weight import estimate, measure

Breach = tuple[str, str]  # (where, what)


class FormatGuard:
    """Checks each step of one history; remembers the combatants and initiative entries
    it has checked, by identity, and the bounds the encounter was already past."""

    def __init__(self, encounter: Encounter) -> None:
        self._combatants: dict[str, Combatant] = {}
        self._entries: dict[int, InitiativeEntry] = {}
        self._weighed: tuple[int, object] = (-1, None)  # (tokens, portraits) last weighed
        everything = ChangeSet(map_shape=True)
        self._let_be = {where for where, _ in self._breaches(encounter, everything)}

    def problem(self, encounter: Encounter, changes: ChangeSet) -> str | None:
        """Why the encounter as ``changes`` left it cannot be saved, or None."""
        for where, what in self._breaches(encounter, changes):
            if where not in self._let_be:
                return f"an encounter file cannot hold this: {where}: {what}"
        return None

    def _breaches(self, encounter: Encounter, changes: ChangeSet) -> Iterator[Breach]:
        yield from breaches(encounter, skip=("log",))
        map_grew = changes.walls or changes.hazards or changes.map_shape or changes.cells
        if map_grew:
            yield from _map_breaches(encounter)
        yield from self._combatant_breaches(encounter, changes)
        if changes.timeline:
            yield from self._round_breaches(encounter)
        if map_grew or changes.timeline or changes.fog or changes.weapons or self._new_art(
                encounter):
            yield from _size_breaches(encounter)

    def _new_art(self, encounter: Encounter) -> bool:
        """Whether tokens or portraits came or went since the file was last weighed (a move
        or an edit of a combatant adds at most a few hundred bytes, within its bound)."""
        (tokens, portraits), self._weighed = self._weighed, (len(encounter.tokens),
                                                              encounter.portraits)
        return tokens != len(encounter.tokens) or portraits is not encounter.portraits

    def _combatant_breaches(self, encounter: Encounter, changes: ChangeSet
                            ) -> Iterator[Breach]:
        for token_id in changes.tokens:
            if not encounter.has_token(token_id):
                continue
            combatant = encounter.token(token_id).combatant
            if self._combatants.get(token_id) is combatant:
                continue
            found = [*breaches(combatant), *_ability_breaches(encounter, combatant)]
            yield from ((f"{combatant.name}: {where}", what) for where, what in found)
            if not found:
                self._combatants[token_id] = combatant

    def _round_breaches(self, encounter: Encounter) -> Iterator[Breach]:
        state = encounter.timeline
        yield from ((f"timeline.{where}", what) for where, what in breaches(state))
        checked = {}
        for entry in state.entries:
            if self._entries.get(id(entry)) is not entry:
                found = list(breaches(entry))
                yield from ((f"the initiative of {entry.token_id}: {where}", what)
                            for where, what in found)
                if found:
                    return
            checked[id(entry)] = entry
        self._entries = checked


def _ability_breaches(encounter: Encounter, combatant: Combatant) -> Iterator[Breach]:
    low, high = encounter.profile.ability_range
    for name, score in combatant.abilities:
        if not low <= score <= high:
            yield name, f"{score} is outside the ability table ({low}-{high})"


def _map_breaches(encounter: Encounter) -> Iterator[Breach]:
    battle_map = encounter.map
    yield from ((f"map.{where}", what) for where, what in breaches(battle_map))
    cells = sum(len(hazard.cells) for hazard in battle_map.hazards)
    if cells > MAX_HAZARD_CELLS:
        yield "map.hazards", f"{cells:,} cells together; at most {MAX_HAZARD_CELLS:,}"


def _size_breaches(encounter: Encounter) -> Iterator[Breach]:
    """Past the file's limits (without the log, which gives way)? Measured only when an
    upper bound of its weight says it may be."""
    if not estimate(encounter).fits():
        problem = measure(encounter).over()
        if problem:
            yield "file", problem
