"""Start Battlemap on the demo exactly as ``battlemap`` with no arguments does, and print
the monotonic clock (seconds, one line of JSON) once the window's first frame is on screen:
the map view's first paint and every other widget painted in the same pass (the docks,
the tool bars). Then exit. ``benchmarks/startup.py`` runs it in a fresh process and takes
the time from just before it started the process.

The only thing added to the app is an event filter on the QApplication (installed when
the app creates it), which watches for the map view's first paint.
"""

from __future__ import annotations

import json
import os
import sys
import time

from desktop import runtime
from desktop.qt import QApplication, QEvent, QGraphicsView, QObject, QTimer

_create = runtime.application


class FirstFrame(QObject):
    """Waits for the first paint of a graphics view's viewport; when that paint pass is
    over (the next turn of the event loop), reports and exits."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (not self.seen and event.type() == QEvent.Type.Paint
                and isinstance(watched.parent(), QGraphicsView)):
            self.seen = True
            view = watched.parent()
            assert isinstance(view, QGraphicsView)
            QTimer.singleShot(0, lambda: self.report(view))
        return False

    def report(self, view: QGraphicsView) -> None:
        print(json.dumps({"painted_at": time.monotonic(),
                          "zoom": round(view.transform().m11(), 4)}), flush=True)
        os._exit(0)


WATCHERS: list[FirstFrame] = []  # kept alive as long as the app


def application() -> QApplication:
    app = _create()
    WATCHERS.append(FirstFrame())
    app.installEventFilter(WATCHERS[-1])
    return app


runtime.application = application

from desktop.cli import main  # noqa: E402 (after the hook, as the app imports it)

sys.exit(main([]))
