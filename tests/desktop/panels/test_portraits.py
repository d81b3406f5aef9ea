"""Token portraits: picked from a file, embedded, shown on the map and in the panel, saved."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from core.actions.commands import UpdateCombatant
from core.actions.portraits import SetPortrait
from desktop.document.images import PORTRAIT_PX
from desktop.mainwindow import MainWindow
from desktop.panels.context_menus import TokenMenu
from desktop.panels.portraits import set_portrait_from_file
from desktop.qt import QColor, QImage, QMenu, QPainter, Qt
from tests.desktop.qt_fixtures import red_image


def token_colour(window: MainWindow, token_id: str) -> QColor:
    """The colour the token paints a third of the way down its circle."""
    item = window.scene.tokens[token_id]
    image = QImage(item.boundingRect().size().toSize(), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    item.paint(painter, None, None)  # type: ignore[arg-type]
    painter.end()
    return QColor(image.pixel(image.width() // 2, image.height() // 3))


def is_red(colour: QColor) -> bool:
    return colour.red() > 200 and colour.green() < 60 and colour.blue() < 60


def test_an_older_file_s_portrait_path_is_still_shown(window: MainWindow,
                                                      tmp_path: Path) -> None:
    portrait = red_image(tmp_path / "mira.png")
    mira = window.document.encounter.token("mira").combatant
    window.document.push(UpdateCombatant("mira", mira.model_copy(update={"image": str(portrait)})))
    assert is_red(token_colour(window, "mira"))


def test_a_picked_image_is_embedded_shown_and_saved(window: MainWindow, tmp_path: Path) -> None:
    """A 600×300 picture becomes a 256-pixel square portrait inside the encounter file."""
    picture = red_image(tmp_path / "mira-art.jpg", 600)
    before = token_colour(window, "mira")
    assert set_portrait_from_file(window.document, "mira", picture, window)
    key = window.document.encounter.token("mira").combatant.portrait
    assert key is not None
    art = QImage.fromData(window.document.encounter.portraits[key].raw())
    assert (art.width(), art.height()) == (PORTRAIT_PX, PORTRAIT_PX)
    assert is_red(token_colour(window, "mira"))
    assert window.files.save_to(tmp_path / "saved.json")
    picture.unlink()  # the file keeps its own copy
    assert window.files.open_path(tmp_path / "saved.json")
    assert is_red(token_colour(window, "mira"))
    window.document.push(SetPortrait("mira", None))
    assert token_colour(window, "mira") == before
    assert window.document.encounter.portraits == {}


def test_the_token_menu_offers_and_removes_a_portrait(window: MainWindow,
                                                      tmp_path: Path) -> None:
    menu = TokenMenu(window.document, "mira", [], window)
    assert "Portrait…" in texts(menu) and "Remove portrait" not in texts(menu)
    assert set_portrait_from_file(window.document, "mira", red_image(tmp_path / "a.png"), window)
    menu = TokenMenu(window.document, "mira", [], window)
    next(a for a in menu.actions() if a.text() == "Remove portrait").trigger()
    assert window.document.encounter.token("mira").combatant.portrait is None
    window.document.undo()
    assert is_red(token_colour(window, "mira"))


def texts(menu: QMenu) -> list[str]:
    return [action.text() for action in menu.actions()]


@pytest.mark.parametrize("make", ["fifo", "text", "missing"])
def test_a_file_that_cannot_be_a_portrait_is_explained(
        window: MainWindow, tmp_path: Path, answer_dialogs: list[str], make: str) -> None:
    path = tmp_path / "art.png"
    if make == "fifo":
        os.mkfifo(path)  # would block a plain open() forever
    elif make == "text":
        path.write_text("not an image", "utf-8")
    revision = window.document.revision
    assert not set_portrait_from_file(window.document, "mira", path, window)
    assert window.document.revision == revision
    expected = {"fifo": "not a regular file (a FIFO", "text": "not a PNG, JPEG or WebP",
                "missing": "art.png"}[make]
    assert answer_dialogs and expected in answer_dialogs[-1]


def test_the_token_panel_shows_the_portrait_and_removes_it(window: MainWindow,
                                                           tmp_path: Path) -> None:
    panel = window.token_panel
    panel.select_tokens({"mira"})
    row = panel.form.portrait
    assert row.thumbnail.text() == "none" and not row.remove.isEnabled()
    assert set_portrait_from_file(window.document, "mira", red_image(tmp_path / "a.png"), window)
    assert row.thumbnail.pixmap().width() == row.THUMB_PX and row.remove.isEnabled()
    row.remove.click()
    assert window.document.encounter.token("mira").combatant.portrait is None
    assert row.thumbnail.text() == "none"


def test_a_drag_dropped_where_it_started_keeps_the_portrait(
        window: MainWindow, tmp_path: Path, drag: Callable[..., None]) -> None:
    assert set_portrait_from_file(window.document, "mira", red_image(tmp_path / "a.png"), window)
    drag((6, 9), [(7, 9), (6, 9)])  # the token goes back to its own cell: nothing to do
    assert is_red(token_colour(window, "mira"))
