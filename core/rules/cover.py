"""Cover on the map as a rule (002 "Cover & concealment"; rules-decisions "Cover from the map"
and "Clarifications for cover, missiles and manoeuvres").

- 002: "A bonus of +1 is give to the defence for each 20% of cover" and its table (Buckler
  10 % +1, Medium shield 40 % +2, Wall 60 % +3, Large shield 75 % +4, Arrow slit >95 % +10):
  the bonus is ⌈cover % / 20⌉ (``cover_step_percent``, ``cover_bonus_per_20_percent``), and a
  target whose visible share is above 0 and at most 5 % (``arrow_slit_visible_percent``) is
  behind an arrow slit: ``arrow_slit_bonus`` (+10). Nothing visible: no line of fire.
- The share hidden is measured on the map (:func:`core.spatial.cover.cover_shape`): walls,
  closed doors, objects and creatures between, from the attacker's cell nearest the target.
- 002: "Concealment is where ... bushes or other undergrowth. Once spotted concealment
  typically equates to 20% cover": undergrowth in the target's cells or on the line of fire
  adds ``concealment_percent`` (capped at 100 %); it never stops a missile.
- 002 "Missile fire into combat": "The opponent gains a defence bonus of "2 + cover %"
  according to the percentage covered by the friend" — a friend of the attacker adjacent
  to the target whose square the line of fire crosses: ``into_melee_bonus`` (2) + the bonus
  of the share it hides, counted once (as the friend's share, not again as cover).
- The GM may override the computed figure.

>>> from core.model.profile import RulesProfile
>>> [cover_bonus(p, RulesProfile()) for p in (10, 40, 60, 75, 100)]  # 002's table
[1, 2, 3, 4, 5]
"""

from __future__ import annotations

import math

import numpy as np

from core.model.breakdown import Term
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.profile import RulesProfile
from core.rules.value import RulesValue
from core.spatial.cover import (
    CoverShape,
    Point,
    Segment,
    Shadow,
    convex_hull,
    cover_shape,
    crossed_cells,
    crowd_of,
    origin_cell,
    segments_meeting_hull,
)
from core.spatial.geometry import geometry_of

SEED = "002 Cover & concealment"
VISIBLE_EPS = 1e-9


class Blocker(RulesValue):
    """Something that hides part of the target, and how much (percent of its footprint)."""

    kind: str
    label: str
    percent: float
    segment: Segment | None = None
    token_id: str | None = None


class CoverReport(RulesValue):
    """The target's cover against one attacker: the percentage, the bonus and why."""

    attacker_id: str
    target_id: str
    origin: Point
    aim: Point
    visible_percent: float
    percent: int
    bonus: int
    arrow_slit: bool
    line_of_fire: bool
    concealment: int = 0
    concealing: tuple[Cell, ...] = ()
    blockers: tuple[Blocker, ...] = ()
    friend_id: str | None = None
    friend_name: str = ""
    friend_percent: int = 0
    friend_bonus: int = 0
    overridden: bool = False
    hidden: tuple[tuple[Point, ...], ...] = ()

    def terms(self) -> tuple[Term, ...]:
        """The defence terms: the cover (or arrow slit) and firing into melee."""
        terms = []
        if self.arrow_slit:
            terms.append(Term(f"Arrow slit ({self.visible_percent:.1f}% visible)", self.bonus,
                              f"{SEED}: Arrow Slit >95% +10"))
        elif self.bonus:
            terms.append(Term(f"Cover {self.percent}%", self.bonus,
                              f"{SEED}: +1 per 20% of cover"))
        if self.friend_id is not None:
            terms.append(Term(f"Firing into melee past {self.friend_name} "
                              f"({self.friend_percent}%)", self.friend_bonus,
                              "002 Missile fire into combat: 2 + cover %"))
        return tuple(terms)

    def describe(self) -> str:
        """One line: the percentage, the bonus and what casts it."""
        if not self.line_of_fire:
            return f"hidden by {self._casts()}"
        what = "arrow slit" if self.arrow_slit else f"{self.percent}%"
        text = f"{what} (+{self.bonus})" + (" — set by the GM" if self.overridden else "")
        if self.percent and not self.overridden:
            text += f": {self._casts()}"
        if self.friend_id is not None:
            text += (f"; firing into melee past {self.friend_name} ({self.friend_percent}%): "
                     f"the target's AC +{self.friend_bonus}")
        return text

    def _casts(self) -> str:
        parts = [f"{b.label} {b.percent:.0f}%" for b in self.blockers
                 if b.token_id is None or b.token_id != self.friend_id]
        if self.concealment:
            parts.append(f"undergrowth +{self.concealment}%")
        return ", ".join(parts) or "nothing"


def cover_bonus(percent: int, profile: RulesProfile) -> int:
    """⌈percent / 20⌉ × 1 (002: "+1 ... for each 20% of cover"; RD reads its table)."""
    return math.ceil(percent / profile.cover_step_percent) * profile.cover_bonus_per_20_percent


