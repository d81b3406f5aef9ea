"""Between fights: what the party carries into the next encounter (the GM ticks), and a new
encounter built from a map and creatures of the library, with the two sides' summed
strength shown as they are added."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.bestiary import add_templates, balance, describe_balance
from core.actions.carry import CarryChoices
from core.model.combatant import Side
from core.model.grid import Cell
from core.model.limits import MAX_ROUND
from desktop.qt import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from core.model.bestiary import Template
    from core.model.encounter import Encounter

TICKS = (("hp", "Hit points as the fight left them", "Unticked: back to full"),
         ("wounds", "Wound points", "Unticked: none"),
         ("conditions", "Conditions and their timers",
          "Stances and morale states end with the fight; timed conditions run on through "
          "the rounds between the fights. Unticked: none"),
         ("hero_points", "Hero points left", "Unticked: none"),
         ("recover_weapons", "Dropped weapons recovered",
          "Weapons dropped in a panic, and what a critical event took out of hand, go "
          "back in hand. Unticked: left behind"))
EXPLAIN_BALANCE = ("Summed levels (Hit Dice) and hit points of the creatures standing on "
                   "each side: a rough balance, not a prediction — nothing is rolled or "
                   "simulated.")


class NextEncounterDialog(QDialog):
    """Who comes along, what they keep, how long until the next fight, where they go."""

    def __init__(self, old: Encounter, new: Encounter, drop: Cell,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Next encounter: {new.name}")
        self.party = QListWidget()
        for token in old.tokens:
            if token.combatant.side is Side.PARTY:
                c = token.combatant
                item = QListWidgetItem(f"{c.name} — {c.hp}/{c.max_hp} HP")
                item.setData(Qt.ItemDataRole.UserRole, token.id)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                self.party.addItem(item)
        self.ticks: dict[str, QCheckBox] = {}
        for key, text, tip in TICKS:
            self.ticks[key] = box = QCheckBox(text)
            box.setChecked(True)
            box.setToolTip(tip)
        self.rounds = _spin(0, MAX_ROUND, 0, "Rounds that pass before the next fight: timed "
                            "conditions (stunned, knocked out, waking) run on through them")
        self.drop_x = _spin(0, new.map.width - 1, drop.x, "Column of the drop point")
        self.drop_y = _spin(0, new.map.height - 1, drop.y, "Row of the drop point")
        self._build(new)

    def _build(self, new: Encounter) -> None:
        form = QFormLayout()
        form.addRow(QLabel("Who comes along:"))
        form.addRow(self.party)
        for box in self.ticks.values():
            form.addRow(box)
        form.addRow("Rounds until the next fight", self.rounds)
        where = QHBoxLayout()
        where.addWidget(self.drop_x)
        where.addWidget(self.drop_y)
        form.addRow("Drop point (x, y)", where)
        note = QLabel(f"A party member with a stand-in of the same name on {new.name} takes "
                      "its place; the others go to the free cells nearest the drop point. "
                      "The round starts afresh.")
        note.setWordWrap(True)
        form.addRow(note)
        buttons = _ok_cancel(self, "Bring them across")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def chosen(self) -> list[str]:
        items = (self.party.item(i) for i in range(self.party.count()))
        return [i.data(Qt.ItemDataRole.UserRole) for i in items
                if i.checkState() == Qt.CheckState.Checked]

    def choices(self) -> CarryChoices:
        ticked = {key: box.isChecked() for key, box in self.ticks.items()}
        return CarryChoices(**ticked, rounds_between=self.rounds.value())

    def drop(self) -> Cell:
        return Cell(self.drop_x.value(), self.drop_y.value())


def _ok_cancel(dialog: QDialog, ok: str) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def _spin(low: int, high: int, value: int, tip: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setToolTip(tip)
    return box


class NewEncounterDialog(QDialog):
    """The creatures to add to a new map (any template × a count), and the balance."""

    def __init__(self, base: Encounter, templates: list[Template],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"New encounter: {base.name}")
        self.base = base
        self.templates = {t.name: t for t in templates}
        self.library = QListWidget()
        self.library.addItems(sorted(self.templates, key=str.casefold))
        self.library.itemDoubleClicked.connect(lambda _: self.add_chosen())
        self.count = _spin(1, 50, 1, "How many of the template to add")
        self.chosen_list = QListWidget()
        self.picked: list[tuple[Template, int]] = []
        self.balance = QLabel()
        self.balance.setWordWrap(True)
        self.balance.setToolTip(EXPLAIN_BALANCE)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c0392b;")
        self.problem.setWordWrap(True)
        self.result_encounter: Encounter | None = None
        self._build()
        self._update()

    def _build(self) -> None:
        add = QPushButton("Add →")
        add.setToolTip("Add the selected template, this many times (double-click adds one)")
        add.clicked.connect(self.add_chosen)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove_chosen)
        left, right = QVBoxLayout(), QVBoxLayout()
        left.addWidget(QLabel("Library (bundled and yours)"))
        left.addWidget(self.library, 1)
        row = QHBoxLayout()
        row.addWidget(self.count)
        row.addWidget(add)
        left.addLayout(row)
        right.addWidget(QLabel(f"On {self.base.name} ({self.base.map.width}×"
                               f"{self.base.map.height})"))
        right.addWidget(self.chosen_list, 1)
        right.addWidget(remove)
        lists = QHBoxLayout()
        lists.addLayout(left)
        lists.addLayout(right)
        buttons = _ok_cancel(self, "Create encounter")
        layout = QVBoxLayout(self)
        layout.addLayout(lists, 1)
        layout.addWidget(self.balance)
        explain = QLabel(EXPLAIN_BALANCE)
        explain.setWordWrap(True)
        explain.setEnabled(False)
        layout.addWidget(explain)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        resize_within_screen(self, 620, 480)

    def add(self, name: str, count: int = 1) -> None:
        self.picked.append((self.templates[name], count))
        self._update()

    def add_chosen(self) -> None:
        item = self.library.currentItem()
        if item is not None:
            self.add(item.text(), self.count.value())

    def _remove_chosen(self) -> None:
        row = self.chosen_list.currentRow()
        if row >= 0:
            del self.picked[row]
            self._update()

    def build(self) -> Encounter:
        """The base map with the picked creatures: the party on the left quarter, the
        opposition on the right; ValueError when they do not fit."""
        from copy import deepcopy

        encounter = deepcopy(self.base)
        for template, count in self.picked:
            across = 1 if template.combatant.side is Side.PARTY else 3
            near = Cell(encounter.map.width * across // 4, encounter.map.height // 2)
            added = add_templates(encounter, template, near, count)
            added.command.apply(encounter)
        return encounter

    def _update(self) -> None:
        self.chosen_list.clear()
        self.chosen_list.addItems([f"{n} × {t.name} ({t.combatant.side.value})"
                                   for t, n in self.picked])
        try:
            preview = self.build()
        except ValueError as error:
            self.problem.setText(str(error))
            return
        self.problem.clear()
        self.balance.setText(f"<b>At a glance:</b> {describe_balance(balance(preview))}")

    def accept(self) -> None:
        try:
            self.result_encounter = self.build()
        except ValueError as error:
            self.problem.setText(str(error))
            return
        super().accept()
