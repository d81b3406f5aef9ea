"""The benchmark scenario, generated from a seed (same seed, same encounter).

A 200×200 map with 3,000 wall segments: rooms whose sides are split into grid-snapped
pieces 1-6 cells long with gaps and doors (open and closed), loose grid-snapped segments
(some windows and sight-blocking objects), a few walls at arbitrary angles, and a 1×1 box
closed on all four sides (the unreachable A* goal). Difficult and slippery patches,
elevation patches, pits and fires, and 300 tokens of every size on both sides.

Shove pairs are laid out on purpose, each on a site kept clear of random walls: the
defender is pushed straight away into open ground, a wall, a closed door, a pit, a fire, a
ledge (a 10 ft drop) or another creature, one or two steps on. A runner token stands near
the top-left corner; the A* goal is the bottom-right corner (both corners are kept clear).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.model.combatant import Abilities, Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, allowed_directions, straight_away
from core.model.limits import MAX_TOKENS
from core.model.mapmodel import BattleMap, Hazard, HazardEffect, HazardKind, WallKind, WallSegment
from core.model.tables import ARMOURS, SHIELDS, SIZES, Size
from core.rules.shove import ShoveRequest
from core.spatial.geometry import MapGeometry

SIZE = 200
TOKENS = 300
PAIRS_PER_CATEGORY = 4
CATEGORIES = ("open", "wall", "door", "pit", "fire", "ledge", "creature")
CORNER = 8
SIZE_WEIGHTS = {Size.TINY: 5, Size.SMALL: 15, Size.MEDIUM: 52, Size.LARGE: 16,
                Size.HUGE: 8, Size.GARGANTUAN: 4}
PAIR_SIZES = ((Size.MEDIUM, Size.MEDIUM), (Size.LARGE, Size.MEDIUM), (Size.MEDIUM, Size.SMALL),
              (Size.HUGE, Size.LARGE), (Size.LARGE, Size.LARGE), (Size.MEDIUM, Size.LARGE))
GARGANTUAN_PAIRS = ((Size.MEDIUM, Size.GARGANTUAN), (Size.LARGE, Size.GARGANTUAN),
                    (Size.HUGE, Size.GARGANTUAN))


@dataclass(frozen=True)
class Spec:
    """The scenario's dimensions: map side, walls (of which loose and angled), tokens in
    all, random hazard fields (the shove sites add 8 more), the sizes of the shove pairs and
    how many shove sites (taken in turn from :data:`CATEGORIES`)."""

    size: int = SIZE
    walls: int = 3000
    loose_walls: int = 450
    angled_walls: int = 40
    tokens: int = TOKENS
    hazard_fields: int = 12
    pair_sizes: tuple[tuple[Size, Size], ...] = PAIR_SIZES
    pair_sites: int = PAIRS_PER_CATEGORY * len(CATEGORIES)


#: The scale scenario of issue 18: 300×300, 10,000 walls, 3,000 tokens (beyond a file's
#: 1,000: built in memory), 1,000 hazards, every shove defender Gargantuan.
SCALE = Spec(size=300, walls=10_000, loose_walls=1_500, angled_walls=130, tokens=3_000,
             hazard_fields=992, pair_sizes=GARGANTUAN_PAIRS)

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in cells, ends exclusive


class Line(NamedTuple):
    """A grid line from the corner point (x, y), running east or south."""

    x: int
    y: int
    horizontal: bool

    def piece(self, start: int, length: int, *, kind: WallKind = WallKind.WALL,
              is_open: bool = False) -> WallSegment:
        """The wall over cells ``start`` .. ``start + length`` of the line."""
        x, y = self.x, self.y
        if self.horizontal:
            return WallSegment(x1=x + start, y1=y, x2=x + start + length, y2=y, kind=kind,
                               open=is_open)
        return WallSegment(x1=x, y1=y + start, x2=x, y2=y + start + length, kind=kind,
                           open=is_open)


@dataclass(frozen=True)
class ShovePair:
    attacker: str
    defender: str
    category: str


@dataclass
class Scenario:
    """The encounter and the tokens and cells the benchmarks use."""

    encounter: Encounter
    pairs: list[ShovePair]
    runner: str
    goal: Cell
    enclosed: Cell
    range_tokens: list[str]


@dataclass
class _Builder:
    rng: random.Random
    spec: Spec
    walls: list[WallSegment] = field(default_factory=list)
    taken: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    terrain: list[bytearray] = field(default_factory=list)
    elevation: dict[str, int] = field(default_factory=dict)
    hazards: list[Hazard] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    occupied: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    pairs: list[ShovePair] = field(default_factory=list)

    def __post_init__(self) -> None:
        side = self.spec.size
        self.terrain = [bytearray(b"." * side) for _ in range(side)]
        self.occupied = np.zeros((side, side), dtype=bool)
        self.taken = np.zeros((side, side), dtype=bool)  # the reserved boxes

    @property
    def size(self) -> int:
        return self.spec.size

    # --- bookkeeping -------------------------------------------------------------------
    def free(self, box: Box, margin: int = 0) -> bool:
        """Whether ``box`` lies on the map and clear of every reserved box (by ``margin``)."""
        x0, y0, x1, y1 = box
        if x0 < 1 or y0 < 1 or x1 > self.size - 1 or y1 > self.size - 1:
            return False
        return not self.taken[max(y0 - margin, 0):y1 + margin,
                              max(x0 - margin, 0):x1 + margin].any()

    def reserve(self, box: Box) -> None:
        x0, y0, x1, y1 = box
        self.taken[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = True

    def add_token(self, token: Token) -> None:
        fp = token.footprint
        self.tokens.append(token)
        self.occupied[fp.y:fp.y + fp.size, fp.x:fp.x + fp.size] = True

    def add_hazard(self, name: str, kind: HazardKind, cells: list[Cell]) -> None:
        if kind is HazardKind.PIT:
            effect = HazardEffect(fall_ft=self.rng.choice((10, 20)), damage_type="falling")
        else:
            effect = HazardEffect(damage="2d6", damage_type="fire", save_target=12)
        self.hazards.append(Hazard(name=name, kind=kind, cells=tuple(cells), effect=effect))

    def grid_line(self, line: Line, length: int) -> None:
        """``length`` cells of ``line`` as wall pieces 1-6 cells long."""
        for start, piece in _pieces(self.rng, length):
            self.walls.append(line.piece(start, piece))


def _pieces(rng: random.Random, length: int) -> Iterator[tuple[int, int]]:
    start = 0
    while start < length:
        piece = min(rng.randint(1, 6), length - start)
        yield start, piece
        start += piece




def _combatant(rng: random.Random, name: str, size: Size, side: Side, strong: bool = False
               ) -> Combatant:
    strength = rng.randint(14, 18) if strong else rng.randint(6, 16)
    return Combatant(
        name=name, side=side, size=size,
        abilities=Abilities(strength=strength, dexterity=rng.randint(6, 16)),
        level=rng.randint(1, 8), fr_slots=rng.randint(1, 3) if strong else rng.randint(0, 2),
        armour=rng.choice(list(ARMOURS)), shield=rng.choice(["none", *SHIELDS]),
        death_ray_save=rng.randint(8, 16), max_hp=20, hp=20)


def _cells(fp: Footprint) -> set[Cell]:
    return set(fp.cells())


def _bounds(footprints: list[Footprint], margin: int) -> Box:
    return (min(fp.x for fp in footprints) - margin, min(fp.y for fp in footprints) - margin,
            max(fp.x + fp.size for fp in footprints) + margin,
            max(fp.y + fp.size for fp in footprints) + margin)


# --- shove sites ---------------------------------------------------------------------------
def _beside(attacker: Footprint, size: int, wanted: Direction) -> Footprint:
    """A defender footprint adjacent to the attacker on the ``wanted`` side."""
    dx, dy = wanted.delta
    a = attacker.size

    def along(origin: int, d: int) -> int:
        if d > 0:
            return origin + a
        return origin - size if d < 0 else origin + (a - size) // 2

    return Footprint(along(attacker.x, dx), along(attacker.y, dy), size)


def _blocking_lines(b: _Builder, here: Footprint, there: Footprint, direction: Direction,
                    kind: WallKind) -> None:
    """Walls (or closed doors flanked by walls) across the step ``here`` → ``there``."""
    dx, dy = direction.delta
    x0, x1 = min(here.x, there.x) - 1, max(here.x, there.x) + here.size + 1
    y0, y1 = min(here.y, there.y) - 1, max(here.y, there.y) + here.size + 1
    if dx:
        x = here.x + here.size if dx > 0 else here.x
        _feature_line(b, Line(x, y0, False), y1 - y0, kind)
    if dy:
        y = here.y + here.size if dy > 0 else here.y
        _feature_line(b, Line(x0, y, True), x1 - x0, kind)


def _feature_line(b: _Builder, line: Line, length: int, kind: WallKind) -> None:
    """A wall line, or unit closed doors flanked by a unit wall at each end."""
    if kind is WallKind.WALL:
        b.grid_line(line, length)
        return
    for start in range(length):
        edge = start in (0, length - 1)
        b.walls.append(line.piece(start, 1, kind=WallKind.WALL if edge else kind))


@dataclass(frozen=True)
class _Site:
    """A pair's layout: the defender's footprint after 0, 1, 2, ... steps of the push, and
    the step ``k`` at which the category's feature is met."""

    index: int
    category: str
    attacker: Footprint
    direction: Direction
    steps: tuple[Footprint, ...]
    k: int

    @property
    def earlier(self) -> set[Cell]:
        """Cells the defender covers before step ``k``."""
        return set().union(*(_cells(fp) for fp in self.steps[:self.k]))

    @property
    def box(self) -> Box:
        return _bounds([self.attacker, *self.steps], 2)


