"""The combatant editor: every field of :class:`core.model.combatant.Combatant`, validated by the
model as the GM types. Only a valid value reaches the document; an invalid one shows the
model's message and leaves the combatant as it was. Typing in one field is one undo step."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import ValidationError

from core.actions.commands import UpdateCombatant
from core.io.fileio import in_plain_words
from core.model.combatant import Combatant, Condition, Side
from core.model.limits import number_range
from core.model.tables import ARMOURS, NO_SHIELD, SHIELDS, SIZES
from desktop.panels.portraits import PortraitRow
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QKeyEvent,
    QLabel,
    QLineEdit,
    QMenu,
    QPaintEvent,
    QSizePolicy,
    QStyle,
    QStyleOptionToolButton,
    QStylePainter,
    Qt,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from desktop.widgets.focus import FocusComboBox, buddy_label, narrow

if TYPE_CHECKING:
    from core.model.encounter import Token
    from desktop.document.document import EncounterDocument

INVALID_STYLE = "border: 1px solid #c0392b; border-radius: 2px;"
WHOLE_NUMBER = re.compile(r"\s*[+-]?\d{1,6}\s*")
COLUMNS = 2  # label/field pairs per grid row: the form fits a laptop's narrow sidebar
COMBO_CHARS = 12  # a choice box shows this many characters of its choice


class NumberField(NamedTuple):
    key: str  # Combatant field, or an Abilities field when ``ability``
    label: str
    tip: str
    ability: bool = False
    optional: bool = False  # an empty field is None (the model's default reading)


ABILITIES = (
    NumberField("strength", "STR", "Strength: HR, FR, FD and Shove Resist", True),
    NumberField("dexterity", "DEX", "Dexterity: AC", True),
    NumberField("constitution", "CON", "Constitution: FD when higher than STR", True),
    NumberField("intelligence", "INT", "Intelligence", True),
    NumberField("wisdom", "WIS", "Wisdom: Insight Defense", True),
    NumberField("charisma", "CHA", "Charisma", True),
)
NUMBERS = (
    NumberField("level", "Level/HD", "Level or Hit Dice: Insight, Shove Resist"),
    NumberField("hp", "HP", "Current hit points (0 or less: down)"),
    NumberField("max_hp", "Max HP", "Maximum hit points"),
    NumberField("hr_slots", "HR slots", "Class Skill slots invested in HR"),
    NumberField("fr_slots", "FR slots", "Class Skill slots invested in FR"),
    NumberField("mastery_rank", "Mastery", "Mastery rank: FD bonus in Defensive Stance"),
    NumberField("hr_magic", "HR magic", "Magic bonus to HR"),
    NumberField("fr_magic", "FR magic", "Magic bonus to FR"),
    NumberField("technique_ac", "Tech. AC", "Active defensive techniques: AC bonus"),
    NumberField("alert", "Alert", "002 Parry and Dodge: the Alert skill (with Rules settings "
                "▸ parry and dodge on)"),
    NumberField("dodge_skill", "Dodge", "002 Dodging: the Dodge skill, for a creature without "
                "a weapon in hand (with Rules settings ▸ parry and dodge on)"),
    NumberField("death_ray_save", "Death ray", "Save vs Death Ray number (d20 ≥ this)"),
    NumberField("reach_ft", "Reach ft", "Reach in feet (shoves need the target in reach)"),
    NumberField("initiative_modifier", "Init. mod", "Modifier to the initiative roll"),
    NumberField("darkvision_ft", "Darkv. ft", "Darkvision in feet: sees unlit cells this near "
                "(what the party sees in the dark, docs/vision.md)"),
)
MORALE = (
    NumberField("morale", "Morale", "002 Morale: 2d10 ≤ this holds; empty: the profile's "
                "default for the opposition, none for a player character", optional=True),
    NumberField("leadership", "Leader +", "A leader: its side's morale + this while it "
                "stands, −3 when it falls; empty: not a leader", optional=True),
)
INJURY = (
    NumberField("wounds", "Wounds", "Wound points taken (002 Damage: every 5th point after "
                "armour, when Rules settings ▸ Injury options ▸ wounds is on)"),
    NumberField("hero_points", "Hero pts", "Hero points left (002: double damage, an "
                "automatic hit or +10 to hit; spent from the Attack and Missile tools)"),
)
ABILITY_KEYS = frozenset(f.key for f in ABILITIES)
NUMBER_FIELDS = {f.key: f for f in (*ABILITIES, *NUMBERS, *MORALE, *INJURY)}
# The words the GM sees beside each field, for messages about it
FIELD_LABELS = {key: f.label for key, f in NUMBER_FIELDS.items()} | {
    "name": "Name", "side": "Side", "size": "Size", "armour": "Armour", "shield": "Shield",
    "weapons": "Weapons", "conditions": "Conditions"}
OPTIONAL_KEYS = frozenset(f.key for f in MORALE if f.optional)
CONDITION_LABELS = {c: c.label.capitalize() for c in Condition}


class CombatantForm(QWidget):
    """Edits the combatant of :attr:`token_id` through ``document.push``."""

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.token_id: str | None = None
        self._loading = False  # refresh() is setting widgets: their signals are not edits
        self._pushing = False  # our own push is being applied (and echoed back to refresh)
        self._session: str | None = None  # the field whose keystrokes merge into one step
        self._merge_key = -1
        self.edits: dict[str, QLineEdit] = {}
        self.combos: dict[str, QComboBox] = {}
        self.checks: dict[Condition, QCheckBox] = {}
        self.portrait = PortraitRow(document)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b; padding: 2px 4px;")
        self.error.setWordWrap(True)
        self.error.setToolTip("Why the last value typed was not applied")
        # Not in this widget's layout: the owner puts it where it stays in sight while the
        # form scrolls (below the form).
        self._build()
        self.show_token(None)

    # --- building ------------------------------------------------------------------------
    def _build(self) -> None:
        name = self._line_edit("name", "Name shown on the token and in the list (1-60 "
                               "characters)")
        self._make_combos()
        self._make_weapons()
        column = QVBoxLayout(self)
        column.setContentsMargins(2, 4, 2, 4)
        column.setSpacing(2)
        column.addLayout(self._identity(name))
        numbers = QGridLayout()
        numbers.setHorizontalSpacing(4)
        numbers.setVerticalSpacing(3)
        row = self._add_numbers(numbers, 0, "Abilities", ABILITIES)
        row = self._add_numbers(numbers, row, "Combat", NUMBERS)
        row = self._add_numbers(numbers, row, "Morale", MORALE)
        self._add_numbers(numbers, row, "Injury", INJURY)
        numbers.setColumnStretch(2 * COLUMNS, 1)  # spare width goes right, fields stay put
        column.addLayout(numbers)
        column.addWidget(_heading("Conditions"))
        ticks = QGridLayout()
        ticks.setVerticalSpacing(2)
        for index, condition in enumerate(Condition):
            box = QCheckBox(CONDITION_LABELS[condition])
            box.setToolTip(f"{CONDITION_LABELS[condition]} (durations live on the timeline)")
            box.toggled.connect(lambda _on: self._edited("conditions"))
            self.checks[condition] = box
            ticks.addWidget(box, index // 2, index % 2)
        column.addLayout(ticks)
        column.addStretch(1)

    def _identity(self, name: QLineEdit) -> QFormLayout:
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # a label over its
        # field where the sidebar is too narrow for both side by side
        form.setVerticalSpacing(3)
        form.addRow(buddy_label("Name", name), name)
        for key in ("side", "size"):
            form.addRow(buddy_label(key.title(), self.combos[key]), self.combos[key])
        for key in ("armour", "shield"):
            form.addRow(buddy_label(key.title(), self.combos[key]), self.combos[key])
        form.addRow(buddy_label("Weapons", self.weapons), self.weapons)
        form.addRow("Portrait", self.portrait)
        return form

    def _make_weapons(self) -> None:
        """A one-line list whose menu ticks the weapons carried, from the encounter's table."""
        self.weapons = WeaponsButton()
        self.weapons.menu().aboutToShow.connect(self._fill_weapon_menu)
        self._carried: tuple[str, ...] = ()

    def _fill_weapon_menu(self) -> None:
        menu = self.weapons.menu()
        menu.clear()
        for weapon in self.document.encounter.weapons:
            action = menu.addAction(weapon.name)
            action.setCheckable(True)
            action.setChecked(weapon.name in self._carried)
            action.toggled.connect(lambda on, name=weapon.name: self._carry(name, on))

    def _carry(self, name: str, on: bool) -> None:
        table = [w.name for w in self.document.encounter.weapons]
        wanted = set(self._carried) - {name} | ({name} if on else set())
        self._carried = tuple(n for n in table if n in wanted)
        self._edited("weapons")

    def _make_combos(self) -> None:
        self._combo("side", "Which side the combatant fights on",
                    [(s.value.title(), s.value, "") for s in Side])
        self._combo("size", "Size category: FD, Shove Resist and footprint on the map",
                    [(f"{spec.label} ({spec.footprint}×{spec.footprint})", size.value,
                      f"FD {spec.fd_modifier:+d}, shove die {spec.shove_die}, Shove Resist "
                      f"base {spec.shove_resist_base}") for size, spec in SIZES.items()])
        self._combo("armour", "Armour worn: AV, FD, wrestling FR and specials",
                    [(spec.label, key, f"AV {spec.av} ({spec.av_missiles} vs missiles), FD "
                      f"{spec.fd_bonus:+d}, wrestling FR {spec.wrestling_fr:+d}. {spec.special}")
                     for key, spec in ARMOURS.items()])
        self._combo("shield", "Shield carried: AC, FD, wrestling FR; no grappling with one",
                    [("None", NO_SHIELD, "No shield")]
                    + [(s.label, k, f"AC {s.ac_bonus:+d}, FD {s.fd_bonus:+d}, wrestling FR "
                        f"{s.wrestling_fr:+d}. {s.special}") for k, s in SHIELDS.items()])

    def _add_numbers(self, grid: QGridLayout, row: int, title: str,
                     fields: tuple[NumberField, ...]) -> int:
        grid.addWidget(_heading(title), row, 0, 1, 2 * COLUMNS)
        for index, spec in enumerate(fields):
            edit = self._number_edit(spec)
            line, pair = row + 1 + index // COLUMNS, index % COLUMNS
            grid.addWidget(buddy_label(spec.label, edit), line, 2 * pair,
                           Qt.AlignmentFlag.AlignRight)
            grid.addWidget(edit, line, 2 * pair + 1)
        return row + 1 + (len(fields) + COLUMNS - 1) // COLUMNS

    def _line_edit(self, key: str, tip: str) -> QLineEdit:
        edit = _FieldEdit()
        edit.escaped.connect(lambda: self._withdraw(key))  # Esc takes back what was typed
        edit.setToolTip(tip)
        edit.textEdited.connect(lambda _text: self._edited(key))
        edit.editingFinished.connect(lambda: self._finished(key))
        self.edits[key] = edit
        return edit

    def _number_edit(self, spec: NumberField) -> QLineEdit:
        edit = self._line_edit(spec.key, self._tip(spec))
        edit.setAlignment(Qt.AlignmentFlag.AlignRight)
        edit.setFixedWidth(edit.fontMetrics().horizontalAdvance("-9999") + 8)
        return edit

    def _combo(self, key: str, tip: str, choices: list[tuple[str, str, str]]) -> None:
        """A choice whose item data is the model's value; each item explains itself."""
        combo = FocusComboBox()
        combo.setToolTip(tip)
        for index, (text, value, item_tip) in enumerate(choices):
            combo.addItem(text, value)
            combo.setItemData(index, item_tip or text, Qt.ItemDataRole.ToolTipRole)
        narrow(combo, COMBO_CHARS)
        combo.currentIndexChanged.connect(lambda _index: self._edited(key))
        self.combos[key] = combo

    def _tip(self, spec: NumberField) -> str:
        low, high = self._bounds(spec)
        return f"{spec.tip} ({low} to {high}; typing validates)"

    def _bounds(self, spec: NumberField) -> tuple[int, int]:
        """The allowed range, read from the model so the tooltips cannot drift from it."""
        if spec.ability:
            return self.document.encounter.profile.ability_range
        return number_range(Combatant, spec.key)

    # --- showing -------------------------------------------------------------------------
    def show_token(self, token_id: str | None) -> None:
        self.token_id = token_id
        self._session = None
        self.refresh()

    def token(self) -> Token | None:
        encounter = self.document.encounter
        if self.token_id is None or not encounter.has_token(self.token_id):
            return None
        return encounter.token(self.token_id)

    def refresh(self) -> None:
        """Show the model's values; an undo or an outside edit also ends the typing session."""
        if not self._pushing:
            self._session = None
        token = self.token()
        for widget in self._inputs():
            # The inputs, not the whole form: disabling the form greyed (and repainted)
            # its forty labels and headings too on every click on a token.
            widget.setEnabled(token is not None)
        self._clear_marks()
        self._clear_error()
        for spec in ABILITIES:  # the encounter's ability table may have changed
            self.edits[spec.key].setToolTip(self._tip(spec))
        self._loading = True
        try:
            if token is None:
                self._blank()
                self.portrait.show_combatant(None, None)
            else:
                self._load(token.combatant)
                self.portrait.show_combatant(token.id, token.combatant)
        finally:
            self._loading = False

    def _blank(self) -> None:
        """Nothing to edit: every field empty. The form stays where it is, disabled, so a
        click on a token fills it in place instead of showing a page of a hundred widgets
        (which laid out and painted the dock twice)."""
        for edit in self.edits.values():
            edit.setText("")
            edit.setPlaceholderText("")
        for combo in self.combos.values():
            combo.setCurrentIndex(-1)
        for box in self.checks.values():
            box.setChecked(False)
        self._carried = ()
        self.weapons.show_list("")

    def _load(self, c: Combatant) -> None:
        for key, edit in self.edits.items():
            value = self._model_value(c, key)
            # Leave the field being typed in alone when it already says this value
            # ("018"), so the cursor does not jump.
            if self._parsed(key) != value:
                edit.setText(str(value))
        for key, combo in self.combos.items():
            combo.setCurrentIndex(combo.findData(str(getattr(c, key))))
        for condition, box in self.checks.items():
            box.setChecked(condition in c.conditions)
        self._carried = c.weapons
        dropped = f" · dropped {', '.join(c.dropped_weapons)}" if c.dropped_weapons else ""
        self.weapons.show_list((", ".join(c.weapons) or "none (bare hands)") + dropped)
        default = self.document.encounter.profile.default_morale
        self.edits["morale"].setPlaceholderText(str(default) if c.side is Side.OPPOSITION
                                                else "PC")
        self.edits["leadership"].setPlaceholderText("—")

    @staticmethod
    def _model_value(c: Combatant, key: str) -> Any:
        value = getattr(c.abilities, key) if key in ABILITY_KEYS else getattr(c, key)
        return "" if value is None else value

    def _parsed(self, key: str) -> Any:
        text = self.edits[key].text()
        if key == "name" or (key in OPTIONAL_KEYS and not text.strip()):
            return text.strip() if key in OPTIONAL_KEYS else text
        return int(text) if WHOLE_NUMBER.fullmatch(text) else None

    # --- editing -------------------------------------------------------------------------
    def _edited(self, key: str) -> None:
        token = self.token()
        if self._loading or token is None:
            return
        try:
            combatant = self._candidate(token.combatant, key)
            self._check_fits(token, combatant)
        except ValidationError as error:
            self._refuse(key, _describe(error))
        except ValueError as error:
            self._refuse(key, str(error))
        else:
            self._apply(token, key, combatant)

    def _candidate(self, current: Combatant, key: str) -> Combatant:
        data = current.model_dump()
        target = data["abilities"] if key in ABILITY_KEYS else data
        target[key] = self._widget_value(key)
        return Combatant.model_validate(
            data, context={"profile": self.document.encounter.profile})

    def _widget_value(self, key: str) -> Any:
        if key in self.combos:
            return self.combos[key].currentData()
        if key == "conditions":
            return frozenset(c for c, box in self.checks.items() if box.isChecked())
        if key == "weapons":
            return self._carried
        if key in OPTIONAL_KEYS and not self.edits[key].text().strip():
            return None
        value = self._parsed(key)
        if value is None:
            raise ValueError(f"{FIELD_LABELS[key]}: enter a whole number")
        if key in NUMBER_FIELDS:
            low, high = self._bounds(NUMBER_FIELDS[key])
            if not low <= value <= high:
                raise ValueError(f"{FIELD_LABELS[key]} must be {low}–{high}")
        return value

    def _check_fits(self, token: Token, combatant: Combatant) -> None:
        """A dry run: UpdateCombatant.apply would raise inside the undo stack."""
        problem = UpdateCombatant.problem(self.document.encounter, token.id, combatant)
        if problem:
            raise ValueError(f"{FIELD_LABELS['size']}: {problem}")

    def _clear_error(self) -> None:
        # setText("") does nothing when the line is already empty, where clear() would lay
        # out the whole dock (and the window around it) again on every click on a token.
        self.error.setText("")

    def _refuse(self, key: str, message: str) -> None:
        self._clear_marks()
        self.error.setText(message)
        self._widget(key).setStyleSheet(INVALID_STYLE)

    def _apply(self, token: Token, key: str, combatant: Combatant) -> None:
        self._clear_marks()
        self._clear_error()
        if combatant == token.combatant:
            return
        if self._session != key:
            self._session, self._merge_key = key, self.document.new_merge_key()
        # The name before the edit: a rename's first keystroke made "Edit B: Name"
        # (keystrokes merge into the first push, which keeps its label).
        label = f"Edit {token.combatant.name}: {FIELD_LABELS.get(key, key.replace('_', ' '))}"
        self._pushing = True
        try:
            self.document.push(UpdateCombatant(token.id, combatant, label), self._merge_key)
        finally:
            self._pushing = False
        if key not in self.edits:
            self._session = None  # a choice or a tick is one step of its own

    def _finished(self, key: str) -> None:
        """Leaving a field ends its undo step; a refused value there puts back the value the
        field had before the typing (not a prefix of what was typed, applied on the way:
        "2" of "25"), and the message stays so the GM can read why."""
        token = self.token()
        if token is not None and self.is_marked(key):
            message = self.error.text()
            self._withdraw(key)
            self.error.setText(f"Not applied: {message}")
        self._session = None

    def _withdraw(self, key: str) -> None:
        """Undo this field's typing session, leaving nothing to redo (as Esc in a spreadsheet
        cell), then show the model's values."""
        if self._session == key:
            self.document.withdraw(self._merge_key)
        self._session = None
        self.refresh()

    # --- marks ---------------------------------------------------------------------------
    def _widget(self, key: str) -> QWidget:
        if key == "conditions":
            return self.checks[Condition.PRONE]  # a set of ticks is always valid; not reached
        if key == "weapons":
            return self.weapons
        return self.edits.get(key) or self.combos[key]

    def is_marked(self, key: str) -> bool:
        return bool(self._widget(key).styleSheet())

    def _inputs(self) -> tuple[QWidget, ...]:
        """Every widget the GM edits with (the portrait row has its own buttons)."""
        return (*self.edits.values(), *self.combos.values(), *self.checks.values(),
                self.weapons)

    def _clear_marks(self) -> None:
        for widget in self._inputs():
            if widget.styleSheet():
                widget.setStyleSheet("")


