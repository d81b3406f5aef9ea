"""The attack as a core action (000 "Hit Roll", "Armor Value"): resolved on the map by
:func:`core.rules.attack.attack_on_map`, applied as damage, logged; a hit during the
target's long action also logs it spoiled (002 "Spoiling attacks"), in the same step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.injury import fumble_entries, strike_effects
from core.actions.round import EditRound
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import RoundState, ScheduledAttack
from core.rules.attack import AttackOptions, AttackResult, attack_with, prepare_attack
from core.rules.brawl import first_strike, stopped_attack, stops
from core.rules.report import format_attack, injury_totals
from core.rules.spoiling import spoil_entry
from core.rules.surprise import next_surprise_attack, shielding
from core.rules.unarmed import is_pummel


@dataclass(frozen=True)
class AttackAction(Action[AttackResult]):
    """One token attacks another with the declared weapon and situation."""

    attacker: str
    target: str
    options: AttackOptions = field(default_factory=AttackOptions)

    name = "attack"
    dice_order = ("a pummel against an armed defender: first its strike's dice (002 "
                  "Brawling); then the attack d20 (the profile's attack_die); the +1d8 against "
                  "a rising target "
                  "(002 Sleep); on a hit the hit location die (unless aimed or off), the "
                  "weapon's damage dice (none on a critical roll) and a head hit's stun check "
                  "d20; on a fumble the save (d10) and its critical event's dice")

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.attacker).name} attacks "
                f"{encounter.token(self.target).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.attacker, self.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> AttackResult:
        """The attack; a pummel first meets an armed defender's first strike (002
        "Brawling", :mod:`core.rules.brawl`), which may stop it."""
        setup = prepare_attack(encounter, self.attacker, self.target, self.options)
        if not is_pummel(encounter.weapon(setup.options.weapon) if setup.options.weapon
                         else None):
            return attack_with(encounter, setup, dice)
        first = first_strike(encounter, setup.attacker, setup.defender, dice)
        if first is not None and stops(setup.attacker, first):
            return stopped_attack(setup.attacker, setup.defender, first)
        return attack_with(encounter, setup, dice).model_copy(update={"first_strike": first})

    def effects(self, encounter: Encounter, result: AttackResult) -> list[Command]:
        attacker = encounter.token(self.attacker).id
        target = encounter.token(self.target).id
        counted = ([] if self.options.free or self.options.surprise
                   else spend_action(encounter, attacker))
        counted += surprise_effects(encounter, attacker, target, self.options.surprise)
        first = ([] if result.first_strike is None else strike_effects(
            encounter, target, attacker, result.first_strike, "First strike"))
        if result.stopped:
            return counted + first
        return counted + first + strike_effects(encounter, attacker, target, result, "Hit")

    def headline(self, result: AttackResult, entries: list[LogEntry]) -> str:
        return after_first_strike(result.first_strike, entries)

    def entries(self, encounter: Encounter, result: AttackResult) -> list[LogEntry]:
        first = [] if result.first_strike is None else [first_strike_entry(
            encounter, result.first_strike)]
        shield = shield_entries(encounter, encounter.token(self.attacker).id,
                                encounter.token(self.target).id, self.options.surprise)
        if result.stopped:
            return [*first, LogEntry(kind="attack", summary=result.summary(),
                                     round=round_of(encounter)), *shield]
        entry = LogEntry(kind="attack", summary=result.summary(), text=format_attack(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))
        spoiled = (spoil_entry(encounter, encounter.token(self.target).id,
                               encounter.token(self.attacker).id) if result.hit else None)
        return (first + [entry] + shield + ([spoiled] if spoiled else [])
                + fumble_entries(result, round_of(encounter)))

    def totals(self, result: AttackResult) -> dict[str, Any]:
        return {
            "summary": result.summary(), "attack_total": result.to_hit.value,
            "target_number": result.target_ac.value,
            "margin": result.to_hit.value - result.target_ac.value, "hit": result.hit,
            "damage": {"per_hit": [result.damage_taken] if result.hit else [],
                       "total": result.damage_taken},
            **injury_totals(result),
        }


def surprise_effects(encounter: Encounter, attacker: str, target: str, surprise: bool
                     ) -> list[Command]:
    """A surprise free attack made (002 "Surprise"), or the free attacks an unsurprised
    attacker's engagement cancels (RD "Shielding the surprised"), on the round's schedule."""
    if surprise:
        made = next_surprise_attack(encounter, attacker, target)
        return [EditRound(lambda state: _replace_attack(state, made, {"made": True}),
                          "Surprise attack made", frozenset({attacker, target}))]
    shield = shielding(encounter, attacker, target)
    if shield is None:
        return []

    def cancel(state: RoundState) -> RoundState:
        for attack in shield.cancelled:
            state = _replace_attack(state, attack, {"cancelled_by": shield.shield_id,
                                                    "cancelled_at": shield.segment})
        return state

    return [EditRound(cancel, "Free attacks cancelled", frozenset({attacker, target}))]


def _replace_attack(state: RoundState, attack: ScheduledAttack, update: dict[str, Any]
                    ) -> RoundState:
    state.free_attacks = [a.model_copy(update=update) if a == attack else a
                          for a in state.free_attacks]
    return state


def shield_entries(encounter: Encounter, attacker: str, target: str, surprise: bool
                   ) -> list[LogEntry]:
    """The log line of an engagement that shields the surprised."""
    shield = None if surprise else shielding(encounter, attacker, target)
    if shield is None:
        return []
    names = {t.id: t.name for t in encounter.tokens}
    return [LogEntry(kind="shield", summary=shield.summary(), text=shield.text(names),
                     detail=shield.model_dump(mode="json"), round=round_of(encounter))]


def after_first_strike(first_strike: AttackResult | None, entries: list[LogEntry]) -> str:
    """The step is named by what the creature did, not by the armed defender's first strike
    logged before it (002 "Brawling")."""
    lead = 1 if first_strike is not None and len(entries) > 1 else 0
    return entries[lead].summary if entries else ""


def first_strike_entry(encounter: Encounter, strike: AttackResult) -> LogEntry:
    """The armed defender's strike before a brawler's unarmed attack, as its own line."""
    return LogEntry(kind="attack", summary=f"First strike (002 Brawling): {strike.summary()}",
                    text=format_attack(strike), detail=strike.model_dump(mode="json"),
                    round=round_of(encounter))
