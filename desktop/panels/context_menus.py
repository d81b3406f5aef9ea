"""The right-click menus of the map: on a token (the tools' actions, damage or heal, the
conditions, portrait, duplicate, delete, bring to front, hide from or show to the players,
centre) and on an empty cell (add a combatant there). Every entry is one undoable step."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core.actions.commands import AddToken, RaiseToken, RemoveToken, UpdateCombatant
from core.actions.fog import SetGmOnly
from core.actions.gm_edits import change_hp, toggle_condition
from core.actions.portraits import SetPortrait
from core.model.combatant import Combatant, Condition
from core.model.encounter import Token
from desktop.panels.combatant_form import CONDITION_LABELS
from desktop.panels.portraits import choose_portrait
from desktop.panels.round_rules_menu import (
    add_round_rules,
    perform_from_menu,
    say_in_status_bar,
)
from desktop.qt import QInputDialog, QMenu, QWidget

if TYPE_CHECKING:
    from core.model.grid import Cell
    from desktop.document.document import EncounterDocument

Entry = tuple[str, Callable[[], None]]
MOST_ATTACKS_OFFERED = 4  # the menu's choices; the CLI takes up to 10


class TokenMenu(QMenu):
    """Everything the GM can do to one token from the map."""

    def __init__(self, document: EncounterDocument, token_id: str, tool_entries: list[Entry],
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.document, self.token_id = document, token_id
        for text, run in tool_entries:
            self.addAction(text, run)
        in_round = any(e.token_id == token_id for e in document.encounter.timeline.entries)
        combatant = self._combatant()
        if in_round or combatant.out_of_hand:
            self._this_round(self.addMenu("This round"), in_round)
        add_round_rules(self, document, token_id)  # surprise attacks, long actions
        if combatant.shield_damage or combatant.armour_dents:
            self.addAction("Repair shield and armour", self.repair)
        if document.encounter.profile.hit_location:
            self._locations(self.addMenu("Armour and body"))
        self.addSeparator()
        self.addAction("Damage…", lambda: self._change_hp(damage=True))
        self.addAction("Heal…", lambda: self._change_hp(damage=False))
        self._conditions(self.addMenu("Conditions"))
        self.addAction("Portrait…", lambda: choose_portrait(document, token_id, parent))
        if self._combatant().portrait or self._combatant().image:
            self.addAction("Remove portrait",
                           lambda: document.push(SetPortrait(token_id, None)))
        self.addSeparator()
        self.addAction("Duplicate", self.duplicate)
        self.addAction("Bring to front", lambda: document.push(RaiseToken(token_id)))
        hidden = document.encounter.token(token_id).gm_only
        self.addAction("Show to players" if hidden else "Hide from players",
                       lambda: document.push(SetGmOnly([token_id], not hidden)))
        self.addAction("Delete", lambda: document.push(_named(RemoveToken(token_id),
                                                              f"Delete {self._name()}")))

    def _name(self) -> str:
        return self.document.encounter.token(self.token_id).name

    def _combatant(self) -> Combatant:
        return self.document.encounter.token(self.token_id).combatant

    def _change_hp(self, damage: bool) -> None:
        verb = "Damage" if damage else "Heal"
        combatant = self._combatant()
        # The name in the question too: a window manager may show no title (a table screen).
        amount, ok = QInputDialog.getInt(
            self.parentWidget(), f"{verb} {self._name()}",
            f"Hit points to {'take away from' if damage else 'give back to'} {self._name()} "
            f"({combatant.hp}/{combatant.max_hp} HP):", 1, 1, 9999)
        if ok:
            self.apply_hp(amount if damage else -amount)

    def apply_hp(self, damage: int) -> None:
        """Take ``damage`` hit points away (a negative amount heals), as one logged step."""
        step = change_hp(self.document.encounter, self.token_id, damage)
        if self.document.push(step):
            self._say(step.label)

    def _say(self, text: str) -> None:
        say_in_status_bar(self, text)

    def _this_round(self, menu: QMenu, in_round: bool) -> None:
        """Recovering what a critical event took out of hand (an action); in a round, the
        declarations (002 "Multiple Attacks", "Not attacking": one attack, two to four, or
        standing to defend) and what the creature has done so far."""
        from core.rules.weapons import label_of  # see desktop/__init__

        for item in self._combatant().out_of_hand:
            label = label_of(item)
            menu.addAction(f"Recover the {item.describe(label)} (an action)",
                           lambda i=label: self.perform(("recover", i)))
        if in_round:
            self._declarations(menu)

    def _declarations(self, menu: QMenu) -> None:
        entry = self.document.encounter.timeline.entry(self.token_id)
        from core.rules.turns import acted_note, declaration_terms  # see desktop/__init__

        profile = self.document.encounter.profile
        choices = [("One attack", 1, False)] + [
            (f"{n} attacks (−{declaration_terms(profile, n, False)[0]} to each and to its "
             "defence)", n, False) for n in range(2, MOST_ATTACKS_OFFERED + 1)] + [
            (f"Stand to defend (+{declaration_terms(profile, 1, True)[1]} against melee, no "
             "attack)", 1, True)]
        for text, attacks, defend in choices:
            action = menu.addAction(text, lambda a=attacks, d=defend: self.perform(
                ("declare", a, d)))
            action.setCheckable(True)
            action.setChecked(entry.stands_to_defend == defend
                              and entry.extra_attacks + 1 == attacks)
        note = acted_note(entry)
        if note:
            menu.addSeparator()
            menu.addAction(note).setEnabled(False)

    def perform(self, what: tuple[Any, ...]) -> None:
        """Declare for the round (``("declare", attacks, defend)``) or recover an item
        (``("recover", item)``), as one logged step; a refusal says why."""
        from core.actions.declare import DeclareAction  # see desktop/__init__
        from core.actions.recover import RecoverAction

        action = (DeclareAction(self.token_id, *what[1:]) if what[0] == "declare"
                  else RecoverAction(self.token_id, what[1]))
        perform_from_menu(self, self.document, action)

    def _locations(self, menu: QMenu) -> None:
        """002 Damage: 'a location roll is made to determine if they are wearing armour where
        you hit' — each hit location, ticked where its armour covers it; and whether it is a
        humanoid (002 Critical Locations)."""
        combatant = self._combatant()
        bare = {gap.casefold() for gap in combatant.armour_gaps}
        for row in sorted(self.document.encounter.profile.hit_locations, key=lambda r: -r.low):
            action = menu.addAction(f"Armour covers: {row.name}",
                                    lambda n=row.name: self.cover(n))
            action.setCheckable(True)
            action.setChecked(row.name.casefold() not in bare)
        menu.addSeparator()
        humanoid = menu.addAction("Humanoid (head hits may stun; others take double damage "
                                  "on a critical location)", self.toggle_humanoid)
        humanoid.setCheckable(True)
        humanoid.setChecked(combatant.humanoid)

    def cover(self, location: str) -> None:
        """Cover ``location`` with its armour, or leave it bare (one step)."""
        combatant = self._combatant()
        gaps = [g for g in combatant.armour_gaps if g.casefold() != location.casefold()]
        bare = len(gaps) == len(combatant.armour_gaps)
        if bare:
            gaps.append(location)
        words = "bare" if bare else "covered"
        self.document.push(UpdateCombatant(self.token_id, combatant.model_copy(
            update={"armour_gaps": tuple(gaps)}), f"{self._name()}'s {location}: {words}"))

    def toggle_humanoid(self) -> None:
        combatant = self._combatant()
        self.document.push(UpdateCombatant(self.token_id, combatant.model_copy(
            update={"humanoid": not combatant.humanoid}), f"{self._name()}: humanoid"))

    def repair(self) -> None:
        """A new shield and the armour mended (critical events 2, 4: "New shield required",
        "10% repair cost"), as one step."""
        fixed = self._combatant().model_copy(update={"shield_damage": 0, "armour_dents": 0})
        if self.document.push(UpdateCombatant(self.token_id, fixed,
                                              f"Repair {self._name()}'s shield and armour")):
            self._say(f"{self._name()}'s shield and armour are repaired")

    def _conditions(self, menu: QMenu) -> None:
        held = self._combatant().conditions
        for condition in Condition:
            action = menu.addAction(CONDITION_LABELS[condition],
                                    lambda c=condition: self.toggle(c))
            action.setCheckable(True)
            action.setChecked(condition in held)

    def toggle(self, condition: Condition) -> None:
        step = toggle_condition(self.document.encounter, self.token_id, condition)
        if self.document.push(step):
            self._say(step.label)

    def duplicate(self) -> None:
        """A copy on the nearest free space, numbered apart from the original."""
        add_combatant(self.document, self._combatant(),
                      self.document.encounter.token(self.token_id).cell)


def add_combatant(document: EncounterDocument, template: Combatant, near: Cell) -> str | None:
    """Add ``template`` on the free space nearest ``near``; same-named creatures are
    numbered ("Skeleton 1", "Skeleton 2"). The new token's id, or None (and why, on the
    document's ``refused``) when the map has no room."""
    encounter = document.encounter
    size = encounter.footprint_cells(template.size)
    cell = encounter.free_spot(size, near)
    if cell is None:
        document.refused.emit(f"No free {size}×{size} space on the map for {template.name}")
        return None
    name, renames = encounter.numbered_name(template.name)
    # Token ids are ASCII; unique_id keeps any letter, so "Éowyn" would be refused.
    token = Token(id=encounter.unique_id(name),
                  combatant=template.model_copy(update={"name": name}), x=cell.x, y=cell.y)
    with document.group(f"Add {name}"):
        for token_id, new_name in renames.items():
            old = encounter.token(token_id).combatant
            document.push(UpdateCombatant(token_id, old.model_copy(update={"name": new_name}),
                                          f"Rename {old.name} to {new_name}"))
        document.push(AddToken(token))
    return token.id if encounter.has_token(token.id) else None


def _named(command: RemoveToken, label: str) -> RemoveToken:
    command.label = label
    return command
