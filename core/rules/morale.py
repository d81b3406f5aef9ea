"""Morale (002 "Morale"; rules-decisions "Injury, morale and the rest"): scores, the
triggers read off the encounter, the 2d10 check and what a failure does on the map.

- 002: "All NPCs and creatures have morale. Characters determine their own morale": a
  combatant's own ``morale``, else ``default_morale`` (12) for the opposition; a party member
  without one is a player character and never checks (:func:`base_morale`).
- 002: "if their master or leader is present it will be modified by their leadership
  ability"; RD "+leader's bonus while the leader stands; −3 when the leader falls":
  :func:`morale_score` (the best ``leadership`` of another standing leader of the side, and
  ``leader_down_modifier`` while a leader of the side is down).
- 002: "Morale checks are made in the following circumstances. • Obviously heavily outgunned
  after an initial clash • 50% casualties • 75% casualties • Leader killed": RD "the side
  first takes losses while outnumbered 2:1, 50% and 75% of the side down (0 HP or KO),
  leader down" — :func:`detect_triggers`. Each is offered once: the ones answered are kept
  on the round (``RoundState.morale_answered``), :func:`pending_triggers` leaves them out.
- 002: "Morale is rolled on 2d10"; RD "2d10 ≤ score passes": :func:`resolve_morale`. The
  failure level is the profile's ``failure_levels`` table on the amount failed by; the
  result is ``morale_results`` (002's "Fail by | Action" table, which has no Dreadful row:
  a level without a row counts as the level below it — RD "Dreadful counts as Bad").
- 002: "Unlucky | Disengage and retreat running", "Bad | Panic drop weapons in hands and
  run", "Appalling | Throw down weapons and plead for mercy / berserk attack if no escape",
  "Catastrophic | Berserk": the runners get a walk away from every enemy
  (:mod:`core.spatial.retreat`) of the feet left in the round at ``movement_ft_per_segment``
  and Scarper (002 "turn tail and scarper"); the Bad ones drop their weapons; a surrender
  drops them too; with no walk that gets farther from the enemy it is berserk instead.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from pydantic import ConfigDict, Field

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition, Side
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.morale import MoraleTrigger, TriggerKind
from core.model.profile import MoraleResult, MoraleRoll, RulesProfile
from core.rules.conditions import down, helpless
from core.rules.value import RulesValue

if TYPE_CHECKING:
    from core.spatial.retreat import Retreat

SEED = "002 Morale"
RUNS = (MoraleResult.RETREAT, MoraleResult.DROP_AND_RUN)
DROPS = (MoraleResult.DROP_AND_RUN, MoraleResult.SURRENDER)
#: The condition each result leaves: runners scarper (002 Scarper: "turn tail and scarper").
CONDITIONS = {MoraleResult.RETREAT: Condition.SCARPERING,
              MoraleResult.DROP_AND_RUN: Condition.SCARPERING,
              MoraleResult.SURRENDER: Condition.SURRENDERED,
              MoraleResult.BERSERK: Condition.BERSERK}


class IllegalMoraleError(ValueError):
    """The check cannot be made as asked (nobody on that side checks morale)."""


# --- who counts --------------------------------------------------------------------------
def fighting(combatant: Combatant) -> bool:
    """Still in the fight: not down and not surrendered."""
    return not down(combatant) and not combatant.has(Condition.SURRENDERED)


def other(side: Side) -> Side:
    return Side.OPPOSITION if side is Side.PARTY else Side.PARTY


def side_tokens(encounter: Encounter, side: Side) -> list[Token]:
    return [t for t in encounter.tokens if t.combatant.side is side]


def base_morale(combatant: Combatant, profile: RulesProfile) -> int | None:
    """The combatant's own score, the default for the opposition, or None: a player
    character, who "determine[s] their own morale"."""
    if combatant.morale is not None:
        return combatant.morale
    return profile.default_morale if combatant.side is Side.OPPOSITION else None


def checkers(encounter: Encounter, side: Side) -> list[Token]:
    """The side's creatures that check morale: those with a score still fighting, not
    berserk (a berserk creature fights on), not asleep or waking (helpless: it has not taken
    in the fight yet)."""
    profile = encounter.profile
    return [t for t in side_tokens(encounter, side)
            if base_morale(t.combatant, profile) is not None and fighting(t.combatant)
            and not t.combatant.has(Condition.BERSERK) and not helpless(t.combatant)]


def morale_score(encounter: Encounter, token: Token) -> Breakdown:
    """The score the 2d10 must not exceed: own morale, the best leadership of another leader
    of the side still fighting, and the fall of a leader of the side."""
    profile = encounter.profile
    base = base_morale(token.combatant, profile)
    if base is None:
        raise IllegalMoraleError(f"{token.name} is a player character: no morale check")
    terms = [Term("Morale", base, f"{SEED}: 'Each NPC will have their own morale'"
                  + ("" if token.combatant.morale is not None else "; default_morale"))]
    leaders = [t for t in side_tokens(encounter, token.combatant.side)
               if t.combatant.leadership is not None and t.id != token.id]
    standing = [t for t in leaders if fighting(t.combatant)]
    if standing:
        best = max(standing, key=lambda t: t.combatant.leadership or 0)
        terms.append(Term(f"Leader {best.name}", best.combatant.leadership or 0,
                          f"{SEED}: 'modified by their leadership ability'"))
    fallen = [t for t in leaders if down(t.combatant)]
    if fallen and profile.leader_down_modifier:
        terms.append(Term(f"Leader {fallen[0].name} down", profile.leader_down_modifier,
                          f"{SEED}: 'Leader killed (-3 on die roll)'; RD −3"))
    return Breakdown(terms=tuple(terms))


# --- triggers ------------------------------------------------------------------------------
def detect_triggers(encounter: Encounter) -> list[MoraleTrigger]:
    """Every trigger true of the encounter now, side by side.

    Kept until a combatant, the tokens or the profile change, compared by identity (all
    are frozen: a move keeps its token's combatant, an edit makes a new one), so a move on
    a map of 3,000 tokens does not count them all again (5 ms, twice per move)."""
    return list(_triggers(encounter).found)


@dataclass
class _Triggers:
    """The triggers true now and the sides with someone who checks, and what they were
    read from."""

    combatants: tuple[Combatant, ...] = ()
    profile: RulesProfile | None = None
    found: tuple[MoraleTrigger, ...] = ()
    checking: frozenset[Side] = frozenset()


def _triggers(encounter: Encounter) -> _Triggers:
    seen = encounter.derived(_Triggers, _Triggers)
    combatants = tuple(t.combatant for t in encounter.tokens)
    if seen.profile is not encounter.profile or not _same(combatants, seen.combatants):
        seen.combatants, seen.profile = combatants, encounter.profile
        seen.found = tuple(t for side in Side for t in _side_triggers(encounter, side))
        seen.checking = frozenset(side for side in Side if checkers(encounter, side))
    return seen


def _same(these: tuple[object, ...], those: tuple[object, ...]) -> bool:
    """The same objects in the same order."""
    return len(these) == len(those) and all(map(operator.is_, these, those))


def _side_triggers(encounter: Encounter, side: Side) -> list[MoraleTrigger]:
    profile = encounter.profile
    members = side_tokens(encounter, side)
    fallen = [t for t in members if down(t.combatant)]
    if not members or not fallen:
        return []
    standing = sum(fighting(t.combatant) for t in members)
    enemies = sum(fighting(t.combatant) for t in side_tokens(encounter, other(side)))
    found = []
    if standing and enemies >= profile.outnumbered_ratio * standing:
        found.append(MoraleTrigger(side=side, kind=TriggerKind.OUTNUMBERED))
    found += [MoraleTrigger(side=side, kind=TriggerKind.CASUALTIES, percent=percent)
              for percent in profile.casualty_percents
              if len(fallen) * 100 >= percent * len(members)]
    found += [MoraleTrigger(side=side, kind=TriggerKind.LEADER_DOWN, leader=t.id)
              for t in fallen if t.combatant.leadership is not None]
    return found


def pending_triggers(encounter: Encounter, side: Side | None = None) -> list[MoraleTrigger]:
    """The triggers to offer the GM now: true, not yet answered, on a side with someone who
    checks morale."""
    answered = set(encounter.timeline.morale_answered)
    seen = _triggers(encounter)
    return [t for t in seen.found if t not in answered and (side is None or t.side is side)
            and t.side in seen.checking]


# --- the check -------------------------------------------------------------------------------
class MoraleRequest(RulesValue):
    """A morale check of ``side``, answering ``triggers`` (None: those pending for the side
    when it is rolled; empty: a check the GM calls without one)."""

    model_config = ConfigDict(extra="forbid")

    side: Side
    triggers: tuple[MoraleTrigger, ...] | None = Field(None, max_length=100)

    def answering(self, encounter: Encounter) -> tuple[MoraleTrigger, ...]:
        if self.triggers is None:
            return tuple(pending_triggers(encounter, self.side))
        return self.triggers


class CreatureMorale(RulesValue):
    """One creature's check and what it does."""

    token_id: str
    name: str
    score: Breakdown
    roll: RollRecord
    level: str | None = None
    result: MoraleResult | None = None
    path: tuple[Cell, ...] = ()
    cost_ft: float = 0
    dropped: tuple[str, ...] = ()
    condition: Condition | None = None
    note: str = ""

    @property
    def failed_by(self) -> int:
        return self.roll.total - self.score.value

    @property
    def passed(self) -> bool:
        return self.failed_by <= 0

    def describe(self) -> str:
        verdict = "holds" if self.passed else f"fails by {self.failed_by} ({self.level})"
        what = f": {ACTIONS[self.result]}" if self.result else ""
        return (f"{self.name}: {self.roll.total} vs {self.score.value} — {verdict}{what}"
                + (f" — {self.note}" if self.note else ""))


#: What each result makes the creature do, in words (002's morale table).
ACTIONS = {MoraleResult.RETREAT: "retreats running",
            MoraleResult.DROP_AND_RUN: "drops its weapons and runs",
            MoraleResult.SURRENDER: "throws down its weapons, surrenders",
            MoraleResult.BERSERK: "goes berserk"}


class MoraleCheck(RulesValue):
    """A side's morale check: the triggers it answers and every creature's result."""

    side: Side
    triggers: tuple[MoraleTrigger, ...]
    creatures: tuple[CreatureMorale, ...]
    budget_ft: float

    def summary(self) -> str:
        failed = [c for c in self.creatures if not c.passed]
        side = "Party" if self.side is Side.PARTY else "Opposition"
        if not failed:
            return f"{side} morale holds ({len(self.creatures)} checked)"
        return (f"{side} morale: {len(failed)} of {len(self.creatures)} break — "
                + ", ".join(f"{c.name} {c.level}" for c in failed))


def retreat_budget_ft(encounter: Encounter) -> float:
    """The feet a runner covers now: the segments left in the round (a whole round before
    one is rolled, at least one) at ``movement_ft_per_segment`` (002 "Movement")."""
    profile = encounter.profile
    left = profile.last_attack_segment - encounter.timeline.current_segment
    return max(1, left) * profile.movement_ft_per_segment


def retreat_plans(encounter: Encounter, side: Side) -> dict[str, Retreat]:
    """Where each creature of the side that checks would run, if it ran: the preview."""
    # Imported here: the morale bar shows triggers from the first frame on, and the search
    # behind a retreat is not part of a window's start (desktop/__init__).
    from core.spatial.retreat import plan_retreats

    threats = [t.footprint for t in side_tokens(encounter, other(side)) if fighting(t.combatant)]
    return plan_retreats(encounter, [t.id for t in checkers(encounter, side)], threats,
                         retreat_budget_ft(encounter))


def morale_result(profile: RulesProfile, failed_by: int) -> tuple[str | None, MoraleResult | None]:
    """The failure level and the morale table's result for failing by ``failed_by``: a
    level without a row counts as the level below it."""
    level = profile.failure_level(failed_by)
    if level is None:
        return None, None
    rows = {row.level: row.result for row in profile.morale_results}
    names = [lvl.name for lvl in profile.failure_levels]
    below = names[:names.index(level) + 1]
    return level, next(rows[name] for name in reversed(below) if name in rows)


def resolve_morale(encounter: Encounter, request: MoraleRequest, dice: DiceSource
                   ) -> MoraleCheck:
    """Roll the side's check: one 2d10 for the side (``morale_roll`` "side") read against
    each creature's own score, or one per creature; then each failure's result."""
    profile = encounter.profile
    members = checkers(encounter, request.side)
    if not members:
        raise IllegalMoraleError(f"nobody on the {request.side.value}'s side checks morale")
    plans = retreat_plans(encounter, request.side)
    shared = None
    creatures = []
    for token in members:
        if shared is None or profile.morale_roll is MoraleRoll.CREATURE:
            shared = dice.roll(profile.morale_dice, f"morale: {_roller(token, profile)}")
        creatures.append(_creature(encounter, token, shared, plans[token.id]))
    return MoraleCheck(side=request.side, triggers=request.answering(encounter),
                       creatures=tuple(creatures), budget_ft=retreat_budget_ft(encounter))


def _roller(token: Token, profile: RulesProfile) -> str:
    if profile.morale_roll is MoraleRoll.CREATURE:
        return token.name
    return "the party" if token.combatant.side is Side.PARTY else "the opposition"


def _creature(encounter: Encounter, token: Token, roll: RollRecord, plan: Retreat
              ) -> CreatureMorale:
    check = CreatureMorale(token_id=token.id, name=token.name,
                           score=morale_score(encounter, token), roll=roll)
    level, result = morale_result(encounter.profile, check.failed_by)
    if result is None:
        return check
    note = ""
    if result is MoraleResult.SURRENDER and not plan.escapes:
        result, note = MoraleResult.BERSERK, "no way away: berserk instead of surrender"
    runs = result in RUNS
    if runs and not plan.escapes:
        note = "cornered: no way farther from the enemy"
    return check.model_copy(update={
        "level": level, "result": result, "condition": CONDITIONS[result], "note": note,
        "path": plan.cells if runs else (), "cost_ft": plan.cost_ft if runs else 0,
        "dropped": token.combatant.weapons if result in DROPS else ()})


def pass_chance(score: int, dice: str) -> Fraction:
    """P(the morale dice ≤ ``score``), exactly."""
    return sum((p for total, p in DiceExpression.parse(dice).outcomes().probabilities.items()
                if total <= score), Fraction(0))

