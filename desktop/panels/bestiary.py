"""The library: the bundled templates and the GM's own bestiary in one searchable list,
grouped by side, size or level. Adds several of a template at once (numbered apart, near
the drop point); the GM's own templates can be edited, renamed, deleted, exported and
imported (a bad file is refused with the reason; the bestiary stays as it was)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.io.bestiary import BestiaryFileError, BestiarySaveError, load_bestiary, save_bestiary
from core.model.bestiary import Bestiary, Template, template_of
from core.model.encounter import Encounter, Token
from core.model.tables import SIZES
from core.model.weapons import DEFAULT_WEAPONS
from desktop.document.document import EncounterDocument
from desktop.panels.combatant_form import CombatantForm
from desktop.panels.library import summary
from desktop.qt import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.document.bestiary import BestiaryStore

TEMPLATE_ROLE = Qt.ItemDataRole.UserRole
MINE, BUNDLED = "mine", "bundled"
GROUPINGS = ("Side", "Size", "Level")
BESTIARY_FILTER = "Battlemap bestiaries (*.json);;All files (*)"


def group_of(template: Template, grouping: str) -> str:
    c = template.combatant
    if grouping == "Size":
        return SIZES[c.size].label.title()
    if grouping == "Level":
        return f"Level {c.level}"
    return c.side.value.title()


class LibraryDialog(QDialog):
    """The library; ``add(template, count)`` puts creatures on the map and returns "" or
    why it could not."""

    def __init__(self, store: BestiaryStore, add: Callable[[Template, int], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store, self.add = store, add
        self.setWindowTitle("Library — bundled templates and your bestiary")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search by name…")
        self.search.setClearButtonEnabled(True)
        self.grouping = QComboBox()
        self.grouping.addItems(GROUPINGS)
        self.grouping.setToolTip("Group the templates by side, size or level (Hit Dice)")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Name", "Side", "Size", "Level", "HP", "From"])
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.count = QSpinBox()
        self.count.setRange(1, 50)
        self.count.setPrefix("× ")
        self.count.setToolTip("How many to add: several are numbered apart (Kobold 1, "
                              "Kobold 2) and placed in the free cells nearest the drop point")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons: dict[str, QPushButton] = {}
        self._build()
        self.search.textChanged.connect(self.refill)
        self.grouping.currentTextChanged.connect(self.refill)
        self.tree.itemSelectionChanged.connect(self._enable)
        self.tree.itemDoubleClicked.connect(lambda *_: self.add_selected())
        store.changed.connect(self.refill)
        self.refill()
        resize_within_screen(self, 640, 560)
        if store.problem:
            self.say(store.problem, error=True)

    def _build(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(QLabel("Group by"))
        top.addWidget(self.grouping)
        adding = QHBoxLayout()
        adding.addWidget(self._button("Add to map", "Add the selected template to the map "
                                      "(double-click does too)", self.add_selected))
        adding.addWidget(self.count)
        adding.addStretch(1)
        for text, tip, run in (
                ("Edit…", "Edit your template's stats", self.edit_selected),
                ("Rename…", "Rename your template", self.rename_selected),
                ("Delete", "Delete your selected templates", self.delete_selected),
                ("Export…", "Save your selected templates (or all of them) to a bestiary "
                 "file to share", self.export_selected),
                ("Import…", "Add the templates of a bestiary file to yours (same names are "
                 "replaced)", self.import_file)):
            adding.addWidget(self._button(text, tip, run))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.message)
        layout.addLayout(adding)
        layout.addWidget(close)

    def _button(self, text: str, tip: str, run: Callable[[], object]) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setAutoDefault(False)
        button.clicked.connect(lambda _=False: run())
        self.buttons[text] = button
        return button

    # --- the list ------------------------------------------------------------------------
    def refill(self) -> None:
        """The templates matching the search, under their groups (kept open)."""
        wanted = self.search.text().strip().casefold()
        grouping = self.grouping.currentText()
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        entries = [(t, MINE) for t in self.store.mine.templates] + [
            (t, BUNDLED) for t in self.store.bundled.templates]
        for template, source in sorted(entries, key=lambda e: _order(e[0], grouping)):
            if wanted and wanted not in template.name.casefold():
                continue
            title = group_of(template, grouping)
            if title not in groups:
                groups[title] = QTreeWidgetItem(self.tree, [title])
                groups[title].setFirstColumnSpanned(True)
                groups[title].setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[title].setExpanded(True)
            self._row(groups[title], template, source)
        self.tree.resizeColumnToContents(0)
        self._enable()

    def _row(self, group: QTreeWidgetItem, template: Template, source: str) -> None:
        c = template.combatant
        item = QTreeWidgetItem(group, [c.name, c.side.value, SIZES[c.size].label,
                                       str(c.level), str(c.max_hp),
                                       "yours" if source == MINE else "bundled"])
        item.setData(0, TEMPLATE_ROLE, (template, source))
        tip = summary(c) + (f"<br>{template.notes}" if template.notes else "")
        for column in range(6):
            item.setToolTip(column, tip)

    def selected(self, source: str | None = None) -> list[Template]:
        chosen = [i.data(0, TEMPLATE_ROLE) for i in self.tree.selectedItems()
                  if i.data(0, TEMPLATE_ROLE)]
        return [t for t, s in chosen if source is None or s == source]

    def select(self, name: str) -> None:
        """Select the template of this name (tests, and after a rename)."""
        for item in self._items():
            data = item.data(0, TEMPLATE_ROLE)
            item.setSelected(bool(data) and data[0].name.casefold() == name.casefold())

    def _items(self) -> list[QTreeWidgetItem]:
        return [self.tree.topLevelItem(g).child(r) for g in range(self.tree.topLevelItemCount())
                for r in range(self.tree.topLevelItem(g).childCount())]

    def _enable(self) -> None:
        any_chosen, mine = bool(self.selected()), self.selected(MINE)
        self.buttons["Add to map"].setEnabled(len(self.selected()) == 1)
        for text in ("Edit…", "Rename…"):
            self.buttons[text].setEnabled(len(mine) == 1 and len(self.selected()) == 1)
        self.buttons["Delete"].setEnabled(bool(mine) and len(mine) == len(self.selected()))
        self.buttons["Export…"].setEnabled(bool(mine) or not any_chosen)

    def say(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet("color: #c0392b;" if error else "")
        self.message.setText(text)

    # --- commands ------------------------------------------------------------------------
    def add_selected(self) -> None:
        chosen = self.selected()
        if len(chosen) != 1:
            return
        count = self.count.value()
        problem = self.add(chosen[0], count)
        added = f"Added {count} × {chosen[0].name}" if count > 1 else f"Added {chosen[0].name}"
        self.say(problem or added, error=bool(problem))

    def _save(self, bestiary: Bestiary, done: str) -> bool:
        problem = self.store.save(bestiary)
        self.say(problem or done, error=bool(problem))
        return not problem

    def rename_selected(self) -> None:
        (template,) = self.selected(MINE)
        name, ok = QInputDialog.getText(self, "Rename template", "New name:",
                                        text=template.name)
        if not ok or not name.strip() or name.strip() == template.name:
            return
        try:
            renamed = self.store.mine.renamed(template.name, name.strip())
        except ValueError as error:
            self.say(f"Not renamed: {error}", error=True)
            return
        if self._save(renamed, f"Renamed {template.name} to {name.strip()}"):
            self.select(name.strip())

    def delete_selected(self) -> None:
        names = [t.name for t in self.selected(MINE)]
        answer = QMessageBox.question(self, "Delete templates",
                                      f"Delete {', '.join(names)} from your bestiary?")
        if answer != QMessageBox.StandardButton.Yes:
            return
        bestiary = self.store.mine
        for name in names:
            bestiary = bestiary.without(name)
        self._save(bestiary, f"Deleted {', '.join(names)}")

    def export_selected(self) -> None:
        chosen = self.selected(MINE) or list(self.store.mine.templates)
        name, _ = QFileDialog.getSaveFileName(self, "Export templates",
                                              str(Path.home() / "bestiary.json"),
                                              BESTIARY_FILTER)
        if not name:
            return
        try:
            save_bestiary(Bestiary(templates=chosen), Path(name))
        except (BestiarySaveError, OSError) as error:
            self.say(f"Not exported: {error}", error=True)
            return
        self.say(f"Exported {len(chosen)} template(s) to {Path(name).name}")

    def import_file(self, path: Path | None = None) -> None:
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self, "Import templates", str(Path.home()),
                                                  BESTIARY_FILTER)
            if not name:
                return
            path = Path(name)
        try:
            merged, names = self.store.mine.merged(load_bestiary(path))
        except (BestiaryFileError, ValueError) as error:
            self.say(f"Not imported: {error}. Your bestiary was left as it was.", error=True)
            return
        self._save(merged, f"Imported {len(names)} template(s): {', '.join(names)}")

    def edit_selected(self) -> None:
        (template,) = self.selected(MINE)
        editor = TemplateEditor(template, self)
        if editor.exec() and editor.result_template not in (None, template):
            assert editor.result_template is not None
            bestiary = self.store.mine.without(template.name)
            try:
                bestiary = bestiary.with_template(editor.result_template)
            except ValueError as error:
                self.say(f"Not saved: {error}", error=True)
                return
            if self._save(bestiary, f"Saved {editor.result_template.name}"):
                self.select(editor.result_template.name)


def _order(template: Template, grouping: str) -> tuple[object, ...]:
    c = template.combatant
    key = {"Side": c.side.value, "Size": SIZES[c.size].footprint, "Level": c.level}[grouping]
    return key, c.name.casefold()


class TemplateEditor(QDialog):
    """The Combatants panel's form on a template (in an encounter of its own)."""

    def __init__(self, template: Template, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Edit {template.name}")
        self.result_template: Template | None = None
        self._notes = template.notes
        own = [w for w in template.weapons if w.name not in {d.name for d in DEFAULT_WEAPONS}]
        portraits = {template.combatant.portrait: template.portrait} \
            if template.combatant.portrait and template.portrait else {}
        self.document = EncounterDocument(Encounter(
            weapons=[*DEFAULT_WEAPONS, *own], portraits=portraits,
            tokens=[Token(id="template", combatant=template.combatant, x=0, y=0)]))
        self.form = CombatantForm(self.document)
        self.form.show_token("template")
        self.document.changed.connect(lambda _changes: self.form.refresh())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        scroll = QScrollArea()  # the form is taller than a laptop's screen at 150 %
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.form.error)
        layout.addWidget(buttons)
        resize_within_screen(self, self.form.sizeHint().width() + 40, 760)

    def accept(self) -> None:
        self.result_template = template_of(self.document.encounter, "template", self._notes)
        super().accept()
