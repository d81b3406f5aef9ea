"""Derived, indexed geometry of a map: which moves walls block, wall lookup, line of sight.

Movement blocking is kept per cell and direction as counts (one per blocking wall), so adding
or removing one wall touches only the cells around it. A move from a cell to its neighbour is
blocked when the segment between the two cell centres meets a movement-blocking wall
(touching counts: a diagonal cannot squeeze past a wall's end at the corner).

Every cost is bounded by the map, not by a wall's coordinates: walls are clipped to the map
and a margin of :data:`MARGIN` cells (the area every step and sight line lies in) before they
are bucketed or counted, and a long wall is handled in pieces of at most :data:`PIECE` cells,
so a diagonal across the whole map costs its length, not its bounding box's area.

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
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from core.model.encounter import Encounter
from core.model.grid import Cell, Direction, Footprint
from core.model.mapmodel import TERRAIN_BY_CODE, BattleMap, Hazard, WallKey, WallSegment

BUCKET = 4
EPS = 1e-9
MARGIN = 2  # cells around the map that the wall index covers
PIECE = 4  # cells: the longest piece of a wall whose surroundings are counted at once
BATCH_PIECES = 4096  # wall pieces counted at once (about 30 candidate cells each)
DIRECTIONS = tuple(Direction)
_FORWARD = (Direction.E, Direction.S, Direction.SE, Direction.SW)
_OPPOSITE = {d: Direction.from_bearing(d.bearing + 180) for d in Direction}

BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Segment = tuple[float, float, float, float]


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


def crosses(px: FloatArray, py: FloatArray, rx: int | FloatArray, ry: int | FloatArray,
            walls: FloatArray) -> BoolArray:
    """Vectorised :func:`segments_intersect` of segments (p, p + r), r not zero, against
    ``walls`` (one row x1, y1, x2, y2 per segment, aligned with p)."""
    cx, cy = walls[:, 0], walls[:, 1]
    sx, sy = walls[:, 2] - cx, walls[:, 3] - cy
    wx, wy = cx - px, cy - py
    denom = rx * sy - ry * sx
    parallel = np.abs(denom) < EPS
    safe = np.where(parallel, 1.0, denom)
    t = (wx * sy - wy * sx) / safe
    u = (wx * ry - wy * rx) / safe
    result: BoolArray = ~parallel & (t >= -EPS) & (t <= 1 + EPS) & (u >= -EPS) & (u <= 1 + EPS)
    # Parallel pairs meet only when on one line and overlapping (:func:`_collinear_overlap`,
    # vectorised: a file may put thousands of walls on lines through cell centres).
    collinear = parallel & (np.abs(wx * ry - wy * rx) <= EPS)
    if collinear.any():
        length = rx * rx + ry * ry
        t0 = (wx * rx + wy * ry) / length
        t1 = t0 + (sx * rx + sy * ry) / length
        result |= collinear & (np.maximum(t0, t1) >= -EPS) & (np.minimum(t0, t1) <= 1 + EPS)
    return result


class MapGeometry:
    """Numpy arrays and a wall index derived from a :class:`BattleMap`."""

    def __init__(self, battle_map: BattleMap) -> None:
        self.map = battle_map
        self.width, self.height = battle_map.width, battle_map.height
        self.revision = 0  # bumped by every change: caches built from it compare it
        # int32: a file may stack 100,000 walls on one step
        self.blockers = np.zeros((8, self.height, self.width), dtype=np.int32)
        self._index = WallIndex(self.width, self.height)
        self._walls: list[WallSegment | None] = []  # by wall id (None: removed)
        self._ids_by_wall: dict[WallKey, list[int]] = {}  # copies share a key
        self._sight: FloatArray | None = None
        self._sight_walls: tuple[WallSegment, ...] = ()
        self._add_to_index(battle_map.walls)
        self._count_copies({key: len(ids) for key, ids in self._ids_by_wall.items()
                            if self._first(key).blocks_movement}, +1)
        self.refresh_cells()

    # --- cell arrays -----------------------------------------------------------------
    def refresh_cells(self) -> None:
        """Rebuild the terrain, elevation and hazard arrays from the map."""
        raw = np.frombuffer("".join(self.map.terrain_rows).encode("ascii"), dtype=np.uint8)
        (self.move_cost, self.adds_resist, self.slippery,
         self.conceals) = _terrain_arrays(raw.reshape(self.height, self.width))
        self.elevation = elevation_grid(self.map.elevation, self.height, self.width)
        self.refresh_hazards()  # bumps the revision

    def refresh_some_cells(self, cells: Iterable[Cell]) -> None:
        """Bring the terrain and elevation of these cells (a brush step) up to date."""
        listed = [c for c in cells if self.map.contains(c)]
        if not listed:
            return
        xs = np.array([c.x for c in listed], dtype=np.intp)
        ys = np.array([c.y for c in listed], dtype=np.intp)
        rows = self.map.terrain_rows
        codes = np.frombuffer("".join(rows[c.y][c.x] for c in listed).encode("ascii"),
                              dtype=np.uint8)
        arrays = (self.move_cost, self.adds_resist, self.slippery, self.conceals)
        for array, values in zip(arrays, _terrain_arrays(codes), strict=True):
            array[ys, xs] = values
        self.elevation[ys, xs] = [self.map.elevation_at(c) for c in listed]
        self.revision += 1

    def refresh_hazards(self) -> None:
        """Which hazard each cell is in (the first listed; −1: none), from the map."""
        hazard_index = np.full((self.height, self.width), -1, dtype=np.int16)
        for index, hazard in reversed(list(enumerate(self.map.hazards))):
            xs, ys = np.array(hazard.cells, dtype=np.intp).reshape(-1, 2).T
            hazard_index[ys, xs] = index
        self.hazard_index = hazard_index
        self.revision += 1

    def hazard_at(self, cell: Cell) -> Hazard | None:
        """The map's first hazard covering ``cell`` (none off the map): the map's own
        answer, read from the index."""
        if not self.map.contains(cell):
            return None
        index = int(self.hazard_index[cell.y, cell.x])
        return self.map.hazards[index] if index >= 0 else None

    def elevation_at(self, cell: Cell) -> int:
        return int(self.elevation[cell.y, cell.x]) if self.map.contains(cell) else 0

    def update(self, added: tuple[WallSegment, ...], removed: tuple[WallSegment, ...],
               cells: Iterable[Cell] = (), hazards: bool = False) -> None:
        """Follow an edit of the map: walls added and removed (adds first, so a wall added
        and removed by the same edit is never missing), the cells whose terrain or height
        changed, and the hazards if ``hazards``."""
        if added:
            self.add_walls(list(added))
        if removed:
            self.remove_walls(list(removed))
        cells = list(cells)
        if len(cells) * 4 > self.width * self.height:  # most of the map: all at once
            self.refresh_cells()
        elif cells:
            self.refresh_some_cells(cells)
        if hazards:
            self.refresh_hazards()

    # --- walls -----------------------------------------------------------------------
    def add_wall(self, wall: WallSegment) -> None:
        self.add_walls([wall])

    def add_walls(self, walls: list[WallSegment]) -> None:
        """Index and count many walls at once (one wall costs ~1 ms of numpy calls: a
        thousand added one by one take a second, at once a few ms)."""
        self._add_to_index(walls)
        self._count_blocks([wall for wall in walls if wall.blocks_movement], +1)

    def _add_to_index(self, walls: list[WallSegment]) -> None:
        self._sight = None
        first = len(self._walls)
        self._walls.extend(walls)
        for wall_id, wall in enumerate(walls, first):
            self._ids_by_wall.setdefault(wall.key, []).append(wall_id)
        rows, xs, ys = self._wall_buckets(walls)
        self._index.add(rows + first, xs, ys)

    def remove_wall(self, wall: WallSegment) -> None:
        self.remove_walls([wall])

    def remove_walls(self, walls: list[WallSegment]) -> None:
        """Forget many walls at once (each must be in the map's index)."""
        self._index.remove(np.array([self._forget(wall) for wall in walls], dtype=np.int64))
        self._count_blocks([wall for wall in walls if wall.blocks_movement], -1)

    def _forget(self, wall: WallSegment) -> int:
        ids = self._ids_by_wall[wall.key]
        wall_id = ids.pop()
        if not ids:
            del self._ids_by_wall[wall.key]
        self._walls[wall_id] = None
        self._sight = None
        return wall_id

    def _wall_buckets(self, walls: list[WallSegment]) -> tuple[IntArray, IntArray, IntArray]:
        """(wall, bucket x, bucket y) once for every bucket within EPS of each wall's part in
        the indexed area: the closed bounding boxes of its pieces, so a wall on a bucket
        boundary is in both buckets. One wall or many, the arithmetic is the same."""
        segments = np.array([w.points for w in walls], dtype=np.float64).reshape(-1, 4)
        kept, clipped = _clip_all(segments, self.width, self.height)
        owner, pieces = _piece_ends(clipped, BUCKET)
        ends = pieces.reshape(-1, 2, 2)
        low = np.floor((ends.min(axis=1) - EPS) / BUCKET).astype(np.int64)
        high = np.floor((ends.max(axis=1) + EPS) / BUCKET).astype(np.int64) + 1
        box, xs, ys = _cells_in_boxes(low[:, 0], low[:, 1], high[:, 0], high[:, 1])
        return _once(kept[owner[box]], xs, ys, repeated=len(pieces) > len(clipped))

    def _in_area(self, segment: Segment) -> Segment | None:
        """The segment clipped to the map and its margin (as given when already inside)."""
        x1, y1, x2, y2 = segment
        if (min(x1, x2) >= -MARGIN and min(y1, y2) >= -MARGIN
                and max(x1, x2) <= self.width + MARGIN and max(y1, y2) <= self.height + MARGIN):
            return segment
        return clip_segment(segment, self.width, self.height, MARGIN)

    def _count_blocks(self, walls: list[WallSegment], delta: int) -> None:
        """Add ``delta`` to the blocker count of every step between cell centres that each
        wall meets. Walls drawn more than once are counted once, times how often; the rest
        go in batches of about :data:`BATCH_PIECES` pieces, so the candidate arrays stay a
        few MiB whatever the file holds."""
        self._count_copies(Counter(wall.key for wall in walls), delta)

    def _count_copies(self, copies: Mapping[WallKey, int], delta: int) -> None:
        """:meth:`_count_blocks` of walls given by key, with how many copies of each."""
        if copies:
            segments = np.array([key[:4] for key in copies], dtype=np.float64)
            times = np.fromiter(copies.values(), dtype=np.int64, count=len(copies))
            for batch in _batches(segments, self.width, self.height):
                self._count_batch(segments[batch], times[batch] * delta)
        self.revision += 1  # last: a cache built while this ran is not kept

    def _count_batch(self, segments: FloatArray, weights: IntArray) -> None:
        owner, xs, ys = self._candidate_cells(segments)
        centre_x, centre_y = xs.astype(np.float64) + 0.5, ys.astype(np.float64) + 0.5
        for direction in _FORWARD:
            dx, dy = direction.delta
            hit = crosses(centre_x, centre_y, dx, dy, segments[owner])
            nx, ny = xs + dx, ys + dy
            hit &= (nx >= 0) & (nx < self.width) & (ny >= 0) & (ny < self.height)
            d, o = DIRECTIONS.index(direction), DIRECTIONS.index(_OPPOSITE[direction])
            self._add(self.blockers[d], xs[hit], ys[hit], weights[owner[hit]])
            self._add(self.blockers[o], nx[hit], ny[hit], weights[owner[hit]])

    def _add(self, counts: npt.NDArray[np.int32], xs: IntArray, ys: IntArray,
             weights: IntArray) -> None:
        """``np.add.at(counts, (ys, xs), weights)``, fast both for a few cells (one wall
        edited) and for millions (a map loaded): a tally of the whole map only when the
        cells outnumber it."""
        cells = ys * self.width + xs
        flat = counts.reshape(-1)
        if len(cells) > flat.size:
            flat += np.bincount(cells, weights, minlength=flat.size).astype(np.int32)
        elif len(cells):
            listed, slot = np.unique(cells, return_inverse=True)
            flat[listed] += np.bincount(slot, weights).astype(np.int32)

    def _candidate_cells(self, segments: FloatArray) -> tuple[IntArray, IntArray, IntArray]:
        """(wall, x, y) once for every cell whose forward steps a wall may meet: the cells
        around each piece of the wall clipped to the map (bounding box plus a margin)."""
        kept, clipped = _clip_all(segments, self.width, self.height)
        owner, pieces = _piece_ends(clipped, PIECE)
        x0 = np.clip(np.floor(pieces[:, [0, 2]].min(axis=1)) - 2, 0, self.width).astype(int)
        y0 = np.clip(np.floor(pieces[:, [1, 3]].min(axis=1)) - 2, 0, self.height).astype(int)
        x1 = np.clip(np.ceil(pieces[:, [0, 2]].max(axis=1)) + 1, 0, self.width).astype(int)
        y1 = np.clip(np.ceil(pieces[:, [1, 3]].max(axis=1)) + 1, 0, self.height).astype(int)
        piece, xs, ys = _cells_in_boxes(x0, y0, x1, y1)
        return _once(kept[owner[piece]], xs, ys, repeated=len(pieces) > len(clipped))

    def walls_near(self, segment: tuple[float, float, float, float]) -> Iterator[WallSegment]:
        """Walls in the index buckets the segment passes through (each once). The index
        covers the map and its margin: walls met only outside that area are not found."""
        inside = self._in_area(segment)
        if inside is None:
            return
        seen: set[int] = set()
        for bucket in _buckets_along(inside):
            for wall_id in self._index.ids(bucket):
                if wall_id not in seen:
                    seen.add(wall_id)
                    wall = self._walls[wall_id]
                    assert wall is not None  # removed walls leave the index
                    yield wall

    def first_blocking_wall(self, segment: tuple[float, float, float, float]
                            ) -> WallSegment | None:
        for wall in self.walls_near(segment):
            if wall.blocks_movement and segments_intersect(segment, wall.points):
                return wall
        return None

    def sight_segments(self) -> FloatArray:
        """(N, 4): x1, y1, x2, y2 of each distinct sight-blocking wall, once (a wall stacked
        100,000 times on itself hides no more than one, and every sweep's cost grows with
        the rows: 100,000 copies took the party's sight 3 s and 1.4 GiB); a new array after
        each wall edit (so vision caches can key on its identity)."""
        if self._sight is None:
            keys = [key for key in self._ids_by_wall if self._first(key).blocks_sight]
            self._sight_walls = tuple(self._first(key) for key in keys)
            points = [key[:4] for key in keys]
            self._sight = np.array(points, dtype=np.float64).reshape(-1, 4)
        return self._sight

    def _first(self, key: WallKey) -> WallSegment:
        """The first copy of the wall with this key (walls are in id order, and so are the
        keys: a key is made with its first copy and goes when its last does)."""
        wall = self._walls[self._ids_by_wall[key][0]]
        assert wall is not None  # removed walls leave the key's ids
        return wall

    def sight_walls(self) -> tuple[WallSegment, ...]:
        """The walls of :meth:`sight_segments`, row for row (what each row is: a wall, a
        closed door, an object)."""
        self.sight_segments()
        return self._sight_walls

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


@cache
def _terrain_lookups() -> tuple[npt.NDArray[np.generic], ...]:
    """Terrain code (a byte) → move cost, adds resist, slippery, conceals."""
    cost = np.ones(256, dtype=np.int8)
    resist, slippery, conceals = (np.zeros(256, dtype=bool) for _ in range(3))
    for code, spec in TERRAIN_BY_CODE.items():
        cost[ord(code)] = spec.move_cost
        resist[ord(code)] = spec.adds_resist
        slippery[ord(code)] = spec.slippery
        conceals[ord(code)] = spec.conceals
    return cost, resist, slippery, conceals


def _terrain_arrays(codes: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[Any], ...]:
    return tuple(lookup[codes] for lookup in _terrain_lookups())


def elevation_grid(elevation: dict[str, int], height: int, width: int
                   ) -> npt.NDArray[np.int32]:
    """The map's ``"x,y" → feet`` table as a height × width array: the keys are parsed in
    one go (the model checked their form), not one regular expression each.

    >>> elevation_grid({"1,0": 5, "0,1": -10}, 2, 2).tolist()
    [[0, 5], [-10, 0]]
    """
    grid = np.zeros((height, width), dtype=np.int32)
    if elevation:
        xy = np.array(",".join(elevation).split(","), dtype=np.int64).reshape(-1, 2)
        grid[xy[:, 1], xy[:, 0]] = np.fromiter(elevation.values(), dtype=np.int32,
                                               count=len(elevation))
    return grid


class WallIndex:
    """Wall ids by index bucket (BUCKET × BUCKET cells), in compressed rows: every
    (wall, bucket) entry in two int32 arrays, sorted by bucket (then by wall, the order
    the walls were added) when next read after an edit. Four bytes an entry where a dict per
    bucket took some eighty: the 100,000 walls of a hostile file held 30 MiB."""

    def __init__(self, width: int, height: int) -> None:
        # buckets from −1 (the margin) to past the far side, in each direction
        self.columns = (width + MARGIN) // BUCKET + 3
        self.rows = (height + MARGIN) // BUCKET + 3
        self._walls = np.zeros(0, dtype=np.int32)
        self._buckets = np.zeros(0, dtype=np.int32)
        self._starts: npt.NDArray[np.intp] | None = None

    def __len__(self) -> int:
        return len(self._walls)

    def add(self, walls: IntArray, xs: IntArray, ys: IntArray) -> None:
        """Add entries: wall id, bucket x, bucket y."""
        buckets = (ys + 1) * self.columns + (xs + 1)
        self._walls = np.concatenate([self._walls, walls.astype(np.int32)])
        self._buckets = np.concatenate([self._buckets, buckets.astype(np.int32)])
        self._starts = None

    def remove(self, walls: IntArray) -> None:
        """Drop every entry of these wall ids."""
        keep = ~np.isin(self._walls, walls)
        self._walls, self._buckets = self._walls[keep], self._buckets[keep]
        self._starts = None

    def ids(self, bucket: tuple[int, int]) -> list[int]:
        """The wall ids in a bucket, in the order they were added."""
        x, y = bucket[0] + 1, bucket[1] + 1
        if not (0 <= x < self.columns and 0 <= y < self.rows):
            return []
        if self._starts is None:
            self._sort()
        assert self._starts is not None
        slot = y * self.columns + x
        ids: list[int] = self._walls[self._starts[slot]:self._starts[slot + 1]].tolist()
        return ids

    def _sort(self) -> None:
        order = np.argsort(self._buckets, kind="stable")  # walls in order within a bucket
        self._walls, self._buckets = self._walls[order], self._buckets[order]
        counts = np.bincount(self._buckets, minlength=self.columns * self.rows)
        self._starts = np.concatenate([[0], np.cumsum(counts)])


def _batches(segments: FloatArray, width: int, height: int) -> list[IntArray]:
    """The rows of ``segments`` in runs of about :data:`BATCH_PIECES` pieces once clipped
    to the map and its margin."""
    kept, clipped = _clip_all(segments, width, height)
    x1, y1, x2, y2 = clipped.T
    pieces = np.maximum(np.ceil(np.maximum(np.abs(x2 - x1), np.abs(y2 - y1)) / PIECE), 1)
    batch = (np.cumsum(pieces) - pieces) // BATCH_PIECES
    cuts = np.flatnonzero(np.diff(batch)) + 1
    return np.split(kept, cuts) if len(kept) else []


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


def clip_segment(segment: tuple[float, float, float, float], width: float, height: float,
                 margin: float = 0) -> tuple[float, float, float, float] | None:
    """The part of a segment inside [-margin, width + margin] × [-margin, height + margin]
    (Liang-Barsky), or None.

    >>> clip_segment((-2, 1, 4, 1), 3, 3)
    (0.0, 1.0, 3.0, 1.0)
    """
    x1, y1, x2, y2 = segment
    dx, dy = x2 - x1, y2 - y1
    low, high = 0.0, 1.0
    for p, q in ((-dx, x1 + margin), (dx, width + margin - x1), (-dy, y1 + margin),
                 (dy, height + margin - y1)):
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


def _cells_in_boxes(x0: IntArray, y0: IntArray, x1: IntArray, y1: IntArray
                    ) -> tuple[IntArray, IntArray, IntArray]:
    """(box, x, y) for every cell of every half-open box x0 ≤ x < x1, y0 ≤ y < y1."""
    wide, high = np.maximum(x1 - x0, 0), np.maximum(y1 - y0, 0)
    counts = wide * high
    box = np.repeat(np.arange(len(x0)), counts)
    local = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return box, x0[box] + local % np.maximum(wide[box], 1), y0[box] + local // np.maximum(
        wide[box], 1)


