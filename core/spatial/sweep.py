"""Which cell centres a point sees past thin wall segments: an exact angular sweep in numpy.

A cell is seen from the eye when the closed segment from the eye to the cell's centre meets
no blocking segment; touching counts as blocked, exactly as
:meth:`core.spatial.geometry.MapGeometry.line_of_sight` (so two walls meeting at a corner
leave no crack to see through). Segments that pass through the eye itself are ignored: a
creature standing astride a prop's outline sees both ways.

The algorithm (a visibility polygon by angular sweep, evaluated at the cell centres rather
than drawn as a polygon):

1. Every endpoint's direction from the eye is a *critical ray*; between two neighbouring
   critical rays lies an *interval* that no segment starts or ends in. Each segment covers
   a run of whole intervals.
2. A coarse pass over 1024 equal angle bins drops the segments that lie wholly behind a
   nearer segment covering the same bins (most of a map's walls, seen from inside a room),
   and bounds how far any ray in each bin reaches: cells beyond are hidden at once, and
   only cells in the bounding box of what is left in reach are looked at.
3. For each interval the nearest segment is found at both of its bounding rays. Two
   segments cross at most once, so when one segment is nearest at both ends it is nearest
   across the whole interval; a cell inside it is hidden exactly when its ray meets that
   segment. Intervals where the nearest changes (crossing walls, ties at a shared corner)
   test their cells against every segment covering them.
4. A cell whose ray *is* a critical ray (lined up with a wall end, common on a grid) is
   hidden when it lies at or beyond the nearest blocker on that ray: anything touching it
   from either side, or a segment lying along it.

Cost: O((S + P) log S) for S segments and P (segment, interval) pairs after the cull, plus
a few array operations per cell in reach.

Why this and not a library (benchmarks/vision_bench.py, docs/vision.md §7; six tokens on
the 200×200 map with 3,000 walls): this sweep takes 6-11 ms per party and is exact. tcod's
field of view on a doubled grid (walls as half-cell-thick lines between cells) takes 0.6-1.1
ms but gets 165-781 of the ~5,100 seen cells wrong, and its grid costs 43-73 ms to rebuild
after a wall edit; "seen" would then disagree with the line of sight that decides missiles.
``MapGeometry.line_of_sight`` per cell is exact but takes about 4 s. pyvispoly (CGAL) needs
polygons with holes and cannot hold free-standing walls, doors and windows.

>>> wall = np.array([[2.0, 0.0, 2.0, 1.0]])  # the east side of cell (1, 0)
>>> sight_over(wall, (0.5, 0.5), (0, 0, 4, 3)).cells.astype(int)  # (3, 1): grazes the end
array([[1, 1, 0, 0],
       [1, 1, 1, 0],
       [1, 1, 1, 1]])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
Point = tuple[float, float]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in cells, ends exclusive

EPS = 1e-9  # the tolerance of geometry.segments_intersect, on the ray's parameter
ANGLE_EPS = 1e-9  # rays closer than this (radians) are one ray
CULL_BINS = 1024
#: Above this many segments in reach, the nearest this many are culled first (see
#: :meth:`Sweep.around`): 5,000 walls seen from a light far out cost 1.5 ms a sweep, 0.7 after.
PRE_CULL = 256
TAU = 2 * math.pi


def sight_over(segments: FloatArray, eye: Point, box: Box) -> Seen:
    """What the eye sees past ``segments`` (rows x1, y1, x2, y2 in grid units), as a
    (y1 - y0, x1 - x0) mask over the cells of ``box``: True where it sees the cell's
    centre. Only the cells within the bounding box of what the cull leaves in reach are
    tested."""
    x0, y0, x1, y1 = box
    cells = np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), dtype=bool)
    found = sight_within(segments, eye, math.inf, box)
    sx0, sy0, sx1, sy1 = found.box
    cells[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = found.cells
    return Seen(box, cells, found.reach)


class Seen(NamedTuple):
    """The cells an eye sees, as a mask over ``box``, and how far its rays reach in each
    cull bin (an upper bound: infinity where no one segment closes a bin)."""

    box: Box
    cells: BoolArray
    reach: FloatArray


def sight_within(segments: FloatArray, eye: Point, radius: float, box: Box,
                 skip: BoolArray | None = None) -> Seen:
    """The cells of ``box`` whose centres lie within ``radius`` of the eye and that it
    sees, over a box within ``box`` (perhaps empty): only the cells within the bounding box
    of what the cull leaves in reach are tested (a light in a room costs its room, not the
    map), and none that ``skip`` (a mask over the whole grid from (0, 0)) marks: those are
    reported unseen."""
    x0, y0, x1, y1 = box
    if radius < math.inf:  # the radius's box, a cell wider for the tolerance
        x0, y0 = max(x0, math.floor(eye[0] - radius) - 1), max(y0, math.floor(eye[1] - radius) - 1)
        x1, y1 = min(x1, math.ceil(eye[0] + radius) + 1), min(y1, math.ceil(eye[1] + radius) + 1)
    x1, y1 = max(x0, x1), max(y0, y1)
    across: FloatArray = np.arange(x0, x1, dtype=np.float64) + (0.5 - eye[0])
    down: FloatArray = np.arange(y0, y1, dtype=np.float64) + (0.5 - eye[1])
    square = down[:, None] ** 2 + across[None, :] ** 2
    wanted = square <= radius * radius * (1 + EPS)
    if skip is not None:
        wanted &= ~skip[y0:y1, x0:x1]
    if not wanted.any():  # nothing to look for (all lit already): no sweep
        return Seen((x0, y0, x0, y0), np.zeros((0, 0), dtype=bool), np.full(CULL_BINS, np.inf))
    far = math.sqrt(float(np.max(square, where=wanted, initial=0.0)))
    sweep = Sweep.around(segments, eye, far)
    left, top, right, bottom = sweep.bounds(far)
    sx0, sy0 = max(x0, math.floor(eye[0] + left)), max(y0, math.floor(eye[1] + top))
    sx1, sy1 = min(x1, math.ceil(eye[0] + right)), min(y1, math.ceil(eye[1] + bottom))
    sx1, sy1 = max(sx0, sx1), max(sy0, sy1)
    seen = np.zeros((sy1 - sy0, sx1 - sx0), dtype=bool)
    rows, columns = np.nonzero(wanted[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0])
    seen[rows, columns] = sweep.sees(across[columns + (sx0 - x0)], down[rows + (sy0 - y0)])
    return Seen((sx0, sy0, sx1, sy1), seen, sweep.reach)


@dataclass
class _Segments:
    """Segments relative to the eye, each running counter-clockwise from its end a."""

    ax: FloatArray
    ay: FloatArray
    ex: FloatArray  # b - a
    ey: FloatArray

    @classmethod
    def around(cls, segments: FloatArray, eye: Point) -> _Segments:
        # + 0.0 turns -0.0 into 0.0: arctan2 would put the two on opposite sides of pi.
        ax, ay, bx, by = (segments.reshape(-1, 4) - np.array([*eye, *eye]) + 0.0).T
        swap = ax * by - ay * bx < 0
        return cls(np.where(swap, bx, ax), np.where(swap, by, ay),
                   np.where(swap, ax - bx, bx - ax), np.where(swap, ay - by, by - ay))

    def __getitem__(self, keep: BoolArray | IntArray) -> _Segments:
        return _Segments(self.ax[keep], self.ay[keep], self.ex[keep], self.ey[keep])

    @property
    def size(self) -> int:
        return self.ax.size

    def angles(self) -> tuple[FloatArray, FloatArray]:
        """The directions of ends a and b from the eye."""
        return np.arctan2(self.ay, self.ax), np.arctan2(self.ay + self.ey, self.ax + self.ex)

    def nearest_point(self) -> FloatArray:
        """Distance from the eye to each segment."""
        length = self.ex * self.ex + self.ey * self.ey
        with np.errstate(divide="ignore", invalid="ignore"):
            t = -(self.ax * self.ex + self.ay * self.ey) / length
        t = np.clip(np.where(length > 0, t, 0.0), 0.0, 1.0)
        px, py = self.ax + t * self.ex, self.ay + t * self.ey
        distance: FloatArray = np.sqrt(px * px + py * py)
        return distance

    def along(self, index: IntArray, cos: FloatArray, sin: FloatArray) -> FloatArray:
        """Distance along the unit rays (cos, sin) to the line of each indexed segment."""
        ex, ey = self.ex[index], self.ey[index]
        with np.errstate(divide="ignore", invalid="ignore"):
            distance: FloatArray = ((self.ax[index] * ey - self.ay[index] * ex)
                                    / (cos * ey - sin * ex))
        return distance

    def hit(self, index: IntArray, dx: FloatArray, dy: FloatArray) -> BoolArray:
        """Whether the closed segment from the eye to (dx, dy) meets each indexed segment,
        for rays within the segment's angular span (only the distance is in question)."""
        ex, ey = self.ex[index], self.ey[index]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (self.ax[index] * ey - self.ay[index] * ex) / (dx * ey - dy * ex)
        met: BoolArray = t <= 1 + EPS
        return met


