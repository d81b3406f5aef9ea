"""Critical events (002 "Critical events", d30): the table, and what a rolled event does.

002: "Each round a critical event will may happen when a character has the same initiative
as the opposition. The effects are applied to one side the other (rolled randomly) or
both." The side is a d3 (1 party, 2 opposition, 3 both; rules-decisions "Critical events"),
rolled for the events that affect one character, one party or one mount. The spatial events
move tokens like any move: walls, closed doors, ledges, the map's edge and other creatures
stop them, and a swap that cannot fit is reported and skipped.

Resolution is pure: :func:`resolve_critical` says which tokens end where and who is knocked
down; :mod:`core.actions.critical` applies it.

>>> critical_event(12).name
'Switch positions'
>>> len(CRITICAL_EVENTS)
30
"""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import Field

from core.model.combatant import Side
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, bearing
from core.model.round import RoundState
from core.rules.critical_effects import HANDLERS, Change, Context, Effect, changed
from core.rules.shove import step_obstacle
from core.rules.timeline import ties_with_opposition
from core.rules.value import RulesValue
from core.spatial.geometry import geometry_of

SEED = "002 Critical events"


class CriticalEvent(RulesValue):
    """One row of 002's d30 table (ditto marks resolved to the row above)."""

    number: int
    name: str
    description: str
    affects: str


_ROWS = [
    ("Armour trouble", "Small - Medium helm knocked off", "1 character"),
    ("Armour trouble", "Shield damaged ( -1 Def) (New shield required)", "1 character"),
    ("Armour trouble", "Shield dropped", "1 character"),
    ("Armour trouble", "Armour dented ( -1 Defence)(10% repair cost)", "1 character"),
    ("Weapon trouble", "Weapon dropped, disarmed.", "1 character"),
    ("Weapon trouble", "Weapon tangled, string broke.", "1 character"),
    ("Weapon trouble", "Weapon stuck in opponent", "1 character"),
    ("Battlefield damage", "Something broken, table / chair", ""),
    ("Battlefield damage", "Something broken, table / chair", ""),
    ("Battlefield shifts", "5-10 feet in random direction", "Local area"),
    ("Close quarters", "May enter unarmed combat", "Pair of combatents"),
    ("Switch positions", "Characters switch positions by 180 degrees", "Pair of combatents"),
    ("Item dropped", "Drop an item/ has it cut free", "1 character"),
    ("Item damaged", "Something on belt or backpack hit", "1 character"),
    ("Knock down", "Spend next round getting up (-5 Def)", "1 character"),
    ("Lucky break", "+d6 to defence & saves", "1 character"),
    ("Lucky opening", "+d6 to hit", "1 character"),
    ("Really lucky opening", "+d10 to hit", "1 character"),
    ("Retreat", "1 party retreats by 10'", "1 party"),
    ("Strike 2", "Another strike attempt", "1 character"),
    ("Ether flow", "+/- d6 to a spell casting attempt", "1 character"),
    ("Stymied", "No hero points this or next round", "Pair of characters"),
    ("Hero point", "Additional hero point (must be used this round)", "1 party"),
    ("Clash", "Both combatents hit", "Pair of combatents"),
    ("Befuddled", "If attacked; no skill action next round", "1 character"),
    ("Wild opening", "Both combatents critical(hit for double damage)", "Pair of combatents"),
    ("Shield clash", "Both combatents miss", "Pair of combatents"),
    ("Mount trouble", "Rears - Hard skill attempt to stay on.", "1 mount"),
    ("Mount trouble", "Bolts - Average skill attempt to stay on.", "1 mount"),
    ("Nothing happens", "", ""),
]

CRITICAL_EVENTS: tuple[CriticalEvent, ...] = tuple(
    CriticalEvent(number=n, name=name, description=text, affects=affects)
    for n, (name, text, affects) in enumerate(_ROWS, start=1))


def critical_event(number: int) -> CriticalEvent:
    """The d30 row ``number`` (1-30); ValueError otherwise."""
    if not 1 <= number <= len(CRITICAL_EVENTS):
        raise ValueError(f"critical event {number} is not on the d30 table")
    return CRITICAL_EVENTS[number - 1]


class AffectedSide(StrEnum):
    """The d3 of rules-decisions "Critical events": 1 party, 2 opposition, 3 both."""

    PARTY = "party"
    OPPOSITION = "opposition"
    BOTH = "both"


#: Rows whose "Affects" names one subject: the side it falls on is rolled.
ONE_SIDED = ("1 character", "1 party", "1 mount")
#: Rows that help whoever they fall on (lucky break, lucky openings, strike 2, hero point).
BOONS = frozenset({16, 17, 18, 20, 23})