def _layout(b: _Builder, index: int) -> _Site:
    rng = b.rng
    a_size, d_size = (SIZES[s].footprint for s in rng.choice(b.spec.pair_sizes))
    k = rng.choice((1, 1, 2))
    while True:
        attacker = Footprint(rng.randint(8, b.size - 12), rng.randint(8, b.size - 12), a_size)
        defender = _beside(attacker, d_size, rng.choice(list(Direction)))
        direction = straight_away(attacker, defender)
        site = _Site(index, CATEGORIES[index % len(CATEGORIES)], attacker, direction,
                     tuple(defender.moved(direction, j) for j in range(k + 3)), k)
        if b.free(site.box, margin=1):
            return site


def _site(b: _Builder, index: int) -> None:
    """One attacker/defender pair and the feature its category asks for."""
    site = _layout(b, index)
    b.reserve(site.box)
    _feature(b, site)
    a_side, d_side = (Side.PARTY, Side.OPPOSITION) if index % 2 else (Side.OPPOSITION, Side.PARTY)
    for role, fp, side, strong in (("att", site.attacker, a_side, True),
                                   ("def", site.steps[0], d_side, False)):
        size = next(s for s, spec in SIZES.items() if spec.footprint == fp.size)
        b.add_token(Token(id=f"pair{index:02d}-{role}", x=fp.x, y=fp.y,
                          combatant=_combatant(b.rng, f"Pair {index} {role}", size, side,
                                               strong)))
    b.pairs.append(ShovePair(f"pair{index:02d}-att", f"pair{index:02d}-def", site.category))


