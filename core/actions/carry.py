"""The party carries on: player characters brought from one encounter into the next.

What outlasts a fight (each a choice of the GM's, :class:`CarryChoices`):

- hit points and wound points as the fight left them (else full HP, no wounds);
- conditions: stances and morale states (defensive stance, scarpering, aiming, braced,
  surrendered, berserk) end with the fight; the timed ones (the stun chain, knocked out,
  the waking chain) run on through the rounds that pass between the fights by the
  timeline's own round end (:func:`core.rules.timeline.end_round`), and what is left
  comes across with its remaining rounds as a timer; sleep lasts until the sleeper is
  woken; a Prone creature able to rise stands once a round has passed;
- hero points (else none); the critical events' boons for the round (a lucky break or
  opening, the round's hero points) end with it (:meth:`Combatant.lapsed`);
- weapons dropped in a panic: recovered (back in hand, when a weapon table defines them)
  or left behind (still listed as dropped); the weapons and the shield a critical event
  took out of hand: recovered (there is time between the fights), or still out of hand,
  a dropped one lying nowhere on the new map (its cell was the old map's).

Where they stand: a traveller whose name a party token of the new encounter bears (the
stand-in the GM placed when preparing the map: its start cell) takes that token's place;
the others are placed, in order, in the free cells nearest the drop point. The new
encounter's round starts afresh (round 0), with the travellers' running timers; the
weapon definitions and portraits they need are copied into it.

>>> from core.model.combatant import Combatant, Condition
>>> from core.model.encounter import Encounter, Token
>>> from core.model.mapmodel import BattleMap
>>> mira = Combatant(name="Mira", hp=5, max_hp=18, conditions=frozenset({Condition.AIMING}))
>>> old = Encounter(tokens=[Token(id="mira", combatant=mira, x=3, y=3)])
>>> carried = carry_party(old, Encounter(map=BattleMap(width=8, height=8)), ["mira"],
...                       CarryChoices(), drop=Cell(1, 1))
>>> token = carried.encounter.token("mira")
>>> token.cell, token.combatant.hp, sorted(token.combatant.conditions)
(Cell(x=1, y=1), 5, [])
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

from core.model.combatant import Combatant, Condition, Side
from core.model.encounter import Encounter, LogEntry, Token
from core.model.grid import Cell
from core.model.limits import MAX_CARRIED_WEAPONS, MAX_PORTRAITS, MAX_ROUND, MAX_WEAPON_TABLE
from core.model.mapmodel import BattleMap
from core.model.round import ConditionTimer, RoundState
from core.rules.conditions import gets_up
from core.rules.timeline import end_round, with_default_timers
from core.rules.weapons import label_of

#: Conditions of the fight's moment: they end with it.
FIGHT_ONLY = frozenset({Condition.DEFENSIVE_STANCE, Condition.SCARPERING, Condition.AIMING,
                        Condition.BRACED, Condition.SURRENDERED, Condition.BERSERK})


@dataclass(frozen=True)
class CarryChoices:
    """What the GM ticked. ``rounds_between``: rounds that pass before the next fight
    (0: it starts at once), 0-1,000,000."""

    hp: bool = True
    wounds: bool = True
    conditions: bool = True
    hero_points: bool = True
    recover_weapons: bool = True
    rounds_between: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.rounds_between <= MAX_ROUND:
            raise ValueError(f"rounds between the fights: {self.rounds_between} is outside "
                             f"0-{MAX_ROUND:,}")


@dataclass
class Carried:
    """The next encounter with the party in it; where each traveller stands (by its id
    there) and what the GM should know (a weapon not recovered, a namesake replaced)."""

    encounter: Encounter
    placed: dict[str, Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def party_of(encounter: Encounter) -> list[str]:
    """The ids of the encounter's party tokens, in the list's order (who may carry on)."""
    return [t.id for t in encounter.tokens if t.combatant.side is Side.PARTY]


def default_drop(encounter: Encounter) -> Cell:
    """Where travellers without a stand-in go unless the GM says: beside the new map's
    party tokens if it has any, else its centre."""
    party = [t.cell for t in encounter.tokens if t.combatant.side is Side.PARTY]
    if party:
        return Cell(sum(c.x for c in party) // len(party), sum(c.y for c in party) // len(party))
    return Cell(encounter.map.width // 2, encounter.map.height // 2)


def carry_party(old: Encounter, new: Encounter, token_ids: list[str], choices: CarryChoices,
                drop: Cell | None = None) -> Carried:
    """``new`` (left as it is: the result is a copy) with the tokens ``token_ids`` of
    ``old`` brought across; ValueError (nothing made) when they do not fit in it."""
    travellers = [old.token(token_id) for token_id in token_ids]
    timers = _after_the_gap(old, travellers, choices)
    carried = Carried(deepcopy(new))
    target = carried.encounter
    own_timers = list(target.timeline.timers)
    stand_ins = _stand_ins(target, travellers)
    for replaced in stand_ins.values():
        target.remove_token(replaced.id)
        own_timers = [t for t in own_timers if t.token_id != replaced.id]
        carried.notes.append(f"{replaced.name} of the new map stood in for the party's")
    ids: dict[str, str] = {}
    for token in travellers:
        conditions = timers.conditions.get(token.id, frozenset())
        combatant = _as_carried(token.combatant.model_copy(update={"conditions": conditions}),
                                choices, old, target, carried.notes)
        stand_in = stand_ins.get(token.name.casefold())
        cell = _place(target, combatant, stand_in.cell if stand_in else drop or
                      default_drop(target))
        new_id = token.id if not target.has_token(token.id) else target.unique_id(token.name)
        target.add_token(Token(id=new_id, combatant=combatant, x=cell.x, y=cell.y,
                               gm_only=token.gm_only))
        ids[token.id] = new_id
        carried.placed[new_id] = cell
    target.timeline = RoundState(timers=[*own_timers, *(
        t.model_copy(update={"token_id": ids[t.token_id]}) for t in timers.timers)])
    target.log.append(_log_entry(old, [target.token(i) for i in ids.values()]))
    return carried


@dataclass
class _Timers:
    conditions: dict[str, frozenset[Condition]]
    timers: list[ConditionTimer]


def _after_the_gap(old: Encounter, travellers: list[Token], choices: CarryChoices) -> _Timers:
    """The travellers' conditions and timers once ``rounds_between`` round ends pass,
    counted by the timeline's round end (stances and morale states dropped first)."""
    if not choices.conditions:
        return _Timers({t.id: frozenset() for t in travellers}, [])
    ids = {t.id for t in travellers}
    tokens = [t.with_combatant(t.combatant.model_copy(update={
        "conditions": t.combatant.conditions - FIGHT_ONLY})) for t in travellers]
    scratch = Encounter(map=BattleMap(width=old.map.width, height=old.map.height),
                        profile=old.profile, weapons=old.weapons, portraits=old.portraits,
                        tokens=tokens, timeline=RoundState(timers=[
                            t for t in old.timeline.timers if t.token_id in ids]))
    scratch.timeline = RoundState(timers=with_default_timers(scratch))
    _run_rounds(scratch, choices.rounds_between)
    conditions = {t.id: _risen(t.combatant, choices.rounds_between) for t in scratch.tokens}
    timers = [t for t in scratch.timeline.timers if t.condition in conditions[t.token_id]]
    return _Timers(conditions, timers)


