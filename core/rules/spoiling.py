"""Who is ready to spoil a long action (002 "Spoiling attacks": "Multi segment actions may be
spoilt depending upon the distance and readiness of the attacker. The attacker may either be
concentrating upon and waiting for the target to start something or has not acted yet during
the round ... If you are not concentrating then a perception roll must be made to notice the
movements of the caster. For each segment that the action is performed the perception roll
difficulty reduces by one. The perception takes one segment to perform and may be performed
each segment until the action is over.").

- **Concentrating** (:func:`concentrate`): a creature that has not acted this round declares
  it is concentrating upon another and waiting for it to start something; a hit it lands
  during that creature's long action spoils it, no roll.
- **Perception** (:func:`resolve_perception`): any other creature that has not acted rolls
  ``spoil_perception_die`` (d20) + its condition penalty against
  ``spoil_perception_target`` (12; **Interp.**: the seed gives no base, 002 Surprise's
  "standard (12)" Spot save) − ``spoil_perception_per_segment`` (1) for each segment of the
  action already performed. Success: it has noticed, and its hits from the next segment on
  spoil the action ("The perception takes one segment": ``spoil_perception_segments``, 1,
  :func:`spoils_from`); one roll a segment.
- A hit by a creature that neither concentrates on the target nor has noticed it does not
  spoil (:func:`readiness`), when ``spoiling_needs_notice`` is on (the default; off: every hit
  during the action spoils it).

All pure: the round keeps the concentrations and rolls as :class:`core.model.round.Watch`
entries (:mod:`core.actions.spoiling` applies them).

>>> from core.model.round import InitiativeEntry
>>> difficulty(InitiativeEntry(token_id="m", segment=3, action_segments=4), 5,
...            RulesProfile()).value
10
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry
from core.model.profile import RulesProfile
from core.model.round import MAX_WATCHES, InitiativeEntry, Watch, WatchKind
from core.rules.conditions import require_action, roll_penalty
from core.rules.timeline import spoil_note
from core.rules.turns import TurnRefusedError, entry_of
from core.rules.value import RulesValue

SEED = "002 Spoiling attacks"


class SpoilRefusedError(ValueError):
    """A concentration or a perception roll that cannot be made; the message says why."""


def long_action(encounter: Encounter, token_id: str) -> InitiativeEntry | None:
    """The token's multi-segment action under way at the segment being played, if any."""
    state = encounter.timeline
    entry = next((e for e in state.entries if e.token_id == token_id), None)
    if entry is None or entry.action_segments < 2:
        return None
    if not entry.segment <= state.current_segment < entry.segment + entry.action_segments:
        return None
    return entry


def difficulty(entry: InitiativeEntry, segment: int, profile: RulesProfile) -> Breakdown:
    """The perception roll's difficulty at ``segment`` of the action ``entry`` declares:
    "For each segment that the action is performed the perception roll difficulty reduces
    by one"."""
    performed = max(0, segment - entry.segment)
    terms = [Term("Perception", profile.spoil_perception_target,
                  "Interp.: 002 Surprise's 'standard (12)' Spot save (002 Spoiling gives no "
                  "base)")]
    if performed:
        terms.append(Term(f"{performed} segment(s) of the action performed",
                          -performed * profile.spoil_perception_per_segment,
                          f"{SEED}: 'the perception roll difficulty reduces by one'"))
    return Breakdown.of(*terms)


def watches_of(encounter: Encounter, watcher_id: str, target_id: str) -> list[Watch]:
    return [w for w in encounter.timeline.watches
            if w.token_id == watcher_id and w.target == target_id]


def concentrating_on(encounter: Encounter, watcher_id: str) -> str | None:
    """The creature ``watcher_id`` concentrates on this round, if any."""
    return next((w.target for w in encounter.timeline.watches
                 if w.token_id == watcher_id and w.kind is WatchKind.CONCENTRATING), None)


