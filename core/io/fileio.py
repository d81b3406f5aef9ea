"""Encounter files: JSON with a schema id and version (docs/file-format.md).

One load path: :func:`load_encounter` reads only a regular file under the size cap
(:mod:`core.io.files`), parses it under :mod:`core.io.safejson`'s bounds, and validates
it; every failure is one :class:`EncounterFileError` and never a half-read encounter.

The log keeps its newest entries in the file and gives the oldest to an archive beside it
when it outgrows the file (:mod:`core.io.logarchive`): a ruling is never refused for it.

Saves write only what loads again: :func:`encounter_to_bytes` refuses (with
:class:`EncounterSaveError`, before any file is touched) an encounter holding a value that
cannot be written as read (a non-finite number, unencodable text) or that the loader would
refuse, by serialising it and validating the bytes. The write is atomic (a temporary file
beside the target, fsync, rename), so a crash never leaves half a file; the temporary file
is removed on every failure, and those left by a killed process are swept on the next save.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

from core.io.files import FileReadError, read_regular_file
from core.io.logarchive import archive, kept_from
from core.io.safejson import (
    JsonDocumentError,
    check_controls,
    check_values,
    dotted,
    may_hold_controls,
    may_hold_surrogates,
    parse_json,
)
from core.model.encounter import SCHEMA, SCHEMA_VERSION, Encounter
from core.model.limits import MAX_FILE_BYTES
from core.model.profile import RulesProfile


class EncounterFileError(ValueError):
    """An encounter file could not be read; the message says what is wrong and where."""


class EncounterSaveError(ValueError):
    """The encounter cannot be saved as it is (the file was not touched); the message names
    the value at fault."""


def describe_validation_error(error: ValidationError, limit: int = 3,
                              within: tuple[str, ...] = ()) -> str:
    """Pydantic's errors as "where: what" on one line, at most ``limit`` of them
    (``within``: the path of the validated part in the file)."""
    lines = []
    for item in error.errors()[:limit]:
        where = dotted((*within, *item["loc"])) or "file"
        lines.append(f"{where}: {in_plain_words(item)}")
    more = len(error.errors()) - limit
    if more > 0:
        lines.append(f"... and {more} more problem(s)")
    return _one_line("; ".join(lines))


def in_plain_words(item: ErrorDetails) -> str:
    """Pydantic's message, in a GM's words where it reads like a programmer's: "String
    should have at least 1 character" for an emptied name; the "Value error, " prefix."""
    if item["type"] == "string_too_short" and item.get("ctx", {}).get("min_length") == 1:
        return "cannot be empty"
    return item["msg"].removeprefix("Value error, ")


def _one_line(text: str) -> str:
    return re.sub(r"\s*[\r\n]+\s*", " ", text)


def encounter_from_json(text: str | bytes, origin: str = "file") -> Encounter:
    try:
        data = parse_json(text, checked=False)
    except JsonDocumentError as error:  # about the text, or an over-long integer's path
        raise EncounterFileError(_text_problem(origin, error)) from None
    encounter = encounter_from_data(data, origin)  # first: its counts refuse huge files fast
    try:
        _check_what_the_schema_lets_through(data, may_hold_surrogates(text))
        if may_hold_controls(text):
            check_controls(data)
    except JsonDocumentError as error:
        raise EncounterFileError(f"{origin}: {error}") from None
    return encounter


def _check_what_the_schema_lets_through(data: dict[str, Any], surrogates: bool) -> None:
    """Typed fields refuse non-finite and out-of-range numbers themselves; the free-form
    log detail does not, and any text may hold a lone surrogate."""
    if surrogates:
        check_values(data)
        return
    for index, entry in enumerate(data.get("log", ())):
        check_values(entry.get("detail"), at=("log", index, "detail"), texts=False)


def _text_problem(origin: str, error: JsonDocumentError) -> str:
    if error.path:
        return f"{origin}: {error}"
    if str(error).startswith("not UTF-8 text"):  # an image, a PDF, another program's file
        return f"{origin} is not an encounter file: it is not text ({error})"
    return f"{origin} is {error}"


