"""Morale and sleep in the window. A bar above the map offers each morale trigger when it
occurs (002 "Morale"; non-modal: play goes on, and it stays until the GM checks or passes
it over); a check goes to the Resolve panel with each creature's chance to hold while the
map shows where each would run; waking a sleeper is in the token menu. The rules are
core.rules.morale and core.rules.sleep: nothing is decided here."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any

from core.actions.base import Action, plan
from core.model.combatant import Condition, Side
from core.model.dice import ScriptedDice
from core.model.grid import Footprint
from core.model.profile import MoraleResult
from core.rules.morale import (
    MoraleRequest,
    checkers,
    morale_score,
    pass_chance,
    pending_triggers,
    retreat_plans,
)
from desktop.map.morale_items import RetreatPreview, Walk
from desktop.map.shove_overlay import percent
from desktop.qt import (
    QFrame,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QObject,
    QPushButton,
    QVBoxLayout,
    Signal,
)

if TYPE_CHECKING:
    from core.actions.morale import MoraleAction
    from core.model.morale import MoraleTrigger
    from desktop.document.document import EncounterDocument
    from desktop.map.scene import MapScene
    from desktop.map.view import MapView
    from desktop.panels.resolve import ResolvePanel
    from desktop.tools.base import TokenEntry

#: What each failure does, as the card says it (the log says it in full).
BRIEF = {MoraleResult.RETREAT: "runs", MoraleResult.DROP_AND_RUN: "drops weapons, runs",
         MoraleResult.SURRENDER: "surrenders", MoraleResult.BERSERK: "berserk"}
BAR_STYLE = ("QFrame#morale-bar { background: #fff3cd; border-bottom: 1px solid #e0a100; }"
             "QLabel { color: #4a3a00; }")


def side_name(side: Side) -> str:
    return "Party" if side is Side.PARTY else "Opposition"


class MoraleBar(QFrame):
    """One row per side with triggers to answer: what happened, Check morale, No check. It
    floats over the top of the map (:meth:`attach`), so the map does not move when it comes
    and goes."""

    check_requested = Signal(object)  # the Side
    pass_requested = Signal(object)  # the Side

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("morale-bar")
        self.setStyleSheet(BAR_STYLE)
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(8, 4, 8, 4)
        self.buttons: dict[Side, tuple[QPushButton, QPushButton]] = {}
        self.texts: dict[Side, QLabel] = {}
        self.checking: Side | None = None  # the side whose check waits in the Resolve panel
        self._shown: tuple[list[MoraleTrigger], dict[str, str]] = ([], {})
        self.hide()

    def attach(self, view: MapView) -> None:
        """Float over the top of ``view``'s viewport, as wide as it. It refits on the view's
        own signal: a Python event filter on the viewport crashed the interpreter at exit."""
        self.setParent(view)
        view.resized.connect(self._fit)
        self._fit()

    def _fit(self) -> None:
        view = self.parentWidget()
        if isinstance(view, QGraphicsView):
            width = view.viewport().width()
            self.setGeometry(0, 0, width, self.heightForWidth(width)
                             if self.hasHeightForWidth() else self.sizeHint().height())
            self.raise_()

    def show_triggers(self, triggers: list[MoraleTrigger], names: dict[str, str]) -> None:
        """Offer ``triggers``, a row per side (hidden when there are none); ``names`` are
        the fallen leaders' names by id. The same again leaves the rows as they are (the
        bar is asked after every edit)."""
        if (triggers, names) == self._shown:
            return
        self._shown = (triggers, names)
        while self.rows.count():
            item = self.rows.takeAt(0)
            if item is not None and item.layout() is not None:
                _empty(item.layout())
        self.buttons, self.texts = {}, {}
        for side, same in groupby(sorted(triggers, key=lambda t: t.side), key=lambda t: t.side):
            self.rows.addLayout(self._row(side, list(same), names))
        self.mark_checking(self.checking)
        self.setVisible(bool(triggers))
        self._fit()

    def mark_checking(self, side: Side | None) -> None:
        """The side whose check is already in the Resolve panel: its buttons rest until that
        check is rolled or dropped (a second Check morale… would start it over, No check
        would pass over the triggers the pending check answers)."""
        self.checking = side
        for row_side, buttons in self.buttons.items():
            for button in buttons:
                button.setEnabled(row_side is not side)

    def _row(self, side: Side, triggers: list[MoraleTrigger], names: dict[str, str]
             ) -> QHBoxLayout:
        text = QLabel(f"⚑ <b>Morale — {side_name(side)}</b>: "
                      + "; ".join(t.short(names.get(t.leader or "")) for t in triggers))
        text.setWordWrap(True)
        check, skip = QPushButton("Check morale…"), QPushButton("No check")
        check.setToolTip("2d10 against each creature's morale: the Resolve panel rolls or "
                         "takes your dice; the map shows where the broken would run")
        skip.setToolTip("Pass these triggers over: they are not offered again (undo brings "
                        "them back)")
        check.clicked.connect(lambda: self.check_requested.emit(side))
        skip.clicked.connect(lambda: self.pass_requested.emit(side))
        row = QHBoxLayout()
        row.addWidget(text, 1)
        row.addWidget(check)
        row.addWidget(skip)
        self.buttons[side], self.texts[side] = (check, skip), text
        return row


def _empty(layout: QHBoxLayout | object) -> None:
    assert isinstance(layout, QHBoxLayout)
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.hide()
            widget.deleteLater()
    layout.deleteLater()


class MoraleController(QObject):
    """Keeps the bar in step with the encounter and prepares morale checks and wakings."""

    def __init__(self, document: EncounterDocument, scene: MapScene, panel: ResolvePanel
                 ) -> None:
        super().__init__()
        self.document, self.scene, self.panel = document, scene, panel
        self.bar = MoraleBar()
        self.preview = RetreatPreview(scene.renderer)
        scene.addItem(self.preview)
        self.pending: MoraleAction | None = None
        self.bar.check_requested.connect(self.begin_check)
        self.bar.pass_requested.connect(self.pass_over)
        document.changed.connect(lambda _changes: self._follow())
        document.replaced.connect(self._follow)
        panel.began.connect(self._began)
        panel.cleared.connect(self._drop)
        self.refresh()

    def refresh(self) -> None:
        encounter = self.document.encounter
        triggers = pending_triggers(encounter)
        self.bar.show_triggers(triggers, {t.leader: encounter.token(t.leader).name
                                          for t in triggers if t.leader is not None
                                          and encounter.has_token(t.leader)})

    # --- the check ----------------------------------------------------------------------
    def begin_check(self, side: Side) -> None:
        """Hand the side's check to the Resolve panel and draw where each would run."""
        from core.actions.morale import MoraleAction  # see desktop/__init__

        action = MoraleAction(MoraleRequest(side=side))
        self.pending = action
        self.panel.begin(action, self._card(side))
        self.bar.mark_checking(side)
        self._show_walks()

    def _card(self, side: Side) -> str:
        """Each creature's score and chance to hold, what failing does, the preview's key."""
        encounter = self.document.encounter
        profile = encounter.profile
        answers = ("; ".join(t.short() for t in pending_triggers(encounter, side))
                   or "called by the GM")
        scores = " · ".join(
            f"{t.name} {(score := morale_score(encounter, t).value)} "
            f"<b>{percent(pass_chance(score, profile.morale_dice))}</b>"
            for t in checkers(encounter, side))
        fails = " · ".join(f"{row.level} {BRIEF[row.result]}" for row in profile.morale_results)
        return (f"For: {answers}<br>Holds ({profile.morale_dice} ≤ score): {scores}<br>"
                f"<small>Fails: {fails}</small>")

    def _show_walks(self) -> None:
        if self.pending is None:
            return
        encounter = self.document.encounter
        walks = []
        for token_id, retreat in retreat_plans(encounter, self.pending.request.side).items():
            token = encounter.token(token_id)
            size = token.footprint.size
            label = (f"{token.name}: {retreat.cost_ft:g} ft" if retreat.escapes
                     else f"{token.name}: cornered")
            walks.append(Walk(tuple(Footprint(c.x, c.y, size) for c in retreat.cells), label,
                              retreat.escapes))
        self.preview.show_walks(walks)

    def pass_over(self, side: Side) -> None:
        from core.actions.morale import PassMoraleAction

        self._perform(PassMoraleAction(side))

    def _perform(self, action: Action[Any]) -> None:
        try:
            outcome = plan(action, self.document.encounter, ScriptedDice([]))
        except ValueError as error:
            self.document.refused.emit(str(error))
            return
        self.document.perform(outcome)

    # --- following ------------------------------------------------------------------------
    def _follow(self) -> None:
        self.refresh()
        if self.pending is not None:
            side = self.pending.request.side
            if checkers(self.document.encounter, side):
                self.panel.card.setText(self._card(side))
                self._show_walks()
            else:
                self.panel.clear()

    def _began(self, action: object) -> None:
        if action is not self.pending:
            self._drop()

    def _drop(self) -> None:
        self.pending = None
        self.bar.mark_checking(None)
        self.preview.clear()

    # --- the token menu -------------------------------------------------------------------
    def token_entries(self, token_id: str) -> list[TokenEntry]:
        from core.actions.sleep import WakeAction

        token = self.document.encounter.token(token_id)
        entries: list[TokenEntry] = []
        if token.combatant.has(Condition.ASLEEP):
            entries.append((f"Wake {token.name}", lambda: self._perform(WakeAction(token_id))))
        side = token.combatant.side
        if checkers(self.document.encounter, side):
            entries.append((f"Morale check ({side_name(side).lower()})…",
                            lambda: self.begin_check(side)))
        return entries
