"""Opens the app on the demo as ``battlemap`` does, on whatever display ``DISPLAY`` names,
and prints the window's measures as JSON once it has settled (used by
tests/desktop/test_window_fit.py on Xvfb; ``--shot PNG`` also saves a screenshot).

    python tests/desktop/window_probe.py [--shot out.png] [--table-mode] [--settle-ms N]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from desktop.app import open_window
from desktop.mainwindow import MainWindow
from desktop.panels.sidebars import LAYOUT_VERSION
from desktop.qt import QGuiApplication, QRect, QTimer
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shot")
    parser.add_argument("--table-mode", action="store_true", help="table mode on, then off")
    parser.add_argument("--settle-ms", type=int, default=1500)
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
        window.table.set_table_mode(False)
        QTimer.singleShot(args.settle_ms, finish)

    def first_look() -> None:
        report["before"] = measures(window)
        if args.table_mode:
            window.table.set_table_mode(True)
            QTimer.singleShot(args.settle_ms, table_off)
        else:
            finish()

    QTimer.singleShot(args.settle_ms, first_look)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
