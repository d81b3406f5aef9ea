"""The round timeline: initiative, acting order, movement timing, Scarper, Aiming,
multi-segment actions and condition timers (002 "Initiative", RD "Round timeline").

Pure functions only: the state they fill in is :mod:`core.model.round`; the reversible
round commands are :mod:`core.actions.round`.

>>> from core.model.profile import RulesProfile
>>> attack_segment(6, 20, RulesProfile()).segment
10
>>> attack_segment(7, 20, RulesProfile()).attacks
False
"""

from __future__ import annotations

import math
from itertools import groupby

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry, Token
from core.model.mapmodel import Hazard
from core.model.melee import HoldKind
from core.model.profile import RulesProfile
from core.model.round import ConditionTimer, InitiativeEntry, RoundState
from core.rules.conditions import (
    befuddled,
    gets_up,
    inactive,
    incapacity,
    next_stage,
    no_action_reason,
    rounds_of,
)
from core.rules.holds import active_holds
from core.rules.value import RulesValue
from core.rules.weapons import melee_reach

SEED = "002 Initiative"
SIDES = (Side.PARTY, Side.OPPOSITION)  # who rolls initiative (002: party and opposition)


class AttackTiming(RulesValue):
    """When a combatant that moved first gets to strike, if at all this round."""

    segment: int
    attacks: bool
    reason: str
    idle: bool = False  # no action at all (down, out, asleep...), not only no attack


def entry_timing(entry: InitiativeEntry, combatant: Combatant, profile: RulesProfile
                 ) -> AttackTiming:
    """When this combatant strikes after the movement made so far this round (never, when
    its condition takes its action). The condition is read as it is now (a creature put to
    sleep or downed mid-round loses its action; one woken keeps Waking's). Getting up: Prone
    at the roll, or knocked down before it acted (:func:`_rose`). Aiming and scarpering
    creatures make no attack (002 "Aiming": "Miss a round"; "Scarper": "not attacking")."""
    timing = attack_segment(entry.segment, entry.moved_ft, profile)
    reason = incapacity(combatant) or befuddled(entry.no_action, combatant) or (
        "gets up this round (no attack)" if _rose(entry, combatant) else "") or (
        "aiming: no attack this round" if entry.aiming else "") or (
        "scarpering: no attack" if entry.scarpering else "")
    if reason:
        return timing.model_copy(update={"attacks": False, "reason": reason,
                                         "idle": inactive(combatant)})
    return timing


def clamp_segment(value: int, profile: RulesProfile) -> int:
    """002: "Anything lower than 1 counts as zero, anything higher than 10 counts as 11"."""
    low, high = profile.initiative_min_segment, profile.initiative_max_segment
    if value < low + 1:
        return low
    if value > high - 1:
        return high
    return value


def initiative_terms(die: int, combatant: Combatant, profile: RulesProfile) -> Breakdown:
    """RD "Round timeline": d10 − DEX modifier + personal modifier (002's formula is blank)."""
    dex = profile.ability_modifier(combatant.abilities.dexterity)
    return Breakdown.of(Term(profile.initiative_die, die, SEED),
                        Term("DEX", -dex, "RD Round timeline: − DEX modifier"),
                        Term("Personal", combatant.initiative_modifier, SEED))


def roll_initiative(encounter: Encounter, dice: DiceSource) -> RoundState:
    """Roll the round's initiative: "an initiative die is rolled for each party character
    and one general roll for the opposition ... If individuals of the opposition have
    modifiers to their initiative they will apply those modifiers for themselves only"
    (002). Dice order: party members in token order, then the one opposition roll."""
    profile, previous = encounter.profile, encounter.timeline
    party = [t for t in encounter.tokens if t.combatant.side is Side.PARTY]
    foes = [t for t in encounter.tokens if t.combatant.side is Side.OPPOSITION]
    entries = {t.id: _entry(t.id, t.combatant, dice.roll(profile.initiative_die,
                                                          f"initiative: {t.name}"), profile)
               for t in party}
    shared = dice.roll(profile.initiative_die, "initiative: opposition") if foes else None
    for token in foes:
        assert shared is not None
        entries[token.id] = _entry(token.id, token.combatant, shared, profile, shared=True)
    aimed = set(previous.aimed_last_round)
    rolled = [_after_aiming(entries[t.id], t.id in aimed, profile)
              for t in encounter.tokens if t.id in entries]
    return RoundState(round_number=max(1, previous.round_number),
                      current_segment=profile.initiative_min_segment, entries=rolled,
                      opposition_roll=shared, timers=list(previous.timers),
                      aimed_last_round=list(previous.aimed_last_round),
                      declaration_seconds=profile.declaration_seconds,
                      holds=list(previous.holds), ac_penalties=list(previous.ac_penalties),
                      morale_answered=list(previous.morale_answered),
                      free_attacks=list(previous.free_attacks))


