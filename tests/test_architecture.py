"""Architecture: core imports neither desktop nor Qt, the headless CLI loads no Qt and no
window code, and desktop keeps its shape (docs/architecture.md).

These run in a venv without PySide6 or import-linter too: the contract check is skipped
there (with the reason), the headless import check still runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
HEADLESS_IMPORTS = (
    "import core.rules.shove, core.rules.odds, core.spatial.pathing, core.io.fileio; "
    "import desktop.cli.main; import sys; "
    "assert not any(m.startswith('PySide6') for m in sys.modules), "
    "sorted(m for m in sys.modules if m.startswith('PySide6'))"
)
#: What ``battlemap --help`` and the headless commands must never load.
WINDOW_CODE = ("desktop.app", "desktop.mainwindow", "desktop.map", "desktop.tools",
               "desktop.panels", "desktop.dialogs", "desktop.table", "desktop.widgets")
HELP_IMPORTS = (
    "import sys\nfrom desktop.cli.main import main\n"
    "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
    "print(' '.join(sorted(m for m in sys.modules if m.startswith('desktop'))))"
)
#: The modules at desktop/'s top level; every other one lives in a subpackage by concern.
TOP_LEVEL = {"__init__", "__main__", "qt", "app", "mainwindow"}


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.skipif(not LINT_IMPORTS.exists(),
                    reason=f"import-linter is not installed in this venv ({LINT_IMPORTS})")
def test_import_linter_contracts_are_kept() -> None:
    result = run(LINT_IMPORTS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 broken" in result.stdout


def test_headless_modules_and_cli_import_no_qt() -> None:
    result = run(sys.executable, "-c", HEADLESS_IMPORTS)
    assert result.returncode == 0, result.stderr


def test_the_command_line_loads_no_window_code() -> None:
    result = run(sys.executable, "-c", HELP_IMPORTS)
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.split()
    assert "desktop.cli.main" in loaded
    assert [m for m in loaded if m.startswith(WINDOW_CODE)] == []


def test_desktop_keeps_only_its_entry_modules_at_the_top() -> None:
    top = {path.stem for path in (REPO / "desktop").glob("*.py")}
    assert top == TOP_LEVEL
