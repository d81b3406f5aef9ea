"""Vision: the exact sweep against a brute-force oracle, walls of every kind, light and
darkness, the party's view.

The oracle tests each cell's centre against every wall with ``segments_intersect``; it
shares nothing with the sweep.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.actions.commands import MoveToken, RemoveToken, toggle_door
from core.actions.fog import SetDarkness, SetGmOnly
from core.actions.history import History
from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.model.mapmodel import BattleMap, Darkness, Light, WallKind, WallSegment
from core.model.profile import RulesProfile
from core.spatial.geometry import segments_intersect
from core.spatial.playerview import party_sight
from core.spatial.sweep import BoolArray, sight_over
from core.spatial.vision import dark_sight_cells, lit_cells, party_vision, token_vision

Segment = tuple[float, float, float, float]
MakeEncounter = Callable[..., Encounter]


def oracle(walls: Sequence[Segment], eye: tuple[float, float], width: int, height: int
           ) -> BoolArray:
    """Seen where the segment eye → cell centre meets no wall (walls through the eye are
    ignored, as the sweep ignores them)."""
    point = (eye[0], eye[1], eye[0], eye[1])
    live = [w for w in walls if not segments_intersect(point, w)]
    seen = np.ones((height, width), dtype=bool)
    for y in range(height):
        for x in range(width):
            ray = (eye[0], eye[1], x + 0.5, y + 0.5)
            seen[y, x] = not any(segments_intersect(ray, wall) for wall in live)
    return seen


def grid_point(size: int) -> st.SearchStrategy[float]:
    """Coordinates on a quarter grid: cell corners, edge midpoints and in between."""
    return st.integers(0, 4 * size).map(lambda n: n / 4)


@st.composite
def small_maps(draw: st.DrawFn) -> tuple[list[Segment], tuple[float, float], int, int]:
    width, height = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    axis = st.tuples(st.integers(0, width), st.integers(0, height), st.integers(-3, 3),
                     st.booleans()).map(
        lambda t: (t[0], t[1], t[0] + t[2], t[1]) if t[3] else (t[0], t[1], t[0], t[1] + t[2]))
    free = st.tuples(grid_point(width), grid_point(height), grid_point(width),
                     grid_point(height))
    walls = draw(st.lists(st.one_of(axis, axis, free), max_size=90))
    eye_cell = (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))
    on_corner = draw(st.booleans())
    eye = (float(eye_cell[0] + (0 if on_corner else 0.5)),
           float(eye_cell[1] + (0 if on_corner else 0.5)))
    return [tuple(map(float, w)) for w in walls], eye, width, height  # type: ignore[misc]


@settings(max_examples=300, deadline=None)
@given(small_maps())
def test_sweep_matches_the_brute_force_oracle(
        case: tuple[list[Segment], tuple[float, float], int, int]) -> None:
    walls, eye, width, height = case
    segments = np.array(walls, dtype=np.float64).reshape(-1, 4)
    assert (sight_over(segments, eye, (0, 0, width, height)).cells
            == oracle(walls, eye, width, height)).all()


def test_sweep_matches_the_oracle_on_busy_maps_with_angled_walls() -> None:
    """30×30 maps with 300 walls (the cull drops most of them) and arbitrary angles."""
    rng = random.Random(17)
    for _ in range(6):
        walls: list[Segment] = []
        for _ in range(300):
            x, y, run = rng.randint(0, 30), rng.randint(0, 30), rng.randint(-4, 4)
            walls.append(rng.choice([(x, y, x + run, y), (x, y, x, y + run),
                                     (rng.uniform(0, 30), rng.uniform(0, 30),
                                      rng.uniform(0, 30), rng.uniform(0, 30))]))
        eye = (rng.randint(0, 29) + 0.5, rng.randint(0, 29) + 0.5)
        segments = np.array(walls, dtype=np.float64)
        assert (sight_over(segments, eye, (0, 0, 30, 30)).cells == oracle(walls, eye, 30, 30)).all()


def test_crossing_walls_swap_which_is_nearer_between_two_wall_ends() -> None:
    """Between the rays through (8, 1) and (2, 7) the vertical wall is nearer at first, the
    diagonal one after they cross at (3, 6): cell (2, 7) lies behind the diagonal only."""
    walls: list[Segment] = [(3, 0, 3, 9), (2, 7, 8, 1)]
    seen = sight_over(np.array(walls, dtype=np.float64), (0.5, 4.5), (0, 0, 10, 10)).cells
    assert not seen[7, 2]
    assert (seen == oracle(walls, (0.5, 4.5), 10, 10)).all()


def test_a_window_onto_the_box_gives_the_box_only() -> None:
    segments = np.array([[3.0, 0.0, 3.0, 4.0]])
    mask = sight_over(segments, (0.5, 0.5), (2, 1, 5, 3)).cells
    assert mask.shape == (2, 3)
    assert mask.tolist() == [[True, False, False], [True, False, False]]


# --- walls of every kind ---------------------------------------------------------------

ROOM = """
    A . . . .
    . . . . .
    . . . . .
