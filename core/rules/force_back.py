"""Forcing opponents back (002 "Forcing opponents back": "The attacker makes a manoeuvre roll
against the opponents attack level, for every point over the defender is forced back by 1',
for every failure level the attacker loses one from their armour class"; rules-decisions
"Melee manoeuvres on the map": "d20 + HR vs 10 + defender HR ... along plan_push: walls stop
it without a slam; hazards trigger the Pit-Stop save ... The attacker may step into the space
left").

:func:`resolve_force_back` is pure; :class:`core.actions.force_back.ForceBackAction` applies
it. Dice order: the attacker's d20; the Pit-Stop d20 and the hazard's dice when the walk
reaches a hazard.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from core.model.breakdown import Breakdown, Term
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction, allowed_directions, straight_away
from core.model.melee import AcPenalty
from core.rules.conditions import roll_penalty, save_terms
from core.rules.melee import IllegalManoeuvreError, chance_at_least, require_engaged
from core.rules.ratings import hit_rating
from core.rules.shove import HazardOutcome, Push, StopReason, pit_stop, plan_push
from core.rules.turns import require_turn
from core.rules.value import RulesValue

SEED = "002 Forcing opponents back"


class ForceBackRequest(RulesValue):
    """What the GM declares: who forces whom back, which way (default straight away), and
    whether the attacker steps into the space left."""

    attacker: str
    defender: str
    direction: Direction | None = None
    follow: bool = False
    modifier: int = 0


class ForceBackSetup(RulesValue):
    """Everything about forcing back that does not depend on the dice."""

    attacker: Token
    defender: Token
    direction: Direction
    follow: bool
    attack_terms: Breakdown
    target: Breakdown


def prepare_force_back(encounter: Encounter, request: ForceBackRequest) -> ForceBackSetup:
    """Check it can be tried (engaged, a direction within the shove's spread of straight
    away) and work out the terms."""
    attacker, defender = encounter.token(request.attacker), encounter.token(request.defender)
    require_engaged(encounter, attacker, defender)
    require_turn(encounter, attacker.id)
    profile = encounter.profile
    away = straight_away(attacker.footprint, defender.footprint)
    direction = request.direction or away
    allowed = allowed_directions(attacker.footprint, defender.footprint,
                                 profile.direction_spread_deg)
    if direction not in allowed:
        raise IllegalManoeuvreError(f"{direction} is not within {profile.direction_spread_deg}° "
                                    f"of straight away; allowed: {', '.join(allowed)}")
    terms = [*hit_rating(attacker.combatant, profile).terms,
             *roll_penalty(attacker.combatant, profile)]
    if request.modifier:
        terms.append(Term("Situational", request.modifier, "GM"))
    target = Breakdown.of(Term("Base", profile.force_back_base, "RD: 10 + defender HR"),
                          *(Term(f"Defender {t.name}", t.value, t.source) for t in
                            hit_rating(defender.combatant, profile).terms),
                          *(Term(f"Defender {t.name}", t.value, t.source) for t in
                            roll_penalty(defender.combatant, profile)))
    return ForceBackSetup(attacker=attacker, defender=defender, direction=direction,
                          follow=request.follow, attack_terms=Breakdown.of(*terms),
                          target=target)


class ForceBackResult(RulesValue):
    """Forcing back, step by step."""

    attacker: str
    defender: str
    attacker_id: str
    defender_id: str
    roll: RollRecord
    attack: Breakdown
    target: Breakdown
    margin: int
    direction: Direction
    distance_ft: int = 0
    path: tuple[Cell, ...] = ()
    moved_ft: float = 0
    stop_reason: StopReason = StopReason.NONE
    stopped_by: str = ""
    hazard: HazardOutcome | None = None
    final_cell: Cell
    attacker_path: tuple[Cell, ...] = ()
    failure_level: str | None = None
    ac_penalty: AcPenalty | None = None

    @property
    def attacker_cell(self) -> Cell | None:
        return self.attacker_path[-1] if len(self.attacker_path) > 1 else None

    def summary(self) -> str:
        if self.ac_penalty is not None:
            return (f"{self.attacker} fails to force {self.defender} back ({self.attack.value}"
                    f" vs {self.target.value}, {self.failure_level}): AC "
                    f"{self.ac_penalty.value:+d} until its next action")
        moved = f" {self.moved_ft:g} ft {self.direction}" if self.moved_ft else ""
        follows = f"; {self.attacker} follows" if self.attacker_cell else ""
        return (f"{self.attacker} forces {self.defender} back{moved} — {self.distance_ft} ft "
                f"over{self._stop()}{follows}")

    def _stop(self) -> str:
        if self.hazard is not None:
            return (f", catches the edge of {self.hazard.name}" if self.hazard.saved else
                    f", falls into {self.hazard.name}: {self.hazard.damage.value} damage")
        if self.stop_reason not in (StopReason.FULL_DISTANCE, StopReason.NONE):
            return f", stopped by the {self.stopped_by} (no slam)"
        return "" if self.moved_ft else ": too little to move it a cell"

    @property
    def damage(self) -> int:
        return self.hazard.damage.value if self.hazard and not self.hazard.saved else 0


def resolve_force_back(encounter: Encounter, request: ForceBackRequest, dice: DiceSource
                       ) -> ForceBackResult:
    """Resolve forcing back without changing the encounter."""
    setup = prepare_force_back(encounter, request)
    a, d, profile = setup.attacker, setup.defender, encounter.profile
    roll = dice.roll("d20", f"{a.name} forces back (d20 + HR)")
    attack = Breakdown.of(Term("d20", roll.total, SEED), *setup.attack_terms.terms)
    margin = attack.value - setup.target.value
    base = {"attacker": a.name, "defender": d.name, "attacker_id": a.id, "defender_id": d.id,
            "roll": roll, "attack": attack, "target": setup.target, "margin": margin,
            "direction": setup.direction, "final_cell": d.cell}
    if margin < 0:
        return ForceBackResult(**base, failure_level=profile.failure_level(-margin),
                               ac_penalty=guard_penalty(encounter, a, -margin))
    distance = margin * profile.force_back_ft_per_point
    push = plan_push(encounter, d, setup.direction, distance)
    hazard = pit_stop(d, push.hazard, profile, dice) if push.hazard is not None else None
    final = push.hazard_cell if hazard is not None and not hazard.saved else push.path[-1]
    assert final is not None
    return ForceBackResult(
        **base | {"final_cell": final}, distance_ft=distance, path=push.path,
        moved_ft=push.moved_ft, stop_reason=push.stop_reason, stopped_by=push.stopped_by,
        hazard=hazard, attacker_path=follow_path(encounter, setup, push, final))


def guard_penalty(encounter: Encounter, attacker: Token, failed_by: int) -> AcPenalty:
    """Failing by ``failed_by`` costs ``force_back_ac_per_level`` AC per failure level until
    the attacker's next action (its strike in the next round)."""
    profile = encounter.profile
    levels = profile.failure_rank(failed_by)
    return AcPenalty(token_id=attacker.id, value=-levels * profile.force_back_ac_per_level,
                     until_round=encounter.timeline.round_number + 1,
                     reason=f"Forcing back failed ({profile.failure_level(failed_by)})")


