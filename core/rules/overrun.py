"""Overruns (002 "Overruns": "It is possible for creatures to force themselves past others
by charging at them ... To stay standing the defender must make a strength roll against the
attackers momentum ... Each mph or 1 foot height advantage (50% mass advantage) increases
the difficulty by 2. The defender bracing decreases the chance by 3", "Creatures lower than
knee height cannot overrun a braced character"; rules-decisions "Overrun": "Defender stays
standing on d20 + STR modifier + FR ≥ 10 + 2 per speed step (Run 1, Sprint 2) + 4 per size
category the mover is larger − 3 if the defender braced (declared). Fail: defender Prone,
the mover passes to the first free cell beyond. Success: the mover stops adjacent").

An overrun may start with the mover's approach (a legal move into contact, as a drag that
runs into an enemy); its speed is the straight stretch of this round's recorded movement and
the approach together. The way past is the shove engine's walk with the defender lifted off
the map: the mover passes only if its footprint can stand clear beyond the defender in one
go, else it stays in contact. :func:`resolve_overrun` is pure; dice: the defender's d20.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Condition
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import (
    Cell,
    Direction,
    Footprint,
    direction_between,
    step_costs_ft,
    straight_away,
)
from core.model.profile import RulesProfile
from core.rules.conditions import down, require_action, roll_penalty
from core.rules.holds import move_refusal
from core.rules.melee import (
    IllegalManoeuvreError,
    chance_at_least,
    enemies,
    open_contact,
    path_feet,
    recorded_path,
    speed_step,
    straight_run,
)
from core.rules.ratings import force_rating
from core.rules.shove import StopReason, plan_push
from core.rules.turns import require_turn
from core.rules.value import RulesValue
from core.spatial.pathing import movement_graph

SEED = "002 Overruns"
MAX_PASS_STEPS = 20  # cells a mover may run on past the creatures behind its defender
MAX_COLUMN = 40  # cells a group's mover may stand behind the defender's place, in its column


class OverrunRequest(RulesValue):
    """Who runs through whom: ``approach`` is where the mover comes into contact (reached
    by a legal move first; None: where it stands), ``direction`` the way through (None:
    straight through)."""

    mover: str
    defender: str
    approach: Cell | None = None
    direction: Direction | None = None


class OverrunSetup(RulesValue):
    """Everything about an overrun that does not depend on the dice."""

    mover: Token
    defender: Token
    approach: tuple[Cell, ...]
    approach_ft: float
    direction: Direction
    run_ft: float
    stand_terms: Breakdown
    target: Breakdown
    beyond: tuple[Cell, ...] = ()
    pass_ft: float = 0
    swarm: bool = False  # a knee-high mover past a braced defender: no roll


def prepare_overrun(encounter: Encounter, request: OverrunRequest) -> OverrunSetup:
    """Check the overrun can be tried and work out the terms and the way past. A mover of
    knee height or less cannot overrun a braced defender; it swarms past instead (002
    Overruns: "however they may swarm past"), which is movement: no roll, not its action."""
    mover, defender = encounter.token(request.mover), encounter.token(request.defender)
    if mover.id == defender.id or not enemies(mover.combatant, defender.combatant):
        raise IllegalManoeuvreError(f"{mover.name} can only overrun an enemy")
    swarm = (mover.combatant.size.rank <= encounter.profile.knee_high_size.rank
             and defender.combatant.has(Condition.BRACED))
    if swarm:
        require_action(mover.combatant)
    else:
        require_turn(encounter, mover.id)
    if down(defender.combatant):
        raise IllegalManoeuvreError(f"{defender.name} is down: there is no one standing to "
                                    "overrun (walk round it, or Alt-drag to place the mover)")
    refusal = move_refusal(encounter, mover.id)
    if refusal:
        raise IllegalManoeuvreError(refusal)
    approach, cost = _approach(encounter, mover, request.approach)
    contact = mover.at(approach[-1])
    if not (contact.footprint.adjacent(defender.footprint)
            and open_contact(encounter, contact.footprint, defender.footprint)):
        raise IllegalManoeuvreError(f"{mover.name} must reach {defender.name} (adjacent, no "
                                    "wall between) to overrun it")
    direction = request.direction or straight_away(contact.footprint, defender.footprint)
    run = _run(encounter, mover, approach)
    beyond, pass_ft = way_past(encounter, contact, defender, direction)
    if swarm and not beyond:
        raise IllegalManoeuvreError(f"{mover.name} is too small to overrun a braced "
                                    f"{defender.name}, and there is no free place beyond it "
                                    "to swarm past to (002 Overruns)")
    return OverrunSetup(mover=mover, defender=defender, approach=approach, approach_ft=cost,
                        direction=direction, run_ft=run,
                        stand_terms=standing_terms(encounter, defender),
                        target=momentum(encounter.profile, defender, Momentum(
                            run, mover.combatant.size.rank - defender.combatant.size.rank)),
                        beyond=beyond, pass_ft=pass_ft, swarm=swarm)


def _approach(encounter: Encounter, mover: Token, goal: Cell | None
              ) -> tuple[tuple[Cell, ...], float]:
    if goal is None or goal == mover.cell:
        return (mover.cell,), 0.0
    path = movement_graph(encounter, mover).path_to(goal)
    if not path.legal:
        raise IllegalManoeuvreError(f"{mover.name} cannot reach {tuple(goal)}: {path.reason}")
    return path.cells, path.cost_ft


def _run(encounter: Encounter, mover: Token, approach: tuple[Cell, ...]) -> float:
    """The straight stretch of this round's recorded movement followed by the approach."""
    walked = recorded_path(encounter, mover.id)
    return path_feet(straight_run(walked + approach[1:]), encounter.profile)


