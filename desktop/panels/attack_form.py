"""The Resolve panel's form for a melee attack: the weapon (the attacker's, or typed dice), the
grip, the situational modifier, whether it is a free attack a rule grants, and — when the
rules profile switches them on — the hit location aimed at and a hero point to spend. It
only builds the core :class:`~core.rules.attack.AttackOptions`; the rules that judge them are
core's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.model.injury import HeroUse
from core.model.weapons import Grip, Weapon
from core.rules.weapons import melee_choices
from desktop.qt import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    Qt,
    QWidget,
    Signal,
)
from desktop.widgets.focus import FocusComboBox, FocusSpinBox, buddy_label, narrow

if TYPE_CHECKING:
    from core.model.encounter import Encounter
    from core.model.profile import RulesProfile
    from core.rules.attack import AttackOptions

TYPED = ""  # the weapon box's "typed dice" entry
COMBO_CHARACTERS = 8  # what a choice asks of the narrow Resolve dock; it widens with it


class AttackForm(QWidget):
    """Weapon, grip, modifier, aim and hero point of the attack being prepared."""

    changed = Signal()  # any option changed: the odds card follows

    def __init__(self) -> None:
        super().__init__()
        self.weapon_box = widening(FocusComboBox())
        self.weapon_box.setToolTip("The weapon: its damage dice, STR and damage type; or type "
                                   "the dice")
        self.damage_dice = QLineEdit("d8")
        self.damage_dice.setToolTip("Weapon damage dice, e.g. d8, 2d6+1")
        self.grip = widening(FocusComboBox())
        self.grip.setToolTip("002 One or two hands: 1½ hands +d3 damage and +1 to hit; two "
                             "hands the weapon's bonus die (and +1 to hit unless it always "
                             "needs two)")
        self.hit_modifier = FocusSpinBox()
        self.hit_modifier.setRange(-20, 20)
        self.hit_modifier.setToolTip("Situational modifier to the hit roll (aiming +3...)")
        self.magic = QCheckBox("Magic damage")
        self.magic.setToolTip("Magic damage ignores AV")
        self.free = QCheckBox("Free attack")
        self.free.setToolTip("A free attack a rule grants (surprise, a failed evade): it is "
                             "not the attacker's action this round (one action each, 002 The "
                             "fight)")
        self.aim = widening(location_box())
        self.hero = widening(hero_box())
        self.weapons: dict[str, Weapon] = {}
        self.profile: RulesProfile | None = None  # the encounter's, from show_for
        self.labels: dict[QWidget, QLabel] = {}
        # One field a row: two to a row ran past the right edge of the narrow dock.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        rows = (("Weapon", self.weapon_box), ("Damage", self.damage_dice), ("Grip", self.grip),
                ("To hit", self.hit_modifier), ("Aim at", self.aim), ("Hero point", self.hero))
        for row, (text, widget) in enumerate(rows):
            self.labels[widget] = buddy_label(text, widget)
            grid.addWidget(self.labels[widget], row, 0)
            grid.addWidget(widget, row, 1)
        grid.addWidget(self.magic, len(rows), 1)
        grid.addWidget(self.free, len(rows) + 1, 1)
        grid.setColumnStretch(1, 1)
        # Its rows keep their height in a short dock (the "Last result" box gives way).
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.weapon_box.currentIndexChanged.connect(self._weapon_changed)
        for box in (self.grip, self.aim, self.hero):
            box.currentIndexChanged.connect(lambda _index: self.changed.emit())
        self.hit_modifier.valueChanged.connect(lambda _value: self.changed.emit())
        self.damage_dice.textEdited.connect(lambda _text: self.changed.emit())
        self.magic.toggled.connect(lambda _on: self.changed.emit())
        self.free.toggled.connect(lambda _on: self.changed.emit())

    def show_for(self, encounter: Encounter, attacker_id: str) -> None:
        """Offer the attacker's melee weapons (first chosen), bare hands (a pummel; a
        martial artist's die rises with level) and the options its profile allows: aiming
        when hit locations are rolled, hero points when they are on."""
        attacker = encounter.token(attacker_id).combatant
        self.profile = encounter.profile
        self.blockSignals(True)
        self.weapon_box.clear()
        from core.rules.unarmed import is_pummel, pummel_die  # see desktop/__init__

        self.weapons = {w.name: w for w in melee_choices(encounter, attacker)}
        for weapon in self.weapons.values():
            die = (pummel_die(weapon.damage, attacker, encounter.profile) if is_pummel(weapon)
                   else weapon.damage)
            add_choice(self.weapon_box, f"{weapon.name} ({die})", weapon.name)
        add_choice(self.weapon_box, "Typed dice", TYPED)
        fill_locations(self.aim, encounter, missile=False)
        self.aim.setCurrentIndex(0)  # each attack starts unaimed
        self.free.setChecked(False)  # and as the attacker's action
        fill_hero(self.hero, attacker.hero_points)
        self._show(self.aim, encounter.profile.hit_location)
        self._show(self.hero, encounter.profile.hero_points)
        self.blockSignals(False)
        self._weapon_changed()

    def _show(self, widget: QWidget, shown: bool) -> None:
        widget.setVisible(shown)
        self.labels[widget].setVisible(shown)

    def _weapon_changed(self) -> None:
        weapon = self.weapon_box.currentData()
        self._show(self.damage_dice, weapon == TYPED)
        self.magic.setVisible(weapon == TYPED)
        chosen = self.weapons.get(weapon)
        grips = chosen.grips if chosen else (Grip.ONE,)
        self.grip.blockSignals(True)
        self.grip.clear()
        for grip in grips:
            add_choice(self.grip, self._grip_text(chosen, grip), grip.value)
        self.grip.blockSignals(False)
        self.grip.setEnabled(len(grips) > 1)
        self.changed.emit()

    def _grip_text(self, weapon: Weapon | None, grip: Grip) -> str:
        """The grip with the damage die it adds ("two hands +d6"): a Great club
        read "2d6" and its roll asked for a third d6 without saying why."""
        from core.rules.injury import grip_terms  # see desktop/__init__

        if weapon is None or self.profile is None:
            return grip.label
        die = grip_terms(weapon, grip, self.profile)[1]
        return grip.label if die is None else f"{grip.label} +{die}"

    def options(self) -> AttackOptions:
        """What the form says, as core options."""
        from core.rules.attack import AttackOptions, DamageKind  # see desktop/__init__

        weapon = self.weapon_box.currentData() or None
        return AttackOptions(
            weapon=weapon, damage=self.damage_dice.text().strip() or "d6",
            modifier=self.hit_modifier.value(),
            kind=DamageKind(magic=self.magic.isChecked() and weapon is None),
            grip=Grip(self.grip.currentData()) if self.grip.currentData() else None,
            aim=self.aim.currentData() or None,
            hero=HeroUse(self.hero.currentData()) if self.hero.currentData() else None,
            free=self.free.isChecked())


def widening(box: QComboBox) -> QComboBox:
    """``box`` as wide as the dock gives it, asking only for a few characters: sized to its
    longest item, it widened the form past the dock's edge and was cut off there."""
    narrow(box, COMBO_CHARACTERS)
    box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return box


