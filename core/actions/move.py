"""Moving tokens as a core action: one token or a group, along the paths the rules allow
(walls and closed doors block, difficult terrain costs double, enemies block, allies may be
passed but not ended on, held creatures stay put, an optional budget), or anywhere free as a
GM override. A group
moves all at once, and the feet each token walks count towards its attack segment
(002 "Characters move at 5' per segment")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.actions.base import Action
from core.actions.commands import Command, PlaceTokens
from core.actions.round import RecordMovement
from core.model.dice import DiceSource
from core.model.encounter import Encounter, LogEntry
from core.model.grid import Cell
from core.rules.holds import move_refusal
from core.spatial.pathing import IllegalMoveError, MovePath, movement_graph


@dataclass(frozen=True)
class MovePlan:
    """Where each token goes and the path it takes (none for a GM placement)."""

    cells: dict[str, Cell]
    paths: dict[str, MovePath] = field(default_factory=dict)


@dataclass(frozen=True)
class MoveAction(Action[MovePlan]):
    """Move tokens (id → new top-left cell)."""

    moves: Mapping[str, Cell]
    free: bool = False
    budget_ft: float | None = None

    name = "move"
    dice_order = "no dice"

    def title(self, encounter: Encounter) -> str:
        if len(self.moves) == 1:
            return f"Move {encounter.token(next(iter(self.moves))).name}"
        return f"Move {len(self.moves)} tokens"

    def tokens(self) -> frozenset[str]:
        return frozenset(self.moves)

    def resolve(self, encounter: Encounter, dice: DiceSource) -> MovePlan:
        cells = {encounter.token(key).id: cell for key, cell in self.moves.items()}
        paths = {} if self.free else {tid: self._path(encounter, tid, cell)
                                      for tid, cell in cells.items()}
        problem = placement_problem(encounter, cells)
        if problem:
            raise IllegalMoveError(problem)
        return MovePlan(cells, paths)

    def _path(self, encounter: Encounter, token_id: str, cell: Cell) -> MovePath:
        token = encounter.token(token_id)
        held = move_refusal(encounter, token_id)
        if held:
            raise IllegalMoveError(held)
        path = movement_graph(encounter, token).path_to(cell, self.budget_ft)
        if not path.legal:
            raise IllegalMoveError(f"{token.name} cannot move to {tuple(cell)}: {path.reason}")
        return path

    def effects(self, encounter: Encounter, result: MovePlan) -> list[Command]:
        moved = {tid: cell for tid, cell in result.cells.items()
                 if encounter.token(tid).cell != cell}
        if not moved:
            return []
        walked: list[Command] = [RecordMovement(tid, path.cost_ft, path.cells)
                                 for tid, path in result.paths.items()
                                 if tid in moved and path.cost_ft > 0]
        return [PlaceTokens(moved, self.title(encounter)), *walked]

    def entries(self, encounter: Encounter, result: MovePlan) -> list[LogEntry]:
        return []

    def totals(self, result: MovePlan) -> dict[str, Any]:
        return {"moves": {tid: {"to": list(cell),
                                "cost_ft": result.paths[tid].cost_ft if tid in result.paths
                                else None,
                                "path": [list(c) for c in result.paths[tid].cells]
                                if tid in result.paths else []}
                          for tid, cell in result.cells.items()}}


def placement_problem(encounter: Encounter, cells: Mapping[str, Cell]) -> str | None:
    """Why the tokens cannot all stand at ``cells`` at once (off the map, on another
    token, on each other), or None."""
    return encounter.placement_problem(
        [encounter.token(tid).at(cell) for tid, cell in cells.items()])