@dataclass
class Sweep:
    """The segments that matter around one eye, the critical rays, and per cull bin how far
    any ray in it can reach."""

    segments: _Segments
    crit: FloatArray  # critical ray angles, ascending in (-pi, pi]
    ka: IntArray  # each segment's first interval (the critical ray of its end a)
    kb: IntArray  # the critical ray of its end b
    reach: FloatArray

    @classmethod
    def around(cls, segments: FloatArray, eye: Point, reach: float) -> Sweep:
        """The sweep of the segments that can hide something within ``reach`` of the eye."""
        near_eye = _Segments.around(segments, eye)
        near = near_eye.nearest_point()
        keep = (near > EPS) & (near <= reach + EPS)
        near_eye, near = near_eye[keep], near[keep]
        if near.size > PRE_CULL:
            # The nearest segments hide most of the others: bound the reach with them, then
            # drop what lies beyond it before the cull spreads every segment over its bins.
            nearest = np.argpartition(near, PRE_CULL)[:PRE_CULL]
            survive = _Cull(near_eye[nearest]).may_hide(near_eye, near)
            near_eye, near = near_eye[survive], near[survive]
        cull = _Cull(near_eye)
        kept = near_eye[cull.needed(near)]
        angle_a, angle_b = kept.angles()
        crit = _merged_rays(np.concatenate([angle_a, angle_b]))
        return cls(kept, crit, _ray_index(crit, angle_a), _ray_index(crit, angle_b), cull.reach)

    @property
    def rays(self) -> int:
        return len(self.crit)

    def bounds(self, reach: float) -> tuple[float, float, float, float]:
        """Eye-relative (left, top, right, bottom) around every point within ``reach`` that
        the cull has not ruled out, one cell wider than the bins' corners (their arcs bulge
        by less than 0.002 cells at 300)."""
        far = np.minimum(self.reach, reach)
        xs = np.concatenate([far * _EDGE_COS[:-1], far * _EDGE_COS[1:], [0.0]])
        ys = np.concatenate([far * _EDGE_SIN[:-1], far * _EDGE_SIN[1:], [0.0]])
        return (float(xs.min()) - 1, float(ys.min()) - 1, float(xs.max()) + 1,
                float(ys.max()) + 1)

    def sees(self, dx: FloatArray, dy: FloatArray) -> BoolArray:
        """Whether the points at offsets (dx, dy) from the eye are seen. Points beyond their
        cull bin's reach are hidden at once; the rest go through the exact test."""
        angle = np.arctan2(dy, dx)
        distance = np.sqrt(dx * dx + dy * dy)
        seen = distance <= self.reach[bin_of(angle)] * (1 + EPS) + EPS
        if self.rays:
            test = np.flatnonzero(seen & (distance > 0))
            seen[test] = ~self._hidden(angle[test], distance[test], dx[test], dy[test])
        return seen

    def _hidden(self, angle: FloatArray, distance: FloatArray, dx: FloatArray, dy: FloatArray
                ) -> BoolArray:
        rays = self.rays
        start = (np.searchsorted(self.crit, angle, side="right") - 1) % rays
        end = (start + 1) % rays
        table = _IntervalTable.of(self)
        hidden = table.hides_inside(self.segments, start, dx, dy)
        on_start = (angle - self.crit[start]) % TAU <= ANGLE_EPS
        on_end = (self.crit[end] - angle) % TAU <= ANGLE_EPS
        hidden[on_start | on_end] = False
        for ray, on_ray in ((start, on_start), (end, on_end)):
            hidden[on_ray] |= table.ray_nearest[ray[on_ray]] <= distance[on_ray] * (1 + EPS)
        return hidden