class LateJoinError(ValueError):
    """No round to join, or nobody to join it."""


def newcomers(encounter: Encounter) -> list[Token]:
    """Creatures on the map that the round under way has no initiative for (added after
    its roll); none when no round is under way."""
    state = encounter.timeline
    if not state.entries:
        return []
    rolled = {entry.token_id for entry in state.entries}
    return [t for t in encounter.tokens if t.id not in rolled and t.combatant.side in SIDES]


def join_round(encounter: Encounter, dice: DiceSource) -> RoundState:
    """The round under way with an initiative for each newcomer, as the round's roll would
    have given it: a party character rolls its own die; the opposition's take the round's
    "one general roll for the opposition" (002), rolled now if the round had no opposition
    yet. Dice order: the party newcomers in token order, then the opposition roll if new."""
    joining = newcomers(encounter)
    if not joining:
        raise LateJoinError("no round under way" if not encounter.timeline.entries
                            else "everyone on the map is in the round already")
    profile, state = encounter.profile, encounter.timeline
    entries = [_entry(t.id, t.combatant, dice.roll(profile.initiative_die,
                                                   f"initiative: {t.name}"), profile)
               for t in joining if t.combatant.side is Side.PARTY]
    shared = state.opposition_roll
    foes = [t for t in joining if t.combatant.side is Side.OPPOSITION]
    if foes and shared is None:
        shared = dice.roll(profile.initiative_die, "initiative: opposition")
    entries += [_entry(t.id, t.combatant, shared, profile, shared=True)
                for t in foes if shared is not None]
    return state.model_copy(update={"entries": [*state.entries, *entries],
                                    "opposition_roll": shared})


def _entry(token_id: str, combatant: Combatant, roll: RollRecord, profile: RulesProfile,
           shared: bool = False) -> InitiativeEntry:
    terms = initiative_terms(roll.total, combatant, profile)
    entry = InitiativeEntry(token_id=token_id, side=combatant.side,
                            roll=None if shared else roll, terms=terms,
                            segment=clamp_segment(terms.value, profile))
    if combatant.has(Condition.SCARPERING):
        entry = scarper(entry, profile)
    if combatant.has(Condition.AIMING):
        entry = aim(entry)
    reason = no_action_reason(combatant)
    if reason:
        entry = entry.model_copy(update={"no_action": reason, "getting_up": gets_up(combatant),
                                         "notes": (*entry.notes, reason)})
    return entry


def _after_aiming(entry: InitiativeEntry, aimed_last_round: bool, profile: RulesProfile
                  ) -> InitiativeEntry:
    """002 Aiming / setting up position: "+3 to attack" in the round after the missed one."""
    if not aimed_last_round or entry.aiming:
        return entry
    return entry.model_copy(update={
        "attack_bonus": entry.attack_bonus + profile.aiming_attack_bonus,
        "notes": (*entry.notes, f"aimed last round: {profile.aiming_attack_bonus:+d} to attack")})


def scarper(entry: InitiativeEntry, profile: RulesProfile) -> InitiativeEntry:
    """002 Scarper: "gain an initiative of 1" and "Use the defence +2 for not attacking"."""
    bonus = profile.scarper_defence_bonus
    return entry.model_copy(update={
        "segment": profile.scarper_initiative, "scarpering": True, "defence_bonus": bonus,
        "notes": (*entry.notes, f"scarpering: initiative {profile.scarper_initiative}, "
                                f"{bonus:+d} defence, no attack")})


