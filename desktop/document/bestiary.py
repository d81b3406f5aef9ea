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
    """The user's bestiary: read once, written (atomically) on every change."""

    changed = Signal()

    def __init__(self, data_dir: Path, bundled: Path) -> None:
        super().__init__()
        self.path = data_dir / BESTIARY_FILE
        self.problem = ""  # why the user's file could not be read ("" when it was)
        try:
            self.bundled = load_bestiary(bundled)
        except BestiaryFileError as error:
            self.bundled, self.problem = Bestiary(), str(error)
        try:
            self.mine = load_bestiary(self.path, missing_ok=True)
        except BestiaryFileError as error:
            self.mine, self.problem = Bestiary(), f"{error} (the file was left as it is)"
            self._unreadable = True
        else:
            self._unreadable = False

    def save(self, bestiary: Bestiary) -> str:
        """Write ``bestiary`` as the user's; "" or why nothing was written."""
        if self._unreadable:
            return f"your bestiary {self.path} could not be read, so it is not overwritten: " \
                   f"{self.problem}"
        try:
            save_bestiary(bestiary, self.path)
        except (BestiarySaveError, OSError) as error:
            return str(error.strerror or error) if isinstance(error, OSError) else str(error)
        self.mine = bestiary
        self.changed.emit()
        return ""