@dataclass
class _IntervalTable:
    """Per interval: its one nearest segment (or -1), whether the nearest changes inside
    it ("mixed") with the (segment, interval) pairs of those intervals; per critical ray the
    distance to the nearest blocker on it."""

    nearest: IntArray
    mixed: BoolArray
    pair_segment: IntArray
    pair_interval: IntArray
    ray_nearest: FloatArray

    @classmethod
    def of(cls, sweep: Sweep) -> _IntervalTable:
        rays, segments = sweep.rays, sweep.segments
        spans = (sweep.kb - sweep.ka) % rays
        segment = np.repeat(np.arange(spans.size), spans)
        first = np.cumsum(spans) - spans
        interval = (sweep.ka[segment] + np.arange(segment.size) - first[segment]) % rays
        cos, sin = np.cos(sweep.crit), np.sin(sweep.crit)
        following = (interval + 1) % rays
        start_min, start_seg = _nearest(
            rays, interval, segments.along(segment, cos[interval], sin[interval]), segment)
        end_min, end_seg = _nearest(
            rays, interval, segments.along(segment, cos[following], sin[following]), segment)
        ray_nearest = np.minimum(start_min, np.roll(end_min, 1))
        radial = np.flatnonzero(spans == 0)  # segments lying along a critical ray
        ends = np.minimum(np.hypot(segments.ax[radial], segments.ay[radial]),
                          np.hypot(segments.ax[radial] + segments.ex[radial],
                                   segments.ay[radial] + segments.ey[radial]))
        np.minimum.at(ray_nearest, sweep.ka[radial], ends)
        mixed = start_seg != end_seg
        in_mixed = mixed[interval]
        return cls(np.where(mixed, -1, start_seg), mixed, segment[in_mixed],
                   interval[in_mixed], ray_nearest)

    def hides_inside(self, segments: _Segments, interval: IntArray, dx: FloatArray,
                     dy: FloatArray) -> BoolArray:
        """Hidden, for points strictly inside their interval."""
        nearest = self.nearest[interval]
        simple = nearest >= 0
        hidden = np.zeros(dx.shape, dtype=bool)
        hidden[simple] = segments.hit(nearest[simple], dx[simple], dy[simple])
        mixed = np.flatnonzero(self.mixed[interval])
        if mixed.size:
            hidden[mixed] = self._hides_mixed(segments, interval[mixed], dx[mixed], dy[mixed])
        return hidden

    def _hides_mixed(self, segments: _Segments, interval: IntArray, dx: FloatArray,
                     dy: FloatArray) -> BoolArray:
        """Each point against every segment covering its interval."""
        order = np.argsort(self.pair_interval, kind="stable")
        sorted_interval = self.pair_interval[order]
        start = np.searchsorted(sorted_interval, interval, side="left")
        count = np.searchsorted(sorted_interval, interval, side="right") - start
        point = np.repeat(np.arange(interval.size), count)
        offset = np.arange(point.size) - np.repeat(np.cumsum(count) - count, count)
        met = segments.hit(self.pair_segment[order[start[point] + offset]], dx[point],
                           dy[point])
        hidden: BoolArray = np.bincount(point[met], minlength=interval.size) > 0
        return hidden


