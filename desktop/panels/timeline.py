"""The round timeline dock: segments 0-11 as columns with a chip per combatant, the current
segment marked, buttons for rolling initiative and stepping segments and rounds, a drag of
a chip to set a GM override, and the real-time declaration timer (002 "The round will start
after 2 minutes ... not exceed 2 minutes per creature")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions.round import (
    AdvanceSegment,
    NextRound,
    SetActionLength,
    SetSegmentOverride,
)
from core.actions.surprise import SurpriseAction
from core.rules.timeline import AttackTiming, acting_order, entry_timing
from desktop.map import style
from desktop.qt import (
    QApplication,
    QContextMenuEvent,
    QDrag,
    QDragEnterEvent,
    QDropEvent,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QMimeData,
    QMouseEvent,
    QPointF,
    QPushButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.commands import ChangeSet
    from core.model.combatant import Side
    from core.model.round import InitiativeEntry
    from desktop.document.document import EncounterDocument
    from desktop.panels.resolve import ResolvePanel

CHIP_MIME = "application/x-battlemap-token"


EXTRA_SECONDS = 120


class Chip(QLabel):
    """One combatant on the timeline, in its side's colour; drag it to another segment."""

    def __init__(self, token_id: str, text: str, side: Side | None, tooltip: str) -> None:
        """``side`` None: greyed out (no attack this round)."""
        super().__init__(text)
        self.token_id = token_id
        self.greyed = side is None
        self.declare: Callable[[str, int], None] = lambda _token, _length: None
        self.pick: Callable[[str], None] = lambda _token: None  # a click: select it
        self._pressed_at = QPointF()
        colour = style.NO_ATTACK if side is None else style.SIDE_COLOURS[side]
        self.setStyleSheet(f"background: {colour.name()}; color: white; border-radius: 4px; "
                           "padding: 1px 4px; font-weight: bold")
        self.setToolTip(tooltip)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Declare a long action (spell, prayer) of 2-5 segments, or a normal one."""
        menu = QMenu(self)
        for length in range(1, 6):
            text = "Normal action (1 segment)" if length == 1 else \
                f"Spell or prayer: {length} segments"
            menu.addAction(text, lambda n=length: self.declare(self.token_id, n))
        menu.exec(event.globalPos())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed_at = event.position()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A click (a drag ends in the drop instead) selects the combatant on the map."""
        if event.button() == Qt.MouseButton.LeftButton:
            self.pick(self.token_id)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        """A drag once the pointer has moved the platform's drag distance (a hand's tremor
        in a click started one, and the click selected nothing)."""
        moved = (event.position() - self._pressed_at).manhattanLength()
        if (event.buttons() & Qt.MouseButton.LeftButton
                and moved >= QApplication.startDragDistance()):
            mime = QMimeData()
            mime.setData(CHIP_MIME, self.token_id.encode("utf-8"))
            drag = QDrag(self)
            drag.setMimeData(mime)
            drag.exec(Qt.DropAction.MoveAction)


TWO_CHIPS_HIGH = 88  # a column shows its title and two chips: never squeezed under the status bar


