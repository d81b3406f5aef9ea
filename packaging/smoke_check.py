"""Check one installed Battlemap from the inside: run it with the installation's own Python,
from a folder outside the source tree (``packaging/check_installs.sh`` does).

    PYTHON packaging/smoke_check.py LAYOUT OUT_DIR ASSETS_UNDER

It checks that the bundled files are found under ASSETS_UNDER, where the layout puts them
(the source tree for an editable install, site-packages otherwise), opens the demo
encounter in the main window on Qt's offscreen platform and grabs it to
``OUT_DIR/LAYOUT-window.png``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from desktop.app import open_window
from desktop.system.application import application
from desktop.system.resources import DEMO, app_version, assets_dir

MIN_WINDOW_PX = 400


def main(layout: str, out_dir: Path, root: Path) -> int:
    if not assets_dir().resolve().is_relative_to(root.resolve()):
        print(f"{layout}: assets found at {assets_dir()}, expected under {root}")
        return 1
    app = application()
    window = open_window(DEMO, DEMO)
    window.resize(1200, 800)
    window.show()
    app.processEvents()
    shot = window.grab()
    out = out_dir / f"{layout}-window.png"
    if shot.width() < MIN_WINDOW_PX or not shot.save(str(out)):
        print(f"{layout}: could not grab the window ({shot.width()}×{shot.height()})")
        return 1
    window.close()
    print(f"{layout}: battlemap {app_version()}, assets in {assets_dir()}, "
          f"window {window.document.encounter.name!r} grabbed to {out.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
