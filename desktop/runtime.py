"""The QApplication and where the app keeps its own files."""

from __future__ import annotations

import sys
from pathlib import Path

from desktop.qt import QApplication, QStandardPaths


def application() -> QApplication:
    """The running QApplication, created if needed."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Battlemap")
    app.setOrganizationName("Battlemap")
    return app


def data_dir() -> Path:
    """Per-user folder for the recovery file."""
    return Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation))
