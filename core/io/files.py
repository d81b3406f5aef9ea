"""Reading files named by a user or by a file: regular files only, never more than a cap.

A FIFO, a device (``/dev/zero``) or a folder is refused before it is opened, so nothing can
block on an open or read forever; the file is opened non-blocking and checked again after
opening (it may have been swapped meanwhile), and at most ``max_bytes + 1`` bytes are read
even if it grows. Every problem is one :class:`FileReadError` whose message names the file.

>>> read_regular_file("/dev/zero", 10)
Traceback (most recent call last):
...
core.io.files.FileReadError: /dev/zero is not a regular file (a character device)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from core.model.limits import MAX_IMAGE_BYTES

MiB = 2**20
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class FileReadError(ValueError):
    """A file could not be read, or should not be: the message says which and why."""


def read_regular_file(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; FileReadError otherwise."""
    name = os.fspath(path)
    try:
        _check(os.stat(name), name, max_bytes)
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise FileReadError(f"cannot read {name}: {error.strerror or error}") from None
    try:
        _check(os.fstat(descriptor), name, max_bytes)
        return _read_at_most(descriptor, name, max_bytes)
    except OSError as error:
        raise FileReadError(f"cannot read {name}: {error.strerror or error}") from None
    finally:
        os.close(descriptor)


def read_stream(descriptor: int, name: str, max_bytes: int) -> bytes:
    """What an open pipe or file (standard input: descriptor 0) holds to its end, at most
    ``max_bytes``; FileReadError otherwise. ``name`` is what messages call it."""
    try:
        return _read_at_most(descriptor, name, max_bytes)
    except OSError as error:
        raise FileReadError(f"cannot read {name}: {error.strerror or error}") from None


def read_image_file(path: str | os.PathLike[str], max_bytes: int = MAX_IMAGE_BYTES) -> bytes:
    """The bytes of a background or portrait image file (decode them with the GUI toolkit):
    FileReadError for anything but a regular file of at most ``max_bytes`` (by default the
    embedded-image cap, so what is read can also be embedded in an encounter)."""
    return read_regular_file(path, max_bytes)


def _check(status: os.stat_result, name: str, max_bytes: int) -> None:
    if not stat.S_ISREG(status.st_mode):
        kind = next((text for test, text in _KINDS if test(status.st_mode)), "a special file")
        raise FileReadError(f"{name} is not a regular file ({kind})")
    if status.st_size > max_bytes:
        raise FileReadError(f"{Path(name).name} is {_mib(status.st_size)}; the limit is "
                            f"{_mib(max_bytes)}")


def _read_at_most(descriptor: int, name: str, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(descriptor, min(max_bytes + 1 - size, 16 * MiB)):
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            raise FileReadError(f"{Path(name).name} grew past the limit of {_mib(max_bytes)} "
                                "while it was read")
    return b"".join(chunks)


def _mib(size: int) -> str:
    """A size in MiB, rounded down ("64 MiB"), or in bytes when under one MiB."""
    return f"{size // MiB} MiB" if size >= MiB else f"{size} bytes"
