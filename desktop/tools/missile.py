"""Missile tool: pick the shooter (the selected token, or click one), hover a target to see
the range band, its cover (the covered part shaded, what covers it outlined), the exact
chance to hit and to hit the friend in the way, and where a miss may land; click to confirm,
then roll or type the dice in the Resolve panel. Esc steps back.

With the injury options on, the tool bar also offers a hit location to aim at and a hero
point to spend. "Pop up" makes the shot a pop-up from cover: click the cell the shooter pops
up at (where it stands or next to it) before the target. A token's menu declares it waiting
for a foe to pop up at a cell (then click the cell)."""

from __future__ import annotations

from functools import partial
from html import escape
from typing import TYPE_CHECKING, Any

from core.actions.base import plan
from core.model.dice import ScriptedDice
from core.model.injury import HeroUse
from core.rules.weapons import missile_weapons
from desktop.document.odds_service import Answer, OddsService
from desktop.map.missile_overlay import MissilePreview
from desktop.map.shove_overlay import percent
from desktop.panels.attack_form import fill_hero, fill_locations, hero_box, location_box
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QKeyEvent,
    QLabel,
    QSpinBox,
    Qt,
    QWidget,
    QWidgetAction,
)
from desktop.tools.base import MapTool, TokenEntry, ToolContext