"""


@pytest.mark.parametrize(("kind", "seen"), [
    ("wall", False), ("door", False), ("open door", True), ("window", True), ("object", False),
])
def test_what_each_kind_of_wall_hides(make_encounter: MakeEncounter, kind: str,
                                      seen: bool) -> None:
    enc = make_encounter(ROOM, walls=[(3, 0, 3, 3, kind)])
    vision = token_vision(enc, enc.token("A"))
    assert vision[:, :3].all()
    assert (vision[:, 3:] == seen).all()


def test_a_token_behind_a_wall_is_not_seen(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("""
        A . . . B
        . . . . .
    """, walls=[(3, 0, 3, 2)])
    assert not token_vision(enc, enc.token("A"))[0, 4]
    assert token_vision(enc, enc.token("A"))[1, 2]


def test_a_large_token_sees_from_the_centre_of_its_footprint(
        make_encounter: MakeEncounter) -> None:
    """From the centre (2, 2) the ray to cell (3, 0) grazes the wall's end (3, 1)."""
    enc = make_encounter("""
        . . . . . .
        . L L . . .
        . L L . . .
        . . . . . .
    """, {"L": Combatant(name="L", size="large")}, walls=[(3, 0, 3, 1)])
    vision = token_vision(enc, enc.token("L"))
    walls = [w.points for w in enc.map.walls]
    assert (vision == oracle(walls, (2.0, 2.0), 6, 4)).all()
    assert not vision[0, 3] and vision[0, 4] and vision.sum() == 23


def test_opening_a_door_lets_sight_through_at_once(make_encounter: MakeEncounter) -> None:
    enc = make_encounter(ROOM, walls=[(3, 0, 3, 3, "door")])
    assert not token_vision(enc, enc.token("A"))[0, 4]
    History(enc).push(toggle_door(enc.map.walls[0]))
    assert token_vision(enc, enc.token("A"))[0, 4]


# --- light and darkness ----------------------------------------------------------------

def dark_rooms(make_encounter: MakeEncounter, darkness: Darkness, lights: list[Light],
               darkvision_ft: int = 0) -> Encounter:
    """A, lit nowhere, looks straight through an open door (x = 4) into a second room; a
    window in the wall at x = 8 looks on to a third."""
    enc = make_encounter("""
        . . . . . . . . . . . .
        A . . . . . . . . . . .
        . . . . . . . . . . . .
    """, {"A": Combatant(name="A", darkvision_ft=darkvision_ft)},
        walls=[(4, 0, 4, 1), (4, 1, 4, 2, "open door"), (4, 2, 4, 3), (8, 0, 8, 3, "window")])
    enc.map.darkness, enc.map.lights = darkness, lights
    return enc


