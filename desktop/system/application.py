"""The QApplication and where the app keeps its own files."""

from __future__ import annotations

import sys
from pathlib import Path

from desktop.qt import QApplication, QIcon, QPixmapCache, QSize, QStandardPaths
from desktop.system.resources import APP_ID, ICON_SIZES, icon_png

# Tokens, hazards and labels keep their painted pixels in Qt's pixmap cache; a big map's
# thousands of them overflow its default 10 MiB, and an overflowing cache repaints them all.
PIXMAP_CACHE_KB = 96 * 1024
# Work on other threads (the autosave's check that its file loads, the shove odds) holds
# the GIL for 5 ms slices by default, and the GUI thread waits out a slice at every Qt call
# that lets the GIL go: a repaint of the scale map during an autosave check took 65 ms
# (median), 31 ms with 1 ms slices.
GIL_SLICE_S = 0.001


def application() -> QApplication:
    """The running QApplication, created if needed."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Battlemap")
    app.setOrganizationName("Battlemap")
    app.setDesktopFileName(APP_ID)  # the taskbar matches windows to battlemap.desktop
    app.setWindowIcon(app_icon())
    QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
    sys.setswitchinterval(GIL_SLICE_S)
    return app


def app_icon() -> QIcon:
    """The application icon, every rendered size (assets/icons)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(icon_png(size)), QSize(size, size))
    return icon


def data_dir() -> Path:
    """Per-user folder for the recovery file."""
    return Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.AppDataLocation))
