"""Every file of the hostile corpus through the headless commands, the loader and the GUI's
open (a real main window, offscreen), each in its
own process with 1 GiB of address space and a kill timer, so a regression fails here
instead of hanging or swapping CI.

A refused file: exit status 2 and one line on stderr that names the field (the loader:
EncounterFileError saying the same). A handled file: it loads and every command exits 0.
A ruling applied to a handled file writes a file that loads again; an entry's ``peak_mib``
bounds the resident memory of each of its commands (measured, not limited: the address
space it may take is twice that). The small files are committed (``make_corpus.py`` must
reproduce them byte for byte); the big ones are written by ``make_corpus.py --big`` into a
temporary folder once per run.
The timer is a guard against hangs, not a speed test: the figures are ``benchmarks/hostile.py``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from benchmarks.hostile import (
    CORPUS,
    MAKE_CORPUS,
    Run,
    commands,
    make_big,
    memory_for,
    ruled,
    run_limited,
)
from core.io.fileio import load_encounter

REPO = Path(__file__).resolve().parents[2]
GUARD_S = 60
MEMORY_MIB = 1024


def corpus_module() -> ModuleType:
    """make_corpus.py, for its lists of files (it is a script, not a package module)."""
    spec = importlib.util.spec_from_file_location("make_corpus", MAKE_CORPUS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


MAKE = corpus_module()


def cases(entries: list[Any]) -> list[Any]:
    """(entry, commands) params: each file with all its commands (run side by side)."""
    params = []
    for case in entries:
        entry = asdict(case)
        names = tuple(commands(entry, Path(entry["file"]), Path()))
        params.append(pytest.param(entry, names, id=entry["file"]))
    return params


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big-corpus")
    make_big(folder, REPO)
    return folder


def run_commands(entry: dict[str, Any], names: tuple[str, ...], folder: Path, scratch: Path
                 ) -> None:
    """Run the named commands on the file side by side, then check each."""
    argvs = commands(entry, folder / entry["file"], scratch)
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        runs = dict(zip(names, pool.map(
            lambda name: run_limited(argvs[name], REPO, GUARD_S, memory_for(entry, MEMORY_MIB)),
            names), strict=True))
    for name, run in runs.items():
        check(entry, name, run, scratch)


def check(entry: dict[str, Any], command: str, run: Run, scratch: Path) -> None:
    where = f"{entry['file']} through {command}"
    assert run.code is not None, f"{where}: killed after {run.seconds:.0f} s (a hang)"
    if entry.get("peak_mib"):
        assert run.peak_mib <= entry["peak_mib"], f"{where}: {run.peak_mib:.0f} MiB resident"
    if entry["expect"] == "refused":
        lines = run.stderr.strip().splitlines()
        assert (run.code, len(lines)) == (2, 1), f"{where}: {run.stderr[-2000:]}"
        assert entry["field"] in lines[0], where
        assert lines[0].startswith("battlemap: " if command not in ("load", "gui-open",
                                                                    "restore") else ""), where
        return
    assert run.code == 0, f"{where}: {run.stderr[-2000:]}"
    if command == "import":  # what the import wrote opens again
        load_encounter(scratch / f"{Path(entry['file']).stem}.json")
    if command == "ruling":  # the ruling was applied and saved
        load_encounter(ruled(Path(entry["file"]), scratch))


def test_the_committed_corpus_is_what_the_generator_writes(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--small", str(tmp_path)], check=True)
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == sorted(path.name for path in CORPUS.iterdir())
    for name in written:
        assert (tmp_path / name).read_bytes() == (CORPUS / name).read_bytes(), name


@pytest.mark.parametrize(("entry", "names"), cases([case for case, _ in MAKE.SMALL]))
def test_small_hostile_file(entry: dict[str, Any], names: tuple[str, ...], tmp_path: Path
                            ) -> None:
    run_commands(entry, names, CORPUS, tmp_path)


@pytest.mark.parametrize(("entry", "names"), cases([case for case, _ in MAKE.BIG]))
def test_big_hostile_file(entry: dict[str, Any], names: tuple[str, ...], big_corpus: Path,
                          tmp_path: Path) -> None:
    run_commands(entry, names, big_corpus, tmp_path)
