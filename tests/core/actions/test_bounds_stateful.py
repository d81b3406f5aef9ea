"""A hypothesis state machine plays an encounter near every cap of its format and saves
after each step: no sequence of accepted actions may produce an encounter that save
refuses (issue 39).

It starts from one of several encounters, each near a cap: a log 4 short of its cap, round
999,998, a round in which everyone walked 9,990 ft, 995 tokens besides the fighters,
names at their 60-character limit, a flask's fire burning near the last round. Then it
drives legal rulings, most of them succeeding — moves, shoves, missiles (a flask of oil
too), every manoeuvre a creature's menu offers, melee attacks, morale checks, initiative
(and creatures joining a round late), segments and rounds — and GM edits (a creature added
again, damage), undo and redo. After every step the encounter is saved and loaded again; a
refused step must change nothing.
(``--hypothesis-show-statistics`` counts the steps accepted and refused of each kind.) The
caps a step reaches in one go — walls, hazards, lights, art past the file's size — are
tests of their own in ``test_bounds.py``.

Cost: 20 examples of 15 steps run in 5-15 s on a shared 2-core machine (a save with 995
tokens besides the fighters takes a tenth of a second).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from core.actions.attack import AttackAction
from core.actions.base import Action, perform
from core.actions.commands import AddToken, Command, UpdateCombatant
from core.actions.history import History
from core.actions.initiative import InitiativeAction, JoinRoundAction
from core.actions.manoeuvre import action_for
from core.actions.missile import MissileAction
from core.actions.morale import MoraleAction
from core.actions.move import MoveAction
from core.actions.round import AdvanceSegment, NextRound, RecordMovement
from core.actions.shove import ShoveAction
from core.io import logarchive
from core.io.fileio import encounter_from_json, encounter_to_bytes
from core.model.combatant import NAME_CHARS, Combatant, Side
from core.model.dice import SeededDice
from core.model.encounter import Encounter, LogEntry, Token
from core.model.grid import Cell, Direction
from core.model.limits import MAX_FEET, MAX_LOG_ENTRIES, MAX_ROUND, MAX_TOKENS
from core.model.mapmodel import BattleMap, WallSegment
from core.rules.manoeuvres import offers
from core.rules.missile import MissileRequest
from core.rules.morale import MoraleRequest
from core.rules.shove import ShoveRequest

WIDTH, HEIGHT = 10, 7  # where the fight is; fillers stand below it
FIGHTERS = {"a": (1, 1, Side.PARTY), "b": (1, 3, Side.PARTY), "c": (1, 5, Side.PARTY),
            "x": (2, 1, Side.OPPOSITION), "y": (2, 3, Side.OPPOSITION),
            "z": (3, 5, Side.OPPOSITION)}
#: The log's cap while the machine runs (core.io.logarchive): the rollover is the same at any
#: count, and saving 10,000 entries after each step took a third of a second
#: (test_logarchive.py saves the real cap).
LOG_CAP = 200
cells = st.builds(Cell, st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1))
seeds = st.integers(0, 10_000)


def fighter(token_id: str, long_names: bool) -> Token:
    x, y, side = FIGHTERS[token_id]
    name = token_id.upper() * (NAME_CHARS if long_names else 1)
    weapons = ("Long bow", "Dagger", "Flask of oil") if side is Side.PARTY else ("Spear",)
    return Token(id=token_id, x=x, y=y, combatant=Combatant(
        name=name, side=side, weapons=weapons, fr_slots=3, hr_slots=2, max_hp=30, hp=30,
        leadership=2 if token_id == "x" else None))


def fight(long_names: bool = False, fillers: int = 0) -> Encounter:
    """The fighters in a walled room with a door, and ``fillers`` one-cell tokens below."""
    height = HEIGHT + 1 + -(-fillers // 40) if fillers else HEIGHT
    walls = [WallSegment(x1=7, y1=0, x2=7, y2=3), WallSegment(x1=7, y1=3, x2=7, y2=4,
                                                              kind="door"),
             WallSegment(x1=0, y1=HEIGHT, x2=WIDTH, y2=HEIGHT)]
    encounter = Encounter(map=BattleMap(width=max(WIDTH, 40 if fillers else WIDTH),
                                        height=height, walls=walls),
                          tokens=[fighter(t, long_names) for t in FIGHTERS])
    for index in range(fillers):
        encounter.add_token(Token(id=f"f{index}", x=index % 40, y=HEIGHT + 1 + index // 40,
                                  combatant=Combatant(name=f"Filler {index}")))
    return encounter


def near_the_log_cap() -> Encounter:
    """Four entries short of the log's cap in a file, taken as 200 (see :data:`LOG_CAP`)."""
    encounter = fight()
    encounter.log.extend(LogEntry(kind="note", summary=f"note {n}")
                         for n in range(LOG_CAP - 4))
    return encounter