class CriticalResult(RulesValue):
    """A rolled critical event: who it falls on, where tokens end up, who goes Prone, what
    else changes (:mod:`core.rules.critical_effects`); ``declined`` when the GM turned its
    effect down (it is logged, nothing changes)."""

    event: CriticalEvent
    pair: tuple[str, str]
    rolls: tuple[RollRecord, ...]
    side: AffectedSide | None = None
    moves: dict[str, Cell] = Field(default={})
    knocked_down: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    note: str
    declined: bool = False

    @property
    def summary(self) -> str:
        return f"Critical event {self.event.number}: {self.event.name}"

    @property
    def acts(self) -> bool:
        """Whether it changes anything on the map (else it is only a note)."""
        return bool(self.moves or self.knocked_down or self.changes)

    def declined_copy(self) -> CriticalResult:
        """The event as the GM declined it: logged, nothing applied."""
        return self.model_copy(update={"declined": True, "moves": {}, "knocked_down": (),
                                       "changes": (), "note": f"{self.note} — declined by "
                                                              "the GM"})


def roll_critical_events(encounter: Encounter, state: RoundState, dice: DiceSource,
                         declined: frozenset[int] = frozenset()) -> list[CriticalResult]:
    """One d30 for each party character whose segment equals an opposition creature's,
    paired with the nearest such creature (interpretation of 002 "when a character has the
    same initiative as the opposition"). Each event sees the map as the earlier ones left
    it. The events numbered in ``declined`` (1 = the first rolled) are turned down by the GM:
    rolled and logged, not applied."""
    pairs = _nearest_foes(encounter, ties_with_opposition(state))
    results: list[CriticalResult] = []
    scratch = encounter.scratch_copy() if len(pairs) > 1 else encounter
    for index, pair in enumerate(pairs, start=1):
        result = resolve_critical(scratch, pair, dice)
        if index in declined:
            result = result.declined_copy()
        results.append(result)
        if len(pairs) > 1:
            _carry_out(scratch, result)
    return results


def _nearest_foes(encounter: Encounter, ties: list[tuple[str, str]]) -> list[tuple[str, str]]:
    nearest: dict[str, str] = {}
    for party_id, foe_id in ties:
        here = encounter.token(party_id).footprint
        best = nearest.get(party_id)
        if best is None or here.gap(encounter.token(foe_id).footprint) < here.gap(
                encounter.token(best).footprint):
            nearest[party_id] = foe_id
    return list(nearest.items())


def _carry_out(encounter: Encounter, result: CriticalResult) -> None:
    """Move the tokens and change the creatures on a scratch copy, so the next event
    starts from there."""
    encounter.put_tokens([encounter.token(t).at(c) for t, c in result.moves.items()])
    for change in result.changes:
        token = encounter.token(change.token_id)
        encounter.put_token(token.with_combatant(changed(token.combatant, change)))


def resolve_critical(encounter: Encounter, pair: tuple[str, str], dice: DiceSource,
                     benefits: str | None = None) -> CriticalResult:
    """Roll the d30 (then the d3 side, then the event's own dice) for the tied pair
    (party character, opposition creature). An event that must benefit one of the pair (a
    fumble's opponent, 002 "Fumble") rolls no side: a boon falls on ``benefits``, any other
    one-sided event on the other of the pair."""
    roll = dice.roll(encounter.profile.critical_event_die, "critical event")
    event = critical_event(roll.total)
    rolls = [roll]
    side = None
    if event.affects in ONE_SIDED:
        side = (_roll_side(dice, rolls, encounter.profile.critical_side_die)
                if benefits is None else _side_helping(pair, event, benefits))
    context = Context(encounter, pair, dice, rolls, _on_side(pair, side))
    effect = _handle(context, event)
    return CriticalResult(event=event, pair=pair, rolls=tuple(rolls), side=side,
                          moves=effect.moves, knocked_down=effect.knocked_down,
                          changes=effect.changes, note=effect.note)


def _handle(context: Context, event: CriticalEvent) -> Effect:
    """The row's effect: on the map (:data:`_HANDLERS`), on the creatures
    (:data:`core.rules.critical_effects.HANDLERS`), or a note for the GM to play."""
    if event.number in _HANDLERS:
        return _HANDLERS[event.number](context, event)
    if event.number in HANDLERS:
        effect = HANDLERS[event.number](context, event.number)
        return Effect(f"{event.description} — {effect.note}", changes=effect.changes)
    return _note_only(context, event)


def _on_side(pair: tuple[str, str], side: AffectedSide | None) -> list[str]:
    """The pair members on the rolled side (both when no side was rolled)."""
    party, foe = pair
    return {AffectedSide.PARTY: [party], AffectedSide.OPPOSITION: [foe]}.get(
        side or AffectedSide.BOTH, [party, foe])


