"""The Resolve panel: the odds card of the action being prepared, then its dice — rolled by
the seeded generator ("Roll for me") or typed from physical dice ("I rolled"), one field per
die the resolver actually asks for — then the result. The action is a core action resolved
against the document's encounter at the moment of rolling and applied as one undo step; the
panel drops it when the encounter is replaced or a token it names goes."""

from __future__ import annotations

import dataclasses
import sys
from html import escape
from typing import TYPE_CHECKING, Any, TypeGuard

from pydantic import ValidationError

from core.actions.base import Action, Outcome, plan
from core.io.fileio import describe_validation_error
from core.model.dice import (
    DiceError,
    DiceExhaustedError,
    DiceExpression,
    DiceSource,
    DieValueError,
    ScriptedDice,
    SeededDice,
)
from desktop.map.shove_overlay import percent
from desktop.panels.attack_form import AttackForm
from desktop.panels.declines import DeclineBox
from desktop.panels.layout import lay_out_now
from desktop.qt import (
    QButtonGroup,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QIntValidator,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSize,
    QSizePolicy,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from core.actions.attack import AttackAction
    from core.actions.commands import ChangeSet, Command
    from core.rules.attack_odds import AttackOdds
    from core.rules.odds import ShoveOdds
    from desktop.document.document import EncounterDocument

ERROR_STYLE = "color: #c0392b"
MIN_WIDTH_PX = 240
RESULT_LINES = 6  # the "Last result" box never gets shorter than this
IDLE_TEXT = ("Shove (S), Attack (K), Missile (M) or Manoeuvres (B): pick the attacker and "
             "the target on the map, or right-click a token.")


class ResolvePanel(QWidget):
    """Dice and results for every action the GM resolves."""

    applied = Signal(object)  # the Outcome, after it was applied
    began = Signal(object)  # the Action now pending (it replaces any before it)
    cleared = Signal()  # the pending action was resolved, cancelled or dropped
    wants_sight = Signal()  # odds or dice to read: the panel should be in front
    # The tool whose action it was, once it is no longer pending: resolved, cancelled,
    # dropped, or replaced by another's (a shot left waiting while the GM began an attack).
    released = Signal(object)

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self.pending: Action[Any] | None = None
        self.owner: object | None = None  # the tool that began the pending action
        self._shown: Command | None = None  # the step whose result "Last result" shows
        self._shown_text = ""
        self.title = QLabel(IDLE_TEXT)
        self.title.setWordWrap(True)
        self.card = QLabel()
        self.card.setWordWrap(True)
        self.weapon = AttackForm()
        self.weapon.hide()
        self.weapon.changed.connect(self._attack_changed)
        self._base_card = ""  # the tool's card for an attack; its odds line follows the form
        self.roll_mode, self.typed_mode = QRadioButton("Roll for me"), QRadioButton("I rolled")
        self.roll_mode.setToolTip("Dice from the seeded generator: the same seed replays the "
                                  "same rolls")
        self.typed_mode.setToolTip("Type the physical dice; the panel asks for exactly the "
                                   "dice this result needs")
        self.roll_mode.setChecked(True)
        self.modes = QButtonGroup(self)
        self.modes.addButton(self.roll_mode)
        self.modes.addButton(self.typed_mode)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.seed.setToolTip("Seed of the generator: a new one each session, moving on after "
                             "each roll; type a seed to replay its rolls")
        self.dice_form = QFormLayout()
        self.die_fields: list[QLineEdit] = []
        self.message = QLabel()
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.setWordWrap(True)
        self.resolve_button = QPushButton("Resolve")
        self.resolve_button.setToolTip("Roll (or read the typed dice), apply the result, and "
                                       "log it (Enter)")
        self.resolve_button.clicked.connect(self.resolve)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.clear)
        self.declines = DeclineBox(document)
        self.declines.declined.connect(self._show_result)
        self.result = QPlainTextEdit()
        self.result.setReadOnly(True)
        self.result.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._layout()
        # The dock keeps the width the GM gave it: long die names and titles wrap instead
        # of widening it (which would move the map).
        self.setMinimumWidth(MIN_WIDTH_PX)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.dice_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.typed_mode.toggled.connect(self._mode_changed)
        document.replaced.connect(self._encounter_replaced)
        document.changed.connect(self._follow)
        document.history_changed.connect(self._follow_history)
        self._enable(False)

    def _dice_tray(self) -> QHBoxLayout:
        """Any dice, rolled or typed like every other roll, into the log."""
        self.tray = QLineEdit()
        self.tray.setPlaceholderText("Dice tray: 2d6+3, d20…")
        self.tray.setToolTip("Type any dice expression and press Enter: rolled by the seeded "
                             "generator, or asked for when \"I rolled\" is on; the result "
                             "goes in the combat log")
        self.tray.returnPressed.connect(self.roll_tray)
        roll = QPushButton("Roll")
        roll.setToolTip("Roll the dice tray's expression (Enter)")
        roll.clicked.connect(self.roll_tray)
        row = QHBoxLayout()
        row.addWidget(self.tray, 1)
        row.addWidget(roll)
        return row

    def roll_tray(self) -> None:
        text = self.tray.text().strip()
        if not text:
            return
        try:
            DiceExpression.parse(text)
        except DiceError as error:
            self.message.setText(str(error))
            return
        from core.actions.dice import DiceRollAction  # see desktop/__init__

        self.begin_roll(DiceRollAction(text), f"Dice tray: {text}")

    def _layout(self) -> None:
        """Everything in a scroll area: a short dock scrolls instead of squashing the dice
        fields to a few pixels (seen at 1400×900 with "I rolled" on)."""
        inner = QWidget()
        layout = QVBoxLayout(inner)
        layout.addLayout(self._dice_tray())
        layout.addWidget(self.title)
        layout.addWidget(self.card)
        layout.addWidget(self.weapon)
        modes = QGridLayout()  # two rows: fits the narrow dock without clipping
        modes.addWidget(self.roll_mode, 0, 0)
        modes.addWidget(self.seed, 0, 1)
        modes.addWidget(self.typed_mode, 1, 0)
        modes.setColumnStretch(2, 1)
        layout.addLayout(modes)
        layout.addLayout(self.dice_form)
        buttons = QHBoxLayout()
        buttons.addWidget(self.resolve_button)
        buttons.addWidget(self.cancel_button)
        layout.addLayout(buttons)
        layout.addWidget(self.message)  # below the buttons: a message never moves them
        layout.addWidget(self.declines)
        layout.addWidget(QLabel("Last result"))
        layout.addWidget(self.result, 1)
        self.result.setMinimumHeight(self.result.fontMetrics().lineSpacing() * RESULT_LINES)
        self.scroll = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def minimumSizeHint(self) -> QSize:
        """Tall enough for the word-wrapped title and card at the width the dock gives it:
        Qt's own hint leaves their wrapping out, and a short dock would squash the attack
        form's rows."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is None:
            return hint
        return QSize(hint.width(), max(hint.height(),
                                       layout.totalMinimumHeightForWidth(self.width())))

    # --- preparing ------------------------------------------------------------------------
    def forget_preview(self) -> None:
        """An aim given up: no odds card of it, unless an action is pending (a walk-through
        pressed Esc and still read "Kobold shoves Pip S — move the pointer to aim")."""
        if self.pending is None:
            self.card.clear()
            self.title.setText(IDLE_TEXT)

    def show_card(self, html: str) -> None:
        """Show a preview's odds card (a target being aimed at), in front of its sidebar."""
        self.card.setText(html)
        self.wants_sight.emit()

    def preview_shove(self, odds: ShoveOdds) -> None:
        """Show the odds card of a shove being aimed (before any roll)."""
        from core.rules.shove import SuccessLevel

        levels = odds.levels
        hazards = "".join(f"<br>Into {name}: <b>{percent(p)}</b>"
                          for name, p in odds.hazards_entered.items())
        self.show_card(
            f"d20 {odds.attack_bonus:+d} vs FD <b>{odds.target_fd}</b> · Shove Resist "
            f"<b>{odds.shove_resist}</b> · Death Ray save <b>{odds.death_ray_save}</b><br>"
            f"Fail <b>{percent(levels[SuccessLevel.FAIL])}</b> · Success "
            f"<b>{percent(levels[SuccessLevel.SUCCESS])}</b> · Double "
            f"<b>{percent(levels[SuccessLevel.DOUBLE])}</b> · Pushed back "
            f"<b>{percent(odds.moved)}</b><br>"
            f"Slam into a wall: <b>{percent(odds.slam)}</b> · Prone: "
            f"<b>{percent(odds.prone)}</b>{hazards}<br>"
            f"Expected damage: <b>{float(odds.expected_damage):.1f}</b>")
        self.title.setText(f"<b>{odds.attacker}</b> shoves <b>{odds.defender}</b> "
                           f"{odds.direction} — move the pointer to aim, click to confirm")

    def begin(self, action: Action[Any], card: str | None = None,
              owner: object | None = None) -> None:
        """Prepare ``action`` (of the tool ``owner``): roll or type its dice, then Resolve.
        ``card`` replaces the odds card (None keeps what a preview put there)."""
        replaced = self.owner if self.pending is not None else None
        self.pending, self.owner = action, owner
        if card is not None:
            self.card.setText(card)
        self._enable(True)  # before the form, which disables Resolve for a refused attack
        self.weapon.setVisible(_is_attack(action))
        if _is_attack(action):
            self._base_card = self.card.text()
            self.weapon.show_for(self.document.encounter, action.attacker)
            self.weapon.free.setChecked(action.options.surprise)  # a surprise attack is free
            self.weapon.free.setEnabled(not action.options.surprise)
        self.title.setText(f"<b>{action.title(self.document.encounter)}</b> — roll or type "
                           "the dice, then Resolve")
        self.message.clear()
        self._clear_fields()
        self.resolve_button.setFocus()
        if self.typed_mode.isChecked():
            self._ask_next()  # the first die's field takes the focus
        self.began.emit(action)
        self.wants_sight.emit()
        if replaced is not None and replaced is not owner:
            self.released.emit(replaced)

    def begin_roll(self, action: Action[Any], card: str) -> None:
        """A roll with nothing to aim (initiative, surprise): with "Roll for me" it resolves
        at once; with "I rolled" it asks for the dice."""
        self.begin(action, card)
        if self.roll_mode.isChecked():
            self.resolve()

    def _action(self) -> Action[Any]:
        """The pending action with what the attack form says now."""
        assert self.pending is not None
        if _is_attack(self.pending):
            return dataclasses.replace(self.pending, options=self._form_options(self.pending))
        return self.pending

    def _form_options(self, action: AttackAction) -> Any:
        """The attack form's options, still the surprise free attack the action was begun as
        (002 "Surprise": the token menu's "Surprise attack on …")."""
        options = self.weapon.options()
        if action.options.surprise:
            options = options.model_copy(update={"surprise": True, "free": True})
        return options

    def _attack_changed(self) -> None:
        """The attack's exact odds under the tool's card, as the form now stands (or why
        it cannot be made)."""
        action = self.pending
        if not _is_attack(action):
            return
        self.message.clear()  # a refusal of the form as it was
        from core.rules.attack_odds import attack_odds

        try:
            odds = attack_odds(self.document.encounter, action.attacker, action.target,
                               self._form_options(action))
        except (ValueError, LookupError) as error:
            reason = str(error.args[0]) if error.args else str(error)
            self.card.setText(f"{self._base_card}<br><span style='{ERROR_STYLE}'>"
                              f"{escape(reason)}</span>")
            self.resolve_button.setEnabled(False)  # it would only be refused again
            return
        self.resolve_button.setEnabled(True)
        self.card.setText(f"{self._base_card}<br>{attack_card(odds)}")
        if self.typed_mode.isChecked():
            self._clear_fields()
            self._ask_next()

    def clear(self) -> None:
        owner, self.pending, self.owner = self.owner, None, None
        self._clear_fields()
        self.message.clear()
        self.card.clear()
        self.weapon.hide()
        self.title.setText(IDLE_TEXT)
        self._enable(False)
        self.cleared.emit()
        if owner is not None:
            self.released.emit(owner)

    def _enable(self, on: bool) -> None:
        self.resolve_button.setEnabled(on)
        self.cancel_button.setEnabled(on)

    # --- following the document -------------------------------------------------------------
    def _encounter_replaced(self) -> None:
        self.result.clear()
        self._shown = None
        if self.pending is not None:
            self.clear()
            self.message.setText("A different encounter was opened: the action was dropped.")

    def _follow(self, changes: ChangeSet) -> None:
        if self.pending is None or not changes.tokens:
            return
        gone = [t for t in self.pending.tokens() if not self.document.encounter.has_token(t)]
        if gone:
            self.clear()
            self.message.setText("A token of the action is no longer on the map: the action "
                                 "was dropped.")

    def _follow_history(self) -> None:
        """An undone step's result leaves "Last result"; a redo brings it back (a GM's
        walk-through found it empty after the redo)."""
        if self._shown is None:
            return
        text = self._shown_text if self.document.history.is_done(self._shown) else ""
        if self.result.toPlainText() != text:  # not laid out again on every push
            self.result.setPlainText(text)

    # --- dice ------------------------------------------------------------------------------
    def _mode_changed(self, typed: bool) -> None:
        self._clear_fields()
        if typed and self.pending is not None:
            self._ask_next()

    def _clear_fields(self) -> None:
        """Remove the dice fields; deleted later, as one may be delivering the Enter that
        got us here."""
        while self.dice_form.rowCount():
            row = self.dice_form.takeRow(0)
            for item in (row.labelItem, row.fieldItem):
                if item is not None and item.widget() is not None:
                    item.widget().hide()
                    item.widget().deleteLater()
        self.die_fields = []

    def _ask_next(self) -> bool:
        """Add a field for the next die the resolver needs; False when none is missing."""
        try:
            self._action().resolve(self.document.encounter,
                                   ScriptedDice(self._typed_values() or []))
        except DiceExhaustedError as need:
            self._add_field(need.faces, need.purpose)
            return True
        except (DiceError, ValueError, LookupError):
            return False
        return False

    def _add_field(self, faces: int, purpose: str) -> None:
        field = QLineEdit()
        field.setPlaceholderText(f"1–{faces}")
        tip = f"The d{faces} you rolled for {purpose}"
        # A 2d6 fall asks each die for the same purpose: "falling 20 ft" twice read as a
        # mistake in a GM's walk-through.
        again = sum(1 for earlier in self.die_fields if earlier.toolTip() == tip)
        field.setToolTip(tip)
        field.setValidator(QIntValidator(0, 999, field))  # a letter is refused as typed
        field.textEdited.connect(self.message.clear)  # the last refusal is being answered
        field.returnPressed.connect(self.resolve)
        label = QLabel(f"d{faces} · {purpose}" + (f" (die {again + 1})" if again else ""))
        label.setWordWrap(True)
        self.dice_form.addRow(label, field)
        self.die_fields.append(field)
        field.setFocus()
        # The field and the Resolve button under it in sight: with seven dice typed the
        # button was half out of a short dock. (A layout shows a new row's widgets a turn
        # of the event loop later; they are laid out only once shown.)
        label.show()
        field.show()
        lay_out_now()
        self.scroll.ensureWidgetVisible(self.resolve_button)
        self.scroll.ensureWidgetVisible(field)

    def _typed_values(self) -> list[int] | None:
        values = []
        for index, field in enumerate(self.die_fields):
            text = field.text().strip()
            if not text.isdigit():
                self.message.setText(f"Die {index + 1}: type the number it shows")
                field.setStyleSheet("border: 1px solid #c0392b")
                return None
            field.setStyleSheet("")
            values.append(int(text))
        return values

    # --- resolving -------------------------------------------------------------------------
    def _dice(self) -> DiceSource | None:
        if self.roll_mode.isChecked():
            return SeededDice(self.seed.value())
        values = self._typed_values()
        return None if values is None else ScriptedDice(values)

    def resolve(self) -> None:
        if self.pending is None:
            return
        self.message.clear()
        dice = self._dice()
        if dice is None:
            return
        try:
            outcome = plan(self._action(), self.document.encounter, dice)
        except ValidationError as error:  # the weapon form: dice that are not dice
            self.message.setText(describe_validation_error(error))
            return
        except DieValueError as error:
            assert isinstance(dice, ScriptedDice)
            self.die_fields[dice.position].setStyleSheet("border: 1px solid #c0392b")
            self.message.setText(str(error))
            return
        except DiceExhaustedError as need:
            self._add_field(need.faces, need.purpose)
            self.message.setText(f"Also needed: a d{need.faces} for {need.purpose}")
            return
        except (ValueError, LookupError) as error:  # out of reach, not adjacent, bad dice...
            self.message.setText(str(error.args[0]) if error.args else str(error))
            return
        if isinstance(dice, SeededDice):
            self.seed.setValue(self.seed.value() + 1)
        self._apply(outcome)

    def _apply(self, outcome: Outcome[Any]) -> None:
        if not self.document.perform(outcome):
            self.message.setText("The encounter refused the result; nothing was changed.")
            return
        self._show_result(outcome)
        self.clear()
        self.declines.offer(outcome)
        self.applied.emit(outcome)

    def _show_result(self, outcome: Outcome[Any]) -> None:
        self._shown, self._shown_text = outcome.command, outcome.text
        self.result.setPlainText(outcome.text)


def _is_attack(action: object) -> TypeGuard[AttackAction]:
    """Whether ``action`` is a melee attack (it gets the weapon form and its odds). None is
    while its module is not imported: a dice-tray roll or an initiative roll then does not
    load the attack engine on the GUI thread (see desktop/__init__)."""
    attack = sys.modules.get("core.actions.attack")
    return attack is not None and isinstance(action, attack.AttackAction)


def attack_card(odds: AttackOdds) -> str:
    """The odds line of an attack: the roll needed and the chances, with critical, fumble
    and where a hit lands when those options are on."""
    text = (f"{odds.die} {odds.attack_bonus:+d} vs {odds.against} <b>{odds.target}</b> · Hit "
            f"<b>{percent(odds.hit)}</b>")
    if odds.critical:
        text += f" · critical {percent(odds.critical)}"
    if odds.fumble:
        text += f" · fumble {percent(odds.fumble)}"
    if len(odds.locations) == 1:
        text += f" · lands on the {escape(odds.locations[0][0].lower())}"
    return text + "".join(f"<br>{escape(note)}" for note in odds.notes)