def aim(entry: InitiativeEntry) -> InitiativeEntry:
    """002 Aiming / setting up position: "Miss a round" (the bonus comes next round)."""
    return entry.model_copy(update={
        "aiming": True, "notes": (*entry.notes, "aiming: no attack this round")})


def strike_segment(entry: InitiativeEntry, profile: RulesProfile) -> int:
    """The segment a combatant acts in: its initiative plus the segments it spent moving,
    shown in the last column when that is past the round (002 "Movement")."""
    return min(attack_segment(entry.segment, entry.moved_ft, profile).segment,
               profile.initiative_max_segment)


def acting_order(state: RoundState, encounter: Encounter) -> list[tuple[int, list[list[str]]]]:
    """Segments ascending ("low initiative going first", each combatant at the segment it
    strikes after moving); within one, "longer weapons striking first, similar weapons
    strike simultaneously" (002) — equal reach is one group. Entries of tokens no longer on
    the map are left out."""
    present = [e for e in state.entries if encounter.has_token(e.token_id)]
    reach = {e.token_id: melee_reach(encounter, encounter.token(e.token_id).combatant)
             for e in present}  # the round's, not every token's (3,000 on a big map)
    profile = encounter.profile
    keyed = sorted(present, key=lambda e: (strike_segment(e, profile), -reach[e.token_id]))
    order = []
    for segment, in_segment in groupby(keyed, key=lambda e: strike_segment(e, profile)):
        groups = [[e.token_id for e in same]
                  for _, same in groupby(in_segment, key=lambda e: reach[e.token_id])]
        order.append((segment, groups))
    return order


class StillToAct(RulesValue):
    """A creature whose turn this round is not over: ending the round now takes it away."""

    token_id: str
    name: str
    segment: int  # when it strikes (after moving)
    ends: int  # the last segment of its action (a spell or prayer lasts several)

    @property
    def casting(self) -> bool:
        """A declared action of several segments already begun."""
        return self.ends > self.segment

    def describe(self) -> str:
        """"Ogre (segment 7)", "Sister Hale (long action, segments 4-6)"."""
        if self.casting:
            return f"{self.name} (long action, segments {self.segment}-{self.ends})"
        return f"{self.name} (segment {self.segment})"


def still_to_act(state: RoundState, encounter: Encounter) -> list[StillToAct]:
    """Who has a segment of this round still to come (002 "Initiative": each acts in the
    segment of its roll, moving first), or a declared action of several segments not yet
    finished — what "Next round" would skip. Creatures that can take no action this round
    (asleep, knocked out, down) or have taken all their actions are not listed: they lose
    nothing.

    >>> still_to_act(RoundState(), Encounter())
    []
    """
    profile, waiting = encounter.profile, []
    for entry in state.entries:
        if not encounter.has_token(entry.token_id):
            continue
        token = encounter.token(entry.token_id)
        if (entry_timing(entry, token.combatant, profile).idle
                or entry.actions_taken >= entry.actions_allowed):
            continue  # nothing to lose: it cannot act, or it has acted
        strikes = strike_segment(entry, profile)
        ends = min(strikes + entry.action_segments - 1, profile.initiative_max_segment)
        if ends > state.current_segment:
            waiting.append(StillToAct(token_id=entry.token_id, name=token.name,
                                      segment=strikes, ends=ends))
    return sorted(waiting, key=lambda still: (still.segment, still.name))


def describe_order(state: RoundState, encounter: Encounter) -> str:
    """One line per segment, e.g. ``segment 3: Ogre; Ann + Bob`` (names, reach groups)."""
    lines = []
    for segment, groups in acting_order(state, encounter):
        names = "; ".join(" + ".join(encounter.token(i).name for i in g) for g in groups)
        lines.append(f"segment {segment}: {names}")
    return "\n".join(lines)


def segments_moving(moved_ft: float, profile: RulesProfile) -> int:
    """Whole segments spent covering ``moved_ft`` (002: "Characters move at 5' per segmet
    near combat"; a part segment counts whole)."""
    return math.ceil(moved_ft / profile.movement_ft_per_segment) if moved_ft > 0 else 0


