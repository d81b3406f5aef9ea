"""The limits of the encounter format, in one place (docs/file-format.md, "Limits").

Each is far beyond any real map and keeps every algorithm bounded: the wall index, the odds,
the timeline and the GUI cost what the map costs, never what a number in a file claims.
Counts are checked before a list's items are validated, so a million walls are refused in
microseconds:

>>> at_most(2, "walls").func([1, 2, 3])
Traceback (most recent call last):
...
ValueError: 3 walls; at most 2

What the file is checked against after the schema allows it, as a whole: its size and the
JSON objects, arrays and values it holds (:mod:`core.io.safejson` counts them before
parsing: a few MB of ``[{},{},…]`` would take gigabytes as Python objects).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from annotated_types import Ge, Gt, Le, Lt, MaxLen, MinLen
from pydantic import AfterValidator, BaseModel, BeforeValidator, Field

MAX_MAP_CELLS = 300  # cells on each side of a map
MAX_COORDINATE = 10_000  # grid units, either sign: wall ends and lights (a map is ≤ 300)
MAX_WALLS = 100_000
MAX_HAZARDS = 1_000
MAX_HAZARD_CELLS = 100_000  # all hazards together (a whole 300 × 300 map is 90,000)
MAX_LIGHTS = 2_000  # each is a sweep: 2,000 reaching a whole map of 5,000 walls, ~2.5 s
MAX_TOKENS = 1_000
MAX_LOG_ENTRIES = 10_000
MAX_TIMERS = 10_000
MAX_FEET = 10_000  # elevation (either sign), fall depth, ceiling height
MAX_PIXELS = 1_000_000  # background offsets, either sign
MIN_PX_PER_CELL, MAX_PX_PER_CELL = 1, 10_000
MAX_IMAGE_BYTES = 40 * 2**20  # an embedded image: base64 of it still fits a 64 MiB file
MAX_PORTRAIT_BYTES = 256 * 2**10  # one token portrait (the app stores 256 × 256 PNGs)
MAX_PORTRAITS = 200  # different portraits in one encounter (tokens may share one)
MAX_WEAPON_TABLE = 200  # weapons in an encounter's weapon table
MAX_CARRIED_WEAPONS = 12  # weapons a combatant carries (and drops in a panic)
#: The most pixels an image is decoded with: a background (an 8000 × 8000 map image is
#: 244 MiB decoded) and a portrait (200 of 1024 × 1024 decode in about 1.3 s); a larger one
#: is not shown, and the window says why. Image files chosen as art may be a background's
#: size: they are scaled down before they are kept.
MAX_IMAGE_PIXELS = 64_000_000
MAX_PORTRAIT_PIXELS = 1024 * 1024
MAX_ROUND = 1_000_000
MAX_SEGMENT = 100  # initiative segments, either sign
MAX_BONUS = 100  # a bonus or penalty (rules profile, timeline), either sign
MAX_TERM = 1_000_000  # one term of a breakdown, either sign
MAX_PATH_CHARS = 4096  # image file paths
MAX_NAME_CHARS = 255  # the encounter's name (a file name may become one)
MAX_FILE_BYTES = 64 * 2**20
#: Objects and arrays: an encounter at every count limit (walls, hazard cells, log entries
#: with their detail) has about 600,000; two million empty ones parse into ~150 MB.
MAX_CONTAINERS = 2_000_000
#: Commas, a cheap bound on the number of values (the largest encounter has about 3 million).
MAX_COMMAS = 8_000_000

#: Control characters (Unicode's Cc: C0, DEL, C1): ESC and CSI start terminal escape
#: sequences, CR and LF split a one-line message, NUL ends a C string.
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
#: The same but line feeds and tabs, which text of several lines may hold.
CONTROLS_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def control_character(text: str, lines: bool = False) -> str | None:
    """The first control character of ``text`` as ``U+XXXX`` (``lines``: line feeds and
    tabs allowed), or None.

    >>> control_character("Crypt\\r\\n"), control_character("a\\nb", lines=True)
    ('U+000D', None)
    """
    found = (CONTROLS_BUT_LINES if lines else CONTROLS).search(text)
    return None if found is None else f"U+{ord(found[0]):04X}"


def _one_line(text: str) -> str:
    found = control_character(text)
    if found:
        raise ValueError(f"has a control character ({found}); names are plain text on one "
                         "line")
    return text


def _plain_lines(text: str) -> str:
    found = control_character(text, lines=True)
    if found:
        raise ValueError(f"has a control character ({found}); text may hold line breaks and "
                         "tabs, no other")
    return text


#: A name or label the GM types (printed by the command line, shown in one-line messages).
Name = Annotated[str, AfterValidator(_one_line)]
#: Text of one or more lines (notes, log text, what the rules write).
Lines = Annotated[str, AfterValidator(_plain_lines)]
Coordinate = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Feet = Annotated[int, Field(ge=-MAX_FEET, le=MAX_FEET)]
Segment = Annotated[int, Field(ge=-MAX_SEGMENT, le=MAX_SEGMENT)]
Bonus = Annotated[int, Field(ge=-MAX_BONUS, le=MAX_BONUS)]


def base64_of_at_most(size: int) -> int:
    """The length of the base64 text of ``size`` bytes."""
    return (size + 2) // 3 * 4


@dataclass(frozen=True)
class AtMost:
    """The check :func:`at_most` runs; it keeps its limit, so :func:`breach` can read it."""

    limit: int
    noun: str

    def __call__(self, value: Any) -> Any:
        problem = self.breach(value)
        if problem:
            raise ValueError(problem)
        return value

    def breach(self, value: Any) -> str | None:
        if isinstance(value, list | tuple | dict) and len(value) > self.limit:
            return f"{len(value):,} {self.noun}; at most {self.limit:,}"
        return None


def at_most(limit: int, noun: str) -> BeforeValidator:
    """A check, run before any item is validated, that a list or object has at most
    ``limit`` items; the message counts them as ``noun``."""
    return BeforeValidator(AtMost(limit, noun))


def breaches(model: BaseModel, skip: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """The model's own fields that are past their bounds, as (field, problem). Only the
    model's own fields are read (its counts, lengths and numbers), not what they hold:
    cheap enough for a check after each edit of an object validation never saw again (a
    ``model_copy`` with an update).

    >>> from core.model.combatant import Combatant
    >>> list(breaches(Combatant(name="Ann").model_copy(update={"hp": 10**6})))
    [('hp', '1000000 is more than 9999')]
    """
    for name, field in type(model).model_fields.items():
        if name in skip:
            continue
        value = getattr(model, name)
        for bound in field.metadata:
            problem = _past(bound, value)
            if problem:
                yield name, problem


def _past(bound: object, value: Any) -> str | None:
    """How ``value`` is past ``bound`` (a field's constraint), or None."""
    if isinstance(bound, BeforeValidator) and isinstance(bound.func, AtMost):
        return bound.func.breach(value)
    if value is None:
        return None
    if isinstance(bound, MaxLen) and len(value) > bound.max_length:
        return f"{len(value):,} long; at most {bound.max_length:,}"
    if isinstance(bound, MinLen) and len(value) < bound.min_length:
        return f"{len(value):,} long; at least {bound.min_length:,}"
    for kind, attribute, words, holds in _NUMBER_BOUNDS:
        if isinstance(bound, kind) and not holds(value, getattr(bound, attribute)):
            return f"{value} is {words} {getattr(bound, attribute)}"
    return None


#: A number's bound: its type, the attribute holding it, how a value past it is told, and
#: the comparison it must pass.
_NUMBER_BOUNDS: tuple[tuple[type, str, str, Callable[[Any, Any], bool]], ...] = (
    (Ge, "ge", "less than", operator.ge), (Gt, "gt", "not more than", operator.gt),
    (Le, "le", "more than", operator.le), (Lt, "lt", "not less than", operator.lt))


def number_range(model: type[BaseModel], name: str) -> tuple[int, int]:
    """The ``ge``/``le`` bounds of a model's number field, for editors that should offer
    no value the model refuses.

    >>> from core.model.profile import RulesProfile
    >>> number_range(RulesProfile, "wound_every_points")[0]
    1
    """
    meta = model.model_fields[name].metadata
    return (next(m.ge for m in meta if hasattr(m, "ge")),
            next(m.le for m in meta if hasattr(m, "le")))
