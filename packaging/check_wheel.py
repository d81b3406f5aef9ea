"""Check a built wheel's file list: the project's packages and data, nothing else.

    python packaging/check_wheel.py dist/battlemap-0.1.0-cp311-cp311-linux_x86_64.whl

The wheel may hold only ``core/``, ``desktop/``, ``assets/`` and its own ``.dist-info``
(no tests, benchmarks, docs or packaging scripts), and must hold what the app needs at run
time, the compiled search (``core/spatial/_search.*.so``, setup.py) included; a wheel with
compiled code is for one platform, so its name must not say any. Prints the wheel's size and
file count.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

PACKAGES = ("core/", "desktop/", "assets/")
DIST_INFO = re.compile(r"battlemap-[^/]+\.dist-info/")
REQUIRED = ("core/py.typed", "desktop/cli/main.py", "desktop/system/resources.py",
            "assets/__init__.py", "assets/demo_encounter.json", "assets/library.json",
            "assets/icons/battlemap.svg", "assets/icons/battlemap-16.png",
            "assets/icons/battlemap-512.png", "assets/share/index.html",
            "assets/share/share.js", "assets/share/share.css", "core/spatial/_search.pyi")
COMPILED = re.compile(r"core/spatial/_search\.[^/]+\.(so|pyd)")
KIB = 1024


def problems(wheel_name: str, names: list[str]) -> list[str]:
    stray = [name for name in names
             if not name.startswith(PACKAGES) and not DIST_INFO.match(name)]
    cached = [name for name in names if "__pycache__/" in name or name.endswith(".pyc")]
    missing = [name for name in REQUIRED if name not in names]
    if not any(COMPILED.fullmatch(name) for name in names):
        missing.append("the compiled search, core/spatial/_search.*.so")
    tagged = (["tagged for any platform, but it carries compiled code"]
              if wheel_name.endswith("-any.whl") else [])
    return ([f"not the project's: {name}" for name in stray]
            + [f"bytecode: {name}" for name in cached]
            + [f"missing: {name}" for name in missing] + tagged)


def main(wheel: Path) -> int:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    found = problems(wheel.name, names)
    for problem in found:
        print(f"{wheel.name}: {problem}")
    if found:
        return 1
    print(f"{wheel.name}: {len(names)} files, {wheel.stat().st_size / KIB:.0f} KiB, only "
          f"{', '.join(PACKAGES)} and its .dist-info")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
