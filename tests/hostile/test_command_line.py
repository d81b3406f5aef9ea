"""The command line's own bad input, in a terminal without a display (an SSH session):
a missing file, an unknown command and the window itself each end in one clear line on
stderr and exit status 2, before Qt starts (it aborted with "could not connect to display"
and SIGABRT, naming neither the file nor the command). Headless commands need no display.

Each runs in a process of its own with ``DISPLAY``, ``WAYLAND_DISPLAY`` and
``QT_QPA_PLATFORM`` unset, under the hostile corpus's time and memory guard.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from benchmarks.hostile import CLI, CORPUS, Run, run_limited
from desktop.system.resources import DEMO

REPO = Path(__file__).resolve().parents[2]
GUARD_S = 60
#: Surely no command, now or later (another developer is adding ``battlemap serve``).
NOT_A_COMMAND = "no-such-command-39"


def without_a_display(*argv: str, cwd: Path = REPO) -> Run:
    """``battlemap ARGV`` with no display: the variables naming one are removed."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return run_limited([sys.executable, "-c", CLI, *argv], cwd, GUARD_S, 1024, env=env)


def one_line(run: Run) -> str:
    lines = run.stderr.strip().splitlines()
    assert (run.code, len(lines)) == (2, 1), run.stderr[-2000:]
    assert lines[0].startswith("battlemap: "), lines
    return lines[0]


def test_the_window_without_a_display_says_what_to_do_instead() -> None:
    line = one_line(without_a_display())
    for words in ("display", "check", "render", "resolve"):
        assert words in line, line


def test_a_missing_file_is_named_before_the_display_is_looked_for(tmp_path: Path) -> None:
    line = one_line(without_a_display(str(tmp_path / "nosuchfile.json")))
    assert "nosuchfile.json" in line and "no such file" in line, line


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    line = one_line(without_a_display(str(tmp_path)))  # a folder: never a file to open
    assert str(tmp_path.name) in line and "not a file" in line, line


def test_an_unknown_command_is_named_with_the_commands_there_are() -> None:
    line = one_line(without_a_display(NOT_A_COMMAND, "--help"))
    assert f"'{NOT_A_COMMAND}'" in line and "resolve" in line, line


@pytest.mark.parametrize("argv", [
    ("check", str(DEMO)),
    ("render", str(DEMO), "--out", "{out}", "--size", "320x200", "--view", "player"),
    ("resolve", "initiative", str(DEMO), "--seed", "3"),
], ids=["check", "render", "resolve"])
def test_headless_commands_need_no_display(argv: tuple[str, ...], tmp_path: Path) -> None:
    run = without_a_display(*(arg.format(out=tmp_path / "map.png") for arg in argv))
    assert run.code == 0, run.stderr[-2000:]


def test_a_hostile_file_on_the_command_line_is_refused_in_one_line() -> None:
    """An existing file that does not load still opens the demo in the window (with the
    reason in a dialog); without a display the display is what the line is about."""
    line = one_line(without_a_display(str(CORPUS / "name-line-breaks.json")))
    assert "display" in line, line
