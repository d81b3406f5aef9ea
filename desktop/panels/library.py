"""Combatant templates (the bundled ``assets/library.json``, a bestiary file) and where a
new token goes on the map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.io.bestiary import BestiaryFileError, load_bestiary
from desktop.system.resources import bundled

if TYPE_CHECKING:
    from pathlib import Path

    from core.model.combatant import Combatant

LIBRARY_PATH = bundled("library.json")


def load_library(path: Path = LIBRARY_PATH) -> list[Combatant]:
    """The templates in ``path``; ValueError naming the file and the first problems."""
    try:
        return [t.combatant for t in load_bestiary(path).templates]
    except BestiaryFileError as error:
        raise ValueError(str(error)) from None


def summary(c: Combatant) -> str:
    """One line for a menu tooltip: what the template is before it is added."""
    a = c.abilities
    return (f"{c.side.value.title()}, {c.size.value}, level/HD {c.level}, HP {c.max_hp}; "
            f"STR {a.strength} DEX {a.dexterity} CON {a.constitution} INT {a.intelligence} "
            f"WIS {a.wisdom} CHA {a.charisma}; armour {c.armour}, shield {c.shield}")
