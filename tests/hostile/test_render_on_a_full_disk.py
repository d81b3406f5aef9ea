"""``battlemap render`` onto a disk that fills up mid-write: exit 2 with one line, the old
PNG intact and no temporary file left (it used to leave a partial ``.map.png.tmp.png``).

The full disk is RLIMIT_FSIZE in the child: past it a write fails with EFBIG."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "assets" / "demo_encounter.json"
RENDER_ON_A_FULL_DISK = """
import resource, signal, sys
from desktop.cli.main import main
import desktop.cli.render  # imported before the limit: no module is loaded or cached past it
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
sys.exit(main(["render", sys.argv[1], "--out", sys.argv[2], "--size", "400x300"]))
"""


def test_render_onto_a_full_disk_keeps_the_old_png_and_leaves_no_temp(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    out.write_bytes(b"the previous render")
    done = subprocess.run([sys.executable, "-c", RENDER_ON_A_FULL_DISK, str(DEMO), str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                               # a .pyc cut short by the limit would break later imports
                               "PYTHONDONTWRITEBYTECODE": "1"})
    assert (done.returncode, done.stderr) == (2, f"battlemap: cannot write {out}: "
                                                 "File too large\n")
    assert out.read_bytes() == b"the previous render"
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"]
