"""Pop-up missile shots (002 "Pop-up missile shots": "If popping up from cover to take a shot this
is three actions, manouver, spot and shoot. Spot difficulty is a 9, failure indicates there
was no foe close enough to where you were looking for you to react to. The advantage is that
only enemies waiting for you to pop up at that location may target you. They can fire
irrespective of initiative.").

- **Manoeuvre**: the shooter pops up at a spot — where it stands, or one legal step from
  there (on the map, no wall, ledge or creature in the way: :func:`core.rules.shove.
  step_obstacle`) — and ducks back after the shot: its token does not move.
- **Spot**: d20 (+ its stun condition) ≥ ``popup_spot_target`` (9). Failing, no foe was
  close enough to where it looked: no shot.
- **Shoot**: the missile as loosed from the spot (range, cover and line of fire measured
  from there: :func:`core.rules.missile.resolve_missile` on the map with the shooter there).
- **Exposed**: the pop-up goes on the round's record; this round only enemies waiting on
  that spot (declared: ``RoundState.waiting``) may shoot at it there
  (:func:`core.rules.missile.seen_from`), whatever their initiative; the result names them.

Dice order: the Spot d20; when it succeeds, the missile's dice.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import ConfigDict

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, direction_between
from core.rules.conditions import save_terms
from core.rules.missile import IllegalMissileError, MissileRequest, MissileResult, resolve_missile
from core.rules.missile_odds import MissileOdds, missile_odds
from core.rules.shove import step_obstacle
from core.rules.value import RulesValue

SEED = "002 Pop-up missile shots"
D20 = 20


class PopUpRequest(RulesValue):
    """A shot declared as a pop-up from cover at ``spot`` (the shooter's top-left cell
    there)."""

    model_config = ConfigDict(extra="forbid")

    shot: MissileRequest
    spot: Cell


class PopUpResult(RulesValue):
    """The Spot check, the shot when there was one, and the enemies waiting on the spot."""

    shooter_id: str
    shooter: str
    spot: Cell
    roll: RollRecord
    check: Breakdown
    target: int
    missile: MissileResult | None = None
    exposed_to: tuple[str, ...] = ()
    exposed_names: tuple[str, ...] = ()

    @property
    def spotted(self) -> bool:
        return self.check.value >= self.target

    def summary(self) -> str:
        head = (f"{self.shooter} pops up at ({self.spot.x},{self.spot.y}): Spot "
                f"{self.check.value} vs {self.target}")
        if self.missile is None:
            return f"{head} — no foe close enough to react to, no shot"
        exposed = (f"; exposed to {', '.join(self.exposed_names)}" if self.exposed_names
                   else "; no one waits there")
        return f"{head} — {self.missile.summary()}{exposed}"


def from_the_spot(encounter: Encounter, request: PopUpRequest) -> Encounter:
    """The map as the shot sees it: the shooter at the spot (refused when it cannot pop up
    there)."""
    shooter = encounter.token(request.shot.attacker)
    spot = request.spot
    if spot == shooter.cell:
        return encounter
    refusal = spot_refusal(encounter, shooter, spot)
    if refusal:
        raise IllegalMissileError(refusal)
    seen = encounter.scratch_copy()
    seen.put_token(shooter.at(spot))
    return seen


def spot_refusal(encounter: Encounter, shooter: Token, spot: Cell) -> str | None:
    """Why ``shooter`` cannot pop up at ``spot`` (one legal step away or where it stands:
    002's "manoeuvre into position"), or None when it can."""
    if spot == shooter.cell:
        return None
    if max(abs(spot.x - shooter.x), abs(spot.y - shooter.y)) > 1:
        return (f"{shooter.name} pops up where it stands or one step away, not at "
                f"({spot.x},{spot.y})")
    blocked = step_obstacle(encounter, shooter, shooter.footprint, shooter.at(spot).footprint,
                            direction_between(shooter.cell, spot))
    if blocked is not None:
        return f"{shooter.name} cannot pop up at ({spot.x},{spot.y}): {blocked[1]} in the way"
    return None


def waiting_on(encounter: Encounter, shooter: Token, spot: Cell) -> list[Token]:
    """The shooter's enemies waiting this round for a foe to pop up on the spot."""
    exposed = set(shooter.at(spot).footprint.cells())
    state = encounter.timeline
    ids = {w.token_id for w in state.waiting
           if w.round_number == state.round_number and w.spot in exposed}
    return [t for t in encounter.tokens
            if t.id in ids and t.combatant.side is not shooter.combatant.side]


def spot_terms(encounter: Encounter, shooter: Token) -> tuple[Breakdown, int]:
    """The Spot check's terms besides the d20, and its target."""
    return (Breakdown.of(*save_terms(shooter.combatant, encounter.profile)),
            encounter.profile.popup_spot_target)


def resolve_pop_up(encounter: Encounter, request: PopUpRequest, dice: DiceSource
                   ) -> PopUpResult:
    """Pop up, spot, shoot (or not), without changing the encounter."""
    seen = from_the_spot(encounter, request)
    shooter = encounter.token(request.shot.attacker)
    terms, target = spot_terms(encounter, shooter)
    roll = dice.roll("d20", f"{shooter.name} Spot on popping up")
    check = Breakdown.of(Term("d20", roll.total, f"{SEED}: Spot difficulty is a 9"),
                         *terms.terms)
    waiting = waiting_on(encounter, shooter, request.spot)
    result = PopUpResult(shooter_id=shooter.id, shooter=shooter.name, spot=request.spot,
                         roll=roll, check=check, target=target,
                         exposed_to=tuple(t.id for t in waiting),
                         exposed_names=tuple(t.name for t in waiting))
    if not result.spotted:
        return result
    return result.model_copy(update={"missile": resolve_missile(seen, request.shot, dice)})


def pop_up_odds(encounter: Encounter, request: PopUpRequest) -> tuple[Fraction, MissileOdds]:
    """The exact chance the Spot check succeeds, and the shot's odds from the spot."""
    seen = from_the_spot(encounter, request)
    terms, target = spot_terms(encounter, encounter.token(request.shot.attacker))
    spotted = Fraction(sum(1 for face in range(1, D20 + 1) if face + terms.value >= target),
                       D20)
    return spotted, missile_odds(seen, request.shot)
