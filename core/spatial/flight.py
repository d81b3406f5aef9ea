"""Where a missile's flight ends: it flies straight (seen from above) from the shooter to
where it would land, and the first wall on the way stops it there (RD "Missiles": "Walls stop
the flight at the wall"). The walls that stop a missile are the ones that give cover — walls,
closed doors, objects; a missile flies through a window or an open door, which "do not
cover". Many flights are worked out at once, so the odds of a miss (every d20 and scatter
die) cost one array operation, and the resolver's single flight goes through the same code.

>>> from core.model.mapmodel import BattleMap, WallSegment
>>> from core.spatial.geometry import MapGeometry
>>> geometry = MapGeometry(BattleMap(width=10, height=10,
...                                   walls=[WallSegment(x1=6, y1=0, x2=6, y2=10)]))
>>> ends, walls = flight_ends(geometry, (1.5, 1.5), np.array([[8.5, 1.5], [4.5, 4.5]]))
>>> [cell_of(tuple(p)) for p in ends], walls.tolist()
([Cell(x=5, y=1), Cell(x=4, y=4)], [0, -1])
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from core.model.grid import Cell
from core.spatial.cover import convex_hull, crossings, segments_meeting_hull
from core.spatial.geometry import MapGeometry

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
Point = tuple[float, float]

EPS = 1e-9
BACK_OFF = 1e-6  # grid units: a flight stopped by a wall rests on the shooter's side of it


def flight_ends(geometry: MapGeometry, origin: Point, aims: FloatArray
                ) -> tuple[FloatArray, IntArray]:
    """For each aim point (rows x, y), where the flight from ``origin`` ends, and the row of
    :meth:`~core.spatial.geometry.MapGeometry.sight_walls` that stopped it (−1: none).
    A wall the shooter stands on (met at the very start) does not stop it."""
    aims = aims.reshape(-1, 2)
    low, high = aims.min(axis=0), aims.max(axis=0)
    box = np.array([origin, low, high, (low[0], high[1]), (high[0], low[1])])
    walls = geometry.sight_segments()
    near = np.flatnonzero(segments_meeting_hull(walls, convex_hull(box)))
    start = np.array(origin)
    way = aims - start
    never = np.full((len(way), 1), math.inf)  # a last column: "no wall"
    crossing = np.hstack([crossings(start, way, walls[near], longest=1.0), never])
    first = crossing.min(axis=1)
    stopped = np.isfinite(first)
    length = np.maximum(np.hypot(way[:, 0], way[:, 1]), EPS)
    reach = np.where(stopped, np.maximum(first - BACK_OFF / length, 0.0), 1.0)
    rows = np.append(near, -1)
    return start + way * reach[:, None], rows[np.where(stopped, crossing.argmin(axis=1), -1)]


def cell_of(point: Point) -> Cell:
    """The cell a point of the map lies in."""
    return Cell(math.floor(point[0]), math.floor(point[1]))