def _ready_to_watch(encounter: Encounter, watcher_id: str, target_id: str) -> None:
    """A round under way; the watcher can act and "has not acted yet during the round"."""
    watcher, target = encounter.token(watcher_id), encounter.token(target_id)
    if watcher.id == target.id:
        raise SpoilRefusedError(f"{watcher.name} cannot watch itself")
    if not encounter.timeline.entries:
        raise SpoilRefusedError("no round under way: roll initiative first")
    require_action(watcher.combatant)
    entry = entry_of(encounter, watcher.id)
    if entry is not None and entry.actions_taken >= entry.actions_allowed:
        raise TurnRefusedError(f"{watcher.name} has already acted this round ({SEED}: the "
                               "attacker 'has not acted yet during the round')")
    if len(encounter.timeline.watches) >= MAX_WATCHES:
        raise SpoilRefusedError(f"the round holds {MAX_WATCHES:,} watches already")


class Concentration(RulesValue):
    """``watcher`` concentrates on ``target`` from ``segment`` (any earlier concentration of
    the watcher's this round, on ``dropped``, ends)."""

    watcher_id: str
    watcher: str
    target_id: str
    target: str
    segment: int
    dropped: str | None = None

    def summary(self) -> str:
        dropped = f" (no longer on {self.dropped})" if self.dropped else ""
        return (f"{self.watcher} concentrates on {self.target}, waiting for it to start "
                f"something{dropped}: a hit during its long action spoils it, no perception "
                "roll")


def concentrate(encounter: Encounter, watcher_id: str, target_id: str) -> Concentration:
    """002: 'The attacker may either be concentrating upon and waiting for the target to
    start something'. One target at a time; a second replaces the first."""
    _ready_to_watch(encounter, watcher_id, target_id)
    watcher, target = encounter.token(watcher_id), encounter.token(target_id)
    before = concentrating_on(encounter, watcher.id)
    if before == target.id:
        raise SpoilRefusedError(f"{watcher.name} is already concentrating on {target.name}")
    return Concentration(watcher_id=watcher.id, watcher=watcher.name, target_id=target.id,
                         target=target.name, segment=encounter.timeline.current_segment,
                         dropped=encounter.token(before).name if before else None)


class PerceptionResult(RulesValue):
    """A perception roll to notice a creature's long action (002 Spoiling attacks)."""

    watcher_id: str
    watcher: str
    target_id: str
    target: str
    segment: int
    roll: RollRecord
    total: Breakdown
    difficulty: Breakdown
    noticed: bool
    spoils_from: int  # the segment its hits spoil the action from, once noticed

    def summary(self) -> str:
        verdict = (f"notices it: its hits from segment {self.spoils_from} spoil the action"
                   if self.noticed else "does not notice it (it may roll again next segment)")
        return (f"{self.watcher} watches {self.target}'s long action: "
                f"{self.total.value} vs {self.difficulty.value} — {verdict}")

    def text(self) -> str:
        return "\n".join([self.summary(), "", f"  Roll: {self.roll.describe()}",
                          f"  Perception: {self.total.describe()}",
                          f"  Difficulty at segment {self.segment}: "
                          f"{self.difficulty.describe()}",
                          f"  {SEED}: 'The perception takes one segment to perform and may be "
                          "performed each segment until the action is over'"])


def perception_setup(encounter: Encounter, watcher_id: str, target_id: str
                     ) -> tuple[Breakdown, Breakdown]:
    """The roll's terms besides the die, and the difficulty; SpoilRefusedError when no roll
    can be made now."""
    _ready_to_watch(encounter, watcher_id, target_id)
    watcher, target = encounter.token(watcher_id), encounter.token(target_id)
    state, profile = encounter.timeline, encounter.profile
    entry = long_action(encounter, target.id)
    if entry is None:
        raise SpoilRefusedError(f"{target.name} is not in the midst of a multi-segment action "
                                f"at segment {state.current_segment} (declare its spell or "
                                "prayer on its chip first)")
    earlier = watches_of(encounter, watcher.id, target.id)
    if any(w.kind is WatchKind.CONCENTRATING for w in earlier):
        raise SpoilRefusedError(f"{watcher.name} is concentrating on {target.name}: no roll "
                                f"needed ({SEED}: 'If you are not concentrating then a "
                                "perception roll must be made')")
    if any(w.kind is WatchKind.NOTICED for w in earlier):
        raise SpoilRefusedError(f"{watcher.name} has already noticed {target.name}'s action")
    if any(w.segment == state.current_segment for w in earlier):
        raise SpoilRefusedError(f"{watcher.name} has rolled this segment already: the "
                                "perception takes one segment (roll again at the next)")
    bonus = Breakdown.of(*roll_penalty(watcher.combatant, profile))
    return bonus, difficulty(entry, state.current_segment, profile)


