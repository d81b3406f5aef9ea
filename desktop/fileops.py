"""File handling for the window: open, save, save as, recent files, autosave and recovery.

Saves are atomic (core.io.fileio.write_atomic). A failed open shows why and leaves the open
encounter untouched. Autosave writes a recovery file every minute while there are unsaved
changes; the JSON is made on the GUI thread (a few ms even for a 200×200 map, see
benchmarks) and written and fsynced on a worker thread.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from core.io.fileio import (
    EncounterFileError,
    encounter_from_data,
    encounter_to_json,
    load_encounter,
    save_encounter,
    write_atomic,
)
from core.io.uvtt import UvttImportError, import_uvtt_file
from core.model.encounter import Encounter
from desktop.document import EncounterDocument
from desktop.qt import (
    QApplication,
    QEventLoop,
    QFileDialog,
    QMessageBox,
    QObject,
    QProgressDialog,
    QSettings,
    Qt,
    QTimer,
    QWidget,
    Signal,
)

FILE_FILTER = ("Battlemap encounters (*.json);;Universal VTT maps (*.dd2vtt *.uvtt *.df2vtt);;"
               "All files (*)")
UVTT_FILTER = "Universal VTT maps (*.dd2vtt *.uvtt *.df2vtt);;All files (*)"
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
MAX_RECENT = 8
AUTOSAVE_MS = 60_000
RECOVERY_NAME = "recovery.json"


class FileController(QObject):
    """Owns the document's relationship with the disk."""

    recent_changed = Signal()
    message = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget, data_dir: Path,
                 settings: QSettings) -> None:
        super().__init__(parent)
        self.document, self.window, self.settings = document, parent, settings
        self.data_dir = data_dir
        self.recovery_path = data_dir / RECOVERY_NAME
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="battlemap-io")
        self._autosaved = self._state()
        self._pending: Future[None] | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(self.autosave)
        self.timer.start()

    # --- open ----------------------------------------------------------------------------
    def open_path(self, path: Path) -> bool:
        """Open ``path`` if it reads cleanly; otherwise say why and keep the current one.
        Universal VTT maps are imported."""
        if path.suffix.lower() in UVTT_SUFFIXES:
            return self.import_vtt(path)
        try:
            encounter = load_encounter(path)
        except EncounterFileError as error:
            QMessageBox.warning(self.window, "Cannot open encounter",
                                f"{error}\n\nThe open encounter was left as it was.")
            return False
        self.document.replace(encounter, path)
        self._autosaved = self._state()
        self.add_recent(path)
        self.message.emit(f"Opened {path.name}")
        return True

    def import_vtt(self, path: Path) -> bool:
        """Import a Universal VTT map as a new, unsaved encounter. The file is read on a
        worker thread behind a busy indicator (large images), which stays up while the map
        image is decoded for display; a refused file leaves the open encounter untouched."""
        progress = QProgressDialog(f"Importing {path.name}…", "", 0, 0, self.window)
        progress.setCancelButton(None)
        progress.setMinimumDuration(300)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        job = self._worker.submit(import_uvtt_file, path)
        while not job.done():
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        try:
            imported = job.result()
        except UvttImportError as error:
            progress.close()
            QMessageBox.warning(self.window, "Cannot import map",
                                f"{error}\n\nThe open encounter was left as it was.")
            return False
        self.document.replace(imported.encounter, None, saved=False)
        progress.close()
        notes = "; ".join(imported.warnings)
        self.message.emit(f"Imported {path.name}: {imported.walls} walls, {imported.doors} "
                          f"doors, {imported.windows} windows, {imported.lights} lights"
                          + (f" — {notes}" if notes else ""))
        return True

    def open_dialog(self) -> bool:
        if not self.confirm_discard():
            return False
        name, _ = QFileDialog.getOpenFileName(self.window, "Open encounter",
                                              str(self._start_dir()), FILE_FILTER)
        return bool(name) and self.open_path(Path(name))

    def import_dialog(self) -> bool:
        if not self.confirm_discard():
            return False
        name, _ = QFileDialog.getOpenFileName(self.window, "Import Universal VTT map",
                                              str(self._start_dir()), UVTT_FILTER)
        return bool(name) and self.import_vtt(Path(name))

    def new(self, encounter: Encounter) -> None:
        self.document.replace(encounter, None)

    # --- save ----------------------------------------------------------------------------
    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        suggested = self.document.path or self._start_dir() / f"{self.document.encounter.name}.json"
        name, _ = QFileDialog.getSaveFileName(self.window, "Save encounter as", str(suggested),
                                              FILE_FILTER)
        if not name:
            return False
        path = Path(name) if name.endswith(".json") else Path(name + ".json")
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            save_encounter(self.document.encounter, path)
        except OSError as error:
            QMessageBox.warning(self.window, "Cannot save",
                                f"Saving to {path} failed: {error.strerror or error}.\n"
                                "Nothing was overwritten.")
            return False
        self.document.mark_saved(path)
        self.add_recent(path)
        self.discard_recovery()
        self.message.emit(f"Saved {path.name}")
        return True

    def confirm_discard(self) -> bool:
        """Ask before losing unsaved changes: Save, Discard or Cancel."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self.window, "Unsaved changes",
            f"Save the changes to {self.document.encounter.name}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # --- recent files ----------------------------------------------------------------------
    def recent(self) -> list[Path]:
        value = self.settings.value("recent", [])
        names = value if isinstance(value, list) else [value] if value else []
        return [Path(n) for n in names if Path(n).exists()]

    def add_recent(self, path: Path) -> None:
        names = [str(path.resolve())] + [str(p) for p in self.recent()
                                         if p.resolve() != path.resolve()]
        self.settings.setValue("recent", names[:MAX_RECENT])
        self.recent_changed.emit()

    def _start_dir(self) -> Path:
        recent = self.recent()
        return recent[0].parent if recent else Path.home()

    # --- autosave and recovery -------------------------------------------------------------
    def autosave(self) -> Future[None] | None:
        """Write the recovery file if anything changed since the last autosave."""
        state = self._state()
        if not self.document.modified or state == self._autosaved:
            return None
        self._autosaved = state
        source = json.dumps(str(self.document.path or ""))
        encounter = encounter_to_json(self.document.encounter)
        payload = f'{{"source": {source}, "encounter": {encounter}}}'

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._pending = self._worker.submit(write_atomic, self.recovery_path,
                                            payload.encode("utf-8"))
        return self._pending

    def _state(self) -> tuple[int, int]:
        """Which encounter and which revision of it: every applied, undone or merged edit
        (a keystroke, a brush step) makes a new revision."""
        return id(self.document.history), self.document.revision

    def discard_recovery(self) -> None:
        if self._pending is not None:
            self._pending.result()
        self.recovery_path.unlink(missing_ok=True)

    def recovery_available(self) -> bool:
        return self.recovery_path.exists()

    def restore_recovery(self) -> bool:
        """Load the recovery file as an unsaved encounter; False (and a message) if broken."""
        try:
            data = json.loads(self.recovery_path.read_text("utf-8"))
            encounter = encounter_from_data(data["encounter"], "the recovery file")
        except (OSError, ValueError, KeyError, TypeError) as error:
            QMessageBox.warning(self.window, "Cannot restore", f"{error}")
            return False
        source = Path(data["source"]) if data.get("source") else None
        self.document.replace(encounter, source, saved=False)
        self.message.emit("Restored the unsaved changes from the last session")
        return True

    def shutdown(self) -> None:
        self.timer.stop()
        self._worker.shutdown(wait=True)