class WeaponsButton(QToolButton):
    """The weapons carried, one line, opening a menu of ticks. The list is painted, not
    the button's text: a new text laid out the whole form on every click on a token
    (1.3 ms a click on a big map, issue 18); the button keeps one text for its size."""

    TIP = "Weapons carried: melee reach and damage, missiles (the table: Map ▸ Weapons…)"
    MARGIN_PX = 24  # the menu arrow and the frame

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.listed = ""
        self.setText("—")  # only sizes the button: an empty one was two pixels taller
        self.setToolTip(self.TIP)
        self.setAccessibleName("Weapons")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMenu(QMenu(self))

    def show_list(self, text: str) -> None:
        """Show ``text`` (cut short where the form is narrow: the tooltip has it whole)."""
        self.listed = text
        self.setAccessibleDescription(text)
        self.setToolTip(f"{self.TIP}<br><b>{escape(text)}</b>" if text else self.TIP)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        option.text = self.fontMetrics().elidedText(
            self.listed, Qt.TextElideMode.ElideRight, max(self.width() - self.MARGIN_PX, 0))
        painter = QStylePainter(self)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ToolButton, option)
        painter.end()


class _FieldEdit(QLineEdit):
    """A field that says when Esc is pressed in it: the form puts back the model's value
    and drops a refused value's message, as in a spreadsheet cell."""

    escaped = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)


def _describe(error: ValidationError) -> str:
    """The model's messages, each about the field by the label beside it ("Morale: ..."),
    not by the model's name for it ("morale: ...")."""
    return "; ".join(_one_problem(item["loc"], in_plain_words(item))
                     for item in error.errors()[:3])


def _one_problem(loc: tuple[int | str, ...], what: str) -> str:
    field = next((FIELD_LABELS[part] for part in reversed(loc) if part in FIELD_LABELS), None)
    return f"{field}: {what}" if field else what


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet("font-weight: bold; color: palette(mid); padding-top: 4px;")
    return label
