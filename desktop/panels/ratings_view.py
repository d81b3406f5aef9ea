"""Derived ratings of one combatant: each a row ("FD 16") that expands into its terms, with
the whole breakdown in the tooltip, and the armour and shield specials below."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, NamedTuple

from desktop.qt import (
    QFont,
    QHeaderView,
    QPainter,
    QPaintEvent,
    QRect,
    QResizeEvent,
    QSizePolicy,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from core.model.breakdown import Breakdown
    from core.rules.ratings import Ratings


class RatingRow(NamedTuple):
    key: str  # attribute of core.rules.ratings.Ratings
    short: str
    long: str
    bonus: bool  # a bonus added to a roll reads "+3", a defence reads "16"


ROWS: tuple[RatingRow, ...] = (
    RatingRow("hr", "HR", "Hit Rating: bonus to the d20 hit roll", True),
    RatingRow("fr", "FR", "Force Rating: bonus to shoves, slams and wrestling", True),
    RatingRow("ac", "AC", "Armour Class: what a hit roll must reach", False),
    RatingRow("fd", "FD", "Force Defense: what a force roll must reach", False),
    RatingRow("av", "AV", "Armour Value: subtracted from physical damage", False),
    RatingRow("av_missiles", "AV vs missiles", "Armour Value against missiles", False),
    RatingRow("insight", "Insight", "Insight Defense: resists Feints", False),
    RatingRow("shove_resist", "Shove Resist", "Shove Resist (terrain terms are added when "
              "a shove is resolved)", False),
    RatingRow("wrestling_fr", "Wrestling FR", "Force Rating while wrestling (armour and "
              "shield penalties)", True),
)


class RatingsView(QWidget):
    """The ratings tree; :meth:`show_ratings` updates it in place so rows a GM expanded
    stay expanded while they type."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["Rating", "Value", "Source"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setToolTip("Derived ratings; expand a row to see how it is made up")
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        metrics = self.fontMetrics()
        header.resizeSection(0, metrics.horizontalAdvance("Armour (Plate Mail)")
                             + 2 * self.tree.indentation() + 8)
        header.resizeSection(1, metrics.horizontalAdvance("Value") + 16)
        bold = QFont(self.font())
        bold.setBold(True)
        self.items: dict[str, QTreeWidgetItem] = {}
        for row in ROWS:
            item = QTreeWidgetItem([row.short, ""])
            item.setFont(0, bold)
            item.setFont(1, bold)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
            self.items[row.key] = item
        self.tree.addTopLevelItems(list(self.items.values()))
        self.specials = WrappedNote()
        self.specials.setToolTip("Named properties of the armour and shield worn")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree)
        layout.addWidget(self.specials)

    def show_ratings(self, ratings: Ratings | None) -> None:
        """Show ``ratings``; None (nothing selected) blanks the values and their terms.
        Nothing is disabled and no row is removed then: greying the view and rebuilding
        the term rows after every empty selection cost a click 1.5 ms (issue 18)."""
        for row in ROWS:
            item = self.items[row.key]
            breakdown: Breakdown | None = getattr(ratings, row.key) if ratings else None
            item.setText(1, _number(breakdown.value, row.bonus) if breakdown else "")
            item.setToolTip(0, _tooltip(row, breakdown))
            item.setToolTip(1, item.toolTip(0))
            _set_terms(item, breakdown)
        specials = ratings.specials if ratings else ()
        self.specials.setText("\n".join(f"• {s}" for s in specials))

    def value_text(self, key: str) -> str:
        """The row as a GM reads it, e.g. ``"FD 16"``."""
        item = self.items[key]
        return f"{item.text(0)} {item.text(1)}"


class WrappedNote(QWidget):
    """Word-wrapped plain text that asks for a new height only when a text needs one, and
    keeps its room while blank: a QLabel lays out its parents up to the window on every
    new text, and the specials changed on most clicks on a token (a millisecond a click,
    issue 18; shrinking to nothing when the selection went moved the tree too)."""

    FLAGS = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(0)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        self._text = text
        self._fit()
        self.update()

    def _fit(self) -> None:
        if not self._text:
            return
        bounds = QRect(0, 0, max(self.width(), 1), 1 << 20)
        needed = self.fontMetrics().boundingRect(bounds, self.FLAGS, self._text).height()
        if needed != self.height():
            self.setFixedHeight(needed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if event.size().width() != event.oldSize().width():
            self._fit()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawText(self.rect(), self.FLAGS, self._text)
        painter.end()


def _number(value: int, signed: bool) -> str:
    return f"{value:+d}" if signed else str(value)


def _tooltip(row: RatingRow, breakdown: Breakdown | None) -> str:
    if breakdown is None:
        return row.long
    lines = [f"<b>{escape(row.long)}</b>", escape(breakdown.describe())]
    lines += [f"{escape(t.name)} {t.value:+d} <i>({escape(t.source)})</i>"
              for t in breakdown.terms]
    return "<br>".join(lines)


def _set_terms(item: QTreeWidgetItem, breakdown: Breakdown | None) -> None:
    """Reuse child rows (only the tail is added or removed) so the parent keeps its
    expanded state; with no breakdown the rows stay, blank, for the next token."""
    if breakdown is None:
        for index in range(item.childCount()):
            child = item.child(index)
            assert child is not None
            for column in range(3):
                child.setText(column, "")
                child.setToolTip(column, "")
        return
    terms = breakdown.terms
    while item.childCount() > len(terms):
        item.takeChild(item.childCount() - 1)
    while item.childCount() < len(terms):
        new = QTreeWidgetItem()
        new.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
        item.addChild(new)
    for index, term in enumerate(terms):
        child = item.child(index)
        assert child is not None
        child.setText(0, term.name)
        child.setText(1, f"{term.value:+d}")
        child.setText(2, rule_name(term.source))
        for column in range(3):
            child.setToolTip(column, f"{term.name} {term.value:+d} — {cited(term.source)}")


SEEDS = {"000": "Combat Ratings (seed 000)", "002": "Combat (seed 002)",
         "RD": "rules decisions", "GM": "the GM"}


def rule_name(source: str) -> str:
    """The rule a term comes from, without its seed code: "000 FD Formula: STR or CON" →
    "FD Formula"."""
    code, _, rest = source.partition(" ")
    rule = rest if code in SEEDS else source
    return rule.split(":")[0].strip() or source


def cited(source: str) -> str:
    """The full reference, the seed named: "000 FD Formula: ..." → "Combat Ratings (seed
    000) · FD Formula: ..."."""
    code, _, rest = source.partition(" ")
    return f"{SEEDS[code]} · {rest}" if code in SEEDS and rest else source
