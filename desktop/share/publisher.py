"""What every page was last sent of the player view, and what goes out after a change: the
whole view to a page that joins or comes back, the delta after each change of the
encounter (the masks as the cells that flipped, the moves as the cells walked), and the
files the server may hand out (portraits, the map image's explored tiles)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from core.model.grid import Cell
from desktop.share.view import (
    MASKS,
    Json,
    Seen,
    ViewBuilder,
    ViewOptions,
    background_bytes,
    delta,
    flips,
    walk,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from core.model.encounter import Encounter


@dataclass(frozen=True)
class SharedFiles:
    """What the server may hand out besides messages: the portraits of the tokens the
    players see, and the map image with the cells explored (for its masked tiles)."""

    portraits: dict[str, tuple[bytes, str]]
    background: Json | None = None
    image: bytes = b""
    explored: Any = None  # the explored mask (numpy), read-only


class Sender(Protocol):
    """Where the view goes: the server, from any thread."""

    def send(self, connections: Collection[int], message: Json) -> None: ...

    def share_files(self, files: SharedFiles) -> None: ...


class Publisher:
    """The view of one encounter as the pages have it (on the encounter's thread)."""

    def __init__(self, encounter: Callable[[], Encounter], sender: Sender,
                 options: ViewOptions) -> None:
        self.encounter, self.sender = encounter, sender
        self.builder = ViewBuilder(options)
        self.walked: dict[str, tuple[Cell, ...]] = {}  # the path of a player's last move
        self._view: Json | None = None
        self._seen: Seen | None = None
        self._files: SharedFiles | None = None

    def seen(self) -> Seen:
        if self._seen is None:
            self._seen = Seen.of(self.encounter())
        return self._seen

    def view(self) -> Json:
        """The whole view as it is now (what a page gets when it joins)."""
        if self._view is None:
            self._publish(Seen.of(self.encounter()))
        assert self._view is not None
        return self._view

    def set_options(self, options: ViewOptions) -> None:
        self.builder = ViewBuilder(options)

    def refresh(self, pages: Collection[int]) -> None:
        """The encounter changed: ``pages`` get what changed of the view."""
        before, seen_before = self._view, self._seen
        after = self._publish(Seen.of(self.encounter()))
        if before is None:
            return
        changes = delta(before, after)
        if seen_before is not None:
            for mask in MASKS:
                if mask in changes:
                    changes.pop(mask)
                    changes[f"{mask}_flip"] = flips(getattr(seen_before.view, mask),
                                                    getattr(self.seen().view, mask))
        if changes:
            walks = self._walks(before, changes)
            self.sender.send(pages, {"type": "delta", "changes": changes, "walks": walks})

    def replaced(self, pages: Collection[int]) -> None:
        """Another encounter: ``pages`` start again from the whole view."""
        self._view = None
        self.builder = ViewBuilder(self.builder.options)
        self.sender.send(pages, {"type": "state", "view": self.view()})

    def _publish(self, seen: Seen) -> Json:
        encounter = self.encounter()
        self._seen = seen
        self._view = self.builder.build(encounter, seen)
        self._share_files(encounter, seen, self._view["map"]["background"])
        return self._view

    def _share_files(self, encounter: Encounter, seen: Seen, background: Json | None) -> None:
        keys = sorted({t.combatant.portrait for t in seen.items.tokens
                       if t.combatant.portrait is not None})
        portraits = {key: (encounter.portraits[key].raw(),
                           f"image/{encounter.portraits[key].format}") for key in keys}
        files = SharedFiles(portraits, background,
                            background_bytes(encounter) if background else b"",
                            seen.view.explored)
        if self._files is None or _files_differ(self._files, files):
            self._files = files
            self.sender.share_files(files)

    def _walks(self, before: Json, changes: Json) -> dict[str, list[list[int]]]:
        """For each token that moved and is still seen: the cells it walked that the
        players see (the path of a player's move, its path this round, else straight from
        where it was)."""
        encounter, seen = self.encounter(), self.seen()
        walks = {}
        for token_id, token in changes.get("tokens", {}).get("put", {}).items():
            old = before["tokens"].get(token_id)
            if old is not None and (old["x"], old["y"]) != (token["x"], token["y"]):
                walks[token_id] = walk(encounter, token_id, Cell(old["x"], old["y"]),
                                       Cell(token["x"], token["y"]), seen.view.visible,
                                       walked=self.walked.pop(token_id, ()))
        return walks


def _files_differ(a: SharedFiles, b: SharedFiles) -> bool:
    if a.portraits.keys() != b.portraits.keys() or a.background != b.background:
        return True
    return a.explored is None or b.explored is None or bool((a.explored != b.explored).any())