class SegmentColumn(QFrame):
    """A column for one segment; accepts dropped chips."""

    def __init__(self, segment: int, on_drop: Callable[[str, int], None]) -> None:
        super().__init__()
        self.segment, self.on_drop = segment, on_drop
        self.setAcceptDrops(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumWidth(70)
        self.setMinimumHeight(TWO_CHIPS_HIGH)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(3, 3, 3, 3)
        self.title = QLabel(str(segment))
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.box.addWidget(self.title)
        self.box.addStretch()

    def set_groups(self, groups: list[list[Chip]], current: bool) -> None:
        """Show the chips acting in this segment, longest reach first; combatants of equal
        reach act together (002) and share a frame."""
        while self.box.count() > 2:
            item = self.box.takeAt(1)
            if item is not None and item.widget() is not None:
                item.widget().hide()
                item.widget().deleteLater()
        for index, group in enumerate(groups):
            widget = group[0] if len(group) == 1 else _together(group)
            self.box.insertWidget(1 + index, widget)
            widget.ensurePolished()  # its style sheet's border and padding: in its size now
            widget.show()  # a layout only shows a new child on the next event loop pass
        self.setStyleSheet("SegmentColumn { background: #fff3c4; border: 2px solid #ffc20e }"
                           if current else "")
        # Taller when more act in it: every chip whole (a GM's walk-through: four in one
        # segment were cut in half). The explicit minimum overrides the layout's own.
        self.setMinimumHeight(max(TWO_CHIPS_HIGH, self.box.totalMinimumSize().height()))

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasFormat(CHIP_MIME):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        token_id = bytes(event.mimeData().data(CHIP_MIME).data()).decode("utf-8")
        event.acceptProposedAction()
        self.on_drop(token_id, self.segment)


def _together(chips: list[Chip]) -> QFrame:
    """Chips of combatants who strike simultaneously, in one frame."""
    frame = QFrame()
    frame.setObjectName("together")
    frame.setStyleSheet("QFrame#together { border: 1px dashed #888; border-radius: 4px }")
    frame.setToolTip("Equal reach: these strike simultaneously (002 Initiative)")
    column = QVBoxLayout(frame)
    column.setContentsMargins(2, 2, 2, 2)
    column.setSpacing(2)
    for chip in chips:
        column.addWidget(chip)
    return frame


class TimelinePanel(QWidget):
    """Everything about the round, kept in step with the document's change sets."""

    def __init__(self, document: EncounterDocument, resolve_panel: ResolvePanel,
                 highlight: Callable[[list[str]], None]) -> None:
        super().__init__()
        self.document, self.highlight = document, highlight
        self.resolve_panel = resolve_panel
        self._round_seen = document.encounter.timeline.round_number
        self._countdown_round = 0  # the round whose declarations are being counted down
        self._highlighted: tuple[int, int, int] | None = None
        self.round_label = QLabel()
        self.timer_label = QLabel()
        self.seconds_left = 0
        self.time_up = False  # the countdown ran out and the first segment is still to play
        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._tick)
        self.buttons = {
            "roll": self._button("Roll initiative", "Start a round: roll initiative (I)",
                                 self.roll),
            "segment": self._button("Next segment", "Step to the next second (N)",
                                    self.next_segment),
            "round": self._button("Next round", "End the round: timers tick (Shift+N)",
                                  self.next_round),
            "extra": self._button("+2 min", "More declaration time (2 min per creature)",
                                  self.add_time),
        }
        self.columns: list[SegmentColumn] = []
        self._layout()
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._encounter_replaced)
        self.refresh()

    def _button(self, text: str, tip: str, slot: Callable[[], None]) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.clicked.connect(lambda _=False: slot())
        return button

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.round_label)
        for button in self.buttons.values():
            top.addWidget(button)
        top.addStretch()
        top.addWidget(self.timer_label)
        row = QHBoxLayout()
        profile = self.document.encounter.profile
        for segment in range(profile.initiative_min_segment, profile.initiative_max_segment + 1):
            column = SegmentColumn(segment, self.override)
            self.columns.append(column)
            row.addWidget(column)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(row)

    # --- actions ---------------------------------------------------------------------------
    def roll(self) -> None:
        """Roll initiative, then a critical event for each character tied with the
        opposition (002 "Critical events"), as one undo step — through the Resolve panel,
        so the dice are seeded or typed from the table like every other roll. Mid-round, ask
        first."""
        from core.actions.initiative import InitiativeAction  # see desktop/__init__

        state = self.document.encounter.timeline
        if state.entries and not self._confirm_reroll(state.round_number):
            return
        self.resolve_panel.begin_roll(
            InitiativeAction(),
            "Party: d10 − DEX modifier + personal modifier each; the opposition: one d10, "
            "each creature adding its own modifiers; a tie with the opposition rolls a d30 "
            "critical event.")

    def _confirm_reroll(self, round_number: int) -> bool:
        answer = QMessageBox.question(
            self, "Roll initiative again?",
            f"Round {round_number} is under way. Roll its initiative again? (Undo puts the "
            "current order back.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def surprise(self, alertness: str, stealth_bonus: int, moved_ft: float = 0) -> None:
        """Each party character's Spot save (002 "Surprise"), rolled or typed, logged."""
        target = self.document.encounter.profile.surprise_spot_target
        self.resolve_panel.begin_roll(
            SurpriseAction(alertness, stealth_bonus, moved_ft),
            f"d20 {alertness} − ambushers' stealth {stealth_bonus} vs {target}, each "
            "character; a failure gives a free attack per failure level.")

    def _round_started(self) -> None:
        self.seconds_left = self.document.encounter.timeline.declaration_seconds
        self._countdown_round = self.document.encounter.timeline.round_number
        self.time_up = False
        self.clock.start()
        self._show_timer()

    def _end_declarations_if_over(self) -> None:
        """Declarations last until the first segment is played: a later segment or another
        round (an undo, a redo) ends the countdown."""
        state = self.document.encounter.timeline
        first = self.document.encounter.profile.initiative_min_segment
        declaring = state.round_number == self._countdown_round and (
            not state.entries or state.current_segment == first)
        if not declaring:
            self.clock.stop()
            self.seconds_left, self.time_up = 0, False
        self._show_timer()

    def next_segment(self) -> None:
        self.document.push(AdvanceSegment())

    def next_round(self) -> None:
        self.document.push(NextRound())

    def override(self, token_id: str, segment: int) -> None:
        if any(e.token_id == token_id for e in self.document.encounter.timeline.entries):
            self.document.push(SetSegmentOverride(token_id, segment))

    def declare_action(self, token_id: str, segments: int) -> None:
        self.document.push(SetActionLength(token_id, segments))

    def add_time(self) -> None:
        self.seconds_left += EXTRA_SECONDS
        self._show_timer()

    def _tick(self) -> None:
        self.seconds_left = max(0, self.seconds_left - 1)
        if not self.seconds_left:
            self.clock.stop()
            self.time_up = True
        self._show_timer()

    def _show_timer(self) -> None:
        """The declaration countdown; "Time is up" when it runs out, until the first segment
        is played (a GM's walk-through: the countdown vanished at 0:00 unannounced); then
        "Round under way" — only while there is a round."""
        minutes, seconds = divmod(self.seconds_left, 60)
        if self.seconds_left:
            self.timer_label.setText(f"Declarations {minutes}:{seconds:02d}")
        elif self.time_up:
            self.timer_label.setText("<b>Time is up</b>: declarations are closed")
        else:
            on = bool(self.document.encounter.timeline.entries)  # initiative is rolled
            self.timer_label.setText("Round under way" if on else "")

    def _encounter_replaced(self) -> None:
        """Another encounter: its own round, no countdown left from the previous one."""
        self.clock.stop()
        self.seconds_left, self.time_up = 0, False
        self._round_seen = self.document.encounter.timeline.round_number
        self._countdown_round = 0
        self._show_timer()
        self.refresh()

    # --- display ---------------------------------------------------------------------------
    def _on_changed(self, changes: ChangeSet) -> None:
        # Token edits matter only while a round is on (names, moves); not every keystroke.
        if changes.timeline or (changes.tokens and self.document.encounter.timeline.entries):
            self.refresh()
        round_number = self.document.encounter.timeline.round_number
        if changes.timeline and round_number > self._round_seen:
            self._round_started()
        elif changes.timeline:
            self._end_declarations_if_over()
        self._round_seen = round_number

    def refresh(self) -> None:
        encounter = self.document.encounter
        state = encounter.timeline
        self.round_label.setText(f"<b>Round {state.round_number}</b>" if state.round_number
                                 else "<b>No round yet</b>")
        order = dict(acting_order(state, encounter))
        for column in self.columns:
            groups = [[self._make_chip(token_id) for token_id in group]
                      for group in order.get(column.segment, [])]
            column.set_groups(groups, bool(state.entries)
                              and column.segment == state.current_segment)
        last = encounter.profile.initiative_max_segment
        self.buttons["segment"].setEnabled(bool(state.entries) and state.current_segment < last)
        self.buttons["round"].setEnabled(bool(state.entries))
        self._highlight_when_the_segment_changes(order.get(state.current_segment, []))

    def _highlight_when_the_segment_changes(self, groups: list[list[str]]) -> None:
        """Select who acts when a new segment comes up — not on every edit of a token,
        which would pull the selection (and the form being typed in) away."""
        state = self.document.encounter.timeline
        now = (id(self.document.history), state.round_number, state.current_segment)
        acting = [token_id for group in groups for token_id in group]
        if now != self._highlighted and acting:
            self.highlight(acting)
        self._highlighted = now

    def _make_chip(self, token_id: str) -> Chip:
        encounter = self.document.encounter
        token, entry = encounter.token(token_id), encounter.timeline.entry(token_id)
        chip = _chip(entry, token.name, token.combatant.side,
                     entry_timing(entry, token.combatant, encounter.profile))
        chip.declare = self.declare_action
        chip.pick = lambda chosen: self.highlight([chosen])
        return chip


def _chip(entry: InitiativeEntry, name: str, side: Side, timing: AttackTiming) -> Chip:
    """A chip in the segment of its strike; grey with the reason when moving took too
    long to attack this round."""
    lines = [f"{name}: {entry.terms.describe()} → segment {entry.segment}"]
    if (entry.moved_ft or not timing.attacks) and timing.reason not in entry.notes:
        lines.append(timing.reason)  # moving, or a condition taken since the roll
    if entry.overridden:
        lines.append("GM override")
    if entry.action_segments > 1:
        lines.append(f"Long action: segments {entry.segment}-"
                     f"{entry.segment + entry.action_segments - 1}; a hit then spoils it")
    lines += [*entry.notes, "Click: select it on the map; drag: another segment; "
              "right-click: a long action"]
    marks = [f"✦{entry.action_segments}" if entry.action_segments > 1 else "",
             "✎" if entry.overridden else "", _idle_mark(timing)]
    label = " ".join([name, *(m for m in marks if m)])
    return Chip(entry.token_id, label, side if timing.attacks else None, "\n".join(lines))


def _idle_mark(timing: AttackTiming) -> str:
    """"(no action)" for who does nothing (asleep, knocked out, down), "(no attack)" for
    who acts without striking (rising, getting up, too far to reach)."""
    if timing.attacks:
        return ""
    return "(no action)" if timing.idle else "(no attack)"
