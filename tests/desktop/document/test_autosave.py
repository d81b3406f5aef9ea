"""Autosave and recovery: every change is autosaved, each window has its own recovery file,
failures are shown and retried, and start-up offers what a crashed window left."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken, UpdateCombatant
from core.io.fileio import load_encounter
from core.model.encounter import LogEntry
from core.model.grid import Cell
from desktop.app import offer_recovery
from desktop.document import autosave, load_check
from desktop.document.autosave import (
    AUTOSAVE_MS,
    QUIET_MS,
    RETRY_MS,
    orphaned_recoveries,
    read_recovery,
)
from desktop.document.document import EncounterDocument
from desktop.mainwindow import MainWindow
from desktop.qt import QApplication, QMessageBox, QSettings, Qt
from desktop.system.resources import app_version
from tests.desktop.qt_fixtures import DEMO


def autosaved(window: MainWindow) -> dict[str, object]:
    """Autosave now (it must write) and return the recovery file's encounter."""
    job = window.files.autosaver.autosave()
    assert job is not None, "nothing was autosaved"
    job.result(timeout=30)
    data = json.loads(window.files.autosaver.path.read_text("utf-8"))
    encounter: dict[str, object] = data["encounter"]
    return encounter


def token_name(encounter: dict[str, object], index: int) -> str:
    tokens = encounter["tokens"]
    assert isinstance(tokens, list)
    return str(tokens[index]["combatant"]["name"])


def rename(document: EncounterDocument, token_id: str, name: str, merge_key: int) -> None:
    combatant = document.encounter.token(token_id).combatant.model_copy(update={"name": name})
    assert document.push(UpdateCombatant(token_id, combatant), merge_key)


def test_edits_merged_into_one_step_are_autosaved(window: MainWindow) -> None:
    """Typing a name is one undo step of many keystrokes: each keystroke is autosaved."""
    document = window.document
    first = document.encounter.tokens[0].id
    key = document.new_merge_key()
    rename(document, first, "Mir", key)
    assert token_name(autosaved(window), 0) == "Mir"
    rename(document, first, "Mira the Bold", key)
    assert document.history.index == 1
    assert token_name(autosaved(window), 0) == "Mira the Bold"


def test_the_recovery_file_is_compact_and_restores_the_encounter(window: MainWindow) -> None:
    """Only the app reads it: no indentation (a third faster to make on the GUI thread)."""
    document = window.document
    rename(document, document.encounter.tokens[0].id, "Mira", document.new_merge_key())
    autosaved(window)
    text = window.files.autosaver.path.read_text("utf-8")
    assert "\n" not in text
    encounter, source = read_recovery(window.files.autosaver.path)
    assert encounter.model_dump() == document.encounter.model_dump() and source is None


def test_an_edit_after_an_undo_is_autosaved(window: MainWindow) -> None:
    document = window.document
    document.push(MoveToken("mira", Cell(7, 12)))
    autosaved(window)
    document.undo()
    document.push(MoveToken("mira", Cell(8, 12)))  # the same undo index as before
    tokens = autosaved(window)["tokens"]
    assert isinstance(tokens, list)
    assert [(t["x"], t["y"]) for t in tokens if t["id"] == "mira"] == [(8, 12)]


def test_nothing_is_written_without_a_change(window: MainWindow) -> None:
    assert window.files.autosaver.autosave() is None
    window.document.push(MoveToken("mira", Cell(7, 12)))
    autosaved(window)
    assert window.files.autosaver.autosave() is None


def second_window(qtbot: QtBot, tmp_path: Path, data_dir: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "second.ini"), QSettings.Format.IniFormat)
    other = MainWindow(load_encounter(DEMO), None, data_dir, settings)
    qtbot.addWidget(other)
    return other


def test_two_windows_keep_separate_recovery_files(window: MainWindow, qtbot: QtBot,
                                                  tmp_path: Path) -> None:
    other = second_window(qtbot, tmp_path, window.files.autosaver.path.parent)
    assert other.files.autosaver.path != window.files.autosaver.path
    window.document.push(MoveToken("mira", Cell(7, 12)))
    other.document.push(MoveToken("mira", Cell(9, 12)))
    autosaved(window)
    autosaved(other)
    assert orphaned_recoveries(window.files.autosaver.path.parent) == []  # both alive
    other.document.history.mark_clean()
    other.close()
    assert not other.files.autosaver.path.exists()
    assert window.files.autosaver.path.exists()


def dead_process_id() -> int:
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(ended.stdout)


def crashed_recovery(window: MainWindow, data_dir: Path) -> Path:
    """The recovery file a window of an ended process left: mira moved to (7, 12)."""
    window.document.push(MoveToken("mira", Cell(7, 12)))
    autosaved(window)
    left = data_dir / f"recovery-{dead_process_id()}-1.json"
    window.files.autosaver.path.replace(left)
    window.document.undo()
    return left


