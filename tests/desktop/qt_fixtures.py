"""Fixtures of the GUI tests: real widgets on the offscreen platform, real files in tmp_path
(``conftest.py`` loads them where PySide6 is installed)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.io.bestiary import load_bestiary
from core.io.fileio import load_encounter
from core.model.combatant import Combatant
from desktop.document import odds_service
from desktop.mainwindow import MainWindow
from desktop.panels.library import LIBRARY_PATH
from desktop.qt import QColor, QImage, QMessageBox, QPoint, QSettings, Qt, QWidgetAction

DEMO = Path(__file__).resolve().parents[2] / "assets" / "demo_encounter.json"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[MainWindow]:
    """The main window on the demo encounter, with its own settings and data folder."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(load_encounter(DEMO), None, tmp_path / "data", settings)
    win.resize(1200, 800)
    win.show()
    win.view.fit_map()
    yield win
    # Closed here, not by qtbot (which closes before fixtures end): with the edits marked
    # saved, closing asks nothing.
    win.document.history.mark_clean()
    win.close()
    qtbot.waitUntil(lambda: not win.isVisible())


OffThread = Callable[[bool], None]


@pytest.fixture(autouse=True)
def odds_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tools' previews answered on the GUI thread whatever they take, so no flow
    depends on the machine's speed; the worker's tests send them off-thread."""
    monkeypatch.setattr(odds_service, "SYNC_MS", math.inf)


@pytest.fixture
def off_thread(monkeypatch: pytest.MonkeyPatch) -> OffThread:
    """``off_thread(True)``: every preview computation from now on goes to the odds
    worker, however quick; ``off_thread(False)``: each is done at once again."""

    def switch(on: bool) -> None:
        monkeypatch.setattr(odds_service, "SYNC_MS", -math.inf if on else math.inf)

    return switch


@pytest.fixture(autouse=True)
def answer_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record message boxes instead of blocking on them (a modal box would hang an
    offscreen test run); returns their texts, answered "Discard"."""
    shown: list[str] = []

    def record(_parent: object, title: str, text: str, *args: object) -> object:
        shown.append(f"{title}: {text}")
        return QMessageBox.StandardButton.Discard

    for name in ("warning", "question", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(record))
    return shown


@pytest.fixture
def answer_yes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Questions answered "Yes" (the autouse default answers "Discard"); their texts."""
    asked: list[str] = []

    def record(_parent: object, title: str, text: str, *args: object) -> object:
        asked.append(f"{title}: {text}")
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(record))
    return asked


@pytest.fixture
def drag(qtbot: QtBot, window: MainWindow) -> Callable[..., None]:
    """Press on a cell, move through cells, release on the last (cells as (x, y))."""

    def run(start: tuple[float, float], path: list[tuple[float, float]],
            modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        viewport = window.view.viewport()
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, modifier,
                         cell_point(window, *start))
        for point in path:
            qtbot.mouseMove(viewport, cell_point(window, *point))
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier,
                           cell_point(window, *path[-1]))

    return run


@pytest.fixture
def drag_to(qtbot: QtBot, window: MainWindow) -> Callable[..., AbstractContextManager[None]]:
    """``with drag_to(start, end):`` a drag held over ``end`` (the preview shows inside
    the block); it is dropped back where it started, so nothing moves."""

    @contextmanager
    def run(start: tuple[float, float], end: tuple[float, float]) -> Iterator[None]:
        viewport = window.view.viewport()
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         cell_point(window, *start))
        qtbot.mouseMove(viewport, cell_point(window, *end))
        yield
        qtbot.mouseMove(viewport, cell_point(window, *start))
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton,
                           Qt.KeyboardModifier.NoModifier, cell_point(window, *start))

    return run


def cell_point(win: MainWindow, x: float, y: float) -> QPoint:
    """The viewport point at the centre of cell (x, y)."""
    return win.view.mapFromScene(win.scene.renderer.to_scene(x + 0.5, y + 0.5))


def corner_point(win: MainWindow, x: float, y: float) -> QPoint:
    """The viewport point at grid point (x, y)."""
    return win.view.mapFromScene(win.scene.renderer.to_scene(x, y))


@pytest.fixture
def points(window: MainWindow) -> SimpleNamespace:
    """Viewport points: ``points.cell(x, y)`` (centre) and ``points.corner(x, y)``."""
    return SimpleNamespace(cell=lambda x, y: cell_point(window, x, y),
                           corner=lambda x, y: corner_point(window, x, y))


def option(window: MainWindow, tool: str, name: str) -> Any:
    """The tool bar option widget of ``tool`` named ``name`` (its accessible name)."""
    widgets = [a.defaultWidget() for a in window.tools[tool].option_actions()
               if isinstance(a, QWidgetAction)]
    return next(w for w in widgets if w.accessibleName() == name)


def red_image(path: Path, size: int = 140) -> Path:
    """A square image file of plain red."""
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(QColor("red"))
    assert image.save(str(path))
    return path


def library_combatants() -> list[Combatant]:
    """The bundled library's templates' combatants."""
    return [template.combatant for template in load_bestiary(LIBRARY_PATH).templates]