def _nearest(rays: int, interval: IntArray, distance: FloatArray, segment: IntArray
             ) -> tuple[FloatArray, IntArray]:
    """Per interval the smallest distance and a segment at it (-1 where none)."""
    smallest = np.full(rays, np.inf)
    np.minimum.at(smallest, interval, distance)
    which = np.full(rays, -1, dtype=np.intp)
    at_min = distance <= smallest[interval]
    which[interval[at_min]] = segment[at_min]
    return smallest, which


def _merged_rays(angles: FloatArray) -> FloatArray:
    """Sorted distinct angles, those within ANGLE_EPS of the previous one dropped."""
    ordered = np.sort(angles)
    if ordered.size == 0:
        return ordered
    keep = np.concatenate([[True], np.diff(ordered) > ANGLE_EPS])
    merged: FloatArray = ordered[keep]
    return merged


def _ray_index(crit: FloatArray, angles: FloatArray) -> IntArray:
    """The critical ray each angle was merged into."""
    index: IntArray = np.searchsorted(crit, angles + ANGLE_EPS, side="right") - 1
    return index


def bin_of(angle: FloatArray) -> IntArray:
    index: IntArray = np.floor((angle + math.pi) * (CULL_BINS / TAU)).astype(np.intp)
    return index % CULL_BINS


