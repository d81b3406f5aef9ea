"""How much of a target's footprint is hidden from an attacker: an exact area, not samples.

RD "Clarifications for cover": rays start at the centre of the attacker's cell nearest the
target and end on the target's footprint; walls, closed doors and objects block (the walls
that block sight: windows and open doors do not), and a creature blocks with its whole
square footprint. The clarification allows "at least 100 points, or an exact area
computation"; this is the exact one, so an arrow slit a few inches wide is measured, not
missed between samples.

Seen from the origin O, every point of the target square S lies on a ray at some angle θ
inside S's angular span. Along that ray S spans the distances r_in(θ)..r_out(θ) and the
first blocker lies at b(θ); the visible part is r_in..min(r_out, b) when b > r_in (touching
counts as blocked, as in :meth:`~core.spatial.geometry.MapGeometry.line_of_sight`), so

    visible area = ∫ max(0, min(r_out, b)² − r_in²) / 2 dθ.

Between *critical angles* — the directions of every segment end, of every crossing of two
segments and of every corner of S (its edges count as segments) — r_in, r_out and b each
follow one straight line, and a line at distance p from O with unit normal n integrates in
closed form: p²/2 · tan(θ − α) = p²/2 · (n × d)/(n · d) for the ray direction d. The hidden
part of each piece is a quadrilateral (drawn by the GUI) credited to the blocker nearest
along it. Segments through O itself are ignored, as by the vision sweep.

>>> from core.model.mapmodel import BattleMap, WallSegment
>>> from core.spatial.geometry import MapGeometry
>>> half = WallSegment(x1=5, y1=1, x2=5.5, y2=1)  # the left half of the target's near side
>>> shape = cover_shape(MapGeometry(BattleMap(width=12, height=12, walls=[half])),
...                     (5.5, 10.5), Footprint(5, 0, 1), Crowd([]))
>>> round(shape.visible, 6), [s.kind for s in shape.shadows]
(0.5, ['wall'])
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.spatial.geometry import MapGeometry

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.intp]
Point = tuple[float, float]
Segment = tuple[float, float, float, float]

EPS = 1e-9
ANGLE_EPS = 1e-12


class Shadow(BaseModel):
    """One blocker and the share of the target's footprint it hides (where it is the
    nearest blocker along the ray)."""

    model_config = ConfigDict(frozen=True)

    kind: str  # wall, door, object, creature
    share: float
    segment: Segment | None = None
    token_id: str | None = None


class CoverShape(BaseModel):
    """The visible share of a footprint seen from ``origin``, who hides the rest, and the
    hidden area as quadrilaterals in grid units."""

    model_config = ConfigDict(frozen=True)

    origin: Point
    visible: float
    shadows: tuple[Shadow, ...] = ()
    hidden: tuple[tuple[Point, ...], ...] = ()


def origin_cell(attacker: Footprint, target: Footprint) -> Cell:
    """The attacker's cell nearest the target's centre (ties: the first in row order)."""
    tx, ty = target.centre
    return min(attacker.cells(), key=lambda c: (c.x + 0.5 - tx) ** 2 + (c.y + 0.5 - ty) ** 2)


def cover_shape(geometry: MapGeometry, origin: Point, target: Footprint, crowd: Crowd,
                ignore: frozenset[str] = frozenset()) -> CoverShape:
    """The exact visible share of ``target`` from ``origin`` past the sight-blocking walls
    and the creatures of ``crowd`` but those in ``ignore`` (the attacker and the target).
    ``origin`` must lie outside the target's square."""
    square = _squares_sides(np.array(target, dtype=np.float64))
    hull = convex_hull(np.vstack([np.array([origin]), square[:, 0:2]]))
    segments, owners = _blockers(geometry, crowd, ignore, hull)
    segments, owners = _facing(segments, owners, origin)
    if len(segments) == 0:
        return CoverShape(origin=origin, visible=1.0)
    frame = _Frame(origin, target.centre)
    pieces = _Pieces.between(frame, _critical_angles(frame, square, segments))
    every = np.vstack([square, segments])
    lines = _segment_lines(every, frame.origin)
    distance = crossings(origin, pieces.mid, every)
    sides, walls = distance[:, :4], distance[:, 4:]
    near = lines.take(np.argmin(sides, axis=1))
    far = lines.take(np.argmax(np.where(np.isfinite(sides), sides, -math.inf), axis=1))
    blocker = np.argmin(walls, axis=1)
    reach = walls[np.arange(pieces.count), blocker]
    total, hidden, quadrilaterals = pieces.measure(near, far, lines.take(4 + blocker), reach)
    whole = float(total.sum())
    shares: dict[int, float] = {}
    for index in np.flatnonzero(hidden > 0):
        code = int(owners[blocker[index]])
        shares[code] = shares.get(code, 0.0) + float(hidden[index]) / whole
    return CoverShape(origin=origin, visible=max(0.0, 1.0 - float(hidden.sum()) / whole),
                      hidden=quadrilaterals, shadows=_shadows(geometry, crowd, shares))


