"""What the players' screen may show: the fog of war over the party's vision, and the tokens
and hazards the GM has not hidden (docs/vision.md).

- *Seen now*: the party's vision (:func:`core.spatial.vision.party_vision`) plus the cells the
  GM revealed by hand, less the cells the GM hid by hand (hiding wins).
- The player view, with fog on: *visible* = seen now; *explored* = the cells recorded as
  explored, less those hidden by hand, plus visible. With fog off every cell is both.
- Tokens shown: not ``gm_only``, and (fog on) standing on a visible cell. Hazards shown: not
  ``gm_only``, with at least one explored cell (draw only its explored cells).

>>> from core.model.combatant import Combatant
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap, WallSegment
>>> wall = WallSegment(x1=2, y1=0, x2=2, y2=2)
>>> enc = Encounter(map=BattleMap(width=4, height=2, walls=[wall]), tokens=[
...     Token(id="hero", combatant=Combatant(name="Hero"), x=0, y=0),
...     Token(id="orc", combatant=Combatant(name="Orc", side="opposition"), x=3, y=1)])
>>> view = player_view(enc)
>>> view.visible.astype(int)
array([[1, 1, 0, 0],
       [1, 1, 0, 0]])
>>> [t.id for t in player_items(enc, view).tokens]
['hero']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import Hazard
from core.spatial.lighting import MANY_CHANGES, changed_rows, reached
from core.spatial.sweep import BoolArray
from core.spatial.vision import (
    Viewer,
    VisionInputs,
    party_viewer,
    same_inputs,
    viewers_sight,
    vision_inputs,
)


@dataclass(frozen=True)
class PlayerView:
    """(height, width) masks of the players' screen."""

    visible: BoolArray
    explored: BoolArray


@dataclass(frozen=True)
class PlayerItems:
    """The tokens and hazards the players' screen may draw, in map order."""

    tokens: tuple[Token, ...]
    hazards: tuple[Hazard, ...]


def seen_now(encounter: Encounter) -> BoolArray:
    """The party's vision with the GM's reveals and hides applied (whether fog is on or off:
    this is what "record what the party sees" adds to the explored cells)."""
    fog, battle_map = encounter.fog, encounter.map
    width, height = battle_map.width, battle_map.height
    seen: BoolArray = ((party_sight(encounter) | fog.cells("revealed", width, height))
                       & ~fog.cells("hidden", width, height))
    return seen


def party_sight(encounter: Encounter) -> BoolArray:
    """:func:`party_vision`, read-only, kept up to date token by token: a party token's
    move recomputes that token's sight alone; a change to the walls, the lights or the
    darkness recomputes every token's."""
    return encounter.derived(_Sight, _Sight).follow(encounter)


