"""The files Battlemap ships (demo encounter, combatant library, icon) and its version, found
the same way however it is installed: a source checkout, an editable or regular install, a
wheel, pipx, or the PyInstaller standalone build. No Qt here: headless commands use it."""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

import assets  # imported by name, not found by string, so bundlers see and collect it

DISTRIBUTION = "battlemap"
APP_ID = "battlemap"  # the desktop entry's, the icon's and the Wayland app id
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def assets_dir() -> Path:
    """The folder of the ``assets`` package. It must be a regular package (it has an
    ``__init__.py``): an editable install turns a folder without one into a namespace
    package, which ``importlib.resources`` answers with a MultiplexedPath, not a folder.
    In a frozen app PyInstaller's importer answers with the folder it unpacked to."""
    root = files(assets)
    if not isinstance(root, Path):
        raise RuntimeError(f"the assets package is not a folder on disk: {root!r}")
    return root


def bundled(name: str) -> Path:
    """A file shipped in ``assets`` (``name`` may have folders: ``icons/x.png``)."""
    return assets_dir() / name


DEMO = bundled("demo_encounter.json")  # what `battlemap` opens without a file


def icon_svg() -> Path:
    return bundled(f"icons/{APP_ID}.svg")


def icon_png(size: int) -> Path:
    """The icon rendered at ``size`` × ``size`` pixels (``packaging/render_icons.py``)."""
    return bundled(f"icons/{APP_ID}-{size}.png")


def is_frozen() -> bool:
    """True in the standalone build (PyInstaller sets ``sys.frozen``)."""
    return bool(getattr(sys, "frozen", False))


def app_version() -> str:
    """The installed distribution's version (the standalone build bundles its metadata);
    from a bare source checkout, the version in ``pyproject.toml``."""
    # Here: the window never needs it, and with pydantic's plugin search left out
    # (desktop.system.pydantic_plugins) nothing else in a start imports it (8 ms).
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    import tomllib  # here: an installed app never needs it, and it is 3 ms of every start

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        return str(tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"