# --- the blockers ---------------------------------------------------------------------------
class Crowd:
    """The creatures that can stand in the way: their squares (x, y, size) and sides."""

    def __init__(self, squares: Sequence[tuple[str, Footprint]]) -> None:
        self.ids = tuple(token_id for token_id, _ in squares)
        self.squares = np.array([fp for _, fp in squares], dtype=np.float64).reshape(-1, 3)
        self.sides = _squares_sides(self.squares)

    def sides_near(self, hull: FloatArray, ignore: frozenset[str]) -> tuple[FloatArray, IntArray]:
        """The sides of the squares that meet the hull (but those of ``ignore``), and the
        index of the creature each belongs to."""
        low, high = hull.min(axis=0), hull.max(axis=0)
        x, y, size = self.squares.T
        boxed = np.flatnonzero((x <= high[0]) & (x + size >= low[0])
                               & (y <= high[1]) & (y + size >= low[1]))
        boxed = boxed[[self.ids[i] not in ignore for i in boxed]]
        rows = (4 * boxed[:, None] + np.arange(4)).ravel()
        meets = _meets_hull(self.sides[rows], hull)
        return self.sides[rows][meets], rows[meets] // 4


class _EncounterCrowd:
    """A crowd kept with the encounter while its tokens are the very same objects (tokens
    are immutable: any edit replaces one)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = list(tokens)
        self.crowd = Crowd([(t.id, t.footprint) for t in tokens])

    def current(self, tokens: list[Token]) -> bool:
        return len(tokens) == len(self.tokens) and all(map(operator.is_, tokens, self.tokens))


def crowd_of(encounter: Encounter) -> Crowd:
    """The encounter's tokens as a :class:`Crowd`, rebuilt only after they change."""
    kept = encounter.peek_derived(_EncounterCrowd)
    if kept is None or not kept.current(encounter.tokens):
        encounter.drop_derived(_EncounterCrowd)
        kept = encounter.derived(_EncounterCrowd, lambda: _EncounterCrowd(encounter.tokens))
    return kept.crowd


def _blockers(geometry: MapGeometry, crowd: Crowd, ignore: frozenset[str], hull: FloatArray
              ) -> tuple[FloatArray, IntArray]:
    """Sight-blocking walls and creature squares' sides that meet the hull of the origin and
    the target (nothing else can cast a shadow on it), and whose each is: a row of
    :meth:`~core.spatial.geometry.MapGeometry.sight_walls`, or −1 − the creature's index."""
    walls = geometry.sight_segments()
    near = np.flatnonzero(segments_meeting_hull(walls, hull))
    sides, creature = crowd.sides_near(hull, ignore)
    return np.vstack([walls[near], sides]), np.concatenate([near, -1 - creature])


def _facing(segments: FloatArray, owners: IntArray, origin: Point
            ) -> tuple[FloatArray, IntArray]:
    """Drop segments whose line runs through the origin: edge-on they hide no area, and one
    through the origin itself is stood astride, not looked past."""
    ax, ay = segments[:, 0] - origin[0], segments[:, 1] - origin[1]
    ex, ey = segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1]
    length = np.hypot(ex, ey)
    keep = (length > EPS) & (np.abs(ax * ey - ay * ex) > EPS * np.maximum(length, 1.0))
    return segments[keep], owners[keep]