def cover_on_map(encounter: Encounter, attacker_key: str, target_key: str,
                 override: int | None = None) -> CoverReport:
    """The target's cover from the attacker, measured on the map (``override``: the GM's
    percentage instead of the walls' and creatures' share and the concealment)."""
    attacker, target = encounter.token(attacker_key), encounter.token(target_key)
    if attacker.id == target.id:
        raise ValueError(f"{attacker.name} cannot take cover from itself")
    start = origin_cell(attacker.footprint, target.footprint)
    origin = (start.x + 0.5, start.y + 0.5)
    shape = cover_shape(geometry_of(encounter), origin, target.footprint, crowd_of(encounter),
                        frozenset({attacker.id, target.id}))
    seen = shape.visible > 0
    friend = _friend_in_the_way(encounter, attacker, target, shape) if seen else None
    friend_share = sum(s.share for s in shape.shadows if friend and s.token_id == friend.id)
    concealing = _concealing(encounter, attacker, target, origin) if seen else ()
    return _report(encounter, (attacker, target, friend), shape, concealing,
                   (friend_share, override))


def _report(encounter: Encounter, tokens: tuple[Token, Token, Token | None],
            shape: CoverShape, concealing: tuple[Cell, ...],
            shares: tuple[float, int | None]) -> CoverReport:
    profile = encounter.profile
    attacker, target, friend = tokens
    friend_share, override = shares
    concealment = profile.concealment_percent if concealing else 0
    if override is None:
        uncovered = 100 * (shape.visible + friend_share)  # the friend counts once, not here
        percent = min(100, round(100 - uncovered) + concealment)
        visible = 100 * shape.visible
    else:
        percent, visible = override, float(100 - override)
        uncovered = visible
    line_of_fire = visible > VISIBLE_EPS
    slit = line_of_fire and uncovered <= profile.arrow_slit_visible_percent + VISIBLE_EPS
    friend_percent = round(100 * friend_share)
    return CoverReport(
        attacker_id=attacker.id, target_id=target.id, origin=shape.origin,
        aim=target.footprint.centre, visible_percent=visible, percent=percent,
        bonus=profile.arrow_slit_bonus if slit else cover_bonus(percent, profile),
        arrow_slit=slit, line_of_fire=line_of_fire,
        concealment=concealment if override is None else 0, concealing=concealing,
        blockers=tuple(_blocker(encounter, s) for s in shape.shadows),
        friend_id=friend.id if friend else None, friend_name=friend.name if friend else "",
        friend_percent=friend_percent,
        friend_bonus=(profile.into_melee_bonus + cover_bonus(friend_percent, profile)
                      if friend else 0),
        overridden=override is not None, hidden=shape.hidden)


def _blocker(encounter: Encounter, shadow: Shadow) -> Blocker:
    percent = 100 * shadow.share
    if shadow.token_id is not None:
        label = encounter.token(shadow.token_id).name
        return Blocker(kind="creature", label=label, percent=percent, token_id=shadow.token_id)
    assert shadow.segment is not None
    x1, y1, x2, y2 = shadow.segment
    kind = "closed door" if shadow.kind == "door" else shadow.kind
    return Blocker(kind=shadow.kind, label=f"{kind} ({x1:g},{y1:g})-({x2:g},{y2:g})",
                   percent=percent, segment=shadow.segment)


def _friend_in_the_way(encounter: Encounter, attacker: Token, target: Token,
                       shape: CoverShape) -> Token | None:
    """RD: "a friend adjacent to the target whose footprint the line of fire crosses"; of
    several, the one hiding the most."""
    line = np.array([[*shape.origin, *target.footprint.centre]])
    shares = {s.token_id: s.share for s in shape.shadows if s.token_id}
    friends = [t for t in encounter.neighbours(target, 1)
               if t.combatant.side is attacker.combatant.side and t.id != attacker.id
               and segments_meeting_hull(line, convex_hull(_corners(t)))[0]]
    return max(friends, key=lambda t: shares.get(t.id, 0.0), default=None)


def _corners(token: Token) -> np.ndarray:
    x, y, size = token.footprint
    return np.array([[x, y], [x + size, y], [x + size, y + size], [x, y + size]], dtype=float)


def _concealing(encounter: Encounter, attacker: Token, target: Token, origin: Point
                ) -> tuple[Cell, ...]:
    """Undergrowth cells in the target's footprint or on the line of fire (not the
    attacker's own)."""
    conceals = geometry_of(encounter).conceals
    if not conceals.any():
        return ()
    xs, ys = crossed_cells(origin, target.footprint.centre)
    x, y, size = target.footprint
    xs = np.concatenate([xs, np.tile(np.arange(x, x + size), size)])
    ys = np.concatenate([ys, np.repeat(np.arange(y, y + size), size)])
    height, width = conceals.shape
    ax, ay, own = attacker.footprint
    keep = ((xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
            & ~((xs >= ax) & (xs < ax + own) & (ys >= ay) & (ys < ay + own)))
    xs, ys = xs[keep], ys[keep]
    hidden = conceals[ys, xs]
    return tuple(dict.fromkeys(Cell(cx, cy) for cx, cy in
                               zip(xs[hidden].tolist(), ys[hidden].tolist(), strict=True)))
