"""The missile attack as a core action (002 "Missiles", rules-decisions "Missiles"): resolved
by :func:`core.rules.missile.resolve_missile`, applied as damage to the target or to the
friend a near miss strikes, and — for a flask — burning oil where it lands, a hazard that goes
out on the timeline; logged with every roll. A hit during a long action spoils it when the
missile lands in time (002 "Spoiling attacks": "We do not ignore flight time here"). One
undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command, ReplaceHazard
from core.actions.injury import fumble_entries, strike_effects
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.limits import MAX_ROUND
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from core.model.weapons import MissileKind
from core.rules.missile import MissileRequest, MissileResult, resolve_missile
from core.rules.missile_report import format_missile
from core.rules.report import injury_totals
from core.rules.spoiling import spoil_entry
from core.rules.weapons import missile_weapons


@dataclass(frozen=True)
class MissileAction(Action[MissileResult]):
    """One token throws or fires at another."""

    request: MissileRequest

    name = "missile"
    dice_order = ("attack d20 (the profile's attack_die); the +1d8 against a rising target "
                  "(002 Sleep); on a hit the hit location die (unless aimed or off), the "
                  "weapon's damage dice (none on a critical roll) and a head hit's stun check "
                  "d20; on a miss by no more than the firing-into-melee bonus one die for the "
                  "friend; on any other miss the scatter die (d12: the clock direction it "
                  "lands in); on a fumble then the save (d10) and its critical event's dice")

    def title(self, encounter: Encounter) -> str:
        attacker = encounter.token(self.request.attacker)
        named = self.request.weapon
        weapons = ([encounter.weapon(named)] if named
                   else missile_weapons(encounter, attacker.combatant))
        thrown = bool(weapons) and weapons[0].missile_kind is MissileKind.THROWN
        verb = "throws at" if thrown else "shoots at"
        return f"{attacker.name} {verb} {encounter.token(self.request.target).name}"

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.attacker, self.request.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> MissileResult:
        return resolve_missile(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: MissileResult) -> list[Command]:
        commands = spend_action(encounter, result.attacker_id) + strike_effects(
            encounter, result.attacker_id, result.target_id, result.attack, "Missile hit")
        if result.friend_hit is not None:
            friend = result.friend_hit
            commands += afflict(encounter, friend.token_id, "Near miss",
                                damage=friend.damage.value - friend.wounds, wounds=friend.wounds)
        fire = burning_oil(encounter, result)
        return commands + ([ReplaceHazard(None, fire)] if fire else [])

    def entries(self, encounter: Encounter, result: MissileResult) -> list[LogEntry]:
        entry = LogEntry(kind="missile", summary=result.summary(), text=format_missile(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))
        struck = [result.target_id] if result.attack.hit else []
        if result.friend_hit is not None:
            struck.append(result.friend_hit.token_id)
        flight = result.range.flight_segments
        # The shooter must be ready to spoil its target's action (002 Spoiling attacks); a
        # near miss on a friend is no reaction, it spoils as it lands.
        spoiled = [note for token_id in struck
                   if (note := spoil_entry(encounter, token_id, result.attacker_id
                                           if token_id == result.target_id else None,
                                           flight)) is not None]
        return [entry, *spoiled, *fumble_entries(result.attack, round_of(encounter))]

    def totals(self, result: MissileResult) -> dict[str, Any]:
        attack, landing = result.attack, result.landing
        return {
            "summary": result.summary(), "attack_total": attack.to_hit.value,
            "target_number": attack.target_ac.value, "margin": result.margin,
            "hit": attack.hit, "band": result.range.band.value,
            "distance_ft": result.range.distance_ft, "cover_percent": result.cover.percent,
            "cover_bonus": result.cover.bonus, "arrow_slit": result.cover.arrow_slit,
            "flight_segments": result.range.flight_segments,
            "damage": {"per_hit": [attack.damage_taken] if attack.hit else [],
                       "total": attack.damage_taken},
            "friend_hit": (None if result.friend_hit is None else
                           {"token": result.friend_hit.token_id,
                            "damage": result.friend_hit.damage.value}),
            "landing": None if landing is None or landing.cell is None else list(landing.cell),
            "fire": None if result.fire_cell is None else list(result.fire_cell),
            **injury_totals(attack),
        }


def burning_oil(encounter: Encounter, result: MissileResult) -> Hazard | None:
    """The fire a flask leaves where it landed, for its rounds (RD Missiles: "leaves a
    1-cell fire hazard, 1d6, for 3 rounds where it lands"): it goes out at the end of the
    round that many rounds after this one."""
    flask = encounter.weapon(result.weapon).flask
    if flask is None or result.fire_cell is None:
        return None
    now = encounter.timeline.round_number
    last = min(now + flask.rounds, MAX_ROUND)
    return Hazard(name=f"Burning oil ({result.weapon})", kind=HazardKind.FIRE,
                  cells=(result.fire_cell,),
                  effect=HazardEffect(damage=flask.damage, damage_type="fire",
                                      notes=f"goes out at the end of round {last}"),
                  expires_after_round=last)
