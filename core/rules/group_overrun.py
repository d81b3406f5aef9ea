"""Overruns by a group (002 "Overruns": "In the case of many smaller creatures the mass of
half the group is used; imagine a pack of dogs pouring down a corridor. It is highly unlikely
that even a hero would still be standing at the end."; rules-decisions "Group overrun": "N
movers overrun as one: size categories larger = (their size − the defender's) +
⌊log2⌊N/2⌋⌋, +4 per category as for one mover; speed = the slowest mover's; one defender
roll; on a fail every mover passes, lead first, each to the first free cell beyond.
Swarming past: Tiny creatures only move through a braced defender's cell (never ending in
it) to the first free cell beyond, with no roll and no evade check").

The group: every mover is engaged with the defender or lined up behind another mover (a
column pouring at it: each cell between it and the defender, along the way through, holds
another mover). Each passes along its own line through the defender's place, lead first (the
one nearest), to the first free place beyond: the shove walk with the defender lifted off the
map and the creatures in the way passed over, as for one mover (:func:`core.rules.overrun
.walk_past`). **Interp.**: "their size" is the smallest mover's (a mixed pack counts as its
smallest); the half is ``N // group_overrun_share`` creatures, each size category a
``group_overrun_mass_per_category``-fold mass. :func:`resolve_group_overrun` is pure; dice:
the defender's d20 (none when the whole pack swarms past a braced defender).

>>> extra_categories(8, RulesProfile()), extra_categories(3, RulesProfile())
(2, 0)
"""

from __future__ import annotations

from fractions import Fraction

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Condition
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, straight_away
from core.model.profile import RulesProfile
from core.rules.conditions import NoActionError, down, require_action
from core.rules.holds import move_refusal
from core.rules.melee import (
    IllegalManoeuvreError,
    chance_at_least,
    enemies,
    open_contact,
    path_feet,
    recorded_path,
    straight_run,
)
from core.rules.overrun import MAX_COLUMN, Momentum, momentum, standing_terms, walk_past
from core.rules.turns import TurnRefusedError, require_turn
from core.rules.value import RulesValue

SEED = "002 Overruns"
GROUP = "002 Overruns: 'the mass of half the group is used'; RD Group overrun"
MAX_PACK = 40  # allies a menu gathers for a pack


class GroupOverrunRequest(RulesValue):
    """Who runs through whom together: ``movers`` (two or more), ``direction`` the way
    through (None: each straight through from where it stands)."""

    movers: tuple[str, ...]
    defender: str
    direction: Direction | None = None


class MoverWay(RulesValue):
    """One mover's walk on a fail: from where it stands to its place beyond (``path`` of one
    cell: it cannot get past)."""

    mover_id: str
    name: str
    path: tuple[Cell, ...]
    moved_ft: float

    @property
    def passes(self) -> bool:
        return len(self.path) > 1


class GroupSetup(RulesValue):
    """Everything about a group overrun that does not depend on the dice."""

    movers: tuple[Token, ...]  # lead first
    defender: Token
    run_ft: float
    stand_terms: Breakdown
    target: Breakdown
    ways: tuple[MoverWay, ...]
    swarm: bool = False


def extra_categories(count: int, profile: RulesProfile) -> int:
    """The size categories the mass of the group's share adds: ⌊log_m ⌊N / s⌋⌋ with s the
    share (2: half the group) and m the mass ratio per category (2), 0 below one creature."""
    mass, categories = count // profile.group_overrun_share, 0
    while mass >= profile.group_overrun_mass_per_category:
        mass //= profile.group_overrun_mass_per_category
        categories += 1
    return categories


def prepare_group_overrun(encounter: Encounter, request: GroupOverrunRequest) -> GroupSetup:
    """Check the group can overrun the defender together and work out the terms, the order
    (lead first) and each mover's way past."""
    defender = encounter.token(request.defender)
    movers = [encounter.token(m) for m in request.movers]
    ids = [m.id for m in movers]
    if len(set(ids)) < 2 or len(set(ids)) != len(ids):
        raise IllegalManoeuvreError("a group overrun needs two or more different movers (one "
                                    "mover: an overrun)")
    for mover in movers:
        if mover.id == defender.id or not enemies(mover.combatant, defender.combatant):
            raise IllegalManoeuvreError(f"{mover.name} can only overrun an enemy")
    if down(defender.combatant):
        raise IllegalManoeuvreError(f"{defender.name} is down: there is no one standing to "
                                    "overrun")
    swarm = _swarming(encounter, movers, defender)
    for mover in movers:
        if swarm:
            require_action(mover.combatant)
        else:
            require_turn(encounter, mover.id)
        refusal = move_refusal(encounter, mover.id)
        if refusal:
            raise IllegalManoeuvreError(refusal)
    lines = {m.id: _line_to(encounter, m, defender, movers, request.direction)
             for m in movers}
    ordered = tuple(sorted(movers, key=lambda m: (lines[m.id][1], encounter.order_of(m.id))))
    ways = _ways(encounter, ordered, defender, {m: d for m, (d, _) in lines.items()})
    if swarm and not any(w.passes for w in ways):
        raise IllegalManoeuvreError(f"there is no free place beyond the braced "
                                    f"{defender.name} to swarm past to (002 Overruns)")
    run = min(_run(encounter, m) for m in movers)
    return GroupSetup(movers=ordered, defender=defender, run_ft=run,
                      stand_terms=standing_terms(encounter, defender),
                      target=_momentum(encounter, ordered, defender, run),
                      ways=ways, swarm=swarm)


