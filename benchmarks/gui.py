"""GUI benchmark group: the map window on a 200×200 map with 3,000 walls and 500 tokens.

Figures: time to open the encounter file and show the first frame; frame time while
dragging a token (the tool's move handling, path preview included, plus a repaint of the
view rendered offscreen) at zoom 1 and zoomed to fit; a full repaint zoomed to fit; save and
load through the window's file controller.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.scenario import build_scenario
from benchmarks.timing import Figures, ms, sample, summary_ms, timed
from core.actions.commands import MoveToken
from core.io.fileio import load_encounter, save_encounter
from core.model.grid import Cell
from desktop.app import warm_up
from desktop.mainwindow import MainWindow
from desktop.qt import QEvent, QMouseEvent, QPointF, QSettings, Qt
from desktop.system.application import application

TOKENS = 500
VIEW = (1600, 1000)
DRAG_STEPS = 60
TARGETS = {"first_frame_ms": 1500, "drag_frame_zoom1_p95_ms": 4, "drag_frame_fit_p95_ms": 4,
           "full_repaint_fit_p95_ms": 16, "save_ms": 300, "open_ms": 300,
           "uvtt_import_first_frame_median_ms": 1000}


def _log(message: str) -> None:
    print(f"[gui] {message}", file=sys.stderr, flush=True)


def _open_window(path: Path, folder: Path) -> MainWindow:
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(load_encounter(path), path, folder / "data", settings)
    window.resize(*VIEW)
    window.show()
    window.view.fit_map()
    window.view.viewport().grab()  # the first frame, really painted
    return window


def _mouse(window: MainWindow, kind: QEvent.Type, cell: Cell) -> None:
    view = window.view
    point = QPointF(view.mapFromScene(window.scene.renderer.cell_centre(cell)))
    button = Qt.MouseButton.LeftButton
    buttons = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else button
    event = QMouseEvent(kind, point, view.viewport().mapToGlobal(point), button, buttons,
                        Qt.KeyboardModifier.NoModifier)
    {QEvent.Type.MouseButtonPress: view.mousePressEvent,
     QEvent.Type.MouseMove: view.mouseMoveEvent,
     QEvent.Type.MouseButtonRelease: view.mouseReleaseEvent}[kind](event)


def _drag_frames(window: MainWindow, token_id: str, cells: list[Cell]) -> list[float]:
    """Seconds per drag step: move handling (path preview) plus a repaint of the view.
    The view is painted once first: its first paint at a new zoom is the zoom's frame."""
    start = window.document.encounter.token(token_id).cell
    window.view.viewport().grab()
    _mouse(window, QEvent.Type.MouseButtonPress, start)
    frames = []
    for cell in cells:
        began = time.perf_counter()
        _mouse(window, QEvent.Type.MouseMove, cell)
        window.view.viewport().grab()
        frames.append(time.perf_counter() - began)
    if window.scene.tokens[token_id].at_rest():
        raise AssertionError("the benchmark's drag dragged nothing")
    # Back over the start and dropped there: no move (a release drops the token where the
    # last move left it; dropped at the line's end, the token was gone from ``start`` and
    # the fitted drag pressed on an empty cell and dragged nothing).
    _mouse(window, QEvent.Type.MouseMove, start)
    _mouse(window, QEvent.Type.MouseButtonRelease, start)
    window.tools["select"].deactivate()
    if window.document.encounter.token(token_id).cell != start:
        raise AssertionError("the benchmark's drag moved the token")
    return frames


def _drag_line(start: Cell, steps: int, stride: int) -> list[Cell]:
    return [Cell(start.x + (i * stride) % 40, start.y + (i * stride) // 40) for i in
            range(1, steps + 1)]


def bench_drag(window: MainWindow, token_id: str) -> Figures:
    start = window.document.encounter.token(token_id).cell
    window.view.resetTransform()
    window.view.centre_on_cell(Cell(start.x + 10, start.y + 5))
    zoom1 = _drag_frames(window, token_id, _drag_line(start, DRAG_STEPS, 1))
    window.view.fit_map()
    fit = _drag_frames(window, token_id, _drag_line(start, DRAG_STEPS, 3))
    return summary_ms("drag_frame_zoom1", zoom1) | summary_ms("drag_frame_fit", fit)


def _autosave_gui_time(window: MainWindow, token_id: str) -> float:
    """Seconds the GUI thread spends in one autosave (the JSON; the write is a thread)."""
    token = window.document.encounter.token(token_id)
    window.document.push(MoveToken(token_id, Cell(token.x + 1, token.y)))
    seconds, pending = timed(window.files.autosaver.autosave)
    if pending is not None:
        pending.result()
    return seconds


UVTT_FIXTURE = (Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "uvtt"
                / "dd03_webp_litch_tomb.dd2vtt")


def bench_uvtt(window: MainWindow) -> Figures:
    """Import the largest Universal VTT fixture (6144×3456 WebP) and show its first frame."""
    if not UVTT_FIXTURE.exists():
        return {"uvtt_import_first_frame_ms": None}

    def import_and_show() -> None:
        window.files.import_vtt(UVTT_FIXTURE)
        window.view.fit_map()
        window.view.viewport().grab()

    samples = sample(import_and_show, 3)
    window.document.history.mark_clean()
    return {"uvtt_import_first_frame_ms": ms(min(samples)),
            "uvtt_import_first_frame_median_ms": ms(sorted(samples)[1])}


def run(seed: int) -> Figures:
    application()
    scenario = build_scenario(seed, tokens=TOKENS)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / "big.json"
        save_encounter(scenario.encounter, path)
        first_frame_s, window = timed(lambda: _open_window(path, folder))
        _log(f"first frame in {first_frame_s:.2f} s")
        warm_up().join()  # as ``battlemap`` does after its first frame (see gui_scale.Bench)
        figures: Figures = {"first_frame_ms": ms(first_frame_s)}
        figures |= bench_drag(window, scenario.runner)
        window.view.fit_map()
        figures |= summary_ms("full_repaint_fit",
                              sample(lambda: window.view.viewport().grab(), 30))
        save_s, _ = timed(lambda: window.files.save_to(folder / "saved.json"))
        load_s, _ = timed(lambda: window.files.open_path(folder / "saved.json"))
        figures |= {"save_ms": ms(save_s), "open_ms": ms(load_s),
                    "autosave_gui_thread_ms": ms(_autosave_gui_time(window, scenario.runner))}
        window.document.history.mark_clean()
        figures |= bench_uvtt(window)
        window.files.shutdown()
        window.close()
    figures["targets"] = {key: {"below": limit, "value": figures[key],
                                "met": figures[key] is not None and figures[key] <= limit}
                          for key, limit in TARGETS.items() if key in figures}
    figures["scenario"] = {"map": "200x200", "walls": len(scenario.encounter.map.walls),
                           "tokens": len(scenario.encounter.tokens), "view": list(VIEW)}
    return figures
