"""The players' page in a real browser: the distribution's Chromium (/usr/bin/chromium,
headless) driven by Playwright, which downloads no browser build here, against a share
served on 127.0.0.1. The page joins, draws the player view, follows the GM's moves, never
shows a hidden token, moves the player's own token through the GM's rules, and cannot move
anyone else's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.actions.commands import MoveToken
from core.actions.fog import SetGmOnly
from core.model.grid import Cell
from core.rules.timeline import segments_moving
from core.spatial.pathing import movement_graph
from desktop.share.headless import HeadlessShare
from tests.desktop.share.pages import serving

CHROMIUM = Path("/usr/bin/chromium")
#: Headless, as root, on a machine with no network: nothing but the page. Playwright
#: starts the browser with a fresh profile folder of its own each time.
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
OPPOSITION_RED = (0xC8, 0x32, 0x2D)  # the ring of an enemy's token

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="needs Debian's chromium (.ci/run installs it)")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def share() -> Iterator[HeadlessShare]:
    with serving(claims="open") as running:
        yield running


@pytest.fixture
def page(chromium: Any, share: HeadlessShare) -> Iterator[Any]:
    """A phone-sized page that has joined the table as Ann."""
    # The page's policy allows no eval; Playwright's waits evaluate their conditions.
    context = chromium.new_context(viewport=PHONE, has_touch=True, bypass_csp=True)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto(share.server.url)
    tab.fill("#name", "Ann")
    tab.click("#join button")
    tab.wait_for_function("state.view !== null && state.me !== null")
    yield tab
    context.close()
    assert problems == []


def centre(page: Any, x: float, y: float) -> tuple[float, float]:
    """The screen point of the middle of cell (x, y) on the page."""
    point = page.evaluate(f"toScreen({x} + 0.5, {y} + 0.5)")
    return point[0], point[1]


def colour_at(page: Any, x: int, y: int) -> tuple[int, int, int]:
    """The colour the page painted at the top of cell (x, y)'s token ring (the ring is in
    the token's side's colour; elsewhere the floor, or the fog)."""
    page.evaluate("new Promise(requestAnimationFrame)")
    ratio = page.evaluate("window.devicePixelRatio")
    px, py = page.evaluate(f"""(() => {{
        const r = state.scale / 2 - Math.max(1, state.scale * 0.06);
        const [cx, cy] = toScreen({x} + 0.5, {y} + 0.5);
        return [cx, cy - r];
    }})()""")
    pixel = page.evaluate(
        f"Array.from(ctx.getImageData({round(px * ratio)}, {round(py * ratio)}, 1, 1).data)")
    return pixel[0], pixel[1], pixel[2]


def test_the_page_joins_and_draws_the_party_view(page: Any) -> None:
    assert page.text_content("#status") == "live"
    assert sorted(page.evaluate("Object.keys(state.view.tokens)")) == ["A", "B", "O"]
    assert colour_at(page, 2, 1) == OPPOSITION_RED  # the orc, drawn
    assert colour_at(page, 6, 1) == (0, 0, 0)  # Gloomfang's cell: fog


def test_a_gm_move_shows_on_the_page(page: Any, share: HeadlessShare) -> None:
    share.call(lambda: share.history.push(MoveToken("O", Cell(3, 2))))
    page.wait_for_function("state.view.tokens.O.x === 3 && state.view.tokens.O.y === 2")
    page.wait_for_function("state.animations.size === 0")
    assert colour_at(page, 3, 2) == OPPOSITION_RED


def test_a_hidden_token_never_shows_and_a_token_hidden_goes(page: Any,
                                                            share: HeadlessShare) -> None:
    assert page.evaluate("'S' in state.view.tokens") is False
    assert colour_at(page, 1, 2) != OPPOSITION_RED  # the spy's cell
    share.call(lambda: share.history.push(SetGmOnly(["O"], True)))
    page.wait_for_function("!('O' in state.view.tokens)")
    assert colour_at(page, 2, 1) != OPPOSITION_RED


def test_a_drag_of_the_players_own_token_moves_it_in_the_gms_document(
        page: Any, share: HeadlessShare) -> None:
    page.mouse.click(*centre(page, 0, 1))  # tap Hero: "Play Hero"
    page.click("#sheet-yes")
    page.wait_for_function("myTokens().includes('A')")
    start, goal = centre(page, 0, 1), centre(page, 2, 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + goal[0]) / 2, (start[1] + goal[1]) / 2, steps=4)
    page.mouse.move(*goal, steps=4)
    page.wait_for_function("state.preview !== null && state.preview.legal")
    gm_drag = share.call(lambda: movement_graph(share.history.encounter, share.history
                                                .encounter.token("A")).path_to(Cell(2, 2)))
    seconds = segments_moving(gm_drag.cost_ft, share.history.encounter.profile)
    assert page.evaluate("state.preview.label") == f"{gm_drag.cost_ft:g} ft · {seconds} seg"
    page.mouse.up()
    page.wait_for_function("state.view.tokens.A.x === 2 && state.view.tokens.A.y === 2")
    assert share.call(lambda: share.history.encounter.token("A").cell) == Cell(2, 2)
    assert share.call(share.history.labels) == ["Move Hero"]


def test_a_drag_of_someone_elses_token_is_refused(page: Any, share: HeadlessShare) -> None:
    start, goal = centre(page, 0, 3), centre(page, 1, 3)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*goal, steps=4)
    page.mouse.up()  # not the player's token: the drag pans the map instead
    assert "Tap Bard to ask to play it" in page.text_content("#tip")  # said at the pan
    page.evaluate("send({type: 'move', token: 'B', to: [1, 3], seq: 9})")  # forged
    page.wait_for_function("document.getElementById('tip').textContent.includes('not your')")
    assert share.call(lambda: share.history.encounter.token("B").cell) == Cell(0, 3)
    assert share.call(lambda: share.history.index) == 0


def test_a_page_that_loses_its_connection_comes_back_to_its_seat_and_catches_up(
        page: Any, share: HeadlessShare) -> None:
    me = page.evaluate("state.me.id")
    page.evaluate("state.socket.close()")
    page.wait_for_function("document.getElementById('status').textContent !== 'live'")
    share.call(lambda: share.history.push(MoveToken("O", Cell(3, 1))))  # while it is away
    page.wait_for_function("document.getElementById('status').textContent === 'live'")
    page.wait_for_function("state.view.tokens.O.x === 3")
    assert page.evaluate("state.me.id") == me
    assert share.call(lambda: len(share.table.players)) == 1


def test_the_page_follows_the_gms_pushed_view(page: Any, share: HeadlessShare) -> None:
    before = page.evaluate("state.scale")
    share.call(lambda: share.table.push_view(0, 0, 2, 2))
    page.wait_for_function(f"state.scale > {before}")
    left, top = page.evaluate("toScreen(0, 0)")
    right, _bottom = page.evaluate("toScreen(2, 2)")
    assert right - left <= PHONE["width"] and top >= 0


def test_the_first_view_without_a_push_is_what_the_party_explored(
        page: Any, share: HeadlessShare) -> None:
    explored = share.call(lambda: share.table.seen().view.explored)
    rows, columns = np.nonzero(explored)
    assert explored.shape[1] > columns.max() + 2  # the east of the map is unexplored
    left, top = max(0, columns.min() - 1), max(0, rows.min() - 1)
    right = min(explored.shape[1], columns.max() + 2)
    bottom = min(explored.shape[0], rows.max() + 2)
    assert page.evaluate("state.lastView") == [left, top, right - left, bottom - top]


def touch(screen: Any, kind: str, points: list[tuple[float, float]]) -> None:
    """A touch event of real fingers on the phone's ``screen`` (a DevTools session: Chromium
    makes the pointer events the page reads from it)."""
    screen.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": finger} for finger, (x, y) in enumerate(points)]})


def map_point_at(page: Any, x: float, y: float) -> tuple[float, float]:
    """The map point (in cells) drawn at screen point (x, y) of the canvas."""
    point = page.evaluate(f"[({x} - state.panX) / state.scale, ({y} - state.panY) / state.scale]")
    return point[0], point[1]


def test_two_fingers_pinch_the_map_bigger_about_their_middle_and_one_pans_it(
        page: Any) -> None:
    top = page.evaluate("canvas.getBoundingClientRect().top")
    middle = (195.0, top + 400.0)
    under = map_point_at(page, middle[0], middle[1] - top)
    before = page.evaluate("state.scale")
    screen = page.context.new_cdp_session(page)
    touch(screen, "touchStart", [(145, middle[1]), (245, middle[1])])
    for spread in (70, 90, 100):  # the fingers part: 100 px apart, then 200
        touch(screen, "touchMove", [(195 - spread, middle[1]), (195 + spread, middle[1])])
    touch(screen, "touchEnd", [])
    scale = page.evaluate("state.scale")
    assert scale == pytest.approx(2 * before, rel=0.01)
    after = map_point_at(page, middle[0], middle[1] - top)
    assert after == pytest.approx(under, abs=0.05)  # the point under the fingers stays
    assert page.evaluate("state.following") is False  # the GM's pushed view no longer rules
    pan = page.evaluate("state.panX")
    touch(screen, "touchStart", [(300, top + 700)])  # far from the party's tokens
    touch(screen, "touchMove", [(260, top + 700)])
    touch(screen, "touchEnd", [])
    assert page.evaluate("state.panX") == pytest.approx(pan - 40, abs=1)
    assert page.evaluate("state.scale") == scale


def drag(page: Any, start: tuple[float, float], goal: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + goal[0]) / 2, (start[1] + goal[1]) / 2, steps=4)
    page.mouse.move(*goal, steps=4)


def play_hero(page: Any) -> None:
    page.mouse.click(*centre(page, 0, 1))  # tap Hero: "Play Hero"
    page.click("#sheet-yes")
    page.wait_for_function("myTokens().includes('A')")


def test_a_move_into_the_fog_waits_for_the_gm_and_its_ghost_stays(
        page: Any, share: HeadlessShare) -> None:
    play_hero(page)
    page.evaluate("state.following = true; fit(0, 0, 8, 4)")  # the whole map, fog and all
    drag(page, centre(page, 0, 1), centre(page, 5, 0))  # beyond the wall: unexplored
    page.wait_for_function("state.preview !== null")
    assert page.evaluate("[state.preview.label, state.preview.needs_gm !== '']") == [
        "unexplored ground", True]
    page.mouse.up()
    page.wait_for_function("state.waiting.has('A')")
    assert page.evaluate("state.waiting.get('A')") == [5, 0]
    assert "the GM rules it" in page.text_content("#tip")
    share.call(lambda: share.table.refuse_move(share.table.pending_moves[0]))
    page.wait_for_function("!state.waiting.has('A')")
    assert page.text_content("#tip") == "the GM said no"
    assert share.call(lambda: share.history.index) == 0


def test_the_page_says_so_and_stops_when_the_gm_stops_sharing(
        page: Any, share: HeadlessShare) -> None:
    share.stop()
    page.wait_for_function("!document.getElementById('end').hidden")
    assert page.text_content("#end-title") == "The GM stopped sharing."
    assert page.evaluate("state.view === null && state.ended")
    assert page.text_content("#status") == "ended"


def test_a_removed_player_s_page_drops_the_map(page: Any, share: HeadlessShare) -> None:
    share.call(lambda: share.table.kick("p1"))
    page.wait_for_function("!document.getElementById('end').hidden")
    assert page.text_content("#end-title") == "The GM removed you from the table."
    assert page.evaluate("state.view") is None


def test_turning_the_phone_and_following_again_return_to_the_gms_view(
        page: Any, share: HeadlessShare) -> None:
    share.call(lambda: share.table.push_view(0, 0, 6, 3))
    page.wait_for_function("state.lastView !== null && state.lastView[2] === 6")
    pushed = page.evaluate("state.scale")
    page.evaluate("zoomAt(100, 300, 0.5); setFollowing(false); draw()")
    page.click("#follow")  # on again: the GM's last pushed view, not the whole map
    assert page.evaluate("state.scale") == pytest.approx(pushed)
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})  # sideways
    page.wait_for_function(f"Math.abs(state.scale - {pushed}) > 1")
    left, top = page.evaluate("toScreen(0, 0)")
    right, bottom = page.evaluate("toScreen(6, 3)")
    assert left >= 0 and right <= PHONE["height"] and top >= 44 and bottom <= PHONE["width"]