def add_choice(box: QComboBox, text: str, data: str, tip: str = "") -> None:
    """An item that says itself in full in its tooltip (a narrow dock cuts it off)."""
    box.addItem(text, data)
    box.setItemData(box.count() - 1, tip or text, Qt.ItemDataRole.ToolTipRole)


def location_box() -> QComboBox:
    box = narrow(FocusComboBox(), COMBO_CHARACTERS)
    box.setToolTip("002 Hitting specific locations: aim at one (its modifier to hit); a hit "
                   "lands there. Otherwise the location die decides")
    return box


def hero_box() -> QComboBox:
    box = narrow(FocusComboBox(), COMBO_CHARACTERS)
    box.setToolTip("002 Damage: a hero point causes double damage, an automatic hit (not "
                   "when aiming at a location) or +10 to hit; spent with the attack (undo "
                   "gives it back)")
    return box


def fill_locations(box: QComboBox, encounter: Encounter, missile: bool) -> None:
    """The hit locations with their aim modifiers (melee or missile column)."""
    profile = encounter.profile
    chosen = box.currentData()
    box.clear()
    die = profile.hit_location_die
    add_choice(box, f"anywhere ({die})", "", f"Not aimed: the location die ({die}) decides")
    for row in sorted(profile.hit_locations, key=lambda r: -r.low):
        add_choice(box, f"{row.name} ({row.aim(missile):+d})", row.name)
    box.setCurrentIndex(max(box.findData(chosen), 0))


def fill_hero(box: QComboBox, points: int) -> None:
    """The hero point uses, with the points left."""
    box.clear()
    add_choice(box, f"none ({points} left)", "")
    if points:
        for use in HeroUse:
            add_choice(box, use.label, use.value)
