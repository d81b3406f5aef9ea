"""The map image in tiles of 8 × 8 cells with every cell the party has not explored cut out:
the image's fogged parts never leave the GM's machine. A page asks for a tile with the bits
of the cells it knows to be explored (one hex byte per row, bit x for column x); the server
hands out only a tile whose asked cells are all explored, so the answer can be cached by
the page for good (the same URL is always the same picture).

>>> tile_bits(np.array([[True, False], [False, True]]), 0, 0)
'0102000000000000'
"""

from __future__ import annotations

import io
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image

if TYPE_CHECKING:
    from core.spatial.sweep import BoolArray

TILE_CELLS = 8
MAX_TILE_PX_PER_CELL = 96  # a phone needs no more; a 200 px map cell would make 1600 px tiles
#: The PNG bytes of tiles kept for the next page that asks (the least lately asked go
#: first): pages asking for every subset of explored cells must not fill the GM's memory.
TILE_CACHE_BYTES = 64 * 1024 * 1024


def tile_bits(explored: BoolArray, tx: int, ty: int) -> str:
    """The explored cells of tile (tx, ty) as 16 hex digits (see the module's docstring)."""
    block = np.zeros((TILE_CELLS, TILE_CELLS), dtype=bool)
    part = explored[ty * TILE_CELLS:(ty + 1) * TILE_CELLS, tx * TILE_CELLS:(tx + 1) * TILE_CELLS]
    block[:part.shape[0], :part.shape[1]] = part
    return np.packbits(block, axis=1, bitorder="little").tobytes().hex()


def bits_mask(bits: str) -> BoolArray | None:
    """The 8 × 8 mask of 16 hex digits, or None when they are not that."""
    if len(bits) != 2 * TILE_CELLS or any(ch not in "0123456789abcdef" for ch in bits):
        return None
    rows = np.frombuffer(bytes.fromhex(bits), dtype=np.uint8).reshape(TILE_CELLS, 1)
    mask: BoolArray = np.unpackbits(rows, axis=1, bitorder="little").astype(bool)
    return mask


@dataclass
class MapImage:
    """The map image of the encounter being shared, decoded at the first tile asked for."""

    data: bytes
    offset_x: float
    offset_y: float
    px_per_cell: float
    cached_bytes: int = 0
    _cache: OrderedDict[tuple[int, int, str], bytes] = field(default_factory=OrderedDict,
                                                             repr=False)

    @cached_property
    def pixels(self) -> Image.Image:
        return Image.open(io.BytesIO(self.data)).convert("RGBA")

    def tile(self, tx: int, ty: int, bits: str, explored: BoolArray) -> bytes | None:
        """Tile (tx, ty) showing only the cells ``bits`` names, as PNG; None when it names
        a cell not explored (or is malformed, or off the map)."""
        asked = bits_mask(bits)
        height, width = explored.shape
        if asked is None or not (0 <= tx * TILE_CELLS < width and 0 <= ty * TILE_CELLS < height):
            return None
        allowed = bits_mask(tile_bits(explored, tx, ty))
        assert allowed is not None
        if (asked & ~allowed).any():
            return None
        return self._cached((tx, ty, bits), asked)

    def _cached(self, key: tuple[int, int, str], asked: BoolArray) -> bytes:
        cache = self._cache
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        cache[key] = drawn = self._draw(key[0], key[1], asked)
        self.cached_bytes += len(drawn)
        while self.cached_bytes > TILE_CACHE_BYTES and len(cache) > 1:
            self.cached_bytes -= len(cache.popitem(last=False)[1])
        return drawn

    def _draw(self, tx: int, ty: int, asked: BoolArray) -> bytes:
        ppc = self.px_per_cell
        out = max(1, round(min(ppc, MAX_TILE_PX_PER_CELL)))
        left = self.offset_x + tx * TILE_CELLS * ppc
        top = self.offset_y + ty * TILE_CELLS * ppc
        span = TILE_CELLS * ppc
        box = (round(left), round(top), round(left + span), round(top + span))
        size = TILE_CELLS * out
        picture = np.array(self.pixels.crop(box).resize((size, size), Image.Resampling.BILINEAR))
        shown = np.kron(asked, np.ones((out, out), dtype=bool))
        picture[~shown] = 0
        encoded = io.BytesIO()
        Image.fromarray(picture).save(encoded, "PNG", optimize=False, compress_level=3)
        return encoded.getvalue()
