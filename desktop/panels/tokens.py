"""The Combatants panel: the combatants grouped by side, kept in step with the map's
selection; the editor and derived ratings of the selected one; adding from the template
library (the window's library dialog), a new blank combatant, keeping one in the GM's
bestiary, and removing.

The list is updated one token at a time from the document's change sets (an encounter may
hold hundreds of tokens); only a different encounter rebuilds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from core.actions.commands import ChangeSet, RemoveToken
from core.io.fileio import describe_validation_error
from core.model.combatant import Combatant, Side
from core.model.grid import Cell
from core.model.tables import SIZES
from core.rules.melee import ratings_here
from desktop.map import style
from desktop.map.items import why_idle
from desktop.panels.combatant_form import CONDITION_LABELS, CombatantForm
from desktop.panels.context_menus import add_combatant
from desktop.panels.layout import lay_out_now
from desktop.panels.ratings_view import RatingsView
from desktop.qt import (
    QAbstractItemView,
    QColor,
    QFont,
    QFrame,
    QGuiApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    Qt,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
    Signal,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from core.model.encounter import Token
    from desktop.document.document import EncounterDocument
    from desktop.document.selection import SelectionModel

TOKEN_ROLE = Qt.ItemDataRole.UserRole
GROUP_TITLES = {Side.PARTY: "Party", Side.OPPOSITION: "Opposition"}
HURT, DOWN = "#b7791f", "#c0392b"
HIDDEN = "#8a8f98"  # a token the players do not see (GM only)


class CombatantList(QTreeWidget):
    """Rows of combatants under a "Party" and an "Opposition" heading."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setColumnCount(3)
        self.setHeaderLabels(["Name", "HP", "Cond."])
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setUniformRowHeights(True)  # cheap layout with hundreds of rows
        self.setRootIsDecorated(False)
        self.setIndentation(10)
        self.setToolTip("Combatants by side. Click to select on the map; double-click to "
                        "centre the map on one; Ctrl/Shift-click to select several.")
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed widths: ResizeToContents would measure every row on every change.
        # Narrow enough for a laptop's sidebar: a wound count is cut short ("…"), its tip says.
        for column, sample in ((1, "-99/999"), (2, "DS KO Up")):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, self.fontMetrics().horizontalAdvance(sample) + 16)
        self.groups: dict[Side, QTreeWidgetItem] = {}
        self.rows: dict[str, QTreeWidgetItem] = {}

    def rebuild(self, tokens: list[Token]) -> None:
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            self.rows = {}
            self.groups = {side: self._group(side) for side in Side}
            for side, group in self.groups.items():
                group.addChildren([self._row(t) for t in tokens if t.combatant.side == side])
            self._retitle()
        finally:
            self.setUpdatesEnabled(True)

    def _group(self, side: Side) -> QTreeWidgetItem:
        group = QTreeWidgetItem([GROUP_TITLES[side]])
        group.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a heading, not a selectable row
        font = QFont(self.font())
        font.setBold(True)
        group.setFont(0, font)
        group.setForeground(0, style.SIDE_COLOURS[side])
        self.addTopLevelItem(group)
        group.setFirstColumnSpanned(True)
        group.setExpanded(True)
        return group

    def _row(self, token: Token) -> QTreeWidgetItem:
        item = QTreeWidgetItem()
        item.setData(0, TOKEN_ROLE, token.id)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight)
        self.rows[token.id] = item
        _fill(item, token)
        return item

    def sync(self, token_id: str, token: Token | None) -> None:
        """Add, update, move to the other side, or drop the row of one token."""
        item = self.rows.get(token_id)
        if token is None:
            if item is not None:
                self.rows.pop(token_id)
                _detach(item)
        elif item is None:
            self.groups[token.combatant.side].addChild(self._row(token))
        else:
            _fill(item, token)
            group = self.groups[token.combatant.side]
            if item.parent() is not group:
                selected = item.isSelected()
                _detach(item)
                group.addChild(item)
                item.setSelected(selected)
        self._retitle()

    def _retitle(self) -> None:
        for side, group in self.groups.items():
            group.setText(0, f"{GROUP_TITLES[side]} ({group.childCount()})")

    def selected_ids(self) -> list[str]:
        return [i.data(0, TOKEN_ROLE) for i in self.selectedItems() if i.data(0, TOKEN_ROLE)]

    def select_ids(self, ids: set[str]) -> None:
        """Change only the rows that differ: a rubber band may select hundreds of tokens
        one signal at a time."""
        current = {i.data(0, TOKEN_ROLE): i for i in self.selectedItems()}
        for token_id, item in current.items():
            if token_id not in ids:
                item.setSelected(False)
        added = [self.rows[i] for i in ids - current.keys() if i in self.rows]
        for item in added:
            item.setSelected(True)
        if added:
            self.scrollToItem(added[-1])


