"""The Weapons dialog: the encounter's weapon table (RD "Missiles": "editable, saved with the
encounter"). Pick a weapon on the left, edit it on the right; each edit is checked by the
core model as it is typed. OK puts the whole table in place as one undo step
(:class:`core.actions.weapons.ReplaceWeapons`); a weapon a combatant carries cannot be
removed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from core.actions.weapons import ReplaceWeapons
from core.io.fileio import describe_validation_error
from core.model.weapons import (
    MAX_RANGE_FT,
    DamageType,
    FlaskEffect,
    Hands,
    MissileKind,
    SpecialDamage,
    Weapon,
)
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.focus import FocusComboBox, FocusSpinBox
from desktop.widgets.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.document.document import EncounterDocument

NO_MELEE = -1
INVALID_STYLE = "border: 1px solid #c0392b;"


class WeaponsDialog(QDialog):
    """Edit a working copy of the weapon table; OK applies it."""

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Weapons")
        self.document = document
        self.table: list[Weapon] = list(document.encounter.weapons)
        self.list = QListWidget()
        self.list.addItems([w.name for w in self.table])
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b")
        self.error.setWordWrap(True)
        self.fields: dict[str, QWidget] = {}
        self._loading = False
        self.invalid = False  # the form shows a weapon the model refuses
        self._layout()
        self.list.currentRowChanged.connect(self._show)
        self.list.setCurrentRow(0)

    # --- building ----------------------------------------------------------------------------
    def _layout(self) -> None:
        add, remove = QPushButton("Add"), QPushButton("Remove")
        add.clicked.connect(self.add_weapon)
        remove.clicked.connect(self.remove_weapon)
        left = QVBoxLayout()
        left.addWidget(self.list)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        left.addLayout(buttons)
        fields = QWidget()
        fields.setLayout(self._form())
        scroll = QScrollArea()  # the form is taller than a laptop's screen at 150 %
        scroll.setWidgetResizable(True)
        scroll.setWidget(fields)
        columns = QHBoxLayout()
        columns.addLayout(left)
        columns.addWidget(scroll, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        layout.addWidget(self.error)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
        box.accepted.connect(self.apply)
        box.rejected.connect(self.reject)
        layout.addWidget(box)
        resize_within_screen(self, self.sizeHint().width() + 40, self.sizeHint().height()
                             + fields.sizeHint().height())

    def _form(self) -> QFormLayout:
        form = QFormLayout()
        rows: list[tuple[str, str, QWidget]] = [
            ("name", "Name", QLineEdit()), ("damage", "Damage dice", QLineEdit()),
            ("damage_type", "Damage type", _choice([t.value for t in DamageType])),
            ("reach_ft", "Melee reach", _spin(NO_MELEE, 60, " ft", "not a melee weapon")),
            ("missile_kind", "Missile", _choice(["no", *[k.value for k in MissileKind]])),
            ("short", "Short range", _spin(1, MAX_RANGE_FT, " ft")),
            ("medium", "Medium range", _spin(1, MAX_RANGE_FT, " ft")),
            ("long", "Long range", _spin(1, MAX_RANGE_FT, " ft")),
            ("miss_ft_per_point", "Miss distance", _spin(0, 20, " ft per point failed")),
            ("accuracy", "Accuracy", _spin(-10, 10, "")),
            ("hands", "Hands", _choice([h.value for h in Hands])),
            ("two_hand_damage", "Two-hand damage", QLineEdit()),
            ("dagger_size", "", QCheckBox("Dagger-sized: usable in a grapple")),
            ("magic_damage", "", QCheckBox("Magic damage: ignores AV")),
            ("flask", "", QCheckBox("A flask: leaves a fire where it lands")),
            ("flask_damage", "Fire damage", QLineEdit()),
            ("flask_rounds", "Fire lasts", _spin(1, 100, " rounds")),
            ("special", "", QCheckBox("Special damage through armour only (poison…)")),
            ("special_name", "Special", QLineEdit()),
            ("special_damage", "Special dice", QLineEdit()),
            ("special_note", "Special does", QLineEdit())]
        for key, label, widget in rows:
            self.fields[key] = widget
            form.addRow(label, widget)
            _on_change(widget, self._edited)
        self.fields["hands"].setToolTip(
            "002 One or two hands — one: one hand only; versatile: one, 1½ or two hands "
            "(chosen in the attack: +1 to hit with more than one, +d3 damage with 1½); two: "
            "two hands only (its two-hand damage always, no to-hit bonus)")
        self.fields["two_hand_damage"].setToolTip(
            "Damage dice added with two hands (002: 'd3 / +d6', weapon dependent)")
        self.fields["special"].setToolTip(
            "002 Special Damage: 'Creatures that cause special damage such as spider poison "
            "only do so if they penetrate your armour' — dice that ignore AV, dealt when the "
            "hit meets AV 0 or rolls at least AV + 2 (Rules settings ▸ Hit location)")
        self.fields["special_note"].setToolTip("What else it does, for the log (the GM plays "
                                               "it), e.g. 'save vs poison or sleep'")
        return form

    # --- showing ------------------------------------------------------------------------------
    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.table):
            return
        self._loading = True
        try:
            for key, value in _values(self.table[row]).items():
                _set(self.fields[key], value)
        finally:
            self._loading = False
        self._mark(None)

    # --- editing ------------------------------------------------------------------------------
    def _edited(self) -> None:
        row = self.list.currentRow()
        if self._loading or not 0 <= row < len(self.table):
            return
        values = {key: _get(widget) for key, widget in self.fields.items()}
        try:
            weapon = _weapon(values)
        except ValidationError as error:
            self._mark(describe_validation_error(error), invalid=True)
            return
        self.table[row] = weapon
        self.list.item(row).setText(weapon.name)
        self._mark(None)

    def _mark(self, problem: str | None, invalid: bool = False) -> None:
        self.error.setText(problem or "")
        self.invalid = invalid
        self.list.setStyleSheet(INVALID_STYLE if invalid else "")

    def add_weapon(self) -> None:
        names = {w.name.casefold() for w in self.table}
        number = 1
        while f"new weapon {number}" in names:
            number += 1
        self.table.append(Weapon(name=f"New weapon {number}", reach_ft=5))
        self.list.addItem(self.table[-1].name)
        self.list.setCurrentRow(len(self.table) - 1)

    def remove_weapon(self) -> None:
        row = self.list.currentRow()
        if not 0 <= row < len(self.table):
            return
        name = self.table[row].name
        carriers = [t.name for t in self.document.encounter.tokens
                    if name in t.combatant.weapons]
        if carriers:
            self._mark(f"{', '.join(carriers)} carries the {name}: take it from them first")
            return
        del self.table[row]
        self.list.takeItem(row)

    def apply(self) -> None:
        """Put the table in place (one undo step) and close; stay open with the reason when
        it cannot be."""
        if self.invalid:
            return
        problem = ReplaceWeapons.problem(self.document.encounter, self.table)
        if problem:
            self._mark(problem)
            return
        if self.table != self.document.encounter.weapons and not self.document.push(
                ReplaceWeapons(self.table)):
            return
        self.accept()


def _values(weapon: Weapon) -> dict[str, Any]:
    short, medium, long = weapon.ranges or (10, 20, 30)
    flask = weapon.flask or FlaskEffect()
    special = weapon.special or SpecialDamage()
    return {"name": weapon.name, "damage": weapon.damage,
            "damage_type": weapon.damage_type.value,
            "reach_ft": NO_MELEE if weapon.reach_ft is None else weapon.reach_ft,
            "missile_kind": weapon.missile_kind.value if weapon.missile_kind else "no",
            "short": short, "medium": medium, "long": long,
            "miss_ft_per_point": weapon.miss_ft_per_point, "accuracy": weapon.accuracy,
            "dagger_size": weapon.dagger_size, "magic_damage": weapon.magic_damage,
            "flask": weapon.flask is not None, "flask_damage": flask.damage,
            "flask_rounds": flask.rounds, "hands": weapon.hands.value,
            "two_hand_damage": weapon.two_hand_damage, "special": weapon.special is not None,
            "special_name": special.name, "special_damage": special.damage,
            "special_note": special.note}


def _weapon(values: dict[str, Any]) -> Weapon:
    """The weapon the form describes (ValidationError when it cannot be one)."""
    missile = values["missile_kind"] != "no"
    return Weapon.model_validate({
        "name": values["name"], "damage": values["damage"],
        "damage_type": values["damage_type"],
        "reach_ft": None if values["reach_ft"] == NO_MELEE else values["reach_ft"],
        "missile_kind": values["missile_kind"] if missile else None,
        "ranges": (values["short"], values["medium"], values["long"]) if missile else None,
        "miss_ft_per_point": values["miss_ft_per_point"], "accuracy": values["accuracy"],
        "dagger_size": values["dagger_size"], "magic_damage": values["magic_damage"],
        "flask": {"damage": values["flask_damage"], "rounds": values["flask_rounds"]}
        if values["flask"] else None,
        "hands": values["hands"], "two_hand_damage": values["two_hand_damage"],
        "special": {"name": values["special_name"], "damage": values["special_damage"],
                    "note": values["special_note"]} if values["special"] else None})


def _spin(low: int, high: int, suffix: str, special: str = "") -> QSpinBox:
    box = FocusSpinBox()
    box.setRange(low, high)
    box.setSuffix(suffix)
    if special:
        box.setSpecialValueText(special)
    return box


def _choice(values: list[str]) -> QComboBox:
    box = FocusComboBox()
    box.addItems(values)
    return box


def _on_change(widget: QWidget, run: Callable[[], None]) -> None:
    if isinstance(widget, QLineEdit):
        widget.textEdited.connect(lambda _text: run())
    elif isinstance(widget, QSpinBox):
        widget.valueChanged.connect(lambda _value: run())
    elif isinstance(widget, QComboBox):
        widget.currentIndexChanged.connect(lambda _index: run())
    elif isinstance(widget, QCheckBox):
        widget.toggled.connect(lambda _on: run())


def _set(widget: QWidget, value: Any) -> None:
    if isinstance(widget, QLineEdit):
        widget.setText(str(value))
    elif isinstance(widget, QSpinBox):
        widget.setValue(int(value))
    elif isinstance(widget, QComboBox):
        widget.setCurrentText(str(value))
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))


def _get(widget: QWidget) -> Any:
    if isinstance(widget, QLineEdit):
        return widget.text().strip()
    if isinstance(widget, QSpinBox):
        return widget.value()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    assert isinstance(widget, QCheckBox)
    return widget.isChecked()
