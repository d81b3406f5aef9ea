"""Token portraits: give a token art, or take it away, as one undo step.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Token
>>> enc = Encounter(tokens=[Token(id="g", combatant=Combatant(name="Gorm"), x=0, y=0)])
>>> key, art = Portrait.from_bytes(b"...png bytes...", "png")
>>> _ = SetPortrait("g", key, art).apply(enc)
>>> enc.token("g").combatant.portrait == key, list(enc.portraits) == [key]
(True, True)
>>> _ = SetPortrait("g", None).apply(enc)  # the last token showing it: the art goes too
>>> enc.token("g").combatant.portrait, enc.portraits
(None, {})
"""

from __future__ import annotations

from core.actions.commands import ChangeSet, Command, CommandRefusedError
from core.model.combatant import Combatant
from core.model.encounter import Encounter
from core.model.limits import MAX_PORTRAITS
from core.model.portrait import Portrait


class SetPortrait(Command):
    """Show ``portrait`` (stored under ``key``) in a token's circle, or no portrait when
    ``key`` is None. The token's old art, when no other token shows it, leaves the
    encounter with this step (and comes back with its undo), so replacing art never bloats
    the file. (Art of a deleted token stays: undoing the deletion needs it.)"""

    def __init__(self, token_id: str, key: str | None, portrait: Portrait | None = None) -> None:
        self.token_id, self.key, self.portrait = token_id, key, portrait
        self.label = "Set portrait" if key else "Remove portrait"
        self.before: tuple[Combatant, dict[str, Portrait]] | None = None

    def apply(self, encounter: Encounter) -> ChangeSet:
        token = encounter.token(self.token_id)
        portraits = dict(encounter.portraits)
        if self.key is not None and self.key not in portraits:
            if self.portrait is None:
                raise CommandRefusedError(f"no portrait {self.key} in this encounter")
            if len(portraits) >= MAX_PORTRAITS:
                raise CommandRefusedError(f"an encounter holds at most {MAX_PORTRAITS} "
                                          "portraits; remove some art first")
            portraits[self.key] = self.portrait
        self.before = token.combatant, encounter.portraits
        encounter.portraits = portraits
        encounter.put_token(token.with_combatant(
            token.combatant.model_copy(update={"portrait": self.key, "image": None})))
        old = self.before[0].portrait
        if old is not None and old != self.key and not _shown(encounter, old):
            del encounter.portraits[old]
        return ChangeSet(tokens=frozenset({token.id}))

    def revert(self, encounter: Encounter) -> ChangeSet:
        assert self.before is not None
        combatant, portraits = self.before
        encounter.portraits = portraits
        token = encounter.token(self.token_id)
        encounter.put_token(token.with_combatant(combatant))
        return ChangeSet(tokens=frozenset({token.id}))


def _shown(encounter: Encounter, key: str) -> bool:
    return any(t.combatant.portrait == key for t in encounter.tokens)
