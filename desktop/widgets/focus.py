"""Choice and number boxes the mouse wheel changes only once they have focus (clicked or
tabbed into). Over a box without focus the wheel scrolls the panel around it: a GM's
walk-through scrolled the combatant editor and turned Brannoc's Plate Mail into a Suit
Armor without noticing."""

from __future__ import annotations

from typing import Any

from desktop.qt import QComboBox, QSpinBox, Qt, QWheelEvent


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


class FocusSpinBox(_WheelNeedsFocus, QSpinBox):
    """A :class:`QSpinBox` the wheel changes only once it has focus."""