def follow_path(encounter: Encounter, setup: ForceBackSetup, push: Push, defender_at: Cell
                ) -> tuple[Cell, ...]:
    """The attacker stepping into the space left: the same feet the same way, walked by the
    shove engine with the defender where it ended (it stops before walls, creatures and
    hazards)."""
    if not setup.follow or push.moved_ft <= 0:
        return ()
    scratch = encounter.scratch_copy()
    scratch.put_token(setup.defender.at(defender_at))
    return plan_push(scratch, setup.attacker, setup.direction, push.moved_ft).path


# --- odds -------------------------------------------------------------------------------------
class ForceBackOdds(RulesValue):
    """Exact chances: success, the defender's and the attacker's landing cells, a fall into a
    hazard, and the AC the attacker may lose."""

    attack_bonus: int
    target: int
    success: Fraction
    landing: dict[Cell, Fraction]
    attacker_landing: dict[Cell, Fraction]
    into_hazard: Fraction
    ac_loss: dict[int, Fraction]


def force_back_odds(encounter: Encounter, request: ForceBackRequest) -> ForceBackOdds:
    """Each d20 face through the same walk as the resolver; the Pit-Stop save by its chance."""
    setup = prepare_force_back(encounter, request)
    profile = encounter.profile
    landing: dict[Cell, Fraction] = defaultdict(Fraction)
    follows: dict[Cell, Fraction] = defaultdict(Fraction)
    ac_loss: dict[int, Fraction] = defaultdict(Fraction)
    into, p = Fraction(0), Fraction(1, 20)
    for face in range(1, 21):
        margin = face + setup.attack_terms.value - setup.target.value
        if margin < 0:
            ac_loss[guard_penalty(encounter, setup.attacker, -margin).value] += p
            landing[setup.defender.cell] += p
            follows[setup.attacker.cell] += p
            continue
        into += _add_walk(encounter, setup, margin * profile.force_back_ft_per_point, p,
                          (landing, follows))
    return ForceBackOdds(attack_bonus=setup.attack_terms.value, target=setup.target.value,
                         success=chance_at_least(setup.attack_terms.value, setup.target.value),
                         landing=_nonzero(landing), attacker_landing=_nonzero(follows),
                         into_hazard=into, ac_loss=dict(ac_loss))


def _add_walk(encounter: Encounter, setup: ForceBackSetup, distance: int, p: Fraction,
              cells: tuple[dict[Cell, Fraction], dict[Cell, Fraction]]) -> Fraction:
    """Add one distance's landings (the defender's and a following attacker's); the chance
    of falling into a hazard it adds."""
    landing, follows = cells
    d = setup.defender
    push = plan_push(encounter, d, setup.direction, distance)
    falls = Fraction(0)
    if push.hazard is not None and push.hazard_cell is not None:
        save = sum(t.value for t in save_terms(d.combatant, encounter.profile))
        falls = p * (1 - chance_at_least(save, d.combatant.death_ray_save))
    ends = ((push.hazard_cell, falls), (push.path[-1], p - falls))
    for cell, q in ends:
        if cell is not None and q:
            landing[cell] += q
            path = follow_path(encounter, setup, push, cell)
            follows[path[-1] if path else setup.attacker.cell] += q
    return falls


def _nonzero(cells: dict[Cell, Fraction]) -> dict[Cell, Fraction]:
    return {cell: p for cell, p in cells.items() if p}
