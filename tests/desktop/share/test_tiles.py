"""The map image's tiles: only explored cells, and only those asked for."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image
from pytest import MonkeyPatch

from desktop.share import tiles
from desktop.share.tiles import TILE_CELLS, MapImage, bits_mask, tile_bits


def picture(width: int, height: int) -> bytes:
    data = io.BytesIO()
    Image.new("RGB", (width, height), (10, 200, 10)).save(data, "PNG")
    return data.getvalue()


def test_bits_name_the_explored_cells_of_a_tile() -> None:
    explored = np.zeros((10, 10), dtype=bool)
    explored[1, 2] = explored[9, 9] = True
    assert tile_bits(explored, 0, 0) == "0004" + "00" * 6
    mask = bits_mask(tile_bits(explored, 1, 1))
    assert mask is not None and mask[1, 1] and mask.sum() == 1
    assert bits_mask("zz" * 8) is None and bits_mask("00") is None


def test_a_tile_shows_the_explored_cells_and_cuts_out_the_rest() -> None:
    image = MapImage(picture(200, 200), offset_x=0, offset_y=0, px_per_cell=10)
    explored = np.zeros((20, 20), dtype=bool)
    explored[0, 0] = True
    data = image.tile(0, 0, tile_bits(explored, 0, 0), explored)
    assert data is not None
    pixels = np.array(Image.open(io.BytesIO(data)))
    assert pixels.shape == (TILE_CELLS * 10, TILE_CELLS * 10, 4)
    assert pixels[5, 5, 3] == 255 and pixels[5, 15, 3] == 0 and pixels[15, 5, 3] == 0


def test_a_tile_asking_for_an_unexplored_cell_or_off_the_map_is_refused() -> None:
    image = MapImage(picture(200, 200), offset_x=0, offset_y=0, px_per_cell=10)
    explored = np.zeros((20, 20), dtype=bool)
    assert image.tile(0, 0, "01" + "00" * 7, explored) is None
    assert image.tile(5, 0, "00" * 8, explored) is None


def test_tiles_kept_for_later_stay_within_their_bound(monkeypatch: MonkeyPatch) -> None:
    image = MapImage(picture(200, 200), offset_x=0, offset_y=0, px_per_cell=10)
    explored = np.ones((20, 20), dtype=bool)
    one = image.tile(0, 0, "01" + "00" * 7, explored)
    assert one is not None
    monkeypatch.setattr(tiles, "TILE_CACHE_BYTES", 3 * len(one))
    for row in range(TILE_CELLS):  # a page asking for subset after subset
        for bit in (1, 2, 4, 8):
            bits = "00" * row + f"{bit:02x}" + "00" * (TILE_CELLS - row - 1)
            assert image.tile(0, 0, bits, explored) is not None
    assert 0 < image.cached_bytes <= 3 * len(one)
    assert image.cached_bytes == sum(map(len, image._cache.values()))
