"""File handling for the window: open, save, save as, recent files, recovery.

Saves are atomic (core.io.fileio.write_atomic) and refuse, with a dialog, what would not load
again. A failed open shows why and leaves the open encounter untouched. Autosave and the
recovery files: :mod:`desktop.document.autosave`.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from core.io.fileio import EncounterFileError, EncounterSaveError, load_encounter, save_encounter
from desktop.document.autosave import Autosaver, RecoveryError, read_recovery
from desktop.document.images import art_of
from desktop.qt import (
    QApplication,
    QEventLoop,
    QFileDialog,
    QMessageBox,
    QObject,
    QProgressDialog,
    QSettings,
    Qt,
    QWidget,
    Signal,
)
from desktop.system.resources import DEMO

if TYPE_CHECKING:
    from core.model.encounter import Encounter
    from desktop.document.document import EncounterDocument

FILE_FILTER = ("Battlemap encounters (*.json);;Universal VTT maps (*.dd2vtt *.uvtt *.df2vtt);;"
               "All files (*)")
UVTT_FILTER = "Universal VTT maps (*.dd2vtt *.uvtt *.df2vtt);;All files (*)"
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")
MAX_RECENT = 8


class FileController(QObject):
    """Owns the document's relationship with the disk."""

    recent_changed = Signal()
    message = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget, data_dir: Path,
                 settings: QSettings) -> None:
        super().__init__(parent)
        self.document, self.window, self.settings = document, parent, settings
        self.autosaver = Autosaver(document, data_dir, self)
        self.autosaver.status.connect(self.message)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="battlemap-import")

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
        # The bundled demo opens as an untitled copy: Save never overwrites the shipped file.
        self.document.replace(encounter, None if path.resolve() == DEMO.resolve() else path)
        self.autosaver.mark_written()
        self.add_recent(path)
        self.message.emit(f"Opened {path.name}")
        self.tell_unshown_art()
        return True

    def tell_unshown_art(self) -> None:
        """Say in the status bar which art of the open encounter is not shown and why (the
        scenes decoded it when it was opened)."""
        notes = art_of(self.document.encounter).notes()
        if notes:
            self.message.emit(notes[0].upper() + notes[1:])

    def import_vtt(self, path: Path) -> bool:
        """Import a Universal VTT map as a new, unsaved encounter. The file is read on a
        worker thread behind a busy indicator (large images), which stays up while the map
        image is decoded for display; a refused file leaves the open encounter untouched."""
        from core.io.uvtt import UvttImportError, import_uvtt_file  # not for the first frame

        progress = QProgressDialog(f"Importing {path.name}…", "", 0, 0, self.window)
        progress.setCancelButton(None)
        progress.setMinimumDuration(300)
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        job = self._worker.submit(import_uvtt_file, path)
        while not job.done():
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        refusal = job.exception()  # not raised here: its traceback would hold this frame
        if isinstance(refusal, UvttImportError):
            progress.close()
            QMessageBox.warning(self.window, "Cannot import map",
                                f"{refusal}\n\nThe open encounter was left as it was.")
            return False
        imported = job.result()
        self.document.replace(imported.encounter, None, saved=False)
        progress.close()
        notes = "; ".join(filter(None, [*imported.warnings, art_of(imported.encounter).notes()]))
        self.message.emit(f"Imported {path.name}: {imported.walls} walls, {imported.doors} "
                          f"doors, {imported.windows} windows, {imported.lights} lights"
                          + (f" — {notes}" if notes else ""))
        return True

    def open_dialog(self) -> bool:
        if not self.confirm_discard():
            return False
        name, _ = QFileDialog.getOpenFileName(self.window, "Open encounter",
                                              str(self.start_dir()), FILE_FILTER)
        return bool(name) and self.open_path(Path(name))

    def import_dialog(self) -> bool:
        if not self.confirm_discard():
            return False
        name, _ = QFileDialog.getOpenFileName(self.window, "Import Universal VTT map",
                                              str(self.start_dir()), UVTT_FILTER)
        return bool(name) and self.import_vtt(Path(name))

    def new(self, encounter: Encounter, saved: bool = True) -> None:
        """Start ``encounter`` untitled; ``saved`` False when it holds the GM's work (an
        encounter built in the dialog), so leaving it asks to save it."""
        self.document.replace(encounter, None, saved)

    # --- save ----------------------------------------------------------------------------
    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        suggested = self.document.path or self.start_dir() / f"{self.document.encounter.name}.json"
        name, _ = QFileDialog.getSaveFileName(self.window, "Save encounter as", str(suggested),
                                              FILE_FILTER)
        if not name:
            return False
        path = Path(name) if name.endswith(".json") else Path(name + ".json")
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            save_encounter(self.document.encounter, path)
        except (OSError, EncounterSaveError) as error:
            reason = error.strerror or error if isinstance(error, OSError) else error
            QMessageBox.warning(self.window, "Cannot save",
                                f"Saving to {path} failed: {reason}.\n"
                                "Nothing was overwritten.")
            return False
        self.document.mark_saved(path)
        self.add_recent(path)
        self.autosaver.discard()
        self.message.emit(f"Saved {path.name}")
        return True

    def confirm_discard(self) -> bool:
        """Ask before losing unsaved changes: Save, Discard or Cancel."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self.window, "Unsaved changes",
            f"Save the changes to {self._shown_name()}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def _shown_name(self) -> str:
        """The name the title bar shows: the file's, or the encounter's before a save."""
        path = self.document.path
        return path.name if path is not None else self.document.encounter.name

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

    def start_dir(self) -> Path:
        """Where a file dialog opens: the encounter's folder, else the last one opened,
        else the home folder."""
        if self.document.path is not None:
            return self.document.path.parent
        recent = self.recent()
        return recent[0].parent if recent else Path.home()

    # --- recovery ------------------------------------------------------------------------
    def restore_recovery(self, recovery: Path) -> bool:
        """Open a recovery file as an unsaved encounter, which this window then keeps
        autosaving; False (and a message) if it cannot be restored."""
        try:
            encounter, source = read_recovery(recovery)
        except RecoveryError as error:
            QMessageBox.warning(self.window, "Cannot restore", f"{error}")
            return False
        self.restore(recovery, encounter, source)
        return True

    def restore(self, recovery: Path, encounter: Encounter, source: Path | None) -> None:
        """Open what ``recovery`` held (read already) and keep autosaving it there."""
        self.document.replace(encounter, source, saved=False)
        self.autosaver.claim(recovery)
        self.message.emit("Restored the unsaved changes from the last session")

    def shutdown(self) -> None:
        self.autosaver.shutdown()
        self._worker.shutdown(wait=True)