def _run_rounds(scratch: Encounter, rounds: int) -> None:
    """``rounds`` round ends, skipping those where only timers count down."""
    left = rounds
    while left > 0 and scratch.timeline.timers:
        skip = min(left, *(t.rounds for t in scratch.timeline.timers)) - 1
        scratch.timeline = scratch.timeline.model_copy(update={"timers": [
            t.model_copy(update={"rounds": t.rounds - skip}) for t in scratch.timeline.timers]})
        ended = end_round(scratch)
        for token_id, conditions in ended.conditions.items():
            token = scratch.token(token_id)
            scratch.put_token(token.with_combatant(
                token.combatant.model_copy(update={"conditions": conditions})))
        scratch.timeline = RoundState(timers=ended.state.timers)
        left -= skip + 1


def _risen(combatant: Combatant, rounds: int) -> frozenset[Condition]:
    if rounds > 0 and gets_up(combatant):
        return combatant.conditions - {Condition.PRONE}
    return combatant.conditions


def _as_carried(combatant: Combatant, choices: CarryChoices, old: Encounter, new: Encounter,
                notes: list[str]) -> Combatant:
    update: dict[str, object] = {}
    if not choices.hp:
        update["hp"] = combatant.max_hp
    if not choices.wounds:
        update["wounds"] = 0
    if not choices.hero_points:
        update["hero_points"] = 0
    carried = combatant.lapsed().model_copy(update=update)
    if choices.recover_weapons and carried.dropped_weapons:
        carried = _recovered(carried, old, new, notes)
    if carried.out_of_hand:
        carried = _back_in_hand(carried, choices.recover_weapons, notes)
    for name in carried.weapons:
        _bring_weapon(name, old, new, notes)
    if carried.portrait is not None and carried.portrait not in new.portraits:
        if len(new.portraits) >= MAX_PORTRAITS:
            raise ValueError(f"the new encounter holds {MAX_PORTRAITS} portraits already: "
                             f"no room for {carried.name}'s")
        new.portraits[carried.portrait] = old.portraits[carried.portrait]
    return carried


