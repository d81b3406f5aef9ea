"""Run the Battlemap benchmarks and print one JSON object to stdout (progress goes to stderr).

    python benchmarks/run.py                 every group (gui only when PySide6 imports)
    python benchmarks/run.py --only core     just the rules engine
    python benchmarks/run.py --check         exit 1 when a figure misses its target

Groups are pluggable: :data:`GROUPS` maps a name to a function ``(seed) -> figures``. Each
group lives in its own module (``benchmarks/<module>.py`` with ``run(seed: int) -> dict``)
and is imported only when it runs. A group may put ``{"targets": {key: {"met": bool, ...}}}``
in its figures; missed targets are listed under ``"targets_missed"``.

Each group runs in its own process (``run.py --child GROUP``), so the peak resident memory
reported with it (``peak_rss_mib``, the child's ``ru_maxrss``) is its own: the windows it
opened, the files it read, and the processes it waited for.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python benchmarks/run.py` puts only benchmarks/ on the path
    sys.path.insert(0, str(ROOT))

from benchmarks.timing import load_average  # noqa: E402 (after the path is set)

Figures = dict[str, Any]
Group = Callable[[int], Figures]
DEFAULT_SEED = 20240601
USAGE_ERROR = 2
MISSING_GROUP = 3  # a child's exit status: the group's module is not there


class MissingGroupError(Exception):
    """The group's module is not there (yet)."""


class UsageError(Exception):
    """A bad command line: printed as one line, exit status 2."""


def lazy_group(module: str) -> Group:
    """A group whose module is imported on first run."""

    def run(seed: int) -> Figures:
        try:
            loaded = importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
            raise MissingGroupError(f"{module} does not exist") from None
        figures: Figures = loaded.run(seed)
        return figures

    return run


GROUPS: dict[str, Group] = {
    "core": lazy_group("benchmarks.core_bench"),
    "melee": lazy_group("benchmarks.melee_bench"),
    "morale": lazy_group("benchmarks.morale_bench"),
    "gui": lazy_group("benchmarks.gui"),
    "table": lazy_group("benchmarks.player_window"),
    "scale": lazy_group("benchmarks.scale_bench"),
    "scaling": lazy_group("benchmarks.scaling_bench"),
    "gui-scale": lazy_group("benchmarks.gui_scale"),
    "startup": lazy_group("benchmarks.startup"),
    "lights": lazy_group("benchmarks.lights_bench"),
    "hostile": lazy_group("benchmarks.hostile"),
    "share": lazy_group("benchmarks.share_bench"),
}


QT_GROUPS = ("gui", "table", "gui-scale", "startup", "lights")


def _available(name: str) -> bool:
    """Whether a group runs by default: the Qt groups need PySide6; hostile
    (some 250 processes, a few minutes) runs only when named; the rest always run."""
    if name == "hostile":
        return False
    return name not in QT_GROUPS or importlib.util.find_spec("PySide6") is not None


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def machine_info() -> Figures:
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(affinity) if affinity is not None else os.cpu_count(),
        "numpy": _version("numpy"),
        "tcod": _version("tcod"),
        "pydantic": _version("pydantic"),
        "pyside6": _version("PySide6-Essentials") or _version("PySide6"),
    }


def _selected(only: Sequence[str] | None) -> tuple[list[str], bool]:
    """The groups to run, and whether the user named them."""
    if not only:
        return [name for name in GROUPS if _available(name)], False
    names = [name.strip() for item in only for name in item.split(",") if name.strip()]
    unknown = [name for name in names if name not in GROUPS]
    if unknown:
        raise UsageError(f"unknown group(s) {', '.join(unknown)}; known: {', '.join(GROUPS)}")
    return list(dict.fromkeys(names)), True


def run_groups(names: list[str], explicit: bool, seed: int) -> dict[str, Figures]:
    results: dict[str, Figures] = {}
    for name in names:
        print(f"running group {name!r} (seed {seed})", file=sys.stderr, flush=True)
        before = load_average()
        try:
            results[name] = run_in_child(name, seed)
        except MissingGroupError as error:
            if explicit:
                raise UsageError(f"group {name!r}: {error}") from None
            results[name] = {"skipped": str(error)}
            continue
        results[name]["load_average"] = {"before": before, "after": load_average()}
    return results


def run_in_child(name: str, seed: int) -> Figures:
    """Run one group in a fresh process: its figures, with the process's peak resident
    memory (``peak_rss_mib``)."""
    child = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", name,
                              "--seed", str(seed)], stdout=subprocess.PIPE, cwd=ROOT)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode == MISSING_GROUP:
        raise MissingGroupError(output.decode().strip())
    if child.returncode != 0:
        raise RuntimeError(f"group {name!r} exited with status {child.returncode}")
    figures: Figures = json.loads(output)
    figures["peak_rss_mib"] = round(usage.ru_maxrss / 1024, 1)
    return figures


def child_main(name: str, seed: int) -> int:
    """``run.py --child GROUP``: run the group here and print its figures as JSON (anything
    else the group or a library writes to stdout goes to stderr)."""
    result = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with result:
        try:
            figures = GROUPS[name](seed)
        except MissingGroupError as error:
            result.write(str(error))
            return MISSING_GROUP
        result.write(json.dumps(figures))
    return 0


def missed_targets(results: dict[str, Figures]) -> list[str]:
    return [f"{group}.{key}" for group, figures in results.items()
            for key, target in figures.get("targets", {}).items() if not target["met"]]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="GROUP",
                        help=f"run only these groups (repeat or comma-separate): "
                             f"{', '.join(GROUPS)}")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"scenario seed (default {DEFAULT_SEED})")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when any figure misses its target")
    parser.add_argument("--child", metavar="GROUP", choices=list(GROUPS),
                        help=argparse.SUPPRESS)  # one group, run by run_in_child
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.child:
        return child_main(args.child, args.seed)
    started = time.perf_counter()
    try:
        names, explicit = _selected(args.only)
        results = run_groups(names, explicit, args.seed)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    missed = missed_targets(results)
    report = {"seed": args.seed, "machine": machine_info(), "groups": results,
              "targets_missed": missed,
              "total_runtime_s": round(time.perf_counter() - started, 1)}
    print(json.dumps(report, indent=2))
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