def _feature(b: _Builder, site: _Site) -> None:
    steps, k, earlier = site.steps, site.k, site.earlier
    if site.category in ("wall", "door"):
        kind = WallKind.WALL if site.category == "wall" else WallKind.DOOR
        _blocking_lines(b, steps[k - 1], steps[k], site.direction, kind)
    elif site.category in ("pit", "fire"):
        ahead = sorted((_cells(steps[k]) | _cells(steps[k + 1])) - earlier)
        b.add_hazard(f"{site.category.title()} {site.index}", HazardKind(site.category), ahead)
    elif site.category == "ledge":
        for cell in earlier | _cells(site.attacker):
            b.elevation[f"{cell.x},{cell.y}"] = 10
    elif site.category == "creature":
        cell = min(_cells(steps[k]) - earlier)
        b.add_token(Token(id=f"pair{site.index:02d}-bystander", x=cell.x, y=cell.y,
                          combatant=_combatant(b.rng, f"Bystander {site.index}", Size.MEDIUM,
                                               Side.PARTY)))


# --- terrain, elevation, hazards ------------------------------------------------------------
def _random_box(b: _Builder, low: int, high: int) -> Box:
    w, h = b.rng.randint(low, high), b.rng.randint(low, high)
    x, y = b.rng.randint(1, b.size - w - 1), b.rng.randint(1, b.size - h - 1)
    return x, y, x + w, y + h


