"""The quiet collector: an encounter's objects frozen once it is open, a pause's leftovers
frozen after it, everything collected again when another encounter opens."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.io.fileio import load_encounter
from core.model.grid import Cell
from desktop.document.collector import QuietCollector, collect_everything
from desktop.document.document import EncounterDocument
from desktop.qt import QDialog
from desktop.system.resources import DEMO


class Cycle:
    """Two objects that hold each other: only the cyclic collector frees them."""

    def __init__(self) -> None:
        self.partner = Partner(self)


class Partner:
    def __init__(self, owner: Cycle) -> None:
        self.owner = owner


@pytest.fixture
def document(qtbot: QtBot) -> Iterator[EncounterDocument]:
    document = EncounterDocument(load_encounter(DEMO))
    yield document
    # Gone now, with its collector's timers: not at some later collection, in a later test.
    with qtbot.waitSignal(document.destroyed):
        document.deleteLater()
    gc.unfreeze()  # other tests meet an ordinary heap


def test_the_open_encounter_is_frozen_soon_after_it_opens(qtbot: QtBot,
                                                         document: EncounterDocument) -> None:
    gc.unfreeze()
    collector = QuietCollector(document)
    assert _collectable(document.encounter)
    with qtbot.waitSignal(collector.collected, timeout=3000):
        pass
    assert not _collectable(document.encounter)


def _collectable(thing: object) -> bool:
    """Whether a collection would look at ``thing`` (frozen objects are not listed)."""
    return any(o is thing for o in gc.get_objects())


def test_a_pause_after_an_edit_freezes_what_it_made(qtbot: QtBot,
                                                    document: EncounterDocument) -> None:
    collector = _opened(qtbot, QuietCollector(document, idle_ms=50))
    token = document.encounter.tokens[0]
    with qtbot.waitSignal(collector.collected, timeout=3000):
        assert document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
        moved = document.encounter.token(token.id)  # a new object, made by the edit
        assert _collectable(moved)
    assert not _collectable(moved)


def test_a_pause_frees_new_cycles_and_leaves_frozen_ones(qtbot: QtBot,
                                                         document: EncounterDocument) -> None:
    collector = _opened(qtbot, QuietCollector(document, idle_ms=50))
    frozen = _dropped_cycle_kept_frozen()
    young = weakref.ref(Cycle())  # dropped at once, in a cycle: only a collection frees it
    assert young() is not None
    token = document.encounter.tokens[0]
    with qtbot.waitSignal(collector.collected, timeout=3000):
        assert document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
    assert young() is None
    assert frozen() is not None  # the price: kept until another encounter opens


def test_nothing_is_collected_while_a_dialog_is_open(qtbot: QtBot,
                                                     document: EncounterDocument) -> None:
    """The code that opened a dialog still holds what it works on: frozen then, it would
    be kept after it is dropped."""
    collector = _opened(qtbot, QuietCollector(document, idle_ms=50))
    dialog = QDialog()
    dialog.setModal(True)
    dialog.show()
    token = document.encounter.tokens[0]
    with qtbot.assertNotEmitted(collector.collected, wait=400):
        assert document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
    with qtbot.waitSignal(collector.collected, timeout=3000):
        dialog.close()


def test_cycles_frozen_and_dropped_are_freed_when_another_encounter_opens(
        qtbot: QtBot, document: EncounterDocument) -> None:
    collector = _opened(qtbot, QuietCollector(document))
    cycle = _dropped_cycle_kept_frozen()
    gc.collect()
    assert cycle() is not None  # frozen: no collection of the young looks at it
    with qtbot.waitSignal(collector.collected, timeout=3000):
        document.replace(load_encounter(DEMO), None)
    assert cycle() is None


def _opened(qtbot: QtBot, collector: QuietCollector) -> QuietCollector:
    """``collector`` once its collection after the encounter opened is over."""
    with qtbot.waitSignal(collector.collected, timeout=3000):
        pass
    return collector


def _dropped_cycle_kept_frozen() -> weakref.ref[Cycle]:
    cycle = Cycle()
    collect_everything()
    return weakref.ref(cycle)


def test_a_full_collection_turns_on_a_collector_the_app_started_off() -> None:
    gc.disable()
    try:
        collect_everything()
        assert gc.isenabled()
    finally:
        gc.enable()
