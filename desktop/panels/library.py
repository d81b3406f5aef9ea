"""Combatant templates (the bundled ``assets/library.json``, a bestiary file) and where a
new token goes on the map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.system.resources import bundled

if TYPE_CHECKING:
    from core.model.combatant import Combatant

LIBRARY_PATH = bundled("library.json")


def summary(c: Combatant) -> str:
    """One line for a menu tooltip: what the template is before it is added."""
    a = c.abilities
    return (f"{c.side.value.title()}, {c.size.value}, level/HD {c.level}, HP {c.max_hp}; "
            f"STR {a.strength} DEX {a.dexterity} CON {a.constitution} INT {a.intelligence} "
            f"WIS {a.wisdom} CHA {a.charisma}; armour {c.armour}, shield {c.shield}")
