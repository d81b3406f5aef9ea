"""The round timeline's chips: one per combatant in its side's colour, grey when it strikes
no blow this round; the segment columns they are dropped in; and the one-row strip that
shows them in acting order when the timeline is folded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.map import style
from desktop.qt import (
    QApplication,
    QContextMenuEvent,
    QDrag,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontMetricsF,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMimeData,
    QMouseEvent,
    QPointF,
    Qt,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.combatant import Side
    from core.model.round import InitiativeEntry
    from core.rules.timeline import AttackTiming
from core.rules.turns import acted_note

CHIP_MIME = "application/x-battlemap-token"
#: A chip's name is cut with "…" past this width (the whole name is in its tip).
CHIP_NAME_PX = 96
#: A chip's right-click menu: (text, what it does, ticked or None when not a choice).
MenuEntry = tuple[str, "Callable[[], None]", "bool | None"]


class Chip(QLabel):
    """One combatant on the timeline, in its side's colour; drag it to another segment."""

    def __init__(self, token_id: str, text: str, side: Side | None, tooltip: str,
                 declared: bool = False) -> None:
        """``side`` None: greyed out (no attack this round); ``declared``: a long action
        (spell, prayer) declared, drawn with a dashed outline."""
        super().__init__(text)
        self.token_id = token_id
        self.greyed = side is None
        self.menu_entries: Callable[[], list[MenuEntry]] = list
        self.pick: Callable[[str], None] = lambda _token: None  # a click: select it
        self.draggable = True
        self._pressed_at = QPointF()
        colour = style.NO_ATTACK if side is None else style.SIDE_COLOURS[side]
        outline = "border: 2px dashed white; " if declared else ""
        self.setStyleSheet(f"background: {colour.name()}; color: white; border-radius: 4px; "
                           f"{outline}padding: 1px 4px; font-weight: bold")
        self.setToolTip(tooltip)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.menu()
        if menu.actions():
            menu.exec(event.globalPos())

    def menu(self) -> QMenu:
        """The chip's choices (a declared action's length; joining the round), in a menu
        of the window's look: a child of the chip took the chip's colours."""
        menu = QMenu(self.window())
        for text, run, ticked in self.menu_entries():
            action = menu.addAction(text, run)
            if ticked is not None:
                action.setCheckable(True)
                action.setChecked(ticked)
        return menu

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
        if (self.draggable and event.buttons() & Qt.MouseButton.LeftButton
                and moved >= QApplication.startDragDistance()):
            mime = QMimeData()
            mime.setData(CHIP_MIME, self.token_id.encode("utf-8"))
            drag = QDrag(self)
            drag.setMimeData(mime)
            drag.exec(Qt.DropAction.MoveAction)


def chip_for(entry: InitiativeEntry, name: str, side: Side, timing: AttackTiming) -> Chip:
    """A chip in the segment of its strike; grey with the reason when moving took too
    long to attack this round."""
    lines = [f"{name}: {entry.terms.describe()} → segment {entry.segment}"]
    if (entry.moved_ft or not timing.attacks) and timing.reason not in entry.notes:
        lines.append(timing.reason)  # moving, or a condition taken since the roll
    if entry.overridden:
        lines.append("GM override")
    if entry.action_segments > 1:
        lines.append(f"Long action declared: segments {entry.segment}-"
                     f"{entry.segment + entry.action_segments - 1}; a hit then spoils it")
    acted = acted_note(entry)  # "Acted: 1 of 1 action" (002 The fight: one action each)
    lines += [*entry.notes, *([acted] if acted else []), "Click: select it on the map; drag: "
              "another segment; right-click: declare a long action"]
    marks = [f"✦{entry.action_segments}" if entry.action_segments > 1 else "",
             "✎" if entry.overridden else "", "✓" if acted else ""]
    label = " ".join([*(m for m in marks if m), _fitted(name), _idle_mark(timing)]).strip()
    return Chip(entry.token_id, label, side if timing.attacks else None, "\n".join(lines),
                declared=entry.action_segments > 1)