def test_in_daylight_everything_in_line_of_sight_is_seen(make_encounter: MakeEncounter
                                                         ) -> None:
    enc = dark_rooms(make_encounter, Darkness.DAYLIGHT, [])
    walls = [w.points for w in enc.map.walls if w.blocks_sight]
    vision = token_vision(enc, enc.token("A"))
    assert (vision == oracle(walls, (0.5, 1.5), 12, 3)).all()
    assert vision[1].all() and not vision[0, 4:7].any()


def test_a_dark_room_is_unseen_except_where_a_light_shines(make_encounter: MakeEncounter
                                                          ) -> None:
    torch = Light(x=6.5, y=1.5, range_cells=1.2)
    enc = dark_rooms(make_encounter, Darkness.DARK, [torch])
    vision = token_vision(enc, enc.token("A"))
    lit = {(x, y) for y, x in zip(*np.nonzero(lit_cells(enc)), strict=True)}
    assert lit == {(6, 1), (5, 1), (7, 1), (6, 0), (6, 2)}
    seen = {(int(x), int(y)) for y, x in zip(*np.nonzero(vision), strict=True)}
    # A's own room is dark but for its own cell; (6, 0) and (6, 2) lie behind the wall
    assert seen == {(0, 1), (5, 1), (6, 1), (7, 1)}


def test_a_light_does_not_shine_through_a_wall(make_encounter: MakeEncounter) -> None:
    enc = dark_rooms(make_encounter, Darkness.DARK, [Light(x=3.5, y=0.5, range_cells=3)])
    assert lit_cells(enc)[0, :4].all()
    assert not lit_cells(enc)[0, 4:].any()


def test_darkvision_sees_unlit_cells_within_its_reach(make_encounter: MakeEncounter) -> None:
    enc = dark_rooms(make_encounter, Darkness.DARK, [], darkvision_ft=10)
    vision = token_vision(enc, enc.token("A"))
    seen = {(int(x), int(y)) for y, x in zip(*np.nonzero(vision), strict=True)}
    assert seen == {(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)}


def test_dim_light_lets_everyone_see_the_profiles_distance(make_encounter: MakeEncounter
                                                          ) -> None:
    enc = dark_rooms(make_encounter, Darkness.DIM, [])
    enc.profile = RulesProfile(dim_sight_ft=15)
    assert dark_sight_cells(enc, enc.token("A").combatant.darkvision_ft) == 3
    vision = token_vision(enc, enc.token("A"))
    assert vision[1, :4].all() and not vision[1, 4:].any()


def test_the_lights_are_recomputed_when_a_door_opens(make_encounter: MakeEncounter) -> None:
    enc = make_encounter(ROOM, walls=[(3, 0, 3, 3, "door")])
    enc.map.darkness, enc.map.lights = Darkness.DARK, [Light(x=4.5, y=1.5, range_cells=4)]
    assert not lit_cells(enc)[:, :3].any()
    History(enc).push(toggle_door(enc.map.walls[0]))
    assert lit_cells(enc)[1, :3].all()


# --- the party -------------------------------------------------------------------------

def test_the_party_sees_what_any_member_sees(make_encounter: MakeEncounter) -> None:
    enc = make_encounter("""
        A . . . B
        . . . . .
        . . . . C
    """, {"C": Combatant(name="C", side="opposition")}, walls=[(2, 0, 2, 3)])
    both = party_vision(enc)
    assert (both == token_vision(enc, enc.token("A")) | token_vision(enc, enc.token("B"))).all()
    assert both.all()
    opposition = party_vision(enc, side=Side.OPPOSITION)
    assert (opposition == token_vision(enc, enc.token("C"))).all()


@pytest.mark.parametrize("blind", [
    pytest.param({"gm_only": True}, id="hidden by the GM"),
    pytest.param({"combatant": Combatant(name="B", conditions={Condition.KNOCKED_OUT})},
                 id="knocked out"),
])
def test_hidden_and_knocked_out_members_show_nothing(make_encounter: MakeEncounter,
                                                      blind: dict[str, object]) -> None:
    enc = make_encounter("""
        A . . . B
    """, walls=[(2, 0, 2, 1)])
    enc.put_token(enc.token("B").model_copy(update=blind))
    assert (party_vision(enc) == token_vision(enc, enc.token("A"))).all()


