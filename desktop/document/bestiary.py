"""The GM's own bestiary on disk (``bestiary.json`` in the data folder) beside the bundled
templates. A file that cannot be read is left as it is, never overwritten: the window says
why and keeps to the bundled templates until the GM moves it away."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.io.bestiary import BestiaryFileError, BestiarySaveError, load_bestiary, save_bestiary
from core.model.bestiary import Bestiary
from desktop.qt import QObject, Signal

if TYPE_CHECKING:
    from pathlib import Path

BESTIARY_FILE = "bestiary.json"


class BestiaryStore(QObject):
    """The user's bestiary: read when first needed (not while the window opens), written
    (atomically) on every change."""

    changed = Signal()

    def __init__(self, data_dir: Path, bundled: Path) -> None:
        super().__init__()
        self.path = data_dir / BESTIARY_FILE
        self._bundled_path = bundled
        self._read: tuple[Bestiary, Bestiary, str] | None = None
        self._unreadable = False

    @property
    def bundled(self) -> Bestiary:
        return self._files()[0]

    @property
    def mine(self) -> Bestiary:
        return self._files()[1]

    @property
    def problem(self) -> str:
        """Why a file could not be read ("" when both were)."""
        return self._files()[2]

    def _files(self) -> tuple[Bestiary, Bestiary, str]:
        if self._read is None:
            problem = ""
            try:
                bundled = load_bestiary(self._bundled_path)
            except BestiaryFileError as error:
                bundled, problem = Bestiary(), str(error)
            try:
                mine = load_bestiary(self.path, missing_ok=True)
            except BestiaryFileError as error:
                mine, problem = Bestiary(), f"{error} (the file was left as it is)"
                self._unreadable = True
            self._read = (bundled, mine, problem)
        return self._read

    def save(self, bestiary: Bestiary) -> str:
        """Write ``bestiary`` as the user's; "" or why nothing was written."""
        self._files()  # whether the user's file is unreadable is known once it is read
        if self._unreadable:
            return f"your bestiary {self.path} could not be read, so it is not overwritten: " \
                   f"{self.problem}"
        try:
            save_bestiary(bestiary, self.path)
        except (BestiarySaveError, OSError) as error:
            return str(error.strerror or error) if isinstance(error, OSError) else str(error)
        self._read = (self.bundled, bestiary, self.problem)
        self.changed.emit()
        return ""