def newcomer_chip(token_id: str, name: str) -> Chip:
    """A creature added after the round's roll: no segment yet, and the chip says why."""
    chip = Chip(token_id, f"? {_fitted(name)}", None,
                f"{name} came onto the map after this round's initiative was rolled, so it "
                "has no segment yet. Right-click: roll its initiative now; otherwise it "
                "joins at the next round's roll.")
    chip.draggable = False
    return chip


def _fitted(name: str) -> str:
    """The name, cut with "…" where it would make the chip too wide."""
    bold = QFont(QApplication.font())
    bold.setBold(True)  # as the chip draws it
    return QFontMetricsF(bold).elidedText(name, Qt.TextElideMode.ElideRight,
                                          CHIP_NAME_PX * style.ui_scale())


def _idle_mark(timing: AttackTiming) -> str:
    """"(no action)" for who does nothing (asleep, knocked out, down), "(no attack)" for
    who acts without striking (rising, getting up, too far to reach)."""
    if timing.attacks:
        return ""
    return "(no action)" if timing.idle else "(no attack)"


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
        _empty(self.box, 1, 1)
        for index, group in enumerate(groups):
            widget = group[0] if len(group) == 1 else together(group)
            self.box.insertWidget(1 + index, widget)
            widget.ensurePolished()  # its style sheet's border and padding: in its size now
            widget.show()  # a layout only shows a new child on the next event loop pass
        self.setStyleSheet(f"SegmentColumn {{ {CURRENT} }}" if current else "")
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


CURRENT = "background: #fff3c4; border: 2px solid #ffc20e"  # the segment being played


class ChipStrip(QWidget):
    """The folded timeline: the chips in one row, in acting order, each segment's behind its
    number (the one being played marked), then the creatures not in the round yet."""

    def __init__(self) -> None:
        super().__init__()
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(4)
        self.current: QLabel | None = None  # the mark of the segment being played

    def show_order(self, segments: list[tuple[int, list[list[Chip]]]], current: int | None,
                   newcomers: list[Chip]) -> None:
        _empty(self.row, 0, 0)
        self.current = None
        if current is not None and current not in dict(segments):  # nobody acts in it
            segments = sorted([*segments, (current, [])], key=lambda pair: pair[0])
        for segment, groups in segments:
            mark = _segment_mark(str(segment), segment == current)
            self.current = mark if segment == current else self.current
            self._add(mark)
            for group in groups:
                self._add(group[0] if len(group) == 1 else together(group, side_by_side=True))
        if newcomers:
            self._add(_segment_mark("not rolled", False))
            for chip in newcomers:
                self._add(chip)
        self.row.addStretch(1)

    def _add(self, widget: QWidget) -> None:
        self.row.addWidget(widget)
        widget.show()  # now: a layout shows a new child only on the next event loop pass


def _segment_mark(text: str, current: bool) -> QLabel:
    mark = QLabel(text)
    mark.setToolTip("The segment being played" if current else "")
    mark.setStyleSheet(f"QLabel {{ {CURRENT}; padding: 0 4px; font-weight: bold }}" if current
                       else "QLabel { color: #666; padding: 0 2px }")
    return mark


def together(chips: list[Chip], side_by_side: bool = False) -> QFrame:
    """Chips of combatants who strike simultaneously, in one frame: stacked in a segment's
    column, side by side in the folded row (which stays one chip high)."""
    frame = QFrame()
    frame.setObjectName("together")
    frame.setStyleSheet("QFrame#together { border: 1px dashed #888; border-radius: 4px }")
    frame.setToolTip("Equal reach: these strike simultaneously (002 Initiative)")
    line = QHBoxLayout(frame) if side_by_side else QVBoxLayout(frame)
    line.setContentsMargins(2, 2, 2, 2)
    line.setSpacing(2)
    for chip in chips:
        line.addWidget(chip)
    return frame


def _empty(layout: QVBoxLayout | QHBoxLayout, lead: int, trail: int) -> None:
    """Take out the layout's items but the first ``lead`` (a column's title) and the last
    ``trail`` (its stretch)."""
    while layout.count() > lead + trail:
        item = layout.takeAt(lead)
        if item is not None and item.widget() is not None:
            item.widget().hide()
            item.widget().deleteLater()
