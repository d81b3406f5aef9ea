"""The share's web server on 127.0.0.1, with real pages: nothing is served without the
join address's secret (and files not without a player's session), bad messages get a
clear error and change nothing, and no message a page receives carries anything the GM
hid."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from typing import Any

import aiohttp
import numpy as np
import pytest
from PIL import Image

from core.actions.commands import MoveToken, SetBackground
from core.actions.fog import SetGmOnly
from core.model.grid import Cell
from core.model.mapmodel import Background
from desktop.share.headless import HeadlessShare
from desktop.share.protocol import MAX_MESSAGE_BYTES
from desktop.share.server import STRIKES
from desktop.share.tiles import tile_bits
from tests.desktop.share.pages import ENEMY_HP, SECRETS, Page, secret_encounter, serving


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def fetch(url: str) -> tuple[int, bytes, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.read(), dict(response.headers)


def test_the_page_is_served_only_under_the_secret() -> None:
    with serving() as share:
        url = share.server.url
        status, body, headers = run(fetch(url))
        assert status == 200 and b"<canvas" in body
        assert headers["Referrer-Policy"] == "no-referrer"
        assert run(fetch(url + "share.js"))[0] == 200
        base = url.split("/play/")[0]
        for wrong in ("/", "/play/", f"/play/{'A' * 32}/", f"/play/{'A' * 32}/share.js",
                      "/play/" + share.server.secret + "/../pyproject.toml"):
            assert run(fetch(base + wrong))[0] == 404, wrong


def test_the_secret_is_unguessable() -> None:
    with serving() as share:
        secret = share.server.secret
    assert len(base64.urlsafe_b64decode(secret + "==")) * 8 >= 128


def test_a_websocket_without_the_secret_is_refused() -> None:
    async def connect(url: str) -> None:
        async with aiohttp.ClientSession() as session:
            await session.ws_connect(url)

    with serving() as share:
        wrong = share.server.url.replace(share.server.secret, "B" * 32)
        with pytest.raises(aiohttp.WSServerHandshakeError):
            run(connect(wrong + "ws"))


def test_a_websocket_from_another_sites_page_is_refused() -> None:
    async def connect(url: str) -> None:
        async with aiohttp.ClientSession() as session:
            await session.ws_connect(url, origin="http://evil.example")

    with serving() as share, pytest.raises(aiohttp.WSServerHandshakeError):
        run(connect(share.server.url + "ws"))


def test_bad_messages_get_an_error_each_and_change_nothing() -> None:
    async def play(share: HeadlessShare) -> list[str]:
        async with Page(share.server.url) as page:
            await page.send(type="move", token="A", to=[1, 0])  # before joining
            errors = [(await page.expect("error"))["text"]]
            await page.join()
            await page.claim("A")
            for bad in ("not json", "[1, 2]", json.dumps({"type": "move", "token": "A"}),
                        json.dumps({"type": "move", "token": "A", "to": [-1, 0]}),
                        json.dumps({"type": "move", "token": "A", "to": [1, 0], "x": 1}),
                        json.dumps({"type": "hello", "name": "x" * 500}),
                        "x" * (MAX_MESSAGE_BYTES + 1)):
                await page.socket.send_str(bad)
                errors.append((await page.expect("error"))["text"])
            await page.socket.send_bytes(b"\x00\x01")
            errors.append((await page.expect("error"))["text"])
            await page.send(type="ping")
            await page.expect("pong")  # still connected
            return errors

    with serving(claims="open") as share:
        errors = run(play(share))
        assert share.history.index == 0
        assert share.history.encounter.token("A").cell == Cell(0, 1)
    assert errors[0] == "say hello first: join with a name"
    assert errors[1:3] == ["not a JSON object", "not a JSON object"]
    assert errors[3] == "move.to: Field required"
    assert errors[4].startswith("move.to.0: Input should be greater than or equal to 0")
    assert errors[5].startswith("move.x: Extra inputs are not permitted")
    assert errors[6].startswith("hello.name: String should have at most 40 characters")
    assert errors[7] == f"message too long ({MAX_MESSAGE_BYTES + 1} bytes; at most 4096)"
    assert errors[8] == "send text (JSON) messages only"


def test_a_flood_of_messages_is_slowed_down_then_closed() -> None:
    async def read_until_closed(page: Page) -> tuple[list[str], aiohttp.WSMessage]:
        kinds: list[str] = []
        while True:
            frame = await asyncio.wait_for(page.socket.receive(), 10)
            if frame.type is not aiohttp.WSMsgType.TEXT:
                return kinds, frame
            kinds.append(json.loads(frame.data)["type"])

    async def flood(share: HeadlessShare) -> tuple[list[str], aiohttp.WSMessage]:
        async with Page(share.server.url) as page:
            await page.join()
            # Read while sending: a client whose send fails drops the frames it has not
            # read, and the close the server sent among them.
            reader = asyncio.create_task(read_until_closed(page))
            for _ in range(200):
                if reader.done():
                    break
                try:
                    await page.send(type="ping")
                except ConnectionResetError:  # the server closed it mid-flood
                    break
                await asyncio.sleep(0)
            return await reader

    with serving() as share:
        kinds, close = run(flood(share))
    # The page never closes its side, so an end without a 10 s time-out is the server's
    # close; the last refusals may be lost with it when the close cuts a send short.
    assert 0 < kinds.count("error") <= STRIKES
    assert close.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


def test_every_message_a_page_receives_keeps_the_gms_secrets() -> None:
    """A whole session — join, claim, previews into the fog and onto the hidden spy, moves,
    the ruler, the GM moving hidden and unseen creatures, hiding and showing tokens,
    another player — and every byte the page received is searched for the secrets."""

    async def session(share: HeadlessShare) -> Page:
        async with Page(share.server.url) as page, Page(share.server.url) as other:
            await page.join()
            await other.join("Bo")
            await page.claim("A")
            for to in ([1, 2], [6, 1], [5, 3], [2, 3], [3, 3]):
                await page.send(type="preview", token="A", to=to)
                await page.expect("preview", to=to)
            await page.send(type="move", token="A", to=[1, 2], seq=1)  # onto the spy
            await page.expect("move", seq=1)
            await page.send(type="move", token="A", to=[3, 3], seq=2)
            await page.expect("move", seq=2)
            await page.send(type="measure", points=[[0, 0], [7, 3]])
            await page.expect("measure")
            gm = share.call
            gm(lambda: share.history.push(MoveToken("S", Cell(2, 0))))  # hidden: no news
            gm(lambda: share.history.push(MoveToken("G", Cell(6, 2))))  # unseen: no news
            gm(lambda: share.history.push(MoveToken("O", Cell(3, 1))))
            await page.expect("delta")
            gm(lambda: share.history.push(SetGmOnly(["O"], True)))
            await page.expect("delta")
            gm(lambda: share.history.push(MoveToken("O", Cell(3, 0))))
            gm(lambda: share.history.push(SetGmOnly(["B"], True)))
            await page.expect("delta")
            await page.send(type="ping")
            await page.expect("pong")
            return page

    with serving(claims="open") as share:
        page = run(session(share))
    everything = "\n".join(page.raw)
    for secret in SECRETS:
        assert secret.lower() not in everything.lower(), secret
    for message in page.received:
        for token in _tokens_in(message):
            assert token["id"] in {"A", "B", "O"}
            assert set(token) <= {"id", "name", "x", "y", "size", "side", "conditions",
                                  "portrait", "hp", "max_hp", "health"}
            if token["side"] != "party":
                assert "hp" not in token and "max_hp" not in token
    assert str(ENEMY_HP) not in everything
    first = next(m for m in page.received if m["type"] == "state")["view"]
    assert all(int(key.split(",")[0]) < 4 for key in first["terrain"])  # none in the fog
    assert [h["name"] for h in first["hazards"].values()] == ["Firepit"]
    assert set(first["hazards"]["0"]) == {"name", "kind", "cells"}


def _tokens_in(message: dict[str, Any]) -> list[dict[str, Any]]:
    if message["type"] == "state":
        return list(message["view"]["tokens"].values())
    if message["type"] == "delta":
        return list(message["changes"].get("tokens", {}).get("put", {}).values())
    return []


def test_enemy_hit_points_show_as_the_gm_allows() -> None:
    async def view(share: HeadlessShare) -> dict[str, Any]:
        async with Page(share.server.url) as page:
            await page.send(type="hello", name="Ann")
            return (await page.expect("state"))["view"]["tokens"]["O"]

    with serving(enemy_hp="state") as share:
        assert run(view(share))["health"] == "hurt"
    with serving(enemy_hp="exact") as share:
        assert run(view(share))["hp"] == ENEMY_HP


def test_the_map_image_comes_in_tiles_cut_to_what_the_party_explored() -> None:
    encounter = secret_encounter()
    picture = io.BytesIO()
    Image.new("RGB", (80, 40), (200, 30, 30)).save(picture, "PNG")
    background = Background(data_base64=base64.b64encode(picture.getvalue()).decode(),
                            px_per_cell=10)

    async def tiles(share: HeadlessShare) -> tuple[int, int, int, bytes]:
        async with Page(share.server.url) as page:
            session = (await page.join())["session"]
            view = page.received[-1]["view"]
            key = view["map"]["background"]["key"]
            explored = np.zeros((4, 8), dtype=bool)
            explored.flat[:] = np.repeat(np.arange(len(view["explored"])) % 2 == 1,
                                         view["explored"])
            bits = tile_bits(explored, 0, 0)
            base = f"{share.server.url}tile/{key}/0/0/"
            without = (await fetch(base + bits + ".png"))[0]
            greedy = (await fetch(f"{base}{'ff' * 8}.png?s={session}"))[0]
            status, body, _ = await fetch(f"{base}{bits}.png?s={session}")
            return without, greedy, status, body

    with serving(encounter) as share:
        share.call(lambda: share.history.push(SetBackground(background)))
        without, greedy, status, body = run(tiles(share))
    assert (without, greedy, status) == (404, 404, 200)
    pixels = np.array(Image.open(io.BytesIO(body)))
    assert pixels[15, 15, 3] == 255 and tuple(pixels[15, 15, :3]) == (200, 30, 30)  # (1, 1)
    assert pixels[15, 55, 3] == 0  # cell (5, 1), beyond the wall: cut out


def test_the_server_listens_on_the_chosen_interface_only() -> None:
    import socket

    with serving() as share:
        assert run(fetch(share.server.url))[0] == 200
        elsewhere = ("127.0.0.2", share.server.port)  # loopback too, but not the one chosen
        with pytest.raises(OSError), socket.create_connection(elsewhere, timeout=5):
            pass
