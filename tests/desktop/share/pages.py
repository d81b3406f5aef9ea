"""What the share tests build: an encounter full of secrets, a share of it served on
127.0.0.1 (``battlemap serve``'s, with no window), and a player's page over a real
WebSocket that keeps every message it receives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp

from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter
from core.model.mapmodel import Hazard, HazardEffect, HazardKind
from desktop.share.headless import HeadlessShare
from desktop.share.table import ShareSettings
from tests.conftest import build_encounter

#: Words that must never reach a page: a hidden token, a creature beyond the wall (in
#: the fog), a hidden hazard, the notes and damage of a shown hazard, an enemy's stats.
SECRETS = ("Zanzibar", "Gloomfang", "Hidden Snare", "TRAP-NOTE", "FIRE-NOTE", "3d7",
           "Morlock", "Cellar Ghoul")
ENEMY_HP = 37
RECEIVE_S = 30  # a loaded 2-core machine: a served process's first move imports the rules


def secret_encounter() -> Encounter:
    """West of a wall (x = 4): the party (A: Ann's hero, B: another), an orc in sight, a
    hidden spy (S); east of it, unseen: Gloomfang (G) and a ghoul (C)."""
    orc = Combatant(name="Orc Brute", side=Side.OPPOSITION, max_hp=41, hp=ENEMY_HP)
    combatants = {
        "A": Combatant(name="Hero"), "B": Combatant(name="Bard"), "O": orc,
        "S": Combatant(name="Zanzibar Spy", side=Side.OPPOSITION),
        "G": Combatant(name="Gloomfang", side=Side.OPPOSITION),
        "C": Combatant(name="Cellar Ghoul", side=Side.OPPOSITION)}
    hazards = [
        Hazard(name="Firepit", kind=HazardKind.FIRE, cells=((1, 3),),
               effect=HazardEffect(damage="3d7", notes="FIRE-NOTE: burns")),
        Hazard(name="Hidden Snare", kind=HazardKind.PIT, cells=((2, 3),), gm_only=True,
               effect=HazardEffect(notes="TRAP-NOTE: a snare")),
        Hazard(name="Morlock Den", kind=HazardKind.PIT, cells=((6, 3),))]
    encounter = build_encounter("""
        . . . . . . . .
        A . O . . . G .
        . S . . . . . .
        B . . . . C . .
    """, combatants, walls=[(4, 0, 4, 4)], hazards=hazards)
    tokens = [t.model_copy(update={"gm_only": True}) if t.id == "S" else t
              for t in encounter.tokens]
    return encounter.model_copy(update={"tokens": tokens})


@contextmanager
def serving(encounter: Encounter | None = None, **settings: Any) -> Iterator[HeadlessShare]:
    """A share of ``encounter`` (the secret one) on 127.0.0.1, stopped afterwards."""
    share = HeadlessShare(encounter or secret_encounter(), ShareSettings(**settings))
    share.start("127.0.0.1", 0)
    try:
        yield share
    finally:
        share.stop()


class Page:
    """A player's page: a WebSocket to the share, every message it got in ``received``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []

    async def __aenter__(self) -> Page:
        self.session = aiohttp.ClientSession()
        self.socket = await self.session.ws_connect(self.url + "ws")
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.socket.close()
        await self.session.close()

    async def send(self, **message: Any) -> None:
        await self.socket.send_str(json.dumps(message))

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of this kind (with these fields), keeping those before it."""
        while True:
            frame = await asyncio.wait_for(self.socket.receive(), RECEIVE_S)
            if frame.type is not aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the connection closed waiting for {kind}: {frame}")
            self.raw.append(frame.data)
            message = json.loads(frame.data)
            self.received.append(message)
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    async def join(self, name: str = "Ann") -> dict[str, Any]:
        await self.send(type="hello", name=name)
        welcome = await self.expect("welcome")
        await self.expect("state")
        return welcome

    async def claim(self, token: str) -> dict[str, Any]:
        await self.send(type="claim", token=token)
        return await self.expect("claim", token=token)