def test_a_new_window_sweeps_the_temporary_files_of_autosaves_killed_mid_write(
        window: MainWindow, tmp_path: Path) -> None:
    """Each holds the dead process's id in its name, so no later write of the same file
    ever swept it: 30 crashes left 258 MiB behind. Live processes' files stay."""
    data_dir = window.files.autosaver.path.parent
    data_dir.mkdir(parents=True, exist_ok=True)
    dead, alive = dead_process_id(), os.getpid()
    stale = data_dir / f".recovery-{dead}-1.json.{dead}.k2j4x9.tmp"
    in_flight = data_dir / f".recovery-{alive}-1.json.{alive}.p0q1r2.tmp"
    other = data_dir / f"notes-{dead}.txt"
    for path in (stale, in_flight, other):
        path.write_bytes(b"x" * 1000)
    settings = QSettings(str(tmp_path / "second.ini"), QSettings.Format.IniFormat)
    second = MainWindow(load_encounter(DEMO), None, data_dir, settings)
    assert not stale.exists()
    assert in_flight.exists() and other.exists()
    second.close()


def test_start_up_offers_a_crashed_windows_work(window: MainWindow, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    data_dir = window.files.autosaver.path.parent
    left = crashed_recovery(window, data_dir)
    legacy = data_dir / "recovery.json"
    legacy.write_text("{}")
    os.utime(legacy, (1, 1))  # older
    assert orphaned_recoveries(data_dir) == [left, legacy]
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *_args: QMessageBox.StandardButton.Yes))
    offer_recovery(window, orphaned_recoveries(data_dir))
    assert window.document.encounter.token("mira").cell == Cell(7, 12)
    assert window.document.modified
    assert not left.exists() and window.files.autosaver.path.exists()  # claimed
    assert orphaned_recoveries(data_dir) == [legacy]


def test_declining_the_offer_deletes_that_file_only(window: MainWindow,
                                                    answer_dialogs: list[str]) -> None:
    data_dir = window.files.autosaver.path.parent
    left = crashed_recovery(window, data_dir)
    before = window.document.encounter.model_dump()
    offer_recovery(window, [left, data_dir / "recovery.json"])
    assert "1 older one(s) will be offered next time" in answer_dialogs[-1]
    # it names what the GM was working on (issue 36.7): here, the demo, never saved
    assert "Restore the unsaved changes to “The Ogre's Larder (demo)”, never saved" in \
        answer_dialogs[-1]
    assert not left.exists()
    assert window.document.encounter.model_dump() == before


def test_the_offer_names_the_encounter_s_file(window: MainWindow, tmp_path: Path,
                                              answer_dialogs: list[str]) -> None:
    """Issue 36.7: "Restore the unsaved changes?" did not say of which encounter."""
    assert window.files.save_to(tmp_path / "goblin-ambush.json")
    data_dir = window.files.autosaver.path.parent
    left = crashed_recovery(window, data_dir)
    offer_recovery(window, [left])
    assert f"Restore the unsaved changes to goblin-ambush.json ({tmp_path})" in \
        answer_dialogs[-1]


def test_a_broken_recovery_file_is_reported_and_kept(window: MainWindow,
                                                     answer_dialogs: list[str]) -> None:
    broken = window.files.autosaver.path.parent / "recovery-1-1.json"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text('{"encounter": {"tokens": 5}}')
    before = window.document.encounter.model_dump()
    assert not window.files.restore_recovery(broken)
    assert "cannot be restored" in answer_dialogs[-1]
    assert window.document.encounter.model_dump() == before
    assert broken.exists()


@pytest.mark.parametrize(("content", "problem"), [
    ("[" * 100 + "]" * 100, "nested"),
    ('{"source": "", "encounter": {"schema": "battlemap.encounter", "version": 1, '
     '"name": NaN}}', "not a finite number"),
    (None, "not a regular file"),
], ids=["nested-100", "nan", "fifo"])
def test_a_recovery_file_is_read_within_the_loaders_bounds(tmp_path: Path, content: str | None,
                                                          problem: str) -> None:
    """It sits in the data folder, where anything may have put it: read as an encounter
    file is (a FIFO is never opened, JSON is parsed under the same bounds)."""
    path = tmp_path / "recovery-1-1.json"
    if content is None:
        os.mkfifo(path)
    else:
        path.write_text(content)
    with pytest.raises(autosave.RecoveryError, match=problem):
        read_recovery(path)


