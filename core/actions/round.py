"""Reversible commands of the round: log lines, batches, initiative, segments, rounds,
overrides, movement counts, long actions, and the critical events acted out on the map."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.actions.commands import ChangeSet, Command, MoveToken, UpdateCombatant
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry, Token
from core.model.grid import Cell, Direction, Footprint, bearing
from core.model.round import RoundState
from core.rules.critical import CriticalEvent, critical_event
from core.rules.timeline import (
    acting_order,
    describe_order,
    next_round,
    spoiled_by_hit,
    ties_with_opposition,
    timer_for,
)
from core.spatial.geometry import geometry_of

# --- small commands --------------------------------------------------------------------

class AppendLog(Command):
    label = "Log"

    def __init__(self, entry: LogEntry) -> None:
        self.entry = entry

    def apply(self, encounter: Encounter) -> ChangeSet:
        encounter.log.append(self.entry)
        return ChangeSet(log=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.log.pop()
        return ChangeSet(log=True)


class Batch(Command):
    """Several commands as one undo step (reverted in reverse order)."""

    def __init__(self, commands: list[Command], label: str = "Edit") -> None:
        self.commands, self.label = commands, label

    def apply(self, encounter: Encounter) -> ChangeSet:
        changes = ChangeSet()
        for command in self.commands:
            changes = changes | command.apply(encounter)
        return changes

    def revert(self, encounter: Encounter) -> ChangeSet:
        changes = ChangeSet()
        for command in reversed(self.commands):
            changes = changes | command.revert(encounter)
        return changes


class SwapTokens(Command):
    """Two tokens trade top-left cells (critical event 12)."""

    label = "Switch positions"

    def __init__(self, first: str, second: str) -> None:
        self.first, self.second = first, second

    def apply(self, encounter: Encounter) -> ChangeSet:
        return self._swap(encounter)

    def revert(self, encounter: Encounter) -> ChangeSet:
        return self._swap(encounter)

    def _swap(self, encounter: Encounter) -> ChangeSet:
        a, b = encounter.token(self.first), encounter.token(self.second)
        (a.x, a.y), (b.x, b.y) = b.cell, a.cell
        return ChangeSet(tokens=frozenset({a.id, b.id}))


def can_swap(encounter: Encounter, a: Token, b: Token) -> bool:
    """Both fit in the other's place: on the map, apart, clear of everyone else."""
    fa = Footprint(b.x, b.y, a.footprint.size)
    fb = Footprint(a.x, a.y, b.footprint.size)
    others = [t for t in encounter.tokens if t.id not in (a.id, b.id)]
    return (encounter.map.contains_footprint(fa) and encounter.map.contains_footprint(fb)
            and not fa.overlaps(fb)
            and not any(t.footprint.overlaps(f) for t in others for f in (fa, fb)))


# --- critical events on the map --------------------------------------------------------

@dataclass
class CriticalOutcome:
    """A rolled critical event and the command that applies it (with its log entry)."""

    event: CriticalEvent
    pair: tuple[str, str]
    rolls: list[RollRecord]
    note: str
    command: Command = field(default_factory=lambda: Batch([]))


def roll_critical_events(encounter: Encounter, state: RoundState, dice: DiceSource
                         ) -> list[CriticalOutcome]:
    """One d30 for each party character whose segment equals an opposition creature's,
    paired with the nearest such creature (interpretation of 002 "when a character has the
    same initiative as the opposition")."""
    nearest: dict[str, str] = {}
    for party_id, foe_id in ties_with_opposition(state):
        here = encounter.token(party_id).footprint
        best = nearest.get(party_id)
        if best is None or here.gap(encounter.token(foe_id).footprint) < here.gap(
                encounter.token(best).footprint):
            nearest[party_id] = foe_id
    return [resolve_critical(encounter, (p, f), dice, state.round_number)
            for p, f in nearest.items()]


def resolve_critical(encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
                     round_number: int | None = None) -> CriticalOutcome:
    """Roll the d30 and build the event's effect for the tied pair."""
    roll = dice.roll(encounter.profile.critical_event_die, "critical event")
    event = critical_event(roll.total)
    rolls = [roll]
    moves, note = _effect(encounter, event, pair, dice, rolls)
    summary = f"Critical event {event.number}: {event.name}"
    text = "\n".join([r.describe() for r in rolls] + [note])
    entry = LogEntry(kind="critical", summary=summary, text=text, round=round_number,
                     detail={"event": event.number, "pair": list(pair)})
    command = Batch([*moves, AppendLog(entry)], label=summary)
    return CriticalOutcome(event, pair, rolls, note, command)


