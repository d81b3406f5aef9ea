"""The battle map: cells with terrain and elevation, walls and doors, hazards, background.

Terrain is a table (:data:`TERRAINS`), not a chain of ifs: a new kind is one row.

>>> m = BattleMap(width=4, height=3)
>>> m.set_terrain(Cell(1, 2), Terrain.DIFFICULT)
>>> m.terrain_at(Cell(1, 2)).name.value, m.terrain_rows[2]
('difficult', '.d..')
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core.model.grid import Cell, Footprint
from core.model.limits import (
    MAX_COORDINATE,
    MAX_FEET,
    MAX_HAZARD_CELLS,
    MAX_HAZARDS,
    MAX_IMAGE_BYTES,
    MAX_LIGHTS,
    MAX_MAP_CELLS,
    MAX_PATH_CHARS,
    MAX_PIXELS,
    MAX_PX_PER_CELL,
    MAX_ROUND,
    MAX_WALLS,
    MIN_PX_PER_CELL,
    Coordinate,
    Feet,
    Lines,
    Name,
    at_most,
    base64_of_at_most,
)
from core.model.portrait import checked_base64


class Terrain(StrEnum):
    NORMAL = "normal"
    DIFFICULT = "difficult"
    SLIPPERY = "slippery"
    UNDERGROWTH = "undergrowth"


class TerrainSpec(BaseModel):
    """One terrain kind: its map code, its movement cost multiplier, its shove effects
    (000 "Terrain Modifiers to Force") and whether it conceals (002 "Cover & concealment":
    "bushes or other undergrowth"); the numbers are rules-profile fields."""

    model_config = ConfigDict(frozen=True)

    code: str
    name: Terrain
    move_cost: int
    adds_resist: bool = False
    slippery: bool = False
    conceals: bool = False


TERRAINS: dict[Terrain, TerrainSpec] = {
    Terrain.NORMAL: TerrainSpec(code=".", name=Terrain.NORMAL, move_cost=1),
    Terrain.DIFFICULT: TerrainSpec(code="d", name=Terrain.DIFFICULT, move_cost=2,
                                   adds_resist=True),
    Terrain.SLIPPERY: TerrainSpec(code="s", name=Terrain.SLIPPERY, move_cost=1, slippery=True),
    Terrain.UNDERGROWTH: TerrainSpec(code="u", name=Terrain.UNDERGROWTH, move_cost=1,
                                     conceals=True),
}
TERRAIN_BY_CODE: dict[str, TerrainSpec] = {spec.code: spec for spec in TERRAINS.values()}


class WallKind(StrEnum):
    """Kinds of line obstacle. Doors block while closed; windows block movement, not sight;
    objects (light-blocking props) block sight, not movement."""

    WALL = "wall"
    DOOR = "door"
    WINDOW = "window"
    OBJECT = "object"


WallKey = tuple[float, float, float, float, WallKind, bool]


class WallSegment(BaseModel):
    """A line obstacle between two points in grid units (cell corners are integers). The
    ends may lie off the map, within ±MAX_COORDINATE: the geometry clips walls to the map."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    x1: Coordinate
    y1: Coordinate
    x2: Coordinate
    y2: Coordinate
    kind: WallKind = WallKind.WALL
    open: bool = False

    @property
    def blocks_movement(self) -> bool:
        if self.kind is WallKind.DOOR:
            return not self.open
        return self.kind in (WallKind.WALL, WallKind.WINDOW)

    @property
    def blocks_sight(self) -> bool:
        if self.kind is WallKind.DOOR:
            return not self.open
        return self.kind in (WallKind.WALL, WallKind.OBJECT)

    @property
    def points(self) -> tuple[float, float, float, float]:
        return self.x1, self.y1, self.x2, self.y2

    @property
    def key(self) -> WallKey:
        """The fields as a plain tuple, equal exactly when the walls are: a dict key that
        hashes and compares some ten times faster than the model (a file may hold 100,000
        walls, and as many copies of one)."""
        return self.x1, self.y1, self.x2, self.y2, self.kind, self.open


class HazardKind(StrEnum):
    FIRE = "fire"
    PIT = "pit"
    CLIFF = "cliff"
    SPELL = "spell"
    CUSTOM = "custom"


