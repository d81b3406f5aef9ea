"""Start the GUI: one window on an encounter (the bundled demo by default)."""

from __future__ import annotations

import importlib
import os
import secrets
import sys
import threading
from datetime import datetime
from typing import TYPE_CHECKING

import core.actions
import core.rules
import core.spatial
from core.io.fileio import EncounterFileError, load_encounter
from desktop.document.autosave import RecoveryError, orphaned_recoveries, read_recovery
from desktop.document.collector import QuietCollector
from desktop.document.fileops import UVTT_SUFFIXES
from desktop.mainwindow import MainWindow
from desktop.qt import QMessageBox, QSettings
from desktop.system.application import application, data_dir
from desktop.system.display import hint, missing_packages, uses_xcb
from desktop.system.resources import DEMO

if TYPE_CHECKING:
    from pathlib import Path

    from core.model.encounter import Encounter


def open_window(path: Path, demo: Path) -> MainWindow:
    """A window on ``path``; the demo opens as an untitled copy so Save never overwrites
    the bundled file. A file that fails to load is reported and the demo opens instead.
    A Universal VTT map (opened from the file manager) is imported as a new encounter."""
    if path.suffix.lower() in UVTT_SUFFIXES:
        window = open_window(demo, demo)
        window.files.import_vtt(path)
        return window
    encounter: Encounter | None = None
    error: str | None = None
    try:
        encounter = load_encounter(path)
    except EncounterFileError as problem:
        error = str(problem)
        encounter = load_encounter(demo)
    is_demo = error is not None or path.resolve() == demo.resolve()
    window = MainWindow(encounter, None if is_demo else path, data_dir(), QSettings())
    # A new seed each session, so "Roll for me" differs from the last game; the log keeps
    # every die rolled, and typing a seed replays its rolls.
    window.resolve_panel.seed.setValue(secrets.randbelow(window.resolve_panel.seed.maximum()))
    if error:
        QMessageBox.warning(window, "Cannot open encounter", f"{error}\n\nOpened the demo.")
    window.files.tell_unshown_art()
    return window


def offer_recovery(window: MainWindow, recoveries: list[Path]) -> None:
    """Offer the newest unsaved work of a window that did not close normally; No deletes it.
    Older ones stay for the next start (nothing is thrown away unasked)."""
    if not recoveries:
        return
    newest = recoveries[0]
    try:
        encounter, source = read_recovery(newest)
    except RecoveryError as error:  # kept: nothing is thrown away unasked
        QMessageBox.warning(window, "Cannot restore", f"{error}")
        return
    more = f"\n\n{len(recoveries) - 1} older one(s) will be offered next time." \
        if len(recoveries) > 1 else ""
    named = f"{source.name} ({source.parent})" if source else \
        f"“{encounter.name}”, never saved"
    answer = QMessageBox.question(
        window, "Restore unsaved work?",
        "Battlemap did not close normally last time. Restore the unsaved changes to "
        f"{named}, autosaved {_age(newest)}?{more}")
    if answer == QMessageBox.StandardButton.Yes:
        window.files.restore(newest, encounter, source)
    else:
        newest.unlink(missing_ok=True)


def _age(path: Path) -> str:
    try:
        stamp = datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        return "at an unknown time"
    return stamp.strftime("%d %b %Y %H:%M")


def keep_collections_quiet(window: MainWindow) -> QuietCollector:
    """The quiet collector of ``window``'s document, which also collects and freezes once
    sharing has started or its players changed and a second passed (the server and each
    page's state: desktop.document.collector)."""
    collector = QuietCollector(window.document)
    window.share.changed.connect(collector.collect_when_quiet)
    return collector


def run_app(path: Path) -> int:

    if uses_xcb(os.environ):
        packages = missing_packages()
        if packages:
            print(hint(packages), file=sys.stderr)
            return 1
    app = application()
    window = open_window(path, DEMO)
    window.show_on_screen()
    keep_collections_quiet(window)
    offer_recovery(window, orphaned_recoveries(data_dir()))
    # Right after the first frame: its imports (~0.1 s) are then made before the quiet
    # collector freezes what the start made, 0.3 s after opening (desktop.document.collector).
    window.view.first_painted.connect(warm_up)
    return app.exec()


def warm_up() -> threading.Thread:
    """Import what the first ruling needs and the first frame did not (the resolvers,
    actions and searches, see :mod:`desktop`) off the GUI thread, while the GM looks at the
    map. Returns the thread doing it."""
    thread = threading.Thread(target=_load_the_rest, name="warm-up", daemon=True)
    thread.start()
    return thread


def _load_the_rest() -> None:
    import pkgutil  # on the warm-up thread, not before the first frame

    for package in (core.rules, core.actions, core.spatial):
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
