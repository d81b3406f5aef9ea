"""Creatures from the bestiary onto the map, and the two sides' balance at a glance.

:func:`add_templates` puts ``count`` copies of a template in the free cells nearest a drop
point as one undo step, named apart ("Kobold 1", "Kobold 2"; a same-named creature already
there becomes "Kobold 1"), bringing the weapon definitions and the portrait the template
carries into the encounter.

:func:`balance` is the figure the new-encounter dialog shows: per side, the creatures
still standing, their summed levels (Hit Dice) and their summed hit points. It is a sum,
not a prediction: nothing is rolled or simulated.

>>> from core.actions.history import History
>>> from core.model.bestiary import Template
>>> from core.model.combatant import Combatant
>>> history = History(Encounter())
>>> kobold = Template(combatant=Combatant(name="Kobold", side="opposition", max_hp=4, hp=4))
>>> added = add_templates(history.encounter, kobold, Cell(5, 5), count=2)
>>> _ = history.push(added.command)
>>> [t.name for t in history.encounter.tokens], added.command.label
(['Kobold 1', 'Kobold 2'], 'Add 2 × Kobold')
>>> describe_balance(balance(history.encounter))
'Party 0 standing, 0 levels, 0 HP · Opposition 2 standing, 2 levels, 8 HP'
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from core.actions.commands import AddToken, Batch, Command, UpdateCombatant
from core.actions.portraits import SetPortrait
from core.actions.weapons import ReplaceWeapons
from core.model.bestiary import Template
from core.model.combatant import Combatant, Side
from core.model.encounter import Encounter, Token
from core.model.grid import Cell
from core.rules.conditions import down

MAX_COPIES = 50  # at one drop; an encounter holds at most 1,000 tokens


@dataclass
class Added:
    """The step that adds the creatures, and their token ids."""

    command: Batch
    token_ids: list[str]


def add_templates(encounter: Encounter, template: Template, near: Cell, count: int = 1
                  ) -> Added:
    """``count`` (1-50) creatures of ``template`` in the free cells nearest ``near``;
    ValueError (nothing changed) when the map has no room or the template does not fit
    the encounter's rules or weapon table."""
    if not 1 <= count <= MAX_COPIES:
        raise ValueError(f"add 1 to {MAX_COPIES} creatures at a time, not {count}")
    combatant = _for_rules(template.combatant, encounter)
    scratch = encounter.scratch_copy()  # worked out step by step, the encounter untouched
    commands = _apply_all(scratch, _weapons_needed(template, encounter))
    ids: list[str] = []
    for _ in range(count):
        step = _one_creature(scratch, template, combatant, near)
        commands += _apply_all(scratch, step)
        ids.append(next(c.token.id for c in step if isinstance(c, AddToken)))
    label = f"Add {count} × {template.name}" if count > 1 else f"Add {template.name}"
    return Added(Batch(commands, label), ids)


def _apply_all(scratch: Encounter, commands: list[Command]) -> list[Command]:
    for command in commands:
        command.apply(scratch)
    return commands


def _for_rules(combatant: Combatant, encounter: Encounter) -> Combatant:
    """The template's combatant checked against the encounter's profile (its ability
    table may differ from the default one the bestiary is read with)."""
    try:
        return Combatant.model_validate(combatant.model_dump(),
                                        context={"profile": encounter.profile})
    except ValidationError as error:
        message = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise ValueError(f"{combatant.name} does not fit these rules: {message}") from None


def _weapons_needed(template: Template, encounter: Encounter) -> list[Command]:
    """The weapon table with the template's weapons it lacks (the encounter's own
    definition of a name it has is kept)."""
    table = {w.name.casefold(): w.name for w in encounter.weapons}
    for weapon in template.weapons:
        known = table.get(weapon.name.casefold())
        if known is not None and known != weapon.name:
            raise ValueError(f"{template.name} carries {weapon.name!r}; this encounter's "
                             f"weapon table has {known!r}: rename one first")
    missing = [w for w in template.weapons if w.name.casefold() not in table]
    if not missing:
        return []
    command = ReplaceWeapons([*encounter.weapons, *missing])
    command.label = f"Weapons of {template.name}"
    return [command]


def _one_creature(scratch: Encounter, template: Template, combatant: Combatant, near: Cell
                  ) -> list[Command]:
    """One more creature on the scratch encounter: the renames that tell the same-named
    apart, the token, its portrait."""
    size = scratch.footprint_cells(combatant.size)
    cell = scratch.free_spot(size, near)
    if cell is None:
        raise ValueError(f"no free {size}×{size} space on the map for {template.name}")
    name, renames = scratch.numbered_name(combatant.name)
    steps: list[Command] = []
    for token_id, new_name in renames.items():
        old = scratch.token(token_id).combatant
        steps.append(UpdateCombatant(token_id, old.model_copy(update={"name": new_name}),
                                     f"Rename {old.name} to {new_name}"))
    key = combatant.portrait
    token = Token(id=scratch.unique_id(name), x=cell.x, y=cell.y,
                  combatant=combatant.model_copy(update={"name": name, "portrait": None}))
    steps.append(AddToken(token))
    if key is not None:
        steps.append(SetPortrait(token.id, key, template.portrait))
    return steps


@dataclass(frozen=True)
class SideStrength:
    """One side summed: creatures, those standing (above 0 HP, not knocked out), and the
    standing ones' levels (Hit Dice) and hit points."""

    creatures: int = 0
    standing: int = 0
    levels: int = 0
    hp: int = 0


def balance(encounter: Encounter) -> dict[Side, SideStrength]:
    """Each side's :class:`SideStrength`."""
    sums = {side: SideStrength() for side in Side}
    for token in encounter.tokens:
        c, before = token.combatant, sums[token.combatant.side]
        up = not down(c)
        sums[c.side] = SideStrength(before.creatures + 1, before.standing + up,
                                    before.levels + c.level * up, before.hp + max(c.hp, 0) * up)
    return sums


def describe_balance(sums: dict[Side, SideStrength]) -> str:
    return " · ".join(f"{side.value.title()} {s.standing} standing, {s.levels} levels, "
                      f"{s.hp} HP" for side, s in sums.items())
