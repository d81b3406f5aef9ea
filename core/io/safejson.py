"""JSON from files that may be hostile: bounded memory and depth, and only values that
write back as they were read.

:func:`parse_json` refuses, before parsing, text with more objects and arrays than any
encounter has (a few MB of ``[{},{},…]`` would take gigabytes as Python objects); then text
that is not UTF-8; then invalid JSON, including nesting too deep for the parser. What
:func:`check_values` then refuses is named by its path: a non-finite number (``NaN``,
``Infinity``, or ``1e400``, which reads as infinity; saved, each would come back as
``null``), an integer beyond ±2⁵³ (other programs' JSON readers round it), text with a lone
surrogate (``"\\ud800"``: no UTF-8 encoding, so it cannot be saved), or nesting deeper
than :data:`MAX_DEPTH`. Saving runs :func:`check_values` too, on the dumped model.
:func:`check_controls` refuses text holding a control character other than a line feed
or a tab (an ESC would drive the terminal the text is printed in).

>>> parse_json(b'{"a": [1, 2.5]}')
{'a': [1, 2.5]}
>>> parse_json(b'{"a": [1, NaN]}')
Traceback (most recent call last):
...
core.io.safejson.JsonDocumentError: a.1 is not a finite number (nan)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from core.model.limits import MAX_COMMAS, MAX_CONTAINERS, control_character

#: Levels of nesting: an encounter needs about 10.
MAX_DEPTH = 64
#: The largest integer every JSON reader keeps exactly (2⁵³).
MAX_INTEGER = 2**53
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
#: How JSON text may spell a control character other than a line feed or tab: an escape
#: (a false alarm for an escaped backslash before the letter, or for \\u000a: the walk of
#: :func:`check_controls` decides), or DEL and C1 written as themselves (JSON forbids only
#: C0 unescaped).
_CONTROL_TEXT = re.compile(r"\\[rbf]|\\u00(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|[\x7f-\x9f]")
_CONTROL_BYTES = re.compile(
    rb"\\[rbf]|\\u00(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|\x7f|\xc2[\x80-\x9f]")
_DIGITS = len(str(MAX_INTEGER)) + 1
_CONTAINERS = (dict, list, tuple, set, frozenset)
Path = tuple[str | int, ...]


class JsonDocumentError(ValueError):
    """Text that is not a JSON document this program accepts. ``path`` locates the value
    (empty for problems with the text as a whole); ``problem`` says what is wrong."""

    def __init__(self, problem: str, path: Path = ()) -> None:
        super().__init__(f"{dotted(path)} {problem}" if path else problem)
        self.problem, self.path = problem, path


class _LongInteger(int):
    """An integer literal with too many digits to convert (Python refuses > 4,300)."""

    digits: int


def dotted(path: Iterable[str | int]) -> str:
    """``map.walls.0.x1``: the path as pydantic writes locations."""
    return ".".join(_part(part) for part in path)


def _part(part: str | int) -> str:
    text = str(part)
    return text if text.isprintable() and len(text) <= 40 else repr(text[:40])


def parse_json(raw: bytes | str, checked: bool = True) -> Any:
    """The parsed document; JsonDocumentError for anything this module refuses.
    ``checked=False`` leaves :func:`check_values` to the caller (to run it after a cheaper
    check, such as a schema's counts, has had its chance to refuse a huge file)."""
    _check_size(raw)
    text = raw if isinstance(raw, str) else _decode(raw)
    try:
        data = _loads(text)
    except json.JSONDecodeError as error:
        raise JsonDocumentError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise JsonDocumentError("not valid JSON: nested too deeply to read") from None
    if checked and not _plainly_fine(data, texts=may_hold_surrogates(text)):
        _find_bad_value(data)
    return data


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
    # an integer too long to convert: parse again, marking it, and name its path
    data = json.loads(text, parse_int=_integer)
    _find_bad_value(data)
    return data


def may_hold_surrogates(text: str | bytes) -> bool:
    """Whether JSON text can hold a lone surrogate: only a ``\\uD800``-style escape makes
    one (strict UTF-8 decoding refuses encoded ones)."""
    found = (_SURROGATE_ESCAPE_BYTES.search(text) if isinstance(text, bytes)
             else _SURROGATE_ESCAPE.search(text))
    return found is not None


def may_hold_controls(text: str | bytes) -> bool:
    """Whether JSON text can hold a control character other than a line feed or tab."""
    found = (_CONTROL_BYTES.search(text) if isinstance(text, bytes)
             else _CONTROL_TEXT.search(text))
    return found is not None


def check_controls(data: Any, at: Path = ()) -> None:
    """Refuse (JsonDocumentError with the path) a text or key holding a control character
    other than a line feed or tab.

    >>> check_controls({"tokens": [{"name": "\\x1b[2JA"}]})
    Traceback (most recent call last):
    ...
    core.io.safejson.JsonDocumentError: tokens.0.name has a control character (U+001B)
    """
    stack: list[tuple[Any, Path]] = [(data, at)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            found = control_character(value, lines=True)
            if found:
                raise JsonDocumentError(f"has a control character ({found})", path)
        elif isinstance(value, _CONTAINERS):
            for key, item in _members(value):
                if isinstance(key, str) and control_character(key, lines=True):
                    raise JsonDocumentError("has a key with a control character", path)
                stack.append((item, (*path, key)))


def _plainly_fine(data: Any, texts: bool) -> bool:
    """A fast :func:`check_values` that keeps no paths: True when it would pass (strings
    are looked at only when ``texts``). The common kinds are tested inline: this runs over
    every value of every file loaded and saved."""
    if not isinstance(data, _CONTAINERS):
        return _scalar_fine(data, texts)
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, dict):
            if texts and not _keys_fine(value):
                return False
            value = value.values()
        for item in value:
            kind = type(item)
            if kind is float:
                if item - item != 0.0:  # NaN and ±infinity give NaN
                    return False
            elif kind is str:
                if texts and not (item.isascii() or _encodable(item)):
                    return False
            elif kind is dict or kind is list or isinstance(item, _CONTAINERS):
                stack.append((item, depth + 1))
            elif not _scalar_fine(item, texts):
                return False
    return True


def _keys_fine(mapping: dict[Any, Any]) -> bool:
    try:
        if "".join(mapping).isascii():
            return True
    except TypeError:  # a key that is not text
        pass
    return all(_scalar_fine(key, texts=True) for key in mapping)


def _scalar_fine(value: Any, texts: bool) -> bool:
    kind = type(value)
    if kind is float:
        return bool(value - value == 0.0)  # NaN and ±infinity give NaN
    if kind is int:
        return bool(-MAX_INTEGER <= value <= MAX_INTEGER)
    if kind is str:
        return not texts or value.isascii() or _encodable(value)
    return kind is not _LongInteger


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_size(raw: bytes | str) -> None:
    if isinstance(raw, bytes):
        containers, commas = raw.count(b"{") + raw.count(b"["), raw.count(b",")
    else:
        containers, commas = raw.count("{") + raw.count("["), raw.count(",")
    if containers > MAX_CONTAINERS:
        raise JsonDocumentError(f"too big: {containers:,} JSON objects and arrays; the limit "
                                f"is {MAX_CONTAINERS:,}")
    if commas > MAX_COMMAS:
        raise JsonDocumentError(f"too big: {commas:,} values; the limit is {MAX_COMMAS:,}")


def _decode(raw: bytes) -> str:
    """Strict decoding (the json module itself lets UTF-8-encoded surrogates through)."""
    try:
        return raw.decode(json.detect_encoding(raw))
    except UnicodeDecodeError as error:
        raise JsonDocumentError(f"not UTF-8 text: {error.reason} at byte {error.start}"
                                ) from None


def _integer(literal: str) -> int:
    if len(literal) <= _DIGITS:
        return int(literal)
    too_long = _LongInteger(0)
    too_long.digits = len(literal.lstrip("-"))
    return too_long


def check_values(data: Any, at: Path = (), texts: bool = True) -> None:
    """Refuse (JsonDocumentError with the path, ``at`` being where ``data`` is) a value that
    would not be written back as read (strings are looked at only when ``texts``)."""
    if not _plainly_fine(data, texts):
        _find_bad_value(data, at)


def _find_bad_value(data: Any, at: Path = ()) -> None:
    """The slow half of :func:`check_values`: the path of the value at fault."""
    if not isinstance(data, _CONTAINERS):
        _check_scalar(data, at)
        return
    stack: list[tuple[Any, Path]] = [(data, at)]
    while stack:
        value, path = stack.pop()
        if len(path) - len(at) > MAX_DEPTH:
            raise JsonDocumentError(f"is nested deeper than {MAX_DEPTH} levels",
                                    path[:len(at) + 5])
        for key, item in _members(value):
            if isinstance(key, str):
                _check_text(key, path)
            if isinstance(item, _CONTAINERS):
                stack.append((item, (*path, key)))
            else:
                _check_scalar(item, (*path, key))


def _members(value: dict[Any, Any] | Sequence[Any] | set[Any] | frozenset[Any]
             ) -> Iterable[tuple[str | int, Any]]:
    return value.items() if isinstance(value, dict) else enumerate(value)


def _check_scalar(value: Any, path: Path) -> None:
    if isinstance(value, float):
        if not math.isfinite(value):
            raise JsonDocumentError(f"is not a finite number ({value})", path)
    elif isinstance(value, _LongInteger):
        raise JsonDocumentError(f"is a {value.digits}-digit integer, too large", path)
    elif isinstance(value, int) and abs(value) > MAX_INTEGER:
        raise JsonDocumentError(f"is {value}, beyond ±2^53", path)
    elif isinstance(value, str):
        _check_text(value, path)


def _check_text(text: str, path: Path) -> None:
    if not (text.isascii() or _encodable(text)):
        lone = next(ch for ch in text if "\ud800" <= ch <= "\udfff")
        raise JsonDocumentError(f"has a lone surrogate (U+{ord(lone):04X}), which no UTF-8 "
                                "file can hold", path)
