"""The ``hostile`` benchmark group: every file of the hostile corpus through the headless
commands, each in its own process under a time and memory limit; seconds and peak memory.

    python benchmarks/run.py --only hostile
    python benchmarks/hostile.py [--repo DIR] [--timeout S] [--memory-mib M]   (another checkout)

The small files are ``tests/hostile/corpus/``; the big ones are written by
``tests/hostile/make_corpus.py --big`` into a temporary folder. :func:`run_limited` is also
what the hostile-file tests use, so a regression fails there instead of hanging CI.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "hostile" / "corpus"
MAKE_CORPUS = ROOT / "tests" / "hostile" / "make_corpus.py"
CLI = "import sys; from desktop.cli.main import main; sys.exit(main())"
GUI_OPEN = str(ROOT / "benchmarks" / "hostile_gui_open.py")
LOAD = ("import sys; from core.io.fileio import EncounterFileError, load_encounter\n"
        "try:\n    load_encounter(sys.argv[1])\n"
        "except EncounterFileError as error:\n    print(error, file=sys.stderr); sys.exit(2)")
RESTORE = ("import sys; from pathlib import Path\n"
           "from desktop.document.autosave import RecoveryError, read_recovery\n"
           "try:\n    read_recovery(Path(sys.argv[1]))\n"
           "except RecoveryError as error:\n    print(error, file=sys.stderr); sys.exit(2)")
#: Runs ARGV in a process of its own (forked from this small one, not from the caller: a
#: child's peak resident memory starts at its parent's, a test run's gigabytes) with at most
#: LIMIT bytes of address space; its exit status is passed on and its peak resident KiB
#: written to PEAK_FILE.
LIMIT = ("import os, resource, sys; limit, peak_file = int(sys.argv[1]), sys.argv[2]\n"
         "pid = os.fork()\n"
         "if pid == 0:\n"
         "    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
         "    os.execv(sys.argv[3], sys.argv[3:])\n"
         "_, status, usage = os.wait4(pid, 0)\n"
         "open(peak_file, 'w').write(str(usage.ru_maxrss))\n"
         "code = os.waitstatus_to_exitcode(status)\n"
         "sys.exit(code if code >= 0 else 128 - code)")
MiB = 2**20


@dataclass(frozen=True)
class Run:
    """How one bounded process ended: exit code (128 + N: killed by signal N, None: timed
    out), its output, wall seconds and peak resident memory."""

    code: int | None
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float


def run_limited(argv: list[str], cwd: Path, timeout: float, memory_mib: int,
                env: dict[str, str] | None = None) -> Run:
    """Run ``argv`` with at most ``memory_mib`` of address space (RLIMIT_AS, set by a small
    Python that forks and execs ``argv``: safe from threads, unlike preexec_fn) and kill it
    after ``timeout`` seconds; its peak RSS comes from that Python's wait4, so it is the
    command's own. ``env``: its environment (default: this one, with Qt's offscreen
    platform). A signal that ended it is an exit status of 128 + its number, as a shell
    says."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"} if env is None else env
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        limited = [sys.executable, "-c", LIMIT, str(memory_mib * MiB), peak.name, *argv]
        process = subprocess.Popen(limited, cwd=cwd, stdout=out, stderr=err, env=env,
                                   start_new_session=True)
        code = _wait(process, timeout)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        peak_kib = int(peak.read() or 0)
        return Run(code, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), seconds, peak_kib / 1024)


def _wait(process: subprocess.Popen[bytes], timeout: float) -> int | None:
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None