def _side_helping(pair: tuple[str, str], event: CriticalEvent, benefits: str) -> AffectedSide:
    """The side an event lands on so that it benefits ``benefits``."""
    lands_on = benefits if event.number in BOONS else next(
        (token for token in pair if token != benefits), benefits)
    return AffectedSide.PARTY if lands_on == pair[0] else AffectedSide.OPPOSITION


def _roll_side(dice: DiceSource, rolls: list[RollRecord], die: str) -> AffectedSide:
    """RD: 'the side affected is rolled on a d3 (1 party, 2 opposition, 3 both)' (the
    profile's ``critical_side_die``; a larger die counts round again: 4 party ...)."""
    roll = dice.roll(die, "side affected (1 party, 2 opposition, 3 both)")
    rolls.append(roll)
    return list(AffectedSide)[(roll.total - 1) % len(AffectedSide)]


def _note_only(context: Context, event: CriticalEvent) -> Effect:
    """Events the GM plays out: the log says what happened to whom."""
    if not event.description:
        return Effect(event.name)
    return Effect(f"{event.description} — {context.names(context.affected())}")


def _knock_down(context: Context, event: CriticalEvent) -> Effect:
    """Event 15 "Knock down: Spend next round getting up (-5 Def)": Prone."""
    down = context.affected()
    return Effect(f"{context.names(down)} knocked down: Prone, spend next round getting up "
                  "(-5 Def)", knocked_down=tuple(down))