def test_a_failed_autosave_is_shown_and_retried(window: MainWindow, qtbot: QtBot) -> None:
    saver = window.files.autosaver
    if saver.path.parent.exists():
        saver.path.parent.rmdir()
    saver.path.parent.write_text("a file where the data folder should be")
    window.document.push(MoveToken("mira", Cell(7, 12)))
    with qtbot.waitSignal(saver.status, timeout=10_000) as failed:
        saver.autosave()
    assert "Autosave failed: cannot write the recovery file" in failed.args[0]
    assert saver.timer.interval() == RETRY_MS
    saver.path.parent.unlink()
    qtbot.wait(QUIET_MS + 200)  # a retry, as any write, waits for a pause in the edits
    with qtbot.waitSignal(saver.status, timeout=10_000) as recovered:
        saver.timer.timeout.emit()  # the retry
    assert recovered.args == ["Autosave works again"]
    assert saver.path.exists() and saver.timer.interval() > RETRY_MS


def test_content_no_file_can_hold_waits_for_the_next_edit(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    saver = window.files.autosaver
    window.document.push(MoveToken("mira", Cell(7, 12)))
    window.document.encounter.name = "Crypt \udc80"  # e.g. a name pasted from a bad file name
    with qtbot.waitSignal(saver.status, timeout=10_000) as failed:
        saver.autosave()
    assert "tries again after the next edit" in failed.args[0]
    assert saver.autosave() is None  # the same content: not retried
    window.document.encounter.name = "Crypt"
    window.document.push(MoveToken("mira", Cell(8, 12)))
    assert autosaved(window)["name"] == "Crypt"


# A checker that leaves its process id in the file named by its first argument, sleeps the
# seconds of its second, leaves a mark in the file named by its third and answers.
CHECKER = ("import os, sys, time\n"
           "open(sys.argv[1], 'w').write(str(os.getpid()))\n"
           "time.sleep(float(sys.argv[2]))\n"
           "open(sys.argv[3], 'w').write('answered')\n"
           "from desktop.cli.main import main\n"
           "sys.exit(main(sys.argv[4:]))\n")


@pytest.fixture
def only_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker cannot check the file itself: only the checking process can answer."""
    def refuse(data: bytes) -> str:
        raise AssertionError("checked in the app's own process")

    monkeypatch.setattr(load_check, "_problem_here", refuse)


def checker(tmp_path: Path, seconds: float = 0) -> list[str]:
    return [sys.executable, "-c", CHECKER, str(tmp_path / "checker.pid"), str(seconds),
            str(tmp_path / "answered")]


@pytest.mark.usefixtures("only_elsewhere")
def test_the_check_that_the_file_loads_runs_in_a_process_of_its_own(window: MainWindow,
                                                                     tmp_path: Path) -> None:
    """Parsing and validating a big file are long calls that hold the interpreter: in a
    thread of the app's they held up its repaints."""
    window.files.autosaver.check_command = checker(tmp_path)
    window.document.push(MoveToken("mira", Cell(7, 12)))
    assert token_name(autosaved(window), 0)
    assert int((tmp_path / "checker.pid").read_text()) != os.getpid()


def test_the_checking_process_starts_from_this_install(window: MainWindow) -> None:
    command = [*window.files.autosaver.check_command, "check", "-", "--json"]
    done = subprocess.run(command, input=DEMO.read_bytes(), capture_output=True,
                          timeout=120, check=False)
    report = json.loads(done.stdout)
    assert (report["opens"], report["version"]) == (True, app_version()), done.stderr


def refused_by_the_loader(window: MainWindow, qtbot: QtBot) -> str:
    """The status after autosaving an edit whose file the loader refuses (a number in a log
    entry's free-form detail that JSON cannot carry exactly)."""
    window.document.push(MoveToken("mira", Cell(8, 12)))
    window.document.encounter.log.append(LogEntry(kind="note", summary="huge",
                                                  detail={"roll": 10**30}))
    with qtbot.waitSignal(window.files.autosaver.status, timeout=30_000) as failed:
        window.files.autosaver.autosave()
    return str(failed.args[0])


@pytest.mark.usefixtures("only_elsewhere")
def test_a_file_the_checking_process_refuses_is_not_written(window: MainWindow,
                                                            qtbot: QtBot) -> None:
    assert refused_by_the_loader(window, qtbot) == (
        "Autosave failed: the autosave: log.0.detail.roll is 10000000000000000000000000000"
        "00, beyond ±2^53 — it tries again after the next edit")
    assert not window.files.autosaver.path.exists()


# A checker of another version of the app (upgraded while this one runs) refusing anything.
STALE_CHECKER = ("print('{\"opens\": false, \"problem\": \"stale\", "
                 "\"version\": \"0.0.1\"}')")


@pytest.mark.parametrize("command", [
    pytest.param(["/nonexistent/battlemap"], id="cannot-start"),
    pytest.param([sys.executable, "-c", "print('no answer')"], id="no-answer"),
    pytest.param([sys.executable, "-c", STALE_CHECKER], id="another-version"),
])
def test_without_an_answer_from_a_checking_process_the_worker_checks_the_file_itself(
        window: MainWindow, qtbot: QtBot, command: list[str]) -> None:
    window.files.autosaver.check_command = command
    window.document.push(MoveToken("mira", Cell(7, 12)))
    assert token_name(autosaved(window), 0)
    assert "beyond ±2^53" in refused_by_the_loader(window, qtbot)


def test_a_file_over_the_size_a_check_reads_is_checked_by_the_worker(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """``check -`` reads at most the largest file the app opens; an autosave may be bigger
    (a recovery file has no such limit)."""
    monkeypatch.setattr(load_check, "MAX_FILE_BYTES", 1000)
    window.files.autosaver.check_command = [sys.executable, "-c", STALE_CHECKER.replace(
        "0.0.1", app_version())]
    window.document.push(MoveToken("mira", Cell(7, 12)))
    assert token_name(autosaved(window), 0)


@pytest.mark.parametrize("stop", ["discard", "shutdown"])
def test_a_save_or_a_close_stops_the_check_in_flight(window: MainWindow, qtbot: QtBot,
                                                     tmp_path: Path, stop: str) -> None:
    """Rather than wait for its process (a third of a second to start; minutes if hung)."""
    saver = window.files.autosaver
    saver.check_command = checker(tmp_path, seconds=10)
    window.document.push(MoveToken("mira", Cell(7, 12)))
    job = saver.autosave()
    assert job is not None
    qtbot.waitUntil((tmp_path / "checker.pid").exists, timeout=30_000)
    getattr(saver, stop)()
    assert job.done() and not (tmp_path / "answered").exists()
    assert not saver.path.exists() and not saver.failure


def test_an_autosave_due_while_the_gm_is_busy_waits_for_a_pause(window: MainWindow,
                                                               qtbot: QtBot) -> None:
    """Making the JSON takes the GUI thread 35-60 ms on a big map: not in the middle of a
    brush stroke (edits a moment ago) or a drag (a button held)."""
    saver = window.files.autosaver
    window.document.push(MoveToken("mira", Cell(7, 12)))
    saver.timer.timeout.emit()  # due a moment after the edit
    assert not saver.path.exists() and saver.timer.interval() == QUIET_MS
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.MiddleButton)  # a pan, held
    assert QApplication.mouseButtons() == Qt.MouseButton.MiddleButton
    qtbot.wait(2 * QUIET_MS + 200)  # the edit is long past; the button is still down
    assert not saver.path.exists()
    qtbot.mouseRelease(viewport, Qt.MouseButton.MiddleButton)
    qtbot.waitUntil(saver.path.exists, timeout=3 * QUIET_MS)
    assert saver.timer.interval() == AUTOSAVE_MS


def test_a_write_put_off_too_long_is_made_however_busy_the_gm(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """A GM who never pauses still gets a recovery file (every few minutes at worst)."""
    saver = window.files.autosaver
    monkeypatch.setattr(autosave, "MAX_WAIT_MS", 0)
    window.document.push(MoveToken("mira", Cell(7, 12)))
    saver.timer.timeout.emit()  # due a moment after the edit, but put off too long
    saver.wait()
    assert saver.path.exists() and saver.timer.interval() == AUTOSAVE_MS


class FinishedAtOnce(ThreadPoolExecutor):
    """A worker so fast the write is done before ``submit`` returns (as on a busy machine
    where the GUI thread is preempted right after submitting)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except Exception as error:  # handed to the Future, as a real worker does
            done.set_exception(error)
        return done


def test_a_write_that_fails_before_submit_returns_is_still_retried(window: MainWindow) -> None:
    saver = window.files.autosaver
    saver._worker = FinishedAtOnce()
    saver.path.parent.mkdir(parents=True, exist_ok=True)
    saver.path.mkdir()  # a folder where the file should go: the write fails
    window.document.push(MoveToken("mira", Cell(7, 12)))
    saver.autosave()
    assert saver.failure
    saver.path.rmdir()
    assert saver.autosave() is not None  # retried, not taken for a write in flight
    assert not saver.failure and saver.path.is_file()


def test_the_unsaved_changes_prompt_names_the_file_the_title_shows(
        window: MainWindow, tmp_path: Path, answer_dialogs: list[str]) -> None:
    assert window.files.save_to(tmp_path / "gm-round1.json")
    window.document.push(MoveToken("mira", Cell(7, 12)))
    window.files.confirm_discard()
    assert answer_dialogs[-1] == "Unsaved changes: Save the changes to gm-round1.json?"
    assert "gm-round1.json" in window.windowTitle()