def _swarming(encounter: Encounter, movers: list[Token], defender: Token) -> bool:
    """Knee-high movers against a braced defender swarm past (002: "Creatures lower than knee
    height cannot overrun a braced character; however they may swarm past"); a pack of both
    is refused: the knee-high cannot take part in an overrun."""
    if not defender.combatant.has(Condition.BRACED):
        return False
    knee_high = encounter.profile.knee_high_size.rank
    small = [m.name for m in movers if m.combatant.size.rank <= knee_high]
    if small and len(small) < len(movers):
        raise IllegalManoeuvreError(
            f"{', '.join(small)} cannot overrun the braced {defender.name} (lower than knee "
            "height, 002 Overruns): leave them out, they may swarm past it")
    return bool(small)


def _line_to(encounter: Encounter, mover: Token, defender: Token, movers: list[Token],
             wanted: Direction | None) -> tuple[Direction, int]:
    """The way through and how many steps the mover is from the defender's place: engaged
    with it (1), or lined up behind other movers (a column)."""
    if mover.footprint.adjacent(defender.footprint):
        if not open_contact(encounter, mover.footprint, defender.footprint):
            raise IllegalManoeuvreError(f"a wall stands between {mover.name} and "
                                        f"{defender.name}")
        direction = wanted or straight_away(mover.footprint, defender.footprint)
        if not mover.footprint.moved(direction).overlaps(defender.footprint):
            raise IllegalManoeuvreError(f"{mover.name} cannot run through {defender.name} "
                                        f"going {direction.value} from where it stands")
        return direction, 1
    direction = wanted or straight_away(mover.footprint, defender.footprint)
    others = [m.footprint for m in movers if m.id != mover.id]
    for steps in range(1, MAX_COLUMN + 1):
        there = mover.footprint.moved(direction, steps)
        if there.overlaps(defender.footprint):
            return direction, steps
        if not any(there.overlaps(f) for f in others):
            break
    raise IllegalManoeuvreError(
        f"{mover.name} is neither next to {defender.name} nor lined up behind another mover "
        "(a group overrun is a pack pouring at it: each is engaged with it, or has movers "
        "all the way between)")


def _run(encounter: Encounter, mover: Token) -> float:
    return path_feet(straight_run(recorded_path(encounter, mover.id)), encounter.profile)


def _momentum(encounter: Encounter, movers: tuple[Token, ...], defender: Token,
              run_ft: float) -> Breakdown:
    """As one mover's (:func:`core.rules.overrun.momentum`), with the slowest mover's speed
    and the size categories the group's share is larger."""
    profile = encounter.profile
    count = len(movers)
    smallest = min(movers, key=lambda m: m.combatant.size.rank)
    extra = extra_categories(count, profile)
    share = count // profile.group_overrun_share
    return momentum(profile, defender, Momentum(
        run_ft, smallest.combatant.size.rank - defender.combatant.size.rank + extra,
        movers=(f"Group of {count} ({smallest.combatant.size.value}; the mass of {share}: "
                f"+{extra})"),
        run_note="the slowest: ",
        run_source=("002 Overruns: each mph increases the difficulty by 2; RD: the slowest "
                    "mover's"),
        size_source=GROUP))


def _ways(encounter: Encounter, movers: tuple[Token, ...], defender: Token,
          directions: dict[str, Direction]) -> tuple[MoverWay, ...]:
    """Each mover's walk past, lead first, each on the map as the ones before it left it."""
    board = encounter.scratch_copy()
    board.remove_token(defender.id)
    ways = []
    for mover in movers:
        path, feet = walk_past(board, mover, defender.footprint, directions[mover.id],
                               fellows=frozenset(m.id for m in movers) - {mover.id})
        ways.append(MoverWay(mover_id=mover.id, name=mover.name, path=path or (mover.cell,),
                             moved_ft=feet))
        if path:
            board.put_token(mover.at(path[-1]))
    return tuple(ways)