def _per_area(b: _Builder, count: int) -> int:
    """``count`` on a 200×200 map, scaled to this map's area."""
    return count * b.size * b.size // (SIZE * SIZE)


def _paint_terrain(b: _Builder) -> None:
    for code, patches in ((ord("d"), 70), (ord("s"), 35)):
        for _ in range(_per_area(b, patches)):
            x0, y0, x1, y1 = _random_box(b, 2, 8)
            for y in range(y0, y1):
                b.terrain[y][x0:x1] = bytes([code]) * (x1 - x0)


def _raise_patches(b: _Builder) -> None:
    placed = 0
    while placed < _per_area(b, 30):
        box = _random_box(b, 3, 10)
        if not b.free(box, margin=1):
            continue
        feet = b.rng.choice((5, 10, 15, 20))
        x0, y0, x1, y1 = box
        for y in range(y0, y1):
            for x in range(x0, x1):
                b.elevation[f"{x},{y}"] = feet
        placed += 1


def _random_hazards(b: _Builder) -> None:
    placed = 0
    while placed < b.spec.hazard_fields:
        box = _random_box(b, 2, 5)
        if not b.free(box, margin=1):
            continue
        kind = HazardKind.PIT if placed % 2 else HazardKind.FIRE
        x0, y0, x1, y1 = box
        cells = [Cell(x, y) for y in range(y0, y1) for x in range(x0, x1)]
        b.add_hazard(f"{kind.value.title()} field {placed}", kind, cells)
        b.reserve(box)
        placed += 1


# --- walls ---------------------------------------------------------------------------------
def _keep(b: _Builder, wall: WallSegment) -> bool:
    """Random walls stay off reserved boxes (sites, corners, hazards, the closed box)."""
    box = (int(min(wall.x1, wall.x2)) - 1, int(min(wall.y1, wall.y2)) - 1,
           int(max(wall.x1, wall.x2)) + 2, int(max(wall.y1, wall.y2)) + 2)
    return b.free(box)


def _room_side(b: _Builder, line: Line, length: int) -> list[WallSegment]:
    """A room side: wall pieces with one opening (a gap, an open door or a closed door)."""
    opening = b.rng.randrange(length)
    kind = b.rng.choice(("gap", "open", "closed", "closed", "open"))
    side = [line.piece(start, piece) for start, piece in _pieces(b.rng, opening)]
    if kind != "gap":
        side.append(line.piece(opening, 1, kind=WallKind.DOOR, is_open=kind == "open"))
    side += [line.piece(opening + 1 + start, piece)
             for start, piece in _pieces(b.rng, length - opening - 1)]
    return side


def _rooms(b: _Builder, budget: int) -> None:
    while len(b.walls) < budget:
        x0, y0, x1, y1 = _random_box(b, 5, 14)
        sides = (_room_side(b, Line(x0, y0, True), x1 - x0),
                 _room_side(b, Line(x0, y1, True), x1 - x0),
                 _room_side(b, Line(x0, y0, False), y1 - y0),
                 _room_side(b, Line(x1, y0, False), y1 - y0))
        for wall in (w for side in sides for w in side if _keep(b, w)):
            if len(b.walls) < budget:
                b.walls.append(wall)


