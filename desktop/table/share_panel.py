"""The players' devices panel (View > Share with players' devices…): where to share (this
machine's LAN address or loopback, a port), start and stop, the join address as text and
QR code, the GM's choices (moves at once or on the GM's OK, claims, enemies' HP), the
players with the tokens they play, and the claims and moves waiting for the GM."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.model.combatant import Side
from desktop.qt import (
    QApplication,
    QComboBox,
    QDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPixmap,
    QPushButton,
    QScrollArea,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
)
from desktop.share.address import local_addresses
from desktop.share.table import PendingClaim, PendingMove, ShareSettings
from desktop.widgets.screen_fit import resize_within_screen

if TYPE_CHECKING:
    from collections.abc import Callable

    from desktop.document.document import EncounterDocument
    from desktop.qt import SignalInstance
    from desktop.share.table import ShareTable

LIST_ROWS = 6
QR_PX = 200  # the code's side in the panel: a phone reads it from a metre away
MOVES = (("Apply at once", "apply"), ("Wait for my OK", "approve"))
CLAIMS = (("I approve each claim", "approve"), ("Players take party tokens", "open"))
ENEMY_HP = (("Hidden", "hidden"), ("Unhurt / hurt / bloodied / down", "state"),
            ("Exact numbers", "exact"))


class Sharing(Protocol):
    """What the panel shows and drives: :class:`desktop.table.share.ShareController`."""

    changed: SignalInstance
    document: EncounterDocument
    table: ShareTable | None

    @property
    def running(self) -> bool: ...

    @property
    def url(self) -> str: ...

    def qr_pixmap(self) -> QPixmap: ...

    def chosen_address(self) -> tuple[str, int]: ...

    def share_settings(self) -> ShareSettings: ...

    def set_share_settings(self, settings: ShareSettings) -> None: ...

    def start(self, host: str, port: int) -> str | None: ...

    def stop(self) -> None: ...

    def show_waiting(self, move: PendingMove | None) -> None: ...


class SharePanel(QDialog):
    """A window beside the map (not modal): the GM plays on while it is open."""

    def __init__(self, controller: Sharing, parent: QWidget) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setWindowTitle("Players' devices")
        boxes = QWidget()
        layout = QVBoxLayout(boxes)
        layout.addWidget(self._where_box())  # in play, what the GM answers comes first
        layout.addWidget(self._waiting_box())
        layout.addWidget(self._players_box())
        layout.addWidget(self._join_box())
        layout.addWidget(self._choices_box())
        scroll = QScrollArea()  # a laptop at 150 % holds a third of it: the rest scrolls
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(boxes)
        QVBoxLayout(self).addWidget(scroll)
        controller.changed.connect(self.refresh)
        controller.document.changed.connect(lambda _changes: self._fill_tokens())
        self.refresh()
        hint = boxes.sizeHint()
        resize_within_screen(self, hint.width() + 40, hint.height() + 40)

    # --- building ------------------------------------------------------------------------
    def _where_box(self) -> QGroupBox:
        box = QGroupBox("Share on")
        row = QHBoxLayout(box)
        host, port = self.controller.chosen_address()
        self.host = QComboBox()
        self.host.setEditable(True)
        self.host.addItems(local_addresses())
        self.host.setCurrentText(host)
        self.host.setToolTip("This machine's address on the table's network (the players' "
                             "phones must reach it); 127.0.0.1 for this machine only")
        self.port = QSpinBox()
        self.port.setRange(0, 65535)
        self.port.setSpecialValueText("any free port")
        self.port.setValue(port)
        self.start_button = _button("Start sharing", self._start_or_stop)
        _fill(row, QLabel("Address"), self.host, QLabel("Port"), self.port, self.start_button)
        return box

    def _join_box(self) -> QGroupBox:
        box = QGroupBox("Join address")
        layout = QHBoxLayout(box)
        self.qr = QLabel()
        self.qr.setFixedSize(QR_PX, QR_PX)
        column = QVBoxLayout()
        self.address = QLineEdit()
        self.address.setReadOnly(True)
        self.address.setPlaceholderText("not sharing")
        copy = _button("Copy", lambda: QApplication.clipboard().setText(self.address.text()))
        self.problem = QLabel()
        self.problem.setTextFormat(Qt.TextFormat.PlainText)  # it may hold a player's name
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a01010;")
        how = QLabel("Players open this address (or scan the code) on their phones; anyone "
                     "with it can join the table.")
        how.setWordWrap(True)
        column.addWidget(how)
        column.addWidget(self.address)
        column.addWidget(copy, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.problem)
        column.addStretch()
        layout.addLayout(column, 1)
        layout.addWidget(self.qr)
        return box

    def _choices_box(self) -> QGroupBox:
        box = QGroupBox("Your choices")
        form = QFormLayout(box)
        settings = self.controller.share_settings()
        self.moves = _choice(MOVES, settings.moves)
        self.claims = _choice(CLAIMS, settings.claims)
        self.enemy_hp = _choice(ENEMY_HP, settings.enemy_hp)
        for label, combo in (("Players' moves", self.moves), ("Claims", self.claims),
                             ("Enemies' HP", self.enemy_hp)):
            form.addRow(label, combo)
            combo.currentIndexChanged.connect(self._choices_changed)
        return box

    def _list_box(self, title: str) -> tuple[QGroupBox, QVBoxLayout, QListWidget]:
        """A titled list whose choice enables the buttons under it."""
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        items = QListWidget()
        items.setMaximumHeight(LIST_ROWS * items.fontMetrics().lineSpacing())  # then it scrolls
        items.currentRowChanged.connect(lambda _row: self._enable())
        layout.addWidget(items)
        return box, layout, items

    def _players_box(self) -> QGroupBox:
        box, layout, self.players = self._list_box("Players")
        row = QHBoxLayout()
        self.token = QComboBox()
        self.give = _button("Give token", self._give)
        self.take = _button("Take tokens back", self._take_back)
        self.kick = _button("Remove player", self._kick,
                            "Close their pages and end their seat (they lose their tokens)")
        _fill(row, self.token, self.give, self.take, self.kick)
        layout.addLayout(row)
        return box

    def _waiting_box(self) -> QGroupBox:
        box, layout, self.waiting = self._list_box("Waiting for you")
        self.waiting.itemDoubleClicked.connect(lambda _item: self._approve())
        self.waiting.currentItemChanged.connect(lambda item, _before: self.controller
                                                .show_waiting(_waiting_move(item)))
        row = QHBoxLayout()
        self.approve = _button("Approve", self._approve)
        self.refuse = _button("Refuse", self._refuse)
        _fill(row, self.approve, self.refuse)
        row.addStretch()
        layout.addLayout(row)
        return box

    # --- showing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        controller = self.controller
        running = controller.running
        self.start_button.setText("Stop sharing" if running else "Start sharing")
        if running:  # where it shares, however it was started
            host, port = controller.chosen_address()
            self.host.setCurrentText(host)
            self.port.setValue(port)
        self.host.setEnabled(not running)
        self.port.setEnabled(not running)
        self.address.setText(controller.url)
        self.qr.setPixmap(controller.qr_pixmap().scaled(
            QR_PX, QR_PX, Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.FastTransformation) if running else QPixmap())
        self._fill_players()
        self._fill_waiting()
        self._fill_tokens()
        self._enable()

    def _fill_players(self) -> None:
        table, encounter = self.controller.table, self.controller.document.encounter
        chosen = self._chosen_player()
        self.players.clear()
        for player in (table.players.values() if table else ()):
            names = ", ".join(encounter.token(t).name for t in sorted(player.tokens)
                              if encounter.has_token(t)) or "no token yet"
            online = "online" if player.connections else "offline"
            item = QListWidgetItem(f"{player.name} — {names} ({online})")
            item.setData(Qt.ItemDataRole.UserRole, player.id)
            self.players.addItem(item)
            if player.id == chosen:
                self.players.setCurrentItem(item)

    def _fill_waiting(self) -> None:
        table, encounter = self.controller.table, self.controller.document.encounter
        self.waiting.clear()
        if table is None:
            return
        for claim in table.pending_claims:
            name = encounter.token(claim.token).name if encounter.has_token(claim.token) \
                else claim.token
            self._add_waiting(f"{table.players[claim.player].name} asks to play {name}", claim)
        for move in table.pending_moves:
            name = encounter.token(move.token).name if encounter.has_token(move.token) \
                else move.token
            words = f"{table.players[move.player].name} moves {name} to {tuple(move.goal)}: " \
                    f"{move.label}"
            self._add_waiting(words + (f" — {move.needs_gm}" if move.needs_gm else ""), move)

    def _add_waiting(self, text: str, what: PendingClaim | PendingMove) -> None:
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, what)
        self.waiting.addItem(item)

    def _fill_tokens(self) -> None:
        chosen = self.token.currentData()
        self.token.clear()
        table = self.controller.table
        for token in self.controller.document.encounter.tokens:
            if token.combatant.side is Side.PARTY and not token.gm_only:
                owner = table.owner_of(token.id) if table is not None else None
                self.token.addItem(token.name + (f" ({owner.name} plays)" if owner else ""),
                                   token.id)
        index = self.token.findData(chosen)
        if index >= 0:
            self.token.setCurrentIndex(index)

    def _enable(self) -> None:
        player = self._chosen_player() is not None
        for button in (self.give, self.take, self.kick):
            button.setEnabled(player)
        waiting = self.waiting.currentItem() is not None
        self.approve.setEnabled(waiting)
        self.refuse.setEnabled(waiting)

    def _chosen_player(self) -> str | None:
        item = self.players.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    # --- doing ---------------------------------------------------------------------------
    def _start_or_stop(self) -> None:
        self.problem.clear()
        if self.controller.running:
            if self._sure("Stop sharing", "every page will close and the join address stop "
                          "working (a new start gives a new address)"):
                self.controller.stop()
            return
        problem = self.controller.start(self.host.currentText().strip(), self.port.value())
        self.problem.setText(problem or "")

    def _choices_changed(self) -> None:
        self.controller.set_share_settings(ShareSettings(
            moves=self.moves.currentData(), claims=self.claims.currentData(),
            enemy_hp=self.enemy_hp.currentData()))

    def _give(self) -> None:
        table, player = self.controller.table, self._chosen_player()
        if table is not None and player is not None and self.token.currentData():
            self.problem.setText(table.assign(player, str(self.token.currentData())) or "")

    def _take_back(self) -> None:
        table, player = self.controller.table, self._chosen_player()
        if table is not None and player is not None:
            for token in sorted(table.players[player].tokens):
                table.release(token)

    def _kick(self) -> None:
        table, player = self.controller.table, self._chosen_player()
        if table is not None and player is not None and self._sure(
                f"Remove {table.players[player].name}",
                "their pages will close, their seat end and their tokens be free", player):
            table.kick(player)

    def _sure(self, doing: str, what: str, player: str | None = None) -> bool:
        """Ask before closing a page that is open (a player's, or any): yes or no."""
        table = self.controller.table
        online = [p for p in (table.players.values() if table else ())
                  if p.connections and player in (None, p.id)]
        if not online:
            return True
        names = ", ".join(p.name for p in online)
        answer = QMessageBox.question(self, doing, f"{doing}? Online now: {names}; {what}.")
        return answer == QMessageBox.StandardButton.Yes

    def _waiting_choice(self) -> tuple[ShareTable, PendingClaim | PendingMove] | None:
        table, item = self.controller.table, self.waiting.currentItem()
        if table is None or item is None:
            return None
        return table, item.data(Qt.ItemDataRole.UserRole)

    def _approve(self) -> None:
        chosen = self._waiting_choice()
        if chosen is not None:
            table, what = chosen
            problem = (table.assign(what.player, what.token) if isinstance(what, PendingClaim)
                       else table.approve_move(what))
            self.problem.setText(problem or "")

    def _refuse(self) -> None:
        chosen = self._waiting_choice()
        if chosen is not None:
            table, what = chosen
            if isinstance(what, PendingClaim):
                table.refuse_claim(what)
            else:
                table.refuse_move(what)


def _waiting_move(item: QListWidgetItem | None) -> PendingMove | None:
    """The move a row of *Waiting for you* stands for (None: a claim, or no row)."""
    what = None if item is None else item.data(Qt.ItemDataRole.UserRole)
    return what if isinstance(what, PendingMove) else None


def _button(text: str, clicked: Callable[[], object], tip: str = "") -> QPushButton:
    button = QPushButton(text)
    button.setAutoDefault(False)  # Return in the panel pressed "Stop sharing"
    button.setToolTip(tip)
    button.clicked.connect(clicked)
    return button


def _fill(row: QHBoxLayout, *widgets: QWidget) -> None:
    for widget in widgets:
        row.addWidget(widget)


def _choice(choices: tuple[tuple[str, str], ...], current: str) -> QComboBox:
    combo = QComboBox()
    for text, value in choices:
        combo.addItem(text, value)
    combo.setCurrentIndex(max(combo.findData(current), 0))
    return combo
