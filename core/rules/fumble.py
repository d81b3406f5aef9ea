"""Fumbles (002 "Fumble": "On a fumble you save on a d10 < fighting level. If you fail then a
critial event occurs that benefits the opponent. Alternatively something specific to the
scene may occur.").

A fumble is an attack roll whose dice all show 1 while the ``fumble`` option is on
(:func:`core.rules.injury.natural`); it misses. The fumbler saves on ``fumble_save_die``
(d10) below its level; failing, a critical event is rolled on 002's d30 table for the pair
and falls so that it benefits the opponent (:func:`core.rules.critical.resolve_critical`
with ``benefits``): a boon (lucky break, lucky openings, strike 2, hero point) on the
opponent, any other one-sided event on the fumbler, a pair event on both. The GM's "something
specific to the scene" is the GM's to play instead.
"""

from __future__ import annotations

from core.model.combatant import Side
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.rules.critical import CriticalResult, resolve_critical
from core.rules.value import RulesValue


class FumbleResult(RulesValue):
    """The fumble save and, when it failed, the critical event."""

    fumbler: str
    level: int
    roll: RollRecord
    event: CriticalResult | None = None

    @property
    def saved(self) -> bool:
        return self.event is None

    def describe(self) -> str:
        head = (f"{self.fumbler} fumbles: save {self.roll.total} on the "
                f"{self.roll.expression} against level {self.level}")
        if self.event is None:
            return f"{head} — saved"
        return f"{head} — fails: {self.event.summary} ({self.event.note})"


def resolve_fumble(encounter: Encounter, fumbler_id: str, opponent_id: str,
                   dice: DiceSource) -> FumbleResult:
    """The save (``fumble_save_die`` below the fumbler's level) and, failing it, a critical
    event benefiting the opponent."""
    fumbler, opponent = encounter.token(fumbler_id), encounter.token(opponent_id)
    level = fumbler.combatant.level
    roll = dice.roll(encounter.profile.fumble_save_die,
                     f"{fumbler.name} fumble save (below level {level})")
    if roll.total < level:
        return FumbleResult(fumbler=fumbler.name, level=level, roll=roll)
    event = resolve_critical(encounter, _as_pair(fumbler, opponent), dice,
                             benefits=opponent.id)
    return FumbleResult(fumbler=fumbler.name, level=level, roll=roll, event=event)


def _as_pair(fumbler: Token, opponent: Token) -> tuple[str, str]:
    """The pair as the critical table wants it: the party's creature first (a retreat moves
    the side of the one it falls on)."""
    if fumbler.combatant.side is Side.OPPOSITION and opponent.combatant.side is Side.PARTY:
        return opponent.id, fumbler.id
    return fumbler.id, opponent.id
