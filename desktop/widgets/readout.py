"""A status-bar read-out whose text changes on every mouse move (the cell under the pointer).

A QLabel there had the whole status bar repainted on each new text: a label's new text asks
its parent to lay it out again, and QStatusBar answers every such request by repainting all
of itself, its buttons and the window behind it (0.55 ms of each drag frame on the big
benchmark map, a sixth of the frame). The read-out is as wide as its widest text so far, so
only a wider text is laid out again; any other repaints the read-out alone, over a
background of its own.
"""

from __future__ import annotations

from desktop.qt import QEvent, QPainter, QPaintEvent, QSize, Qt, QWidget

MARGIN_PX = 4  # each side of the text, as a label's indent in the bar


class Readout(QWidget):
    """One line of plain text, left-aligned, in a box that only grows."""

    def __init__(self) -> None:
        super().__init__()
        self.setAutoFillBackground(True)  # opaque: what lies behind it is not repainted
        self._text = ""
        self._width = 0

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        self.setAccessibleName(text)
        self._fit()
        self.update()

    def _fit(self) -> None:
        """Widen to the text if it is wider than any before."""
        wide = self.fontMetrics().horizontalAdvance(self._text) + 2 * MARGIN_PX
        if wide > self._width:
            self._width = wide
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(self._width, self.fontMetrics().height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:  # the table's UI scale: measured anew
            self._width = 0
            self._fit()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(
            painter, self.rect().adjusted(MARGIN_PX, 0, -MARGIN_PX, 0),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), self.palette(),
            self.isEnabled(), self._text, self.foregroundRole())
