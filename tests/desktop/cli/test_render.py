"""``battlemap render``: a PNG of the requested size, a bad size refused, and ``--view player``
(what the players see) pixel by pixel against the GM's render of the same file."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.actions.commands import MoveToken
from core.io.fileio import load_encounter, save_encounter
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.model.mapmodel import BattleMap, Hazard, HazardKind, WallSegment
from desktop.cli.main import main
from desktop.cli.render import MARGIN_PX
from desktop.mainwindow import MainWindow
from desktop.map import style
from desktop.map.fog_layer import PLAYERS_FOG
from desktop.map.renderer import CELL_PX
from desktop.qt import QColor, QImage

WIDTH, HEIGHT = 10, 6  # cells; rendered at one pixel per scene pixel (no scaling)
SIZE = f"{WIDTH * 50 + 2 * MARGIN_PX}x{HEIGHT * 50 + 2 * MARGIN_PX}"


def room(fog_enabled: bool = True) -> Encounter:
    """A (party) west of a wall at x = 5; O (opposition) east of it; a spell area only the
    GM knows about right beside A, and a pit both may see."""
    secret = Hazard(name="Glyph", kind=HazardKind.SPELL, cells=(Cell(2, 4), Cell(3, 4)),
                    gm_only=True)
    pit = Hazard(name="Pit", kind=HazardKind.PIT, cells=(Cell(1, 4),))
    encounter = Encounter(
        map=BattleMap(width=WIDTH, height=HEIGHT, hazards=[secret, pit],
                      walls=[WallSegment(x1=5, y1=0, x2=5, y2=HEIGHT)]),
        tokens=[Token(id="a", combatant=Combatant(name="A"), x=1, y=2),
                Token(id="o", combatant=Combatant(name="O", side=Side.OPPOSITION), x=8, y=2)])
    encounter.fog = encounter.fog.model_copy(update={"enabled": fog_enabled})
    return encounter


def render(tmp_path: Path, encounter: Encounter, view: str) -> QImage:
    source, out = tmp_path / "e.json", tmp_path / f"{view}.png"
    save_encounter(encounter, source)
    assert main(["render", str(source), "--out", str(out), "--size", SIZE,
                 "--view", view]) == 0
    return QImage(str(out))


def at(image: QImage, cell: Cell, dx: float = 0.5, dy: float = 0.5) -> QColor:
    """The pixel at a point of a cell (fractions of the cell from its top-left)."""
    return image.pixelColor(round(MARGIN_PX + (cell.x + dx) * CELL_PX),
                            round(MARGIN_PX + (cell.y + dy) * CELL_PX))


@pytest.mark.parametrize("fog_enabled", [True, False])
def test_a_hidden_hazard_never_appears_in_the_player_render(tmp_path: Path,
                                                            fog_enabled: bool) -> None:
    encounter = room(fog_enabled)
    gm, players = render(tmp_path, encounter, "gm"), render(tmp_path, encounter, "player")
    for cell in (Cell(2, 4), Cell(3, 4)):
        assert at(gm, cell) != style.FLOOR  # the GM sees the glyph
        assert at(players, cell) == style.FLOOR  # the players see bare floor
    assert at(players, Cell(1, 4)) == at(gm, Cell(1, 4)) != style.FLOOR  # the pit: both
    # The name plate (white) hangs just above the glyph's first cell: the GM's only.
    def plate(image: QImage) -> int:
        return max(at(image, Cell(2, 4), dx / 10, -0.18).lightness() for dx in range(15))

    assert plate(gm) > style.FLOOR.lightness() >= plate(players)


def test_a_token_behind_a_wall_is_hidden_from_the_players_only(tmp_path: Path) -> None:
    encounter = room()
    gm, players = render(tmp_path, encounter, "gm"), render(tmp_path, encounter, "player")
    beside_the_letter = (0.25, 0.5)
    assert at(gm, Cell(8, 2), *beside_the_letter) == style.TOKEN_FILL
    assert at(players, Cell(8, 2), *beside_the_letter) == PLAYERS_FOG.unseen
    assert at(players, Cell(1, 2), *beside_the_letter) == style.TOKEN_FILL  # A sees itself
    assert at(gm, Cell(7, 4)) == style.FLOOR and at(players, Cell(7, 4)) == PLAYERS_FOG.unseen


def test_with_fog_off_the_players_see_every_token_but_hidden_ones(tmp_path: Path) -> None:
    encounter = room(fog_enabled=False)
    encounter.put_token(encounter.token("a").model_copy(update={"gm_only": True}))
    players = render(tmp_path, encounter, "player")
    assert at(players, Cell(8, 2), 0.25, 0.5) == style.TOKEN_FILL
    assert at(players, Cell(1, 2), 0.25, 0.5) == style.FLOOR


def test_explored_areas_survive_save_and_load(qtbot: QtBot, window: MainWindow,
                                              tmp_path: Path) -> None:
    """Sister Hale looks round the east room of the demo and leaves it: after a save and a
    load the players still see that room dimmed, and nothing standing in it."""
    window.document.push(MoveToken("hale", Cell(17, 9)))
    window.document.push(MoveToken("hale", Cell(10, 8)))
    path = tmp_path / "explored.json"
    window.files.save_to(path)
    loaded = load_encounter(path)
    assert loaded.fog == window.document.encounter.fog and loaded.fog.explored
    out = tmp_path / "players.png"
    assert main(["render", str(path), "--out", str(out), "--size", "1240x840",
                 "--view", "player"]) == 0
    image = QImage(str(out))
    dimmed = at(image, Cell(20, 12))
    assert dimmed != PLAYERS_FOG.unseen and dimmed.value() < style.FLOOR.value() / 2
    giant = at(image, Cell(18, 3), 0.0, 0.5)  # the Hill Giant's disc, unseen now
    assert giant.value() < style.TOKEN_FILL.value() / 2


def test_a_bad_view_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save_encounter(room(), tmp_path / "e.json")
    with pytest.raises(SystemExit):
        main(["render", str(tmp_path / "e.json"), "--out", str(tmp_path / "x.png"),
              "--view", "everyone"])
    assert "invalid choice: 'everyone'" in capsys.readouterr().err


def test_render_writes_a_png_of_the_requested_size(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    demo = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
    assert main(["render", str(demo), "--out", str(out), "--size", "800x500"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 500)
    colours = {image.pixel(x, y) for x in range(0, 800, 20) for y in range(0, 500, 20)}
    assert len(colours) > 5  # not blank


@pytest.mark.parametrize("size", ["800", "10x10", "axb"])
def test_render_rejects_a_bad_size(
    tmp_path: Path, size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = Path(__file__).resolve().parents[3] / "assets" / "demo_encounter.json"
    assert main(["render", str(demo), "--out", str(tmp_path / "x.png"), "--size", size]) == 2
    assert "--size" in capsys.readouterr().err
