"""packaging/check_wheel.py, which CI runs on the built wheel, refuses a wheel that carries
more (or less) than the project's packages and data."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "packaging" / "check_wheel.py"
GOOD = ["core/__init__.py", "core/py.typed", "desktop/cli/main.py", "desktop/system/resources.py",
        "assets/__init__.py", "assets/demo_encounter.json", "assets/library.json",
        "assets/icons/battlemap.svg", "assets/icons/battlemap-16.png",
        "assets/icons/battlemap-512.png", "assets/share/index.html", "assets/share/share.js",
        "assets/share/share.css", "core/spatial/_search.pyi",
        "core/spatial/_search.cpython-311-x86_64-linux-gnu.so",
        "battlemap-0.1.0.dist-info/METADATA", "battlemap-0.1.0.dist-info/RECORD"]
WHEEL = "battlemap-0.1.0-cp311-cp311-linux_x86_64.whl"


def check(tmp_path: Path, names: list[str], wheel_name: str = WHEEL) -> tuple[int, str]:
    wheel = tmp_path / wheel_name
    with zipfile.ZipFile(wheel, "w") as archive:
        for name in names:
            archive.writestr(name, "x")
    done = subprocess.run([sys.executable, str(SCRIPT), str(wheel)], capture_output=True,
                          text=True, timeout=60, check=False)
    return done.returncode, done.stdout


def test_the_projects_packages_and_data_pass(tmp_path: Path) -> None:
    code, out = check(tmp_path, GOOD)
    assert code == 0
    assert out.startswith(f"{WHEEL}: {len(GOOD)} files")


@pytest.mark.parametrize(("extra", "problem"), [
    ("tests/core/test_cli.py", "not the project's: tests/core/test_cli.py"),
    ("benchmarks/run.py", "not the project's: benchmarks/run.py"),
    ("docs/rules.md", "not the project's: docs/rules.md"),
    ("desktop/__pycache__/cli.cpython-311.pyc", "bytecode: desktop/__pycache__/cli"),
])
def test_anything_else_is_named(tmp_path: Path, extra: str, problem: str) -> None:
    code, out = check(tmp_path, [*GOOD, extra])
    assert code == 1
    assert problem in out


def test_a_missing_asset_is_named(tmp_path: Path) -> None:
    code, out = check(tmp_path, [name for name in GOOD if "512" not in name])
    assert code == 1
    assert "missing: assets/icons/battlemap-512.png" in out


def test_a_wheel_without_the_compiled_search_is_refused(tmp_path: Path) -> None:
    code, out = check(tmp_path, [name for name in GOOD if not name.endswith(".so")])
    assert code == 1
    assert "missing: the compiled search, core/spatial/_search.*.so" in out


def test_a_wheel_for_any_platform_is_refused(tmp_path: Path) -> None:
    """The search is compiled for one platform: a py3-none-any wheel would install it
    where it cannot load."""
    code, out = check(tmp_path, GOOD, "battlemap-0.1.0-py3-none-any.whl")
    assert code == 1
    assert "tagged for any platform, but it carries compiled code" in out