def _effect(encounter: Encounter, event: CriticalEvent, pair: tuple[str, str],
            dice: DiceSource, rolls: list[RollRecord]) -> tuple[list[Command], str]:
    if event.number == 10:
        return _shift(encounter, pair, dice, rolls)
    if event.number == 12:
        a, b = encounter.token(pair[0]), encounter.token(pair[1])
        if can_swap(encounter, a, b):
            return [SwapTokens(a.id, b.id)], f"{a.name} and {b.name} switch positions"
        return [], f"{a.name} and {b.name} cannot switch positions (no room)"
    if event.number == 19:
        return _retreat(encounter, pair, dice, rolls)
    if event.number == 15:
        return _knock_down(encounter, pair, dice, rolls)
    names = " and ".join(encounter.token(i).name for i in pair)
    return [], f"{event.description or event.name} ({event.affects or 'no one'}; {names})"


def _pick(pair: tuple[str, str], dice: DiceSource, rolls: list[RollRecord], why: str) -> str:
    """002: "applied to one side the other (rolled randomly)": d2, 1 = the character."""
    roll = dice.roll("d2", why)
    rolls.append(roll)
    return pair[roll.total - 1]


def _shift(encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
           rolls: list[RollRecord]) -> tuple[list[Command], str]:
    """Event 10 "Battlefield shifts 5-10 feet in random direction": d8 direction (1 = N,
    clockwise), d2 × 5 ft; the tied pair is the "local area" (interpretation)."""
    way = dice.roll("d8", "battlefield shift direction")
    far = dice.roll("d2", "battlefield shift ×5 ft")
    rolls += [way, far]
    direction = list(Direction)[way.total - 1]
    feet = far.total * 5
    steps = max(1, feet // encounter.profile.cell_size_ft)
    dx, dy = direction.delta
    lead = sorted(pair, key=lambda i: -(encounter.token(i).x * dx + encounter.token(i).y * dy))
    moves = _push_all(encounter, [(i, direction) for i in lead], steps)
    return moves, f"battlefield shifts {feet} ft {direction.value}"


def _retreat(encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
             rolls: list[RollRecord]) -> tuple[list[Command], str]:
    """Event 19 "1 party retreats by 10'": d2 picks the side (1 = the character's); each of
    its tokens steps 10 ft away from the other side's centroid, as far as legal."""
    side = encounter.token(_pick(pair, dice, rolls, "retreating side")).combatant.side
    ours = [t for t in encounter.tokens if t.combatant.side is side]
    theirs = [t for t in encounter.tokens if t.combatant.side is not side]
    if not theirs:
        return [], f"the {side.value} has no one to retreat from"
    cx = sum(t.footprint.centre[0] for t in theirs) / len(theirs)
    cy = sum(t.footprint.centre[1] for t in theirs) / len(theirs)
    steps = max(1, 10 // encounter.profile.cell_size_ft)
    ours.sort(key=lambda t: -_distance(t.footprint.centre, (cx, cy)))
    plan = [(t.id, Direction.from_bearing(bearing((cx, cy), t.footprint.centre))) for t in ours]
    moves = _push_all(encounter, plan, steps)
    return moves, f"the {side.value} retreats 10 ft"


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2)


def _knock_down(encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
                rolls: list[RollRecord]) -> tuple[list[Command], str]:
    """Event 15 "Knock down: Spend next round getting up (-5 Def)": Prone, no timer."""
    token = encounter.token(_pick(pair, dice, rolls, "knocked down"))
    prone = token.combatant.model_copy(
        update={"conditions": token.combatant.conditions | {Condition.PRONE}})
    return ([UpdateCombatant(token.id, prone, "Knock down")],
            f"{token.name} is knocked down: Prone, spend next round getting up (-5 Def)")


def _push_all(encounter: Encounter, plan: list[tuple[str, Direction]], steps: int
              ) -> list[Command]:
    """Move each token of ``plan`` in turn up to ``steps`` cells its way, stopping at walls,
    the map's edge and tokens (the caller puts the leaders first so followers can close up)."""
    placed = {token_id: encounter.token(token_id).footprint for token_id, _ in plan}
    moves: list[Command] = []
    for token_id, direction in plan:
        end = _walk(encounter, token_id, placed, direction, steps)
        if end != placed[token_id]:
            placed[token_id] = end
            moves.append(MoveToken(token_id, Cell(end.x, end.y)))
    return moves


def _walk(encounter: Encounter, token_id: str, placed: dict[str, Footprint],
          direction: Direction, steps: int) -> Footprint:
    here = placed[token_id]
    for _ in range(steps):
        there = here.moved(direction)
        blocked = (not encounter.map.contains_footprint(there)
                   or geometry_of(encounter).footprint_move_blocked(here, direction)
                   or any(t.footprint.overlaps(there) for t in encounter.tokens
                          if t.id not in placed)
                   or any(f.overlaps(there) for i, f in placed.items() if i != token_id))
        if blocked:
            break
        here = there
    return here


# --- round commands ----------------------------------------------------------------------

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
            encounter.token(token_id).combatant = combatant
        return ChangeSet(tokens=frozenset(self.combatants), log=self._logs, timeline=True)

    _logs = False


class StartRound(_TimelineCommand):
    """Put a rolled round on the timeline and log its order (kind "initiative")."""

    label = "Start round"
    _logs = True

    def __init__(self, state: RoundState) -> None:
        super().__init__()
        self.state = state

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        encounter.timeline = self.state.model_copy(deep=True)
        text = describe_order(self.state, encounter)
        if self.state.opposition_roll is not None:
            text += "\n" + self.state.opposition_roll.describe()
        text += "".join(f"\n{encounter.token(e.token_id).name}: {e.terms.describe()}"
                        f" → segment {e.segment}" for e in self.state.entries)
        encounter.log.append(LogEntry(
            kind="initiative", summary=f"Round {self.state.round_number} initiative",
            text=text, round=self.state.round_number,
            detail={"order": [[s, g] for s, g in acting_order(self.state, encounter)]}))
        return ChangeSet(log=True, timeline=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.log.pop()
        return super().revert(encounter)


class AdvanceSegment(_TimelineCommand):
    label = "Next segment"

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        last = encounter.profile.initiative_max_segment
        encounter.timeline.current_segment = min(encounter.timeline.current_segment + 1, last)
        return ChangeSet(timeline=True)


class NextRound(_TimelineCommand):
    """End the round: tick the timers and lift the conditions that expire."""

    label = "Next round"

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        state, expired = next_round(with_default_timers(encounter), encounter.profile)
        encounter.timeline = state
        for timer in expired:
            token = encounter.token(timer.token_id)
            self.combatants.setdefault(token.id, token.combatant)
            token.combatant = token.combatant.model_copy(
                update={"conditions": token.combatant.conditions - {timer.condition}})
        return ChangeSet(tokens=frozenset(self.combatants), timeline=True)


class SetSegmentOverride(_TimelineCommand):
    """The GM drags a token's chip to another segment."""

    label = "Move initiative"

    def __init__(self, token_id: str, segment: int) -> None:
        super().__init__()
        self.token_id, self.segment = token_id, segment

    def apply(self, encounter: Encounter) -> ChangeSet:
        profile = encounter.profile
        if not profile.initiative_min_segment <= self.segment <= profile.initiative_max_segment:
            raise ValueError(f"segment {self.segment} is outside the round")
        self._keep(encounter)
        entry = encounter.timeline.entry(self.token_id)
        encounter.timeline.replace_entry(
            entry.model_copy(update={"segment": self.segment, "overridden": True}))
        return ChangeSet(tokens=frozenset({self.token_id}), timeline=True)


class RecordMovement(_TimelineCommand):
    """Count feet moved this round towards a combatant's attack segment (002 "Characters
    move at 5' per segment"); nothing happens outside a round."""

    label = "Movement this round"

    def __init__(self, token_id: str, feet: float) -> None:
        super().__init__()
        self.token_id, self.feet = token_id, feet

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        timeline = encounter.timeline
        if any(e.token_id == self.token_id for e in timeline.entries):
            entry = timeline.entry(self.token_id)
            timeline.replace_entry(entry.model_copy(
                update={"moved_ft": entry.moved_ft + self.feet}))
        return ChangeSet(timeline=True)


def with_default_timers(encounter: Encounter) -> RoundState:
    """The round with a timer for every timed condition that has none yet (a condition
    ticked on in the panel this round: Dazed and Stunned last 1 round, 002 "Stunning")."""
    state = encounter.timeline
    running = {(t.token_id, t.condition) for t in state.timers}
    missing = [timer for token in encounter.tokens for condition in token.combatant.conditions
               if (token.id, condition) not in running
               and (timer := timer_for(token.id, condition)) is not None]
    return state.model_copy(update={"timers": [*state.timers, *missing]})


class SetActionLength(_TimelineCommand):
    """Declare a multi-segment action (a spell, a prayer) starting on the token's segment;
    a hit landing during it spoils it (002 "Spoiling attacks")."""

    label = "Declare a long action"

    def __init__(self, token_id: str, segments: int) -> None:
        super().__init__()
        self.token_id, self.segments = token_id, segments

    def apply(self, encounter: Encounter) -> ChangeSet:
        self._keep(encounter)
        entry = encounter.timeline.entry(self.token_id)
        encounter.timeline.replace_entry(entry.model_copy(
            update={"action_segments": max(1, self.segments)}))
        return ChangeSet(timeline=True)


def spoil_note(encounter: Encounter, token_id: str) -> LogEntry | None:
    """A log note when a hit now spoils the target's multi-segment action, else None."""
    state = encounter.timeline
    entry = next((e for e in state.entries if e.token_id == token_id), None)
    if entry is None or entry.action_segments < 2 or not spoiled_by_hit(
            entry, state.current_segment):
        return None
    name = encounter.token(token_id).name
    return LogEntry(kind="spoiled", round=state.round_number,
                    summary=f"{name}'s {entry.action_segments}-segment action is spoiled",
                    text=f"Hit on segment {state.current_segment}, during segments "
                         f"{entry.segment}-{entry.segment + entry.action_segments - 1} "
                         "(002 Spoiling attacks)")
