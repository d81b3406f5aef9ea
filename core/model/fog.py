"""Fog of war saved with the encounter: the cells the party has explored, and the cells the
GM revealed or hid by hand (docs/vision.md says how they combine).

Each layer is a set of cells saved as runs along rows: ``[x, y, length]`` is the cells
x .. x + length - 1 of row y. Runs lie within the largest map (300 × 300); cells beyond
the current map (left after it shrank) are kept but ignored, and the next fog edit drops
them.

>>> mask = np.zeros((2, 5), dtype=bool)
>>> mask[0, 1:4] = mask[1, 4] = True
>>> runs_of(mask)
((1, 0, 3), (4, 1, 1))
>>> bool((mask_of(runs_of(mask), 5, 2) == mask).all())
True
"""

from __future__ import annotations

import threading
from typing import Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from core.model.limits import MAX_MAP_CELLS

BoolArray = npt.NDArray[np.bool_]
Run = tuple[int, int, int]
FogLayer = Literal["explored", "revealed", "hidden"]
MAX_RUNS = MAX_MAP_CELLS * MAX_MAP_CELLS // 2  # a checkerboard: the most distinct runs
#: The masks last made of layers' runs (by the runs' identity: fog states are immutable).
MASKS_KEPT = 12
_MASKS: dict[tuple[int, int, int], tuple[tuple[Run, ...], BoolArray]] = {}
_MASKS_LOCK = threading.Lock()


class FogState(BaseModel):
    """``enabled`` False: the players see the whole map (the layers are kept)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    explored: tuple[Run, ...] = ()
    revealed: tuple[Run, ...] = ()
    hidden: tuple[Run, ...] = ()

    @field_validator("explored", "revealed", "hidden")
    @classmethod
    def _within_largest_map(cls, runs: tuple[Run, ...], info: ValidationInfo
                            ) -> tuple[Run, ...]:
        if len(runs) > MAX_RUNS:
            raise ValueError(f"{info.field_name} has {len(runs)} runs; at most {MAX_RUNS}")
        for index, (x, y, length) in enumerate(runs):
            if not (x >= 0 and 0 <= y < MAX_MAP_CELLS and 1 <= length <= MAX_MAP_CELLS - x):
                raise ValueError(
                    f"{info.field_name} run {index} [x={x}, y={y}, length={length}] is not a "
                    f"run of cells within {MAX_MAP_CELLS}×{MAX_MAP_CELLS}")
        return runs

    def cells(self, layer: FogLayer, width: int, height: int) -> BoolArray:
        """The layer as a (height, width) mask, read-only: made once per layer and size
        (a party move read the explored cells a dozen times, 4 ms on a 300 × 300 map)."""
        runs: tuple[Run, ...] = getattr(self, layer)
        key = (id(runs), width, height)
        with _MASKS_LOCK:  # the odds worker reads the fog too
            made = _MASKS.get(key)
        if made is None or made[0] is not runs:  # the id of runs gone and made again
            mask = mask_of(runs, width, height)
            mask.flags.writeable = False
            made = (runs, mask)
            with _MASKS_LOCK:
                _MASKS[key] = made
                while len(_MASKS) > MASKS_KEPT:
                    _MASKS.pop(next(iter(_MASKS)))
        return made[1]

    def with_cells(self, **layers: BoolArray) -> FogState:
        """A copy with the given layers (keyword = layer name) replaced by masks."""
        return self.model_copy(update={name: runs_of(mask) for name, mask in layers.items()})


def runs_of(mask: BoolArray) -> tuple[Run, ...]:
    """The runs of True cells, row by row, left to right."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    edges = np.diff(padded, axis=1)
    start_y, start_x = np.nonzero(edges == 1)
    _, end_x = np.nonzero(edges == -1)
    return tuple(zip(start_x.tolist(), start_y.tolist(), (end_x - start_x).tolist(),
                     strict=True))


def mask_of(runs: tuple[Run, ...], width: int, height: int) -> BoolArray:
    """A (height, width) mask of the runs' cells (cells off it ignored)."""
    mask = np.zeros((height, width + 1), dtype=np.int8)
    if runs:
        x, y, length = np.array(runs, dtype=np.intp).T
        inside = (y < height) & (x < width)
        x, y, end = x[inside], y[inside], np.minimum(x + length, width)[inside]
        np.add.at(mask, (y, x), 1)
        np.add.at(mask, (y, end), -1)
    cells: BoolArray = np.cumsum(mask, axis=1)[:, :width] > 0
    return cells
