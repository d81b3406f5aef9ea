"""Token portraits embedded in the encounter, shared by every token that shows them.

A portrait is stored once, under a key made from its bytes, in :attr:`Encounter.portraits`;
a combatant names the key. Duplicating a token or adding a whole band of skeletons with the
same art costs nothing more in the file.

>>> key, portrait = Portrait.from_bytes(b"\\x89PNG...", "png")
>>> key, portrait.raw() == b"\\x89PNG..."
('20bb52267be33654', True)
>>> Portrait(format="png", data_base64="not base64!")
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Portrait
data_base64
  Value error, not valid base64 (...) ...
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.model.limits import MAX_PORTRAIT_BYTES, base64_of_at_most

PORTRAIT_KEY = r"^[0-9a-f]{16}$"
ImageFormat = Literal["png", "jpeg", "webp"]


def checked_base64(text: str) -> str:
    """``text`` if it is strict base64; ValueError naming the fault otherwise."""
    try:
        binascii.a2b_base64(text, strict_mode=True)
    except binascii.Error as error:
        raise ValueError(f"not valid base64 ({error})") from None
    return text


class Portrait(BaseModel):
    """One embedded image: PNG, JPEG or WebP bytes, as base64."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: ImageFormat = "png"
    data_base64: str = Field(min_length=4, max_length=base64_of_at_most(MAX_PORTRAIT_BYTES))

    _checked = field_validator("data_base64")(checked_base64)

    @classmethod
    def from_bytes(cls, raw: bytes, image_format: ImageFormat) -> tuple[str, Portrait]:
        """The portrait of ``raw`` and its key (the first 16 hex digits of its SHA-256)."""
        portrait = cls(format=image_format, data_base64=base64.b64encode(raw).decode("ascii"))
        return hashlib.sha256(raw).hexdigest()[:16], portrait

    def raw(self) -> bytes:
        return base64.b64decode(self.data_base64)
