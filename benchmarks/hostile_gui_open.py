"""Open one file the way the GUI does (File > Open, or an import for Universal VTT maps) in
a real main window on the demo, with the player window open, then paint both. A refusal's
dialog text goes to stderr and the exit code is 2; 3 if a refused file changed the open
encounter anyway. The seconds from the open's start to both windows painted go to stdout
(one line of JSON: ``{"open_s": ...}``).

    QT_QPA_PLATFORM=offscreen python benchmarks/hostile_gui_open.py FILE
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from core.io.fileio import load_encounter
from desktop.mainwindow import MainWindow
from desktop.qt import QMessageBox, QSettings, qInstallMessageHandler
from desktop.system.application import application
from desktop.system.resources import DEMO

#: The offscreen platform's one harmless warning (pytest's qt_log_ignore drops it too);
#: any other Qt message still reaches stderr, where the test counts lines.
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints"


def _qt_message(_kind: object, _context: object, message: str) -> None:
    if not message.startswith(OFFSCREEN_NOISE):
        print(message, file=sys.stderr)


def main(path: Path) -> int:
    qInstallMessageHandler(_qt_message)
    application()
    refusals: list[str] = []
    QMessageBox.warning = staticmethod(  # type: ignore[method-assign]
        lambda _parent, _title, text, *_rest: refusals.append(text))
    with tempfile.TemporaryDirectory() as scratch:
        settings = QSettings(str(Path(scratch) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(load_encounter(DEMO), None, Path(scratch) / "data", settings)
        window.show()
        window.table.show_player_window()
        before = window.document.encounter.model_dump()
        start = time.perf_counter()
        opened = window.files.open_path(path)
        window.grab()  # paint whatever is open now, in both windows
        assert window.table.player_window is not None
        window.table.player_window.grab()
        print(json.dumps({"open_s": time.perf_counter() - start}), flush=True)
        window.files.shutdown()
    if opened:
        return 0
    print(refusals[0].splitlines()[0] if refusals else "refused without a message",
          file=sys.stderr)
    return 2 if window.document.encounter.model_dump() == before else 3


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