def near_the_last_round() -> Encounter:
    encounter = fight()
    encounter.timeline.round_number = MAX_ROUND - 2
    return encounter


def everyone_walked_far() -> Encounter:
    encounter = fight()
    history = History(encounter)
    perform(InitiativeAction(), history, SeededDice(1))
    for token_id in FIGHTERS:
        history.push(RecordMovement(token_id, MAX_FEET - 10))
    return encounter


def near_the_token_cap() -> Encounter:
    return fight(fillers=MAX_TOKENS - len(FIGHTERS) - 5)


STARTS: dict[str, Callable[[], Encounter]] = {
    "log": near_the_log_cap, "round": near_the_last_round, "feet": everyone_walked_far,
    "tokens": near_the_token_cap, "names": lambda: fight(long_names=True)}


class NearTheCaps(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.encounter = Encounter()
        self.history = History(self.encounter)

    @initialize(start=st.sampled_from(sorted(STARTS)))
    def begin(self, start: str) -> None:
        logarchive.MAX_LOG_ENTRIES = LOG_CAP
        self.encounter = STARTS[start]()
        self.history = History(self.encounter)

    def teardown(self) -> None:
        logarchive.MAX_LOG_ENTRIES = MAX_LOG_ENTRIES

    def attempt(self, kind: str, step: Callable[[], object]) -> None:
        """Take a step; a refusal (any ValueError: illegal, or past a bound) must leave
        the encounter and the history as they were."""
        before, steps = self.encounter.model_dump(exclude={"log"}), self.history.labels()
        logged = len(self.encounter.log)
        try:
            step()
        except ValueError:
            event(f"{kind}: refused")
            assert self.encounter.model_dump(exclude={"log"}) == before
            assert (self.history.labels(), len(self.encounter.log)) == (steps, logged)
        else:
            event(f"{kind}: accepted")

    def ruling(self, action: Action[Any], seed: int) -> None:
        self.attempt(action.name, lambda: perform(action, self.history, SeededDice(seed)))

    def push(self, command: Command) -> None:
        self.attempt(command.label, lambda: self.history.push(command))

    def fighters(self) -> list[str]:
        return [t for t in FIGHTERS if self.encounter.has_token(t)]

    def pairs(self) -> list[tuple[str, str]]:
        """Fighters side by side (a shove, an attack), or any two when none are."""
        tokens = [self.encounter.token(t) for t in self.fighters()]
        close = [(a.id, d.id) for a in tokens for d in tokens
                 if a.id != d.id and a.footprint.adjacent(d.footprint)]
        return close or [(a.id, d.id) for a in tokens for d in tokens if a.id != d.id]

    @rule(data=st.data(), cell=cells)
    def move(self, data: st.DataObject, cell: Cell) -> None:
        mover = data.draw(st.sampled_from(self.fighters()))
        self.ruling(MoveAction({mover: cell}), 0)

    @rule(data=st.data(), direction=st.sampled_from(list(Direction)), seed=seeds)
    def shove(self, data: st.DataObject, direction: Direction, seed: int) -> None:
        attacker, defender = data.draw(st.sampled_from(self.pairs()))
        self.ruling(ShoveAction(ShoveRequest(attacker=attacker, defender=defender,
                                             direction=direction)), seed)

    @rule(data=st.data(), weapon=st.sampled_from(["Long bow", "Flask of oil", "Dagger"]),
          seed=seeds)
    def missile(self, data: st.DataObject, weapon: str, seed: int) -> None:
        shooter = data.draw(st.sampled_from(["a", "b", "c"]))
        target = data.draw(st.sampled_from(["x", "y", "z"]))
        self.ruling(MissileAction(MissileRequest(attacker=shooter, target=target,
                                                 weapon=weapon)), seed)

    @rule(data=st.data(), seed=seeds)
    def manoeuvre(self, data: st.DataObject, seed: int) -> None:
        actor = data.draw(st.sampled_from(self.fighters()))
        menu = offers(self.encounter, actor) if self.encounter.has_token(actor) else []
        if menu:
            offer = data.draw(st.sampled_from(menu))
            self.ruling(action_for(offer.request), seed)

    @rule(data=st.data(), seed=seeds)
    def attack(self, data: st.DataObject, seed: int) -> None:
        attacker, target = data.draw(st.sampled_from(self.pairs()))
        self.ruling(AttackAction(attacker, target), seed)

    @rule(side=st.sampled_from(list(Side)), seed=seeds)
    def morale(self, side: Side, seed: int) -> None:
        self.ruling(MoraleAction(MoraleRequest(side=side)), seed)

    @rule(seed=seeds)
    def initiative(self, seed: int) -> None:
        self.ruling(InitiativeAction(), seed)

    @rule(seed=seeds)
    def join_the_round(self, seed: int) -> None:
        """Creatures added after the round's roll get their initiative."""
        self.ruling(JoinRoundAction(), seed)

    @rule()
    def next_segment(self) -> None:
        self.push(AdvanceSegment())

    @rule()
    def next_round(self) -> None:
        self.push(NextRound())

    @rule(data=st.data())
    def add_the_same_creature_again(self, data: st.DataObject) -> None:
        template = self.encounter.token(data.draw(st.sampled_from(self.fighters()))).combatant
        cell = self.encounter.free_spot(1, Cell(WIDTH - 1, HEIGHT - 1))
        if cell is None or cell.y >= HEIGHT:
            return
        name, renames = self.encounter.numbered_name(template.name)

        def add() -> None:
            with self.history.group(f"Add {name}"):
                for token_id, new_name in renames.items():
                    old = self.encounter.token(token_id).combatant
                    self.history.push(UpdateCombatant(token_id, old.model_copy(
                        update={"name": new_name})))
                self.history.push(AddToken(Token(
                    id=self.encounter.unique_id(name), x=cell.x, y=cell.y,
                    combatant=template.model_copy(update={"name": name}))))

        self.attempt("add", add)

    @rule(data=st.data(), damage=st.integers(1, 20_000))
    def hurt(self, data: st.DataObject, damage: int) -> None:
        token = self.encounter.token(data.draw(st.sampled_from(self.fighters())))
        self.push(UpdateCombatant(token.id, token.combatant.hurt(damage).wounded(damage)))

    @precondition(lambda self: self.history.can_undo)
    @rule()
    def undo(self) -> None:
        self.history.undo()

    @precondition(lambda self: self.history.can_redo)
    @rule()
    def redo(self) -> None:
        self.history.redo()

    @invariant()
    def saves(self) -> None:
        """Save refuses what load would: every encounter reached must save and load."""
        again = encounter_from_json(encounter_to_bytes(self.encounter))
        assert again.model_dump(exclude={"log"}) == self.encounter.model_dump(exclude={"log"})
        assert again.log == self.encounter.log[len(self.encounter.log) - len(again.log):]


TestNearTheCaps = NearTheCaps.TestCase
TestNearTheCaps.settings = settings(max_examples=20, stateful_step_count=15, deadline=None,
                                    suppress_health_check=[HealthCheck.too_slow])