def test_a_lone_token_on_an_open_map_sees_everything_and_no_party_nothing() -> None:
    enc = Encounter(map=BattleMap(width=7, height=5, walls=[
        WallSegment(x1=0, y1=0, x2=7, y2=0, kind=WallKind.OBJECT)]))  # along the edge
    assert not party_vision(enc).any()
    enc.add_token(Token(id="a", combatant=Combatant(name="A"), x=6, y=4))
    assert party_vision(enc).all()


# --- the party's sight, kept token by token ----------------------------------------------

PARTY_SIGHT_STEPS = st.lists(st.tuples(
    st.sampled_from(["move", "door", "darkness", "knock out", "wake", "hide", "show",
                     "remove", "undo"]),
    st.integers(0, 3), st.integers(0, 8), st.integers(0, 6)), max_size=12)


def test_the_kept_party_sight_follows_members_leaving_and_coming_back(
        make_encounter: MakeEncounter) -> None:
    """A member removed takes its sight with it, and brings it back on undo; so does one
    moved to the other side."""
    enc = make_encounter("""
        A . . . B
    """, walls=[(2, 0, 2, 1)])
    history, a_alone = History(enc), token_vision(enc, enc.token("A"))
    party_sight(enc)
    history.push(RemoveToken("B"))
    assert (party_sight(enc) == a_alone).all()
    history.undo()
    assert party_sight(enc).all()
    b = enc.token("B")
    enc.put_token(b.with_combatant(b.combatant.model_copy(update={"side": Side.OPPOSITION})))
    assert (party_sight(enc) == a_alone).all()


@settings(max_examples=40, deadline=None)
@given(steps=PARTY_SIGHT_STEPS)
def test_the_kept_party_sight_is_the_party_vision_after_any_edits(
        steps: list[tuple[str, int, int, int]]) -> None:
    """Moves recompute one token's sight; doors, darkness, knock-outs, wakings, hiding,
    removing (and undoing any of them) must still leave exactly the union of every seeing
    member's sight."""
    walls = [WallSegment(x1=4, y1=0, x2=4, y2=3, kind=WallKind.DOOR),
             WallSegment(x1=4, y1=4, x2=4, y2=7), WallSegment(x1=0, y1=4, x2=3, y2=4)]
    enc = Encounter(map=BattleMap(width=9, height=7, walls=walls, darkness=Darkness.DIM,
                                  lights=[Light(x=7.5, y=5.5, range_cells=2)]))
    for index, darkvision in enumerate((0, 0, 60, 0)):
        enc.add_token(Token(id=f"p{index}", x=index % 2, y=index // 2, combatant=Combatant(
            name=f"P{index}", darkvision_ft=darkvision)))
    history = History(enc)
    for kind, member, x, y in steps:
        # A step on a removed member undoes instead (bringing it back, sooner or later).
        present = enc.has_token(f"p{member}") and kind != "undo"
        token = enc.token(f"p{member}") if present else None
        if token is None:
            if history.can_undo:
                history.undo()
        elif kind == "move" and enc.can_place(Footprint(x, y, token.footprint.size), token.id):
            history.push(MoveToken(token.id, Cell(x, y)))
        elif kind == "door":
            history.push(toggle_door(enc.map.walls[0]))
        elif kind == "darkness":
            history.push(SetDarkness(list(Darkness)[x % len(Darkness)]))
        elif kind in ("hide", "show"):
            history.push(SetGmOnly([token.id], kind == "hide"))
        elif kind == "remove":
            history.push(RemoveToken(token.id))
        elif kind in ("knock out", "wake"):
            conditions = {Condition.KNOCKED_OUT} if kind == "knock out" else set()
            enc.put_token(token.model_copy(update={"combatant": token.combatant.model_copy(
                update={"conditions": conditions})}))
        kept = party_sight(enc)
        assert (kept == party_vision(enc)).all(), (kind, member, x, y)
        assert not kept.flags.writeable
