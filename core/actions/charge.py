"""Charge and knockdown as a core action (002 "Charge opponent"): resolved by
:func:`core.rules.charge.resolve_charge`; applied as the stun-table conditions (and Prone)
with their timers on whichever side lost the opposed roll — one undo step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.afflict import afflict
from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.charge import ChargeRequest, ChargeResult, resolve_charge
from core.rules.manoeuvre_report import format_charge


@dataclass(frozen=True)
class ChargeAction(Action[ChargeResult]):
    """A token that ran into contact tries to knock the other over."""

    request: ChargeRequest

    name = "charge"
    dice_order = "the charger's hit d20; on a hit the charger's d20, then the defender's d20"

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.request.attacker).name} charges "
                f"{encounter.token(self.request.defender).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.request.attacker, self.request.defender})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> ChargeResult:
        return resolve_charge(encounter, self.request, dice)

    def effects(self, encounter: Encounter, result: ChargeResult) -> list[Command]:
        return [*spend_action(encounter, result.attacker_id),
                *afflict(encounter, result.attacker_id, "Charge", gained=result.attacker_gains),
                *afflict(encounter, result.defender_id, "Charged",
                         gained=result.defender_gains)]

    def entries(self, encounter: Encounter, result: ChargeResult) -> list[LogEntry]:
        return [LogEntry(kind="charge", summary=result.summary(), text=format_charge(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))]

    def totals(self, result: ChargeResult) -> dict[str, Any]:
        return {
            "summary": result.summary(), "run_ft": result.run_ft,
            "attack_total": result.to_hit.value, "target_number": result.target_ac.value,
            "hit": result.hit,
            "opposed": [result.charger.value, result.resister.value]
            if result.charger and result.resister else None,
            "attacker_conditions": sorted(c.value for c in result.attacker_gains),
            "defender_conditions": sorted(c.value for c in result.defender_gains),
        }