def _shadows(geometry: MapGeometry, crowd: Crowd, shares: dict[int, float]
             ) -> tuple[Shadow, ...]:
    """The blockers that hide something, largest share first."""
    walls = geometry.sight_walls()
    shadows = [Shadow(kind=walls[code].kind.value, segment=walls[code].points, share=share)
               if code >= 0 else
               Shadow(kind="creature", token_id=crowd.ids[-1 - code], share=share)
               for code, share in shares.items()]
    return tuple(sorted(shadows, key=lambda shadow: -shadow.share))


def _squares_sides(footprints: FloatArray) -> FloatArray:
    """(4N, 4): the four sides of each (x, y, size) square, square by square."""
    x0, y0, size = footprints.reshape(-1, 3).T
    x1, y1 = x0 + size, y0 + size
    sides = np.stack([np.stack([x0, y0, x1, y0], -1), np.stack([x1, y0, x1, y1], -1),
                      np.stack([x1, y1, x0, y1], -1), np.stack([x0, y1, x0, y0], -1)], axis=1)
    return sides.reshape(-1, 4)


def segments_meeting_hull(segments: FloatArray, hull: FloatArray) -> BoolArray:
    """Which segments (rows x1, y1, x2, y2) meet the convex polygon ``hull`` (corners from
    :func:`convex_hull`; closed): a separating-axis test on the hull's sides and on each
    segment's own line, after a bounding-box cull."""
    low, high = hull.min(axis=0) - EPS, hull.max(axis=0) + EPS
    boxed = ((np.minimum(segments[:, 0], segments[:, 2]) <= high[0])
             & (np.maximum(segments[:, 0], segments[:, 2]) >= low[0])
             & (np.minimum(segments[:, 1], segments[:, 3]) <= high[1])
             & (np.maximum(segments[:, 1], segments[:, 3]) >= low[1]))
    result = np.zeros(len(segments), dtype=bool)
    result[boxed] = _meets_hull(segments[boxed], hull)
    return result


def _meets_hull(segments: FloatArray, hull: FloatArray) -> BoolArray:
    """The separating-axis test, one hull side at a time on the segments still in play (the
    wedge's long sides rule out most of them at once)."""
    alive = np.arange(len(segments))
    ax, ay, bx, by = (segments[:, i] for i in range(4))
    for (sx, sy), (ex, ey) in zip(hull.tolist(), np.roll(hull, -1, axis=0).tolist(),
                                  strict=True):
        dx, dy = ex - sx, ey - sy
        inside = ((dx * (ay - sy) - dy * (ax - sx) >= -EPS)
                  | (dx * (by - sy) - dy * (bx - sx) >= -EPS))
        alive, ax, ay, bx, by = (v[inside] for v in (alive, ax, ay, bx, by))
    ex, ey = bx - ax, by - ay
    along = ex[:, None] * (hull[None, :, 1] - ay[:, None]) - ey[:, None] * (
        hull[None, :, 0] - ax[:, None])
    parted = (along > EPS).all(axis=1) | (along < -EPS).all(axis=1)
    result = np.zeros(len(segments), dtype=bool)
    result[alive[~parted]] = True
    return result


def convex_hull(points: FloatArray) -> FloatArray:
    """The hull's corners in counter-clockwise order (y down: clockwise on screen)."""
    ordered = sorted({(float(x), float(y)) for x, y in points})
    if len(ordered) < 3:
        return np.array(ordered, dtype=np.float64).reshape(-1, 2)

    def half(run: list[tuple[float, float]]) -> list[tuple[float, float]]:
        chain: list[tuple[float, float]] = []
        for p in run:
            while len(chain) >= 2 and _turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return np.array(half(ordered) + half(ordered[::-1]), dtype=np.float64)