if TYPE_CHECKING:
    from core.actions.base import Action
    from core.actions.commands import ChangeSet
    from core.model.encounter import Encounter
    from core.model.grid import Cell
    from core.rules.missile import MissileRequest
    from core.rules.missile_odds import MissileOdds
    from desktop.map.tool_events import ToolEvent

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
        self.aim_box, self.hero_box = location_box(), hero_box()
        self._aim_label, self._hero_label = QLabel(" Aim "), QLabel(" Hero point ")
        self.pop_up = QCheckBox("Pop up")
        self.spot: Cell | None = None  # where a pop-up shooter pops up
        self.note = ""  # the card's first line: a pop-up's Spot chance, an exposed target
        self.waiter: str | None = None  # a token declaring it waits: the next click's cell
        self._build_options()
        self.panel.released.connect(self._panel_released)

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
        for box in (self.aim_box, self.hero_box):
            box.currentIndexChanged.connect(lambda _index: self._refresh())
        self.pop_up.setToolTip("002 Pop-up missile shots: manoeuvre, spot (9) and shoot; "
                               "only enemies waiting on that spot may shoot back. Click the "
                               "spot, then the target")
        self.pop_up.toggled.connect(lambda _on: self.start(self.shooter))
        self._fill_weapons(keep=False)

    def make_options(self) -> list[QWidget]:
        return [QLabel(" Weapon "), self.weapons, QLabel(" Cover "), self.cover,
                self._aim_label, self.aim_box, self._hero_label, self.hero_box, self.pop_up]

    def _fill_injury(self) -> None:
        """Aim and hero point boxes as the profile and the shooter allow (hidden when off)."""
        encounter = self.document.encounter
        profile = encounter.profile
        points = (encounter.token(self.shooter).combatant.hero_points
                  if self.shooter and encounter.has_token(self.shooter) else 0)
        for box in (self.aim_box, self.hero_box):
            box.blockSignals(True)
        fill_locations(self.aim_box, encounter, missile=True)
        fill_hero(self.hero_box, points)
        for box in (self.aim_box, self.hero_box):
            box.blockSignals(False)
        shown = {self._aim_label: profile.hit_location, self.aim_box: profile.hit_location,
                 self._hero_label: profile.hero_points, self.hero_box: profile.hero_points}
        for action in self.option_actions():
            if isinstance(action, QWidgetAction) and action.defaultWidget() in shown:
                action.setVisible(shown[action.defaultWidget()])

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
            # Before a shooter is picked nothing is "not carried": there is no one to carry it.
            stray = self.shooter is not None and weapon not in own
            self.weapons.addItem(weapon.name + (" (not carried)" if stray else ""), weapon.name)
        self.weapons.setCurrentIndex(max(self.weapons.findData(chosen), 0))
        self.weapons.blockSignals(False)

    def request(self, target: str) -> MissileRequest:
        assert self.shooter is not None
        from core.rules.missile import MissileRequest  # see desktop/__init__

        override = self.cover.value()
        hero = self.hero_box.currentData()
        return MissileRequest(attacker=self.shooter, target=target,
                              weapon=self.weapons.currentData(),
                              cover_override=None if override == AUTO_COVER else override,
                              aim=self.aim_box.currentData() or None,
                              hero=HeroUse(hero) if hero else None)

    def action(self, target: str) -> Action[Any]:
        """The shot at ``target``: a pop-up from the chosen spot, or a plain missile."""
        from core.actions.missile import MissileAction
        from core.actions.popup import PopUpAction
        from core.rules.popup import PopUpRequest

        if self.spot is not None:
            return PopUpAction(PopUpRequest(shot=self.request(target), spot=self.spot))
        return MissileAction(self.request(target))

    # --- following the document ------------------------------------------------------------
    def activate(self) -> None:
        super().activate()
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
            self._fill_injury()
        if self.target is not None and not encounter.has_token(self.target):
            self._drop_target()
        elif self.target is not None and not self._holds_panel:
            self._refresh()

    def token_entries(self, token_id: str) -> list[TokenEntry]:
        name = self.document.encounter.token(token_id).name
        return [(f"Missile… ({name} shoots)", lambda: self.start(token_id)),
                (f"Wait for a pop-up… ({name})", lambda: self.wait_for_pop_up(token_id))]

    def start(self, shooter_id: str | None) -> None:
        self.shooter, self.spot, self.waiter = shooter_id, None, None
        self._drop_target()
        self._fill_weapons(keep=False)
        self._fill_injury()
        self._prompt()

    def wait_for_pop_up(self, token_id: str) -> None:
        """The next click names the cell ``token_id`` waits on."""
        self.start(None)
        self.waiter = token_id
        self.mark_chosen(token_id)
        name = self.document.encounter.token(token_id).name
        self.say(f"Missile: click the cell where {name} waits for a foe to pop up")

    def _prompt(self) -> None:
        self.mark_chosen(self.shooter)
        if self.shooter is None:
            self.say("Missile: click the shooter")
            return
        name = self.document.encounter.token(self.shooter).name
        if self.pop_up.isChecked() and self.spot is None:
            self.say(f"Missile: {name} pops up — click where (its own cell or one next to it)")
        else:
            self.say(f"Missile: {name} — point at a target to see the odds, click to shoot")

    def _drop_target(self) -> None:
        self.target, self.odds = None, None
        self.previews.forget()
        self.preview.clear()
        self.panel.forget_preview()  # no odds (or refusal) of a target no longer aimed at

    # --- pointer ---------------------------------------------------------------------------
    def move(self, event: ToolEvent) -> bool:
        if self.shooter is None or self._holds_panel or self._wants_spot():
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
        if self.waiter is not None:
            self._declare_wait(event.cell)
            return True
        if self._wants_spot():
            self._choose_spot(event.cell)
            return True
        token = self.document.encounter.token_at(event.cell)
        if token is None:
            return True
        if self._holds_panel:  # the panel holds a missile: this click starts another
            self.panel.clear()
        if self.shooter is None or token.id == self.shooter:
            self.start(token.id)
            return True
        if token.id != self.target:
            self.aim(token.id)
        if self.odds is not None:
            self._confirm()
        return True

    def _wants_spot(self) -> bool:
        return self.pop_up.isChecked() and self.shooter is not None and self.spot is None

    def _choose_spot(self, cell: Cell) -> None:
        """A pop-up's spot: where the shooter stands or one legal step from it."""
        assert self.shooter is not None
        from core.rules.popup import spot_refusal

        shooter = self.document.encounter.token(self.shooter)
        refusal = spot_refusal(self.document.encounter, shooter, cell)
        if refusal:
            self.say(f"Missile: {refusal}")
            return
        self.spot = cell
        self.scene.focus_ring.show_on(shooter.at(cell).footprint)
        self.say(f"Missile: {shooter.name} pops up at ({cell.x},{cell.y}) — point at a "
                 "target to see the odds, click to shoot")

    def _declare_wait(self, cell: Cell) -> None:
        """Record the waiting token's spot: one undo step, no dice."""
        assert self.waiter is not None
        from core.actions.popup import WaitAction

        try:
            outcome = plan(WaitAction(self.waiter, cell), self.document.encounter,
                           ScriptedDice([]))
        except (ValueError, LookupError) as error:
            self.say(f"Cannot wait there: {error}")
            return
        self.waiter = None
        self.mark_chosen(None)
        if self.document.perform(outcome):
            self.report(f"Missile: {outcome.summary}")

    def aim(self, target_id: str) -> None:
        """Work out and show the odds of shooting at ``target_id``."""
        self.target = target_id
        self._refresh()

    def _refresh(self) -> None:
        """Work out the odds at the target (memoised; on the odds worker when they take a
        while) and show them."""
        if self.shooter is None or self.target is None or self._holds_panel:
            return
        self.odds = None
        request, spot = self.request(self.target), self.spot
        if not self.previews.ask((request, spot), partial(aimed_odds, request=request,
                                                          spot=spot), self._show):
            self.say("Missile: working out the odds…")

    def _show(self, answer: Answer) -> None:
        encounter = self.document.encounter
        error = answer.error
        if error is not None:
            self.preview.clear()
            reason = str(error.args[0]) if error.args else str(error)
            self.say(f"Cannot shoot: {reason}")
            self.panel.show_card(f"<span style='color:#c0392b'>{reason}</span>")
            return
        self.odds, self.note = answer.value
        assert self.odds is not None and self.target is not None
        self.preview.show_odds(self.odds, encounter)
        self.panel.show_card(card(self.odds, self.note))
        self.say("Missile: click to shoot at "
                 f"{encounter.token(self.target).name}, or point at another target")

    def _confirm(self) -> None:
        assert self.odds is not None and self.target is not None
        self.panel.begin(self.action(self.target), card(self.odds, self.note), owner=self)
        self.say("Missile: roll for it or type the dice in the Resolve panel")

    def _panel_released(self, owner: object) -> None:
        if owner is self:
            self._drop_target()
            if self.shooter is not None and not self.document.encounter.has_token(
                    self.shooter):
                self.shooter = None
            self._prompt()

    @property
    def _holds_panel(self) -> bool:
        """Whether the Resolve panel's pending action is this tool's shot."""
        return self.panel.owner is self

    def hides_map_tips(self) -> bool:
        return self.shooter is not None  # hovering targets shows their odds

    def key(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_Escape:
            return False
        if self._holds_panel:
            self.panel.clear()
        elif self.target is not None:
            self._drop_target()
            self._prompt()
        else:
            self.start(None)
        return True


def aimed_odds(encounter: Encounter, request: MissileRequest, spot: Cell | None
               ) -> tuple[MissileOdds, str]:
    """The shot's odds, and the card's note: a pop-up's chance to spot first (its odds
    from ``spot``), or a target seen where it popped up. A function of the encounter only,
    so the odds worker can work it out."""
    from core.rules.missile import exposed_at
    from core.rules.missile_odds import missile_odds
    from core.rules.popup import PopUpRequest, pop_up_odds

    if spot is not None:
        spotted, odds = pop_up_odds(encounter, PopUpRequest(shot=request, spot=spot))
        return odds, (f"Pop-up at ({spot.x},{spot.y}): Spot 9 <b>{percent(spotted)}</b>, "
                      "then the shot from there<br>")
    shooter, aimed = encounter.token(request.attacker), encounter.token(request.target)
    exposed = exposed_at(encounter, shooter, aimed)
    note = ("" if exposed is None else
            f"{aimed.name} popped up at ({exposed.x},{exposed.y}) this round and "
            f"{shooter.name} waits there: shot at it there<br>")
    return missile_odds(encounter, request), note


def card(odds: MissileOdds, note: str = "") -> str:
    """The odds card for the Resolve panel: ``note`` (a pop-up's Spot chance...), range,
    cover, the roll needed, the chances (critical and fumble when those options are on)."""
    setup = odds.setup
    ranged, cover = setup.range, setup.cover
    friend = (f" · {cover.friend_name}: <b>{percent(odds.friend_hit)}</b>"
              if cover.friend_id else "")
    flight = f" · flight {ranged.flight_segments} segment(s)" if ranged.flight_segments else ""
    natural = (f"<br>Critical hit {percent(odds.critical)} · fumble {percent(odds.fumble)}"
               if odds.critical or odds.fumble else "")
    return (f"{note}<b>{setup.weapon.name}</b>: {ranged.describe()}{flight}<br>"
            f"Cover: {cover.describe()}<br>"
            f"d20 {setup.bonus.value:+d} vs <b>{setup.defence.value}</b> · Hit "
            f"<b>{percent(odds.hit)}</b>{friend} · Miss <b>{percent(odds.miss)}</b> "
            f"(against a wall {percent(odds.against_wall)}, off the map "
            f"{percent(odds.off_map)}){natural}"
            + "".join(f"<br>{escape(note)}" for note in odds.notes))
