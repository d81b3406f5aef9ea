"""Grappling as a core action (002 "Grappling"): resolved by
:func:`core.rules.grapple.resolve_grapple`; applied as the throw's move and damage, the stun
and Prone conditions with their timers, and the hold on the round — one undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict, set_hold
from core.actions.attack import after_first_strike, first_strike_entry
from core.actions.base import Action, round_of
from core.actions.commands import Command, MoveToken
from core.actions.injury import strike_effects
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.brawl import first_strike, stopped_grapple, stops
from core.rules.grapple import GrappleRequest, GrappleResult, grapple_with, prepare_grapple
from core.rules.manoeuvre_report import format_grapple


@dataclass(frozen=True)
class GrappleAction(Action[GrappleResult]):
    """One token grapples another with the attempt it declares."""

    request: GrappleRequest

    name = "grapple"
    dice_order = ("a brawler against an armed defender: first its strike's dice (002 "
                  "Brawling); the attacker's d20, the defender's d20; on a successful throw "
                  "the throw's d2, then the slam's shove die (a wall that way) or the "
                  "Pit-Stop d20 and the hazard's dice, then the stun check d20; on a successful "
                  "lock or improved lock the lock's d4")

    def title(self, encounter: Encounter) -> str:
        request = self.request
        return (f"{encounter.token(request.attacker).name} grapples "
                f"{encounter.token(request.defender).name} ({request.attempt.value})")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.attacker, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> GrappleResult:
        """The attempt; by a brawler who is not yet grappling, after an armed defender's
        first strike (002 "Brawling", :mod:`core.rules.brawl`), which may stop it."""
        setup = prepare_grapple(encounter, self.request)
        first = first_strike(encounter, setup.attacker, setup.defender, dice)
        if first is not None and stops(setup.attacker, first):
            return stopped_grapple(self.request, setup.attacker, setup.defender, first)
        result = grapple_with(encounter, setup, dice)
        return result.model_copy(update={"first_strike": first})

    def effects(self, encounter: Encounter, result: GrappleResult) -> list[Command]:
        a, d = result.attacker_id, result.defender_id
        commands = spend_action(encounter, a)
        if result.first_strike is not None:
            commands += strike_effects(encounter, d, a, result.first_strike, "First strike")
        if result.stopped:
            return commands
        throw = result.throw
        if throw is not None and throw.final_cell != encounter.token(d).cell:
            commands.append(MoveToken(d, throw.final_cell))
        for token_id in (a, d):
            commands += afflict(
                encounter, token_id, "Grappled",
                damage=throw.total_damage if throw and token_id == d else 0,
                gained=result.gained.get(token_id, frozenset()),
                lost=result.lost.get(token_id, frozenset()),
                catastrophic=bool(throw and throw.stun.effect.catastrophic))
        return [*commands, set_hold(encounter, (a, d), result.hold)]

    def headline(self, result: GrappleResult, entries: list[LogEntry]) -> str:
        return after_first_strike(result.first_strike, entries)

    def entries(self, encounter: Encounter, result: GrappleResult) -> list[LogEntry]:
        first = [] if result.first_strike is None else [first_strike_entry(
            encounter, result.first_strike)]
        if result.stopped:
            return [*first, LogEntry(kind="grapple", summary=result.summary(),
                                     round=round_of(encounter))]
        return [*first, LogEntry(kind="grapple", summary=result.summary(),
                                 text=format_grapple(result),
                                 detail=result.model_dump(mode="json"),
                                 round=round_of(encounter))]

    def totals(self, result: GrappleResult) -> dict[str, Any]:
        throw = result.throw
        return {
            "summary": result.summary(), "attempt": result.attempt.value,
            "attack_total": result.attack.value, "defence_total": result.defence.value,
            "margin": result.attack.value - result.defence.value, "band": result.band.value,
            "hold": result.hold.kind.value if result.hold else None,
            "lock_damage": result.hold.lock_damage if result.hold else 0,
            "final_cell": list(throw.final_cell) if throw else None,
            "damage": {"throw": throw.throw_damage.value if throw else 0,
                       "slam": throw.slam_damage.value if throw and throw.slam_damage else 0,
                       "total": throw.total_damage if throw else 0},
            "stun": sorted(c.value for c in throw.stun.conditions) if throw else [],
        }