def standing_terms(encounter: Encounter, defender: Token) -> Breakdown:
    """The defender's roll to stay standing (RD Overrun: "strength roll + FR")."""
    c, profile = defender.combatant, encounter.profile
    return Breakdown.of(Term("STR modifier", profile.ability_modifier(c.abilities.strength),
                             "RD Overrun: strength roll"),
                        Term("FR", force_rating(c, profile).value, "RD Overrun: + FR"),
                        *roll_penalty(c, profile))


class Momentum(NamedTuple):
    """What the defender's roll is against, before the profile's numbers: the run (its feet,
    and what it is, e.g. "the slowest: "), the size categories the movers are larger, and
    what they are ("Mover", "Group of 8 …"), with each term's source."""

    run_ft: float
    larger: int
    movers: str = "Mover"
    run_note: str = ""
    run_source: str = "002 Overruns: each mph increases the difficulty by 2"
    size_source: str = "RD Overrun: +4 per size"


def momentum(profile: RulesProfile, defender: Token, of: Momentum) -> Breakdown:
    """10 + 2 per speed step + 4 per size category larger − 3 if braced (RD Overrun)."""
    step = speed_step(of.run_ft, profile)
    terms = [Term("Base", profile.overrun_base, "RD Overrun")]
    if step:
        terms.append(Term(f"{'Sprint' if step == 2 else 'Run'} ({of.run_note}{of.run_ft:g} ft "
                          "straight)", step * profile.overrun_per_speed_step, of.run_source))
    if of.larger > 0:
        terms.append(Term(f"{of.movers} {of.larger} size categor"
                          f"{'y' if of.larger == 1 else 'ies'} larger",
                          of.larger * profile.overrun_per_size_category, of.size_source))
    if defender.combatant.has(Condition.BRACED):
        terms.append(Term("Braced", -profile.overrun_braced,
                          "002 Overruns: The defender bracing decreases the chance by 3"))
    return Breakdown.of(*terms)


def way_past(encounter: Encounter, contact: Token, defender: Token, direction: Direction
             ) -> tuple[tuple[Cell, ...], float]:
    """The mover's walk from contact past the defender (:func:`walk_past`, the defender
    lifted off a scratch copy of the map) and its feet."""
    board = encounter.scratch_copy()
    board.remove_token(defender.id)
    board.put_token(contact)
    return walk_past(board, contact, defender.footprint, direction)


