"""Derived, indexed geometry of a map: which moves walls block, wall lookup, line of sight.

Movement blocking is kept per cell and direction as counts (one per blocking wall), so adding
or removing one wall touches only the cells around it. A move from a cell to its neighbour is
blocked when the segment between the two cell centres meets a movement-blocking wall
(touching counts: a diagonal cannot squeeze past a wall's end at the corner).

>>> from core.model.mapmodel import BattleMap, WallSegment
>>> m = BattleMap(width=4, height=4, walls=[WallSegment(x1=2, y1=0, x2=2, y2=4)])
>>> g = MapGeometry(m)
>>> g.move_blocked(Cell(1, 1), Direction.E), g.move_blocked(Cell(0, 1), Direction.E)
(True, False)
>>> g.line_of_sight((0.5, 0.5), (3.5, 0.5)), g.line_of_sight((0.5, 0.5), (1.5, 3.5))
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from core.model.encounter import Encounter
from core.model.grid import Cell, Direction, Footprint
from core.model.mapmodel import TERRAIN_BY_CODE, BattleMap, WallSegment, parse_cell_key

BUCKET = 4
EPS = 1e-9
DIRECTIONS = tuple(Direction)
_FORWARD = (Direction.E, Direction.S, Direction.SE, Direction.SW)
_OPPOSITE = {d: Direction.from_bearing(d.bearing + 180) for d in Direction}

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


def segments_intersect(a: tuple[float, float, float, float],
                       b: tuple[float, float, float, float]) -> bool:
    """Whether two closed segments share a point (touching and collinear overlap count)."""
    px, py, qx, qy = a
    cx, cy, dx, dy = b
    rx, ry, sx, sy = qx - px, qy - py, dx - cx, dy - cy
    if rx * rx + ry * ry < EPS and sx * sx + sy * sy >= EPS:
        return segments_intersect(b, a)  # a point: test it against the other segment
    denom = rx * sy - ry * sx
    wx, wy = cx - px, cy - py
    if abs(denom) < EPS:
        if abs(wx * ry - wy * rx) > EPS:
            return False
        return _collinear_overlap((rx, ry), (wx, wy), (sx, sy))
    t = (wx * sy - wy * sx) / denom
    u = (wx * ry - wy * rx) / denom
    return -EPS <= t <= 1 + EPS and -EPS <= u <= 1 + EPS


def _collinear_overlap(r: tuple[float, float], w: tuple[float, float], s: tuple[float, float]
                       ) -> bool:
    """Overlap of collinear segments p + t·r (t in 0..1) and (p + w) + u·s."""
    (rx, ry), (wx, wy), (sx, sy) = r, w, s
    length = rx * rx + ry * ry
    if length < EPS:
        return abs(wx) < EPS and abs(wy) < EPS
    t0 = (wx * rx + wy * ry) / length
    t1 = t0 + (sx * rx + sy * ry) / length
    return max(t0, t1) >= -EPS and min(t0, t1) <= 1 + EPS


def _crosses(px: FloatArray, py: FloatArray, rx: int, ry: int, walls: FloatArray) -> BoolArray:
    """Vectorised :func:`segments_intersect` of segments (p, p + r) against ``walls``
    (one row x1, y1, x2, y2 per segment, aligned with p)."""
    cx, cy = walls[:, 0], walls[:, 1]
    sx, sy = walls[:, 2] - cx, walls[:, 3] - cy
    wx, wy = cx - px, cy - py
    denom = rx * sy - ry * sx
    parallel = np.abs(denom) < EPS
    safe = np.where(parallel, 1.0, denom)
    t = (wx * sy - wy * sx) / safe
    u = (wx * ry - wy * rx) / safe
    result: BoolArray = ~parallel & (t >= -EPS) & (t <= 1 + EPS) & (u >= -EPS) & (u <= 1 + EPS)
    # Parallel pairs meet only when on one line (rare: grid-snapped walls never lie on a
    # line through cell centres); those few go through the exact scalar test.
    for i in np.flatnonzero(parallel & (np.abs(wx * ry - wy * rx) <= EPS)):
        result[i] = _collinear_overlap((rx, ry), (wx[i], wy[i]), (sx[i], sy[i]))
    return result


class MapGeometry:
    """Numpy arrays and a wall index derived from a :class:`BattleMap`."""

    def __init__(self, battle_map: BattleMap) -> None:
        self.map = battle_map
        self.width, self.height = battle_map.width, battle_map.height
        self.blockers = np.zeros((8, self.height, self.width), dtype=np.int16)
        self._buckets: dict[tuple[int, int], list[int]] = {}
        self._walls: dict[int, WallSegment] = {}
        self._next_id = 0
        self._ids_by_wall: dict[WallSegment, list[int]] = {}
        self._sight: FloatArray | None = None
        for wall in battle_map.walls:
            self._index(wall)
        self._count_blocks([w for w in battle_map.walls if w.blocks_movement], +1)
        self.refresh_cells()

    # --- cell arrays -----------------------------------------------------------------
    def refresh_cells(self) -> None:
        """Rebuild terrain, elevation and hazard arrays (cheap: no walls involved)."""
        cost = np.ones(256, dtype=np.int8)
        resist = np.zeros(256, dtype=bool)
        slippery = np.zeros(256, dtype=bool)
        for code, spec in TERRAIN_BY_CODE.items():
            cost[ord(code)] = spec.move_cost
            resist[ord(code)] = spec.adds_resist
            slippery[ord(code)] = spec.slippery
        raw = np.frombuffer("".join(self.map.terrain_rows).encode("ascii"), dtype=np.uint8)
        raw = raw.reshape(self.height, self.width)
        self.move_cost = cost[raw]
        self.adds_resist = resist[raw]
        self.slippery = slippery[raw]
        self.elevation = np.zeros((self.height, self.width), dtype=np.int32)
        for key, feet in self.map.elevation.items():
            cell = parse_cell_key(key)
            self.elevation[cell.y, cell.x] = feet
        self.hazard_index = np.full((self.height, self.width), -1, dtype=np.int16)
        for index, hazard in reversed(list(enumerate(self.map.hazards))):
            for cell in hazard.cells:
                self.hazard_index[cell.y, cell.x] = index

    def update(self, added: tuple[WallSegment, ...], removed: tuple[WallSegment, ...],
               cells: bool) -> None:
        """Follow an edit of the map: walls added and removed (adds first, so a wall added
        and removed by the same edit is never missing), and the cell arrays if ``cells``."""
        for wall in added:
            self.add_wall(wall)
        for wall in removed:
            self.remove_wall(wall)
        if cells:
            self.refresh_cells()

    # --- walls -----------------------------------------------------------------------
    def add_wall(self, wall: WallSegment) -> None:
        self._index(wall)
        if wall.blocks_movement:
            self._count_blocks([wall], +1)

    def _index(self, wall: WallSegment) -> None:
        self._sight = None
        wall_id = self._next_id
        self._next_id += 1
        self._walls[wall_id] = wall
        self._ids_by_wall.setdefault(wall, []).append(wall_id)
        for bucket in self._buckets_of(wall):
            self._buckets.setdefault(bucket, []).append(wall_id)

    def remove_wall(self, wall: WallSegment) -> None:
        wall_id = self._ids_by_wall[wall].pop()
        if not self._ids_by_wall[wall]:
            del self._ids_by_wall[wall]
        del self._walls[wall_id]
        self._sight = None
        for bucket in self._buckets_of(wall):
            self._buckets[bucket].remove(wall_id)
        if wall.blocks_movement:
            self._count_blocks([wall], -1)

    def _buckets_of(self, wall: WallSegment) -> Iterator[tuple[int, int]]:
        x0 = math.floor((min(wall.x1, wall.x2) - EPS) / BUCKET)
        y0 = math.floor((min(wall.y1, wall.y2) - EPS) / BUCKET)
        x1 = math.floor((max(wall.x1, wall.x2) + EPS) / BUCKET)
        y1 = math.floor((max(wall.y1, wall.y2) + EPS) / BUCKET)
        for by in range(y0, y1 + 1):
            for bx in range(x0, x1 + 1):
                yield bx, by

    def _count_blocks(self, walls: list[WallSegment], delta: int) -> None:
        """Add ``delta`` to the blocker count of every step between cell centres that each
        wall meets: all walls' candidate cells (their bounding box plus a margin) at once."""
        if not walls:
            return
        segments = np.array([w.points for w in walls], dtype=np.float64)
        x0 = np.clip(np.floor(segments[:, [0, 2]].min(axis=1)) - 2, 0, self.width).astype(int)
        y0 = np.clip(np.floor(segments[:, [1, 3]].min(axis=1)) - 2, 0, self.height).astype(int)
        x1 = np.clip(np.ceil(segments[:, [0, 2]].max(axis=1)) + 1, 0, self.width).astype(int)
        y1 = np.clip(np.ceil(segments[:, [1, 3]].max(axis=1)) + 1, 0, self.height).astype(int)
        wide, high = np.maximum(x1 - x0, 0), np.maximum(y1 - y0, 0)
        counts = wide * high
        owner = np.repeat(np.arange(len(walls)), counts)
        local = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        xs = x0[owner] + local % np.maximum(wide[owner], 1)
        ys = y0[owner] + local // np.maximum(wide[owner], 1)
        for direction in _FORWARD:
            dx, dy = direction.delta
            hit = _crosses(xs + 0.5, ys + 0.5, dx, dy, segments[owner])
            nx, ny = xs + dx, ys + dy
            hit &= (nx >= 0) & (nx < self.width) & (ny >= 0) & (ny < self.height)
            d, o = DIRECTIONS.index(direction), DIRECTIONS.index(_OPPOSITE[direction])
            np.add.at(self.blockers[d], (ys[hit], xs[hit]), delta)
            np.add.at(self.blockers[o], (ny[hit], nx[hit]), delta)

    def walls_near(self, segment: tuple[float, float, float, float]) -> Iterator[WallSegment]:
        """Walls in the index buckets the segment passes through (each once)."""
        seen: set[int] = set()
        for bucket in _buckets_along(segment):
            for wall_id in self._buckets.get(bucket, ()):
                if wall_id not in seen:
                    seen.add(wall_id)
                    yield self._walls[wall_id]

    def first_blocking_wall(self, segment: tuple[float, float, float, float]
                            ) -> WallSegment | None:
        for wall in self.walls_near(segment):
            if wall.blocks_movement and segments_intersect(segment, wall.points):
                return wall
        return None

    def sight_segments(self) -> FloatArray:
        """(N, 4): x1, y1, x2, y2 of every sight-blocking wall; a new array after each wall
        edit (so vision caches can key on its identity)."""
        if self._sight is None:
            points = [wall.points for wall in self._walls.values() if wall.blocks_sight]
            self._sight = np.array(points, dtype=np.float64).reshape(-1, 4)
        return self._sight

    def line_of_sight(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether no sight-blocking wall meets the segment a → b (grid units)."""
        segment = (a[0], a[1], b[0], b[1])
        return not any(wall.blocks_sight and segments_intersect(segment, wall.points)
                       for wall in self.walls_near(segment))

    # --- moves -----------------------------------------------------------------------
    def move_blocked(self, cell: Cell, direction: Direction) -> bool:
        return bool(self.blockers[DIRECTIONS.index(direction), cell.y, cell.x])

    def footprint_move_blocked(self, footprint: Footprint, direction: Direction) -> bool:
        """Whether any cell of the footprint would cross a wall moving one step."""
        d = DIRECTIONS.index(direction)
        block = self.blockers[d, footprint.y:footprint.y + footprint.size,
                              footprint.x:footprint.x + footprint.size]
        return bool(block.any())

    def footprint_split(self, footprint: Footprint) -> bool:
        """Whether a wall runs between two cells of the footprint."""
        x, y, size = footprint
        east = self.blockers[DIRECTIONS.index(Direction.E), y:y + size, x:x + size - 1]
        south = self.blockers[DIRECTIONS.index(Direction.S), y:y + size - 1, x:x + size]
        return bool(east.any() or south.any())

    def blocking_wall(self, footprint: Footprint, direction: Direction) -> WallSegment | None:
        """The wall that stops this footprint's step, if any: tells a wall from a door, and
        also finds walls on the map's edge (steps off the map are not in the counts)."""
        dx, dy = direction.delta
        for cell in footprint.cells():
            segment = (cell.x + 0.5, cell.y + 0.5, cell.x + 0.5 + dx, cell.y + 0.5 + dy)
            wall = self.first_blocking_wall(segment)
            if wall is not None:
                return wall
        return None

    def open_moves(self) -> BoolArray:
        """(8, H, W): True where a single-cell step in that direction is allowed (inside the
        map and not through a wall)."""
        allowed: BoolArray = self.blockers == 0
        for index, direction in enumerate(DIRECTIONS):
            dx, dy = direction.delta
            if dx > 0:
                allowed[index, :, -1] = False
            if dx < 0:
                allowed[index, :, 0] = False
            if dy > 0:
                allowed[index, -1, :] = False
            if dy < 0:
                allowed[index, 0, :] = False
        return allowed


def geometry_of(encounter: Encounter) -> MapGeometry:
    """The encounter's map geometry, built on first use and kept with the encounter (the
    history updates it as commands change the map)."""
    geometry = encounter.derived(MapGeometry, lambda: MapGeometry(encounter.map))
    if geometry.map is not encounter.map:  # the map itself was replaced (resized)
        encounter.drop_derived(MapGeometry)
        geometry = encounter.derived(MapGeometry, lambda: MapGeometry(encounter.map))
    return geometry


def point_segment_distance(point: tuple[float, float],
                           segment: tuple[float, float, float, float]) -> float:
    """Distance in grid units from a point to a segment (picking walls and doors).

    >>> point_segment_distance((1, 1), (0, 0, 4, 0))
    1.0
    """
    (x, y), (x1, y1, x2, y2) = point, segment
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length))
    return math.hypot(x - (x1 + t * dx), y - (y1 + t * dy))


