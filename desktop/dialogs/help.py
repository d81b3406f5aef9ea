"""Help > Keyboard shortcuts: every shortcut of the menus and tools in one sheet, with the
map's mouse and key gestures."""

from __future__ import annotations

from desktop.qt import (
    QAction,
    QDialog,
    QDialogButtonBox,
    QMenuBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from desktop.widgets.screen_fit import resize_within_screen
from desktop.widgets.shortcuts import shortcut_text

GESTURES = (
    ("Pan the map", "middle or right drag, Space + drag, arrow keys, two-finger scroll"),
    ("Zoom", "mouse wheel (at the pointer), pinch, Ctrl + wheel on a touchpad"),
    ("Select several tokens", "drag a rubber band, Ctrl + click"),
    ("Place a token anywhere free (GM override)", "Alt + drag"),
    ("Remove the selected tokens", "Delete or Backspace"),
    ("Step back in a tool (drop a target, a waypoint, a drag)", "Esc"),
    ("Token menu (damage, conditions, shove, attack…)", "right-click a token"),
    ("Add a combatant on a cell", "right-click an empty cell"),
    ("Open or close a door", "click it with Select / Move"),
    ("Skip a push animation", "click the map"),
    ("Touch: use the tool (drag a token, paint, measure)", "one finger; a tap clicks"),
    ("Touch: token or cell menu", "long press"),
    ("Touch: zoom and pan", "pinch; two fingers together"),
    ("Player window: pan and zoom it on its own", "drag or wheel on it, or touch it"),
    ("Player window: leave or enter full screen", "Esc, F11 (on the player window)"),
)


class ShortcutSheet(QDialog):
    """A read-only table of commands and their keys."""

    def __init__(self, menu_bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Command", "Keys"])
        self.tree.setRootIsDecorated(True)
        for menu_action in menu_bar.actions():
            menu = menu_action.menu()
            if menu is not None:
                self._section(menu_action.text().replace("&", ""), menu.actions())
        gestures = QTreeWidgetItem(["On the map"])
        gestures.addChildren([QTreeWidgetItem(list(row)) for row in GESTURES])
        self.tree.addTopLevelItem(gestures)
        self.tree.expandAll()
        for column in (0, 1):  # every key sequence whole, not "middle or right drag, Sp…"
            self.tree.resizeColumnToContents(column)
        resize_within_screen(
            self, max(620, self.tree.columnWidth(0) + self.tree.columnWidth(1) + 60), 640)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)

    def _section(self, title: str, actions: list[QAction]) -> None:
        rows = [QTreeWidgetItem([a.text().replace("&", ""), shortcut_text(a)])
                for a in actions if a.shortcuts()]
        if rows:
            section = QTreeWidgetItem([title])
            section.addChildren(rows)
            self.tree.addTopLevelItem(section)

    def rows(self) -> dict[str, str]:
        """Command → keys, every section (for tests)."""
        found = {}
        for index in range(self.tree.topLevelItemCount()):
            section = self.tree.topLevelItem(index)
            for row in range(section.childCount()):
                child = section.child(row)
                found[child.text(0)] = child.text(1)
        return found
