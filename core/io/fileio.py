"""Encounter files: JSON with a schema id and version (docs/file-format.md).

Saves are atomic (write a temporary file beside the target, fsync, rename), so a crash
never leaves half a file. Loading reports the first problems by path, and never returns a
half-read encounter.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.model.encounter import SCHEMA, SCHEMA_VERSION, Encounter
from core.model.profile import RulesProfile

MAX_FILE_BYTES = 64 * 1024 * 1024


class EncounterFileError(ValueError):
    """An encounter file could not be read; the message says what is wrong and where."""


def describe_validation_error(error: ValidationError, limit: int = 3) -> str:
    """Pydantic's errors as "where: what" lines, at most ``limit`` of them."""
    lines = []
    for item in error.errors()[:limit]:
        where = ".".join(str(part) for part in item["loc"]) or "file"
        # pydantic's "Value error, " prefix tells a GM nothing
        lines.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    more = len(error.errors()) - limit
    if more > 0:
        lines.append(f"... and {more} more problem(s)")
    return "; ".join(lines)


def encounter_from_json(text: str | bytes, origin: str = "file") -> Encounter:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise EncounterFileError(f"{origin} is not valid JSON: {error}") from None
    return encounter_from_data(data, origin)


def encounter_from_data(data: Any, origin: str = "file") -> Encounter:
    if not isinstance(data, dict):
        raise EncounterFileError(f"{origin} is not a Battlemap encounter (expected a JSON object)")
    if data.get("schema") != SCHEMA:
        raise EncounterFileError(
            f"{origin} is not a Battlemap encounter (\"schema\" is {data.get('schema')!r}, "
            f"expected {SCHEMA!r})")
    version = data.get("version")
    if version != SCHEMA_VERSION:
        raise EncounterFileError(
            f"{origin} has encounter format version {version!r}; this Battlemap reads "
            f"version {SCHEMA_VERSION}")
    try:
        # Abilities are checked against the file's own profile (it may extend the table).
        profile = RulesProfile.model_validate(data.get("profile", {}))
        return Encounter.model_validate(data, context={"profile": profile})
    except ValidationError as error:
        raise EncounterFileError(f"{origin}: {describe_validation_error(error)}") from None
    except ValueError as error:
        raise EncounterFileError(f"{origin}: {error}") from None


def load_encounter(path: str | os.PathLike[str]) -> Encounter:
    """Read an encounter file; EncounterFileError on any problem."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise EncounterFileError(f"{file.name} is {size // 2**20} MiB; the limit is "
                                     f"{MAX_FILE_BYTES // 2**20} MiB")
        raw = file.read_bytes()
    except OSError as error:
        raise EncounterFileError(f"cannot read {file}: {error.strerror or error}") from None
    return encounter_from_json(raw, file.name)


def encounter_to_json(encounter: Encounter) -> str:
    return encounter.model_dump_json(by_alias=True, indent=1)


def save_encounter(encounter: Encounter, path: str | os.PathLike[str]) -> None:
    """Write atomically: temp file in the same folder, fsync, rename over the target."""
    write_atomic(Path(path), encounter_to_json(encounter).encode("utf-8"))


def write_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` all at once, keeping the old file's permissions
    (a new file gets the usual umask-based ones, not mkstemp's 0600)."""
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)
    try:
        os.chmod(temp_name, _mode_for(target))
        with os.fdopen(handle, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
