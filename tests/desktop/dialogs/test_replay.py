"""The replay scrubber's log list: a step adds or takes away only the rows the step wrote,
the other rows stay the same widgets."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from core.actions.commands import AppendLog
from core.actions.history import History
from core.model.encounter import Encounter, LogEntry
from desktop.dialogs.replay import ReplayDialog
from desktop.qt import Qt

MARK = Qt.ItemDataRole.UserRole


def noted(steps: int) -> History:
    history = History(Encounter())
    for number in range(steps):
        history.push(AppendLog(LogEntry(kind="note", summary=f"note {number}")))
    return history


def test_a_step_changes_only_its_own_rows(qtbot: QtBot) -> None:
    dialog = ReplayDialog(noted(600))
    qtbot.addWidget(dialog)
    rows = dialog.log
    assert rows.count() == 600 and dialog.highlighted() == ["note 599"]
    for row in range(rows.count()):
        rows.item(row).setData(MARK, row)  # a refilled list would lose the marks
    dialog.slider.setValue(599)
    assert rows.count() == 599 and dialog.highlighted() == ["note 598"]
    assert [rows.item(row).data(MARK) for row in range(599)] == list(range(599))
    assert [item.text() for item in rows.selectedItems()] == ["note 598"]
    dialog.slider.setValue(200)
    assert rows.count() == 200 and dialog.highlighted() == ["note 199"]
    assert rows.item(199).data(MARK) == 199
    dialog.slider.setValue(201)
    assert rows.count() == 201 and dialog.highlighted() == ["note 200"]
    assert rows.item(200).data(MARK) is None and rows.item(199).data(MARK) == 199
    dialog.slider.setValue(0)
    assert rows.count() == 0 and dialog.highlighted() == []
    dialog.slider.setValue(600)
    assert [rows.item(row).text() for row in (0, 599)] == ["note 0", "note 599"]
    assert dialog.highlighted() == ["note 599"]