def _fill(item: QTreeWidgetItem, token: Token) -> None:
    c = token.combatant
    item.setText(0, f"{c.name} (hidden)" if token.gm_only else c.name)
    item.setData(0, Qt.ItemDataRole.ForegroundRole, QColor(HIDDEN) if token.gm_only else None)
    # "wp", not "2W": a "W" beside the Cond column's badges read as a condition
    item.setText(1, f"{c.hp}/{c.max_hp}" + (f" · {c.wounds} wp" if c.wounds else ""))
    badges = [style.CONDITION_BADGES[x][0] for x in sorted(c.conditions)]
    item.setText(2, " ".join(["Down", *badges] if c.hp <= 0 else badges))
    colour = DOWN if c.hp <= 0 else HURT if c.hp * 2 <= c.max_hp else None
    item.setData(1, Qt.ItemDataRole.ForegroundRole, QColor(colour) if colour else None)
    conditions = ", ".join(CONDITION_LABELS[x] for x in sorted(c.conditions)) or "none"
    tip = (f"<b>{c.name}</b> ({SIZES[c.size].label} {c.side.value}) at {tuple(token.cell)}"
           f"<br>HP {c.hp} of {c.max_hp}" + (f" · wound points {c.wounds}" if c.wounds else "")
           + (f" · hero points {c.hero_points}" if c.hero_points else "")
           + f"<br>Conditions: {conditions}" + why_idle(c)
           + ("<br>Hidden from the players" if token.gm_only else ""))
    for column in range(3):
        item.setToolTip(column, tip)


def _detach(item: QTreeWidgetItem) -> None:
    parent = item.parent()
    if parent is not None:
        parent.removeChild(item)


