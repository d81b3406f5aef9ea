"""The combat log: one line per resolution, expandable into every roll and modifier;
saved with the encounter, exportable as Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.io.fileio import write_atomic
from desktop.qt import (
    QFileDialog,
    QHBoxLayout,
    QMessageBox,
    QModelIndex,
    QPushButton,
    QSize,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.actions.commands import ChangeSet
    from core.model.encounter import LogEntry
    from desktop.document.document import EncounterDocument


class _WrappingDelegate(QStyledItemDelegate):
    """Measures each line at the column's width: Qt's tree asks for a row's height without
    one, so a wrapped line would otherwise get a single line's height and end in "…"."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        depth = 0
        parent = index.parent()
        while parent.isValid():
            depth, parent = depth + 1, parent.parent()
        width = self.tree.columnWidth(0) - self.tree.indentation() * (depth + 1)
        option.rect.setSize(QSize(max(width, 40), option.fontMetrics.height()))
        return super().sizeHint(option, index)


class LogPanel(QWidget):
    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        # Where the export dialog opens (the window gives the file side's choice).
        self.start_dir: Callable[[], Path] = Path.home
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        # Long lines wrap to the dock's width rather than end in "…"; each also has its
        # full text as a tooltip.
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setMinimumSectionSize(40)
        self.tree.setItemDelegate(_WrappingDelegate(self.tree))
        self.tree.header().sectionResized.connect(self.tree.doItemsLayout)
        self.export_button = QPushButton("Export Markdown…")
        self.export_button.setToolTip("Save the whole log, with every roll, as a Markdown file")
        self.export_button.clicked.connect(self.export_dialog)
        buttons = QHBoxLayout()
        buttons.addStretch()
        buttons.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addLayout(buttons)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self.refresh)
        self.refresh()

    def _on_changed(self, changes: ChangeSet) -> None:
        if changes.log:
            self.refresh()

    def refresh(self) -> None:
        """Entries are appended or popped at the end, so only the tail changes."""
        log = self.document.encounter.log
        while self.tree.topLevelItemCount() > len(log):
            self.tree.takeTopLevelItem(self.tree.topLevelItemCount() - 1)
        items = [_entry_item(number, log[number])
                 for number in range(self.tree.topLevelItemCount(), len(log))]
        if items:
            # Added at once and scrolled to once: an item scrolled to after each of a
            # 10,000-entry log's items took 5 s to open it.
            self.tree.addTopLevelItems(items)
            self.tree.scrollToItem(items[-1])

    def export_to(self, path: Path) -> None:
        from core.rules.report import log_markdown  # see desktop/__init__

        write_atomic(path, log_markdown(self.document.encounter).encode("utf-8"))

    def export_dialog(self) -> None:
        """Ask where to write the log (the encounter's folder first), then write it."""
        stem = self.document.path.stem if self.document.path else "combat"
        suggested = self.start_dir() / f"{stem}-log.md"
        name, _ = QFileDialog.getSaveFileName(self, "Export combat log", str(suggested),
                                              "Markdown (*.md)")
        if not name:
            return
        try:
            self.export_to(Path(name))
        except OSError as error:
            QMessageBox.warning(self, "Cannot export", f"{error.strerror or error}")


def _entry_item(number: int, entry: LogEntry) -> QTreeWidgetItem:
    """The log's line ``number``, its breakdown lines under it."""
    item = QTreeWidgetItem([f"{number + 1}. {entry.summary}"])
    item.setToolTip(0, entry.text or entry.summary)
    for line in _detail_lines(entry.summary, entry.text):
        child = QTreeWidgetItem([line.strip()])
        child.setToolTip(0, line.strip())
        item.addChild(child)
    return item


def _detail_lines(summary: str, text: str) -> list[str]:
    """The breakdown lines under an entry (reports repeat the summary and a blank line)."""
    lines = text.splitlines()
    return lines[2:] if lines and lines[0] == summary else [ln for ln in lines if ln.strip()]
