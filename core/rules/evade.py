"""Evading (002 "Evading": "Evading a foe by moving past requires a manouver check of 12. If
you fail they get a automatic hit and stop you"; rules-decisions "Evading": "a move that
leaves a cell adjacent to an able enemy (not Prone, not KO) needs a manoeuvre check d20 +
DEX modifier + ½ level ≥ 12, one per enemy passed. Fail: that enemy hits automatically (its
weapon's damage through AV) and the move ends in that cell", and the clarification "checked,
in path order, at each step that leaves a cell adjacent to an able enemy; a failure ends the
move in the cell it was leaving").

A move of one token along the path the movement rules allow (:mod:`core.spatial.pathing`):
:func:`evade_checks` lists the checks it asks for (the select tool's preview marks them);
:func:`resolve_evade` rolls them in order. Dice: one d20 per check until one fails, then the
enemy's weapon damage.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Footprint
from core.rules.conditions import roll_penalty
from core.rules.damage import damage_after_armour
from core.rules.holds import move_refusal
from core.rules.melee import (
    IllegalManoeuvreError,
    able,
    chance_at_least,
    enemies,
    open_contact,
)
from core.rules.ratings import armour_value
from core.rules.value import RulesValue
from core.rules.weapons import melee_weapons, strength_to_damage
from core.spatial.pathing import MovementGraph, MovePath, movement_graph

SEED = "002 Evading: 'a manouver check of 12'"


class EvadeRequest(RulesValue):
    """A token's move to ``goal`` (its top-left cell), within an optional budget."""

    mover: str
    goal: Cell
    budget_ft: float | None = Field(None, ge=0, le=10_000)


class EvadeCheck(RulesValue):
    """One check the move asks for: at path step ``step`` it leaves ``cell``, next to
    ``enemy``."""

    step: int
    cell: Cell
    enemy_id: str
    enemy: str
    bonus: Breakdown
    target: int
    chance: Fraction