def _shift(context: Context, event: CriticalEvent) -> Effect:
    """Event 10 "Battlefield shifts 5-10 feet in random direction": d8 direction (1 = N,
    clockwise) and d2 × 5 ft (the profile's ``shift_direction_die``, ``shift_distance_die``,
    ``shift_ft_per_point``); the tied pair is the local area (interpretation)."""
    profile = context.encounter.profile
    rolled = context.roll(profile.shift_direction_die, "battlefield shift direction")
    direction = list(Direction)[(rolled - 1) % len(Direction)]
    feet = context.roll(profile.shift_distance_die,
                        f"battlefield shift ×{profile.shift_ft_per_point} ft"
                        ) * profile.shift_ft_per_point
    steps = max(1, feet // profile.cell_size_ft)
    dx, dy = direction.delta
    lead = sorted(context.pair, key=lambda i: -_along(context.encounter.token(i), dx, dy))
    moves, halted = _walk_all(context.encounter, [(i, direction) for i in lead], steps)
    return Effect(f"battlefield shifts {feet} ft {direction.value}"
                  + _stopped(context, moves, halted, lead), moves)


def _along(token: Token, dx: int, dy: int) -> int:
    return token.x * dx + token.y * dy


def _retreat(context: Context, event: CriticalEvent) -> Effect:
    """Event 19 "1 party retreats by 10'" (``critical_retreat_ft``): each token of the side
    steps that far away from the other side's centre, as far as legal (farthest first, so
    the rest can close up)."""
    encounter = context.encounter
    sides = sorted({encounter.token(i).combatant.side for i in context.affected()},
                   key=list(Side).index)
    feet = encounter.profile.critical_retreat_ft
    steps = max(1, feet // encounter.profile.cell_size_ft)
    plan: list[tuple[str, Direction]] = []
    for side in sides:
        plan += _away_from_foes(encounter, side)
    moves, halted = _walk_all(encounter, plan, steps)
    names = " and ".join(f"the {side.value}" for side in sides)
    return Effect(f"{names} retreat{'s' if len(sides) == 1 else ''} {feet} ft"
                  + _stopped(context, moves, halted, [i for i, _ in plan]), moves)


def _away_from_foes(encounter: Encounter, side: Side) -> list[tuple[str, Direction]]:
    ours = [t for t in encounter.tokens if t.combatant.side is side]
    theirs = [t for t in encounter.tokens if t.combatant.side is not side]
    if not theirs:
        return []
    cx = sum(t.footprint.centre[0] for t in theirs) / len(theirs)
    cy = sum(t.footprint.centre[1] for t in theirs) / len(theirs)
    ours.sort(key=lambda t: -_distance(t.footprint.centre, (cx, cy)))
    return [(t.id, Direction.from_bearing(bearing((cx, cy), t.footprint.centre))) for t in ours]


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2)


def _walk_all(encounter: Encounter, plan: list[tuple[str, Direction]], steps: int
              ) -> tuple[dict[str, Cell], dict[str, str]]:
    """Move each token of ``plan`` in turn up to ``steps`` cells its way; walls, closed
    doors, ledges, the map's edge and creatures (where they already stand) stop it, and so
    does a hazard it is not already in (as for a swap: only forced movement enters one,
    with the Pit-Stop save). The new cells, and the hazard that stopped each token."""
    scratch = encounter.scratch_copy()
    moves: dict[str, Cell] = {}
    halted: dict[str, str] = {}
    for token_id, direction in plan:
        token = scratch.token(token_id)
        here = token.footprint
        for _ in range(steps):
            there = here.moved(direction)
            if step_obstacle(scratch, token, here, there, direction) is not None:
                break
            hazard = _hazard_under(scratch, there, here)
            if hazard is not None:
                halted[token_id] = hazard
                break
            here = there
        if here != token.footprint:
            scratch.put_token(token.at(Cell(here.x, here.y)))
            moves[token_id] = Cell(here.x, here.y)
    return moves, halted


def _stopped(context: Context, moves: dict[str, Cell], halted: dict[str, str],
             ids: list[str]) -> str:
    """Who could not move at all, and who a hazard stopped (" (Mira cannot move that way;
    Pip stops before Brazier fire)")."""
    held = [i for i in ids if i not in moves and i not in halted]
    parts = [f"{context.names(held)} cannot move that way"] if held else []
    for hazard in dict.fromkeys(halted[i] for i in ids if i in halted):
        stopped = [i for i in ids if halted.get(i) == hazard]
        verb = "stops" if len(stopped) == 1 else "stop"
        parts.append(f"{context.names(stopped)} {verb} before {hazard}")
    return f" ({'; '.join(parts)})" if parts else ""


def _switch(context: Context, event: CriticalEvent) -> Effect:
    """Event 12 "Characters switch positions by 180 degrees": each takes the other's place,
    centred where the other stood; skipped when either would not fit there or a wall lies
    between (rules-decisions "Critical events")."""
    encounter = context.encounter
    a, b = (encounter.token(i) for i in context.pair)
    cells = _swapped(a, b)
    problem = _swap_problem(encounter, (a, b), cells)
    if problem:
        return Effect(f"{a.name} and {b.name} cannot switch positions: {problem}")
    return Effect(f"{a.name} and {b.name} switch positions", {a.id: cells[0], b.id: cells[1]})


def _swapped(a: Token, b: Token) -> tuple[Cell, Cell]:
    """Top-left cells putting each footprint's centre on the other's, or as near as the grid
    allows (a Large and a Medium creature's centres are half a cell apart)."""
    return _anchor(a.footprint, b.footprint.centre), _anchor(b.footprint, a.footprint.centre)


def _anchor(footprint: Footprint, goal: tuple[float, float]) -> Cell:
    """The top-left cell whose footprint centre is nearest ``goal``; between equally near
    ones, the one farthest along the way from where the footprint stands."""
    (x0, y0), half = footprint.centre, footprint.size / 2
    way = (goal[0] - x0, goal[1] - y0)
    xs = {math.floor(goal[0] - half), math.ceil(goal[0] - half)}
    ys = {math.floor(goal[1] - half), math.ceil(goal[1] - half)}

    def rank(cell: Cell) -> tuple[float, float]:
        cx, cy = cell.x + half, cell.y + half
        return ((cx - goal[0]) ** 2 + (cy - goal[1]) ** 2,
                -((cx - x0) * way[0] + (cy - y0) * way[1]))

    return min((Cell(x, y) for x in sorted(xs) for y in sorted(ys)), key=rank)


def _swap_problem(encounter: Encounter, pair: tuple[Token, Token], cells: tuple[Cell, Cell]
                  ) -> str | None:
    moved = [token.at(cell) for token, cell in zip(pair, cells, strict=True)]
    problem = encounter.placement_problem(moved)
    if problem:
        return problem
    geometry = geometry_of(encounter)
    for token, new in zip(pair, moved, strict=True):
        if geometry.footprint_split(new.footprint):
            return f"a wall runs through the space {token.name} would take"
        if geometry.first_blocking_wall((*token.footprint.centre, *new.footprint.centre)):
            return f"a wall stands between {token.name} and its new place"
        hazard = _hazard_under(encounter, new.footprint, token.footprint)
        if hazard:
            return f"{token.name} would land in {hazard}"
    return None


def _hazard_under(encounter: Encounter, there: Footprint, here: Footprint) -> str | None:
    """A hazard under ``there`` that ``here`` is not already in (a swap never drops a
    creature into a pit or a fire; only forced movement does, with the Pit-Stop save)."""
    geometry = geometry_of(encounter)
    inside = {h.name for c in here.cells() if (h := geometry.hazard_at(c))}
    for cell in there.cells():
        hazard = geometry.hazard_at(cell)
        if hazard is not None and hazard.name not in inside:
            return hazard.name
    return None


_HANDLERS = {10: _shift, 12: _switch, 15: _knock_down, 19: _retreat}
