"""Build the standalone Battlemap for GMs: one folder with its own Python, Qt and data, that
starts on a machine without Python.

    python3 packaging/build_standalone.py [--archive] [--work DIR] [--dist DIR] [--no-check]

1. a build venv (``build/standalone/venv``): PyInstaller (packaging/requirements-standalone.txt)
   and this project, installed as a wheel would be;
2. PyInstaller with ``packaging/battlemap.spec`` → ``dist/battlemap/battlemap``;
3. strips the libraries that ship with symbols (see STRIPPED);
4. checks the result from an empty folder with an empty environment: ``--version``, a seeded
   ``resolve``, the autosave's ``check -`` and a ``render`` of the bundled demo. As root
   with ``unshare`` (Linux), every Python on this machine is hidden in a private mount
   namespace first;
5. ``--archive`` also packs ``dist/battlemap-VERSION-linux-ARCH.tar.gz`` to hand to a GM.

The last line printed is JSON: bundle size, files, start-up times (median of three).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "packaging"
APP = "battlemap"
# Libraries built with their symbols, measured to run stripped. The
# auditwheel-patched ones in numpy.libs break when stripped ("ELF load command address/offset
# not page-aligned"), which is why PyInstaller's own strip option (all or nothing) is off.
STRIPPED = ("libpython3*.so*", "python3.*/lib-dynload/*.so")
TIMED_RUNS = 3
MB = 1_000_000
# Where a Python may live; hidden from the checked bundle.
PYTHON_PLACES = ("/usr/lib/python3*", "/usr/local/lib/python3*", "/usr/bin/python*",
                 "/usr/local/bin/python*", "/usr/lib/*/libpython3*", "/lib/*/libpython3*")


def run(command: Sequence[str | Path]) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run(list(map(str, command)), check=True)


def build_venv(venv: Path) -> Path:
    """The build venv's python, with PyInstaller and this project (re)installed."""
    python = venv / "bin" / "python"
    if not python.exists():
        run([sys.executable, "-m", "venv", venv])
    run([python, "-m", "pip", "install", "-q", "-r", HERE / "requirements-standalone.txt"])
    run([python, "-m", "pip", "install", "-q", ROOT])
    return python


def pyinstaller(python: Path, work: Path, dist: Path) -> Path:
    run([python, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--workpath", work / "pyinstaller", "--distpath", dist, HERE / "battlemap.spec"])
    return dist / APP


def strip(bundle: Path) -> None:
    tool = shutil.which("strip")
    if tool is None:
        print("note: no 'strip' (binutils): the bundle keeps its symbols")
        return
    files = sorted({path for pattern in STRIPPED for path in (bundle / "_internal").glob(pattern)
                    if path.is_file() and not path.is_symlink()})
    run([tool, "--strip-unneeded", *files])


def folder_size(folder: Path) -> int:
    return sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_symlink())


def hidden_python_prefix(build_venv: Path) -> list[str]:
    """A command prefix that runs its command with every Python on this machine hidden
    (tmpfs over folders, /dev/null over files, in a private mount namespace), or [] where
    that needs privileges this process lacks."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return []
    found = [*(p for pattern in PYTHON_PLACES for p in glob.glob(pattern)),
             sys.prefix, sys.base_prefix, str(build_venv)]
    real = {os.path.realpath(p) for p in found if os.path.exists(p)}
    places = [p for p in real if not any(p.startswith(q + "/") for q in real)]
    mounts = [f"mount -t tmpfs none {shlex.quote(p)}" if Path(p).is_dir()
              else f"mount --bind /dev/null {shlex.quote(p)}" for p in sorted(places)]
    script = "; ".join([*mounts, 'exec "$@"'])
    return ["unshare", "--mount", "--fork", "sh", "-ec", script, "sh"]


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """Median wall time of TIMED_RUNS runs, and the output of the last."""
    times, out = [], ""
    for _ in range(TIMED_RUNS):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n"
                             f"{done.stdout}{done.stderr}")
        out = done.stdout
    return statistics.median(times), out


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"check failed: {message}")


def check(bundle: Path, version: str, build_venv: Path) -> dict[str, object]:
    """Run the bundle as a GM would, from an empty folder and environment."""
    prefix = hidden_python_prefix(build_venv)
    with tempfile.TemporaryDirectory(prefix="battlemap-check-") as folder:
        cwd = Path(folder)
        env = {"PATH": "/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"}
        exe = [*prefix, str(bundle / APP)]
        if prefix:
            hidden = subprocess.run([*prefix, "sh", "-c", "python3 -c 1"], env=env,
                                    capture_output=True, check=False)
            expect(hidden.returncode != 0, "python3 still runs with Python hidden")
        demo = str(bundle / "_internal" / "assets" / "demo_encounter.json")
        version_s, out = timed([*exe, "--version"], cwd, env)
        expect(out == f"{APP} {version}\n", f"--version printed {out!r}")
        _, out = timed([*exe, "resolve", "shove", demo, "--attacker", "Ogre", "--target", "Mira",
                        "--seed", "1"], cwd, env)
        expect(out.startswith("Ogre shoves Mira"), f"resolve printed {out[:80]!r}")
        # The check the window's autosave runs in a process of its own
        # (desktop.document.load_check).
        done = subprocess.run([*exe, "check", "-", "--name", "the autosave", "--json"],
                              input=Path(demo).read_bytes(), cwd=cwd, env=env,
                              capture_output=True, timeout=120, check=False)
        expect(done.stdout.startswith(b"{") and json.loads(done.stdout)["opens"] is True,
               f"check - printed {done.stdout[:80]!r} {done.stderr[-300:]!r}")
        render_s, out = timed([*exe, "render", demo, "--out", "demo.png"], cwd, env)
        png = (cwd / "demo.png").read_bytes()
        expect(png.startswith(b"\x89PNG") and len(png) > 10_000, "render wrote no map")
        print(f"checked from {cwd}: --version, resolve, check -, render "
              f"({len(png) // 1000} kB PNG); "
              f"Python {'hidden' if prefix else 'still installed (needs root and unshare)'}")
    return {"python_hidden": bool(prefix), "version_s": round(version_s, 2),
            "render_s": round(render_s, 2)}


def archive(bundle: Path, version: str) -> Path:
    target = bundle.parent / f"{APP}-{version}-linux-{platform.machine()}.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        tar.add(bundle, arcname=f"{APP}-{version}")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "standalone",
                        help="build venv and PyInstaller's work files")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--archive", action="store_true", help="also pack a .tar.gz")
    parser.add_argument("--no-check", action="store_true", help="skip running the bundle")
    args = parser.parse_args()
    start = time.perf_counter()
    python = build_venv(args.work / "venv")
    version = subprocess.run([python, "-c", "from desktop.system.resources import app_version; "
                              "print(app_version())"], capture_output=True, text=True,
                             check=True).stdout.strip()
    bundle = pyinstaller(python, args.work, args.dist)
    strip(bundle)
    figures: dict[str, object] = {
        "bundler": "PyInstaller", "bundle": str(bundle), "version": version,
        "bundle_mb": round(folder_size(bundle) / MB, 1),
        "files": sum(1 for _ in bundle.rglob("*")),
        "build_s": round(time.perf_counter() - start, 1)}
    if not args.no_check:
        figures |= check(bundle, version, args.work / "venv")
    if args.archive:
        packed = archive(bundle, version)
        figures |= {"archive": str(packed), "archive_mb": round(packed.stat().st_size / MB, 1)}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
