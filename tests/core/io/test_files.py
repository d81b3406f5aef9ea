"""Loading reads only regular files under a cap; saving refuses, before touching any file,
what loading would refuse; temporary files never outlive a save; the limits are documented.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from core.io.fileio import (
    EncounterFileError,
    EncounterSaveError,
    encounter_from_json,
    load_encounter,
    save_encounter,
)
from core.io.files import FileReadError, read_image_file, read_regular_file
from core.model import limits
from core.model.encounter import Encounter, LogEntry
from core.model.mapmodel import Light
from core.model.round import InitiativeEntry

REPO = Path(__file__).resolve().parents[3]
DEMO = REPO / "assets" / "demo_encounter.json"


@pytest.fixture
def demo() -> Encounter:
    return load_encounter(DEMO)


# --- reading files -------------------------------------------------------------------------

def read_in_a_process(path: Path, max_bytes: int) -> str:
    """read_regular_file in a child process, killed after 30 s: a blocking open fails the
    test instead of hanging it."""
    code = ("import sys\nfrom core.io.files import FileReadError, read_regular_file\n"
            "try:\n    print(len(read_regular_file(sys.argv[1], int(sys.argv[2]))))\n"
            "except FileReadError as error:\n    print(error)")
    done = subprocess.run([sys.executable, "-c", code, str(path), str(max_bytes)], cwd=REPO,
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.strip()


def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")  # no writer: opening it for reading would block
    assert read_in_a_process(tmp_path / "pipe.json", 100) == \
        f"{tmp_path / 'pipe.json'} is not a regular file (a FIFO)"


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a character device"),
                                            ("/", "a folder")])
def test_devices_and_folders_are_refused(path: str, kind: str) -> None:
    with pytest.raises(FileReadError, match=re.escape(f"{path} is not a regular file ({kind})")):
        read_image_file(path)


def test_a_file_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    big.write_bytes(bytes(3 * 2**20 + 5))
    with pytest.raises(FileReadError, match=r"big\.png is 3 MiB; the limit is 2 MiB"):
        read_regular_file(big, 2 * 2**20)
    assert read_regular_file(big, 4 * 2**20) == big.read_bytes()


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileReadError, match=r"cannot read .*nothing\.png: No such file"):
        read_image_file(tmp_path / "nothing.png")


def test_load_encounter_refuses_a_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    code = ("import sys\nfrom core.io.fileio import EncounterFileError, load_encounter\n"
            "try:\n    load_encounter(sys.argv[1])\nexcept EncounterFileError as error:\n"
            "    print(error)")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "pipe.json")], cwd=REPO,
                          capture_output=True, text=True, timeout=30, check=True)
    assert "is not a regular file (a FIFO)" in done.stdout


# --- saving refuses what loading would refuse ----------------------------------------------

def refused_save(encounter: Encounter, tmp_path: Path) -> str:
    """Save over an existing file: refused, the old file untouched, no temporary file."""
    target = tmp_path / "enc.json"
    target.write_text("the previous save")
    with pytest.raises(EncounterSaveError) as refused:
        save_encounter(encounter, target)
    assert target.read_text() == "the previous save"
    assert [p.name for p in tmp_path.iterdir()] == ["enc.json"]
    return str(refused.value)


def test_a_non_finite_number_is_not_saved(demo: Encounter, tmp_path: Path) -> None:
    # model_copy does not validate: how an in-app edit can carry infinity
    demo.map.lights = [Light(x=1, y=1, range_cells=2).model_copy(update={"x": math.inf})]
    assert refused_save(demo, tmp_path) == \
        "cannot save: map.lights.0.x is not a finite number (inf)"


def test_nan_in_the_free_form_log_detail_is_not_saved(demo: Encounter, tmp_path: Path) -> None:
    demo.log.append(LogEntry(kind="shove", summary="x", detail={"moved_ft": math.nan}))
    assert refused_save(demo, tmp_path) == \
        "cannot save: log.0.detail.moved_ft is not a finite number (nan)"


def test_a_lone_surrogate_is_not_saved(demo: Encounter, tmp_path: Path) -> None:
    demo.name = "Crypt \udc80"  # e.g. pasted from a file name that is not UTF-8
    assert refused_save(demo, tmp_path) == ("cannot save: name has a lone surrogate (U+DC80), "
                                            "which no UTF-8 file can hold")


def test_a_round_naming_a_removed_token_is_not_saved(demo: Encounter, tmp_path: Path) -> None:
    demo.timeline.entries.append(InitiativeEntry(token_id="ghost"))
    assert refused_save(demo, tmp_path) == ("cannot save: the saved file: file: "
                                            "timeline.entries.0.token_id: no token has the id "
                                            "'ghost'")


def test_what_loads_saves_to_what_loads(demo: Encounter, tmp_path: Path) -> None:
    save_encounter(demo, tmp_path / "demo.json")
    assert load_encounter(tmp_path / "demo.json").model_dump() == demo.model_dump()


# --- temporary files -----------------------------------------------------------------------

def test_a_save_sweeps_temporary_files_of_dead_processes_only(demo: Encounter,
                                                              tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    orphan = tmp_path / f".enc.json.{dead}.abc123.tmp"  # left by a save killed mid-write
    alive = tmp_path / f".enc.json.{os.getppid()}.def456.tmp"  # another process saving now
    other = tmp_path / f".other.json.{dead}.abc123.tmp"  # another file's
    for path in (orphan, alive, other):
        path.write_text("half a file")
    save_encounter(demo, tmp_path / "enc.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["enc.json", alive.name, other.name])


WRITE_WITH_A_FULL_DISK = """
import resource, signal, sys
from core.io.fileio import load_encounter, save_encounter
encounter = load_encounter(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # then a write past the limit fails: EFBIG
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
try:
    save_encounter(encounter, sys.argv[2])
except OSError as error:
    print(error.strerror)
"""


def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temporary_one(tmp_path: Path
                                                                           ) -> None:
    target = tmp_path / "enc.json"
    target.write_text("the previous save")
    done = subprocess.run([sys.executable, "-c", WRITE_WITH_A_FULL_DISK, str(DEMO), str(target)],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=True,
                          # a .pyc cut short by the limit would break later imports
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.stdout.strip() == "File too large"
    assert target.read_text() == "the previous save"
    assert [p.name for p in tmp_path.iterdir()] == ["enc.json"]


# --- limits --------------------------------------------------------------------------------

def test_every_limit_is_in_the_documented_table() -> None:
    docs = (REPO / "docs" / "file-format.md").read_text(encoding="utf-8")
    table = docs[docs.index("## Limits"):docs.index("## Version policy")]
    names = [name for name in vars(limits) if name.startswith("MAX_")]
    assert names
    assert [name for name in names if f"`{name}`" not in table] == []


def test_a_million_walls_are_refused_by_count_naming_the_field() -> None:
    walls = ",".join(['{"x1":1,"y1":0,"x2":1,"y2":1}'] * (limits.MAX_WALLS + 1))
    text = f'{{"schema":"battlemap.encounter","version":1,"map":{{"walls":[{walls}]}}}}'
    with pytest.raises(EncounterFileError,
                       match=r"x\.json: map\.walls: 100,001 walls; at most 100,000"):
        encounter_from_json(text, "x.json")
