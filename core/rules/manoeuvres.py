"""Which melee manoeuvres a token can make where it stands, with their odds, for menus and
map previews (the desktop shows these; it works nothing out itself).

- :func:`offers`: what a token can do to each creature it is engaged with (forcing back, a
  charge, an overrun, the grapple attempts, an escape), each with its headline chance.
- :func:`throw_choices`, :func:`push_choices`: where a throw or a forcing back may send the
  creature, one choice per direction, to pick on the map.
- :func:`drag_offer`: what a drag of one token asks for: an overrun when its straight line
  runs through an enemy, else the evade checks of its path during a round.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from typing import TypeVar

from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, allowed_directions
from core.rules.charge import ChargeRequest, charge_odds
from core.rules.conditions import NoActionError
from core.rules.evade import EvadeCheck, EvadeRequest, evade_checks
from core.rules.force_back import ForceBackOdds, ForceBackRequest, force_back_odds
from core.rules.grapple import (
    GrappleAttempt,
    GrappleBand,
    GrappleRequest,
    grapple_odds,
    partner_of,
)
from core.rules.group_overrun import GroupOverrunRequest, group_overrun_odds, pack_of
from core.rules.melee import IllegalManoeuvreError, enemies, engaged
from core.rules.overrun import OverrunOdds, OverrunRequest, overrun_line, overrun_odds
from core.rules.value import RulesValue

Request = (ForceBackRequest | ChargeRequest | OverrunRequest | GrappleRequest | EvadeRequest
           | GroupOverrunRequest)
T = TypeVar("T")


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def _try(odds: Callable[[], T]) -> T | None:
    """The odds, or None when the manoeuvre cannot be made (nor by a creature that cannot
    act: it is offered nothing)."""
    try:
        return odds()
    except (IllegalManoeuvreError, NoActionError):
        return None


class Offer(RulesValue):
    """One manoeuvre a token can make now: its menu text, headline chance, and request.
    ``pick``: a direction is chosen on the map before it is resolved."""

    manoeuvre: str
    target: str
    text: str
    chance: Fraction
    request: Request
    pick: bool = False


def offers(encounter: Encounter, actor_id: str) -> list[Offer]:
    """Every manoeuvre ``actor_id`` can make against each creature it is engaged with
    (enemies, and whoever it grapples)."""
    actor = encounter.token(actor_id)
    partner = partner_of(encounter, actor_id)
    found: list[Offer] = []
    # Only the creatures next to it can be engaged: from the cell index, in map order
    # (going through all 3,000 tokens of the scale map was 1,500 checks a menu).
    for other in sorted(encounter.neighbours(actor, 1),
                        key=lambda t: encounter.order_of(t.id)):
        if (enemies(actor.combatant, other.combatant)
                or other.id == partner) and engaged(encounter, actor, other):
            found += _against(encounter, actor, other)
    return found


def _against(encounter: Encounter, actor: Token, other: Token) -> list[Offer]:
    a, d, name = actor.id, other.id, other.name
    found: list[Offer] = []
    push = ForceBackRequest(attacker=a, defender=d)
    if (fb := _try(lambda: force_back_odds(encounter, push))) is not None:
        moves = moved(fb, other)  # the card's figure: a success against a wall moves nothing
        found.append(Offer(manoeuvre="force-back", target=d, chance=moves, request=push,
                           pick=True, text=f"Force {name} back… — moves {pct(moves)}"))
    charge = ChargeRequest(attacker=a, defender=d)
    if (ch := _try(lambda: charge_odds(encounter, charge))) is not None:
        found.append(Offer(manoeuvre="charge", target=d, chance=ch.defender_falls,
                           request=charge, text=f"Charge {name} ({ch.run_ft:g} ft run) — hit "
                           f"{pct(ch.hit)}, knocked down {pct(ch.defender_falls)}"))
    run = OverrunRequest(mover=a, defender=d)
    if (ov := _try(lambda: overrun_odds(encounter, run))) is not None:
        text = (f"Swarm past {name} (braced; no roll)" if ov.swarm
                else f"Overrun {name} — knocked over {pct(1 - ov.stands)}")
        found.append(Offer(manoeuvre="overrun", target=d, chance=1 - ov.stands, request=run,
                           text=text))
    found += _group(encounter, actor, other)
    return found + _grapples(encounter, actor, other)


def _group(encounter: Encounter, actor: Token, other: Token) -> list[Offer]:
    """An overrun by the actor and the allies that can join it (002 "Overruns": "In the case
    of many smaller creatures the mass of half the group is used")."""
    if not enemies(actor.combatant, other.combatant):
        return []
    pack = pack_of(encounter, actor.id, other.id)
    if not pack:
        return []
    request = GroupOverrunRequest(movers=pack, defender=other.id)
    odds = _try(lambda: group_overrun_odds(encounter, request))
    if odds is None:
        return []
    if odds.swarm:
        text = f"Swarm past {other.name} with the pack ({odds.count}; braced; no roll)"
    else:
        text = (f"Overrun {other.name} with the pack ({odds.count}) — knocked over "
                f"{pct(1 - odds.stands)}")
    return [Offer(manoeuvre="group-overrun", target=other.id, chance=1 - odds.stands,
                  request=request, text=text)]


ATTEMPT_TEXT = {GrappleAttempt.HOLD: "Grapple {name}: hold", GrappleAttempt.THROW:
                "Throw {name}…", GrappleAttempt.TAKEDOWN: "Take {name} down",
                GrappleAttempt.LOCK: "Lock {name}", GrappleAttempt.IMPROVE_LOCK:
                "Improve the lock on {name}", GrappleAttempt.ESCAPE: "Escape from {name}"}


def _grapples(encounter: Encounter, actor: Token, other: Token) -> list[Offer]:
    found = []
    throws = throw_choices(encounter, actor, other)
    for attempt in GrappleAttempt:
        if attempt is GrappleAttempt.THROW and not throws:
            continue
        request = throws[0].request if attempt is GrappleAttempt.THROW else GrappleRequest(
            attacker=actor.id, defender=other.id, attempt=attempt)
        assert isinstance(request, GrappleRequest)
        odds = _try(lambda r=request: grapple_odds(encounter, r))  # type: ignore[misc]
        if odds is None:
            continue
        chance = odds.bands[GrappleBand.SUCCESS]
        found.append(Offer(manoeuvre="grapple", target=other.id, chance=chance,
                           request=request, pick=attempt is GrappleAttempt.THROW,
                           text=ATTEMPT_TEXT[attempt].format(name=other.name)
                           + f" — {pct(chance)}"))
    return found


class Choice(RulesValue):
    """One place to send a creature: the footprint it would take, a short label (none for a
    plain landing), and the request that does it."""

    footprint: Footprint
    text: str
    chance: Fraction
    request: Request


def throw_choices(encounter: Encounter, attacker: Token, defender: Token) -> list[Choice]:
    """Each direction a throw may take (RD "Throws": any free cell next to the defender; a
    wall that way slams, a hazard asks the Pit-Stop save)."""
    choices = []
    for direction in Direction:
        request = GrappleRequest(attacker=attacker.id, defender=defender.id,
                                 attempt=GrappleAttempt.THROW, throw_direction=direction)
        odds = _try(lambda r=request: grapple_odds(encounter, r))  # type: ignore[misc]
        if odds is None:
            continue
        thrown = odds.bands[GrappleBand.SUCCESS]
        # The chance of the whole attempt, as the card's "Into the hazard" (the chance once
        # thrown read 55% beside the card's 44%).
        falls = f"falls {pct(odds.into_hazard)}" if odds.into_hazard else ""
        text = "slam" if odds.slam else falls
        choices.append(Choice(footprint=defender.footprint.moved(direction), chance=thrown,
                              text=text, request=request))
    return choices


def push_choices(encounter: Encounter, attacker: Token, defender: Token, follow: bool
                 ) -> list[Choice]:
    """Each direction forcing back may take (within the shove's spread of straight away),
    labelled with the chance the defender is moved at least a cell."""
    choices = []
    for direction in allowed_directions(attacker.footprint, defender.footprint,
                                        encounter.profile.direction_spread_deg):
        request = ForceBackRequest(attacker=attacker.id, defender=defender.id,
                                   direction=direction, follow=follow)
        odds = _try(lambda r=request: force_back_odds(encounter, r))  # type: ignore[misc]
        if odds is None:
            continue
        moves = moved(odds, defender)
        choices.append(Choice(footprint=defender.footprint.moved(direction), chance=moves,
                              text=pct(moves), request=request))
    return choices


def moved(odds: ForceBackOdds, defender: Token) -> Fraction:
    """The chance forcing back moves the defender at least a cell."""
    return 1 - odds.landing.get(defender.cell, Fraction(0))


class DragOffer(RulesValue):
    """What a drag asks for instead of a plain move: an overrun or evade checks; ``label``
    is short enough for the path's tag, ``text`` says it all."""

    manoeuvre: str
    label: str
    text: str
    request: OverrunRequest | EvadeRequest
    checks: tuple[EvadeCheck, ...] = ()
    target: Footprint | None = None
    chance: Fraction = Fraction(1)


def drag_offer(encounter: Encounter, mover_id: str, goal: Cell, *, path: tuple[Cell, ...],
               around: bool, budget_ft: float | None = None,
               seen: Collection[str] | None = None,
               odds_of: Callable[[Encounter, OverrunRequest], OverrunOdds] = overrun_odds
               ) -> DragOffer | None:
    """A drag straight through an enemy offers an overrun (unless the GM goes ``around``);
    during a round a path that leaves cells next to able enemies asks their evade checks.
    ``path`` is the legal path the movement rules give to ``goal`` (empty when there is
    none). A player's preview passes the ids the players ``seen``: an enemy they cannot
    see asks no check there (the move itself asks every one). ``odds_of`` works out an
    overrun's odds (a drag's preview passes one that remembers them: every goal past the
    same enemy along the same line is the same overrun)."""
    if not around and (run := overrun_line(encounter, mover_id, goal)) is not None:
        odds = _try(lambda: odds_of(encounter, run))
        if odds is not None and odds.swarm:
            defender = encounter.token(run.defender)
            return DragOffer(manoeuvre="overrun", request=run, chance=Fraction(1),
                             target=defender.footprint, label=f"swarm past {defender.name}",
                             text=f"Swarm past the braced {defender.name}: no roll; the mover "
                                  "ends beyond it (Shift: go around)")
        if odds is not None:
            defender = encounter.token(run.defender)
            return DragOffer(manoeuvre="overrun", request=run, chance=1 - odds.stands,
                             target=defender.footprint,
                             label=f"overrun {defender.name} · {pct(1 - odds.stands)} down",
                             text=f"Overrun {defender.name}: knocked over "
                                  f"{pct(1 - odds.stands)}; the mover ends past it or in "
                                  "contact, not on this cell (Shift: go around)")
    if not encounter.timeline.entries or len(path) < 2 or path[-1] != goal:
        return None
    checks = tuple(c for c in evade_checks(encounter, mover_id, path)
                   if seen is None or c.enemy_id in seen)
    if not checks:
        return None
    through = Fraction(1)
    for check in checks:
        through *= check.chance
    return DragOffer(manoeuvre="evade", checks=checks, chance=through,
                     request=EvadeRequest(mover=mover_id, goal=goal, budget_ft=budget_ft),
                     label=f"{len(checks)} evade · {pct(through)} clear",
                     text=f"{len(checks)} evade check(s): all pass {pct(through)}")
