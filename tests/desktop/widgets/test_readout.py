"""The status bar's cell read-out (desktop.widgets.readout): a new text under the pointer
repaints the read-out alone, not the bar and its buttons; it shows the whole text, grows to
the widest text and takes a new font's measure."""

from __future__ import annotations

from collections import Counter

from pytestqt.qtbot import QtBot

from core.model.grid import Cell
from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, QEvent, QFont, QObject, QToolButton
from desktop.widgets.readout import MARGIN_PX, Readout


class PaintCount(QObject):
    """Paint events per widget."""

    def __init__(self) -> None:
        super().__init__()
        self.painted: Counter[QObject] = Counter()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted[watched] += 1
        return False


def test_a_new_cell_under_the_pointer_repaints_the_read_out_alone(
        qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitExposed(window)
    bar, readout = window.statusBar(), window.cell_label
    cells = [Cell(x, 3) for x in range(2, 8)]  # (3, 3) names the brazier: the widest text
    for cell in cells:  # the read-out grows to the widest once
        window.view.cell_hovered.emit(cell)
    bar.clearMessage()  # the tool's hint, which would end (and repaint the bar) meanwhile
    qtbot.wait(50)  # laid out and repainted
    count = PaintCount()
    buttons = bar.findChildren(QToolButton)
    assert buttons
    for widget in (bar, readout, *buttons):
        widget.installEventFilter(count)
    for cell in cells:
        window.view.cell_hovered.emit(cell)
        QApplication.processEvents()
        assert readout.text().startswith(f"({cell.x}, 3)")
    assert count.painted[readout] >= len(cells)
    assert count.painted[bar] == 0 and not any(count.painted[b] for b in buttons)


def test_the_read_out_grows_to_its_widest_text_and_measures_a_new_font(qtbot: QtBot) -> None:
    readout = Readout()
    qtbot.addWidget(readout)
    readout.setText("a much longer text than the next")
    wide = readout.sizeHint().width()
    assert wide == readout.fontMetrics().horizontalAdvance(readout.text()) + 2 * MARGIN_PX
    readout.setText("short")
    assert readout.sizeHint().width() == wide and readout.accessibleName() == "short"
    font = QFont(readout.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    readout.setFont(font)
    assert readout.sizeHint().width() == readout.fontMetrics().horizontalAdvance("short") \
        + 2 * MARGIN_PX