def commands(entry: dict[str, Any], path: Path, scratch: Path) -> dict[str, list[str]]:
    """The commands a corpus file goes through, by name: the headless ones, the GUI's open
    with the player window (``gui-open``) and the entry's ruling, applied and saved
    (``ruling``, written to :func:`ruled`)."""
    python = sys.executable
    gui_open = [python, GUI_OPEN, str(path)]
    if entry["kind"] == "uvtt":
        return {"import": [python, "-c", CLI, "import", str(path), "--out",
                           str(scratch / f"{path.stem}.json")], "gui-open": gui_open}
    if entry["kind"] == "recovery":
        return {"restore": [python, "-c", RESTORE, str(path)]}
    shove = ["shove", str(path), "--attacker", "a", "--target", "b"]
    named = {"load": [python, "-c", LOAD, str(path)],
             "resolve": [python, "-c", CLI, "resolve", *shove, "--seed", "1"],
             "odds": [python, "-c", CLI, "odds", *shove],
             "render": [python, "-c", CLI, "render", str(path), "--out",
                        str(scratch / f"{path.stem}.png"), "--size", "320x200",
                        "--view", entry.get("view", "gm")],
             "gui-open": gui_open}
    ruling = entry.get("ruling")
    if ruling:
        named["ruling"] = [python, "-c", CLI, "resolve", ruling[0], str(path), *ruling[1:],
                           "--seed", "1", "--apply", "--out", str(ruled(path, scratch))]
    return named


def ruled(path: Path, scratch: Path) -> Path:
    """Where the ``ruling`` command writes the encounter it applied."""
    return scratch / f"{path.stem}-ruled.json"


def manifest(folder: Path) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads((folder / "MANIFEST.json").read_text("utf-8"))
    return entries


def measure(repo: Path, folders: list[Path], timeout: float, memory_mib: int
            ) -> dict[str, Any]:
    """Figures for every file and command: exit code, seconds, peak MiB, first stderr line
    (and the entry's own bound of its peak, ``peak_mib``, when it has one)."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for folder in folders:
            for entry in manifest(folder):
                path = folder / entry["file"]
                print(f"  {entry['file']}", file=sys.stderr, flush=True)
                figures[entry["file"]] = {
                    name: _summary(run_limited(argv, repo, timeout,
                                               memory_for(entry, memory_mib)))
                    | ({"peak_bound_mib": entry["peak_mib"]} if entry.get("peak_mib") else {})
                    for name, argv in commands(entry, path, Path(scratch)).items()}
    return figures


def _summary(run: Run) -> dict[str, Any]:
    lines = run.stderr.strip().splitlines()
    outcome = {None: "timeout"}.get(run.code, f"exit {run.code}")
    return {"outcome": outcome, "s": round(run.seconds, 2), "peak_mib": round(run.peak_mib),
            "stderr_lines": len(lines), "stderr_last": lines[-1][:160] if lines else ""}


def make_big(folder: Path, repo: Path = ROOT) -> None:
    subprocess.run([sys.executable, str(MAKE_CORPUS), "--big", str(folder)], cwd=repo,
                   check=True)


def memory_for(entry: dict[str, Any], memory_mib: int) -> int:
    """The address space a command on this entry gets: twice the resident memory it may
    take, when the entry says (Qt maps far more than it touches), else ``memory_mib``."""
    return max(memory_mib, 2 * entry.get("peak_mib", 0))


def run(seed: int, repo: Path = ROOT, timeout: float = 30, memory_mib: int = 1024
        ) -> dict[str, Any]:
    """The benchmark group (``seed`` is unused: the corpus is fixed)."""
    with tempfile.TemporaryDirectory() as big:
        make_big(Path(big))
        files = measure(repo, [CORPUS, Path(big)], timeout, memory_mib)
    runs = [c for f in files.values() for c in f.values()]
    bounded = [c for c in runs if "peak_bound_mib" in c]
    return {"limits": {"timeout_s": timeout, "memory_mib": memory_mib}, "files": files,
            "slowest_s": max(c["s"] for c in runs),
            "bombs_peak_mib": max((c["peak_mib"] for c in bounded), default=0),
            "targets": {"every_command_under_5_s": {
                "met": all(c["s"] < 5 and c["outcome"] != "timeout" for c in runs),
                "target_s": 5},
                "image_bombs_within_their_peak_memory": {
                "met": all(c["peak_mib"] <= c["peak_bound_mib"] for c in bounded),
                "target_mib": 1536}}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=ROOT,
                        help="checkout whose code runs the corpus (default: this one)")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--memory-mib", type=int, default=1024)
    args = parser.parse_args()
    print(json.dumps(run(0, args.repo.resolve(), args.timeout, args.memory_mib), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
