"""Before the window opens on Linux: the X11 (xcb) libraries Qt's window plugin needs but
the PySide6 wheel does not ship. Without them Qt stops with "Could not load the Qt platform
plugin "xcb"", which tells a GM nothing; this says what to install instead."""

from __future__ import annotations

import ctypes
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os
    from collections.abc import Callable, Mapping

#: shared library → the Debian/Ubuntu package that provides it.
XCB_LIBRARIES: dict[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11-xcb.so.1": "libx11-xcb1",
}


def _loads(library: str) -> bool:
    try:
        ctypes.CDLL(library)
    except OSError:
        return False
    return True


def uses_xcb(environ: dict[str, str] | os._Environ[str], platform: str = sys.platform) -> bool:
    """Whether Qt will open its window through X11 here."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.startswith("xcb")
    return platform.startswith("linux") and bool(environ.get("DISPLAY")) and not environ.get(
        "WAYLAND_DISPLAY")


def has_display(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt has a screen to open a window on: Windows and macOS always do; elsewhere
    an X11 or Wayland display must be named, unless a Qt platform was chosen by hand
    (``QT_QPA_PLATFORM``: offscreen, vnc, eglfs...).

    >>> has_display({}, "linux"), has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    (False, True)
    """
    if environ.get("QT_QPA_PLATFORM") or platform.startswith(("win", "darwin")):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def missing_packages(loads: Callable[[str], bool] = _loads) -> list[str]:
    """The packages to install for the libraries that do not load."""
    return sorted({package for library, package in XCB_LIBRARIES.items()
                   if not loads(library)})


def hint(packages: list[str]) -> str:
    return ("Battlemap cannot open its window: Qt needs X11 libraries that are not "
            "installed.\nOn Debian or Ubuntu:\n"
            f"    sudo apt-get install {' '.join(packages)}\n"
            "(The headless commands — resolve, odds, render, import — work without them.)")