def walk_past(board: Encounter, mover: Token, defender: Footprint, direction: Direction,
              fellows: frozenset[str] = frozenset()) -> tuple[tuple[Cell, ...], float]:
    """The walk from the mover's place on ``board`` (the defender lifted off it) through the
    defender's place to the first free place beyond it (RD "Overrun": "the mover passes to
    the first free cell beyond"), other creatures in the way passed over; and its feet. Empty
    when a wall, a ledge, a hazard, the map's edge or one of ``fellows`` (a group's movers
    lined up ahead that could not pass) comes first."""
    start = mover.footprint
    clear = next((k for k in range(1, MAX_COLUMN + 2)
                  if start.moved(direction, k).overlaps(defender)), 1)
    while start.moved(direction, clear).overlaps(defender):
        clear += 1
    scratch = board  # copied only when a creature in the way must be lifted off it
    passed: list[Footprint] = []
    steps = clear
    while steps < clear + MAX_PASS_STEPS:  # each turn goes further or lifts a creature off
        if any(start.moved(direction, steps).overlaps(f) for f in passed):
            steps += 1  # a creature passed over stands there: further on
            continue
        push = plan_push(scratch, scratch.token(mover.id), direction,
                         run_feet(board.profile, direction, steps))
        if len(push.path) == steps + 1 and push.stop_reason is StopReason.FULL_DISTANCE:
            return push.path, push.moved_ft
        reached = len(push.path)
        blocker = _blocking(scratch, start.moved(direction, reached), mover.id)
        if (push.stop_reason is not StopReason.CREATURE or blocker is None
                or (reached < clear and blocker.id in fellows)):
            return (), 0.0
        passed.append(blocker.footprint)  # lifted off; the same place is tried again
        if scratch is board:
            scratch = board.scratch_copy()
        scratch.remove_token(blocker.id)
    return (), 0.0


def run_feet(profile: RulesProfile, direction: Direction, steps: int) -> float:
    """The feet of ``steps`` cells run in ``direction`` (the push past the defender)."""
    return sum(step_costs_ft([direction] * steps, profile.cell_size_ft, profile.diagonal_rule))


def _blocking(encounter: Encounter, footprint: Footprint, mover_id: str) -> Token | None:
    """A creature other than the mover standing on ``footprint``."""
    return next((t for cell in footprint.cells()
                 if (t := encounter.token_at(cell)) and t.id != mover_id), None)


class OverrunResult(RulesValue):
    """An overrun, step by step."""

    mover: str
    defender: str
    mover_id: str
    defender_id: str
    run_ft: float
    roll: RollRecord
    stand: Breakdown
    target: Breakdown
    stands: bool
    path: tuple[Cell, ...]
    moved_ft: float
    swarmed: bool = False

    @property
    def final_cell(self) -> Cell:
        return self.path[-1]

    def summary(self) -> str:
        if self.swarmed:
            return (f"{self.mover} swarms past the braced {self.defender} to "
                    f"({self.final_cell.x},{self.final_cell.y}) (002 Overruns: 'they may "
                    "swarm past')")
        head = (f"{self.mover} overruns {self.defender} ({self.run_ft:g} ft run): "
                f"{self.stand.value} vs {self.target.value}")
        if self.stands:
            return f"{head} — {self.defender} stands; {self.mover} stops next to it"
        past = "passes" if len(self.path) > 1 and self.moved_ft else "cannot get past"
        return f"{head} — {self.defender} is knocked Prone; {self.mover} {past}"


def resolve_overrun(encounter: Encounter, request: OverrunRequest, dice: DiceSource
                    ) -> OverrunResult:
    """Resolve an overrun without changing the encounter."""
    setup = prepare_overrun(encounter, request)
    if setup.swarm:
        return _swarmed(setup)
    roll = dice.roll("d20", f"{setup.defender.name} stays standing (d20 + STR + FR)")
    stand = Breakdown.of(Term("d20", roll.total, SEED), *setup.stand_terms.terms)
    stands = stand.value >= setup.target.value
    path, feet = setup.approach, setup.approach_ft
    if not stands and setup.beyond:
        path, feet = path + setup.beyond[1:], feet + setup.pass_ft
    return OverrunResult(mover=setup.mover.name, defender=setup.defender.name,
                         mover_id=setup.mover.id, defender_id=setup.defender.id,
                         run_ft=setup.run_ft, roll=roll, stand=stand, target=setup.target,
                         stands=stands, path=path, moved_ft=feet)