@dataclass
class _Sight:
    """How many of the party's viewers see each cell, and each viewer's own sight (as
    packed bits: 11 KB each on a 300 × 300 map). The tokens last counted are kept, so a
    change looks again only at the tokens it replaced: on the scale map (1,346 viewers
    among 3,000 tokens) making every viewer again was 5.3 ms of every edit with fog on."""

    inputs: VisionInputs | None = None
    stamp: tuple[int, int] | None = None  # the encounter's token stamp when last counted
    counted: dict[str, Token] = field(default_factory=dict)
    viewers: Counter[Viewer] = field(default_factory=Counter)
    sights: dict[Viewer, npt.NDArray[np.uint8]] = field(default_factory=dict)
    reaches: dict[Viewer, npt.NDArray[np.float32]] = field(default_factory=dict)
    counts: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros((0, 0), np.int32))
    seen: BoolArray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))

    def follow(self, encounter: Encounter) -> BoolArray:
        """The party's sight now: the viewers who left taken out of the counts, those
        who came added; when walls changed, the viewers whose rays may reach them looked
        at again; everything recounted when anything else all sights read has changed."""
        inputs = vision_inputs(encounter)
        if self.inputs is not None and not same_inputs(self.inputs, inputs):
            self._walls_changed(encounter, inputs)
        if self.inputs is None or not same_inputs(self.inputs, inputs):
            self.inputs, self.stamp, self.counted = inputs, None, {}
            self.viewers, self.sights, self.reaches = Counter(), {}, {}
            self.counts = np.zeros((encounter.map.height, encounter.map.width), np.int32)
            self._publish()
        stamp = encounter.token_stamp()
        if stamp != self.stamp:
            gone, came = self._recount(encounter)
            if gone or came:
                self._move_viewers(encounter, gone, came)
                self._publish()
            self.stamp = stamp
        return self.seen

    def _recount(self, encounter: Encounter) -> tuple[Counter[Viewer], Counter[Viewer]]:
        """The viewers that left and came since the last count: only tokens that are new
        objects (added, moved, edited) or gone are looked at."""
        left, arrived = Counter[Viewer](), Counter[Viewer]()
        before, now = self.counted, {}
        for token in encounter.tokens:
            now[token.id] = token
            old = before.pop(token.id, None)
            if old is not token:
                _tally(left, old)
                _tally(arrived, token)
        for old in before.values():  # removed
            _tally(left, old)
        self.counted = now
        return left - arrived, arrived - left

    def _walls_changed(self, encounter: Encounter, inputs: VisionInputs) -> None:
        """Only the walls changed (a door opened), and few: the viewers whose rays may
        reach the changed ones are looked at again, the others keep their sight (six
        viewers' sight on a 300 × 300 map of 5,000 walls took 50 ms a door)."""
        assert self.inputs is not None
        if self.inputs.lit is not inputs.lit or self.inputs.values != inputs.values:
            return
        differ = changed_rows(self.inputs.segments, inputs.segments)
        if len(differ) > MANY_CHANGES:
            return
        viewers = list(self.reaches)
        eyes = np.array([(*v.footprint.centre, np.inf) for v in viewers]).reshape(-1, 3)
        profiles = np.stack([self.reaches[v] for v in viewers]) if viewers else None
        touched = {viewers[i] for row in differ for i in reached(row, eyes, profiles)}
        multiplicity = Counter({viewer: self.viewers[viewer] for viewer in touched})
        self.inputs = inputs
        self._move_viewers(encounter, multiplicity, Counter())
        self._move_viewers(encounter, Counter(), multiplicity)
        self._publish()

    def _move_viewers(self, encounter: Encounter, gone: Counter[Viewer],
                      came: Counter[Viewer]) -> None:
        for viewer, number in gone.items():
            self.counts -= self._unpacked(viewer) * np.int32(number)
        new = viewers_sight(encounter, [viewer for viewer in came if viewer not in self.sights])
        for viewer, seen in new.items():
            self.sights[viewer] = np.packbits(seen.cells)
            self.reaches[viewer] = seen.reach.astype(np.float32)
        for viewer, number in came.items():
            self.counts += self._unpacked(viewer) * np.int32(number)
        self.viewers.subtract(gone)
        self.viewers.update(came)
        for viewer in gone:
            if self.viewers[viewer] <= 0:
                del self.viewers[viewer], self.sights[viewer], self.reaches[viewer]

    def _unpacked(self, viewer: Viewer) -> BoolArray:
        shape = self.counts.shape
        bits: BoolArray = np.unpackbits(self.sights[viewer], count=self.counts.size).reshape(
            shape).view(bool)
        return bits

    def _publish(self) -> None:
        self.seen = self.counts > 0
        self.seen.flags.writeable = False


def player_view(encounter: Encounter) -> PlayerView:
    """The visible and explored cells of the players' screen."""
    fog, battle_map = encounter.fog, encounter.map
    if not fog.enabled:
        everything = np.ones((battle_map.height, battle_map.width), dtype=bool)
        return PlayerView(visible=everything, explored=everything)
    visible = seen_now(encounter)
    width, height = battle_map.width, battle_map.height
    remembered = fog.cells("explored", width, height) & ~fog.cells("hidden", width, height)
    return PlayerView(visible=visible, explored=remembered | visible)


