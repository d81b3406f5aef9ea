"""Images of one pixel per cell, made from numpy arrays (the floor and terrain, the fog,
the hazards zoomed out): scaled up without smoothing, a whole map is one draw call."""

from __future__ import annotations

import numpy as np

from desktop.qt import QImage

PREMULTIPLIED = QImage.Format.Format_ARGB32_Premultiplied


def image_of(pixels: np.ndarray, image_format: QImage.Format = PREMULTIPLIED) -> QImage:
    """A QImage that owns a copy of ``pixels`` (H, W, 4 bytes in BGRA order)."""
    height, width = pixels.shape[:2]
    data = np.ascontiguousarray(pixels)
    return QImage(data.data, width, height, width * 4, image_format).copy()