def _turn(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def cross(u: FloatArray, v: FloatArray) -> FloatArray:
    """The z of the cross product of the last-axis 2-vectors ``u`` and ``v``."""
    result: FloatArray = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    return result


# --- angles -------------------------------------------------------------------------------
class _Frame:
    """Angles measured from the direction origin → target centre (the target's whole span
    lies within ±90° of it, so angles never wrap)."""

    def __init__(self, origin: Point, centre: Point) -> None:
        self.origin = np.array(origin)
        towards = np.array(centre) - self.origin
        self.axis = towards / np.hypot(*towards)

    def angle(self, points: FloatArray) -> FloatArray:
        rel = points - self.origin
        result: FloatArray = np.arctan2(cross(self.axis, rel), rel @ self.axis)
        return result

    def direction(self, angle: FloatArray) -> FloatArray:
        cos, sin = np.cos(angle), np.sin(angle)
        ax, ay = self.axis
        return np.stack([ax * cos - ay * sin, ay * cos + ax * sin], axis=-1)


def _critical_angles(frame: _Frame, square: FloatArray, segments: FloatArray) -> FloatArray:
    """Sorted directions where r_in, r_out or the nearest blocker may change line, within
    the span of the square (given by its sides)."""
    angles = frame.angle(square[:, 0:2])
    low, high = angles.min(), angles.max()
    every = np.vstack([square, segments])
    points = np.vstack([every[:, 0:2], every[:, 2:4], _meeting_points(every)])
    found = frame.angle(points)
    inside = found[(found > low) & (found < high)]
    return np.unique(np.concatenate([[low, high], inside]))


def _meeting_points(segments: FloatArray) -> FloatArray:
    """Every point where two of the segments meet (each pair once)."""
    first, second = np.triu_indices(len(segments), k=1)
    a, b = segments[first], segments[second]
    p, r = a[:, 0:2], a[:, 2:4] - a[:, 0:2]
    q, s = b[:, 0:2], b[:, 2:4] - b[:, 0:2]
    denom = cross(r, s)
    ok = np.abs(denom) > EPS
    safe = np.where(ok, denom, 1.0)
    t = cross(q - p, s) / safe
    u = cross(q - p, r) / safe
    meet = ok & (t >= -EPS) & (t <= 1 + EPS) & (u >= -EPS) & (u <= 1 + EPS)
    result: FloatArray = (p + t[:, None] * r)[meet]
    return result


# --- the pieces between critical angles -------------------------------------------------------
class _Lines:
    """One line per piece: unit normal n and distance p > 0 from the origin, so a ray d
    meets it at p / (n · d)."""

    def __init__(self, nx: FloatArray, ny: FloatArray, p: FloatArray) -> None:
        self.nx, self.ny, self.p = nx, ny, p

    def reach(self, d: FloatArray) -> FloatArray:
        result: FloatArray = self.p / (self.nx * d[:, 0] + self.ny * d[:, 1])
        return result

    def sweep(self, d: FloatArray) -> FloatArray:
        """p²/2 · tan(θ − α) at the ray directions d: the area antiderivative."""
        tan = (self.nx * d[:, 1] - self.ny * d[:, 0]) / (self.nx * d[:, 0] + self.ny * d[:, 1])
        result: FloatArray = self.p ** 2 / 2 * tan
        return result

    def take(self, index: IntArray) -> _Lines:
        """The lines at ``index`` (one per piece)."""
        return _Lines(self.nx[index], self.ny[index], self.p[index])

    def pick(self, use_other: BoolArray, other: _Lines) -> _Lines:
        return _Lines(np.where(use_other, other.nx, self.nx),
                      np.where(use_other, other.ny, self.ny),
                      np.where(use_other, other.p, self.p))


class _Pieces:
    """The angular pieces of the target's span: their bounding and middle rays."""

    def __init__(self, frame: _Frame, start: FloatArray, end: FloatArray) -> None:
        self.frame, self.count = frame, len(start)
        self.start, self.end = frame.direction(start), frame.direction(end)
        self.mid = frame.direction((start + end) / 2)

    @classmethod
    def between(cls, frame: _Frame, angles: FloatArray) -> _Pieces:
        start, end = angles[:-1], angles[1:]
        wide = end - start > ANGLE_EPS
        return cls(frame, start[wide], end[wide])

    def area(self, upper: _Lines, lower: _Lines) -> FloatArray:
        """The area between two lines over each piece."""
        result: FloatArray = (upper.sweep(self.end) - upper.sweep(self.start)
                              - lower.sweep(self.end) + lower.sweep(self.start))
        return result

    def measure(self, near: _Lines, far: _Lines, edge: _Lines, reach: FloatArray
                ) -> tuple[FloatArray, FloatArray, tuple[tuple[Point, ...], ...]]:
        """The area of each piece, its hidden area (its nearest blocker lies on ``edge`` at
        ``reach`` along the middle ray) and the hidden quadrilaterals."""
        opening, closing = near.reach(self.mid), far.reach(self.mid)
        shut = reach <= opening * (1 + EPS)
        cut = ~shut & (reach < closing * (1 - EPS))
        floor = near.pick(cut, edge)  # where the hidden part starts
        total = self.area(far, near)
        hidden = np.where(shut, total, np.where(cut, self.area(far, floor), 0.0))
        return total, hidden, self._quadrilaterals(hidden > 0, floor, far)

    def _quadrilaterals(self, show: BoolArray, floor: _Lines, far: _Lines
                        ) -> tuple[tuple[Point, ...], ...]:
        o = self.frame.origin
        corners = [o + d * lines.reach(d)[:, None] for d, lines in
                   ((self.start, floor), (self.start, far), (self.end, far), (self.end, floor))]
        stacked = np.stack(corners, axis=1)[show].tolist()
        return tuple(tuple((x, y) for x, y in quad) for quad in stacked)


def _segment_lines(segments: FloatArray, origin: FloatArray) -> _Lines:
    """The line of each segment, facing away from the origin."""
    ex, ey = segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1]
    length = np.hypot(ex, ey)
    nx, ny = -ey / length, ex / length
    p = nx * (segments[:, 0] - origin[0]) + ny * (segments[:, 1] - origin[1])
    flip = np.where(p < 0, -1.0, 1.0)
    return _Lines(nx * flip, ny * flip, p * flip)


