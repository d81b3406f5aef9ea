"""A one-line label that gives up width before anything else in its row: it shows as much
of its text as fits, ends with "…" where it is cut, and keeps the whole text in its tip."""

from __future__ import annotations

from desktop.qt import QLabel, QPainter, QPaintEvent, QSize, QSizePolicy, Qt

#: The width it asks for at most; it takes more when its row has room to spare.
PREFERRED_PX = 160


class ElidedLabel(QLabel):
    """Plain text, cut to the label's width."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def sizeHint(self) -> QSize:
        full = super().sizeHint()
        return QSize(min(full.width(), PREFERRED_PX), full.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.fontMetrics().horizontalAdvance("…") * 4, super().sizeHint().height())

    def shown_text(self) -> str:
        """The text as drawn: whole, or cut with "…"."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()),
                                  self.palette(), self.isEnabled(), self.shown_text(),
                                  self.foregroundRole())