class HazardEffect(BaseModel):
    """What entering the hazard does: its damage, whether armour applies, its own save."""

    model_config = ConfigDict(frozen=True)

    damage: str | None = None
    damage_type: Name = Field("", max_length=60)
    through_armour: bool = False
    fall_ft: int = Field(0, ge=0, le=MAX_FEET,
                         description="Depth fallen on entering (pits, cliffs)")
    save_target: int | None = Field(None, ge=2, le=20,
                                    description="d20 ≥ this on the hazard's own save")
    save_halves: bool = True
    notes: Lines = ""

    @field_validator("damage")
    @classmethod
    def _dice(cls, value: str | None) -> str | None:
        from core.model.dice import DiceExpression

        if value:
            DiceExpression.parse(value)
        return value or None


class Hazard(BaseModel):
    """A named region of cells with a kind and an effect; ``gm_only`` keeps it off the
    players' view. A timed hazard (burning oil from a flask) goes at the end of round
    ``expires_after_round`` (:func:`core.rules.timeline.end_round`). A fire or a brazier
    may give light (``light_cells``, :func:`core.spatial.lighting.hazard_lights`)."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    name: Name = Field(min_length=1, max_length=60)
    kind: HazardKind = HazardKind.CUSTOM
    cells: Annotated[tuple[Cell, ...], at_most(MAX_MAP_CELLS**2, "cells")] = Field(min_length=1)
    effect: HazardEffect = HazardEffect()
    gm_only: bool = False
    expires_after_round: int | None = Field(None, ge=0, le=MAX_ROUND)
    light_cells: float = Field(
        0, ge=0, le=MAX_COORDINATE,
        description="How far beyond its own cells it lights the dark (a brazier); 0: no light")

    @field_validator("cells")
    @classmethod
    def _each_cell_once(cls, cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
        seen: set[Cell] = set()
        for cell in cells:
            if cell in seen:
                raise ValueError(f"cell {tuple(cell)} is listed twice")
            seen.add(cell)
        return cells


class Background(BaseModel):
    """A map image aligned to the grid: ``offset`` px of the grid origin, ``px_per_cell``."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    path: Name | None = Field(None, max_length=MAX_PATH_CHARS)
    data_base64: str | None = Field(None, max_length=base64_of_at_most(MAX_IMAGE_BYTES))
    format: Name = Field("png", max_length=10)
    offset_x: float = Field(0, ge=-MAX_PIXELS, le=MAX_PIXELS)
    offset_y: float = Field(0, ge=-MAX_PIXELS, le=MAX_PIXELS)
    px_per_cell: float = Field(70, ge=MIN_PX_PER_CELL, le=MAX_PX_PER_CELL)

    @field_validator("data_base64")
    @classmethod
    def _base64(cls, text: str | None) -> str | None:
        return checked_base64(text) if text else text


class Light(BaseModel):
    """A light source (position in grid units, on the map): it lights the cells whose centre
    lies within ``range_cells`` of it and in its line of sight (docs/vision.md)."""

    model_config = ConfigDict(frozen=True, allow_inf_nan=False)

    x: float = Field(ge=0, le=MAX_MAP_CELLS)
    y: float = Field(ge=0, le=MAX_MAP_CELLS)
    range_cells: float = Field(ge=0, le=MAX_COORDINATE)
    colour: str = Field("ffffffff", pattern=r"^[0-9A-Fa-f]{8}$")
    intensity: float = Field(1.0, ge=-1000, le=1000)


class Darkness(StrEnum):
    """How much the map is lit apart from its lights (docs/vision.md)."""

    DAYLIGHT = "daylight"
    DIM = "dim"
    DARK = "dark"


