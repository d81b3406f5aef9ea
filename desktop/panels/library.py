"""Combatant templates (``assets/library.json``) and where a new token goes on the map."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from core.combatant import Combatant
from core.encounter import Encounter
from core.fileio import describe_validation_error
from core.grid import Cell, Footprint

LIBRARY_PATH = Path(str(files("assets") / "library.json"))  # as desktop.cli finds the demo
_TEMPLATES = TypeAdapter(list[Combatant])


def load_library(path: Path = LIBRARY_PATH) -> list[Combatant]:
    """The templates in ``path``; ValueError naming the file and the first problems."""
    try:
        return _TEMPLATES.validate_json(path.read_bytes())
    except OSError as error:
        raise ValueError(f"cannot read {path.name}: {error.strerror or error}") from None
    except ValidationError as error:
        raise ValueError(f"{path.name}: {describe_validation_error(error)}") from None


def summary(c: Combatant) -> str:
    """One line for a menu tooltip: what the template is before it is added."""
    a = c.abilities
    return (f"{c.side.value.title()}, {c.size.value}, level/HD {c.level}, HP {c.max_hp}; "
            f"STR {a.strength} DEX {a.dexterity} CON {a.constitution} INT {a.intelligence} "
            f"WIS {a.wisdom} CHA {a.charisma}; armour {c.armour}, shield {c.shield}")


def free_spot(encounter: Encounter, size: int, near: Cell) -> Cell | None:
    """The top-left cell, nearest ``near`` ring by ring, where a ``size``-cell square fits
    on the map without overlapping a token; None when the map is full."""
    battle_map = encounter.map
    occupied = {cell for token in encounter.tokens for cell in token.footprint.cells()}
    # Centre the footprint on the hint rather than hanging it down-right of it.
    centre = Cell(min(max(near.x, 0), battle_map.width - 1) - (size - 1) // 2,
                  min(max(near.y, 0), battle_map.height - 1) - (size - 1) // 2)
    for radius in range(max(battle_map.width, battle_map.height) + 1):
        for cell in _ring(centre, radius):
            footprint = Footprint(cell.x, cell.y, size)
            if (battle_map.contains_footprint(footprint)
                    and occupied.isdisjoint(footprint.cells())):
                return cell
    return None


def _ring(centre: Cell, radius: int) -> list[Cell]:
    """The cells at Chebyshev distance ``radius``, nearest (Euclidean) first."""
    if radius == 0:
        return [centre]
    offsets = {(dx, dy) for dx in range(-radius, radius + 1) for dy in (-radius, radius)}
    offsets |= {(dx, dy) for dy in range(-radius, radius + 1) for dx in (-radius, radius)}
    ordered = sorted(offsets, key=lambda d: (d[0] ** 2 + d[1] ** 2, d[1], d[0]))
    return [Cell(centre.x + dx, centre.y + dy) for dx, dy in ordered]
