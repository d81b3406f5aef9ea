"""``battlemap install-desktop-entry [--remove]``: on Linux, put Battlemap in the application
menu and make it the opener of its own file types, for the current user only (the XDG base
directories; no root).

It writes, under ``$XDG_DATA_HOME`` (default ``~/.local/share``):

- ``applications/battlemap.desktop``, whose ``Exec`` is the command that ran it;
- the icon, ``icons/hicolor/NxN/apps/battlemap.png`` for each size and
  ``icons/hicolor/scalable/apps/battlemap.svg``;
- ``mime/packages/battlemap.xml``: two file types. Encounters are plain ``.json`` files,
  so their type is recognised by content (``"schema": "battlemap.encounter"`` at the top) or
  by the name ``*.battlemap.json``, and never claims every JSON file: JSON is a general format
  that other programs own. Universal VTT maps are ``.dd2vtt``, ``.uvtt`` and ``.df2vtt``.

then refreshes the desktop and MIME caches if ``update-desktop-database`` and
``update-mime-database`` are installed (without them the desktop finds the files on its next
scan). ``--remove`` deletes exactly the files above and refreshes the caches again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.cli.errors import CliError
from desktop.system.resources import APP_ID, ICON_SIZES, icon_png, icon_svg, is_frozen

if TYPE_CHECKING:
    from collections.abc import Mapping

ENCOUNTER_TYPE = "application/x-battlemap-encounter+json"
UVTT_TYPE = "application/x-universal-vtt+json"
UVTT_GLOBS = ("*.dd2vtt", "*.uvtt", "*.df2vtt")
CACHE_TIMEOUT_S = 60

MIME_XML = f"""<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="{ENCOUNTER_TYPE}">
    <comment>Battlemap encounter</comment>
    <sub-class-of type="application/json"/>
    <icon name="{APP_ID}"/>
    <glob pattern="*.battlemap.json" weight="60"/>
    <magic priority="80">
      <match type="string" value="&quot;battlemap.encounter&quot;" offset="0:64"/>
    </magic>
  </mime-type>
  <mime-type type="{UVTT_TYPE}">
    <comment>Universal VTT map</comment>
    <sub-class-of type="application/json"/>
    <icon name="{APP_ID}"/>
{"".join(f'    <glob pattern="{glob}"/>{chr(10)}' for glob in UVTT_GLOBS)}  </mime-type>
</mime-info>
"""


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` if set to an absolute path (the spec ignores a relative one),
    else ``~/.local/share``."""
    value = (os.environ if environ is None else environ).get("XDG_DATA_HOME", "")
    return Path(value) if os.path.isabs(value) else Path.home() / ".local" / "share"


def launcher() -> str:
    """The command the entry runs: the standalone executable, or the ``battlemap`` script
    that is running now (a venv's, pipx's), else the one on PATH."""
    if is_frozen():
        return sys.executable
    script = Path(sys.argv[0])
    if script.name == APP_ID and script.is_file():
        return str(script.absolute())
    found = shutil.which(APP_ID)
    if found is None:
        raise CliError("cannot find the battlemap command to put in the desktop entry; "
                       "run this as 'battlemap install-desktop-entry'")
    return found


def exec_quoted(command: str) -> str:
    """``command`` as one quoted argument of a desktop entry's Exec key (spec: quote with
    double quotes, backslash before ``"`` `` ` `` ``$`` ``\\``; then the string-value
    escape doubles every backslash)."""
    quoted = "".join("\\" + c if c in '"`$\\' else c for c in command)
    return f'"{quoted}"'.replace("\\", "\\\\")


def desktop_entry(command: str) -> str:
    mime_types = ";".join((ENCOUNTER_TYPE, UVTT_TYPE))
    return "\n".join((
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=Battlemap",
        "GenericName=Battle map",
        "Comment=Battle map for tabletop RPGs that resolves forced movement on the grid",
        f"Exec={exec_quoted(command)} %f",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Game;RolePlaying;",
        "Keywords=tabletop;RPG;VTT;grid;encounter;shove;",
        f"MimeType={mime_types};",
        "StartupWMClass=Battlemap",
        "",
    ))


def desktop_file(home: Path) -> Path:
    return home / "applications" / f"{APP_ID}.desktop"


def mime_file(home: Path) -> Path:
    return home / "mime" / "packages" / f"{APP_ID}.xml"


def icon_files(home: Path) -> dict[Path, Path]:
    """Where each bundled icon goes in the user's hicolor theme."""
    icons = home / "icons" / "hicolor"
    files = {icons / "scalable" / "apps" / f"{APP_ID}.svg": icon_svg()}
    for size in ICON_SIZES:
        files[icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"] = icon_png(size)
    return files


def entry_paths(home: Path) -> list[Path]:
    """Every file the desktop entry consists of: what ``--remove`` deletes."""
    return [desktop_file(home), mime_file(home), *icon_files(home)]


def refresh_caches(home: Path) -> list[str]:
    """Run the cache tools that are installed; a note for each that is missing or fails."""
    notes = []
    for tool, folder in (("update-desktop-database", "applications"),
                         ("update-mime-database", "mime")):
        path = shutil.which(tool)
        if path is None:
            notes.append(f"{tool} not found: the desktop will pick the change up on its own")
            continue
        try:
            subprocess.run([path, str(home / folder)], check=True, capture_output=True,
                           timeout=CACHE_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as error:
            notes.append(f"{tool} failed ({error}); the files are in place all the same")
    return notes


def _write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def install(home: Path, command: str) -> list[Path]:
    """Write the entry's files (replacing an older install's); the paths written."""
    _write(desktop_file(home), desktop_entry(command).encode())
    _write(mime_file(home), MIME_XML.encode())
    for target, source in icon_files(home).items():
        _write(target, source.read_bytes())
    return entry_paths(home)


def remove(home: Path) -> list[Path]:
    """Delete the entry's files; the paths that were there. Folders are left: they are the
    standard XDG ones that other programs share."""
    removed = [path for path in entry_paths(home) if path.is_file()]
    for path in removed:
        path.unlink()
    return removed


def install_command(remove_entry: bool) -> int:
    if sys.platform in ("win32", "darwin"):
        raise CliError("install-desktop-entry is for Linux desktops (freedesktop.org)")
    home = data_home()
    try:
        paths = remove(home) if remove_entry else install(home, launcher())
    except OSError as error:
        raise CliError(f"cannot {'remove' if remove_entry else 'write'} "
                       f"{error.filename}: {error.strerror or error}") from None
    verb = "removed" if remove_entry else "wrote"
    for path in paths:
        print(f"{verb} {path}")
    if not paths:
        print(f"nothing to remove under {home}")
    for note in refresh_caches(home):
        print(f"note: {note}")
    return 0