class BattleMap(BaseModel):
    """The map. Mutated only through commands (:mod:`core.actions.commands`), which also tell the
    derived geometry (:mod:`core.spatial.geometry`) what changed."""

    model_config = ConfigDict(validate_assignment=False, extra="forbid")

    width: int = Field(20, ge=1, le=MAX_MAP_CELLS)
    height: int = Field(15, ge=1, le=MAX_MAP_CELLS)
    terrain_rows: Annotated[list[str], at_most(MAX_MAP_CELLS, "terrain rows")] = Field(
        default=[])
    elevation: Annotated[dict[str, Feet], at_most(MAX_MAP_CELLS**2, "elevation cells")] = Field(
        default={}, description='"x,y" → feet, only non-zero cells')
    ceiling_ft: int | None = Field(None, ge=1, le=MAX_FEET)
    walls: Annotated[list[WallSegment], at_most(MAX_WALLS, "walls")] = Field(
        default=[])
    hazards: Annotated[list[Hazard], at_most(MAX_HAZARDS, "hazards")] = Field(
        default=[])
    background: Background | None = None
    lights: Annotated[list[Light], at_most(MAX_LIGHTS, "lights")] = Field(default=[])
    darkness: Darkness = Darkness.DAYLIGHT

    @field_validator("elevation")
    @classmethod
    def _one_key_per_cell(cls, elevation: dict[str, int]) -> dict[str, int]:
        for key in elevation:
            if cell_key(parse_cell_key(key)) != key:
                raise ValueError(f'elevation key {key[:20]!r} is not written "x,y"')
        return elevation

    @model_validator(mode="after")
    def _shape(self) -> BattleMap:
        if not self.terrain_rows:
            self.terrain_rows = ["." * self.width] * self.height
        if len(self.terrain_rows) != self.height:
            raise ValueError(f"terrain_rows has {len(self.terrain_rows)} rows; "
                             f"the map is {self.height} high")
        for y, row in enumerate(self.terrain_rows):
            if len(row) != self.width:
                raise ValueError(
                    f"terrain row {y} has {len(row)} cells; the map is {self.width} wide")
            unknown = set(row) - TERRAIN_BY_CODE.keys()
            if unknown:
                raise ValueError(f"terrain row {y} has unknown codes {sorted(unknown)}; "
                                 f"known: {''.join(TERRAIN_BY_CODE)}")
        for key in self.elevation:
            self._check_cell(parse_cell_key(key), "elevation")
        for hazard in self.hazards:
            for cell in hazard.cells:
                self._check_cell(cell, f"hazard {hazard.name!r}")
        cells = sum(len(hazard.cells) for hazard in self.hazards)
        if cells > MAX_HAZARD_CELLS:
            raise ValueError(f"the hazards have {cells:,} cells; at most {MAX_HAZARD_CELLS:,}")
        return self

    def _check_cell(self, cell: Cell, what: str) -> None:
        if not self.contains(cell):
            raise ValueError(
                f"{what} cell {tuple(cell)} is outside the {self.width}×{self.height} map")

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.x < self.width and 0 <= cell.y < self.height

    def contains_footprint(self, footprint: Footprint) -> bool:
        return (footprint.x >= 0 and footprint.y >= 0
                and footprint.x + footprint.size <= self.width
                and footprint.y + footprint.size <= self.height)

    def terrain_at(self, cell: Cell) -> TerrainSpec:
        return TERRAIN_BY_CODE[self.terrain_rows[cell.y][cell.x]]

    def set_terrain(self, cell: Cell, terrain: Terrain) -> None:
        row = self.terrain_rows[cell.y]
        self.terrain_rows[cell.y] = row[:cell.x] + TERRAINS[terrain].code + row[cell.x + 1:]

    def elevation_at(self, cell: Cell) -> int:
        return self.elevation.get(cell_key(cell), 0)

    def set_elevation(self, cell: Cell, feet: int) -> None:
        if feet:
            self.elevation[cell_key(cell)] = feet
        else:
            self.elevation.pop(cell_key(cell), None)

    def hazard_at(self, cell: Cell) -> Hazard | None:
        for hazard in self.hazards:
            if cell in hazard.cells:
                return hazard
        return None


def cell_key(cell: Cell) -> str:
    return f"{cell.x},{cell.y}"


def parse_cell_key(key: str) -> Cell:
    """The cell of an elevation key "x,y"."""
    match = re.fullmatch(r"(-?\d{1,6}),(-?\d{1,6})", key)
    if match is None:
        raise ValueError(f'elevation key {key[:20]!r} is not "x,y"')
    return Cell(int(match[1]), int(match[2]))
