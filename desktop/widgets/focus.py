"""Choice and number boxes the mouse wheel changes only once they have focus (clicked or
tabbed into). Over a box without focus the wheel scrolls the panel around it: a GM's
walk-through scrolled the combatant editor and turned Brannoc's Plate Mail into a Suit
Armor without noticing. A choice box may be narrower than its longest choice (a laptop's
sidebar, the tool bar): the list it drops down always shows every choice whole."""

from __future__ import annotations

from typing import Any

from desktop.qt import QComboBox, QLabel, QSpinBox, Qt, QWheelEvent, QWidget


class _WheelNeedsFocus:
    """Mixed in before a Qt box class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # type: ignore[attr-defined]

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():  # type: ignore[attr-defined]
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()  # on to the panel's scroll area


class FocusComboBox(_WheelNeedsFocus, QComboBox):
    """A :class:`QComboBox` the wheel changes only once it has focus."""

    def showPopup(self) -> None:
        view = self.view()
        view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint()
                             .width())
        super().showPopup()


class FocusSpinBox(_WheelNeedsFocus, QSpinBox):
    """A :class:`QSpinBox` the wheel changes only once it has focus."""


def narrow(box: QComboBox, chars: int) -> QComboBox:
    """``box`` asking room for ``chars`` characters of its choice, whatever the longest
    choice is (sized to it, a choice widened a panel past a laptop's sidebar)."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(chars)
    return box


def buddy_label(text: str, widget: QWidget) -> QLabel:
    """A field's label, with the field's tooltip (clicking it focuses the field)."""
    label = QLabel(text)
    label.setToolTip(widget.toolTip())
    label.setBuddy(widget)
    return label
