"""Table-play benchmark group: the player window on the 200×200 scenario map (3,000 walls,
300 tokens, a party of six as in the vision figures).

Figures (median and p95 of single moves, each to a different cell, after warm-up):

- ``player_move_*``: a party token moves and both windows show it: ``document.push`` of the
  move (the party's sight computed once, the explored cells recorded into the move's step,
  the players' view, scene and fog brought up to date), then the event loop paints the GM
  window and the player window (1600×1000 each, the whole map fitted). The target is one
  frame at 120 Hz, 8.3 ms.
- ``player_move_update_*``: the push alone; ``player_move_paint_*``: the painting alone.
- ``player_repaint_*``: a full repaint of the player window alone (its viewport grabbed).
- ``gm_fog_preview_move_*``: ``player_move`` with the fog tool active, so the GM's map
  shows the players' fog as a tint and follows each move too.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchmarks.scenario import build_scenario
from benchmarks.timing import Figures, sample, summary_ms
from benchmarks.vision_bench import party_encounter
from core.actions.commands import MoveToken
from core.model.combatant import Side
from core.model.encounter import Encounter
from core.model.grid import Cell
from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, QSettings
from desktop.system.application import application

VIEW = (1600, 1000)
MOVES = 40
WARMUP = 4
TARGETS = {"player_move_p95_ms": 8.3}


def _log(message: str) -> None:
    print(f"[player window] {message}", file=sys.stderr, flush=True)


def _free_steps(encounter: Encounter, token_id: str, count: int, seed: int) -> list[Cell]:
    """``count`` cells the token can stand on, each a few cells from the last (free of
    other tokens; walls are no matter for a GM's placement)."""
    rng = random.Random(seed)
    token = encounter.token(token_id)
    cells, here = [], token.cell
    while len(cells) < count:
        near = Cell(min(max(here.x + rng.randint(-4, 4), 0), encounter.map.width - 3),
                    min(max(here.y + rng.randint(-4, 4), 0), encounter.map.height - 3))
        spot = encounter.free_spot(token.footprint.size, near)
        if spot is not None and spot != here and encounter.can_place(
                token.at(spot).footprint, ignore=token_id):
            cells.append(spot)
            here = spot
    return cells


def _moves(window: MainWindow, token_id: str, cells: list[Cell]
           ) -> tuple[list[float], list[float], list[float]]:
    """Seconds per move: the update, the painting, and both."""
    updates, paints, totals = [], [], []
    for cell in cells:
        start = time.perf_counter()
        window.document.push(MoveToken(token_id, cell))
        updated = time.perf_counter()
        QApplication.processEvents()  # both windows paint, as after a real move
        done = time.perf_counter()
        updates.append(updated - start)
        paints.append(done - updated)
        totals.append(done - start)
    return updates[WARMUP:], paints[WARMUP:], totals[WARMUP:]


def run(seed: int) -> Figures:
    application()
    scenario = build_scenario(seed)
    encounter = party_encounter(scenario, seed)
    mover = next(t.id for t in encounter.tokens if t.combatant.side is Side.PARTY)
    cells = _free_steps(encounter, mover, 2 * (MOVES + WARMUP), seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(encounter, None, Path(tmp) / "data", settings)
        window.resize(*VIEW)
        window.show()
        window.view.fit_map()
        window.table.show_player_window(True)
        players = window.table.player_window
        assert players is not None
        players.resize(*VIEW)
        QApplication.processEvents()
        _log("moving a party token")
        update, paint, total = _moves(window, mover, cells[:MOVES + WARMUP])
        figures: Figures = (summary_ms("player_move", total)
                            | summary_ms("player_move_update", update)
                            | summary_ms("player_move_paint", paint)
                            | summary_ms("player_repaint", sample(
                                lambda: players.view.viewport().grab(), MOVES)))
        window.select_tool("fog")
        _log("moving with the GM's fog preview")
        _, _, preview = _moves(window, mover, cells[MOVES + WARMUP:])
        figures |= summary_ms("gm_fog_preview_move", preview)
        explored = sum(length for _, _, length in window.document.encounter.fog.explored)
        window.document.history.mark_clean()
        window.files.shutdown()
        window.close()
    figures["targets"] = {key: {"below": limit, "value": figures[key],
                                "met": figures[key] <= limit}
                          for key, limit in TARGETS.items()}
    figures["scenario"] = {"map": "200x200", "walls": len(encounter.map.walls),
                           "tokens": len(encounter.tokens), "party": 6,
                           "moves": MOVES, "view": list(VIEW), "explored_cells": explored}
    return figures
