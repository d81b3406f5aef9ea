"""Which cells the map's lights reach (docs/vision.md §2), kept up to date light by light.

A cell is lit when its centre lies within ``range_cells`` of a light and in that light's
line of sight (:func:`core.spatial.sweep.sight_within`). Computed from scratch, 2,000
lights reaching the whole of a map with 5,000 walls took 24 s, and every door toggled took
it again. :class:`Lighting` keeps each light's lit area and how many lights light each
cell, so a change sweeps again only the lights whose reach it touches:

- a light added or removed (or moved, or its range changed: a new light) is swept or
  taken out, alone;
- a wall added or removed (a door closed or opened) matters to a light only when it lies
  within the light's range and within how far the light's rays reach in the directions it
  spans (the sweep's cull keeps that reach per angle bin, an upper bound that stays one
  when other walls change: a wall behind another never set it lower);
- the map resized: every light again.

:meth:`Lighting.updated` makes the next state without touching the current one, so a
worker thread can compute it while the window draws the last (see
``desktop.document.lighting``). When nothing is kept between calls (a command line
rendering once), :func:`lit_union` is quicker: a cell lit by one light is not tested again.

>>> segments = np.array([[2.0, 0.0, 2.0, 3.0]])  # a wall between columns 1 and 2
>>> lights = (Light(x=0.5, y=1.5, range_cells=1.0),)
>>> Lighting().follow(segments, lights, (3, 4)).astype(int)
array([[1, 0, 0, 0],
       [1, 1, 0, 0],
       [1, 0, 0, 0]])
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.model.limits import MAX_COORDINATE
from core.model.mapmodel import Hazard, Light
from core.spatial.geometry import crosses
from core.spatial.sweep import (
    CULL_BINS,
    EPS,
    BoolArray,
    Box,
    FloatArray,
    Point,
    Sweep,
    bin_of,
    sight_within,
)

Shape = tuple[int, int]  # (height, width)
#: More walls changed at once than this and every light is swept again (a map replaced).
MANY_CHANGES = 256


Lamp = tuple[float, float, float]  # what of a light the lit cells depend on: x, y, range


def hazard_lights(hazards: list[Hazard]) -> tuple[Light, ...]:
    """The light the hazards give (a brazier, burning oil): each lights as one light at the
    middle of its cells, reaching ``light_cells`` beyond the farthest of their centres.

    >>> brazier = Hazard(name="Brazier", cells=((3, 3), (3, 4)), light_cells=4)
    >>> hazard_lights([brazier])
    (Light(x=3.5, y=4.0, range_cells=4.5, colour='ffffffff', intensity=1.0),)
    """
    return tuple(_middle_light(h) for h in hazards if h.light_cells > 0)


def _middle_light(hazard: Hazard) -> Light:
    centres = np.array([(cell.x + 0.5, cell.y + 0.5) for cell in hazard.cells])
    x, y = centres.mean(axis=0)
    spread = float(np.hypot(centres[:, 0] - x, centres[:, 1] - y).max())
    return Light(x=float(x), y=float(y),
                 range_cells=min(hazard.light_cells + spread, MAX_COORDINATE))


def lamp(light: Light) -> Lamp:
    """A light as the lit cells see it (its colour and intensity do not matter), hashed far
    quicker than the model."""
    return light.x, light.y, light.range_cells


class LitArea(NamedTuple):
    """One light's lit cells (packed bits over ``box``), and how far its rays reach per
    angle bin (float32: an upper bound, kept to tell which wall changes can matter)."""

    box: Box
    bits: npt.NDArray[np.uint8]
    reach: npt.NDArray[np.float32]

    @classmethod
    def of(cls, segments: FloatArray, light: Lamp, shape: Shape) -> LitArea:
        height, width = shape
        x, y, radius = light
        seen = sight_within(segments, (x, y), radius, (0, 0, width, height))
        return cls(seen.box, np.packbits(seen.cells), seen.reach.astype(np.float32))

    def cells(self) -> BoolArray:
        x0, y0, x1, y1 = self.box
        count = (x1 - x0) * (y1 - y0)
        unpacked: BoolArray = np.unpackbits(self.bits, count=count).reshape(
            y1 - y0, x1 - x0).view(bool)
        return unpacked


@dataclass
class Lighting:
    """The lit cells of one map: each distinct light's area, how many lights (counted as
    often as they are listed) light each cell, and the segments and lights they follow.

    ``patient``: the keeper (the window) brings it up to date itself, perhaps on a worker
    thread; until then readers get the last lit cells (:meth:`standing`)."""

    segments: FloatArray | None = None
    lights: tuple[Light, ...] = ()
    shape: Shape = (0, 0)
    lamps: Counter[Lamp] = field(default_factory=Counter)
    areas: dict[Lamp, LitArea] = field(default_factory=dict)
    counts: npt.NDArray[np.int32] = field(default_factory=lambda: np.zeros((0, 0), np.int32))
    lit: BoolArray = field(default_factory=lambda: np.zeros((0, 0), dtype=bool))
    patient: bool = False
    #: The last plan of :meth:`_plan`, for the segments and lights it was made for.
    planned: tuple[FloatArray, tuple[Light, ...], Shape, Plan] | None = None

    def follows(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> bool:
        """Whether :attr:`lit` is that of these segments, lights and map size."""
        return self.segments is segments and self.lights == lights and self.shape == shape

    def follow(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape
               ) -> BoolArray:
        """The lit cells of these segments, lights and map size (read-only), brought up to
        date here."""
        if not self.follows(segments, lights, shape):
            self.install(self.updated(segments, lights, shape))
        return self.lit

    def install(self, newer: Lighting) -> None:
        """Take ``newer``'s state (from :meth:`updated`, perhaps made on a worker)."""
        patient = self.patient
        self.__dict__.update(newer.__dict__)
        self.patient = patient

    def standing(self, shape: Shape) -> BoolArray:
        """The last lit cells, on a map of ``shape`` (none lit when it was resized)."""
        if self.lit.shape != shape:
            self.lit = np.zeros(shape, dtype=bool)
            self.lit.flags.writeable = False
        return self.lit

    def updated(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape
                ) -> Lighting:
        """The state for these segments, lights and map size, this one left as it was."""
        plan = self._plan(segments, lights, shape)
        fresh = plan.afresh
        counts = np.zeros(shape, np.int32) if fresh else self.counts.copy()
        areas = {} if fresh else dict(self.areas)
        for light in plan.swept:
            if light in areas:
                _add(counts, areas.pop(light), -self.lamps[light])
            if plan.lamps[light]:
                areas[light] = LitArea.of(segments, light, shape)
                _add(counts, areas[light], plan.lamps[light])
        return replace(self, segments=segments, lights=lights, shape=shape, lamps=plan.lamps,
                       areas=areas, counts=counts,
                       lit=_published(counts, None if fresh else self.lit))

    def work(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> int:
        """About how many cells :meth:`updated` would test: those in reach of each light
        it would sweep (a light reaching the map's far corner: the map)."""
        if self.follows(segments, lights, shape):
            return 0
        cells = shape[0] * shape[1]
        return sum(min(cells, int(4 * radius ** 2) + 1)
                   for _, _, radius in self._plan(segments, lights, shape).swept)

    def _plan(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> Plan:
        """What :meth:`updated` does (kept, as :meth:`work` asks first)."""
        if (self.planned is not None and self.planned[0] is segments
                and self.planned[1] == lights and self.planned[2] == shape):
            return self.planned[3]
        lamps = Counter(map(lamp, lights))
        if shape != self.shape or self.segments is None:
            plan = Plan(lamps, list(lamps), afresh=True)
        else:
            touched = self._touched(segments, lamps)
            counted = [light for light in lamps.keys() | self.lamps.keys()
                       if lamps[light] != self.lamps[light]]
            plan = (Plan(lamps, list(lamps), afresh=True) if touched is None
                    else Plan(lamps, [*touched, *(c for c in counted if c not in touched)]))
        self.planned = (segments, lights, shape, plan)
        return plan

    def _touched(self, segments: FloatArray, lamps: Counter[Lamp]) -> set[Lamp] | None:
        """The lights kept whose areas the wall changes may change (None: too many
        changes, sweep them all)."""
        assert self.segments is not None
        if segments is self.segments:
            return set()
        differ = changed_rows(self.segments, segments)
        if len(differ) > MANY_CHANGES:
            return None
        kept = [light for light in lamps if light in self.areas]
        points = np.array(kept, dtype=np.float64).reshape(-1, 3)
        profiles = np.stack([self.areas[light].reach for light in kept]) if kept else None
        touched: set[Lamp] = set()
        for row in differ:
            touched.update(kept[i] for i in reached(row, points, profiles))
        return touched


class Plan(NamedTuple):
    """How to bring the lit cells up to date: the lights as counted now, those to sweep
    (again), and whether from nothing."""

    lamps: Counter[Lamp]
    swept: list[Lamp]
    afresh: bool = False


def _add(counts: npt.NDArray[np.int32], area: LitArea, number: int) -> None:
    x0, y0, x1, y1 = area.box
    counts[y0:y1, x0:x1] += area.cells().astype(np.int32) * np.int32(number)


def _published(counts: npt.NDArray[np.int32], last: BoolArray | None) -> BoolArray:
    """``counts > 0``, read-only; the last array itself when nothing changed (vision
    caches compare it by identity: a door no light sees costs no token's sight)."""
    lit = counts > 0
    if last is not None and lit.shape == last.shape and np.array_equal(lit, last):
        return last
    lit.flags.writeable = False
    return lit


def changed_rows(old: FloatArray, new: FloatArray) -> FloatArray:
    """The rows (segments) one array holds more often than the other, each once."""
    both = np.ascontiguousarray(np.concatenate([old, new]).reshape(-1, 4))
    keys = both.view(np.dtype((np.void, both.dtype.itemsize * 4))).ravel()
    _, inverse = np.unique(keys, return_inverse=True)
    balance = np.bincount(inverse.ravel(), weights=np.r_[np.ones(len(old)),
                                                         -np.ones(len(new))])
    first = np.unique(inverse.ravel(), return_index=True)[1]
    odd: FloatArray = both[first[balance != 0]]
    return odd


def reached(row: FloatArray, points: FloatArray, profiles: npt.NDArray[np.float32] | None
            ) -> npt.NDArray[np.intp]:
    """Which of the eyes ``points`` (rows x, y, range) may see some of the segment ``row``:
    its nearest point is within their range and no farther than their rays reach
    (``profiles``: per eye and angle bin, an upper bound) in some bin it spans."""
    if profiles is None:
        return np.zeros(0, dtype=np.intp)
    x, y, ranges = points.T
    near = _distance_to(row, x, y)
    close = np.flatnonzero(near <= ranges * (1 + EPS) + EPS)
    if close.size == 0:
        return close
    ax, ay = row[0] - x[close] + 0.0, row[1] - y[close] + 0.0
    bx, by = row[2] - x[close] + 0.0, row[3] - y[close] + 0.0
    turn = ax * by - ay * bx < 0  # the segment runs clockwise: its span starts at b
    first = bin_of(np.arctan2(np.where(turn, by, ay), np.where(turn, bx, ax)))
    last = bin_of(np.arctan2(np.where(turn, ay, by), np.where(turn, ax, bx)))
    spans = (last - first) % CULL_BINS + 1
    eye = np.repeat(np.arange(close.size), spans)
    starts = np.cumsum(spans) - spans
    bins = (first[eye] + np.arange(eye.size) - starts[eye]) % CULL_BINS
    farthest = np.maximum.reduceat(profiles[close[eye], bins], starts)
    may: npt.NDArray[np.intp] = close[near[close] <= farthest * (1 + EPS) + EPS]
    return may


def _distance_to(row: FloatArray, x: FloatArray, y: FloatArray) -> FloatArray:
    """Distance from each point (x, y) to the segment ``row``."""
    x1, y1, x2, y2 = row  # one segment, or (with rows of four) many
    ex, ey = x2 - x1, y2 - y1
    length = ex * ex + ey * ey
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.clip(np.where(length > 0, ((x - x1) * ex + (y - y1) * ey) / length, 0.0), 0, 1)
    distance: FloatArray = np.hypot(x1 + t * ex - x, y1 + t * ey - y)
    return distance


def lit_union(segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> BoolArray:
    """The lit cells computed once, from scratch (no areas kept)."""
    return LitUnion(segments, lights, shape).within(None)


class LitUnion:
    """The lit cells of one set of segments, lights and map size, worked out only where
    asked (a render of the players' screen asks where the party looks): each light tests
    only the cells asked for that no light before it lit, and is not swept at all when
    there are none."""

    def __init__(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> None:
        self.segments, self.lights, self.shape = segments, lights, shape
        self._lit = np.zeros(shape, dtype=bool)
        self._tried = np.zeros(shape, dtype=bool)  # every light looked at these cells
        self._near = SegmentBoxes(segments)

    def follows(self, segments: FloatArray, lights: tuple[Light, ...], shape: Shape) -> bool:
        return self.segments is segments and self.lights == lights and self.shape == shape

    def within(self, where: BoolArray | None) -> BoolArray:
        """The lit cells (read-only), worked out at least where ``where`` (None: all)."""
        todo = ~self._tried if where is None else where & ~self._tried
        if todo.any():
            self._light(todo)
            self._tried |= todo
        lit = self._lit.view()
        lit.flags.writeable = False
        return lit

    def _light(self, todo: BoolArray) -> None:
        """Light the cells of ``todo``, light after light, each light testing only the cells
        in its range not lit before it (on 2,000 lights reaching the whole of a map with
        5,000 walls the cells still dark soon are a few pockets no light sees) against the
        walls near it. A light with few cells and walls to test goes into a batch of rays
        tested all at once (:class:`RayBatch`); the others are swept."""
        dark = DarkCells(todo.copy())
        batch = RayBatch(self._lit)
        for light in dict.fromkeys(self.lights):
            wanted = dark.wanted(light)
            if wanted is None:
                continue
            rows, columns, dx, dy = wanted
            far = math.sqrt(float((dx * dx + dy * dy).max()))
            walls = self._near.within(light.x, light.y, far)
            if rows.size * len(walls) <= RAY_PAIRS:
                batch.add((light.x, light.y), wanted, walls)
                continue
            seen = Sweep.around(walls, (light.x, light.y), far).sees(dx, dy)
            self._lit[rows[seen], columns[seen]] = True
            dark.mask[rows[seen], columns[seen]] = False
        batch.flush()


Cells = tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray, FloatArray]


class DarkCells:
    """The cells still to light, as a mask, and for the lights reaching a good part of the
    map as the list of those cells (shorter than a scan of the light's box once most of the
    map is lit), pruned when asked for."""

    def __init__(self, mask: BoolArray) -> None:
        self.mask = mask
        self._listed: npt.NDArray[np.intp] | None = None

    def wanted(self, light: Light) -> Cells | None:
        """The dark cells whose centres lie within the light's range: rows, columns and the
        centres' offsets from the light (None: there are none)."""
        height, width = self.mask.shape
        radius = light.range_cells
        x0, y0 = max(math.floor(light.x - radius), 0), max(math.floor(light.y - radius), 0)
        x1 = min(math.ceil(light.x + radius) + 1, width)
        y1 = min(math.ceil(light.y + radius) + 1, height)
        if x0 >= x1 or y0 >= y1:
            return None
        if 4 * (x1 - x0) * (y1 - y0) < self.mask.size:
            rows, columns = np.nonzero(self.mask[y0:y1, x0:x1])
            rows, columns = rows + y0, columns + x0
        else:
            rows, columns = np.divmod(self._list(), width)
        # (cell + 0.5) - light: the very floats the sweep and the oracle measure
        dx = np.asarray(columns + 0.5 - light.x, dtype=np.float64)
        dy = np.asarray(rows + 0.5 - light.y, dtype=np.float64)
        inside = np.flatnonzero(dx * dx + dy * dy <= radius ** 2 * (1 + EPS))
        if inside.size == 0:
            return None
        return rows[inside], columns[inside], dx[inside], dy[inside]

    def _list(self) -> npt.NDArray[np.intp]:
        if self._listed is None:
            self._listed = np.flatnonzero(self.mask)
        else:
            self._listed = self._listed[self.mask.ravel()[self._listed]]
        return self._listed


#: A light with at most this many (cell, wall) pairs to test joins a batch of rays: a sweep
#: costs some 0.2 ms however few its walls; a batch compares a pair's boxes in a few ns and
#: tests the crossing only where they meet. Past this, sweeping is as quick (measured on
#: 200 lights among 5,000 walls).
RAY_PAIRS = 16384
#: Pairs a batch holds before it is tested (bounds its memory: ~100 bytes a pair).
BATCH_PAIRS = 1 << 17


class RayBatch:
    """Rays from lights to cell centres, tested together against each light's walls: a
    cell is lit when its ray meets none of the walls (:func:`geometry.crosses`, the closed
    segments of :func:`geometry.segments_intersect`) but those through the light, which
    hide nothing (as in :class:`Sweep`)."""

    def __init__(self, lit: BoolArray) -> None:
        self.lit = lit
        self.parts: list[tuple[Point, npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray,
                               FloatArray, FloatArray]] = []
        self.pairs = 0

    def add(self, eye: Point, cells: Cells, walls: FloatArray) -> None:
        """Hold the rays from ``eye`` to ``cells`` (rows, columns, offsets from the eye),
        to be tested against ``walls``; a cell whose centre is the eye is lit at once."""
        rows, columns, dx, dy = cells
        on_eye = (dx == 0) & (dy == 0)
        if on_eye.any():
            self.lit[rows[on_eye], columns[on_eye]] = True
            rows, columns, dx, dy = (part[~on_eye] for part in cells)
        near = _distance_to(walls.T, np.full(1, eye[0]), np.full(1, eye[1]))
        live = walls[near > EPS]
        self.parts.append((eye, rows, columns, dx, dy, live))
        self.pairs += rows.size * len(live)
        if self.pairs >= BATCH_PAIRS:
            self.flush()

    def flush(self) -> None:
        """Test the rays held and light the cells they reach."""
        if not self.parts:
            return
        eyes, rows, columns, dx, dy, walls = zip(*self.parts, strict=True)
        self.parts, self.pairs = [], 0
        cells = np.array([r.size for r in rows])
        count = np.array([len(w) for w in walls])
        per_cell = np.repeat(count, cells)  # walls to test each cell's ray against
        cell = np.repeat(np.arange(per_cell.size), per_cell)
        first_wall = np.repeat(np.cumsum(count) - count, cells)  # the cell's light's walls
        wall = first_wall[cell] + np.arange(cell.size) - np.repeat(
            np.cumsum(per_cell) - per_cell, per_cell)
        eye = np.repeat(np.array(eyes, dtype=np.float64).reshape(-1, 2), cells, axis=0)
        ray_x, ray_y = np.concatenate(dx), np.concatenate(dy)
        segments = np.concatenate(walls).reshape(-1, 4)
        near = _boxes_meet(eye, (ray_x, ray_y), segments, (cell, wall))
        cell, wall = cell[near], wall[near]
        hit = crosses(eye[cell, 0], eye[cell, 1], ray_x[cell], ray_y[cell], segments[wall])
        seen = np.bincount(cell[hit], minlength=per_cell.size) == 0
        self.lit[np.concatenate(rows)[seen], np.concatenate(columns)[seen]] = True


#: How far (cells) a ray and a wall that meet within the tolerance of segments_intersect
#: (EPS on the parameters along each) can lie outside each other's boxes, and more.
BOX_SLACK = 1e-3


def _boxes_meet(eye: FloatArray, ray: tuple[FloatArray, FloatArray], segments: FloatArray,
                pairs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]) -> BoolArray:
    """For the pairs (cell, wall): whether the box of the ray from the eye to the cell's
    centre meets the wall's box; the rays that do not cannot meet the wall."""
    cell, wall = pairs
    x1, y1, x2, y2 = segments.T
    low = (np.minimum(x1, x2) - BOX_SLACK, np.minimum(y1, y2) - BOX_SLACK)
    high = (np.maximum(x1, x2) + BOX_SLACK, np.maximum(y1, y2) + BOX_SLACK)
    meet = np.ones(cell.size, dtype=bool)
    for axis, offset in enumerate(ray):
        start, end = eye[:, axis], eye[:, axis] + offset
        meet &= low[axis][wall] <= np.maximum(start, end)[cell]
        meet &= high[axis][wall] >= np.minimum(start, end)[cell]
    return meet


class SegmentBoxes:
    """Segments with their bounding boxes, to hand a sweep only those that may come within
    its reach (the sweep drops the others itself, after a few whole-array passes over
    them: on the benchmark's 3,000 walls, most of a light's time)."""

    def __init__(self, segments: FloatArray) -> None:
        self.segments = segments.reshape(-1, 4)
        x1, y1, x2, y2 = self.segments.T
        self.low_x, self.high_x = np.minimum(x1, x2), np.maximum(x1, x2)
        self.low_y, self.high_y = np.minimum(y1, y2), np.maximum(y1, y2)
        self.extent = ((float(self.low_x.min()), float(self.low_y.min()),
                        float(self.high_x.max()), float(self.high_y.max()))
                       if len(self.segments) else (0.0, 0.0, 0.0, 0.0))

    def within(self, x: float, y: float, reach: float) -> FloatArray:
        """The segments whose boxes come within ``reach`` (and a cell more) of (x, y):
        every segment with a point that near."""
        margin = reach + 1
        left, top, right, bottom = self.extent
        if x - margin <= left and y - margin <= top and x + margin >= right and (
                y + margin >= bottom):
            return self.segments  # a light reaching past every wall: no copy
        near = ((self.low_x <= x + margin) & (self.high_x >= x - margin)
                & (self.low_y <= y + margin) & (self.high_y >= y - margin))
        found: FloatArray = self.segments[near]
        return found
