"""The attack as a core action (000 "Hit Roll", "Armor Value"): resolved on the map by
:func:`core.rules.attack.attack_on_map`, applied as damage, logged; a hit during the
target's long action also logs it spoiled (002 "Spoiling attacks"), in the same step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.injury import fumble_entries, strike_effects
from core.actions.turns import spend_action
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.rules.attack import AttackOptions, AttackResult, attack_on_map
from core.rules.report import format_attack, injury_totals
from core.rules.timeline import spoil_note


@dataclass(frozen=True)
class AttackAction(Action[AttackResult]):
    """One token attacks another with the declared weapon and situation."""

    attacker: str
    target: str
    options: AttackOptions = field(default_factory=AttackOptions)

    name = "attack"
    dice_order = ("attack d20 (the profile's attack_die); the +1d8 against a rising target "
                  "(002 Sleep); on a hit the hit location die (unless aimed or off), the "
                  "weapon's damage dice (none on a critical roll) and a head hit's stun check "
                  "d20; on a fumble the save (d10) and its critical event's dice")

    def title(self, encounter: Encounter) -> str:
        return (f"{encounter.token(self.attacker).name} attacks "
                f"{encounter.token(self.target).name}")

    def tokens(self) -> frozenset[str]:
        return frozenset({self.attacker, self.target})

    def resolve(self, encounter: Encounter, dice: DiceSource) -> AttackResult:
        return attack_on_map(encounter, self.attacker, self.target, self.options, dice)

    def effects(self, encounter: Encounter, result: AttackResult) -> list[Command]:
        attacker = encounter.token(self.attacker).id
        counted = [] if self.options.free else spend_action(encounter, attacker)
        return counted + strike_effects(encounter, attacker, encounter.token(self.target).id,
                                        result, "Hit")

    def entries(self, encounter: Encounter, result: AttackResult) -> list[LogEntry]:
        entry = LogEntry(kind="attack", summary=result.summary(), text=format_attack(result),
                         detail=result.model_dump(mode="json"), round=round_of(encounter))
        spoiled = spoil_note(encounter, encounter.token(self.target).id) if result.hit else None
        return ([entry] + ([spoiled] if spoiled else [])
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
