"""The round timeline dock: a chip per combatant in acting order, the current segment
marked, buttons for rolling initiative and stepping segments and rounds, and the real-time
declaration timer (002 "The round will start after 2 minutes ... not exceed 2 minutes per
creature"). Folded, it is one row; unfolded, segments 0-11 are columns, and a chip dragged
to another column sets a GM override. Ending a round says first who would lose their turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.actions.round import (
    AdvanceSegment,
    NextRound,
    SetActionLength,
    SetSegmentOverride,
)
from core.rules.timeline import acting_order, entry_timing, newcomers, still_to_act
from desktop.panels.timeline_chips import (
    Chip,
    ChipStrip,
    MenuEntry,
    SegmentColumn,
    chip_for,
    newcomer_chip,
)
from desktop.qt import (
    QEvent,
    QFont,
    QFontMetricsF,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QScrollArea,
    QSize,
    QSizePolicy,
    Qt,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    isValid,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.commands import ChangeSet
    from core.model.profile import RulesProfile
    from desktop.document.document import EncounterDocument
    from desktop.panels.resolve import ResolvePanel


TIME_UP, UNDER_WAY = "Time is up", "Round under way"


class TimerLabel(QLabel):
    """The declaration timer: as wide as its widest text whatever it shows. Its texts
    change as the round goes on, and a row of chips narrowed by "Round under way" at the
    first segment grew a scroll bar and shrank the map under the GM's eyes."""

    def sizeHint(self) -> QSize:
        return self._widened(super().sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._widened(super().minimumSizeHint())

    def _widened(self, hint: QSize) -> QSize:
        bold = QFont(self.font())
        bold.setBold(True)
        plain = QFontMetricsF(self.font())
        widest = max(plain.horizontalAdvance(UNDER_WAY), plain.horizontalAdvance("◷ 00:00"),
                     plain.horizontalAdvance("◷ ") + QFontMetricsF(bold).horizontalAdvance(
                         TIME_UP))
        margins = self.contentsMargins()
        width = math.ceil(widest) + margins.left() + margins.right() + 2 * self.margin()
        return QSize(max(hint.width(), width), hint.height())


class TimelinePanel(QWidget):
    """Everything about the round, kept in step with the document's change sets."""

    expanded_changed = Signal(bool)  # the segment columns shown (True) or folded away

    def __init__(self, document: EncounterDocument, resolve_panel: ResolvePanel,
                 highlight: Callable[[list[str]], None]) -> None:
        super().__init__()
        self.document, self.highlight = document, highlight
        self.resolve_panel = resolve_panel
        self._round_seen = document.encounter.timeline.round_number
        self._countdown_round = 0  # the round whose declarations are being counted down
        self._highlighted: tuple[int, int, int] | None = None
        self.round_label = QLabel()
        self.timer_label = TimerLabel()
        self.seconds_left = 0
        self.extra_seconds = 0  # added this round with "+N min" (capped per creature)
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
            "extra": self._button("+", "More declaration time", self.add_time),
        }
        self.columns: list[SegmentColumn] = []
        self.strip = ChipStrip()
        self.fold = QToolButton()
        self.fold.setCheckable(True)
        self.fold.setAutoRaise(True)
        self.fold.toggled.connect(self.set_expanded)
        self._layout()
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._encounter_replaced)
        self.refresh()

    def _button(self, text: str, tip: str, slot: Callable[[], None]) -> QToolButton:
        """A button as wide as its words (a push button is at least 80 px: the chips
        need the row)."""
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.clicked.connect(lambda _=False: slot())
        return button

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.fold)
        top.addWidget(self.round_label)
        for button in self.buttons.values():
            top.addWidget(button)
        self.strip_area = QScrollArea()
        self.strip_area.setWidget(self.strip)
        self.strip_area.setWidgetResizable(True)
        self.strip_area.setFrameShape(QFrame.Shape.NoFrame)
        self.strip_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.strip_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # the chips outgrew the row, or fit it again: room for the scroll bar, or none
        self.strip_area.horizontalScrollBar().rangeChanged.connect(
            lambda _low, _high: self._fit_height())
        top.addWidget(self.strip_area, 100)
        top.addStretch(1)  # unfolded (no strip), the buttons stay by the round's name
        top.addWidget(self.timer_label)
        self.segments = QWidget()
        row = QHBoxLayout(self.segments)
        row.setContentsMargins(0, 0, 0, 0)
        profile = self.document.encounter.profile
        for segment in range(profile.initiative_min_segment, profile.initiative_max_segment + 1):
            column = SegmentColumn(segment, self.override)
            self.columns.append(column)
            row.addWidget(column)
        # The twelve columns scroll sideways where the window is narrower than they are
        # (1280 x 800 at 150 %): their width once pushed the window past the screen.
        self.segments_area = QScrollArea()
        self.segments_area.setWidget(self.segments)
        self.segments_area.setWidgetResizable(True)
        self.segments_area.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addLayout(top)
        layout.addWidget(self.segments_area)
        self.set_expanded(False)

    @property
    def expanded(self) -> bool:
        return self.fold.isChecked()

    def set_expanded(self, on: bool) -> None:
        """Unfold the segment columns (chips can be dragged between them), or fold the
        timeline to one row with the chips in acting order (the map keeps the height)."""
        self.fold.setChecked(on)
        self.fold.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.fold.setToolTip("Fold the timeline to one row (Ctrl+J)" if on else
                             "Show a column per segment, to drag chips between (Ctrl+J)")
        self.segments_area.setVisible(on)
        self.strip_area.setVisible(not on)
        self._fit_height()
        self.expanded_changed.emit(on)

    def _fit_height(self) -> None:
        """Folded, the dock is exactly its row's height (a fixed vertical size follows the
        row's font and style, table mode's too): the map gets the rest. The chips' strip
        makes room for its scroll bar only when the round is longer than the row, so the
        bar never hides a chip."""
        scroll = self.strip_area.horizontalScrollBar()
        bar = scroll.sizeHint().height() if scroll.maximum() > 0 else 0
        self.strip_area.setFixedHeight(self.strip.sizeHint().height() + bar)
        vertical = QSizePolicy.Policy.Preferred if self.expanded else QSizePolicy.Policy.Fixed
        self.setSizePolicy(QSizePolicy.Policy.Preferred, vertical)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):  # table mode
            self._fit_height()

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
        from core.actions.surprise import SurpriseAction  # see desktop/__init__

        target = self.document.encounter.profile.surprise_spot_target
        self.resolve_panel.begin_roll(
            SurpriseAction(alertness, stealth_bonus, moved_ft),
            f"d20 {alertness} − ambushers' stealth {stealth_bonus} vs {target}, each "
            "character; a failure gives a free attack per failure level.")

    def _round_started(self) -> None:
        self.seconds_left = self.document.encounter.timeline.declaration_seconds
        self.extra_seconds = 0
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
        """End the round, once the GM has heard who would lose their turn, if anyone."""
        encounter = self.document.encounter
        waiting = still_to_act(encounter.timeline, encounter)
        if waiting and not self._confirm_skip(encounter.timeline.round_number,
                                              [still.describe() for still in waiting]):
            return
        self.document.push(NextRound())

    def _confirm_skip(self, round_number: int, waiting: list[str]) -> bool:
        answer = QMessageBox.question(
            self, "End the round?",
            f"Round {round_number} is not over: {_listed(waiting)} "
            f"{'has' if len(waiting) == 1 else 'have'} not acted yet and would lose "
            "the turn. End the round anyway? (Undo brings it back.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def join_round(self) -> None:
        """Roll initiative for the creatures that came onto the map after the roll."""
        from core.actions.initiative import JoinRoundAction  # see desktop/__init__

        self.resolve_panel.begin_roll(
            JoinRoundAction(),
            "The newcomers' initiative as the round's roll would have given it: a d10 − DEX "
            "modifier + personal modifier for each party character; the opposition's take "
            "its one roll of this round.")

    def override(self, token_id: str, segment: int) -> None:
        if any(e.token_id == token_id for e in self.document.encounter.timeline.entries):
            self.document.push(SetSegmentOverride(token_id, segment))

    def declare_action(self, token_id: str, segments: int) -> None:
        self.document.push(SetActionLength(token_id, segments))

    def add_time(self) -> None:
        """002: the GM may delay the round, "though this should not exceed 2 minutes per
        creature" (core.rules.turns.more_declaration_time)."""
        from core.rules.turns import more_declaration_time  # see desktop/__init__

        step = more_declaration_time(self.document.encounter, self.extra_seconds)
        if not step:
            most = duration_text(self.document.encounter.profile.declaration_seconds_per_creature)
            self.document.refused.emit(f"No more declaration time: at most {most} per "
                                       "creature the GM plays (002 Initiative)")
            return
        self.extra_seconds += step
        self.seconds_left += step
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
        self.timer_label.setToolTip("")
        if self.seconds_left:  # short: the chips need the row
            self.timer_label.setText(f"◷ {minutes}:{seconds:02d}")
            self.timer_label.setToolTip(f"Declarations: {minutes}:{seconds:02d} left "
                                        f"({self.buttons['extra'].text()} gives more)")
        elif self.time_up:
            self.timer_label.setText(f"◷ <b>{TIME_UP}</b>")
            self.timer_label.setToolTip("Declarations are closed")
        else:
            on = bool(self.document.encounter.timeline.entries)  # initiative is rolled
            self.timer_label.setText(UNDER_WAY if on else "")

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
        ordered = acting_order(state, encounter)
        order = dict(ordered)
        for column in self.columns:
            groups = [[self._make_chip(token_id) for token_id in group]
                      for group in order.get(column.segment, [])]
            column.set_groups(groups, bool(state.entries)
                              and column.segment == state.current_segment)
        self.strip.show_order(
            [(segment, [[self._make_chip(t) for t in group] for group in groups])
             for segment, groups in ordered],
            state.current_segment if state.entries else None,
            [self._newcomer_chip(token.id, token.name) for token in newcomers(encounter)])
        self._fit_height()
        QTimer.singleShot(0, self._show_current_segment)  # once the row is laid out
        self._show_extra_time(encounter.profile)
        last = encounter.profile.initiative_max_segment
        # Rolling again mid-round is the Round menu's (it asks first): the row's room is
        # the chips'.
        self.buttons["roll"].setVisible(not state.entries)
        self.buttons["segment"].setEnabled(bool(state.entries) and state.current_segment < last)
        self.buttons["round"].setEnabled(bool(state.entries))
        self._highlight_when_the_segment_changes(order.get(state.current_segment, []))

    def _show_extra_time(self, profile: RulesProfile) -> None:
        step = duration_text(profile.declaration_extra_seconds)
        most = duration_text(profile.declaration_seconds_per_creature)
        self.buttons["extra"].setText(f"+{step}")
        self.buttons["extra"].setToolTip(f"More declaration time: {step} a press, at most "
                                         f"{most} per creature the GM plays (Shift+T)")

    def _show_current_segment(self) -> None:
        """The folded row scrolls to the segment being played."""
        if self.strip.current is not None and isValid(self.strip.current):
            self.strip_area.ensureWidgetVisible(self.strip.current, 40, 0)

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
        chip = chip_for(entry, token.name, token.combatant.side,
                        entry_timing(entry, token.combatant, encounter.profile))
        if encounter.timeline.free_attacks:  # 002 Surprise: the free attacks it makes or takes
            from core.rules.surprise import round_notes  # see desktop/__init__

            notes = round_notes(encounter, token_id)
            if notes:
                chip.setToolTip("\n".join([chip.toolTip(), *notes]))
        chip.menu_entries = lambda: self._declarations(token_id)
        chip.pick = lambda chosen: self.highlight([chosen])
        return chip

    def _declarations(self, token_id: str) -> list[MenuEntry]:
        """Declare a long action (spell, prayer) of 2-5 segments, or a normal one; the one
        declared is ticked."""
        declared = self.document.encounter.timeline.entry(token_id).action_segments
        return [("Normal action (1 segment)" if length == 1 else
                 f"Spell or prayer: {length} segments",
                 lambda n=length: self.declare_action(token_id, n), length == declared)
                for length in range(1, 6)]

    def _newcomer_chip(self, token_id: str, name: str) -> Chip:
        chip = newcomer_chip(token_id, name)
        chip.menu_entries = lambda: [("Roll initiative for the newcomers", self.join_round,
                                      None)]
        chip.pick = lambda chosen: self.highlight([chosen])
        return chip


def _listed(names: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def duration_text(seconds: int) -> str:
    """A profile's number of seconds as a GM reads it.

    >>> duration_text(120), duration_text(90), duration_text(45)
    ('2 min', '1 min 30 s', '45 s')
    """
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")
