"""The Resolve panel's odds card of each melee manoeuvre: what core's odds say, laid out
as HTML (no rules worked out here)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from core.model.grid import Cell, offset_words
from core.rules.charge import ChargeRequest, charge_odds
from core.rules.evade import EvadeRequest, evade_odds
from core.rules.force_back import ForceBackRequest, force_back_odds
from core.rules.grapple import GrappleBand, GrappleRequest, grapple_odds
from core.rules.group_overrun import GroupOverrunRequest, group_overrun_odds
from core.rules.manoeuvres import moved
from core.rules.overrun import OverrunRequest, overrun_odds
from desktop.map.shove_overlay import percent

if TYPE_CHECKING:
    from fractions import Fraction

    from core.model.encounter import Encounter
    from core.rules.manoeuvres import Request


def _cells(encounter: Encounter, mover: str, landing: dict[Cell, Fraction]) -> str:
    """The likeliest places the mover ends, from where it stands ("10 ft W 40%")."""
    origin, profile = encounter.token(mover).cell, encounter.profile
    ranked = sorted(landing.items(), key=lambda item: -item[1])
    return " · ".join(f"{offset_words(origin, c, profile.cell_size_ft, profile.diagonal_rule)} "
                      f"<b>{percent(p)}</b>" for c, p in ranked[:4])


def _named(chances: dict[str, Fraction]) -> str:
    return ", ".join(f"{escape(k)} <b>{percent(p)}</b>" for k, p in chances.items() if p)


def card(encounter: Encounter, request: Request) -> str:
    """The odds card for ``request`` as the encounter is now."""
    match request:
        case ForceBackRequest():
            return _force_back(encounter, request)
        case ChargeRequest():
            return _charge(encounter, request)
        case OverrunRequest():
            return _overrun(encounter, request)
        case GrappleRequest():
            return _grapple(encounter, request)
        case EvadeRequest():
            return _evade(encounter, request)
        case GroupOverrunRequest():
            return _group_overrun(encounter, request)


def _force_back(encounter: Encounter, request: ForceBackRequest) -> str:
    odds = force_back_odds(encounter, request)
    losses = ", ".join(f"AC {v:+d} <b>{percent(p)}</b>" for v, p in sorted(odds.ac_loss.items()))
    moves = moved(odds, encounter.token(request.defender))
    return (f"d20 {odds.attack_bonus:+d} vs <b>{odds.target}</b> (10 + its HR) · success "
            f"<b>{percent(odds.success)}</b> · moves <b>{percent(moves)}</b><br>"
            f"Lands: {_cells(encounter, request.defender, odds.landing)}"
            + (f"<br>Into a hazard: <b>{percent(odds.into_hazard)}</b>" if odds.into_hazard
               else "")
            + (f"<br>On a failure, until the next action: {losses}" if losses else "")
            + "<br>Walls stop it without a slam.")


def _charge(encounter: Encounter, request: ChargeRequest) -> str:
    odds = charge_odds(encounter, request)
    return (f"Straight run <b>{odds.run_ft:g} ft</b> · hit <b>{percent(odds.hit)}</b><br>"
            f"Defender: {_named(odds.defender)}<br>Charger: {_named(odds.attacker)}")


def _overrun(encounter: Encounter, request: OverrunRequest) -> str:
    odds = overrun_odds(encounter, request)
    if odds.swarm:
        return ("Too small to overrun a braced defender: it <b>swarms past</b>, no roll, no "
                "evade check (002 Overruns)<br>"
                f"The mover ends: {_cells(encounter, request.mover, odds.landing)}")
    return (f"Straight run <b>{odds.run_ft:g} ft</b> · knocked over "
            f"<b>{percent(1 - odds.stands)}</b> (it stays standing on d20 {odds.stand_bonus:+d} "
            f"≥ {odds.target})<br>"
            f"The mover ends: {_cells(encounter, request.mover, odds.landing)}")


def _grapple(encounter: Encounter, request: GrappleRequest) -> str:
    odds = grapple_odds(encounter, request)
    bands = odds.bands
    text = (f"d20 {odds.attack_bonus:+d} vs d20 {odds.defence_bonus:+d} · success "
            f"<b>{percent(bands[GrappleBand.SUCCESS])}</b> · mutual hold "
            f"<b>{percent(bands[GrappleBand.HOLD])}</b> · fails "
            f"<b>{percent(bands[GrappleBand.FAIL])}</b>")
    if odds.landing:
        text += f"<br>Lands: {_cells(encounter, request.defender, odds.landing)}"
    if odds.slam:
        text += f"<br>Slams the wall: <b>{percent(odds.slam)}</b>"
    if odds.into_hazard:
        text += f"<br>Into the hazard: <b>{percent(odds.into_hazard)}</b>"
    return text


def _evade(encounter: Encounter, request: EvadeRequest) -> str:
    odds = evade_odds(encounter, request)
    checks = "<br>".join(f"Leaving ({c.cell.x},{c.cell.y}): evade {escape(c.enemy)} on d20 "
                         f"{c.bonus.value:+d} ≥ {c.target}: <b>{percent(c.chance)}</b>"
                         for c in odds.checks)
    return f"{checks}<br>Stops: {_cells(encounter, request.mover, odds.landing)}"


def _group_overrun(encounter: Encounter, request: GroupOverrunRequest) -> str:
    odds = group_overrun_odds(encounter, request)
    names = escape(", ".join(encounter.token(m).name for m in request.movers))
    if odds.swarm:
        return (f"{names}: too small to overrun a braced defender, they <b>swarm past</b>, "
                f"no roll, no evade check (002 Overruns); {odds.passing} of {odds.count} "
                "find a free place beyond")
    return (f"{names} together ({odds.count}: the mass of half the group, 002 Overruns) · "
            f"slowest run <b>{odds.run_ft:g} ft</b> · knocked over "
            f"<b>{percent(1 - odds.stands)}</b> (it stays standing on d20 "
            f"{odds.stand_bonus:+d} ≥ {odds.target})<br>On a fail {odds.passing} of "
            f"{odds.count} pass beyond it, lead first")