def resolve_perception(encounter: Encounter, watcher_id: str, target_id: str,
                       dice: DiceSource) -> PerceptionResult:
    """The perception roll: d20 + the watcher's condition penalty ≥ the difficulty."""
    bonus, against = perception_setup(encounter, watcher_id, target_id)
    watcher, target = encounter.token(watcher_id), encounter.token(target_id)
    profile = encounter.profile
    roll = dice.roll(profile.spoil_perception_die,
                     f"{watcher.name} perception: notice {target.name}'s action")
    total = Breakdown.of(Term(profile.spoil_perception_die, roll.total,
                              f"{SEED}: 'a perception roll must be made'"), *bonus.terms)
    return PerceptionResult(watcher_id=watcher.id, watcher=watcher.name, target_id=target.id,
                            target=target.name, segment=encounter.timeline.current_segment,
                            roll=roll, total=total, difficulty=against,
                            noticed=total.value >= against.value,
                            spoils_from=spoils_from(encounter.timeline.current_segment, profile))


def spoils_from(noticed: int, profile: RulesProfile) -> int:
    """The first segment whose hits spoil an action noticed at segment ``noticed``: "The
    perception takes one segment to perform" (``spoil_perception_segments``)."""
    return noticed + profile.spoil_perception_segments


def perception_chance(encounter: Encounter, watcher_id: str, target_id: str) -> float:
    """The chance the roll notices, for menus (d20 faces, equally likely)."""
    from core.model.dice import DiceExpression

    bonus, against = perception_setup(encounter, watcher_id, target_id)
    faces = DiceExpression.parse(encounter.profile.spoil_perception_die).dice[0]
    wins = sum(1 for face in range(1, faces + 1) if face + bonus.value >= against.value)
    return wins / faces


def readiness(encounter: Encounter, attacker_id: str | None, target_id: str) -> str:
    """Why a hit by ``attacker_id`` now does not spoil the target's long action ('' when it
    does): it neither concentrates on the target nor noticed it at an earlier segment
    (``spoiling_needs_notice``)."""
    if not encounter.profile.spoiling_needs_notice or attacker_id is None:
        return ""
    now = encounter.timeline.current_segment
    watches = watches_of(encounter, attacker_id, target_id)
    if any(w.kind is WatchKind.CONCENTRATING for w in watches):
        return ""
    noticed = [w.segment for w in watches if w.kind is WatchKind.NOTICED]
    name = encounter.token(attacker_id).name
    if noticed:
        first = spoils_from(min(noticed), encounter.profile)
        if first <= now:
            return ""
        return (f"{name} noticed it at segment {min(noticed)}: the perception takes "
                f"{encounter.profile.spoil_perception_segments} segment(s), its hits spoil "
                f"from segment {first}")
    return (f"{name} was not concentrating on it and has not noticed it ({SEED}: 'If you are "
            "not concentrating then a perception roll must be made to notice the movements "
            "of the caster')")


def spoil_entry(encounter: Encounter, target_id: str, attacker_id: str | None,
                flight_segments: int = 0) -> LogEntry | None:
    """The log note of a hit landing during the target's long action: spoiled
    (:func:`core.rules.timeline.spoil_note`), or "goes on" when the attacker was not ready
    (:func:`readiness`); None when the hit falls outside any long action."""
    note = spoil_note(encounter, target_id, flight_segments)
    if note is None:
        return None
    reason = readiness(encounter, attacker_id, target_id)
    if not reason:
        return note
    name = encounter.token(target_id).name
    return LogEntry(kind="not-spoiled", round=note.round,
                    summary=f"{name}'s long action goes on: {reason.split(' (')[0]}",
                    text=f"{note.text}\nNot spoiled: {reason}")
