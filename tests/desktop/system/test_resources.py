"""Finding the bundled files and the version (desktop/system/resources.py), without Qt.

Each install layout (editable, regular, wheel, pipx, standalone) is exercised end to end by
``packaging/check_installs.sh`` and ``packaging/build_standalone.py``, which CI runs; these
tests pin the lookup itself and what the wheel must carry.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from core.io.bestiary import load_bestiary
from desktop.cli.main import main
from desktop.panels.library import LIBRARY_PATH
from desktop.system.resources import (
    DEMO,
    ICON_SIZES,
    app_version,
    assets_dir,
    bundled,
    icon_png,
    icon_svg,
)

REPO = Path(__file__).resolve().parents[3]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (signature, then the IHDR chunk)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_assets_is_a_regular_package_read_as_one_folder() -> None:
    import assets

    assert assets.__file__ is not None  # a namespace package has no __file__
    assert assets_dir() == Path(assets.__file__).parent
    assert assets_dir().is_dir()


def test_the_demo_and_the_library_are_found_and_load() -> None:
    assert bundled("demo_encounter.json") == DEMO and DEMO.is_file()
    assert bundled("library.json") == LIBRARY_PATH
    assert len(load_bestiary(LIBRARY_PATH).templates) > 0


def test_every_icon_size_is_rendered_at_its_size() -> None:
    assert icon_svg().read_text("utf-8").lstrip().startswith("<?xml")
    for size in ICON_SIZES:
        assert png_size(icon_png(size)) == (size, size)


def test_the_wheel_declares_every_bundled_file() -> None:
    """An asset added without a package-data glob would be missing from every install
    except the editable one."""
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["assets"]
    declared = {path for glob in globs for path in assets_dir().glob(glob)}
    shipped = {path for path in assets_dir().rglob("*") if path.is_file()
               and "__pycache__" not in path.parts and path.name != "__init__.py"}
    assert len(shipped) > 2
    assert sorted(shipped - declared) == []


def test_version_is_the_projects(capsys: pytest.CaptureFixture[str]) -> None:
    expected = PYPROJECT["project"]["version"]
    assert app_version() == expected
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"battlemap {expected}\n"


def test_a_namespace_assets_folder_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    """The editable-install failure this lookup guards against: two ``assets`` folders
    without ``__init__.py`` on the path make a namespace package spanning both."""
    for portion in ("one", "two"):
        (tmp_path / portion / "assets").mkdir(parents=True)
    source = tmp_path / "src"
    source.mkdir()
    (source / "desktop").symlink_to(REPO / "desktop")
    path = [str(source), str(tmp_path / "one"), str(tmp_path / "two")]
    code = ("import sys; sys.path[:0] = " + repr(path) + "\n"
            "from desktop.system.resources import assets_dir\n"
            "assets_dir()\n")
    # -S: without site-packages, where an installed regular assets package would win.
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "RuntimeError: the assets package is not a folder on disk" in done.stderr
