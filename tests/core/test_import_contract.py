"""Architecture: core imports neither desktop nor Qt, and the headless CLI loads no Qt.

These run in a venv without PySide6 or import-linter too: the contract check is skipped
there (with the reason), the headless import check still runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
HEADLESS_IMPORTS = (
    "import core.rules.shove, core.rules.odds, core.spatial.pathing, core.io.fileio; "
    "import desktop.cli.main; import sys; "
    "assert not any(m.startswith('PySide6') for m in sys.modules), "
    "sorted(m for m in sys.modules if m.startswith('PySide6'))"
)


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