def evade_bonus(encounter: Encounter, mover: Token) -> Breakdown:
    """DEX modifier + ½ level (rounded down) + the mover's stun penalty."""
    c, profile = mover.combatant, encounter.profile
    return Breakdown.of(Term("DEX modifier", profile.ability_modifier(c.abilities.dexterity),
                             "RD Evading"),
                        Term("½ level", c.level // 2, "RD Evading"), *roll_penalty(c, profile))


def evade_checks(encounter: Encounter, mover_id: str, cells: tuple[Cell, ...]
                 ) -> list[EvadeCheck]:
    """The checks a walk along ``cells`` asks for, in path order (enemies in token order
    within a step): the first step that leaves a place engaged with each able enemy (one
    check per enemy)."""
    mover = encounter.token(mover_id)
    size = mover.footprint.size
    bonus = evade_bonus(encounter, mover)
    target = encounter.profile.evade_target
    chance = chance_at_least(bonus.value, target)
    checks: list[EvadeCheck] = []
    passed: set[str] = set()
    for step, cell in enumerate(cells[:-1]):
        here = Footprint(cell.x, cell.y, size)
        for foe in _foes_next_to(encounter, mover.at(cell)):
            if foe.id not in passed and open_contact(encounter, here, foe.footprint):
                passed.add(foe.id)
                checks.append(EvadeCheck(step=step, cell=cell, enemy_id=foe.id, enemy=foe.name,
                                         bonus=bonus, target=target, chance=chance))
    return checks


def _foes_next_to(encounter: Encounter, moved: Token) -> list[Token]:
    """The able enemies the mover (``moved`` to a step of its path) touches, in token order:
    from the cell index around it (going through every token to index where each enemy
    can be touched took 56 ms a path on the scale map, 3,000 tokens)."""
    foes = [t for t in encounter.neighbours(moved, 1)
            if enemies(moved.combatant, t.combatant) and able(t.combatant)
            and moved.footprint.adjacent(t.footprint)]
    return sorted(foes, key=lambda t: encounter.order_of(t.id))


class EvadeRoll(RulesValue):
    """A check as rolled."""

    check: EvadeCheck
    roll: RollRecord
    total: Breakdown
    passed: bool


class AutomaticHit(RulesValue):
    """The enemy's free hit on a failed check: its melee weapon's damage through AV."""

    enemy: str
    weapon: str
    damage_roll: RollRecord | None = None
    raw: Breakdown = Breakdown()
    damage: Breakdown = Breakdown()


class EvadeResult(RulesValue):
    """The move as it went: the cells walked, every check, the hit that stopped it."""

    mover: str
    mover_id: str
    planned: tuple[Cell, ...]
    path: tuple[Cell, ...]
    moved_ft: float
    rolls: tuple[EvadeRoll, ...] = ()
    hit: AutomaticHit | None = None

    @property
    def final_cell(self) -> Cell:
        return self.path[-1]

    def summary(self) -> str:
        head = (f"{self.mover} moves {self.moved_ft:g} ft" if self.moved_ft
                else f"{self.mover} does not get away")
        evaded = [r.check.enemy for r in self.rolls if r.passed]
        text = head + (f", evading {', '.join(evaded)}" if evaded else "")
        if self.hit is None:
            return text
        return (f"{text} — fails to evade {self.hit.enemy}: stopped, hit with "
                f"{self.hit.weapon} for {self.hit.damage.value} damage")


def stopping_step(encounter: Encounter, mover: Token, cells: tuple[Cell, ...], step: int
                  ) -> int:
    """Where a move stopped by a failed check at ``step`` ends: that cell, or — when the
    path was only passing through an ally there — the last cell before it where the mover
    fits (the start always does)."""
    size = mover.footprint.size
    while step > 0 and not encounter.can_place(Footprint(*cells[step], size), ignore=mover.id):
        step -= 1
    return step


def _path(encounter: Encounter, request: EvadeRequest) -> tuple[MovementGraph, MovePath]:
    mover = encounter.token(request.mover)
    refusal = move_refusal(encounter, mover.id)
    if refusal:
        raise IllegalManoeuvreError(refusal)
    graph = movement_graph(encounter, mover)
    path = graph.path_to(request.goal, request.budget_ft)
    if not path.legal:
        raise IllegalManoeuvreError(f"{mover.name} cannot move to {tuple(request.goal)}: "
                                    f"{path.reason}")
    return graph, path


def resolve_evade(encounter: Encounter, request: EvadeRequest, dice: DiceSource
                  ) -> EvadeResult:
    """Walk the path, rolling each check in turn; the first failure stops the mover in the
    cell it was leaving and the enemy's automatic hit is rolled."""
    graph, path = _path(encounter, request)
    mover = encounter.token(request.mover)
    rolls: list[EvadeRoll] = []
    for check in evade_checks(encounter, mover.id, path.cells):
        roll = dice.roll("d20", f"{mover.name} evades {check.enemy}")
        total = Breakdown.of(Term("d20", roll.total, SEED), *check.bonus.terms)
        rolls.append(EvadeRoll(check=check, roll=roll, total=total,
                               passed=total.value >= check.target))
        if not rolls[-1].passed:
            walked = path.cells[:stopping_step(encounter, mover, path.cells, check.step) + 1]
            return EvadeResult(mover=mover.name, mover_id=mover.id, planned=path.cells,
                               path=walked, moved_ft=graph.exact_cost(walked),
                               rolls=tuple(rolls),
                               hit=automatic_hit(encounter, check.enemy_id, mover, dice))
    return EvadeResult(mover=mover.name, mover_id=mover.id, planned=path.cells,
                       path=path.cells, moved_ft=path.cost_ft, rolls=tuple(rolls))


def automatic_hit(encounter: Encounter, enemy_id: str, target: Token, dice: DiceSource
                  ) -> AutomaticHit:
    """The enemy's melee weapon (its longest reach; bare hands when it carries none) rolled
    for damage with its STR bonus, through the target's AV (magic ignores it)."""
    enemy = encounter.token(enemy_id)
    weapons = melee_weapons(encounter, enemy.combatant)
    if not weapons:
        return AutomaticHit(enemy=enemy.name, weapon="no melee weapon")
    weapon, profile = weapons[0], encounter.profile
    roll = dice.roll(weapon.damage, f"{enemy.name}'s automatic hit ({weapon.name})")
    raw = Breakdown.of(Term(weapon.name, roll.total, "002 Evading: an automatic hit"),
                       *strength_to_damage(enemy.combatant, profile, fired=False))
    damage = damage_after_armour(raw.value, armour_value(target.combatant).value, profile,
                                 magic=weapon.magic_damage)
    return AutomaticHit(enemy=enemy.name, weapon=weapon.name, damage_roll=roll, raw=raw,
                        damage=damage)


class EvadeOdds(RulesValue):
    """The checks a move asks for, and exactly where it may end."""

    checks: tuple[EvadeCheck, ...]
    landing: dict[Cell, Fraction]
    hit: Fraction


def evade_odds(encounter: Encounter, request: EvadeRequest) -> EvadeOdds:
    """Each check in turn: the move reaches check k's cell and stops there with the chance
    that the earlier ones passed and k failed."""
    _, path = _path(encounter, request)
    mover = encounter.token(request.mover)
    checks = evade_checks(encounter, mover.id, path.cells)
    landing: dict[Cell, Fraction] = {}
    going = Fraction(1)
    for check in checks:
        stops = going * (1 - check.chance)
        if stops:
            cell = path.cells[stopping_step(encounter, mover, path.cells, check.step)]
            landing[cell] = landing.get(cell, Fraction(0)) + stops
        going -= stops
    if going:
        landing[path.cells[-1]] = landing.get(path.cells[-1], Fraction(0)) + going
    return EvadeOdds(checks=tuple(checks), landing=landing, hit=1 - going)
