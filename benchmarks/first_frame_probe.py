"""Start Battlemap on the demo exactly as ``battlemap`` with no arguments does, and print
the monotonic clock (seconds, one line of JSON) once the window's first frame is on screen:
the map view's first paint and every other widget painted in the same pass (the docks,
the tool bars). Then exit. ``benchmarks/startup.py`` runs it in a fresh process and takes
the time from just before it started the process.

The only thing added to the app is an event filter on the map view's viewport (installed
when the app creates the view), which watches for its first paint. It is hooked in when
the app itself imports ``desktop.map.view``, so the probe imports nothing before the app
does: PySide6 reads the source of every module imported after it until the app's Qt
gateway stops that (``desktop.qt``), and a probe that imported Qt first made the start
32 ms slower than a user's (median of ten interleaved pairs). The filter is on the
viewport alone: on the application it ran for each of the ~7,000 events before the first
frame, in Python (6-8 ms of CPU).
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

VIEW_MODULE = "desktop.map.view"
WATCHERS: list[Any] = []  # the event filter, kept alive as long as the app


def watch(view: Any) -> None:
    """Install on ``view``'s viewport a filter that reports the end of its first paint."""
    from desktop.qt import QEvent, QObject, QTimer

    class FirstFrame(QObject):
        """Waits for the viewport's first paint; when that paint pass is over (the next
        turn of the event loop), reports and exits."""

        seen = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if not self.seen and event.type() == QEvent.Type.Paint:
                self.seen = True
                QTimer.singleShot(0, self.report)
            return False

        def report(self) -> None:
            print(json.dumps({"painted_at": time.monotonic(),
                              "zoom": round(view.transform().m11(), 4)}), flush=True)
            os._exit(0)

    WATCHERS.append(FirstFrame())
    view.viewport().installEventFilter(WATCHERS[-1])


class WatchedView(importlib.abc.Loader):
    """Loads ``desktop.map.view`` as usual, then has ``MapView.__init__`` call ``watch``
    on the first view made."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        create: Callable[..., None] = module.MapView.__init__

        def init(view: Any, *args: Any, **kwargs: Any) -> None:
            create(view, *args, **kwargs)
            if not WATCHERS:
                watch(view)

        module.MapView.__init__ = init


class ViewFinder(importlib.abc.MetaPathFinder):
    """Finds ``desktop.map.view`` where the app would, with the loader above."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != VIEW_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = WatchedView(spec.loader)
        return spec


sys.meta_path.insert(0, ViewFinder())

from desktop.cli.main import main  # noqa: E402 (after the hook, as the app imports it)

sys.exit(main([]))
