"""Editing the encounter's weapon table (rules-decisions "Missiles": "A weapon table ships as
data (editable, saved with the encounter)") as one reversible command.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> enc = Encounter(tokens=[Token(id="a", combatant=Combatant(name="Ann",
...                                                           weapons=("Sling",)), x=0, y=0)])
>>> ReplaceWeapons([w for w in enc.weapons if w.name != "Sling"]).apply(enc)
Traceback (most recent call last):
...
core.actions.commands.CommandRefusedError: Ann carries the Sling: take it from Ann first
"""

from __future__ import annotations

from collections.abc import Sequence

from core.actions.commands import ChangeSet, Command, CommandRefusedError
from core.model.encounter import Encounter
from core.model.weapons import Weapon


class ReplaceWeapons(Command):
    """Put a new weapon table in place of the encounter's. Refused when a name appears twice
    or a weapon some combatant carries would be gone (renaming one counts as removing it)."""

    label = "Edit weapons"

    def __init__(self, weapons: Sequence[Weapon]) -> None:
        self.after = list(weapons)
        self.before: list[Weapon] = []

    def apply(self, encounter: Encounter) -> ChangeSet:
        problem = self.problem(encounter, self.after)
        if problem:
            raise CommandRefusedError(problem)
        self.before, encounter.weapons = encounter.weapons, list(self.after)
        return ChangeSet(weapons=True)

    def revert(self, encounter: Encounter) -> ChangeSet:
        encounter.weapons = self.before
        return ChangeSet(weapons=True)

    @staticmethod
    def problem(encounter: Encounter, weapons: Sequence[Weapon]) -> str | None:
        """Why this table cannot replace the encounter's, or None."""
        seen: set[str] = set()
        for weapon in weapons:
            if weapon.name.casefold() in seen:
                return f"two weapons are named {weapon.name!r}"
            seen.add(weapon.name.casefold())
        names = {w.name for w in weapons}
        for token in encounter.tokens:
            gone = [name for name in token.combatant.weapons if name not in names]
            if gone:
                return f"{token.name} carries the {gone[0]}: take it from {token.name} first"
        return None