def crossings(origin: Point | FloatArray, ways: FloatArray, segments: FloatArray,
              longest: float = math.inf) -> FloatArray:
    """(ways, segments): the t at which origin + t · way meets each segment (touching
    counts; a segment met at the very start does not), inf where it does not or beyond
    ``longest``."""
    a = segments[None, :, 0:2] - np.asarray(origin)
    e = segments[None, :, 2:4] - segments[None, :, 0:2]
    way = ways[:, None, :]
    denom = cross(way, e)
    ok = np.abs(denom) > EPS
    safe = np.where(ok, denom, 1.0)
    t = cross(a, e) / safe
    u = cross(a, way) / safe
    meets = ok & (t > EPS) & (t <= longest + EPS) & (u >= -EPS) & (u <= 1 + EPS)
    result: FloatArray = np.where(meets, t, math.inf)
    return result


# --- the line of fire ----------------------------------------------------------------------------
def cells_crossed(start: Point, end: Point) -> list[Cell]:
    """The cells the segment start → end passes through, in order (a segment running along
    a grid line counts the cells on its lower-right side)."""
    xs, ys = crossed_cells(start, end)
    return [Cell(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]


def crossed_cells(start: Point, end: Point) -> tuple[IntArray, IntArray]:
    """:func:`cells_crossed` as arrays of x and y."""
    (x1, y1), (x2, y2) = start, end
    cuts = [np.array([0.0, 1.0])]
    for a, b in ((x1, x2), (y1, y2)):
        if abs(b - a) > EPS:
            lines = np.arange(math.floor(min(a, b)) + 1, math.ceil(max(a, b)))
            cuts.append((lines - a) / (b - a))
    ts = np.unique(np.clip(np.concatenate(cuts), 0.0, 1.0))
    mids = (ts[:-1] + ts[1:]) / 2 if len(ts) > 1 else np.zeros(1)
    xs = np.floor(x1 + mids * (x2 - x1)).astype(np.intp)
    ys = np.floor(y1 + mids * (y2 - y1)).astype(np.intp)
    new = np.ones(len(xs), dtype=bool)
    new[1:] = (xs[1:] != xs[:-1]) | (ys[1:] != ys[:-1])
    return xs[new], ys[new]
