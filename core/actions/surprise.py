"""The surprise check as a core action (002 "Surprise"): every party character's Spot
save, logged with the free attacks each failure gives the ambushers, and those attacks
scheduled on the round's timeline (each surprised character's by one ambusher: the one the
GM names, else the nearest), where an unsurprised creature's engagement can cancel them
(rules-decisions "Shielding the surprised")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.actions.round import EditRound
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.round import RoundState
from core.rules.surprise import SpotSave, alertness_level, schedule, spot_saves, surprise_log


@dataclass(frozen=True)
class SurpriseAction(Action[tuple[SpotSave, ...]]):
    """Spot saves against an ambush, at a state of alert and the ambushers' stealth."""

    alertness: str
    stealth_bonus: int = 0
    moved_ft: float = 0
    ambushers: tuple[tuple[str, str], ...] = ()  # (surprised character, its ambusher)

    name = "surprise"
    dice_order = "a d20 Spot save for each party member, in token order"

    def title(self, encounter: Encounter) -> str:
        return "Surprise: Spot saves"

    def resolve(self, encounter: Encounter, dice: DiceSource) -> tuple[SpotSave, ...]:
        saves = tuple(spot_saves(encounter, self.alertness, self.stealth_bonus, dice,
                                 self.moved_ft))
        schedule(encounter, saves, dict(self.ambushers))  # an ambusher named wrong: refused
        return saves

    def effects(self, encounter: Encounter, result: tuple[SpotSave, ...]) -> list[Command]:
        scheduled = schedule(encounter, result, dict(self.ambushers))

        def put(state: RoundState) -> RoundState:
            state.free_attacks = scheduled
            return state

        return [EditRound(put, "Surprise attacks scheduled",
                          frozenset(a.ambusher for a in scheduled))]

    def entries(self, encounter: Encounter, result: tuple[SpotSave, ...]) -> list[LogEntry]:
        level = alertness_level(encounter.profile, self.alertness)
        entry = surprise_log(list(result), level.name, self.stealth_bonus, self.moved_ft)
        scheduled = schedule(encounter, result, dict(self.ambushers))
        names = {t.id: t.name for t in encounter.tokens}
        by = sorted({(a.target, a.ambusher) for a in scheduled},
                    key=lambda pair: encounter.order_of(pair[0]))
        text = entry.text + "".join(f"\n{names[target]}'s free attacks: by {names[ambusher]}"
                                    for target, ambusher in by)
        return [entry.model_copy(update={"round": round_of(encounter), "text": text})]

    def totals(self, result: tuple[SpotSave, ...]) -> dict[str, Any]:
        return {"summary": surprise_log(list(result), self.alertness,
                                        self.stealth_bonus).summary,
                "saves": {s.token_id: {"total": s.total.value, "target": s.target,
                                       "failure_level": s.failure_level,
                                       "free_attacks": [a.segment for a in s.attacks],
                                       "lost_attacks": len(s.free_attacks) - len(s.attacks)}
                          for s in result}}
