"""The join address and its QR code in a corner of the players' window, sized to that
window: on a TV across the table a code a sixth of the screen high could not be scanned
from a seat, so the code takes about a third of the window's shorter side (whole multiples
of its modules, so they stay crisp) and the words grow with it. The card is as wide as the
code: the address wraps where a line is full, within its 32-letter key too (in a small
window its one line made the card half the window wide)."""

from __future__ import annotations

from desktop.qt import QEvent, QFrame, QLabel, QObject, QPixmap, Qt, QVBoxLayout, QWidget

SHARE_OF_SHORTER_SIDE = 1 / 3
MARGIN = 16


class JoinCard(QFrame):
    """White card with the QR code and "Join on your phone" above the address."""

    def __init__(self, window: QWidget, code: QPixmap, url: str) -> None:
        super().__init__(window)
        self.code = code
        self.setStyleSheet("background: white; color: black;")
        layout = QVBoxLayout(self)
        self.picture = QLabel()
        layout.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignHCenter)
        self.title = QLabel("<b>Join on your phone</b>")
        # For a laptop's browser: small, the code is what is read.
        self.address = QLabel(breakable(url))
        for words in (self.title, self.address):
            words.setAlignment(Qt.AlignmentFlag.AlignCenter)
            words.setWordWrap(True)
            layout.addWidget(words)
        window.installEventFilter(self)
        self.fit_to(window)
        self.show()
        self.raise_()

    def fit_to(self, window: QWidget) -> None:
        """The code's size and the words' from the window's shorter side."""
        shorter = min(window.width(), window.height())
        times = max(1, round(shorter * SHARE_OF_SHORTER_SIDE / max(self.code.width(), 1)))
        side = self.code.width() * times
        self.picture.setPixmap(self.code.scaled(side, side, Qt.AspectRatioMode.KeepAspectRatio,
                                                Qt.TransformationMode.FastTransformation))
        for words, pixels in ((self.title, side // 12), (self.address, side // 26)):
            font = words.font()
            font.setPixelSize(max(12, pixels))
            words.setFont(font)
            words.setFixedWidth(side)
        self.adjustSize()
        self.move(MARGIN, MARGIN)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            self.fit_to(watched)
        return False


def breakable(url: str) -> str:
    """``url`` with a zero-width space between its characters: it may wrap after any."""
    return "\u200b".join(url)
