"""The ``startup`` group: what a user waits for, each in a fresh process, several times.

- ``battlemap --help`` and ``battlemap --version`` (the installed entry point);
- the demo's first frame: from just before the process is started to the end of the first
  paint pass of the window (the map and the docks), measured by
  ``benchmarks/first_frame_probe.py`` on the offscreen platform.

Medians with the fastest and slowest run; the first run of each is kept (a cold start is
what a user meets first). The source tree's bytecode is compiled first, as ``pip install``
does for a user (without it every start compiled the changed modules again where
``PYTHONDONTWRITEBYTECODE`` is set: ~100 ms). The first frame's CPU time (user + system,
all threads) is reported beside the wall time: a start that waited on the disk shows as
wall time well above the CPU time.
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.timing import Figures, spread_ms

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
# Eleven: medians of five runs of the same code differed by 140 ms (572-711) minutes apart.
FRAME_RUNS = 11
TARGETS = {"help_median_ms": 150, "version_median_ms": 150, "first_frame_median_ms": 350}


def _log(message: str) -> None:
    print(f"[startup] {message}", file=sys.stderr, flush=True)


def entry_point() -> list[str]:
    """The installed ``battlemap`` script beside this Python, else the module."""
    script = Path(sys.executable).parent / "battlemap"
    if script.exists():
        return [str(script)]
    found = shutil.which("battlemap")
    return [found] if found else [sys.executable, "-c",
                                  "import sys; from desktop.cli.main import main; sys.exit(main())"]


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "PYTHONPATH": str(ROOT)}


def time_command(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
    return time.perf_counter() - start


def first_frame(env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from starting the process to its first painted frame, the CPU seconds the
    process used, and the zoom then."""
    cpu_before = _children_cpu()
    start = time.monotonic()
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "first_frame_probe.py")],
                          check=True, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["painted_at"] - start, _children_cpu() - cpu_before, report["zoom"]


def _children_cpu() -> float:
    """CPU seconds used by the child processes waited for so far (the probes run one by
    one, so a difference is one probe's)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_sources() -> None:
    """Write the bytecode of the app's packages, as installing it does."""
    for package in ("core", "desktop", "assets", "benchmarks"):
        compileall.compile_dir(ROOT / package, quiet=1)


def run(seed: int) -> Figures:
    del seed  # nothing random here
    figures: Figures = {}
    compile_sources()
    with tempfile.TemporaryDirectory(prefix="battlemap-startup-") as tmp:
        env = _env(Path(tmp))
        command = entry_point()
        for name, flag in (("help", "--help"), ("version", "--version")):
            samples = [time_command([*command, flag], env) for _ in range(RUNS)]
            figures |= {f"{name}_first_ms": round(samples[0] * 1e3, 1),
                        **spread_ms(name, samples)}
            _log(f"{flag}: median {figures[f'{name}_median_ms']} ms")
        python = [time_command([sys.executable, "-c", "pass"], env) for _ in range(RUNS)]
        figures |= spread_ms("bare_python", python)
        frames = [first_frame(env) for _ in range(FRAME_RUNS)]
        figures |= {"first_frame_first_ms": round(frames[0][0] * 1e3, 1),
                    **spread_ms("first_frame", [f[0] for f in frames]),
                    **spread_ms("first_frame_cpu", [f[1] for f in frames]),
                    "first_frame_zoom": frames[0][2]}
        _log(f"first frame: median {figures['first_frame_median_ms']} ms")
    figures["targets"] = {key: {"below": limit, "value": figures[key],
                                "met": figures[key] <= limit} for key, limit in TARGETS.items()}
    return figures
