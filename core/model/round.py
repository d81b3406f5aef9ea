"""The round's state saved with the encounter: initiative entries, timers (002 "Initiative").

The rules that fill it in are :mod:`core.rules.timeline`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from enum import StrEnum
from typing import Annotated, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from core.model.breakdown import Breakdown
from core.model.combatant import Condition, Side
from core.model.dice import RollRecord
from core.model.grid import Cell
from core.model.limits import (
    MAX_FEET,
    MAX_ROUND,
    MAX_SEGMENT,
    MAX_TERM,
    MAX_TIMERS,
    MAX_TOKENS,
    Bonus,
    Lines,
    Segment,
    at_most,
)
from core.model.melee import AcPenalty, Hold, check_cell, check_walk
from core.model.morale import MoraleTrigger

MAX_PATH_CELLS = 10_000
MAX_ACTIONS = 20  # actions one creature takes in a round
MAX_EXTRA_ATTACKS = 9  # declared beyond the first (002 "Multiple Attacks")
MAX_HOLDS = MAX_TOKENS
MAX_FREE_ATTACKS = 20 * MAX_TOKENS  # one per failure level (at most 20) per character
MAX_WATCHES = 10 * MAX_TOKENS
T = TypeVar("T")


class InitiativeEntry(BaseModel):
    """One token's place in the round. ``roll`` is None for the opposition, whose single
    shared roll is :attr:`RoundState.opposition_roll` (002: "one general roll for the
    opposition")."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    token_id: str
    side: Side = Side.PARTY
    roll: RollRecord | None = None
    terms: Breakdown = Breakdown()
    segment: Segment = 0
    overridden: bool = False
    scarpering: bool = False
    aiming: bool = False
    attack_bonus: Bonus = 0
    defence_bonus: Bonus = 0
    action_segments: int = Field(1, ge=1, le=MAX_SEGMENT)
    moved_ft: float = Field(0, ge=0, le=MAX_FEET)
    path: Annotated[tuple[Cell, ...], at_most(MAX_PATH_CELLS, "path cells")] = Field(
        (), description="Cells walked this round (joined moves): a charge's run")
    no_action: Lines = Field("", max_length=200,
                           description="Why the combatant takes no action this round")
    getting_up: bool = Field(False, description="Prone: spends this round getting up")
    actions_taken: int = Field(0, ge=0, le=MAX_ACTIONS,
                               description="Attacks and manoeuvres made this round")
    extra_attacks: int = Field(0, ge=0, le=MAX_EXTRA_ATTACKS,
                               description="Attacks declared beyond the first (002 Multiple "
                                           "Attacks: −3 each and to its defence)")
    bonus_strikes: int = Field(0, ge=0, le=MAX_EXTRA_ATTACKS,
                               description="Extra attacks a critical event gave (20, Strike "
                                           "2: no multiple-attack penalty)")
    stands_to_defend: bool = Field(False, description="Declared: no attack, +2 defence against "
                                                      "melee (002 Not attacking)")
    notes: Annotated[tuple[Lines, ...], at_most(100, "notes")] = ()

    @field_validator("path")
    @classmethod
    def _path_walks(cls, path: tuple[Cell, ...]) -> tuple[Cell, ...]:
        return check_walk(path)

    @property
    def actions_allowed(self) -> int:
        """The actions it has this round: one, the extra attacks it declared (002 "Multiple
        Attacks") and those a critical event gave (20, "Strike 2")."""
        return 1 + self.extra_attacks + self.bonus_strikes

    @field_validator("terms")
    @classmethod
    def _terms_bounded(cls, terms: Breakdown) -> Breakdown:
        """Bounded here, where a file supplies them (the rules' own terms are not capped)."""
        if len(terms.terms) > 100:
            raise ValueError(f"{len(terms.terms)} terms; at most 100")
        for term in terms.terms:
            if abs(term.value) > MAX_TERM:
                raise ValueError(f"term {term.name[:40]!r} is {term.value}, beyond "
                                 f"±{MAX_TERM:,}")
        return terms


class ConditionTimer(BaseModel):
    """A condition that ends by itself after ``rounds`` more round ends."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str
    condition: Condition
    rounds: int = Field(ge=1, le=MAX_ROUND)


class PopUp(BaseModel):
    """A creature that popped up from cover at ``spot`` (its top-left cell there) to shoot
    in round ``round_number`` (002 "Pop-up missile shots"). :class:`Waiting` has the same
    shape: a creature waiting, in that round, for a foe to pop up at ``spot`` — only such
    creatures may shoot at one that pops up there."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str = Field(max_length=60)
    spot: Cell
    round_number: int = Field(ge=0, le=MAX_ROUND)

    @field_validator("spot")
    @classmethod
    def _on_a_map(cls, cell: Cell) -> Cell:
        return check_cell(cell)


class Waiting(PopUp):
    """A creature waiting for a foe to pop up at ``spot`` (see :class:`PopUp`)."""


class ScheduledAttack(BaseModel):
    """A surprise free attack scheduled on the timeline (002 "Surprise"; RD "Shielding the
    surprised"): ``ambusher`` strikes ``target`` at ``segment`` with its bonuses. ``lost``:
    past the round's last attack segment. Made: ``made``; cancelled by an unsurprised
    creature engaging the ambusher first: ``cancelled_by`` (its token id) at
    ``cancelled_at`` (the segment of its attack)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ambusher: str = Field(max_length=60)
    target: str = Field(max_length=60)
    number: int = Field(ge=1, le=MAX_SEGMENT)
    segment: Segment
    hit_bonus: int = Field(0, ge=-MAX_TERM, le=MAX_TERM)  # a profile's bonus × up to 20 levels
    damage_bonus: int = Field(0, ge=-MAX_TERM, le=MAX_TERM)
    lost: bool = False
    made: bool = False
    cancelled_by: str | None = Field(None, max_length=60)
    cancelled_at: Segment | None = None

    @property
    def pending(self) -> bool:
        """Still to be made: not lost, made or cancelled."""
        return not (self.lost or self.made or self.cancelled_by)


class WatchKind(StrEnum):
    """How a creature follows another's long action (002 "Spoiling attacks")."""

    CONCENTRATING = "concentrating"  # declared: "concentrating upon and waiting for"
    NOTICED = "noticed"  # a perception roll that succeeded
    MISSED = "missed"  # a perception roll that failed (one roll a segment)


class Watch(BaseModel):
    """``token_id`` concentrates on, noticed or failed to notice ``target`` at ``segment``
    this round (002 "Spoiling attacks": "If you are not concentrating then a perception roll
    must be made to notice the movements of the caster")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_id: str = Field(max_length=60)
    target: str = Field(max_length=60)
    segment: Segment
    kind: WatchKind


class RoundState(BaseModel):
    """Where the fight is: round, segment, everyone's initiative, running timers."""

    model_config = ConfigDict(extra="forbid")

    round_number: int = Field(0, ge=0, le=MAX_ROUND)
    current_segment: Segment = 0
    entries: Annotated[list[InitiativeEntry], at_most(MAX_TOKENS, "entries")] = Field(
        default=[])
    opposition_roll: RollRecord | None = None
    timers: Annotated[list[ConditionTimer], at_most(MAX_TIMERS, "timers")] = Field(
        default=[])
    aimed_last_round: Annotated[list[str], at_most(MAX_TOKENS, "tokens")] = Field(
        default=[])
    declaration_seconds: int = Field(120, ge=0, le=86_400)
    holds: Annotated[list[Hold], at_most(MAX_HOLDS, "holds")] = Field(default=[])
    ac_penalties: Annotated[list[AcPenalty], at_most(MAX_TIMERS, "AC penalties")] = Field(
        default=[])
    morale_answered: Annotated[list[MoraleTrigger], at_most(MAX_TIMERS, "morale triggers")] = \
        Field(default=[], description="Morale triggers checked or passed over")
    pop_ups: Annotated[list[PopUp], at_most(MAX_TOKENS, "pop-ups")] = Field(
        default=[])
    waiting: Annotated[list[Waiting], at_most(MAX_TOKENS, "waiting")] = Field(
        default=[])
    free_attacks: Annotated[list[ScheduledAttack], at_most(MAX_FREE_ATTACKS, "free attacks")] = \
        Field(default=[], description="Surprise free attacks scheduled this round")
    watches: Annotated[list[Watch], at_most(MAX_WATCHES, "watches")] = Field(
        default=[], description="Concentrating on, or perception rolls against, "
                                          "long actions this round")

    # What the round keeps one of is kept once: the actions add no twin, so these lists'
    # caps are never reached in play (at most 2,202 triggers differ, 7,000 timers, two
    # lowered guards per creature), where a file of twins let one ruling take them past.
    _triggers_once = field_validator("morale_answered")(
        lambda items: _once(items, lambda t: t, "trigger"))
    _timers_once = field_validator("timers")(
        lambda items: _once(items, lambda t: (t.token_id, t.condition), "timer"))
    _marks_once = field_validator("pop_ups", "waiting")(
        lambda items: _once(items, lambda m: (m.token_id, m.round_number), "mark"))
    _free_attacks_once = field_validator("free_attacks")(
        lambda items: _once(items, lambda a: (a.ambusher, a.target, a.number), "free attack"))
    _watches_once = field_validator("watches")(
        lambda items: _once(items, lambda w: (w.token_id, w.target, w.segment, w.kind),
                            "watch"))

    @field_validator("ac_penalties")
    @classmethod
    def _guards_once(cls, penalties: list[AcPenalty], info: ValidationInfo
                     ) -> list[AcPenalty]:
        """One per creature and round, lasting until the creature's next action."""
        last = info.data.get("round_number", 0) + 1
        late = next((p for p in penalties if p.until_round > last), None)
        if late is not None:
            raise ValueError(f"a lowered guard lasts until its creature's next action, not "
                             f"until round {late.until_round}")
        return _once(penalties, lambda p: (p.token_id, p.until_round), "lowered guard")

    def stray_token(self, token_ids: set[str]) -> str | None:
        """Where the round names a token not in ``token_ids``, as a message; else None."""
        named = [(f"timeline.entries.{i}.token_id", entry.token_id)
                 for i, entry in enumerate(self.entries)]
        named += [(f"timeline.timers.{i}.token_id", timer.token_id)
                  for i, timer in enumerate(self.timers)]
        named += [(f"timeline.aimed_last_round.{i}", token_id)
                  for i, token_id in enumerate(self.aimed_last_round)]
        named += [(f"timeline.holds.{i}.{role}", getattr(hold, role))
                  for i, hold in enumerate(self.holds) for role in ("holder", "held")]
        named += [(f"timeline.ac_penalties.{i}.token_id", penalty.token_id)
                  for i, penalty in enumerate(self.ac_penalties)]
        named += [(f"timeline.morale_answered.{i}.leader", trigger.leader)
                  for i, trigger in enumerate(self.morale_answered) if trigger.leader]
        named += [(f"timeline.{kind}.{i}.token_id", mark.token_id)
                  for kind in ("pop_ups", "waiting") for i, mark in enumerate(getattr(self, kind))]
        named += [(f"timeline.free_attacks.{i}.{role}", token_id)
                  for i, attack in enumerate(self.free_attacks)
                  for role, token_id in (("ambusher", attack.ambusher),
                                         ("target", attack.target),
                                         ("cancelled_by", attack.cancelled_by)) if token_id]
        named += [(f"timeline.watches.{i}.{role}", getattr(watch, role))
                  for i, watch in enumerate(self.watches) for role in ("token_id", "target")]
        for where, token_id in named:
            if token_id not in token_ids:
                return f"{where}: no token has the id {token_id[:60]!r}"
        return None

    def without_token(self, token_id: str) -> RoundState:
        """A copy that no longer mentions ``token_id``: its initiative, timers, aim, holds,
        lowered guard, its fall as a leader, pop-up and waiting, the surprise free attacks and
        the watches it takes part in."""
        return self.model_copy(update={
            "entries": [e for e in self.entries if e.token_id != token_id],
            "timers": [t for t in self.timers if t.token_id != token_id],
            "aimed_last_round": [i for i in self.aimed_last_round if i != token_id],
            "holds": [h for h in self.holds if token_id not in (h.holder, h.held)],
            "ac_penalties": [p for p in self.ac_penalties if p.token_id != token_id],
            "morale_answered": [t for t in self.morale_answered if t.leader != token_id],
            "pop_ups": [p for p in self.pop_ups if p.token_id != token_id],
            "waiting": [w for w in self.waiting if w.token_id != token_id],
            "free_attacks": [a for a in self.free_attacks
                             if token_id not in (a.ambusher, a.target, a.cancelled_by)],
            "watches": [w for w in self.watches if token_id not in (w.token_id, w.target)]})

    def entry(self, token_id: str) -> InitiativeEntry:
        for entry in self.entries:
            if entry.token_id == token_id:
                return entry
        raise KeyError(f"{token_id!r} has no initiative this round")

    def replace_entry(self, new: InitiativeEntry) -> None:
        self.entries = [new if e.token_id == new.token_id else e for e in self.entries]


def _once(items: list[T], key: Callable[[T], Hashable], noun: str) -> list[T]:
    """``items``; ValueError naming the first whose key an earlier one has."""
    seen: set[Hashable] = set()
    for index, item in enumerate(items):
        if key(item) in seen:
            raise ValueError(f"item {index} is the same {noun} as an earlier one")
        seen.add(key(item))
    return items


