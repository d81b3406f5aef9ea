"""What melee on the map adds to the numbers: who is engaged with whom, the multiple
attackers bonus, a forcing-back attacker's lowered guard, a pinner's bonus, and the speed of
a charge read from the movement recorded this round (002 "Multiple Attackers", "Forcing
opponents back", "Grappling", "Charge opponent"; rules-decisions "Melee manoeuvres on the
map").

>>> from core.model.grid import Cell
>>> path = (Cell(0, 0), Cell(1, 0), Cell(2, 1), Cell(3, 1), Cell(4, 2), Cell(4, 3))
>>> straight_run(path)  # the step south ends the E/SE line: only SE + S is straight
(Cell(x=3, y=1), Cell(x=4, y=2), Cell(x=4, y=3))
>>> straight_run(path[:5])
(Cell(x=0, y=0), Cell(x=1, y=0), Cell(x=2, y=1), Cell(x=3, y=1), Cell(x=4, y=2))
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from core.model.breakdown import Term
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, Footprint, direction_between, step_costs_ft
from core.model.melee import AcPenalty, HoldKind
from core.model.profile import RulesProfile
from core.model.round import InitiativeEntry
from core.model.weapons import Weapon
from core.rules.conditions import helpless
from core.rules.holds import hold_between, weapon_refusal
from core.rules.ratings import Ratings, ratings
from core.rules.timeline import strike_segment
from core.spatial.geometry import geometry_of

MULTIPLE = "002 Multiple Attackers: 'Each character gains +1 attack skill for each attacker " \
           "(including himself)'"


class IllegalManoeuvreError(ValueError):
    """The manoeuvre cannot be attempted as asked; the message says why."""


# --- engaged ---------------------------------------------------------------------------------
def open_contact(encounter: Encounter, a: Footprint, b: Footprint) -> bool:
    """Some cell of ``a`` can step into a cell of ``b`` without crossing a wall."""
    geometry = geometry_of(encounter)
    for cell in a.cells():
        for direction in Direction:
            dx, dy = direction.delta
            if (Footprint(cell.x + dx, cell.y + dy, 1).overlaps(b)
                    and not geometry.move_blocked(cell, direction)):
                return True
    return False


def engaged(encounter: Encounter, a: Token, b: Token) -> bool:
    """Adjacent footprints with no wall between them (rules-decisions "Multiple attackers":
    "engaged with (adjacent to)")."""
    return a.footprint.adjacent(b.footprint) and open_contact(encounter, a.footprint,
                                                              b.footprint)


def require_engaged(encounter: Encounter, a: Token, b: Token) -> None:
    """IllegalManoeuvreError unless ``a`` and ``b`` are engaged."""
    if a.id == b.id:
        raise IllegalManoeuvreError(f"{a.name} cannot do that to itself")
    gap = a.footprint.gap(b.footprint)
    if gap != 0:
        raise IllegalManoeuvreError(f"{a.name} is not next to {b.name} ({gap} cell(s) "
                                    "between them); move closer first")
    if not open_contact(encounter, a.footprint, b.footprint):
        raise IllegalManoeuvreError(f"a wall stands between {a.name} and {b.name}")


def able(combatant: Combatant) -> bool:
    """On its feet and fighting: not Prone, not knocked out, HP above 0 (rules-decisions
    "Evading": "an able enemy (not Prone, not KO)")."""
    return (not combatant.has(Condition.PRONE) and not helpless(combatant)
            and combatant.hp > 0)


def enemies(a: Combatant, b: Combatant) -> bool:
    return a.side is not b.side


# --- attack terms ----------------------------------------------------------------------------
def multiple_attackers(encounter: Encounter, attacker: Token, defender: Token
                       ) -> tuple[Term, ...]:
    """+1 per creature of the attacker's side engaged with the target, the attacker included,
    when at least ``multiple_attackers_min`` (2) are (rules-decisions "Multiple attackers").
    Allies count when able (:func:`able`); the attacker counts whatever its reach."""
    profile = encounter.profile
    side = attacker.combatant.side
    count = 1 + sum(1 for t in encounter.neighbours(defender, 1)  # next to it, from the index
                    if t.id != attacker.id and t.combatant.side is side
                    and able(t.combatant) and engaged(encounter, t, defender))
    if count < profile.multiple_attackers_min or not profile.multiple_attackers_bonus:
        return ()
    return (Term(f"Multiple attackers ({count})", count * profile.multiple_attackers_bonus,
                 MULTIPLE),)


def penalty_active(encounter: Encounter, penalty: AcPenalty) -> bool:
    """Until the creature's next action: all of the rounds before ``until_round``, and that
    round until the timeline reaches the segment it strikes in."""
    state = encounter.timeline
    if state.round_number != penalty.until_round:
        return state.round_number < penalty.until_round
    entry = next((e for e in state.entries if e.token_id == penalty.token_id), None)
    return entry is None or state.current_segment < strike_segment(entry, encounter.profile)


def guard_terms(encounter: Encounter, token_id: str) -> tuple[Term, ...]:
    """The token's AC penalties that still hold (forcing back: "for every failure level the
    attacker loses one from their armour class", 002), and its multiple attacks declared
    this round (:func:`multiple_attacks_terms`)."""
    lowered = tuple(Term(p.reason or "Lowered guard", p.value,
                         "002 Forcing opponents back: −1 AC per failure level")
                    for p in encounter.timeline.ac_penalties
                    if p.token_id == token_id and penalty_active(encounter, p))
    return (*lowered, *multiple_attacks_terms(encounter, token_id))


def _declared(encounter: Encounter, token_id: str) -> InitiativeEntry | None:
    return next((e for e in encounter.timeline.entries if e.token_id == token_id), None)


def multiple_attacks_terms(encounter: Encounter, token_id: str) -> tuple[Term, ...]:
    """002 Multiple Attacks: "every extra attack not only suffers -3 to each attack but also
    -3 to your parry skill" — on each of its attacks and on its defence, all round."""
    entry, penalty = _declared(encounter, token_id), encounter.profile.multiple_attack_penalty
    if entry is None or not entry.extra_attacks or not penalty:
        return ()
    return (Term(f"{entry.extra_attacks + 1} attacks declared", -penalty * entry.extra_attacks,
                 "002 Multiple Attacks: −3 for every extra attack"),)


