"""The window's lit cells, brought up to date at once when a change touches few lights and
on a worker thread when it would take longer than a frame (docs/vision.md §7).

The document keeps its encounter's :class:`~core.spatial.lighting.Lighting` patient: while
a worker sweeps, everything that reads the lit cells (the party's sight, the players' fog)
reads the last ones; the explored cells are not recorded from them (the document waits).
When the newer lit cells are installed the document says so (a change of the fog: the
views redraw, what the party sees now is recorded) and the keeper looks again, in case the
map changed meanwhile. Nothing is swept on a map in daylight: the lit cells are read only
in the dark.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

from core.model.mapmodel import Darkness
from core.spatial.lighting import Lighting
from desktop.qt import QObject, Signal, isValid

if TYPE_CHECKING:
    from core.model.encounter import Encounter

#: At most this many cells in reach of the lights to sweep again are swept on the GUI thread
#: (about 5 ms on a 2-core machine); more go to the worker.
SYNC_CELLS = 20_000


class LightKeeper(QObject):
    """Keeps one encounter's lit cells (the document's, replaced with it)."""

    lit = Signal()  # newer lit cells were installed (on the GUI thread)
    _swept = Signal(object, object)  # (the encounter, the worker's job)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="battlemap-lights")
        self._job: Future[Lighting] | None = None
        self._encounter: Encounter | None = None
        self._swept.connect(self._install)

    def keep(self, encounter: Encounter) -> None:
        """Keep ``encounter``'s lit cells from now on (a newly opened one)."""
        self._encounter = encounter
        encounter.derived(Lighting, lambda: Lighting(patient=True))
        self.catch_up()

    def _lighting(self) -> tuple[Encounter, Lighting]:
        assert self._encounter is not None
        return self._encounter, self._encounter.derived(Lighting, Lighting)

    @property
    def current(self) -> bool:
        """Whether the lit cells are those of the map as it is (or not needed: daylight)."""
        encounter, lighting = self._lighting()
        if encounter.map.darkness is Darkness.DAYLIGHT:
            return True
        from core.spatial.vision import lighting_inputs  # not part of a daylit start

        return lighting.follows(*lighting_inputs(encounter))

    def catch_up(self) -> bool:
        """Bring the lit cells up to date: here when little is to be swept, else on the
        worker (unless it is already sweeping: it looks again when it is done). Whether
        they are up to date now."""
        if self.current:
            return True
        if self._job is not None:
            return False
        from core.spatial.vision import lighting_inputs

        encounter, lighting = self._lighting()
        inputs = lighting_inputs(encounter)
        if lighting.work(*inputs) <= SYNC_CELLS:
            lighting.follow(*inputs)
            return True
        self._job = self._worker.submit(lighting.updated, *inputs)
        self._job.add_done_callback(lambda done: self._done(encounter, done))
        return False

    def _done(self, encounter: Encounter, job: Future[Lighting]) -> None:
        """On the worker: hand the result to the GUI thread (unless the window is gone)."""
        if isValid(self):
            self._swept.emit(encounter, job)

    def _install(self, encounter: Encounter, job: Future[Lighting]) -> None:
        if job is not self._job:  # installed already (by wait)
            return
        self._job = None
        if encounter is self._encounter:  # not another encounter opened meanwhile
            self._lighting()[1].install(job.result())
            self.lit.emit()
        self.catch_up()

    def wait(self) -> None:
        """Until the sweeps in flight are done and installed (tests, benchmarks)."""
        while self._job is not None:
            self._job.exception()
            assert self._encounter is not None
            self._install(self._encounter, self._job)
