"""Python's cyclic garbage collector, kept out of the GM's way.

A full collection (CPython's generation 2) walks every container object the process holds:
on the 300×300 benchmark map, about 200,000 (the encounter's models, the scene's item
wrappers, the modules' functions and classes) — 98-136 ms a time, at a moment the
interpreter picks: in the middle of a drag, a zoom or a press (``benchmarks/README.md``).
Reference counting frees almost everything without it; it is there for cycles.

So once an encounter is open and drawn, and again after another one replaces it, every
object that survives a full collection is frozen (``gc.freeze``: moved where no
collection looks). The collections the interpreter still starts then walk only what was
made since. When the GM pauses (no edit for a second), what the last edits made is
collected and frozen too, so that stays small. So is what a feature made outside the
history (:meth:`QuietCollector.collect_when_quiet`): sharing the player view imports its
server and keeps each page's state, 170,000 objects with 12 pages on the 300×300 map,
which a full collection walked for 20-75 ms in the middle of the GM's next zoom.

The app starts with the collector off (``desktop.cli.main``): the imports and the first window
make hundreds of thousands of objects that live as long as the app, which it walked 172
times before the first frame. The first full collection turns it on.

The price: a cycle among frozen objects that becomes garbage is freed only when another
encounter opens (everything is collected then): a stopped share's server waits for that.
So nothing is frozen while a dialog or a menu is open: the code that opened it still holds
what it was working on (a refused import's file and error), which would be kept long after
it is dropped.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from desktop.qt import QApplication, QObject, QTimer, Signal

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.document.document import EncounterDocument

AFTER_OPEN_MS = 300  # the new encounter's first frame is on screen by then
IDLE_MS = 1000  # no edit for this long: the GM is thinking, not dragging


class QuietCollector(QObject):
    """Collects and freezes after ``document`` opens an encounter and when its edits
    pause; lives as long as the document."""

    collected = Signal()  # after each collection

    def __init__(self, document: EncounterDocument, idle_ms: int = IDLE_MS) -> None:
        super().__init__(document)
        # Bound methods, not lambdas: Qt drops their connections when this object goes.
        self._opened = _single_shot(self, AFTER_OPEN_MS, self._collect_everything)
        self._paused = _single_shot(self, idle_ms, self._collect_recent)
        document.replaced.connect(self._opened.start)
        document.history_changed.connect(self._paused.start)
        self._opened.start()

    def collect_when_quiet(self) -> None:
        """Collect and freeze what was made lately once a second passes with no edit (and
        no other call of this): for work that made many objects outside the history."""
        self._paused.start()

    def _collect_everything(self) -> None:
        self._collect(self._opened, collect_everything)

    def _collect_recent(self) -> None:
        self._collect(self._paused, collect_recent)

    def _collect(self, timer: QTimer, collection: Callable[[], None]) -> None:
        """Run ``collection`` now, or once no dialog is open (``timer`` comes round again)."""
        if _busy():
            timer.start()
            return
        collection()
        self.collected.emit()


def collect_everything() -> None:
    """Collect every object, frozen ones too, and freeze what survives (a pause as long as
    the heap is big: done when an encounter has just opened); the collector is on from
    then, if the app started it off."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.enable()


def collect_recent() -> None:
    """Collect what was made since the last freeze, and freeze what survives (quick)."""
    gc.collect()
    gc.freeze()


def _busy() -> bool:
    """A dialog or a menu is open: the code that opened it waits for it."""
    return bool(QApplication.activeModalWidget() or QApplication.activePopupWidget())


def _single_shot(parent: QObject, interval_ms: int, slot: Callable[[], None]) -> QTimer:
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval_ms)
    timer.timeout.connect(slot)
    return timer
