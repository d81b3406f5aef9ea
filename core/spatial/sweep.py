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
>>> sight_mask(wall, (0.5, 0.5), (0, 0, 4, 3)).astype(int)  # (3, 1): its ray grazes the end
array([[1, 1, 0, 0],
       [1, 1, 1, 0],
       [1, 1, 1, 1]])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
TAU = 2 * math.pi


def sight_mask(segments: FloatArray, eye: Point, box: Box) -> BoolArray:
    """(y1 - y0, x1 - x0) mask over the cells of ``box``: True where the eye sees the cell's
    centre past ``segments`` (rows x1, y1, x2, y2 in grid units). Only the cells within the
    bounding box of what the cull leaves in reach are tested."""
    x0, y0, x1, y1 = box
    seen = np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), dtype=bool)
    if seen.size == 0:
        return seen
    far_x = max(abs(x0 + 0.5 - eye[0]), abs(x1 - 0.5 - eye[0]))
    far_y = max(abs(y0 + 0.5 - eye[1]), abs(y1 - 0.5 - eye[1]))
    sweep = Sweep.around(segments, eye, math.hypot(far_x, far_y))
    left, top, right, bottom = sweep.bounds(math.hypot(far_x, far_y))
    sx0, sy0 = max(x0, math.floor(eye[0] + left)), max(y0, math.floor(eye[1] + top))
    sx1, sy1 = min(x1, math.ceil(eye[0] + right)), min(y1, math.ceil(eye[1] + bottom))
    if sx0 < sx1 and sy0 < sy1:
        dx, dy = np.meshgrid(np.arange(sx0, sx1) + 0.5 - eye[0],
                             np.arange(sy0, sy1) + 0.5 - eye[1])
        seen[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = sweep.sees(
            dx.ravel(), dy.ravel()).reshape(dx.shape)
    return seen


def sight_of_cells(segments: FloatArray, eye: Point, xs: IntArray, ys: IntArray
                   ) -> BoolArray:
    """Whether the eye sees the centre of each cell (xs[i], ys[i])."""
    dx = xs.astype(np.float64) + (0.5 - eye[0])
    dy = ys.astype(np.float64) + (0.5 - eye[1])
    reach = float(np.sqrt(np.max(dx * dx + dy * dy))) if dx.size else 0.0
    return Sweep.around(segments, eye, reach).sees(dx, dy)


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

    def __getitem__(self, keep: BoolArray) -> _Segments:
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
        seen = distance <= self.reach[_bin(angle)] * (1 + EPS) + EPS
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


def _bin(angle: FloatArray) -> IntArray:
    index: IntArray = np.floor((angle + math.pi) * (CULL_BINS / TAU)).astype(np.intp)
    return index % CULL_BINS


_BIN_EDGES = np.arange(CULL_BINS + 1) * (TAU / CULL_BINS) - math.pi
_EDGE_COS, _EDGE_SIN = np.cos(_BIN_EDGES), np.sin(_BIN_EDGES)


class _Cull:
    """CULL_BINS equal angle bins. A segment covering a whole bin bounds how far any ray in
    it reaches (the farther end of its piece in the bin): ``reach`` per bin. A segment whose
    nearest point lies beyond the reach of every bin it touches can hide nothing that the
    nearer ones do not, and a point beyond its bin's reach is hidden."""

    def __init__(self, segments: _Segments) -> None:
        first, last = (_bin(angle) for angle in segments.angles())
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

    def needed(self, near: FloatArray) -> BoolArray:
        """Which segments, at these nearest distances, can still hide something."""
        if near.size == 0:
            return np.zeros(0, dtype=bool)
        farthest = np.maximum.reduceat(self.reach[self.bins], self.starts)
        keep: BoolArray = near <= farthest * (1 + EPS) + EPS
        return keep