def standing_terms(encounter: Encounter, token_id: str) -> tuple[Term, ...]:
    """002 Not attacking: "you may not want to attack but just try to defend yourself ...
    Whichever defence used method you gain +2" — against melee, all round."""
    entry, bonus = _declared(encounter, token_id), encounter.profile.stand_to_defend_bonus
    if entry is None or not entry.stands_to_defend or not bonus:
        return ()
    return (Term("Standing to defend", bonus, "002 Not attacking: +2"),)


def pin_terms(encounter: Encounter, attacker: Token, defender: Token) -> tuple[Term, ...]:
    """002 Takedown: "Get someone from a standing to pinned position on the floor. +1 to
    your attacks" — against the creature pinned."""
    hold = hold_between(encounter, attacker.id, defender.id)
    bonus = encounter.profile.pin_attack_bonus
    if hold is None or hold.kind is not HoldKind.PIN or hold.holder != attacker.id or not bonus:
        return ()
    return (Term(f"Pinning {defender.name}", bonus, "002 Grappling: Takedown +1 to your "
                                                    "attacks"),)


def attack_terms(encounter: Encounter, attacker: Token, defender: Token,
                 weapon: Weapon | None, missile: bool
                 ) -> tuple[tuple[Term, ...], tuple[Term, ...]]:
    """The map's terms for an attack: (to the hit roll, to the target's AC). A melee attack
    takes the multiple attackers bonus and the pinner's +1; any attack meets the target's
    lowered guard. IllegalManoeuvreError when a hold forbids the weapon (002 Grappling)."""
    refusal = weapon_refusal(encounter, attacker.id, weapon)
    if refusal:
        raise IllegalManoeuvreError(refusal)
    hit = () if missile else (*multiple_attackers(encounter, attacker, defender),
                              *pin_terms(encounter, attacker, defender))
    standing = () if missile else standing_terms(encounter, defender.id)
    return hit, (*guard_terms(encounter, defender.id), *standing)


