"""Resolver values (core.rules.value): validators built at first use, not at import."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from core.rules.shove import ShoveRequest

REPO = Path(__file__).resolve().parents[3]
COUNT_BUILT = """
import importlib, pkgutil, core.rules
from core.rules.value import RulesValue
for module in pkgutil.iter_modules(core.rules.__path__):
    importlib.import_module(f"core.rules.{module.name}")
def kinds(cls):
    for kind in cls.__subclasses__():
        yield kind
        yield from kinds(kind)
every = set(kinds(RulesValue))
print(len(every), *sorted(kind.__name__ for kind in every if kind.__pydantic_complete__))
"""


def test_importing_every_resolver_builds_only_the_validators_of_values_it_makes() -> None:
    """A default (an attack's damage kind) and a table (the critical events) are made at
    import; nothing else is built until used."""
    done = subprocess.run([sys.executable, "-c", COUNT_BUILT], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True)
    kinds, *built = done.stdout.split()
    assert int(kinds) >= 61
    assert built == ["CriticalEvent", "DamageKind"]


def test_a_value_made_later_is_validated_and_frozen() -> None:
    request = ShoveRequest(attacker="ogre", defender="mira")
    with pytest.raises(ValidationError):
        request.attacker = "mira"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        ShoveRequest(attacker="ogre", defender=["mira"])  # type: ignore[arg-type]