def encounter_from_data(data: Any, origin: str = "file") -> Encounter:
    if not isinstance(data, dict):
        raise EncounterFileError(f"{origin} is not a Battlemap encounter (expected a JSON object)")
    if data.get("schema") != SCHEMA:
        found = ("it has no \"schema\" key" if "schema" not in data
                 else f"its \"schema\" is {_short(data['schema'])}")
        raise EncounterFileError(f"{origin} is not a Battlemap encounter: {found}, not "
                                 f"{SCHEMA!r} (another program's JSON file?)")
    version = data.get("version")
    if version != SCHEMA_VERSION:
        raise EncounterFileError(
            f"{origin} has encounter format version {_short(version)}; this Battlemap reads "
            f"version {SCHEMA_VERSION}")
    try:
        # Abilities are checked against the file's own profile (it may extend the table).
        profile = RulesProfile.model_validate(data.get("profile", {}))
    except ValidationError as error:
        problems = describe_validation_error(error, within=("profile",))
        raise EncounterFileError(f"{origin}: {problems}") from None
    try:
        return Encounter.model_validate(data, context={"profile": profile})
    except ValidationError as error:
        raise EncounterFileError(f"{origin}: {describe_validation_error(error)}") from None
    except ValueError as error:
        raise EncounterFileError(_one_line(f"{origin}: {error}")) from None


def _short(value: object) -> str:
    return _one_line(repr(value)[:60])


def load_encounter(path: str | os.PathLike[str]) -> Encounter:
    """Read an encounter file; EncounterFileError on any problem."""
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except FileReadError as error:
        raise EncounterFileError(str(error)) from None
    return encounter_from_json(raw, Path(path).name)


def encounter_to_json(encounter: Encounter, *, compact: bool = False) -> str:
    """The encounter file's text: indented one space, to read and compare by eye; compact
    (no line breaks) for a file only the app reads, such as a recovery file: a third
    faster to make (19 vs 30 ms on the 300×300 benchmark map), and fewer bytes to parse.
    The log is the newest entries that fit in the file (:mod:`core.io.logarchive`)."""
    return as_filed(encounter).model_dump_json(by_alias=True, indent=None if compact else 1)


def as_filed(encounter: Encounter, kept: int | None = None) -> Encounter:
    """The encounter as its file holds it: the log from entry ``kept`` on (None: as many
    of the newest as fit, :func:`core.io.logarchive.kept_from`)."""
    kept = kept_from(encounter) if kept is None else kept
    return encounter if kept == 0 else encounter.model_copy(update={"log": encounter.log[kept:]})


def encounter_to_bytes(encounter: Encounter, kept: int | None = None) -> bytes:
    """The encounter file's bytes (its log from entry ``kept`` on: see :func:`as_filed`);
    EncounterSaveError when they would not load again."""
    try:
        return loadable_bytes(as_filed(encounter, kept),
                              lambda data: encounter_from_json(data, "the saved file"))
    except (JsonDocumentError, EncounterFileError) as error:
        raise EncounterSaveError(f"cannot save: {error}") from None


def loadable_bytes(model: BaseModel, load: Callable[[bytes], object]) -> bytes:
    """``model`` as file bytes (indented one space), checked as its loader will: its
    values, the file's size and ``load`` itself (which raises what it refuses)."""
    check_values(model.model_dump(by_alias=True))
    data = model.model_dump_json(by_alias=True, indent=1).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        raise JsonDocumentError(f"the file would be {len(data) // 2**20} MiB; the limit is "
                                f"{MAX_FILE_BYTES // 2**20} MiB")
    load(data)
    return data


def save_encounter(encounter: Encounter, path: str | os.PathLike[str]) -> None:
    """Check, then write atomically: temp file in the same folder, fsync, rename. Log
    entries the file has no room for are appended to the archive beside it first."""
    kept = kept_from(encounter)
    data = encounter_to_bytes(encounter, kept)
    archive(encounter, Path(path), kept)
    write_atomic(Path(path), data)


def write_atomic(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` all at once, keeping the old file's permissions
    (a new file gets the usual umask-based ones, not mkstemp's 0600). The temporary file's
    name carries this process's id, so a later save can tell one left by a killed process."""
    _sweep_orphans(target)
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.",
                                         suffix=".tmp", dir=target.parent)
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


def _sweep_orphans(target: Path) -> None:
    """Remove temporary files of earlier saves of ``target`` whose process is gone."""
    sweep_orphans(target.parent, re.escape(target.name))


def sweep_orphans(folder: Path, names: str) -> None:
    """Remove the temporary files :func:`write_atomic` left in ``folder`` for targets whose
    names match the pattern ``names``, when the process that made them is gone. In a
    folder only this program writes (its data folder) every target may be swept; files
    beside a GM's encounter are swept for that encounter only."""
    pattern = re.compile(rf"\.(?:{names})\.(?P<pid>\d+)\.\w+\.tmp")
    try:
        found = os.listdir(folder)
    except OSError:
        return
    for name in found:
        match = pattern.fullmatch(name)
        if match and not process_alive(int(match["pid"])):
            Path(folder, name).unlink(missing_ok=True)


def process_alive(pid: int) -> bool:
    """Whether a process with this id is running (owning a temporary or recovery file)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but is not ours to signal
        return True
    return True


def _mode_for(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