def _loose_walls(b: _Builder, budget: int) -> None:
    rng = b.rng
    while len(b.walls) < budget:
        length, horizontal = rng.randint(1, 6), rng.random() < 0.5
        kind = rng.choices((WallKind.WALL, WallKind.WINDOW, WallKind.OBJECT), (87, 8, 5))[0]
        line = Line(rng.randint(1, b.size - 7), rng.randint(1, b.size - 7), horizontal)
        wall = line.piece(0, length, kind=kind)
        if _keep(b, wall):
            b.walls.append(wall)


def _angled_walls(b: _Builder, budget: int) -> None:
    rng = b.rng
    while len(b.walls) < budget:
        x, y = rng.uniform(2, b.size - 10), rng.uniform(2, b.size - 10)
        wall = WallSegment(x1=round(x, 3), y1=round(y, 3), x2=round(x + rng.uniform(-6, 6), 3),
                           y2=round(y + rng.uniform(1, 6), 3))
        if _keep(b, wall):
            b.walls.append(wall)


def _enclosure(b: _Builder) -> Cell:
    while True:
        low, high = b.size * 3 // 10, b.size * 7 // 10
        cell = Cell(b.rng.randint(low, high), b.rng.randint(low, high))
        box = (cell.x - 2, cell.y - 2, cell.x + 3, cell.y + 3)
        if b.free(box, margin=1):
            break
    b.reserve(box)
    x, y = cell
    b.walls += [WallSegment(x1=x, y1=y, x2=x + 1, y2=y), WallSegment(x1=x + 1, y1=y, x2=x + 1,
                                                                    y2=y + 1),
                WallSegment(x1=x, y1=y + 1, x2=x + 1, y2=y + 1),
                WallSegment(x1=x, y1=y, x2=x, y2=y + 1)]
    return cell