#: The roll of a swarm past: none.
NO_ROLL = RollRecord(purpose="no roll: swarming past", expression="-", faces=(), values=())


def _swarmed(setup: OverrunSetup) -> OverrunResult:
    """RD: 'Tiny creatures only move through a braced defender's cell (never ending in it) to
    the first free cell beyond, with no roll and no evade check.'"""
    return OverrunResult(mover=setup.mover.name, defender=setup.defender.name,
                         mover_id=setup.mover.id, defender_id=setup.defender.id,
                         run_ft=setup.run_ft, roll=NO_ROLL, stand=Breakdown(),
                         target=Breakdown(), stands=True,
                         path=setup.approach + setup.beyond[1:],
                         moved_ft=setup.approach_ft + setup.pass_ft, swarmed=True)


class OverrunOdds(RulesValue):
    """Exact chances: the defender stays standing, and where the mover ends."""

    run_ft: float
    stand_bonus: int
    target: int
    stands: Fraction
    landing: dict[Cell, Fraction]
    swarm: bool = False


def overrun_odds(encounter: Encounter, request: OverrunRequest) -> OverrunOdds:
    setup = prepare_overrun(encounter, request)
    if setup.swarm:
        return OverrunOdds(run_ft=setup.run_ft, stand_bonus=0, target=0, stands=Fraction(1),
                           landing={setup.beyond[-1]: Fraction(1)}, swarm=True)
    stands = chance_at_least(setup.stand_terms.value, setup.target.value)
    contact = setup.approach[-1]
    landing = {contact: Fraction(1)}
    if setup.beyond and stands < 1:
        landing = {setup.beyond[-1]: 1 - stands} | ({contact: stands} if stands else {})
    return OverrunOdds(run_ft=setup.run_ft, stand_bonus=setup.stand_terms.value,
                       target=setup.target.value, stands=stands, landing=landing)


def overrun_line(encounter: Encounter, mover_id: str, goal: Cell) -> OverrunRequest | None:
    """The overrun a drag from the mover's cell straight to ``goal`` offers: the first enemy
    the line runs into, when the line goes on past it (None when there is none)."""
    mover = encounter.token(mover_id)
    line = line_cells(mover.cell, goal)
    for before, anchor in pairwise(line):
        for other in encounter.tokens_overlapping(mover.at(anchor).footprint, ignore=mover.id):
            if not enemies(mover.combatant, other.combatant):
                continue
            if down(other.combatant):  # nobody to knock over: the path goes round
                return None
            if mover.at(goal).footprint.overlaps(other.footprint):
                return None
            return OverrunRequest(mover=mover.id, defender=other.id, approach=before,
                                  direction=direction_between(before, anchor))
    return None


def line_cells(a: Cell, b: Cell) -> list[Cell]:
    """The cells of a straight line from ``a`` to ``b``, one king's step at a time
    (Bresenham).

    >>> line_cells(Cell(0, 0), Cell(4, 2))
    [Cell(x=0, y=0), Cell(x=1, y=1), Cell(x=2, y=1), Cell(x=3, y=2), Cell(x=4, y=2)]
    """
    dx, dy = abs(b.x - a.x), -abs(b.y - a.y)
    sx, sy = (1 if b.x > a.x else -1), (1 if b.y > a.y else -1)
    error, x, y, cells = dx + dy, a.x, a.y, [a]
    while (x, y) != (b.x, b.y):
        twice = 2 * error
        if twice >= dy:
            error, x = error + dy, x + sx
        if twice <= dx:
            error, y = error + dx, y + sy
        cells.append(Cell(x, y))
    return cells