def player_items(encounter: Encounter, view: PlayerView) -> PlayerItems:
    """The tokens and hazards the players may see in ``view``."""
    xs, ys, sizes = token_boxes(encounter)
    seen: list[bool] = boxes_touch(view.visible, xs, ys, xs + sizes, ys + sizes).tolist()
    tokens = tuple(t for t, shown in zip(encounter.tokens, seen, strict=True)
                   if shown and not t.gm_only)
    hazards = tuple(h for h in encounter.map.hazards
                    if not h.gm_only and _any_cell(view.explored, h.cells))
    return PlayerItems(tokens=tokens, hazards=hazards)


IntArray = npt.NDArray[np.intp]


def token_boxes(encounter: Encounter) -> tuple[IntArray, IntArray, IntArray]:
    """The top-left cells (x, y) and footprint sizes of the encounter's tokens, in map order,
    read-only, kept up to date token by token (reading every token's footprint was 0.6 ms
    of each party move on a map of 300 tokens)."""
    return encounter.derived(_Boxes, _Boxes).follow(encounter)


@dataclass
class _Boxes:
    """The tokens last read and their boxes; a change reads only the tokens that are new
    objects (added, moved, edited)."""

    stamp: tuple[int, int] | None = None
    sizes: dict[str, tuple[Token, int]] = field(default_factory=dict)
    boxes: tuple[IntArray, IntArray, IntArray] = field(
        default_factory=lambda: (np.zeros(0, np.intp),) * 3)

    def follow(self, encounter: Encounter) -> tuple[IntArray, IntArray, IntArray]:
        stamp = encounter.token_stamp()
        if stamp != self.stamp:
            tokens, before = encounter.tokens, self.sizes
            self.sizes = {t.id: (t, _kept_size(before.get(t.id), t)) for t in tokens}
            count = len(tokens)
            boxes = (np.fromiter((t.x for t in tokens), np.intp, count),
                     np.fromiter((t.y for t in tokens), np.intp, count),
                     np.fromiter((self.sizes[t.id][1] for t in tokens), np.intp, count))
            for array in boxes:
                array.flags.writeable = False
            self.boxes, self.stamp = boxes, stamp
        return self.boxes


def _kept_size(kept: tuple[Token, int] | None, token: Token) -> int:
    """The footprint size of ``token``, from ``kept`` when that was read from it."""
    return kept[1] if kept is not None and kept[0] is token else token.footprint.size


def boxes_touch(mask: BoolArray, x0: npt.NDArray[np.intp], y0: npt.NDArray[np.intp],
                x1: npt.NDArray[np.intp], y1: npt.NDArray[np.intp]) -> BoolArray:
    """Whether each box of cells ``[x0, x1) × [y0, y1)`` (clipped to the map) holds a cell
    of ``mask``: four look-ups each in the mask's summed-area table.

    >>> mask = np.array([[False, True], [False, False]])
    >>> boxes_touch(mask, np.array([0, 0]), np.array([0, 1]), np.array([1, 2]),
    ...             np.array([2, 2])).tolist()
    [False, False]
    """
    height, width = mask.shape
    area = np.zeros((height + 1, width + 1), dtype=np.int32)  # 300 × 300 cells fit
    np.cumsum(mask, axis=0, dtype=np.int32, out=area[1:, 1:])
    np.cumsum(area[1:, 1:], axis=1, out=area[1:, 1:])
    x0, x1 = np.clip(x0, 0, width), np.clip(x1, 0, width)
    y0, y1 = np.clip(y0, 0, height), np.clip(y1, 0, height)
    touched: BoolArray = (area[y1, x1] - area[y0, x1] - area[y1, x0] + area[y0, x0]) > 0
    return touched


def _any_cell(mask: BoolArray, cells: Iterable[Cell]) -> bool:
    return any(mask[cell.y, cell.x] for cell in cells)


def _tally(viewers: Counter[Viewer], token: Token | None) -> None:
    """Count ``token`` among ``viewers`` if it sees for the party."""
    viewer = None if token is None else party_viewer(token)
    if viewer is not None:
        viewers[viewer] += 1
