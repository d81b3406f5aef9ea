"""Menus and shortcuts declared as data. (Single-key shortcuts never fire while the GM types
in a text or number field: Qt's line edits, spin boxes and text boxes take printable keys
before any shortcut.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from desktop.qt import (
    QAction,
    QKeySequence,
    QMenu,
    QMenuBar,
    QObject,
)

if TYPE_CHECKING:
    from collections.abc import Callable

Shortcut = str | QKeySequence.StandardKey | tuple[str, ...]


class MenuItem(NamedTuple):
    """One menu command: where it goes, its text, its shortcut, what it does. With
    ``checked``, it is a toggle: ``run`` gets the new state, ``checked`` gives the first."""

    menu: str
    text: str
    shortcut: Shortcut | None
    run: Callable[..., object]
    tip: str = ""
    checked: Callable[[], bool] | None = None


SEPARATOR = "-"


def key_sequences(shortcut: Shortcut | None) -> list[QKeySequence]:
    if shortcut is None:
        return []
    if isinstance(shortcut, tuple):
        return [QKeySequence(s) for s in shortcut]
    return [QKeySequence(shortcut)]


def shortcut_text(action: QAction) -> str:
    """The action's shortcuts as the GM reads them, e.g. "Ctrl+Z"."""
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText)
                     for s in action.shortcuts())


def add_items(bar: QMenuBar, menus: dict[str, QMenu], items: list[MenuItem],
              parent: QObject) -> dict[str, QAction]:
    """Create the actions of ``items`` in their menus (created on first use); the actions
    by their text without the accelerator marks."""
    actions: dict[str, QAction] = {}
    for item in items:
        menu = menus.get(item.menu)
        if menu is None:
            menu = menus[item.menu] = bar.addMenu(item.menu)
        if item.text == SEPARATOR:
            menu.addSeparator()
            continue
        action = QAction(item.text, parent)
        action.setShortcuts(key_sequences(item.shortcut))
        if item.checked is None:
            action.triggered.connect(lambda _=False, run=item.run: run())
        else:
            action.setCheckable(True)
            action.setChecked(item.checked())
            action.triggered.connect(item.run)
        with_keys = f" ({shortcut_text(action)})" if action.shortcuts() else ""
        action.setToolTip((item.tip or item.text.replace("&", "")) + with_keys)
        action.setStatusTip(item.tip)
        menu.addAction(action)
        actions[item.text.replace("&", "")] = action
    return actions
