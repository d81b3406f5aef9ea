"""Token pictures ("faces") per zoom step, and what a token shows while the wheel turns.

A detailed token's face (ring, fill, initials or portrait, HP bar, hidden mark) is drawn
once per zoom step of √2 and scaled by Qt; the pictures live in Qt's pixmap cache, whose
limit bounds them all. Drawing one takes about 40 µs: the first visit of a zoom step near
fit on a big map drew hundreds at once and made that wheel notch 25 ms.

So while the GM zooms, a token whose face for the new step is not drawn yet borrows the
nearest step's face (scaled: for a moment a little soft) or, with none, is a plain disc;
once the zoom has rested :data:`REST_MS` the owed faces are drawn, a few milliseconds at a
time, and those tokens repainted. Outside a zoom (a first show, a fit, an edit at rest)
faces are drawn at once, exactly; a token edited while the wheel turns is a plain disc
until the zoom rests. The players' window borrows while the GM's view it follows zooms.
"""

from __future__ import annotations

import math
import time
from typing import Protocol

from desktop.qt import QObject, QPixmap, QPixmapCache, QTimer, Signal

FACE_STEP = math.sqrt(2)  # a token's picture is redrawn when the zoom passes a power of √2
REST_MS = 150  # the zoom has rested: draw the faces owed
CHUNK_S = 0.004  # owed faces drawn per turn of the event loop (input stays responsive)
BORROW_FROM = (1, -1, 2, -2)  # nearest steps first; a bigger face scales down crisply


def face_step(scale: float) -> int:
    """The zoom step of a face drawn for ``scale`` device pixels per scene unit."""
    return math.ceil(math.log(max(scale, 1e-3), FACE_STEP))


class HasFace(Protocol):
    """What the face book asks of a token item."""

    def face_key(self, step: int) -> str: ...

    def draw_face(self, step: int) -> QPixmap: ...

    def update(self) -> None: ...

    def shows_face(self) -> bool: ...


class FaceBook(QObject):
    """One scene's token faces: found, lent or drawn, and the owed ones drawn at rest.
    ``rested`` says the zoom rested (other pictures lent while zooming are made anew)."""

    rested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.zooming = False
        self._owed: dict[HasFace, int] = {}  # token item → the step it should show
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self._draw_owed)

    def zoom_moved(self) -> None:
        """The GM is zooming (a wheel notch, a pinch, a zoom key): lend faces until the
        zoom rests."""
        self.zooming = True
        self._rest.start()

    def face(self, item: HasFace, scale: float) -> QPixmap | None:
        """The item's face for ``scale``: drawn now unless the GM is zooming or the face
        is owed already, then the nearest drawn step's, or None (the item draws a plain
        disc) until the owed faces are drawn."""
        step = face_step(scale)
        exact = _drawn(item, step)
        if exact is not None:
            return exact
        if not self.zooming and item not in self._owed:
            return item.draw_face(step)
        self._owed[item] = step
        for offset in BORROW_FROM:
            lent = _drawn(item, step + offset)
            if lent is not None:
                return lent
        return None

    def owe(self, item: HasFace, scale: float) -> None:
        """Draw the item's face for ``scale`` with the owed ones, if it is not drawn yet
        (a token that was a disc all through a zoom); lent or a disc until then."""
        step = face_step(scale)
        if _drawn(item, step) is None:
            self._owed[item] = step

    @property
    def owed(self) -> int:
        """How many tokens wait for their face."""
        return len(self._owed)

    def _draw_owed(self) -> None:
        """The zoom has rested: draw the owed faces, a few milliseconds at a time."""
        self.zooming = False
        self.rested.emit()
        self._draw_some()

    def _draw_some(self) -> None:
        """Draw owed faces for about :data:`CHUNK_S`, then let the event loop run (input,
        the repaint of those done) and go on; a new zoom stops it until it rests again."""
        if self.zooming:
            return
        deadline = time.perf_counter() + CHUNK_S
        while self._owed and time.perf_counter() < deadline:
            item, step = self._owed.popitem()
            if not item.shows_face():
                continue
            if _drawn(item, step) is None:
                item.draw_face(step)
            # Repainted whole even when its face is drawn already: a neighbour's repaint
            # since the zoom rested may have drawn it only where the two overlap.
            item.update()
        if self._owed:
            QTimer.singleShot(0, self, self._draw_some)


def _drawn(item: HasFace, step: int) -> QPixmap | None:
    """The item's face at ``step`` if it is drawn (and still in Qt's pixmap cache)."""
    return QPixmapCache.find(item.face_key(step))
