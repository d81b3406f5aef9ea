"""Start Battlemap on the demo exactly as ``battlemap`` with no arguments does, and print
the monotonic clock (seconds, one line of JSON) once the window's first frame is on screen:
the map view's first paint and every other widget painted in the same pass (the docks,
the tool bars). Then exit. ``benchmarks/startup.py`` runs it in a fresh process and takes
the time from just before it started the process.

The only thing added to the app is an event filter on the QApplication (installed when
the app creates it), which watches for the map view's first paint. It is hooked in when
the app itself imports ``desktop.system.application``, so the probe imports nothing before the app
does: PySide6 reads the source of every module imported after it until the app's Qt
gateway stops that (``desktop.qt``), and a probe that imported Qt first made the start
32 ms slower than a user's (median of ten interleaved pairs).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

RUNTIME = "desktop.system.application"
WATCHERS: list[Any] = []  # the event filter, kept alive as long as the app


def watch(app: Any) -> Any:
    """Install on ``app`` a filter that reports the end of the map view's first paint."""
    from desktop.qt import QEvent, QGraphicsView, QObject, QTimer

    class FirstFrame(QObject):
        """Waits for the first paint of a graphics view's viewport; when that paint pass
        is over (the next turn of the event loop), reports and exits."""

        seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            view = watched.parent()
            if (not self.seen and event.type() == QEvent.Type.Paint
                    and isinstance(view, QGraphicsView)):
                self.seen = True
                QTimer.singleShot(0, lambda: self.report(view))
            return False

        def report(self, view: QGraphicsView) -> None:
            print(json.dumps({"painted_at": time.monotonic(),
                              "zoom": round(view.transform().m11(), 4)}), flush=True)
            os._exit(0)

    WATCHERS.append(FirstFrame())
    app.installEventFilter(WATCHERS[-1])
    return app


class WatchedRuntime(importlib.abc.Loader):
    """Loads ``desktop.system.application`` as usual, then wraps its ``application()`` in
    ``watch``."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        create: Callable[[], Any] = module.application
        module.application = lambda: watch(create())


class RuntimeFinder(importlib.abc.MetaPathFinder):
    """Finds ``desktop.system.application`` where the app would, with the loader above."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != RUNTIME:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = WatchedRuntime(spec.loader)
        return spec


sys.meta_path.insert(0, RuntimeFinder())

from desktop.cli.main import main  # noqa: E402 (after the hook, as the app imports it)

sys.exit(main([]))
