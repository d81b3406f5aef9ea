"""The dice tray as a core action: any dice expression rolled (seeded or typed from the
table) and logged, so the log replays every roll of the session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.actions.base import Action, round_of
from core.actions.commands import Command
from core.model.dice import DiceExpression, DiceSource, RollRecord
from core.model.encounter import Encounter, LogEntry


@dataclass(frozen=True)
class DiceRollAction(Action[RollRecord]):
    """Roll ``expression`` (e.g. ``2d6+3``) for ``purpose``."""

    expression: str
    purpose: str = ""

    name = "dice"
    dice_order = "each die of the expression, left to right"

    def title(self, encounter: Encounter) -> str:
        return f"Roll {DiceExpression.parse(self.expression)}" + (
            f" for {self.purpose}" if self.purpose else "")

    def resolve(self, encounter: Encounter, dice: DiceSource) -> RollRecord:
        return dice.roll(self.expression, self.purpose or "dice tray")

    def effects(self, encounter: Encounter, result: RollRecord) -> list[Command]:
        return []

    def entries(self, encounter: Encounter, result: RollRecord) -> list[LogEntry]:
        what = f" for {self.purpose}" if self.purpose else ""
        return [LogEntry(kind="dice", summary=f"Rolled {result.expression}{what}: {result.total}",
                         text=result.describe(), detail=result.model_dump(mode="json"),
                         round=round_of(encounter))]

    def totals(self, result: RollRecord) -> dict[str, Any]:
        return {"summary": f"{result.expression}: {result.total}", "total": result.total,
                "values": list(result.values)}
