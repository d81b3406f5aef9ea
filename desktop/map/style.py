"""Colours, pens and labels of the map, in one place."""

from __future__ import annotations

from core.model.combatant import Condition, Side
from core.model.mapmodel import HazardKind, Terrain, WallKind
from desktop.qt import QColor

BACKGROUND = QColor("#2b2a28")
FLOOR = QColor("#d8d0c0")
GRID = QColor("#b3aa98")
TERRAIN_COLOURS: dict[Terrain, QColor] = {
    Terrain.NORMAL: QColor(0, 0, 0, 0),
    Terrain.DIFFICULT: QColor(139, 101, 60, 120),
    Terrain.SLIPPERY: QColor(90, 170, 220, 120),
    Terrain.UNDERGROWTH: QColor(70, 140, 55, 130),
}
TERRAIN_HATCH: dict[Terrain, str] = {Terrain.DIFFICULT: "rubble", Terrain.SLIPPERY: "ice"}
WALL_COLOURS: dict[WallKind, QColor] = {
    WallKind.WALL: QColor("#1e1b18"),
    WallKind.DOOR: QColor("#8a4b16"),
    WallKind.WINDOW: QColor("#3d7ebf"),
    WallKind.OBJECT: QColor("#6d6256"),
}
WALL_WIDTH_CELLS = 0.12
HAZARD_COLOURS: dict[HazardKind, QColor] = {
    HazardKind.FIRE: QColor(230, 90, 20, 150),
    HazardKind.PIT: QColor(20, 20, 20, 170),
    HazardKind.CLIFF: QColor(90, 60, 40, 150),
    HazardKind.SPELL: QColor(150, 70, 210, 130),
    HazardKind.CUSTOM: QColor(200, 180, 30, 140),
}
# Glyphs present in common UI fonts (DejaVu Sans), so they render on a bare machine.
HAZARD_ICONS: dict[HazardKind, str] = {
    HazardKind.FIRE: "♨", HazardKind.PIT: "▼", HazardKind.CLIFF: "▲",
    HazardKind.SPELL: "✦", HazardKind.CUSTOM: "⚠",
}
SIDE_COLOURS: dict[Side, QColor] = {
    Side.PARTY: QColor("#2f7fd1"),
    Side.OPPOSITION: QColor("#c8322d"),
}
TOKEN_FILL = QColor("#f4efe6")
NO_ATTACK = QColor("#9a9a9a")
SELECTION = QColor("#ffc20e")
GM_ONLY = QColor("#5b2a86")  # marks what the players do not see
CHOSEN = QColor("#ff6f00")
RULER = QColor("#0f8b8d")
# Badges in the Combatants list's Cond column and on the map's tokens: at most two
# characters, none the start of another (a lone "R" beside "Ri" read as one) and none the
# "wp" of wound points beside them; the tooltips name them in full.
CONDITION_BADGES: dict[Condition, tuple[str, QColor]] = {
    Condition.PRONE: ("P", QColor("#7a4ea3")),
    Condition.STUNNED: ("St", QColor("#d98b1c")),
    Condition.DAZED: ("Dz", QColor("#b0a21c")),
    Condition.KNOCKDOWN: ("KD", QColor("#a33b3b")),
    Condition.KNOCKED_OUT: ("KO", QColor("#444444")),
    Condition.DEFENSIVE_STANCE: ("DS", QColor("#2e8b57")),
    Condition.SCARPERING: ("Sc", QColor("#5f6b7a")),
    Condition.AIMING: ("A", QColor("#1f6f8b")),
    Condition.BRACED: ("B", QColor("#6b5b2e")),
    Condition.SURRENDERED: ("⚐", QColor("#8c8c8c")),
    Condition.BERSERK: ("!", QColor("#b0003a")),
    Condition.ASLEEP: ("Z", QColor("#3a4f8c")),
    Condition.WAKING: ("Wk", QColor("#5a6fb0")),
    Condition.RISING: ("Up", QColor("#6f86c4")),
    Condition.DEFENDING: ("Df", QColor("#8aa0d6")),
}
# The map view's scroll bars: flat, in the map's surround, no step arrows. Fusion's bars
# took 0.9 and 3.0 ms to repaint, and every wheel notch repaints both (their range
# changes). No width here: Fusion's applies, or table mode's touch-sized one.
MAP_SCROLL_BARS = f"""
    QScrollBar {{ background: {BACKGROUND.name()}; border: none; }}
    QScrollBar::handle {{ background: #7a756c; border-radius: 3px; margin: 3px;
                         min-width: 32px; min-height: 32px; }}
    QScrollBar::handle:hover {{ background: #a8a297; }}
    QScrollBar::handle:pressed {{ background: {SELECTION.name()}; }}
    QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; border: none; }}
    QScrollBar::add-page, QScrollBar::sub-page {{ background: none; }}
"""
PATH_OK = QColor("#1f9d55")
PATH_BAD = QColor("#d7263d")
ELEVATION_UP = QColor(120, 80, 30)
ELEVATION_DOWN = QColor(30, 60, 140)

_scale = [1.0]


def ui_scale() -> float:
    """How much larger than normal text and touch targets on the map are drawn (1.0 on a
    laptop; a table screen raises it)."""
    return _scale[0]


def set_ui_scale(scale: float) -> None:
    _scale[0] = scale
