"""The odds service of the previews: memoised per (document revision, request), computed on
a worker thread when slow, and the staleness rule — an answer worked out on an encounter
that changed since is never shown; an answer to a request no longer wanted is kept, not
shown. The worker is held on an event, so no test depends on how long anything takes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.io.fileio import load_encounter
from core.model.encounter import Encounter
from core.model.grid import Cell
from desktop.document.document import EncounterDocument
from desktop.document.odds_service import Answer, OddsService
from desktop.qt import QApplication
from tests.desktop.qt_fixtures import OffThread

DEMO = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(load_encounter(DEMO))


@pytest.fixture
def service(document: EncounterDocument) -> OddsService:
    return OddsService(document)


class Gate:
    """A computation that reads the encounter, then waits until the test opens the gate
    before answering what it read; it counts its calls."""

    def __init__(self, read: Callable[[Encounter], object] = lambda _encounter: "odds") -> None:
        self.open = threading.Event()
        self.read = read
        self.calls = 0

    def __call__(self, encounter: Encounter) -> object:
        self.calls += 1
        value = self.read(encounter)
        self.open.wait(timeout=30)
        return value


def shown_into(answers: list[Answer]) -> Callable[[Answer], None]:
    return answers.append


def wait_for_worker(service: OddsService, gate: Gate) -> None:
    """Let the worker finish, then deliver what it sent to the GUI thread: the worker is
    one thread taking jobs in turn, so once a job queued after it is done, its answer is
    waiting in the event queue."""
    gate.open.set()
    service._worker.submit(lambda: None).result(timeout=30)
    QApplication.processEvents()


def test_a_quick_answer_is_shown_at_once_and_memoised(service: OddsService) -> None:
    answers: list[Answer] = []
    calls: list[int] = []

    def compute(encounter: Encounter) -> int:
        calls.append(1)
        return len(encounter.tokens)

    assert service.ask("shove east", compute, shown_into(answers))
    assert service.ask("shove east", compute, shown_into(answers))
    assert len(calls) == 1
    assert [a.value for a in answers] == [len(service.document.encounter.tokens)] * 2


def test_the_memo_is_dropped_when_the_document_changes(service: OddsService,
                                                        document: EncounterDocument) -> None:
    answers: list[Answer] = []
    calls: list[int] = []
    token = document.encounter.tokens[0]

    def compute(encounter: Encounter) -> tuple[int, int]:
        calls.append(1)
        return tuple(encounter.token(token.id).cell)

    service.ask("where", compute, shown_into(answers))
    document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
    service.ask("where", compute, shown_into(answers))
    assert len(calls) == 2
    assert [a.value for a in answers] == [(token.x, token.y), (token.x + 1, token.y)]


def test_a_slow_answer_comes_later_from_the_worker(
        qtbot: QtBot, off_thread: OffThread, service: OddsService) -> None:
    answers: list[Answer] = []
    gate = Gate()
    off_thread(True)
    assert not service.ask("aim", gate, shown_into(answers))
    assert answers == []  # the GUI went on
    wait_for_worker(service, gate)
    assert [a.value for a in answers] == ["odds"]


def test_an_answer_worked_out_before_an_edit_is_never_shown(
        qtbot: QtBot, off_thread: OffThread, service: OddsService,
        document: EncounterDocument) -> None:
    """The worker read the token where it stood; the token moved meanwhile: that answer is
    dropped and the request, still wanted, worked out again on the document as it is."""
    answers: list[Answer] = []
    token = document.encounter.tokens[0]
    gate = Gate(lambda encounter: encounter.token(token.id).cell)
    off_thread(True)
    service.ask("where", gate, shown_into(answers))
    qtbot.waitUntil(lambda: gate.calls == 1)  # the worker has read the old cell
    document.push(MoveToken(token.id, Cell(token.x + 1, token.y)))
    gate.open.set()
    qtbot.waitUntil(lambda: len(answers) == 1)
    assert [a.value for a in answers] == [Cell(token.x + 1, token.y)]
    assert gate.calls == 2


def test_an_answer_from_another_file_is_never_shown(
        qtbot: QtBot, off_thread: OffThread, service: OddsService,
        document: EncounterDocument) -> None:
    """A file opened meanwhile starts a new history at revision 0, like the old one."""
    answers: list[Answer] = []
    gate = Gate(lambda encounter: encounter.name)
    off_thread(True)
    service.ask("name", gate, shown_into(answers))
    qtbot.waitUntil(lambda: gate.calls == 1)
    other = load_encounter(DEMO)
    other.name = "Another file"
    document.replace(other, None)
    assert document.revision == 0
    gate.open.set()
    qtbot.waitUntil(lambda: len(answers) == 1)
    assert [a.value for a in answers] == ["Another file"]


def test_an_answer_nobody_wants_any_more_is_memoised_not_shown(
        qtbot: QtBot, off_thread: OffThread, service: OddsService) -> None:
    answers: list[Answer] = []
    first = Gate(lambda _encounter: "east")
    off_thread(True)
    service.ask("east", first, shown_into(answers))
    qtbot.waitUntil(lambda: first.calls == 1)  # the worker has started on it
    off_thread(False)
    service.ask("north", lambda _encounter: "north", shown_into(answers))
    wait_for_worker(service, first)
    assert [a.value for a in answers] == ["north"]
    service.ask("east", first, shown_into(answers))  # pointing back east: from the memo
    assert [a.value for a in answers] == ["north", "east"] and first.calls == 1


def test_forget_shows_nothing_more(
        qtbot: QtBot, off_thread: OffThread, service: OddsService) -> None:
    answers: list[Answer] = []
    gate = Gate()
    off_thread(True)
    service.ask("aim", gate, shown_into(answers))
    service.forget()
    wait_for_worker(service, gate)
    assert answers == []


def test_a_refusal_is_an_answer(service: OddsService) -> None:
    answers: list[Answer] = []

    def refuse(_encounter: Encounter) -> None:
        raise ValueError("not adjacent")

    service.ask("shove", refuse, shown_into(answers))
    assert answers[0].value is None and str(answers[0].error) == "not adjacent"