class GroupOverrunResult(RulesValue):
    """A group overrun, step by step: one defender roll; on a fail each mover's walk."""

    movers: tuple[str, ...]
    defender: str
    defender_id: str
    run_ft: float
    roll: RollRecord | None
    stand: Breakdown
    target: Breakdown
    stands: bool
    ways: tuple[MoverWay, ...]
    swarmed: bool = False

    @property
    def mover_ids(self) -> tuple[str, ...]:
        return tuple(w.mover_id for w in self.ways)

    def summary(self) -> str:
        names = ", ".join(self.movers)
        if self.swarmed:
            return (f"{names} swarm past the braced {self.defender} (002 Overruns: 'they may "
                    "swarm past'; no roll)")
        head = (f"{names} overrun {self.defender} together ({len(self.movers)}; slowest run "
                f"{self.run_ft:g} ft): {self.stand.value} vs {self.target.value}")
        if self.stands:
            return f"{head} — {self.defender} stands; they stop against it"
        stuck = [w.name for w in self.ways if not w.passes]
        tail = f"; {', '.join(stuck)} cannot get past" if stuck else "; they pass"
        return f"{head} — {self.defender} is knocked Prone{tail}"

    def text(self) -> str:
        lines = [self.summary(), ""]
        if self.roll is not None:
            lines += [f"  Slowest straight run: {self.run_ft:g} ft",
                      f"  Roll: {self.roll.describe()}",
                      f"  {self.defender} stays standing (d20 + STR + FR): "
                      f"{self.stand.describe()}",
                      f"  Momentum: {self.target.describe()}"]
        if not self.stands:
            lines += [f"  {w.name}: " + (" → ".join(f"({c.x},{c.y})" for c in w.path)
                                         + f" ({w.moved_ft:g} ft)" if w.passes
                                         else "cannot get past (stays)") for w in self.ways]
        return "\n".join(lines)


def resolve_group_overrun(encounter: Encounter, request: GroupOverrunRequest,
                          dice: DiceSource) -> GroupOverrunResult:
    """Resolve a group overrun without changing the encounter."""
    setup = prepare_group_overrun(encounter, request)
    names = tuple(m.name for m in setup.movers)
    if setup.swarm:
        return GroupOverrunResult(movers=names, defender=setup.defender.name,
                                  defender_id=setup.defender.id, run_ft=setup.run_ft,
                                  roll=None, stand=Breakdown(), target=Breakdown(),
                                  stands=False, ways=setup.ways, swarmed=True)
    roll = dice.roll("d20", f"{setup.defender.name} stays standing against the group "
                            "(d20 + STR + FR)")
    stand = Breakdown.of(Term("d20", roll.total, SEED), *setup.stand_terms.terms)
    stands = stand.value >= setup.target.value
    ways = tuple(w if not stands else w.model_copy(update={"path": (w.path[0],),
                                                           "moved_ft": 0.0})
                 for w in setup.ways)
    return GroupOverrunResult(movers=names, defender=setup.defender.name,
                              defender_id=setup.defender.id, run_ft=setup.run_ft, roll=roll,
                              stand=stand, target=setup.target, stands=stands, ways=ways)


class GroupOverrunOdds(RulesValue):
    """Exact chance the defender stays standing against the group."""

    count: int
    run_ft: float
    stand_bonus: int
    target: int
    stands: Fraction
    passing: int  # movers that get past on a fail
    swarm: bool = False


def group_overrun_odds(encounter: Encounter, request: GroupOverrunRequest
                       ) -> GroupOverrunOdds:
    setup = prepare_group_overrun(encounter, request)
    passing = sum(1 for w in setup.ways if w.passes)
    if setup.swarm:
        return GroupOverrunOdds(count=len(setup.movers), run_ft=setup.run_ft, stand_bonus=0,
                                target=0, stands=Fraction(0), passing=passing, swarm=True)
    return GroupOverrunOdds(count=len(setup.movers), run_ft=setup.run_ft,
                            stand_bonus=setup.stand_terms.value, target=setup.target.value,
                            stands=chance_at_least(setup.stand_terms.value,
                                                   setup.target.value), passing=passing)


def pack_of(encounter: Encounter, lead_id: str, defender_id: str) -> tuple[str, ...]:
    """The group a menu offers ``lead_id`` for overrunning ``defender_id``: it and every ally
    that could join it (able to take the action now, engaged with the defender or lined up
    behind another of them), lead first; fewer than two: ()."""
    lead, defender = encounter.token(lead_id), encounter.token(defender_id)
    side = lead.combatant.side
    found = {lead.id: lead}
    frontier = [defender, lead]
    while frontier and len(found) < MAX_PACK:  # allies touching the defender or the pack
        here = frontier.pop()
        for other in encounter.neighbours(here, 1):
            if other.combatant.side is side and other.id not in found:
                found[other.id] = other
                frontier.append(other)
    group = [lead, *sorted((t for t in found.values() if t.id != lead.id),
                           key=lambda t: encounter.order_of(t.id))]
    for _ in range(len(group)):  # drop who cannot join, until the rest all can
        kept = [t for t in group if _can_join(encounter, t, defender, group)]
        if len(kept) == len(group):
            break
        group = kept
    if len(group) < 2 or group[0].id != lead_id:
        return ()
    return tuple(t.id for t in group)


def _can_join(encounter: Encounter, mover: Token, defender: Token, group: list[Token]) -> bool:
    try:
        require_turn(encounter, mover.id)
        _line_to(encounter, mover, defender, group, None)
    except (IllegalManoeuvreError, TurnRefusedError, NoActionError):
        return False
    return not move_refusal(encounter, mover.id)
