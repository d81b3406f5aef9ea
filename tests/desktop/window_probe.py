"""Opens the app on the demo as ``battlemap`` does, on whatever display ``DISPLAY`` names,
and prints the window's measures as JSON once it has settled (used by
tests/desktop/test_window_fit.py on Xvfb; ``--shot PNG`` also saves a screenshot).

    python tests/desktop/window_probe.py [--shot out.png] [--table-mode] [--settle-ms N]
    python tests/desktop/window_probe.py --dialogs  # each dialog's frame instead
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from desktop.app import open_window
from desktop.mainwindow import MainWindow
from desktop.panels.sidebars import LAYOUT_VERSION
from desktop.qt import QDialog, QGuiApplication, QRect, QTimer
from desktop.system.application import application
from desktop.system.resources import DEMO


def rect(r: QRect) -> list[int]:
    return [r.x(), r.y(), r.width(), r.height()]


def map_on_screen(window: MainWindow) -> QRect:
    """Where the whole map is drawn in the viewport."""
    battle_map = window.document.encounter.map
    drawn = window.scene.renderer.map_rect(battle_map.width, battle_map.height)
    return window.view.mapFromScene(drawn).boundingRect()


def measures(window: MainWindow) -> dict[str, Any]:
    viewport = window.view.viewport()
    screen = window.screen()
    return {
        "screen": rect(screen.geometry()), "available": rect(screen.availableGeometry()),
        "scale": screen.devicePixelRatio(), "frame": rect(window.frameGeometry()),
        "window": rect(window.geometry()), "viewport": [viewport.width(), viewport.height()],
        "map_share": viewport.width() * viewport.height() / (window.width() * window.height()),
        "sides": {side: window.sidebars.shown(side) for side in ("left", "right")},
        "sidebar_px": window.combatants_dock.width(),
        "map_in_view": viewport.rect().adjusted(-1, -1, 1, 1).contains(map_on_screen(window)),
        "timeline_px": window.timeline_dock.height(),
        "state": bytes(window.saveState(LAYOUT_VERSION).data()).hex(),
    }


def dialogs(window: MainWindow) -> dict[str, Callable[[], QDialog]]:
    """The window's dialogs that ask for a size of their own, made on demand."""
    from core.io.fileio import load_encounter
    from core.model.grid import Cell
    from desktop.dialogs.evening import NewEncounterDialog, NextEncounterDialog
    from desktop.dialogs.help import ShortcutSheet
    from desktop.dialogs.replay import ReplayDialog
    from desktop.dialogs.rules import RulesDialog
    from desktop.dialogs.weapons import WeaponsDialog
    from desktop.panels.bestiary import LibraryDialog, TemplateEditor

    store, encounter = window.evening.store, window.document.encounter
    return {
        "library": lambda: LibraryDialog(store, window.evening.add_template, window),
        "template": lambda: TemplateEditor(store.bundled.templates[0], window),
        "next encounter": lambda: NextEncounterDialog(encounter, load_encounter(DEMO),
                                                      Cell(1, 1), window),
        "new encounter": lambda: NewEncounterDialog(load_encounter(DEMO),
                                                    list(store.bundled.templates), window),
        "replay": lambda: ReplayDialog(window.document.history, window),
        "rules": lambda: RulesDialog(encounter.profile, window),
        "shortcuts": lambda: ShortcutSheet(window.menuBar(), window),
        "weapons": lambda: WeaponsDialog(window.document, window),
    }


def dialog_frames(window: MainWindow, settle_ms: int, done: Callable[[], None],
                  report: dict[str, Any]) -> None:
    """Show each dialog in turn and record its frame (window manager's frame included)."""
    waiting = list(dialogs(window).items())

    def show_next() -> None:
        if not waiting:
            done()
            return
        name, make = waiting.pop(0)
        dialog = make()
        dialog.show()
        QTimer.singleShot(settle_ms, lambda: record(name, dialog))

    def record(name: str, dialog: QDialog) -> None:
        report[name] = rect(dialog.frameGeometry())
        dialog.close()
        show_next()

    show_next()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shot")
    parser.add_argument("--table-mode", action="store_true", help="table mode on, then off")
    parser.add_argument("--settle-ms", type=int, default=1500)
    parser.add_argument("--dialogs", action="store_true", help="report each dialog's frame")
    parser.add_argument("--round", type=int, metavar="SEED",
                        help="roll initiative with this seed first (a round under way)")
    args = parser.parse_args()
    app = application()
    window = open_window(DEMO, DEMO)
    window.show_on_screen()
    if args.round is not None:
        window.resolve_panel.seed.setValue(args.round)
        window.timeline_panel.roll()
    report: dict[str, Any] = {}

    def finish() -> None:
        report["after"] = measures(window)
        if args.shot:
            QGuiApplication.primaryScreen().grabWindow(0).save(args.shot)
        print(json.dumps(report))
        window.document.history.mark_clean()
        window.close()
        app.quit()

    def table_off() -> None:
        report["table"] = measures(window)
        report["table"]["ui_scale"] = window.table.mode.scale
        window.table.set_table_mode(False)
        QTimer.singleShot(args.settle_ms, finish)

    def first_look() -> None:
        report["before"] = measures(window)
        if args.dialogs:
            report["dialogs"] = {}
            dialog_frames(window, 300, finish, report["dialogs"])
        elif args.table_mode:
            window.table.set_table_mode(True)
            QTimer.singleShot(args.settle_ms, table_off)
        else:
            finish()

    QTimer.singleShot(args.settle_ms, first_look)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