def _once(walls: IntArray, xs: IntArray, ys: IntArray, repeated: bool
          ) -> tuple[IntArray, IntArray, IntArray]:
    """The (wall, x, y) triples without repeats (``repeated``: pieces of one wall overlap),
    in order of wall."""
    if not repeated or not len(walls):
        return walls, xs, ys
    low_x, low_y = xs.min(), ys.min()
    wide, high = xs.max() - low_x + 1, ys.max() - low_y + 1
    keys = _sorted_once(np.sort((walls * high + ys - low_y) * wide + xs - low_x))
    return keys // (wide * high), keys % wide + low_x, keys // wide % high + low_y


def _sorted_once(keys: IntArray) -> IntArray:
    """``np.unique`` of sorted keys, without it: its first call imports ``numpy.ma`` (8 ms
    of the app's start, where the first map's walls are indexed).

    >>> _sorted_once(np.array([1, 1, 2, 5, 5, 5])).tolist()
    [1, 2, 5]
    """
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return keys[first]


def _clip_all(segments: FloatArray, width: int, height: int) -> tuple[IntArray, FloatArray]:
    """:func:`clip_segment` of every row (x1, y1, x2, y2) to the map and its margin: the
    indices of the rows that meet that area, and their clipped rows."""
    x1, y1, x2, y2 = segments.T
    dx, dy = x2 - x1, y2 - y1
    low, high = np.zeros(len(segments)), np.ones(len(segments))
    keep = np.ones(len(segments), dtype=bool)
    for p, q in ((-dx, x1 + MARGIN), (dx, width + MARGIN - x1), (-dy, y1 + MARGIN),
                 (dy, height + MARGIN - y1)):
        flat = np.abs(p) < EPS
        keep &= ~flat | (q >= 0)
        t = q / np.where(flat, 1.0, p)
        low = np.where(~flat & (p < 0), np.maximum(low, t), low)
        high = np.where(~flat & (p > 0), np.minimum(high, t), high)
    keep &= low <= high
    clipped = np.stack([x1 + low * dx, y1 + low * dy, x1 + high * dx, y1 + high * dy], axis=1)
    return np.flatnonzero(keep), clipped[keep]


def _piece_ends(segments: FloatArray, longest: float) -> tuple[IntArray, FloatArray]:
    """Each segment cut into equal pieces at most ``longest`` long on either axis: the
    index of the segment each piece comes from, and the pieces' ends (one row each)."""
    x1, y1, x2, y2 = segments.T
    span = np.maximum(np.abs(x2 - x1), np.abs(y2 - y1))
    count = np.maximum(np.ceil(span / longest), 1).astype(np.int64)
    owner = np.repeat(np.arange(len(segments)), count)
    index = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    start, end = index / count[owner], (index + 1) / count[owner]
    dx, dy = (x2 - x1)[owner], (y2 - y1)[owner]
    ends = np.stack([x1[owner] + start * dx, y1[owner] + start * dy,
                     x1[owner] + end * dx, y1[owner] + end * dy], axis=1)
    return owner, ends
