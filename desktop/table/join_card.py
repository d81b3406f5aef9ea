"""The join address and its QR code in a corner of the players' window, sized to that
window: on a TV across the table a code a sixth of the screen high could not be scanned
from a seat, so the code takes about a third of the window's shorter side (whole multiples
of its modules, so they stay crisp) and the words grow with it."""

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
        self.address = QLabel(url)  # for a laptop's browser: small, the code is what is read
        for words in (self.title, self.address):
            words.setAlignment(Qt.AlignmentFlag.AlignCenter)
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
        self.adjustSize()
        self.move(MARGIN, MARGIN)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            self.fit_to(watched)
        return False
