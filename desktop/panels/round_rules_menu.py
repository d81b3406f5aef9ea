"""A token's right-click entries for the round's surprise and spoiling rules (no rules worked
out here: core says what may be done and with what chance):

- **Surprise attacks** (002 "Surprise"; rules-decisions "Shielding the surprised"): an
  ambusher's free attacks the surprise check scheduled, each begun in the Resolve panel as a
  surprise attack; the made, lost and cancelled ones are listed, greyed, with who cancelled
  them. A surprised creature's menu lists the attacks due on it.
- **Long actions** (002 "Spoiling attacks"): the perception roll to notice a creature's long
  action under way (rolled or typed in the Resolve panel, with its chance), and concentrating
  on an enemy, waiting for it to start something (one step, no dice).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.actions.base import plan
from core.model.dice import ScriptedDice
from desktop.qt import QMainWindow, QMenu

if TYPE_CHECKING:
    from core.actions.base import Action
    from desktop.document.document import EncounterDocument
    from desktop.panels.resolve import ResolvePanel

MOST_WATCHED = 6  # enemies a menu offers to concentrate on, nearest first


def add_round_rules(menu: QMenu, document: EncounterDocument, token_id: str) -> None:
    """Add the "Surprise attacks" and "Long actions" submenus to ``menu`` when they have
    anything to offer."""
    _surprise(menu, document, token_id)
    _long_actions(menu, document, token_id)


def _panel(menu: QMenu) -> ResolvePanel | None:
    window = menu.parentWidget()
    return getattr(window, "resolve_panel", None)


def say_in_status_bar(menu: QMenu, text: str) -> None:
    """What a menu's entry did, on its window's status bar."""
    window = menu.parentWidget()
    if isinstance(window, QMainWindow):
        window.statusBar().showMessage(text, 5000)


def _surprise(menu: QMenu, document: EncounterDocument, token_id: str) -> None:
    encounter = document.encounter
    scheduled = [a for a in encounter.timeline.free_attacks
                 if token_id in (a.ambusher, a.target)]
    if not scheduled:
        return
    from core.rules.attack import AttackOptions  # see desktop/__init__
    from core.rules.surprise import round_notes

    sub = menu.addMenu("Surprise attacks")
    offered: set[str] = set()
    for attack, note in zip(scheduled, round_notes(encounter, token_id), strict=True):
        target = encounter.token(attack.target).name
        if attack.ambusher == token_id and attack.pending and attack.target not in offered:
            offered.add(attack.target)  # the next one due on each target
            text = (f"Surprise attack on {target} (#{attack.number}, segment "
                    f"{attack.segment}: {attack.hit_bonus:+d} to hit, "
                    f"{attack.damage_bonus:+d} damage)")
            options = AttackOptions(surprise=True, free=True)
            sub.addAction(text, lambda t=attack.target, o=options: _begin_attack(
                menu, document, token_id, t, o))
        else:
            sub.addAction(note).setEnabled(False)


def _begin_attack(menu: QMenu, document: EncounterDocument, attacker: str, target: str,
                  options: Any) -> None:
    from core.actions.attack import AttackAction

    panel = _panel(menu)
    if panel is None:
        return
    panel.begin(AttackAction(attacker, target, options),
                "Surprise free attack (002 Surprise: 'Attacks are +2 to hit and +1 damage "
                "per failure level'; not the attacker's action)")


def _long_actions(menu: QMenu, document: EncounterDocument, token_id: str) -> None:
    encounter = document.encounter
    state = encounter.timeline
    if not state.entries or not any(e.token_id == token_id for e in state.entries):
        return
    from core.model.grid import distance_ft
    from core.rules.conditions import NoActionError
    from core.rules.melee import enemies
    from core.rules.spoiling import concentrating_on, long_action, perception_chance

    me = encounter.token(token_id)
    profile = encounter.profile
    entries: list[tuple[str, Any, bool]] = []
    for entry in state.entries:
        if entry.token_id == token_id or long_action(encounter, entry.token_id) is None:
            continue
        other = encounter.token(entry.token_id)
        try:
            chance = perception_chance(encounter, token_id, other.id)
        except (NoActionError, ValueError) as error:
            entries.append((f"Notice {other.name}'s long action: {error}", None, False))
            continue
        entries.append((f"Notice {other.name}'s long action: perception {chance:.0%} "
                        "(002 Spoiling attacks)",
                        lambda o=other.id: _begin_roll(menu, document, token_id, o), True))
    watched = concentrating_on(encounter, token_id)
    foes = sorted((encounter.token(e.token_id) for e in state.entries
                   if enemies(encounter.token(e.token_id).combatant, me.combatant)),
                  key=lambda t: distance_ft(t.footprint, me.footprint, profile.cell_size_ft,
                                            profile.diagonal_rule))
    for foe in foes[:MOST_WATCHED]:
        text = (f"Concentrating on {foe.name}" if foe.id == watched
                else f"Concentrate on {foe.name} (waiting for it to start something)")
        entries.append((text, None if foe.id == watched else (
            lambda f=foe.id: _concentrate(menu, document, token_id, f)), foe.id != watched))
    if not entries:
        return
    sub = menu.addMenu("Long actions")
    for text, run, enabled in entries:
        action = sub.addAction(text, run) if run is not None else sub.addAction(text)
        action.setEnabled(enabled)


def _begin_roll(menu: QMenu, document: EncounterDocument, watcher: str, target: str) -> None:
    from core.actions.spoiling import PerceptionAction  # see desktop/__init__

    panel = _panel(menu)
    if panel is None:
        return
    panel.begin(PerceptionAction(watcher, target),
                "Perception: notice the movements of the caster (002 Spoiling attacks); a "
                "point easier for each segment its action has lasted")


def _concentrate(menu: QMenu, document: EncounterDocument, watcher: str, target: str) -> None:
    from core.actions.spoiling import ConcentrateAction  # see desktop/__init__

    perform_from_menu(menu, document, ConcentrateAction(watcher, target))


def perform_from_menu(menu: QMenu, document: EncounterDocument, action: Action[Any]) -> None:
    """A menu's ruling that needs no dice, as one logged step; a refusal says why."""
    try:
        outcome = plan(action, document.encounter, ScriptedDice([]))
    except (ValueError, LookupError) as error:
        document.refused.emit(str(error))
        return
    if document.perform(outcome):
        say_in_status_bar(menu, outcome.summary)