# --- tokens --------------------------------------------------------------------------------
def _quotas(count: int) -> dict[Size, int]:
    """Tokens of each size, largest first (the big ones are the hardest to fit)."""
    total = sum(SIZE_WEIGHTS.values())
    quotas = {size: count * weight // total for size, weight in reversed(SIZE_WEIGHTS.items())}
    quotas[Size.MEDIUM] += count - sum(quotas.values())
    return quotas


def _fits(b: _Builder, geometry: MapGeometry, fp: Footprint) -> bool:
    window = np.s_[fp.y:fp.y + fp.size, fp.x:fp.x + fp.size]
    return (geometry.map.contains_footprint(fp) and not b.occupied[window].any()
            and not (geometry.hazard_index[window] >= 0).any()
            and b.free(_bounds([fp], 0)) and not geometry.footprint_split(fp))


def _random_spot(b: _Builder, geometry: MapGeometry, size: int) -> Footprint:
    while True:
        fp = Footprint(b.rng.randrange(b.size), b.rng.randrange(b.size), size)
        if _fits(b, geometry, fp):
            return fp


def _fill_tokens(b: _Builder, battle_map: BattleMap, total: int) -> None:
    """Random tokens up to ``total``: no overlaps, no hazards, no wall through them."""
    geometry = MapGeometry(battle_map)
    n = 0
    for size, quota in _quotas(total - len(b.tokens)).items():
        for _ in range(quota):
            fp = _random_spot(b, geometry, SIZES[size].footprint)
            n += 1
            side = Side.PARTY if b.rng.random() < 0.45 else Side.OPPOSITION
            b.add_token(Token(id=f"{side.value}-{n:03d}", x=fp.x, y=fp.y, combatant=_combatant(
                b.rng, f"{side.value.title()} {n}", size, side)))


def build_scenario(seed: int, tokens: int = TOKENS, spec: Spec | None = None) -> Scenario:
    """The seeded scenario (about a second to build at the default size) with ``tokens``
    tokens in all, or the dimensions of ``spec``."""
    spec = spec or Spec(tokens=tokens)
    b = _Builder(random.Random(seed), spec)
    side = spec.size
    b.reserve((0, 0, CORNER, CORNER))
    b.reserve((side - CORNER, side - CORNER, side, side))
    b.add_token(Token(id="runner", x=1, y=1,
                      combatant=_combatant(b.rng, "Runner", Size.MEDIUM, Side.PARTY)))
    enclosed = _enclosure(b)
    for index in range(spec.pair_sites):
        _site(b, index)
    _paint_terrain(b)
    _raise_patches(b)
    _random_hazards(b)
    _rooms(b, spec.walls - spec.loose_walls - spec.angled_walls)
    _loose_walls(b, spec.walls - spec.angled_walls)
    _angled_walls(b, spec.walls)
    battle_map = BattleMap(width=side, height=side,
                           terrain_rows=[row.decode("ascii") for row in b.terrain],
                           elevation=b.elevation, walls=b.walls, hazards=b.hazards)
    _fill_tokens(b, battle_map, spec.tokens)
    encounter = Encounter(name=f"Benchmark scenario (seed {seed})", map=battle_map,
                          tokens=b.tokens[:MAX_TOKENS])
    for token in b.tokens[MAX_TOKENS:]:  # beyond a file's limit: placed one by one
        encounter.add_token(token)
    others = [t.id for t in b.tokens if t.id.startswith(("party-", "opposition-"))]
    return Scenario(encounter=encounter, pairs=b.pairs, runner="runner",
                    goal=Cell(side - 2, side - 2), enclosed=enclosed,
                    range_tokens=random.Random(seed + 1).sample(others, 12))


# --- variants for the scale benchmarks ------------------------------------------------------
def elevated(encounter: Encounter) -> Encounter:
    """A copy with a height on every cell (5 to 20 ft in bands): the worst case for the
    elevation refresh of a brush step."""
    copy = encounter.model_copy(deep=True)
    battle_map = copy.map
    battle_map.elevation = {f"{x},{y}": 5 * (1 + (x // 7 + y // 5) % 4)
                            for y in range(battle_map.height) for x in range(battle_map.width)}
    copy.drop_derived()
    return copy


FIELD_ATTACKER = "field-attacker"


def open_field_pair(encounter: Encounter) -> list[ShoveRequest]:
    """A strong Gargantuan attacker put west of a Gargantuan defender that has open ground
    (no creature, wall or hazard) five cells east of it: the shoves east and the other
    directions the rules allow. The attacker stays in the encounter (id
    :data:`FIELD_ATTACKER`)."""
    geometry = MapGeometry(encounter.map)
    for token in encounter.tokens:
        if token.combatant.size is not Size.GARGANTUAN:
            continue
        west = Footprint(token.x - 4, token.y, 4)
        ahead = Footprint(token.x, token.y, 9)
        window = np.s_[ahead.y:ahead.y + 4, ahead.x:ahead.x + 9]
        if (encounter.can_place(west) and encounter.map.contains_footprint(ahead)
                and not any(encounter.token_at(c) not in (None, token) for c in
                            (Cell(x, y) for y in range(ahead.y, ahead.y + 4)
                             for x in range(ahead.x, ahead.x + 9)))
                and not (geometry.hazard_index[window] >= 0).any()
                and not geometry.blockers[:, ahead.y:ahead.y + 4, ahead.x:ahead.x + 9].any()):
            attacker = Token(id=FIELD_ATTACKER, x=west.x, y=west.y, combatant=_combatant(
                random.Random(1), "Field attacker", Size.GARGANTUAN, Side.OPPOSITION, True))
            encounter.add_token(attacker)
            return [ShoveRequest(attacker=attacker.id, defender=token.id, direction=d)
                    for d in allowed_directions(west, token.footprint, 45)]
    raise LookupError("no Gargantuan token stands in open ground")