def defence_terms(encounter: Encounter, token_id: str) -> tuple[Term, ...]:
    """The round's additions to a creature's AC: scarpering's +2 (002 Scarper), standing to
    defend, a lowered guard and multiple attacks — for the manoeuvres that roll against
    AC."""
    entry = next((e for e in encounter.timeline.entries if e.token_id == token_id), None)
    scarper = (Term("Scarpering", entry.defence_bonus, "002 Scarper: defence +2"),) \
        if entry is not None and entry.defence_bonus else ()
    return (*scarper, *standing_terms(encounter, token_id), *guard_terms(encounter, token_id))


def ratings_here(encounter: Encounter, token_id: str) -> Ratings:
    """The token's ratings with its AC as the round has it now (:func:`defence_terms`)."""
    base = ratings(encounter.token(token_id).combatant, encounter.profile)
    return base.model_copy(update={"ac": base.ac.plus(*defence_terms(encounter, token_id))})


# --- speed -----------------------------------------------------------------------------------
def _one_line(directions: set[Direction]) -> bool:
    """One way, or two ways 45° apart: how any straight line is drawn on the grid."""
    if len(directions) != 2:
        return len(directions) < 2
    first, second = (d.bearing for d in directions)
    return abs(first - second) in (45, 315)


def straight_run(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """The last stretch of a path that goes one way or two neighbouring ways (a straight line
    drawn on the grid): "needs a straight run this round before contact" (rules-decisions
    "Charge / knockdown")."""
    start, ways = len(cells) - 1, set[Direction]()
    while start > 0:
        step = direction_between(cells[start - 1], cells[start])
        if not _one_line(ways | {step}):
            break
        ways.add(step)
        start -= 1
    return cells[max(start, 0):]


def path_feet(cells: tuple[Cell, ...], profile: RulesProfile) -> float:
    """Feet along a path of anchors by the diagonal rule (a distance, not a movement cost)."""
    steps = [direction_between(a, b) for a, b in pairwise(cells)]
    return float(sum(step_costs_ft(steps, profile.cell_size_ft, profile.diagonal_rule)))


def recorded_path(encounter: Encounter, token_id: str) -> tuple[Cell, ...]:
    """The cells the token walked this round, if it still stands at their end (moves in one
    round join up, :class:`core.actions.round.RecordMovement`); else just where it is."""
    token = encounter.token(token_id)
    entry = next((e for e in encounter.timeline.entries if e.token_id == token_id), None)
    if entry is not None and entry.path and entry.path[-1] == token.cell:
        return entry.path
    return (token.cell,)


def speed_step(run_ft: float, profile: RulesProfile) -> int:
    """0 walking, 1 running (more than ``run_over_ft``), 2 sprinting (more than
    ``sprint_over_ft``) — 002 Charge: "Run = >10' (+2)", "Sprint = >20' (+4)"."""
    if run_ft > profile.sprint_over_ft:
        return 2
    return 1 if run_ft > profile.run_over_ft else 0


def speed_terms(run_ft: float, profile: RulesProfile) -> tuple[Term, ...]:
    """The charge's speed bonus as a term (none when walking)."""
    step = speed_step(run_ft, profile)
    if step == 2:
        return (Term(f"Sprint ({run_ft:g} ft straight)", profile.sprint_bonus,
                     f"002 Charge: Sprint = >{profile.sprint_over_ft}' (+4)"),)
    if step == 1:
        return (Term(f"Run ({run_ft:g} ft straight)", profile.run_bonus,
                     f"002 Charge: Run = >{profile.run_over_ft}' (+2)"),)
    return ()


# --- chances -----------------------------------------------------------------------------
def chance_at_least(bonus: int, target: int) -> Fraction:
    """P(d20 + bonus ≥ target), exactly.

    >>> chance_at_least(2, 12), chance_at_least(0, 25), chance_at_least(0, -3)
    (Fraction(11, 20), Fraction(0, 1), Fraction(1, 1))
    """
    return Fraction(min(max(21 - (target - bonus), 0), 20), 20)


def opposed_margins(attack_bonus: int, defence_bonus: int) -> dict[int, Fraction]:
    """P(A − D = m) for every margin m of two opposed rolls A = d20 + ``attack_bonus`` and
    D = d20 + ``defence_bonus``, exactly."""
    offset = attack_bonus - defence_bonus
    return {k + offset: Fraction(20 - abs(k), 400) for k in range(-19, 20)}