def _recovered(combatant: Combatant, old: Encounter, new: Encounter, notes: list[str]
               ) -> Combatant:
    """The dropped weapons back in hand: those a weapon table defines (the new encounter's
    first), as room allows."""
    known = {w.name.casefold(): w.name for w in (*old.weapons, *new.weapons)}
    held, left = list(combatant.weapons), []
    for name in combatant.dropped_weapons:
        table_name = known.get(name.casefold())
        if table_name is None or len(held) >= MAX_CARRIED_WEAPONS:
            left.append(name)
            why = ("no weapon table defines it" if table_name is None
                   else f"at most {MAX_CARRIED_WEAPONS} weapons")
            notes.append(f"{combatant.name}'s {name} could not be recovered ({why})")
        elif table_name not in held:
            held.append(table_name)
    return combatant.model_copy(update={"weapons": tuple(held), "dropped_weapons": tuple(left)})


def _back_in_hand(combatant: Combatant, recover: bool, notes: list[str]) -> Combatant:
    """Every item out of hand taken back, or left out of hand with no cell on the new map."""
    labels = ", ".join(label_of(o) for o in combatant.out_of_hand)
    if recover:
        notes.append(f"{combatant.name} took back what was out of hand: {labels}")
        return combatant.model_copy(update={"out_of_hand": ()})
    notes.append(f"{combatant.name}'s {labels}: still out of hand (recover with an action)")
    return combatant.model_copy(update={"out_of_hand": tuple(
        o.model_copy(update={"cell": None}) for o in combatant.out_of_hand)})


def _bring_weapon(name: str, old: Encounter, new: Encounter, notes: list[str]) -> None:
    """Put the definition of ``name`` in the new table unless a weapon of that name is
    there (the new encounter's own is kept: a note says so when they differ)."""
    mine = next((w for w in new.weapons if w.name.casefold() == name.casefold()), None)
    theirs = next((w for w in old.weapons if w.name == name), None)
    if mine is not None:
        if mine.name != name:
            raise ValueError(f"the new encounter's weapon table has {mine.name!r}; the party "
                             f"carries {name!r}: rename one first")
        if theirs is not None and theirs != mine:
            notes.append(f"{name}: the new encounter's own definition is used")
        return
    assert theirs is not None  # a carried weapon is in one of the tables
    if len(new.weapons) >= MAX_WEAPON_TABLE:
        raise ValueError(f"the new encounter's weapon table is full ({MAX_WEAPON_TABLE})")
    new.weapons.append(theirs)


def _stand_ins(new: Encounter, travellers: list[Token]) -> dict[str, Token]:
    """Casefolded traveller name → the new encounter's party token of that name."""
    names = {t.name.casefold() for t in travellers}
    found: dict[str, Token] = {}
    for token in new.tokens:
        key = token.name.casefold()
        if token.combatant.side is Side.PARTY and key in names:
            found.setdefault(key, token)
    return found


def _place(encounter: Encounter, combatant: Combatant, near: Cell) -> Cell:
    size = encounter.footprint_cells(combatant.size)
    cell = encounter.free_spot(size, near)
    if cell is None:
        raise ValueError(f"no free {size}×{size} space on the new map for {combatant.name}")
    return cell


def _log_entry(old: Encounter, travellers: list[Token]) -> LogEntry:
    """One line of the new log: who came from where, and in what state."""
    states = []
    for token in travellers:
        c = token.combatant
        extra = [f"{c.wounds} wound points"] if c.wounds else []
        extra += [condition.label for condition in sorted(c.conditions)]
        states.append(f"{c.name} {c.hp}/{c.max_hp} HP" + (f" ({', '.join(extra)})"
                                                         if extra else ""))
    return LogEntry(kind="carry", summary=f"From {old.name}: {'; '.join(states)}",
                    detail={"from": old.name, "tokens": [t.id for t in travellers]})
