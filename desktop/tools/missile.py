"""Missile tool: pick the shooter (the selected token, or click one), hover a target to see
the range band, its cover (the covered part shaded, what covers it outlined), the exact
chance to hit and to hit the friend in the way, and where a miss may land; click to confirm,
then roll or type the dice in the Resolve panel. Esc steps back."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from core.actions.commands import ChangeSet
from core.actions.missile import MissileAction
from core.rules.missile import MissileRequest
from core.rules.missile_odds import MissileOdds, missile_odds
from core.rules.weapons import missile_weapons
from desktop.missile_overlay import MissilePreview
from desktop.odds_service import Answer, OddsService
from desktop.overlay import percent
from desktop.qt import QComboBox, QKeyEvent, QLabel, QSpinBox, Qt, QWidget
from desktop.tools.base import MapTool, TokenEntry, ToolContext, ToolEvent

if TYPE_CHECKING:
    from desktop.view import MapView

AUTO_COVER = -1  # the cover box's "from the map" value


class MissileTool(MapTool):
    name = "missile"
    label = "Missile"
    shortcut = "M"
    tooltip = ("Missile (M): the selected token (or click one) throws or fires; hover a "
               "target to see range, cover and the exact odds, click to confirm, then roll in "
               "the Resolve panel. Esc goes back a step.")
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, context: ToolContext) -> None:
        super().__init__(context)
        self.panel = context.resolve_panel
        self.shooter: str | None = None
        self.target: str | None = None
        self.odds: MissileOdds | None = None
        self.preview = MissilePreview(self.renderer)
        self.preview.attach(self.scene)
        self.previews = OddsService(self.document)
        self.weapons = QComboBox()
        self.cover = QSpinBox()
        self._build_options()
        self._sent = False  # the panel holds this tool's missile
        self.panel.cleared.connect(self._panel_cleared)

    # --- options ---------------------------------------------------------------------------
    def _build_options(self) -> None:
        self.weapons.setToolTip("The missile weapon: the shooter's own first, then the rest "
                                "of the weapon table")
        self.weapons.setAccessibleName("Weapon")
        self.weapons.currentIndexChanged.connect(lambda _index: self._refresh())
        self.cover.setRange(AUTO_COVER, 100)
        self.cover.setSingleStep(5)
        self.cover.setSuffix(" %")
        self.cover.setSpecialValueText("from the map")
        self.cover.setValue(AUTO_COVER)
        self.cover.setToolTip("Cover: measured on the map, or the figure you set")
        self.cover.setAccessibleName("Cover")
        self.cover.valueChanged.connect(lambda _value: self._refresh())
        self._fill_weapons(keep=False)

    def make_options(self) -> list[QWidget]:
        return [QLabel(" Weapon "), self.weapons, QLabel(" Cover "), self.cover]

    def _fill_weapons(self, keep: bool) -> None:
        """The shooter's missile weapons first, then the table's other missile weapons;
        ``keep`` the one chosen if it is still there (else the shooter's first)."""
        encounter = self.document.encounter
        own = (missile_weapons(encounter, encounter.token(self.shooter).combatant)
               if self.shooter and encounter.has_token(self.shooter) else [])
        others = [w for w in encounter.weapons if w.missile and w not in own]
        chosen = self.weapons.currentData() if keep else None
        self.weapons.blockSignals(True)
        self.weapons.clear()
        for weapon in [*own, *others]:
            self.weapons.addItem(weapon.name + ("" if weapon in own else " (not carried)"),
                                 weapon.name)
        self.weapons.setCurrentIndex(max(self.weapons.findData(chosen), 0))
        self.weapons.blockSignals(False)

    def request(self, target: str) -> MissileRequest:
        assert self.shooter is not None
        override = self.cover.value()
        return MissileRequest(attacker=self.shooter, target=target,
                              weapon=self.weapons.currentData(),
                              cover_override=None if override == AUTO_COVER else override)

    # --- following the document ------------------------------------------------------------
    def activate(self, view: MapView) -> None:
        super().activate(view)
        self.start(self.context.selection.single())

    def deactivate(self) -> None:
        self._drop_target()
        self.mark_chosen(None)

    def reset(self) -> None:
        self.deactivate()
        self.shooter = None
        self._fill_weapons(keep=False)

    def follow(self, changes: ChangeSet) -> None:
        encounter = self.document.encounter
        if self.shooter is not None and not encounter.has_token(self.shooter):
            self.reset()
            self._prompt()
            return
        if changes.weapons or self.shooter in changes.tokens:
            self._fill_weapons(keep=True)
        if self.target is not None and not encounter.has_token(self.target):
            self._drop_target()
        elif self.target is not None and not self._sent:
            self._refresh()

    def token_entries(self, token_id: str) -> list[TokenEntry]:
        name = self.document.encounter.token(token_id).name
        return [(f"Missile… ({name} shoots)", lambda: self.start(token_id))]

    def start(self, shooter_id: str | None) -> None:
        self.shooter = shooter_id
        self._drop_target()
        self._fill_weapons(keep=False)
        self._prompt()

    def _prompt(self) -> None:
        self.mark_chosen(self.shooter)
        if self.shooter is None:
            self.say("Missile: click the shooter")
        else:
            name = self.document.encounter.token(self.shooter).name
            self.say(f"Missile: {name} — point at a target to see the odds, click "
                             "to shoot")

    def _drop_target(self) -> None:
        self.target, self.odds = None, None
        self.previews.forget()
        self.preview.clear()

    # --- pointer ---------------------------------------------------------------------------
    def move(self, event: ToolEvent) -> bool:
        if self.shooter is None or self._sent:
            return False
        token = self.document.encounter.token_at(event.cell)
        if token is None or token.id == self.shooter:
            if self.target is not None:
                self._drop_target()
                self._prompt()
            return False
        if token.id != self.target:
            self.aim(token.id)
        return False

    def press(self, event: ToolEvent) -> bool:
        if not event.left:
            return False
        token = self.document.encounter.token_at(event.cell)
        if token is None:
            return True
        if self._sent:  # the panel holds a missile: this click starts another
            self.panel.clear()
        if self.shooter is None or token.id == self.shooter:
            self.start(token.id)
            return True
        if token.id != self.target:
            self.aim(token.id)
        if self.odds is not None:
            self._confirm()
        return True

    def aim(self, target_id: str) -> None:
        """Work out and show the odds of shooting at ``target_id``."""
        self.target = target_id
        self._refresh()

    def _refresh(self) -> None:
        """Work out the odds at the target (memoised; on the odds worker when they take a
        while) and show them."""
        if self.shooter is None or self.target is None or self._sent:
            return
        self.odds = None
        request = self.request(self.target)
        if not self.previews.ask(request, partial(missile_odds, request=request), self._show):
            self.say("Missile: working out the odds…")

    def _show(self, answer: Answer) -> None:
        encounter = self.document.encounter
        error = answer.error
        if error is not None:
            self.preview.clear()
            reason = str(error.args[0]) if error.args else str(error)
            self.say(f"Cannot shoot: {reason}")
            self.panel.card.setText(f"<span style='color:#c0392b'>{reason}</span>")
            return
        self.odds = answer.value
        assert self.odds is not None and self.target is not None
        self.preview.show_odds(self.odds, encounter)
        self.panel.card.setText(card(self.odds))
        self.say("Missile: click to shoot at "
                 f"{encounter.token(self.target).name}, or point at another target")

    def _confirm(self) -> None:
        assert self.odds is not None and self.target is not None
        self.panel.begin(MissileAction(self.request(self.target)), card(self.odds))
        self._sent = True
        self.say("Missile: roll for it or type the dice in the Resolve panel")

    def _panel_cleared(self) -> None:
        if self._sent:
            self._sent = False
            self._drop_target()
            if self.shooter is not None and not self.document.encounter.has_token(
                    self.shooter):
                self.shooter = None
            self._prompt()

    def key(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        if self._sent and self.panel.pending is not None:
            self.panel.clear()
        elif self.target is not None:
            self._drop_target()
            self._prompt()
        else:
            self.start(None)
        return True


def card(odds: MissileOdds) -> str:
    """The odds card for the Resolve panel: range, cover, the roll needed, the chances."""
    setup = odds.setup
    ranged, cover = setup.range, setup.cover
    friend = (f" · {cover.friend_name}: <b>{percent(odds.friend_hit)}</b>"
              if cover.friend_id else "")
    flight = f" · flight {ranged.flight_segments} segment(s)" if ranged.flight_segments else ""
    return (f"<b>{setup.weapon.name}</b>: {ranged.describe()}{flight}<br>"
            f"Cover: {cover.describe()}<br>"
            f"d20 {setup.bonus.value:+d} vs <b>{setup.defence.value}</b> · Hit "
            f"<b>{percent(odds.hit)}</b>{friend} · Miss <b>{percent(odds.miss)}</b> "
            f"(against a wall {percent(odds.against_wall)}, off the map "
            f"{percent(odds.off_map)})")
