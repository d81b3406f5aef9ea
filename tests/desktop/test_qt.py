"""The Qt gateway: what importing it does to the interpreter besides naming Qt classes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FEATURE_SWITCH = re.compile(r"^\s*(from|import)\s+__feature__\b", re.MULTILINE)


def test_modules_imported_after_qt_are_not_read_for_pyside_features() -> None:
    code = ("import builtins, sys\n"
            "import desktop.qt\n"
            "import wave  # a module nothing imported before\n"
            "from PySide6.QtWidgets import QCalendarWidget  # a class the gateway does not name\n"
            "scanned = sys.modules['PySide6.support.feature'].pyside_feature_dict\n"
            "print(builtins.__import__.__name__, 'wave' in scanned, QCalendarWidget.__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.stdout.split() == ["__lazy_import__", "False", "QCalendarWidget"]


def test_no_module_switches_on_a_pyside_feature() -> None:
    """The gateway stops PySide6's feature scan: a ``from __feature__ import`` would then
    switch nothing (nothing of Battlemap may rely on one)."""
    sources = [path for package in ("core", "desktop", "benchmarks")
               for path in (REPO / package).rglob("*.py")]
    assert len(sources) > 100
    assert [path.name for path in sources if FEATURE_SWITCH.search(path.read_text("utf-8"))] == []
