"""``battlemap install-desktop-entry [--remove]`` in a temporary XDG_DATA_HOME: the files it
writes, the caches it refreshes when the tools are there, and that --remove takes away
exactly what it wrote."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.cli.errors import CliError
from desktop.cli.install import (
    ENCOUNTER_TYPE,
    UVTT_TYPE,
    data_home,
    desktop_entry,
    entry_paths,
    exec_quoted,
    launcher,
)
from desktop.cli.main import main
from desktop.system.resources import ICON_SIZES, icon_png, icon_svg

REPO = Path(__file__).resolve().parents[3]
HAS_CACHE_TOOLS = all(shutil.which(tool) for tool in
                      ("update-desktop-database", "update-mime-database"))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh XDG_DATA_HOME holding another program's files, and a battlemap script that
    is the running command."""
    xdg = tmp_path / "share"
    other = {xdg / "applications" / "editor.desktop": "[Desktop Entry]\nType=Application\n"
             "Name=Editor\nExec=editor %f\nMimeType=application/json;\n",
             xdg / "mime" / "packages" / "editor.xml": '<?xml version="1.0"?>\n<mime-info '
             'xmlns="http://www.freedesktop.org/standards/shared-mime-info"/>\n',
             xdg / "icons" / "hicolor" / "48x48" / "apps" / "editor.png": "not read\n"}
    for path, text in other.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    script = tmp_path / "venv bin" / "battlemap"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    monkeypatch.setattr(sys, "argv", [str(script)])
    return xdg


def files_under(root: Path) -> set[Path]:
    return {path for path in root.rglob("*") if path.is_file()}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert err == ""
    return code, out.splitlines()


def without_cache_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


def test_install_writes_the_entry_icons_and_types_then_remove_restores(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    without_cache_tools(monkeypatch, tmp_path)
    before = {path: path.read_bytes() for path in files_under(home)}
    code, lines = run(capsys, "install-desktop-entry")
    assert code == 0
    written = files_under(home) - set(before)
    assert written == set(entry_paths(home))
    assert len(written) == 3 + len(ICON_SIZES)
    assert {f"wrote {path}" for path in written} <= set(lines)
    assert "note: update-mime-database not found: the desktop will pick the change up " \
           "on its own" in lines

    entry = (home / "applications" / "battlemap.desktop").read_text()
    assert f'\nExec="{tmp_path}/venv bin/battlemap" %f\n' in entry
    assert f"\nMimeType={ENCOUNTER_TYPE};{UVTT_TYPE};\n" in entry
    assert "\nIcon=battlemap\n" in entry
    types = (home / "mime" / "packages" / "battlemap.xml").read_text()
    for glob in ('"*.battlemap.json"', '"*.dd2vtt"', '"*.uvtt"', '"*.df2vtt"'):
        assert f"<glob pattern={glob}" in types
    assert '"*.json"' not in types  # plain JSON stays with the programs that own it
    hicolor = home / "icons" / "hicolor"
    assert (hicolor / "scalable/apps/battlemap.svg").read_bytes() == icon_svg().read_bytes()
    for size in ICON_SIZES:
        installed = hicolor / f"{size}x{size}" / "apps" / "battlemap.png"
        assert installed.read_bytes() == icon_png(size).read_bytes()

    code, lines = run(capsys, "install-desktop-entry", "--remove")
    assert code == 0
    assert {f"removed {path}" for path in written} <= set(lines)
    assert {path: path.read_bytes() for path in files_under(home)} == before

    code, lines = run(capsys, "install-desktop-entry", "--remove")
    assert (code, lines[0]) == (0, f"nothing to remove under {home}")


def test_installing_twice_replaces_the_entry(home: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    without_cache_tools(monkeypatch, tmp_path)
    run(capsys, "install-desktop-entry")
    moved = tmp_path / "pipx" / "battlemap"
    moved.parent.mkdir()
    moved.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(moved)])
    run(capsys, "install-desktop-entry")
    entry = (home / "applications" / "battlemap.desktop").read_text()
    assert f'Exec="{moved}" %f' in entry and "venv bin" not in entry


@pytest.mark.skipif(not HAS_CACHE_TOOLS, reason="desktop-file-utils / shared-mime-info absent")
def test_the_desktop_and_mime_caches_know_the_types_until_removed(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "install-desktop-entry")
    mimeinfo = (home / "applications" / "mimeinfo.cache").read_text()
    assert f"{ENCOUNTER_TYPE}=battlemap.desktop;" in mimeinfo
    assert f"{UVTT_TYPE}=battlemap.desktop;" in mimeinfo
    assert (home / "mime" / f"{ENCOUNTER_TYPE}.xml").is_file()
    globs = (home / "mime" / "globs2").read_text()
    assert f"{UVTT_TYPE}:*.dd2vtt" in globs
    run(capsys, "install-desktop-entry", "--remove")
    assert "battlemap" not in (home / "applications" / "mimeinfo.cache").read_text()
    assert "battlemap" not in (home / "mime" / "globs2").read_text()
    assert not (home / "mime" / f"{ENCOUNTER_TYPE}.xml").exists()


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-utils absent")
def test_the_entry_is_valid_even_for_an_awkward_path(tmp_path: Path) -> None:
    path = tmp_path / "battlemap.desktop"
    path.write_text(desktop_entry('/opt/my "games"/$HOME/back\\slash/battlemap'))
    done = subprocess.run(["desktop-file-validate", str(path)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "")


def test_exec_quoting_follows_the_desktop_entry_spec() -> None:
    """Exec rules: quote, backslash before " ` $ \\; the string escape then doubles each \\."""
    assert exec_quoted("/usr/bin/battlemap") == '"/usr/bin/battlemap"'
    assert exec_quoted('/a b/$x"y`z\\w') == '"/a b/\\\\$x\\\\"y\\\\`z\\\\\\\\w"'


def test_data_home_follows_xdg_and_ignores_a_relative_value(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_home({"XDG_DATA_HOME": "/srv/share"}) == Path("/srv/share")
    assert data_home({"XDG_DATA_HOME": "relative/share"}) == tmp_path / ".local" / "share"
    assert data_home({}) == tmp_path / ".local" / "share"


def test_launcher_falls_back_to_the_command_on_path(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "pytest")])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "battlemap"
    command.write_text("#!/bin/sh\n")
    command.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert launcher() == str(command)
    command.unlink()
    with pytest.raises(CliError, match="cannot find the battlemap command"):
        launcher()


def test_an_unwritable_data_home_is_one_line_and_exit_2(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    assert main(["install-desktop-entry"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"battlemap: cannot write {blocked}/applications")
    assert len(err.splitlines()) == 1
    assert blocked.read_text() == "a file where the data folder should be\n"
