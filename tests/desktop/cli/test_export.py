"""``battlemap export FILE.json OUT.dd2vtt``: a real map imported, saved, exported and
imported again keeps its walls, doors, windows, lights and image; a drawn map goes out with
its picture; a bad file writes nothing (exit 2). The drawn-map test needs Qt."""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path

import pytest

from core.io.fileio import save_encounter
from core.io.uvtt import image_size, import_uvtt_file
from core.io.uvtt_export import render_px_per_cell
from core.model.encounter import Encounter
from desktop.cli.main import main
from desktop.system.resources import DEMO

FIXTURE = (Path(__file__).resolve().parents[2] / "fixtures" / "uvtt"
           / "dd03_objects_lights_test.dd2vtt")


def test_an_imported_map_goes_back_out_as_it_came(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    first = import_uvtt_file(FIXTURE).encounter
    save_encounter(first, tmp_path / "map.json")
    out = tmp_path / "map.dd2vtt"
    assert main(["export", str(tmp_path / "map.json"), str(out)]) == 0
    assert "197 walls, 3 doors, 0 windows, 50 sight-blocking objects, 1 lights, the " \
           "background image" in capsys.readouterr().out
    again = import_uvtt_file(out).encounter
    assert Counter(w.model_dump_json() for w in again.map.walls) == Counter(
        w.model_dump_json() for w in first.map.walls)
    assert again.map.lights == first.map.lights
    assert again.map.background == first.map.background


def test_a_file_that_does_not_open_writes_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "battlemap.encounter", "version": 9}')
    assert main(["export", str(bad), str(tmp_path / "out.dd2vtt")]) == 2
    assert "format version 9" in capsys.readouterr().err
    assert not (tmp_path / "out.dd2vtt").exists()


def test_a_drawn_map_goes_out_with_its_picture(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    out = tmp_path / "demo.dd2vtt"
    assert main(["export", str(DEMO), str(out)]) == 0
    data = json.loads(out.read_bytes())
    size = image_size(base64.b64decode(data["image"]))
    demo = Encounter.model_validate_json(DEMO.read_bytes())
    ppc = render_px_per_cell(demo.map)
    assert size == ("png", (demo.map.width * ppc, demo.map.height * ppc))
    assert data["resolution"]["pixels_per_grid"] == ppc
    again = import_uvtt_file(out).encounter
    assert len(again.map.walls) == len(demo.map.walls)
    assert not again.tokens
