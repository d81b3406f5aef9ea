"""The GM's bestiary: combatant templates kept between encounters (docs/file-format.md,
"Bestiary file").

A bestiary file is a versioned JSON object of templates, read like an encounter: a regular
file under the size cap (:mod:`core.io.files`), parsed under :mod:`core.io.safejson`'s
bounds, every number bounded by the model; a bad file is one :class:`BestiaryFileError`
naming the problem, and nothing half-read is returned. Saves check that what they write
loads again and are atomic (:func:`core.io.fileio.write_atomic`).

The templates themselves: :mod:`core.model.bestiary`.

>>> from core.model.combatant import Combatant
>>> from core.model.bestiary import Template
>>> book = Bestiary(templates=[Template(combatant=Combatant(name="Kobold", side="opposition"))])
>>> bestiary_from_json(bestiary_to_bytes(book)).names()
['Kobold']
>>> bestiary_from_json(b'{"schema": "battlemap.bestiary", "version": 1, "templates": 3}')
Traceback (most recent call last):
...
core.io.bestiary.BestiaryFileError: file: templates: Input should be a valid list
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.io.fileio import describe_validation_error, loadable_bytes, write_atomic
from core.io.files import FileReadError, read_regular_file
from core.io.safejson import JsonDocumentError, parse_json
from core.model.bestiary import Bestiary
from core.model.limits import MAX_FILE_BYTES

SCHEMA = "battlemap.bestiary"
SCHEMA_VERSION = 1


class BestiaryFileError(ValueError):
    """A bestiary file could not be read; the message says what and where."""


class BestiarySaveError(ValueError):
    """The bestiary cannot be written as it is (no file was touched)."""


def bestiary_from_json(text: str | bytes, origin: str = "file") -> Bestiary:
    """The bestiary in ``text``; BestiaryFileError naming the problem."""
    try:
        data = parse_json(text)
    except JsonDocumentError as error:
        raise BestiaryFileError(f"{origin}: {error}" if error.path else f"{origin} is {error}"
                                ) from None
    return bestiary_from_data(data, origin)


def bestiary_from_data(data: Any, origin: str = "file") -> Bestiary:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise BestiaryFileError(f"{origin} is not a Battlemap bestiary (a JSON object with "
                                f"\"schema\": {SCHEMA!r})")
    if data.get("version") != SCHEMA_VERSION:
        raise BestiaryFileError(f"{origin} has bestiary format version "
                                f"{str(data.get('version'))[:20]}; this Battlemap reads "
                                f"version {SCHEMA_VERSION}")
    try:
        return Bestiary.model_validate(data)
    except ValidationError as error:
        raise BestiaryFileError(f"{origin}: {describe_validation_error(error)}") from None


def load_bestiary(path: str | os.PathLike[str], missing_ok: bool = False) -> Bestiary:
    """Read a bestiary file (an empty bestiary when it does not exist and ``missing_ok``);
    BestiaryFileError on any problem."""
    if missing_ok and not os.path.lexists(path):
        return Bestiary()
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except FileReadError as error:
        raise BestiaryFileError(str(error)) from None
    return bestiary_from_json(raw, Path(path).name)


def bestiary_to_bytes(bestiary: Bestiary) -> bytes:
    """The file's bytes (indented one space, like an encounter); BestiarySaveError when
    they would not load again."""
    try:
        return loadable_bytes(bestiary, lambda data: bestiary_from_json(data, "the saved "
                                                                        "bestiary"))
    except (JsonDocumentError, BestiaryFileError) as error:
        raise BestiarySaveError(f"cannot save the bestiary: {error}") from None


def save_bestiary(bestiary: Bestiary, path: str | os.PathLike[str]) -> None:
    """Check, then write atomically (the folder is made if missing)."""
    target = Path(path)
    data = bestiary_to_bytes(bestiary)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, data)

