"""Between fights, for the window: File > Next encounter…, New encounter from the library…,
Export > Universal VTT map…, Replay the fight…, the library dialog and Save to bestiary.
What is decided is core's (:mod:`core.actions.carry`, :mod:`core.actions.bestiary`,
:mod:`core.io.uvtt_export`, :mod:`core.actions.replay`); this only asks and shows."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from core.io.fileio import EncounterFileError, load_encounter
from desktop.document.fileops import UVTT_SUFFIXES
from desktop.panels.library import LIBRARY_PATH
from desktop.qt import (
    QAction,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QObject,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.bestiary import Template
    from core.model.encounter import Encounter
    from core.model.grid import Cell
    from desktop.document.bestiary import BestiaryStore
    from desktop.document.document import EncounterDocument
    from desktop.document.fileops import FileController
    from desktop.document.selection import SelectionModel
    from desktop.panels.bestiary import LibraryDialog

MAP_FILTER = ("Encounters and Universal VTT maps (*.json *.dd2vtt *.uvtt *.df2vtt);;"
              "All files (*)")
STATUS_MS = 8000


class EveningController(QObject):
    """The between-fights commands of one window."""

    def __init__(self, window: QMainWindow, document: EncounterDocument,
                 files: FileController, selection: SelectionModel, *, data_dir: Path,
                 drop_point: Callable[[], Cell], bundled: Path = LIBRARY_PATH) -> None:
        super().__init__(window)
        self.window, self.document, self.files = window, document, files
        self.selection, self.drop_point = selection, drop_point
        self._bestiary_files = (data_dir, bundled)
        self.library: LibraryDialog | None = None
        self._drop: Cell | None = None  # where the library adds (None: the view's centre)

    # The bestiary, Universal VTT maps and their pydantic models (3.5 ms) are imported when
    # first used, not while the window opens.
    @cached_property
    def store(self) -> BestiaryStore:
        from desktop.document.bestiary import BestiaryStore

        return BestiaryStore(*self._bestiary_files)

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, STATUS_MS)

    def build_menus(self, file_menu: QMenu, before: QAction) -> None:
        """Its File entries, above ``before`` (the Save action)."""
        for text, tip, run in (
                ("Ne&xt encounter…", "Save this encounter, open the next map and bring the "
                 "party across", self.next_encounter),
                ("New encounter from the &library…", "A map (blank, a file or a Universal VTT "
                 "map) and creatures of the library, with the sides' balance", self.build_new),
                ("&Library and bestiary…", "Add creatures from the bundled templates and your "
                 "bestiary; edit, rename, import, export your templates", self.open_library),
                ("Re&play the fight…", "Step through the history on a read-only map; export "
                 "the frames", self.replay)):
            file_menu.insertAction(before, self._action(text, tip, run))
        export = QMenu("E&xport", file_menu)
        export.addAction(self._action("&Universal VTT map (.dd2vtt)…", "Walls, doors, "
                                      "windows, lights and the map image, for other tools",
                                      self.export_uvtt))
        file_menu.insertMenu(before, export)
        file_menu.insertSeparator(before)

    def _action(self, text: str, tip: str, run: Callable[[], object]) -> QAction:
        action = QAction(text, self.window)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(lambda _=False: run())
        return action

    # --- the library -------------------------------------------------------------------
    def open_library(self, near: Cell | None = None) -> LibraryDialog:
        from desktop.panels.bestiary import LibraryDialog

        if self.library is None:
            self.library = LibraryDialog(self.store, self.add_template, self.window)
        self._drop = near
        self.library.show()
        return self.library

    def add_template(self, template: Template, count: int) -> str:
        """Add ``count`` of ``template`` near the drop point; "" or why not."""
        from core.actions.bestiary import add_templates

        near = self._drop or self.drop_point()
        try:
            added = add_templates(self.document.encounter, template, near, count)
        except ValueError as error:
            return str(error)
        if not self.document.push(added.command):
            return "refused (see the message)"
        self.selection.set(set(added.token_ids))
        return ""

    def save_to_bestiary(self, token_id: str) -> str:
        """Keep the token's combatant as a template of the GM's bestiary; "" or why not."""
        from core.model.bestiary import template_of

        encounter = self.document.encounter
        template = template_of(encounter, token_id)
        if self.store.mine.find(template.name) is not None:
            answer = QMessageBox.question(self.window, "Replace template?",
                                          f"Your bestiary has a {template.name} already. "
                                          "Replace it?")
            if answer != QMessageBox.StandardButton.Yes:
                return "kept the old template"
        try:
            bestiary = self.store.mine.with_template(template)
        except ValueError as error:
            problem = str(error)
        else:
            problem = self.store.save(bestiary)
        if problem:
            QMessageBox.warning(self.window, "Not saved to the bestiary", problem)
            return problem
        self._say(f"Saved {template.name} to your bestiary ({self.store.path})")
        return ""

    # --- the next encounter ----------------------------------------------------------------
    def next_encounter(self, path: Path | None = None) -> bool:
        """Save this encounter, open the next map, and bring the party across."""
        if not self._saved_first():
            return False
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self.window, "Next encounter",
                                                  str(self.files.start_dir()), MAP_FILTER)
            if not name:
                return False
            path = Path(name)
        new = self._read_map(path)
        if new is None:
            return False
        return self.carry_into(new)

    def carry_into(self, new: Encounter) -> bool:
        from core.actions.carry import carry_party, default_drop
        from desktop.dialogs.evening import NextEncounterDialog

        old = self.document.encounter
        dialog = NextEncounterDialog(old, new, default_drop(new), self.window)
        if not dialog.exec():
            return False
        try:
            carried = carry_party(old, new, dialog.chosen(), dialog.choices(), dialog.drop())
        except ValueError as error:
            QMessageBox.warning(self.window, "Cannot bring the party across",
                                f"{error}\n\nNothing was changed.")
            return False
        self.document.replace(carried.encounter, None, saved=False)
        notes = "; ".join(carried.notes)
        self._say(f"{new.name}: {len(carried.placed)} brought across"
                  + (f" — {notes}" if notes else ""))
        return True

    def _saved_first(self) -> bool:
        """The old encounter is saved (Save as when it never was) before it is left."""
        if self.document.path is not None and not self.document.modified:
            return True
        return self.files.save()

    def _read_map(self, path: Path) -> Encounter | None:
        from core.io.uvtt import UvttImportError, import_uvtt_file

        try:
            if path.suffix.lower() in UVTT_SUFFIXES:
                return import_uvtt_file(path).encounter
            return load_encounter(path)
        except (EncounterFileError, UvttImportError) as error:
            QMessageBox.warning(self.window, "Cannot open the map",
                                f"{error}\n\nThe open encounter was left as it was.")
            return None

    def build_new(self) -> bool:
        """A new encounter: a blank map, a file or a Universal VTT map, then creatures."""
        from core.model.encounter import Encounter
        from core.model.mapmodel import BattleMap
        from desktop.dialogs.evening import NewEncounterDialog

        if not self.files.confirm_discard():
            return False
        source, ok = QInputDialog.getItem(self.window, "New encounter", "Start from:",
                                          ["A blank 30 × 20 map", "A map file…"], 0, False)
        if not ok:
            return False
        base: Encounter | None = Encounter(name="New encounter",
                                           map=BattleMap(width=30, height=20))
        if source != "A blank 30 × 20 map":
            name, _ = QFileDialog.getOpenFileName(self.window, "Map for the new encounter",
                                                  str(self.files.start_dir()), MAP_FILTER)
            base = self._read_map(Path(name)) if name else None
        if base is None:
            return False
        dialog = NewEncounterDialog(base, [*self.store.mine.templates,
                                           *self.store.bundled.templates], self.window)
        if not dialog.exec() or dialog.result_encounter is None:
            return False
        self.files.new(dialog.result_encounter, saved=False)
        return True

    # --- export and replay -----------------------------------------------------------------
    def export_uvtt(self, path: Path | None = None) -> bool:
        encounter = self.document.encounter
        if path is None:
            suggested = self.files.start_dir() / f"{encounter.name}.dd2vtt"
            name, _ = QFileDialog.getSaveFileName(self.window, "Export Universal VTT map",
                                                  str(suggested),
                                                  "Universal VTT maps (*.dd2vtt)")
            if not name:
                return False
            path = Path(name) if name.endswith(".dd2vtt") else Path(name + ".dd2vtt")
        from core.io.uvtt_export import UvttExportError, write_uvtt
        from desktop.map.picture import map_picture  # Qt's offscreen drawing: when asked

        try:
            write_uvtt(encounter, path, map_picture)
        except (UvttExportError, OSError, ValueError) as error:
            reason = error.strerror or error if isinstance(error, OSError) else error
            QMessageBox.warning(self.window, "Cannot export", f"{reason}\n\nNothing was "
                                "written.")
            return False
        self._say(f"Exported {path.name}")
        return True

    def replay(self) -> None:
        from desktop.dialogs.replay import ReplayDialog

        self.replay_dialog = ReplayDialog(self.document.history, self.window)
        self.replay_dialog.show()