def clip_segment(segment: tuple[float, float, float, float], width: float, height: float
                 ) -> tuple[float, float, float, float] | None:
    """The part of a segment inside [0, width] × [0, height] (Liang-Barsky), or None.

    >>> clip_segment((-2, 1, 4, 1), 3, 3)
    (0.0, 1.0, 3.0, 1.0)
    """
    x1, y1, x2, y2 = segment
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1), (dx, width - x1), (-dy, y1), (dy, height - y1)):
        if abs(p) < EPS:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    if low > high:
        return None
    return (x1 + low * dx, y1 + low * dy, x1 + high * dx, y1 + high * dy)


def _buckets_along(segment: tuple[float, float, float, float]) -> Iterator[tuple[int, int]]:
    """Index buckets a segment passes through, from its start (Amanatides-Woo walk). Walls are
    registered in every bucket their bounding box touches (closed), so a wall meeting the
    segment on a bucket boundary is found from either side."""
    x1, y1, x2, y2 = (v / BUCKET for v in segment)
    bx, by = math.floor(x1), math.floor(y1)
    end_x, end_y = math.floor(x2), math.floor(y2)
    step_x = 1 if x2 > x1 else -1
    step_y = 1 if y2 > y1 else -1
    dx, dy = abs(x2 - x1), abs(y2 - y1)
    t_dx = 1 / dx if dx > EPS else math.inf
    t_dy = 1 / dy if dy > EPS else math.inf
    t_x = ((bx + 1 - x1) if step_x > 0 else (x1 - bx)) * t_dx if dx > EPS else math.inf
    t_y = ((by + 1 - y1) if step_y > 0 else (y1 - by)) * t_dy if dy > EPS else math.inf
    for _ in range(abs(end_x - bx) + abs(end_y - by) + 1):
        yield bx, by
        if t_x < t_y:
            bx, t_x = bx + step_x, t_x + t_dx
        else:
            by, t_y = by + step_y, t_y + t_dy
