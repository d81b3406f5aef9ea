"""The ground a player's drag is previewed over: what the players know of the map.

A player previews a drag of their own token from their own device before asking for it,
as often as they like. Were the preview ruled on the whole map, it would answer for the
fog (a path through unexplored cells, a cost that counts a hidden passage) and for
creatures the players cannot see (one standing on the goal, one that blocks a corridor).
So a preview's graph lets the token's footprint only onto cells the party has explored,
and counts as obstacles only the creatures the players see (:mod:`core.spatial.playerview`).
The move itself, once asked for, is ruled on the whole map like the GM's own drag.

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap
>>> enc = Encounter(map=BattleMap(width=4, height=1), tokens=[
...     Token(id="hero", combatant=Combatant(name="Hero"), x=0, y=0),
...     Token(id="spy", combatant=Combatant(name="Spy", side="opposition"), x=2, y=0)])
>>> explored = np.array([[True, True, True, False]])
>>> graph = KnownGroundGraph(enc, enc.token("hero"), explored, shown=frozenset({"hero"}))
>>> graph.passable.astype(int).tolist()
[[1, 1, 1, 0]]
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.spatial.footprints import footprint_layers, window_all, window_any
from core.spatial.geometry import BoolArray
from core.spatial.pathing import MovementGraph


class KnownGroundGraph(MovementGraph):
    """A token's movement graph over the ``explored`` cells, in which only the creatures
    in ``shown`` (ids) stand in the way."""

    def __init__(self, encounter: Encounter, token: Token, explored: BoolArray, *,
                 shown: Collection[str]) -> None:
        super().__init__(encounter, token)
        others = _others_shown(encounter, token.combatant.side, shown)
        known = window_all(np.asarray(explored, dtype=bool), self.size)
        self.passable = (footprint_layers(encounter, self.size).interior
                         & ~window_any(others, self.size) & known)


def _others_shown(encounter: Encounter, side: Side, shown: Collection[str]) -> BoolArray:
    """The cells under the creatures of other sides that the players see."""
    cells = np.zeros((encounter.map.height, encounter.map.width), dtype=bool)
    for token_id in shown:
        if encounter.has_token(token_id):
            token = encounter.token(token_id)
            if token.combatant.side is not side:
                x, y, size = token.footprint
                cells[y:y + size, x:x + size] = True
    return cells
