"""The stand-in for pydantic's plugin loader answers as the loader does with plugins off,
and pydantic asks the loader for nothing else."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pydantic

from desktop.system.pydantic_plugins import ALL_OFF, LOADER, VARIABLE, NoPlugins

PYDANTIC = Path(pydantic.__file__).parent


def names_imported_from_the_loader(source: str) -> set[str]:
    """What a pydantic module's source imports from the plugin loader: its names, or
    ``"*"`` for the module itself (``import pydantic.plugin._loader``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_loader"):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import | ast.ImportFrom) and any(
                alias.name in ("_loader", LOADER) for alias in node.names):
            names.add("*")  # the module itself: from . import _loader, import pydantic...
    return names


def test_pydantic_takes_only_get_plugins_from_its_loader() -> None:
    """A later pydantic that used more of its loader would find the stand-in wanting."""
    asked = set().union(*(names_imported_from_the_loader(path.read_text("utf-8"))
                          for path in PYDANTIC.rglob("*.py") if path.name != "_loader.py"))
    assert asked == {"get_plugins"}


def test_the_loader_finds_no_plugins_when_they_are_off_as_the_stand_in() -> None:
    code = "from pydantic.plugin._loader import get_plugins\nprint(list(get_plugins()))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60, env={**os.environ, VARIABLE: ALL_OFF})
    assert done.stdout.split() == ["[]"] == [str(list(NoPlugins.get_plugins()))]


def test_models_are_made_without_the_loader_and_without_importlib_metadata() -> None:
    code = ("import os, sys\n"
            "from desktop.system.pydantic_plugins import turn_off_plugins\n"
            "turn_off_plugins(os.environ)\n"
            "from core.model.encounter import Encounter\n"
            "print(type(sys.modules['pydantic.plugin._loader']).__name__,\n"
            "      'importlib.metadata' in sys.modules, len(Encounter().tokens))\n")
    env = {key: value for key, value in os.environ.items() if key != VARIABLE}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60, env=env)
    assert done.stdout.split() == ["NoPlugins", "False", "0"]