def attack_segment(initiative: int, moved_ft: float, profile: RulesProfile) -> AttackTiming:
    """002: "Characters move at 5' per segmet near combat" and "If an initiative roll
    indicates their attack opportunity occurs before they have reached combat range then
    the chance is lost": the strike comes after the segments spent moving."""
    moving = segments_moving(moved_ft, profile)
    segment = initiative + moving
    ft = f"{moved_ft:g}"
    if segment > profile.last_attack_segment:
        return AttackTiming(segment=segment, attacks=False,
                            reason=f"moves {ft} ft ({moving} segments) from initiative "
                                   f"{initiative}: segment {segment} is past "
                                   f"{profile.last_attack_segment}")
    return AttackTiming(segment=segment, attacks=True,
                        reason=f"moves {ft} ft ({moving} segments) from initiative "
                               f"{initiative}: attacks on segment {segment}")


def spoiled_by_hit(entry: InitiativeEntry, hit_segment: int) -> bool:
    """002 Spoiling attacks: a multi-segment action "may be interrupted and the action
    spoiled by a successful strike"; a single-segment one only when "your initiatives occur
    on the same segment". So: a hit during [start, start + length)."""
    return entry.segment <= hit_segment < entry.segment + entry.action_segments


def timer_for(token_id: str, condition: Condition, profile: RulesProfile,
              rounds: int | None = None) -> ConditionTimer | None:
    """A timer with the condition's duration (:func:`core.rules.conditions.rounds_of`;
    None for Prone: it lasts until the creature gets up)."""
    length = rounds if rounds is not None else rounds_of(condition, profile)
    return None if length is None else ConditionTimer(token_id=token_id, condition=condition,
                                                       rounds=length)


def with_default_timers(encounter: Encounter) -> list[ConditionTimer]:
    """The round's timers plus one for every timed condition that has none yet (a
    condition ticked on in the panel this round)."""
    state, profile = encounter.timeline, encounter.profile
    running = {(t.token_id, t.condition) for t in state.timers}
    missing = [timer for token in encounter.tokens for condition in token.combatant.conditions
               if (token.id, condition) not in running
               and (timer := timer_for(token.id, condition, profile)) is not None]
    return [*state.timers, *missing]


class RoundEnd(RulesValue):
    """The next round, the conditions of every token whose conditions change, and the timed
    hazards whose time is up."""

    state: RoundState
    conditions: dict[str, frozenset[Condition]]
    expired: tuple[Hazard, ...] = ()


def end_round(encounter: Encounter) -> RoundEnd:
    """The round's end: every timer ticks; a stun stage whose time is up steps one place
    better (002: "get better by 1 place each round (all KO degrade to Knockdown)"; the
    Knockdown stage brings Prone, RD "Conditions"); a Prone creature that spent this round
    getting up stands, unless it is pinned; a timed hazard (burning oil) whose last round
    this was goes out. Initiative is rolled "At the beginning of each combat round", so the
    entries are cleared; who aimed is remembered, and so are the grappling holds ("held from
    one round to the next", 002) and the lowered guards that last into the next round."""
    state, profile = encounter.timeline, encounter.profile
    conditions = {t.id: set(t.combatant.conditions) for t in encounter.tokens}
    running: list[ConditionTimer] = []
    for timer in with_default_timers(encounter):
        held = conditions.get(timer.token_id)
        if held is None or timer.condition not in held:
            continue  # the token is gone, or the GM lifted the condition by hand
        if timer.rounds > 1:
            running.append(timer.model_copy(update={"rounds": timer.rounds - 1}))
            continue
        running += _step_down(timer, held, profile)
    pinned = {h.held for h in active_holds(encounter) if h.kind is HoldKind.PIN}
    for entry in state.entries:
        if entry.token_id in conditions and entry.token_id not in pinned and _rose(
                entry, encounter.token(entry.token_id).combatant):
            conditions[entry.token_id].discard(Condition.PRONE)
    changed = {t.id: frozenset(conditions[t.id]) for t in encounter.tokens
               if conditions[t.id] != t.combatant.conditions}
    expired = tuple(h for h in encounter.map.hazards
                    if h.expires_after_round is not None
                    and h.expires_after_round <= state.round_number)
    return RoundEnd(state=RoundState(
        round_number=state.round_number + 1, current_segment=profile.initiative_min_segment,
        timers=_longest(running),
        aimed_last_round=[e.token_id for e in state.entries if e.aiming],
        declaration_seconds=profile.declaration_seconds, holds=list(state.holds),
        ac_penalties=[p for p in state.ac_penalties if p.until_round > state.round_number],
        morale_answered=list(state.morale_answered)),
        conditions=changed, expired=expired)


