"""The ``gui-scale`` group: the map window on the scale scenario (300×300, 10,000 walls,
3,000 tokens, 1,000 hazards) and on a Universal VTT map with an 8000×8000 image, driven by
real input events with Qt's normal region repaint (:mod:`benchmarks.frames`).

Caches start cold where a user meets them cold: the first zoom step after the window
opens, the first repaint, the first press after another token moved. Each drag is a
press, moves one cell at a time and a release that really moves the token (undone
afterwards, untimed).
"""

from __future__ import annotations

import gc
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.frames import PaintCounter, frame, mouse, settle, wheel
from benchmarks.scenario import SCALE, Scenario, build_scenario, elevated
from benchmarks.timing import Figures, ms, spread_ms, timed
from benchmarks.uvtt_big import big_uvtt
from core.actions.commands import MoveToken
from core.model.combatant import Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, allowed_directions
from core.model.tables import SIZES, Size
from core.spatial.pathing import find_path
from desktop.app import keep_collections_quiet, warm_up
from desktop.document.collector import collect_everything
from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, QEvent, QPointF, QSettings
from desktop.system.application import application

VIEW = (1600, 1000)
ZOOM_STEPS = 40
PAN_STEPS = 40
REPAINTS = 30
DRAG_CELLS = 24
DRAG_SIZES = (Size.MEDIUM, Size.LARGE, Size.HUGE, Size.GARGANTUAN)
BRUSH_STEPS = 30
AIM_MOVES = 48
UVTT_RUNS = 3
AUTOSAVE_RUNS = 4
GC_RUNS = 3

FRAME_120HZ_MS = 8.3
TARGETS: dict[str, float] = {
    "zoom_step_fit_p95_ms": FRAME_120HZ_MS, "zoom_step_zoom1_p95_ms": 16,
    "full_repaint_fit_p95_ms": FRAME_120HZ_MS, "pan_zoom1_p95_ms": 16,
    **{f"drag_frame_{size.value}_p95_ms": 4 for size in DRAG_SIZES},
    **{f"drag_frame_fit_{size.value}_p95_ms": 4 for size in DRAG_SIZES},
    **{f"press_{size.value}_p95_ms": 8 for size in DRAG_SIZES},
    "shove_aim_frame_p95_ms": 16, "missile_aim_frame_p95_ms": 16,
    "brush_step_p95_ms": 16,
}


def _log(message: str) -> None:
    print(f"[gui-scale] {message}", file=sys.stderr, flush=True)


class Bench:
    """One window and the paint counter of its map viewport."""

    def __init__(self, encounter: Encounter, folder: Path) -> None:
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        self.window = MainWindow(encounter, None, folder / "data", settings)
        self.window.resize(*VIEW)
        self.window.show()
        self.collector = keep_collections_quiet(self.window)  # as ``battlemap`` runs it
        warm_up().join()  # as ``battlemap`` does after its first frame: no user meets the
        # resolvers' first import (19 ms in the first drag's frames before this)
        # The autosave waits for the user to pause (no edit for a second, no button held),
        # which synthesized input cannot show: it ran inside timed drags. Timed on its own
        # (bench_autosave).
        self.window.files.autosaver.timer.stop()
        self.collections = 0
        self.collector.collected.connect(self._count_collection)
        self.view = self.window.view
        self.viewport = self.view.viewport()
        self.counter = PaintCounter(self.viewport)

    def _count_collection(self) -> None:
        self.collections += 1

    def wait_for_collection(self, seen: int) -> None:
        """Run the event loop until the collector has collected more than ``seen`` times:
        it does 0.3 s after an encounter opens, while a user looks at the new map."""
        while self.collections <= seen:
            QApplication.processEvents()
            time.sleep(0.005)

    def frame(self, action: Callable[[], object]) -> float:
        seconds, painted = frame(self.counter, action)
        if not painted:
            raise AssertionError("a timed frame painted nothing")
        return seconds

    def point_of(self, cell: Cell, size: int = 1) -> QPointF:
        """The viewport point at the centre of a size×size footprint at ``cell``."""
        renderer = self.window.scene.renderer
        centre = renderer.to_scene(cell.x + size / 2, cell.y + size / 2)
        return QPointF(self.view.mapFromScene(centre))

    def fit(self) -> None:
        self.view.fit_map()
        settle(self.counter)

    def rest(self) -> None:
        """Run the event loop until the last zoom has rested and the token faces it owed
        are drawn (``desktop.map.token_faces``: 150 ms after the last wheel notch, then a
        few ms at a time), as they are by the time a GM's hand has gone from the wheel to
        a token. Without it the share group's first drag, which follows its pans within
        150 ms of the last notch, took the rest's 10-27 ms in one of its frames."""
        faces = self.window.scene.faces
        while faces.zooming or faces.owed:
            QApplication.processEvents()
            time.sleep(0.005)
        settle(self.counter)

    def close(self) -> None:
        self.counter.remove()
        self.window.document.history.mark_clean()
        self.window.files.shutdown()
        self.window.close()
        self.collector.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # its timers too
        gc.unfreeze()  # the next group starts as a fresh process would


