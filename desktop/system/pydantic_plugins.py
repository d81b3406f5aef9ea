"""pydantic without its plugin search: Battlemap uses no pydantic plugin.

pydantic looks for plugins when it makes its first model, in every installed distribution's
entry points (3-10 ms), unless ``PYDANTIC_DISABLE_PLUGINS`` says not to. Its loader
(``pydantic.plugin._loader``) imports ``importlib.metadata`` and with it the ``email``
package, whatever that variable says: 11 ms of every start (medians of 12 interleaved
pairs of the demo's first frame). Where plugins are off, the loader's one function that
pydantic calls, ``get_plugins``, returns nothing; this module's stand-in does the same
without the import. ``tests/desktop/system/test_pydantic_plugins.py`` checks that
pydantic still asks its loader for nothing else and that its own answer is the same.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable, MutableMapping

#: The variable pydantic reads, and the value that turns every plugin off. A user who wants
#: a plugin sets the variable (to an empty value: every plugin).
VARIABLE = "PYDANTIC_DISABLE_PLUGINS"
ALL_OFF = "__all__"
LOADER = "pydantic.plugin._loader"


class NoPlugins(ModuleType):
    """Stands in for pydantic's plugin loader where every plugin is off."""

    @staticmethod
    def get_plugins() -> Iterable[object]:
        """No plugins, as pydantic's ``get_plugins`` answers with plugins off."""
        return ()


def turn_off_plugins(environ: MutableMapping[str, str]) -> None:
    """Turn pydantic's plugins off unless ``environ`` says otherwise, before pydantic makes
    its first model; with them off, pydantic's loader is not imported."""
    environ.setdefault(VARIABLE, ALL_OFF)
    if environ[VARIABLE] == ALL_OFF and LOADER not in sys.modules:
        sys.modules[LOADER] = NoPlugins(LOADER, __doc__)
