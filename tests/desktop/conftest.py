"""The desktop tests' fixtures.

The command line's and the system's tests (``cli/``, ``system/``) need no Qt: ``.ci/run``
also runs them where PySide6 is not installed, and there the GUI fixtures are not loaded.
"""

from importlib.util import find_spec

if find_spec("PySide6") is not None:
    from tests.desktop.qt_fixtures import *  # noqa: F403 (pytest finds fixtures by name)
