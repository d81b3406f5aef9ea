"""Reversible commands of the round: start it, step segments and rounds, override a
segment, count movement, declare a long action (002 "Initiative", "Spoiling attacks")."""

from __future__ import annotations

from collections.abc import Callable

from core.actions.commands import ChangeSet, Command, CommandRefusedError, ReplaceHazard
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, LogEntry
from core.model.grid import Cell
from core.model.limits import MAX_FEET
from core.model.melee import HoldKind
from core.model.round import MAX_PATH_CELLS, InitiativeEntry, RoundState
from core.rules.holds import locks_at_round_end
from core.rules.timeline import end_round


class _TimelineCommand(Command):
    """Swap the whole RoundState (and any combatants touched); revert swaps back."""

    def __init__(self) -> None:
        self.before: RoundState | None = None
        self.combatants: dict[str, Combatant] = {}

    def _keep(self, encounter: Encounter) -> None:
        self.before = encounter.timeline.model_copy(deep=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        encounter.timeline = self.before
        for token_id, combatant in self.combatants.items():
            encounter.put_token(encounter.token(token_id).with_combatant(combatant))
        return ChangeSet(tokens=frozenset(self.combatants), timeline=True)

    def _entry(self, encounter: Encounter, token_id: str) -> InitiativeEntry:
        try:
            return encounter.timeline.entry(token_id)
        except KeyError:
            name = encounter.token(token_id).name
            raise CommandRefusedError(f"{name} has no initiative this round") from None


class StartRound(_TimelineCommand):
    """Put a rolled round on the timeline."""

    label = "Start round"

    def __init__(self, state: RoundState) -> None:
        super().__init__()
        self.state = state

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        encounter.timeline = self.state.model_copy(deep=True)
        return ChangeSet(timeline=True)


class AdvanceSegment(_TimelineCommand):
    label = "Next segment"

    def apply(self, encounter: Encounter) -> ChangeSet:
        if not encounter.timeline.entries:
            raise CommandRefusedError("no round is under way: roll initiative first")
        last = encounter.profile.initiative_max_segment
        if encounter.timeline.current_segment >= last:
            raise CommandRefusedError(f"segment {last} is the round's last: Next round ends it")
        self._keep(encounter)
        encounter.timeline.current_segment += 1
        return ChangeSet(timeline=True)


class NextRound(_TimelineCommand):
    """End the round: locks hurt (holds go last, :func:`core.rules.holds.locks_at_round_end`),
    timers tick, stun conditions step down, the risen stand, burnt-out hazards go
    (:func:`core.rules.timeline.end_round`); the critical events' boons for the round lapse
    (:meth:`~core.model.combatant.Combatant.lapsed`)."""

    label = "Next round"

    def __init__(self) -> None:
        super().__init__()
        self.logged: list[LogEntry] = []
        self.expired: list[ReplaceHazard] = []

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        ended = encounter.timeline.round_number
        locks = locks_at_round_end(encounter)
        ending = end_round(encounter)
        encounter.timeline = ending.state
        for lock in locks:
            self._change(encounter, lock.token_id, hp=lock.hurt(encounter).hp)
        changed = [_conditions_entry(encounter, token_id, conditions, ended)
                   for token_id, conditions in ending.conditions.items()]
        for token_id, conditions in ending.conditions.items():
            self._change(encounter, token_id, conditions=conditions)
        self._submit(encounter, {lock.token_id for lock in locks if lock.submits})
        for token in [t for t in encounter.tokens if t.combatant.has_lapsing]:
            self._put(encounter, token.id, token.combatant.lapsed())
        self.logged = [lock.entry for lock in locks] + changed
        encounter.log.extend(self.logged)
        self.expired = [ReplaceHazard(hazard, None) for hazard in ending.expired]
        for removal in self.expired:
            removal.apply(encounter)
        return ChangeSet(tokens=frozenset(self.combatants), timeline=True,
                         log=bool(self.logged), hazards=bool(self.expired))

    def _submit(self, encounter: Encounter, yielded: set[str]) -> None:
        """Who a lock took to 0 HP submits, and its lock ends (002 Locks: "Will submit when
        all SP are lost")."""
        for token_id in yielded:
            conditions = encounter.token(token_id).combatant.conditions
            self._change(encounter, token_id, conditions=conditions | {Condition.SUBMITTED})
        encounter.timeline.holds = [h for h in encounter.timeline.holds
                                    if h.held not in yielded or h.kind is not HoldKind.LOCK]

    def _change(self, encounter: Encounter, token_id: str, **update: object) -> None:
        combatant = encounter.token(token_id).combatant
        self._put(encounter, token_id, combatant.model_copy(update=update))

    def _put(self, encounter: Encounter, token_id: str, combatant: Combatant) -> None:
        token = encounter.token(token_id)
        self.combatants.setdefault(token_id, token.combatant)
        encounter.put_token(token.with_combatant(combatant))

    def revert(self, encounter: Encounter) -> ChangeSet:
        for removal in reversed(self.expired):
            removal.revert(encounter)
        del encounter.log[len(encounter.log) - len(self.logged):]
        return super().revert(encounter) | ChangeSet(log=bool(self.logged),
                                                     hazards=bool(self.expired))


def _conditions_entry(encounter: Encounter, token_id: str, after: frozenset[Condition],
                      ended: int) -> LogEntry:
    """The log's line for a token whose conditions the round's end changed (a stun stepping
    down, a creature standing up): they changed unseen before."""
    token = encounter.token(token_id)
    before = token.combatant.conditions
    words = [f"loses {c.label}" for c in sorted(before - after)] + [
        f"gains {c.label}" for c in sorted(after - before)]
    summary = f"{token.name} {' and '.join(words)} (end of round {ended})"
    return LogEntry(kind="round", summary=summary, text=summary, round=ended)


class SetSegmentOverride(_TimelineCommand):
    """The GM drags a token's chip to another segment."""

    label = "Move initiative"

    def __init__(self, token_id: str, segment: int) -> None:
        super().__init__()
        self.token_id, self.segment = token_id, segment

    def apply(self, encounter: Encounter) -> ChangeSet:
        profile = encounter.profile
        if not profile.initiative_min_segment <= self.segment <= profile.initiative_max_segment:
            raise CommandRefusedError(f"segment {self.segment} is outside the round")
        entry = self._entry(encounter, self.token_id)
        self._keep(encounter)
        encounter.timeline.replace_entry(
            entry.model_copy(update={"segment": self.segment, "overridden": True}))
        return ChangeSet(tokens=frozenset({self.token_id}), timeline=True)


class RecordMovement(_TimelineCommand):
    """Count feet moved this round towards a combatant's attack segment (002 "Characters
    move at 5' per segment") and keep the cells walked (a move that starts where the last
    one ended joins it: a charge's run, rules-decisions "Charge / knockdown"); nothing
    happens outside a round. The count stops at the format's bound (:data:`MAX_FEET`,
    10,000 ft: 2,000 segments, long past any round's last), so dragging a token to and fro
    never makes the encounter unsaveable; it starts again from 0 each round."""

    label = "Movement this round"

    def __init__(self, token_id: str, feet: float, path: tuple[Cell, ...] = ()) -> None:
        super().__init__()
        self.token_id, self.feet, self.path = token_id, feet, path

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        timeline = encounter.timeline
        if any(e.token_id == self.token_id for e in timeline.entries):
            entry = timeline.entry(self.token_id)
            joined = (entry.path + self.path[1:] if entry.path and self.path
                      and entry.path[-1] == self.path[0] else self.path)[-MAX_PATH_CELLS:]
            timeline.replace_entry(entry.model_copy(
                update={"moved_ft": min(entry.moved_ft + self.feet, MAX_FEET), "path": joined}))
        return ChangeSet(timeline=True)


class EditRound(_TimelineCommand):
    """A change to the round's state worked out when it is applied, from the state as it is
    then (a manoeuvre's holds, condition timers, lowered guards); undone by restoring it.
    ``tokens`` are the tokens whose views it changes (a hold's link, a lowered AC)."""

    def __init__(self, edit: Callable[[RoundState], RoundState], label: str,
                 tokens: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.edit, self.label, self.tokens = edit, label, tokens

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        encounter.timeline = self.edit(encounter.timeline.model_copy(deep=True))
        return ChangeSet(tokens=self.tokens, timeline=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return super().revert(encounter) | ChangeSet(tokens=self.tokens)


class SetActionLength(_TimelineCommand):
    """Declare a multi-segment action (a spell, a prayer) starting on the token's segment;
    a hit landing during it spoils it (002 "Spoiling attacks")."""

    label = "Declare a long action"

    def __init__(self, token_id: str, segments: int) -> None:
        super().__init__()
        self.token_id, self.segments = token_id, segments

    def apply(self, encounter: Encounter) -> ChangeSet:
        entry = self._entry(encounter, self.token_id)
        self._keep(encounter)
        encounter.timeline.replace_entry(entry.model_copy(
            update={"action_segments": max(1, self.segments)}))
        return ChangeSet(timeline=True)
