"""The players' scene: what it shows follows the party's sight."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken, UpdateCombatant, toggle_door
from core.model.combatant import Combatant, OutOfHand, Side
from core.model.grid import Cell
from desktop.document.document import EncounterDocument
from desktop.map.fog_layer import PlayerViewModel
from desktop.map.players import PlayerScene
from tests.conftest import build_encounter


def dropped_labels(scene: PlayerScene) -> list[str]:
    return [label.text for labels in scene.dropped.labels.values() for label in labels]


def test_a_dropped_weapon_shows_while_the_party_sees_its_owner(qtbot: QtBot) -> None:
    """002 Critical events 5: the orc's dropped sword lies at its feet. The players see its
    label while they see the orc: a door closing or the party moving changes that (the orc
    itself unchanged)."""
    encounter = build_encounter("A . . . . O", {"O": Combatant(name="Orc",
                                                               side=Side.OPPOSITION)},
                                walls=[(3, 0, 3, 1, "open door")])
    document = EncounterDocument(encounter, keep_lights=False)
    orc = encounter.token("O").combatant.model_copy(update={"out_of_hand": (
        OutOfHand(item="Long sword", cell=Cell(4, 0)),)})
    assert document.push(UpdateCombatant("O", orc))
    scene = PlayerScene(document, PlayerViewModel(document))
    assert "O" in scene.tokens and dropped_labels(scene) == ["⚔ Long sword"]
    assert document.push(toggle_door(document.encounter.map.walls[0]))  # closed
    assert "O" not in scene.tokens and dropped_labels(scene) == []
    assert document.push(MoveToken("A", Cell(4, 0)))  # through to the orc's side
    assert "O" in scene.tokens and dropped_labels(scene) == ["⚔ Long sword"]
    assert document.push(MoveToken("A", Cell(0, 0)))
    assert "O" not in scene.tokens and dropped_labels(scene) == []