class TokenPanel(QWidget):
    """The "Combatants" dock: list, editor, ratings and the add/remove buttons."""

    centre_requested = Signal(str)  # token id: the window centres the view on it
    library_requested = Signal()  # the Library button: the window opens the library
    keep_requested = Signal(str)  # token id: save its combatant to the GM's bestiary

    def __init__(self, document: EncounterDocument, selection: SelectionModel,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.selection = document, selection
        self.placement_hint: Callable[[], Cell] = self._map_centre
        self.list = CombatantList()
        self.form = CombatantForm(document)
        self.ratings = RatingsView()
        self.editing = QLabel()  # whom the form edits, or why it is empty
        self.editing.setStyleSheet("color: palette(mid); padding: 4px 4px 0px 4px;")
        # One line whatever the name: a new text never moves the form below it.
        self.editing.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.message = QLabel()
        self.message.setStyleSheet(f"color: {DOWN};")
        self.message.setWordWrap(True)
        self._held = self._stale = False  # a button is down on the map; what waits for it
        self._held_buttons = False  # the press that holds it came from real input
        self._build()
        self._connect()
        self.list.rebuild(document.encounter.tokens)
        self._show_selection()

    # --- building ------------------------------------------------------------------------
    def _build(self) -> None:
        add = _button("Library…", "Add creatures from the bundled templates and your "
                      "bestiary (searchable), near the centre of the view")
        add.clicked.connect(self.library_requested)
        self.keep_button = _button("Keep", "Save the selected combatant to your bestiary "
                                   "(also: right-click a token > Save to bestiary…)")
        self.keep_button.clicked.connect(lambda: self.keep_requested.emit(
            self.form.token_id or ""))
        self.new_button = _button("New", "Add a blank combatant named \"New combatant\"")
        self.new_button.clicked.connect(lambda: self.add_combatant(
            Combatant(name="New combatant")))
        self.remove_button = _button("Remove", "Remove the selected combatants from the map "
                                     "(undoable)")
        self.remove_button.clicked.connect(self.remove_selected)
        self.add_button = add
        buttons = QHBoxLayout()
        for button in (add, self.keep_button, self.new_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        for index, (widget, stretch) in enumerate(((self.list, 2), (self._editor_pane(), 3),
                                                   (self.ratings, 2))):
            splitter.addWidget(widget)
            splitter.setStretchFactor(index, stretch)
        splitter.setChildrenCollapsible(False)
        # A few lines each at least, not a scroll area's default: on a short screen (1280 x
        # 800 at 150 %) the defaults' sum pushed the window below the screen's edge.
        line = self.fontMetrics().height()
        self.list.setMinimumHeight(3 * line)
        self.ratings.setMinimumHeight(2 * line)
        splitter.setSizes([320, 420, 230])  # about a dozen rows before the list scrolls
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 4, 2, 4)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

    def _editor_pane(self) -> QWidget:
        """The form under a line saying whom it edits, in a scroll area, its error line
        always in sight."""
        editor = QWidget()
        column = QVBoxLayout(editor)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.editing)
        column.addWidget(self.form)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(editor)
        # The form never scrolls sideways: the dock is kept at least as wide as the form.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(editor.minimumSizeHint().width()
                               + scroll.verticalScrollBar().sizeHint().width())
        pane = QWidget()
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.form.error)
        return pane

    def _connect(self) -> None:
        self.document.changed.connect(self._on_changed)
        self.document.replaced.connect(self._on_replaced)
        self.selection.changed.connect(self._selection_changed)
        self.list.itemSelectionChanged.connect(
            lambda: self.selection.set(self.list.selected_ids()))
        self.list.itemDoubleClicked.connect(self._double_clicked)

    # --- document ------------------------------------------------------------------------
    def _on_changed(self, changes: ChangeSet) -> None:
        if changes.timeline and not changes.tokens:
            self._show_selection()  # the round's terms of AC (a lowered guard) may have ended
        if not changes.tokens:
            return
        encounter = self.document.encounter
        self.list.blockSignals(True)  # rows moving between sides are not new selections
        try:
            for token_id in changes.tokens:
                self.list.sync(token_id, encounter.token(token_id)
                               if encounter.has_token(token_id) else None)
            self.list.select_ids(set(self.selection.ids))
        finally:
            self.list.blockSignals(False)
        if self.form.token_id in changes.tokens or self.selection.ids & changes.tokens:
            self._show_selection()

    def _on_replaced(self) -> None:
        self.list.rebuild(self.document.encounter.tokens)
        self._show_selection()

    # --- selection -----------------------------------------------------------------------
    def hold(self) -> None:
        """A button went down on the map: what the press selects is shown when it comes up
        (:meth:`let_go`). A drag's drop shows its token again anyway, and showing it at the
        press took 2-5 ms of the press's frame; a rubber band changed it at every move."""
        self._held = True
        # Real input keeps the buttons' state (synthetic presses and touch report none):
        # a press whose release went elsewhere (a popup) ends the hold once none is down.
        self._held_buttons = QGuiApplication.mouseButtons() != Qt.MouseButton.NoButton

    def let_go(self) -> None:
        """The press is over: show the selection if it changed while held."""
        self._held = False
        if self._stale:
            self._stale = False
            self._selection_changed(self.selection.ids)

    def _deferred(self) -> bool:
        """Whether a press holds the panel (noting that something waits for it). A hold
        whose button is up already (its release went to a popup, or is being handled) ends
        here: what waited, this change included, is shown once."""
        if (self._held and self._held_buttons
                and QGuiApplication.mouseButtons() == Qt.MouseButton.NoButton):
            self._stale = True
            self.let_go()
            return True
        self._stale = self._stale or self._held
        return self._held

    def _selection_changed(self, ids: frozenset[str]) -> None:
        if self._deferred():
            return
        self.list.blockSignals(True)
        try:
            self.list.select_ids(set(ids))
        finally:
            self.list.blockSignals(False)
        self._show_selection()

    def select_tokens(self, ids: set[str]) -> None:
        """Select these tokens in the list and on the map."""
        self.selection.set(ids)

    def _show_selection(self) -> None:
        if self._deferred():
            return
        ids = sorted(self.selection.ids)
        token_id = ids[0] if len(ids) == 1 else None
        if token_id != self.form.token_id:
            self.form.show_token(token_id)
        else:
            self.form.refresh()
        token = self.form.token()
        self.editing.setText(_editing_line(token, len(ids)))
        self.ratings.show_ratings(ratings_here(self.document.encounter, token.id)
                                  if token else None)
        self.remove_button.setEnabled(bool(ids))
        self.keep_button.setEnabled(token is not None)
        lay_out_now()

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        token_id = item.data(0, TOKEN_ROLE)
        if token_id:
            self.centre_requested.emit(token_id)

    # --- adding and removing -------------------------------------------------------------
    def _map_centre(self) -> Cell:
        battle_map = self.document.encounter.map
        return Cell(battle_map.width // 2, battle_map.height // 2)

    def add_combatant(self, template: Combatant) -> str | None:
        """Add ``template`` at the free spot nearest :attr:`placement_hint`, select it and
        return its id; None (with the reason shown) when it cannot be added."""
        encounter = self.document.encounter
        self.message.clear()
        try:  # the encounter's profile may have a different ability table
            combatant = Combatant.model_validate(template.model_dump(),
                                                 context={"profile": encounter.profile})
        except ValidationError as error:
            self.message.setText(f"{template.name}: {describe_validation_error(error)}")
            return None
        token_id = add_combatant(self.document, combatant, self.placement_hint())
        if token_id is not None:
            self.select_tokens({token_id})
        return token_id

    def remove_selected(self) -> None:
        ids = sorted(self.selection.ids)
        if not ids:
            return
        self.message.clear()
        with self.document.group(f"Remove {len(ids)} combatants"):
            for token_id in ids:
                command = RemoveToken(token_id)
                command.label = f"Remove {self.list.rows[token_id].text(0)}"
                self.document.push(command)


def _button(text: str, tip: str) -> QToolButton:
    """A button as wide as its word (a push button is at least 80 px: three did not fit a
    laptop's sidebar)."""
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    return button


def _editing_line(token: Token | None, selected: int) -> str:
    """Whom the form edits, or why it is empty."""
    if token is not None:
        return f"Editing {token.name}"
    if selected > 1:
        return f"{selected} combatants selected: select one to edit it"
    return "Select a combatant in the list or on the map to edit it"
