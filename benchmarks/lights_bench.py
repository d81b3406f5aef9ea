"""The ``lights`` group: lights at scale (issue 39), in the window and on the command line.

The map: the scenario's rooms and doors at 300 × 300 with 5,000 walls, dark, a party of six
(no darkvision) and 2,000 seeded lights, in two sets: ``far`` lights each reach 10,000
cells (the whole map: the worst a file may hold) and ``torch`` lights 3-8 cells. The GM's
window and the player window are open (1600 × 1000, the whole map fitted), offscreen.

Figures per set (``lights_<set>_...``):

- ``first_lit_s``: the window's first lighting from scratch, light by light on its worker
  (the lights' areas kept for later changes); ``union_s``: the lit cells computed once, a
  light testing only what no light before it lit (what a render does, everywhere).
- ``token_move_*``: a party token moves: ``document.push`` on the GUI thread (its sight, the
  explored cells recorded, the players' view, scene and fog updated); ``token_frame_*``:
  that and both windows painted. Target: the push p95 ≤ 16 ms.
- ``door_toggle_*``: a door opened or closed: the push on the GUI thread, the lights it
  touches swept there when few, else handed to the worker; the views redrawn. Target: p95
  ≤ 50 ms. ``door_relit_*``: from the push until the newer lit cells are installed
  (worker included); ``door_lights_swept_median``: how many lights a toggle sweeps again.
- ``render_player_s``: ``battlemap render FILE --view player`` in a process of its own,
  wall seconds, and its CPU seconds (``_cpu_s``: on a busy machine the wall clock waits for
  the other jobs). Target: ≤ 3 s.
"""

from __future__ import annotations

import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.player_window import VIEW, _free_steps
from benchmarks.scenario import Spec, build_scenario
from benchmarks.timing import Figures, median, summary_ms
from benchmarks.vision_bench import party_encounter
from core.actions.commands import MoveToken, toggle_door
from core.io.fileio import save_encounter
from core.model.combatant import Side
from core.model.encounter import Encounter
from core.model.mapmodel import Darkness, Light, WallKind
from core.spatial.lighting import Lighting, lit_union
from core.spatial.vision import lighting_inputs
from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, QSettings
from desktop.system.application import application

LIGHTS, WALLS, SIDE = 2_000, 5_000, 300
MOVES, DOORS, WARMUP = 30, 20, 3
SETS = {"far": (10_000.0, 10_000.0), "torch": (3.0, 8.0)}
TARGETS = {"token_move_p95_ms": 16, "door_toggle_p95_ms": 50, "render_player_s": 3}
CLI = "import sys; from desktop.cli.main import main; sys.exit(main())"


def _log(message: str) -> None:
    print(f"[lights] {message}", file=sys.stderr, flush=True)


def lit_map(seed: int, reach: tuple[float, float]) -> Encounter:
    """The scenario at 300 × 300 with 5,000 walls, dark, a party of six and the lights."""
    scenario = build_scenario(seed, spec=Spec(size=SIDE, walls=WALLS, loose_walls=700,
                                              angled_walls=60))
    encounter = party_encounter(scenario, seed)
    rng = random.Random(seed)
    encounter.map.darkness = Darkness.DARK
    encounter.map.lights = [Light(x=round(rng.uniform(0, SIDE), 2),
                                  y=round(rng.uniform(0, SIDE), 2),
                                  range_cells=round(rng.uniform(*reach), 1))
                            for _ in range(LIGHTS)]
    return encounter


def _window(encounter: Encounter, folder: Path) -> MainWindow:
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(encounter, None, folder / "data", settings)
    window.resize(*VIEW)
    window.show()
    window.view.fit_map()
    window.table.show_player_window(True)
    assert window.table.player_window is not None
    window.table.player_window.resize(*VIEW)
    QApplication.processEvents()
    return window


def _first_lighting(window: MainWindow) -> float:
    """Seconds until the first lit cells are installed (opened just before)."""
    start = time.perf_counter()
    keeper = window.document.lights
    assert keeper is not None
    keeper.wait()
    QApplication.processEvents()
    return time.perf_counter() - start


def _moves(window: MainWindow, mover: str, seed: int) -> Figures:
    encounter = window.document.encounter
    updates, frames = [], []
    for cell in _free_steps(encounter, mover, MOVES + WARMUP, seed):
        start = time.perf_counter()
        window.document.push(MoveToken(mover, cell))
        pushed = time.perf_counter()
        QApplication.processEvents()
        updates.append(pushed - start)
        frames.append(time.perf_counter() - start)
    return (summary_ms("token_move", updates[WARMUP:])
            | summary_ms("token_frame", frames[WARMUP:]))


def _doors(window: MainWindow) -> Figures:
    """Toggle doors (each open, then closed again): the GUI thread's push, and how long
    until the lights are installed."""
    document = window.document
    keeper = document.lights
    assert keeper is not None
    doors = [w for w in document.encounter.map.walls if w.kind is WallKind.DOOR][:DOORS // 2]
    pushes, relit, swept = [], [], []
    for door in doors + doors:
        current = next(w for w in document.encounter.map.walls
                       if w.kind is WallKind.DOOR and w.points == door.points)
        lighting = document.encounter.derived(Lighting, Lighting)
        areas = dict(lighting.areas)
        start = time.perf_counter()
        document.push(toggle_door(current))
        pushes.append(time.perf_counter() - start)
        keeper.wait()
        QApplication.processEvents()
        relit.append(time.perf_counter() - start)
        swept.append(sum(1 for light, area in lighting.areas.items()
                         if areas.get(light) is not area))
    return (summary_ms("door_toggle", pushes) | summary_ms("door_relit", relit)
            | {"door_lights_swept_median": median(swept)})


def _render(encounter: Encounter, folder: Path) -> Figures:
    path = folder / "lights.json"
    save_encounter(encounter, path)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "render", str(path), "--view", "player",
                    "--out", str(folder / "lights.png")], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"render_player_s": round(seconds, 2), "render_player_cpu_s": round(cpu, 2)}


def _union(encounter: Encounter) -> Figures:
    start = time.perf_counter()
    lit_union(*lighting_inputs(encounter))
    return {"union_s": round(time.perf_counter() - start, 2)}


def run_set(name: str, seed: int, folder: Path) -> Figures:
    _log(f"{name} lights: building the map")
    encounter = lit_map(seed, SETS[name])
    figures = _union(encounter) | _render(encounter, folder)
    _log(f"{name} lights: the window")
    window = _window(encounter, folder)
    figures["first_lit_s"] = round(_first_lighting(window), 2)
    mover = next(t.id for t in encounter.tokens if t.combatant.side is Side.PARTY)
    figures |= _moves(window, mover, seed) | _doors(window)
    window.document.history.mark_clean()
    window.files.shutdown()
    window.close()
    return {f"lights_{name}_{key}": value for key, value in figures.items()}


def run(seed: int) -> Figures:
    application()
    figures: Figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in SETS:
            figures |= run_set(name, seed, Path(tmp))
    figures["targets"] = {
        f"lights_{name}_{key}": {"below": limit, "value": figures[f"lights_{name}_{key}"],
                                 "met": figures[f"lights_{name}_{key}"] <= limit}
        for name in SETS for key, limit in TARGETS.items()}
    figures["scenario"] = {"map": f"{SIDE}x{SIDE}", "walls": WALLS, "lights": LIGHTS,
                           "party": 6, "moves": MOVES, "door_toggles": DOORS,
                           "view": list(VIEW)}
    return figures
