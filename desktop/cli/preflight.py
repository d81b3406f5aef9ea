"""What ``battlemap [FILE]`` checks before Qt starts: the file it is to open, that it is a
file (not a mistyped command), and that there is a display to open the window on.

Without them Qt was the first to notice: in a terminal with no display (an SSH session)
``battlemap``, ``battlemap nosuchfile.json`` and ``battlemap srve --help`` all ended in
"could not connect to display ... xcb-cursor0 is needed" and SIGABRT, naming neither the
file nor the command. Each problem is now one line (exit status 2, ``desktop.cli.main``).

>>> window_problem(["nosuchfile.json"], ("check", "render"), {"DISPLAY": ":0"}, "linux")
'cannot open nosuchfile.json: no such file'
>>> window_problem(["srve", "--help"], ("check", "render"), {"DISPLAY": ":0"}, "linux")
"'srve' is not a command (check, render) and no file has that name"
>>> window_problem([], ("check", "render"), {}, "linux") is not None
True
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from desktop.system.display import has_display

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: What to do instead of opening the window, for a GM in a terminal without a display.
HEADLESS = ("run battlemap on the desktop, or use a command that needs no display: "
            "check, render, resolve (battlemap --help lists them all)")


def window_problem(argv: Sequence[str], commands: Sequence[str], environ: Mapping[str, str],
                   platform: str) -> str | None:
    """Why ``battlemap ARGV`` (no command: the window, on the file ``argv[0]`` if given)
    cannot open, in one line; None when it can. The file is looked at first: a missing one
    is the more useful news."""
    problem = file_problem(argv[0], commands) if argv else None
    if problem is None and not has_display(environ, platform):
        problem = f"no display to open the window on (DISPLAY is not set): {HEADLESS}"
    return problem


def file_problem(name: str, commands: Sequence[str]) -> str | None:
    """Why the window cannot open the file ``name``; a bare word that names no file is
    taken for a mistyped command."""
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        if os.sep not in name and "." not in name:
            return (f"'{name}' is not a command ({', '.join(commands)}) and no file has "
                    "that name")
        return f"cannot open {name}: no such file"
    except OSError as error:
        return f"cannot open {name}: {error.strerror or error}"
    if not stat.S_ISREG(mode):
        return f"cannot open {name}: not a file"
    if not os.access(name, os.R_OK):
        return f"cannot open {name}: permission denied"
    return None
