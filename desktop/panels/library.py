"""Combatant templates (``assets/library.json``) and where a new token goes on the map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import TypeAdapter, ValidationError

from core.io.fileio import describe_validation_error
from core.model.combatant import Combatant
from desktop.system.resources import bundled

if TYPE_CHECKING:
    from pathlib import Path

LIBRARY_PATH = bundled("library.json")
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