# --- garbage collection ---------------------------------------------------------------------
def bench_collections(bench: Bench) -> Figures:
    """A full garbage collection with the encounter open, before and after the objects
    that survive one are frozen (:mod:`desktop.document.collector` does it 0.3 s after an encounter
    opens; waited for, so every frame timed after this meets the frozen heap)."""
    bench.wait_for_collection(0)
    gc.unfreeze()
    tracked = len(gc.get_objects())
    unfrozen = [timed(gc.collect)[0] for _ in range(GC_RUNS)]
    collect_everything()
    frozen = [timed(gc.collect)[0] for _ in range(GC_RUNS)]
    return {"gc_tracked_objects": tracked, **spread_ms("gc_full_unfrozen", unfrozen),
            **spread_ms("gc_full_frozen", frozen)}


# --- zoom, pan, repaint ----------------------------------------------------------------------
def bench_zoom(bench: Bench) -> Figures:
    """Wheel notches over the middle of the view: five in, five out, again and again (each
    notch a new zoom level, as a user scrolls), from fit and from zoom 1; then the work of
    the zoom's rest (``zoom_rest_*``: from its signal, 150 ms after the last notch, until
    the owed token faces are drawn and painted, a few ms per turn of the event loop)."""
    centre = QPointF(bench.viewport.width() / 2, bench.viewport.height() / 2)
    notches = [1 if (i // 5) % 2 == 0 else -1 for i in range(ZOOM_STEPS)]
    figures: Figures = {}
    for name, start in (("fit", bench.fit), ("zoom1", lambda: _zoom_one(bench))):
        start()
        samples = [bench.frame(lambda n=n: wheel(bench.viewport, centre, n)) for n in notches]
        figures |= {f"zoom_step_{name}_cold_ms": ms(samples[0]),
                    **spread_ms(f"zoom_step_{name}", samples[1:]),
                    f"zoom_rest_{name}_ms": ms(_rest_work(bench))}
    return figures


def _rest_work(bench: Bench) -> float:
    """Seconds from the zoom's rest to the end of the work it brings (see ``Bench.rest``)."""
    rested: list[float] = []
    faces = bench.window.scene.faces
    connection = faces.rested.connect(lambda: rested.append(time.perf_counter()))
    bench.rest()
    faces.rested.disconnect(connection)
    return time.perf_counter() - rested[0]


def _zoom_one(bench: Bench) -> None:
    bench.view.resetTransform()
    bench.view.centre_on_cell(Cell(150, 150))
    settle(bench.counter)


def bench_pan(bench: Bench) -> Figures:
    """The map scrolled 40 px at a time (a drag with the middle button), at zoom 1."""
    _zoom_one(bench)
    bar = bench.view.horizontalScrollBar()
    steps = [40 if (i // 10) % 2 == 0 else -40 for i in range(PAN_STEPS)]
    samples = [bench.frame(lambda s=s: bar.setValue(bar.value() + s)) for s in steps]
    return spread_ms("pan_zoom1", samples)


def bench_repaint(bench: Bench) -> Figures:
    """The whole view painted at fit: the first after a zoom change, then again."""
    bench.view.fit_map()
    samples = [bench.frame(bench.viewport.repaint) for _ in range(REPAINTS + 1)]
    return {"full_repaint_fit_cold_ms": ms(samples[0]),
            **spread_ms("full_repaint_fit", samples[1:])}


# --- drags -----------------------------------------------------------------------------------
def _free_run(encounter: Encounter, token: Token, cells: int) -> bool:
    """Whether the token can slide ``cells`` cells east in a straight line (no wall, no
    creature, no difficult ground in the way)."""
    path = find_path(encounter, token.id, Cell(token.x + cells, token.y))
    return path.legal and path.cost_ft == cells * encounter.profile.cell_size_ft


def drag_tokens(encounter: Encounter, side: Side = Side.OPPOSITION) -> dict[Size, Token]:
    """For each size, the token of ``side`` nearest the middle with free ground east of
    it. The opposition by default: a party token's move also records what the party sees
    (fog of war), and the scenario's party is some 1,350 tokens (timed on its own: the
    ``scale`` group's ``party_sight_*``)."""
    middle = encounter.map.width // 2
    chosen: dict[Size, Token] = {}
    for size in DRAG_SIZES:
        candidates = sorted((t for t in encounter.tokens if t.combatant.size is size
                             and t.combatant.side is side),
                            key=lambda t: abs(t.x - middle) + abs(t.y - middle))
        chosen[size] = next(t for t in candidates if _free_run(encounter, t, 8))
    return chosen


def _nudge_another(bench: Bench, far_from: Token) -> None:
    """Move some other token one cell and back (two edits): what the GM did before this
    press, so caches that follow the tokens are as a user meets them."""
    document = bench.window.document
    other = next(t for t in document.encounter.tokens
                 if abs(t.x - far_from.x) + abs(t.y - far_from.y) > 40
                 and document.encounter.can_place(t.footprint.moved(Direction.E), t.id))
    document.push(MoveToken(other.id, Cell(other.x + 1, other.y)))
    document.push(MoveToken(other.id, other.cell))
    settle(bench.counter)


def _zigzag(step: int) -> int:
    """Cells east of the start at each step: 1 to 8 and back to 0, again and again."""
    phase = step % 16
    return phase + 1 if phase < 8 else 15 - phase


def _drag(bench: Bench, token: Token, prefix: str) -> Figures:
    """Press on the token, move one cell east at a time and back again, release on the
    last cell: every step a frame; the move is undone afterwards."""
    size = token.footprint.size
    bench.rest()
    _nudge_another(bench, token)
    bench.window.scene.clearSelection()  # the press selects it (and paints the ring)
    settle(bench.counter)
    start = token.cell
    press = bench.frame(lambda: mouse(bench.viewport, QEvent.Type.MouseButtonPress,
                                      bench.point_of(start, size)))
    path = [Cell(start.x + _zigzag(i), start.y) for i in range(DRAG_CELLS)]
    moves = [bench.frame(lambda c=c: mouse(bench.viewport, QEvent.Type.MouseMove,
                                           bench.point_of(c, size))) for c in path]
    end = path[-1]
    release = bench.frame(lambda: mouse(bench.viewport, QEvent.Type.MouseButtonRelease,
                                        bench.point_of(end, size)))
    moved = bench.window.document.encounter.token(token.id).cell == end
    if moved:
        bench.window.document.undo()
    settle(bench.counter)
    return {f"press_{prefix}_ms": ms(press), f"release_{prefix}_ms": ms(release),
            f"drag_moved_{prefix}": moved, **spread_ms(f"drag_frame_{prefix}", moves)}


def bench_drags(bench: Bench) -> Figures:
    """Every size dragged at zoom 1 (centred on the token) and zoomed to fit; presses
    after another token moved, three per size, give the press figure."""
    encounter = bench.window.document.encounter
    tokens = drag_tokens(encounter)
    figures: Figures = {}
    for size, token in tokens.items():
        bench.view.resetTransform()
        bench.view.centre_on_cell(token.cell)
        settle(bench.counter)
        runs = [_drag(bench, token, size.value) for _ in range(3)]
        figures |= runs[0]
        presses = [run[f"press_{size.value}_ms"] / 1e3 for run in runs]
        figures |= spread_ms(f"press_{size.value}", presses)
        bench.fit()
        figures |= {key.replace("drag_frame_", "drag_frame_fit_").replace(
            f"_{size.value}_ms", f"_fit_{size.value}_ms"): value
            for key, value in _drag(bench, token, size.value).items()
            if key.startswith(("drag_frame", "press", "release"))}
    return figures


# --- brush, aim ------------------------------------------------------------------------------
def bench_brush(bench: Bench, scenario: Scenario) -> Figures:
    """An elevation brush (3 cells) dragged back and forth in the view across a map with
    height everywhere, each step at another height (so every step changes cells: a step
    repaints only what it changed, and the pointer stays where the user can see it). The
    brushing starts once the new map's objects are collected, as with a user who looks at
    a map before painting it (a full collection at the first step took 190 ms)."""
    window = bench.window
    seen = bench.collections
    window.document.replace(elevated(scenario.encounter), None, saved=False)
    bench.wait_for_collection(seen)
    window.select_tool("elevation")
    tool = window.tools["elevation"]
    tool.brush_size = 3  # type: ignore[attr-defined]
    bench.view.resetTransform()
    bench.view.centre_on_cell(Cell(150, 150))
    settle(bench.counter)
    cells = [Cell(145 + _zigzag(i), 150 + i % 3) for i in range(BRUSH_STEPS + 1)]
    first = bench.frame(lambda: mouse(bench.viewport, QEvent.Type.MouseButtonPress,
                                      bench.point_of(cells[0])))
    steps = [_brush_step(bench, tool, cell, 25 + 5 * (i % 2))
             for i, cell in enumerate(cells[1:])]
    mouse(bench.viewport, QEvent.Type.MouseButtonRelease, bench.point_of(cells[-1]))
    window.select_tool("select")
    seen = bench.collections
    window.document.replace(scenario.encounter, None, saved=False)
    bench.wait_for_collection(seen)
    return {"brush_press_ms": ms(first), **spread_ms("brush_step", steps)}


def _brush_step(bench: Bench, tool: object, cell: Cell, feet: int) -> float:
    tool.feet = feet  # type: ignore[attr-defined]
    return bench.frame(lambda: mouse(bench.viewport, QEvent.Type.MouseMove, bench.point_of(cell)))


def _around(bench: Bench, token: Token, turns: int) -> list[QPointF]:
    """Pointer positions circling the token, three cells out: the aim sweeps round it."""
    renderer = bench.window.scene.renderer
    cx, cy = token.footprint.centre
    radius = token.footprint.size / 2 + 3
    points = []
    for i in range(turns):
        angle = 2 * math.pi * i / 16
        scene = renderer.to_scene(cx + radius * math.cos(angle), cy + radius * math.sin(angle))
        points.append(QPointF(bench.view.mapFromScene(scene)))
    return points


def bench_shove_aim(bench: Bench, scenario: Scenario) -> Figures:
    """The shove tool aiming round a Gargantuan defender (every pair of the scale scenario
    has one): each pointer move that changes the direction is a frame (odds and preview)."""
    window = bench.window
    window.select_tool("shove")
    tool = window.tools["shove"]
    encounter = window.document.encounter
    pair = next(p for p in scenario.pairs if p.category == "open")
    defender = encounter.token(pair.defender)
    tool.start(pair.attacker, pair.defender)  # type: ignore[attr-defined]
    bench.view.resetTransform()
    bench.view.centre_on_cell(defender.cell)
    settle(bench.counter)
    allowed = allowed_directions(encounter.token(pair.attacker).footprint, defender.footprint,
                                 encounter.profile.direction_spread_deg)
    samples = []
    for point in _around(bench, defender, AIM_MOVES):
        before = tool.direction  # type: ignore[attr-defined]
        seconds, _ = frame(bench.counter, lambda p=point: mouse(
            bench.viewport, QEvent.Type.MouseMove, p))
        if tool.direction != before:  # type: ignore[attr-defined]
            samples.append(seconds)
    settle(bench.counter)
    window.select_tool("select")
    return {**spread_ms("shove_aim_frame", samples), "shove_aim_directions": len(allowed)}


def bench_missile_aim(bench: Bench, scenario: Scenario) -> Figures:
    """The missile tool: a shooter with a long bow, the pointer hovering one target after
    another (each new target a frame: range, cover, odds, preview)."""
    window = bench.window
    encounter = window.document.encounter
    shooter = encounter.token(scenario.runner)
    window.select_tool("missile")
    tool = window.tools["missile"]
    tool.start(shooter.id)  # type: ignore[attr-defined]
    centre = Cell(20, 20)
    bench.view.resetTransform()
    bench.view.scale(0.5, 0.5)
    bench.view.centre_on_cell(centre)
    settle(bench.counter)
    targets = sorted((t for t in encounter.tokens if t.id != shooter.id
                      and abs(t.x - centre.x) < 25 and abs(t.y - centre.y) < 15),
                     key=lambda t: (t.y, t.x))[:24]
    samples = [frame(bench.counter, lambda t=t: mouse(
        bench.viewport, QEvent.Type.MouseMove, bench.point_of(t.cell)))[0] for t in targets]
    window.select_tool("select")
    settle(bench.counter)
    return {**spread_ms("missile_aim_frame", samples), "missile_targets": len(targets)}


# --- a big Universal VTT map -------------------------------------------------------------------
def bench_uvtt(bench: Bench, folder: Path) -> Figures:
    """Import a Universal VTT file with an 8000×8000 image and show it fitted, three times;
    then zoom steps and a full repaint on it."""
    path = big_uvtt(folder)
    samples = []
    for _ in range(UVTT_RUNS):
        def show() -> None:
            bench.window.files.import_vtt(path)
            bench.view.fit_map()

        seen = bench.collections
        samples.append(bench.frame(show))
        bench.wait_for_collection(seen)
    figures = spread_ms("uvtt_8000_import_first_frame", samples)
    centre = QPointF(bench.viewport.width() / 2, bench.viewport.height() / 2)
    notches = [1 if (i // 5) % 2 == 0 else -1 for i in range(ZOOM_STEPS)]
    zooms = [bench.frame(lambda n=n: wheel(bench.viewport, centre, n)) for n in notches]
    bench.view.fit_map()
    repaints = [bench.frame(bench.viewport.repaint) for _ in range(REPAINTS)]
    figures |= {"uvtt_8000_zoom_step_cold_ms": ms(zooms[0]),
                **spread_ms("uvtt_8000_zoom_step", zooms[1:]),
                **spread_ms("uvtt_8000_full_repaint_fit", repaints),
                "uvtt_8000_file_bytes": path.stat().st_size}
    return figures


# --- autosave --------------------------------------------------------------------------------
def bench_autosave(bench: Bench) -> Figures:
    """An autosave after an edit: the JSON the GUI thread makes, then full repaints at fit
    while the worker thread checks that the file would load (the scale map's 3,000 tokens
    are more than a file may hold, so the check refuses it, after parsing it all)."""
    document, saver = bench.window.document, bench.window.files.autosaver
    token = drag_tokens(document.encounter)[Size.MEDIUM]
    bench.fit()
    made, frames = [], []
    for _ in range(AUTOSAVE_RUNS):
        document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
        seconds, job = timed(saver.autosave)
        made.append(seconds)
        while job is not None and not job.done():
            frames.append(bench.frame(bench.viewport.repaint))
        document.undo()
        settle(bench.counter)
    return {**spread_ms("autosave_json", made), **spread_ms("repaint_during_autosave", frames)}


# --- the group -------------------------------------------------------------------------------
def run(seed: int) -> Figures:
    application()
    generate_s, scenario = timed(lambda: build_scenario(seed, spec=SCALE))
    _log(f"scale scenario built in {generate_s:.1f} s")
    figures: Figures = {}
    with tempfile.TemporaryDirectory(prefix="battlemap-gui-scale-") as tmp:
        folder = Path(tmp)
        build_s, bench = timed(lambda: Bench(scenario.encounter, folder))
        first_s, _ = timed(bench.fit)
        figures |= {"window_build_ms": ms(build_s), "first_frame_after_build_ms": ms(first_s),
                    **bench_collections(bench)}
        steps: list[tuple[str, Callable[[], Figures]]] = [
            ("zoom", lambda: bench_zoom(bench)), ("pan", lambda: bench_pan(bench)),
            ("repaint", lambda: bench_repaint(bench)), ("drags", lambda: bench_drags(bench)),
            ("shove aim", lambda: bench_shove_aim(bench, scenario)),
            ("missile aim", lambda: bench_missile_aim(bench, scenario)),
            ("brush", lambda: bench_brush(bench, scenario)),
            ("autosave", lambda: bench_autosave(bench)),
            ("uvtt", lambda: bench_uvtt(bench, folder))]
        for name, step in steps:
            seconds, found = timed(step)
            figures |= found
            _log(f"{name} done in {seconds:.1f} s")
        bench.close()
    figures["targets"] = {key: {"below": limit, "value": figures.get(key),
                                "met": figures.get(key) is not None and figures[key] <= limit}
                          for key, limit in TARGETS.items()}
    encounter = scenario.encounter
    figures["scenario"] = {"map": f"{encounter.map.width}x{encounter.map.height}",
                           "walls": len(encounter.map.walls),
                           "hazards": len(encounter.map.hazards),
                           "tokens": len(encounter.tokens), "view": list(VIEW),
                           "token_sizes": {s.value: SIZES[s].footprint for s in DRAG_SIZES}}
    return figures