_BIN_EDGES = np.arange(CULL_BINS + 1) * (TAU / CULL_BINS) - math.pi
_EDGE_COS, _EDGE_SIN = np.cos(_BIN_EDGES), np.sin(_BIN_EDGES)


def range_maxima(values: FloatArray) -> FloatArray:
    """Row k, index i: the maximum of ``values`` at the 2^k indices from i on, cyclically
    (a sparse table over the values twice over: the maximum of any cyclic range is that of
    two overlapping entries of one row)."""
    size = values.size
    table = np.empty((size.bit_length(), 2 * size))
    table[0, :size] = table[0, size:] = values
    for k in range(1, size.bit_length()):
        half = 1 << (k - 1)
        np.maximum(table[k - 1, :-half], table[k - 1, half:], out=table[k, :-half])
        table[k, -half:] = table[k - 1, -half:]
    return table


class _Cull:
    """CULL_BINS equal angle bins. A segment covering a whole bin bounds how far any ray in
    it reaches (the farther end of its piece in the bin): ``reach`` per bin. A segment whose
    nearest point lies beyond the reach of every bin it touches can hide nothing that the
    nearer ones do not, and a point beyond its bin's reach is hidden."""

    def __init__(self, segments: _Segments) -> None:
        first, last = (bin_of(angle) for angle in segments.angles())
        touched = (last - first) % CULL_BINS + 1
        segment = np.repeat(np.arange(segments.size), touched)
        self.starts = np.cumsum(touched) - touched
        offset = np.arange(segment.size) - self.starts[segment]
        self.bins = (first[segment] + offset) % CULL_BINS
        inner = (offset > 0) & (offset < touched[segment] - 1)
        s, b = segment[inner], self.bins[inner]
        far = np.maximum(segments.along(s, _EDGE_COS[b], _EDGE_SIN[b]),
                         segments.along(s, _EDGE_COS[b + 1], _EDGE_SIN[b + 1]))
        self.reach = np.full(CULL_BINS, np.inf)
        np.minimum.at(self.reach, b, far)

    def may_hide(self, segments: _Segments, near: FloatArray) -> BoolArray:
        """:meth:`needed` for segments this cull was not made from (a larger set): whether
        each segment's nearest point lies within the reach of some bin it touches, the
        farthest reach over its bins found in a table of range maxima, not by spreading it
        over them. A reach made from fewer segments is longer, so this keeps every segment
        :meth:`needed` would (and the one setting each bin's reach of the larger set)."""
        first, last = (bin_of(angle) for angle in segments.angles())
        length = (last - first) % CULL_BINS + 1
        level = np.floor(np.log2(length)).astype(np.intp)
        table = range_maxima(self.reach)
        farthest = np.maximum(table[level, first], table[level, first + length - (1 << level)])
        keep: BoolArray = near <= farthest * (1 + EPS) + EPS
        return keep

    def needed(self, near: FloatArray) -> BoolArray:
        """Which segments, at these nearest distances, can still hide something."""
        if near.size == 0:
            return np.zeros(0, dtype=bool)
        farthest = np.maximum.reduceat(self.reach[self.bins], self.starts)
        keep: BoolArray = near <= farthest * (1 + EPS) + EPS
        return keep
