"""Images decoded within a pixel budget: sized from their headers, decoded at the size they
are shown, or not at all (and the GM told why); one decoding per encounter, shared by the
GM's map and the player window."""

from __future__ import annotations

import base64
import hashlib
import struct
import zlib
from pathlib import Path

import pytest

from core.actions.commands import SetBackground
from core.actions.portraits import SetPortrait
from core.model.limits import MAX_IMAGE_PIXELS, MAX_PORTRAIT_PIXELS
from core.model.mapmodel import Background
from core.model.portrait import Portrait
from desktop.dialogs.edits import BackgroundDialog
from desktop.document.images import (
    PORTRAIT_PX,
    ImageRefusedError,
    art_of,
    decode_within,
    size_problem,
)
from desktop.document.portraits import PortraitError, portrait_from_file
from desktop.document.portraits import png_bytes as encoded_png
from desktop.mainwindow import MainWindow
from desktop.qt import QImage, Qt


def grey_png(width: int, height: int) -> bytes:
    """A PNG of width × height zero pixels: 8000 × 8000 compresses to ~62 KB."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    squeeze = zlib.compressobj(9)
    row = bytes(width + 1)
    idat = b"".join(squeeze.compress(row) for _ in range(height)) + squeeze.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat)
            + chunk(b"IEND", b""))


def red_png(width: int, height: int) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.red)
    data = encoded_png(image)
    assert data is not None
    return data


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return grey_png(8000, 8000)


def test_an_image_over_its_budget_is_refused_from_its_header(
        qapp: object, bomb: bytes) -> None:
    """62 KB of PNG that would decode into 256 MB."""
    assert len(bomb) < 100_000
    with pytest.raises(ImageRefusedError, match=r"8000×8000 pixels, more than the 1,048,576"):
        decode_within(bomb, MAX_PORTRAIT_PIXELS, PORTRAIT_PX)
    assert size_problem(bomb, MAX_IMAGE_PIXELS) is None  # a map image may be that big
    assert size_problem(b"not an image", MAX_IMAGE_PIXELS) == "it is not a PNG, JPEG or WebP image"


@pytest.mark.parametrize(("cover", "size"), [(False, (256, 128)), (True, (512, 256))])
def test_an_image_is_decoded_at_the_size_it_is_shown(qapp: object, cover: bool,
                                                     size: tuple[int, int]) -> None:
    image = decode_within(red_png(1024, 512), MAX_PORTRAIT_PIXELS, PORTRAIT_PX, cover=cover)
    assert (image.width(), image.height()) == size


def portrait_of(raw: bytes) -> tuple[str, Portrait]:
    return hashlib.sha256(raw).hexdigest()[:16], Portrait(
        format="png", data_base64=base64.b64encode(raw).decode("ascii"))


def test_art_over_the_budget_shows_initials_and_the_window_says_why(
        window: MainWindow, bomb: bytes, tmp_path: Path) -> None:
    key, art = portrait_of(bomb)
    window.document.push(SetPortrait("mira", key, art))
    window.document.push(SetBackground(Background(data_base64=base64.b64encode(
        grey_png(9000, 9000)).decode("ascii"))))
    assert window.scene.tokens["mira"].portrait is None
    notes = art_of(window.document.encounter).notes()
    assert notes.startswith("Mira's portrait is not shown: it is 8000×8000 pixels"), notes
    assert notes.endswith("(and 1 more)")
    assert window.files.save_to(tmp_path / "bombs.json")
    messages: list[str] = []
    window.files.message.connect(messages.append)
    assert window.files.open_path(tmp_path / "bombs.json")
    assert "is not shown: it is" in messages[-1]


def test_the_gm_and_the_players_scenes_share_each_decoded_image(window: MainWindow) -> None:
    key, art = portrait_of(red_png(300, 300))
    window.document.push(SetPortrait("mira", key, art))
    window.document.push(SetBackground(Background(data_base64=base64.b64encode(
        red_png(640, 480)).decode("ascii"))))
    window.table.show_player_window()
    players = window.table.player_window
    assert players is not None
    gm, theirs = window.scene, players.scene
    assert gm.tokens["mira"].portrait is not None
    assert gm.tokens["mira"].portrait.cacheKey() == theirs.tokens["mira"].portrait.cacheKey()
    assert gm.tokens["mira"].portrait.width() == PORTRAIT_PX
    assert gm._background is not None and theirs._background is not None
    assert gm._background.cacheKey() == theirs._background.cacheKey()
    window.table.show_player_window(False)


def test_an_image_file_chosen_as_art_is_refused_when_too_many_pixels(
        window: MainWindow, tmp_path: Path) -> None:
    huge = tmp_path / "huge.png"
    huge.write_bytes(grey_png(9000, 9000))
    with pytest.raises(PortraitError, match=r"huge\.png cannot be a portrait: it is 9000×9000"):
        portrait_from_file(huge)
    dialog = BackgroundDialog(None, window)
    assert not dialog.load_file(huge)
    assert "Cannot use huge.png: it is 9000×9000 pixels" in dialog.error.text()
