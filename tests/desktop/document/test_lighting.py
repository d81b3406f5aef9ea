"""The window's lights: swept at once when little changes, on the worker when more would
take longer than a frame; meanwhile the last lit cells stand and nothing is recorded from
them; when the newer ones come the views are told and what the party sees is recorded."""

from __future__ import annotations

import threading

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import ChangeSet, ReplaceHazard, toggle_door
from core.model.grid import Cell
from core.model.mapmodel import Hazard, HazardKind, WallKind, WallSegment
from core.spatial.lighting import Lighting, lit_union
from core.spatial.vision import lighting_inputs, lit_cells
from desktop.document import lighting
from desktop.document.document import EncounterDocument
from tests.core.spatial.test_lighting import rooms


def east_door(document: EncounterDocument) -> WallSegment:
    return next(w for w in document.encounter.map.walls
                if w.kind is WallKind.DOOR and w.x1 == 30)


def test_a_small_change_is_lit_at_once(qtbot: QtBot) -> None:
    document = EncounterDocument(rooms())
    document.lights.wait()
    document.push(toggle_door(east_door(document)))
    assert document.lights.current
    assert lit_cells(document.encounter)[4, 31]  # the open door lets the light out


def test_a_big_change_is_lit_on_the_worker_while_the_last_lit_cells_stand(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lighting, "SYNC_CELLS", 0)  # every sweep goes to the worker
    outside = rooms()
    outside.put_token(outside.token("a").at(Cell(31, 8)))  # below the east room's door
    document = EncounterDocument(outside)
    qtbot.waitUntil(lambda: document.lights.current)
    gate = threading.Event()  # the worker sweeps only when the test has looked
    sweep = Lighting.updated
    monkeypatch.setattr(Lighting, "updated",
                        lambda self, *inputs: gate.wait(10) and sweep(self, *inputs))
    before = lit_cells(document.encounter)
    explored = document.encounter.fog.explored
    told: list[ChangeSet] = []
    document.changed.connect(told.append)
    document.push(toggle_door(east_door(document)))
    assert lit_cells(document.encounter) is before  # standing, not yet the newer cells
    assert not document.lights.current
    gate.set()
    qtbot.waitUntil(lambda: document.lights.current)
    lit = lit_cells(document.encounter)
    assert lit[4, 31] and (lit == lit_union(*lighting_inputs(document.encounter))).all()
    assert ChangeSet(fog=True) in told
    kept = document.encounter.peek_derived(Lighting)
    assert kept is not None and kept.patient
    assert document.encounter.fog.explored != explored  # recorded when the light came


def test_a_document_drawn_once_keeps_no_lights(qtbot: QtBot) -> None:
    document = EncounterDocument(rooms(), keep_lights=False)
    assert document.lights is None
    assert document.encounter.peek_derived(Lighting) is None
    assert lit_cells(document.encounter)[5, 5]


def test_a_fire_lit_or_put_out_tells_the_views_and_records_what_it_shows(qtbot: QtBot) -> None:
    document = EncounterDocument(rooms())
    document.lights.wait()
    told: list[ChangeSet] = []
    document.changed.connect(told.append)
    fire = Hazard(name="Brazier", kind=HazardKind.FIRE, cells=(Cell(15, 2),), light_cells=2)
    document.push(ReplaceHazard(None, fire))
    assert any(c.hazards and c.fog for c in told) and document.lights.current
    assert lit_cells(document.encounter)[2, 15]
    explored = document.encounter.fog.cells("explored", 32, 12)
    assert explored[2, 16] and not explored[2, 18]  # seen by A at (15, 5) in its light
    told.clear()
    document.push(ReplaceHazard(fire, fire.model_copy(update={"name": "Cold brazier"})))
    assert told and not any(c.fog for c in told)  # renamed: its light unchanged
    document.undo()
    told.clear()
    document.undo()
    assert any(c.fog for c in told) and not lit_cells(document.encounter)[2, 15]