def _rose(entry: InitiativeEntry, combatant: Combatant) -> bool:
    """Spent this round getting up: Prone at the roll, or knocked down before it acted (RD
    "Knockdown and Prone": "this round if it has not acted yet")."""
    return entry.getting_up or (not entry.actions_taken and gets_up(combatant))


def _longest(timers: list[ConditionTimer]) -> list[ConditionTimer]:
    """One timer per creature and condition, the longest: a stun stepping down to Dazed
    while a Dazed timer runs leaves the creature dazed as long as the longer says."""
    kept: dict[tuple[str, Condition], ConditionTimer] = {}
    for timer in timers:
        key = (timer.token_id, timer.condition)
        if key not in kept or timer.rounds > kept[key].rounds:
            kept[key] = timer
    return list(kept.values())


def _step_down(timer: ConditionTimer, held: set[Condition], profile: RulesProfile
               ) -> list[ConditionTimer]:
    """Replace the timer's condition by the next place on the stun chain (and its timer)."""
    held.discard(timer.condition)
    better = next_stage(timer.condition)
    if better is None:
        return []
    held.add(better)
    if better is Condition.KNOCKDOWN:
        held.add(Condition.PRONE)
    following = timer_for(timer.token_id, better, profile)
    return [following] if following else []


def ties_with_opposition(state: RoundState) -> list[tuple[str, str]]:
    """(party token, opposition token) pairs on the same segment: 002 "a critical event
    will may happen when a character has the same initiative as the opposition"."""
    # Who can take no action at all (down, out, asleep...) has no initiative to share; one
    # getting up does act.
    acting = [e for e in state.entries if e.getting_up or not e.no_action]
    foes = [e for e in acting if e.side is Side.OPPOSITION]
    return [(p.token_id, f.token_id) for p in acting if p.side is Side.PARTY
            for f in foes if f.segment == p.segment]


def initiative_log(state: RoundState, encounter: Encounter) -> LogEntry:
    """The round's order and every initiative roll, as a log entry (kind "initiative")."""
    text = describe_order(state, encounter)
    if state.opposition_roll is not None:
        text += "\n" + state.opposition_roll.describe()
    text += "".join(f"\n{encounter.token(e.token_id).name}: {e.terms.describe()}"
                    f" → segment {e.segment}" for e in state.entries)
    return LogEntry(kind="initiative", summary=f"Round {state.round_number} initiative",
                    text=text, round=state.round_number,
                    detail={"order": [[s, g] for s, g in acting_order(state, encounter)]})


def spoil_note(encounter: Encounter, token_id: str, flight_segments: int = 0
               ) -> LogEntry | None:
    """A log note when a hit now spoils the target's multi-segment action, else None
    (002 "Spoiling attacks"). A missile lands ``flight_segments`` after it is loosed: "the
    action must be long enough for a missile to reach them. (We do not ignore flight time
    here)"."""
    state = encounter.timeline
    entry = next((e for e in state.entries if e.token_id == token_id), None)
    lands = state.current_segment + flight_segments
    if entry is None or entry.action_segments < 2 or not spoiled_by_hit(entry, lands):
        return None
    name = encounter.token(token_id).name
    flight = f" ({flight_segments} segment(s) in flight)" if flight_segments else ""
    return LogEntry(kind="spoiled", round=state.round_number,
                    summary=f"{name}'s {entry.action_segments}-segment action is spoiled",
                    text=f"Hit on segment {lands}{flight}, during segments "
                         f"{entry.segment}-{entry.segment + entry.action_segments - 1} "
                         "(002 Spoiling attacks)")
