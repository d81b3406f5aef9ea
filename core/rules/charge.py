"""Charge and knockdown (002 "Knockdown (No damage)": "This is an attempt to knock the
opponent over by charging at them"; "Charge opponent (you have to run or sprint) If you hit
(Brawl vs Dodge) then the damage effect is on the stun table using an opposed roll depending
upon your speed & bulk": "Run = >10' (+2)", "Sprint = >20' (+4)", "Brawl+Con+Height diff
(3") + speed", "Loser takes difference as stun effect but there is no KO result", "If equal
both are dazed"; rules-decisions "Charge / knockdown").

The speed comes from the straight stretch at the end of the movement recorded this round
(:func:`core.rules.melee.recorded_path`, :func:`~core.rules.melee.straight_run`); the GM may
declare a run instead (a charge begun off the map). :func:`resolve_charge` is pure. Dice
order: the charger's hit d20; on a hit the charger's d20, then the defender's d20.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from pydantic import Field

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.profile import RulesProfile
from core.rules.conditions import roll_penalty
from core.rules.melee import (
    IllegalManoeuvreError,
    chance_at_least,
    defence_terms,
    opposed_margins,
    path_feet,
    recorded_path,
    require_engaged,
    speed_step,
    speed_terms,
    straight_run,
)
from core.rules.ratings import armour_class, force_rating
from core.rules.stun import StunEffect, stun_effect
from core.rules.turns import require_turn
from core.rules.value import RulesValue

SEED = "002 Charge opponent"
BOTH_DAZED = frozenset({Condition.DAZED})


class ChargeRequest(RulesValue):
    """Who charges whom; ``run_ft`` declares the straight run instead of the recorded one."""

    attacker: str
    defender: str
    run_ft: float | None = Field(None, ge=0, le=1000)
    modifier: int = 0


class ChargeSetup(RulesValue):
    """Everything about a charge that does not depend on the dice."""

    attacker: Token
    defender: Token
    run_ft: float
    hit_terms: Breakdown
    target_ac: Breakdown
    charger_terms: Breakdown
    resister_terms: Breakdown


def run_of(encounter: Encounter, token_id: str) -> float:
    """Feet of the straight stretch that ends the token's recorded movement this round."""
    return path_feet(straight_run(recorded_path(encounter, token_id)), encounter.profile)


def prepare_charge(encounter: Encounter, request: ChargeRequest) -> ChargeSetup:
    """Check the charge can be made (in contact after a run or a sprint) and work out the
    terms."""
    attacker, defender = encounter.token(request.attacker), encounter.token(request.defender)
    require_engaged(encounter, attacker, defender)
    require_turn(encounter, attacker.id)
    profile = encounter.profile
    run = request.run_ft if request.run_ft is not None else run_of(encounter, attacker.id)
    if speed_step(run, profile) == 0:
        raise IllegalManoeuvreError(
            f"{attacker.name} needs a straight run of more than {profile.run_over_ft} ft "
            f"before contact to charge (it ran {run:g} ft this round)")
    speed = speed_terms(run, profile)
    a, d = attacker.combatant, defender.combatant
    situational = (Term("Situational", request.modifier, "GM"),) if request.modifier else ()
    return ChargeSetup(
        attacker=attacker, defender=defender, run_ft=run,
        hit_terms=Breakdown.of(*force_rating(a, profile).terms, *speed,
                               *roll_penalty(a, profile), *situational),
        target_ac=armour_class(d, profile).plus(*defence_terms(encounter, defender.id)),
        charger_terms=_bulk(a, d, profile).plus(*speed),
        resister_terms=_bulk(d, a, profile))


def _bulk(c: Combatant, foe: Combatant, profile: RulesProfile) -> Breakdown:
    """FR + CON modifier + 2 per size category larger than the foe (002 "Brawl+Con+Height
    diff"; RD "2 × size categories larger") and the stun penalty."""
    larger = c.size.rank - foe.size.rank
    size = ([Term(f"{larger} size categor{'y' if larger == 1 else 'ies'} larger",
                  larger * profile.charge_per_size_category, "RD Charge: 2 × size")]
            if larger > 0 else [])
    return Breakdown.of(Term("FR", force_rating(c, profile).value, "002 Charge: Brawl"),
                        Term("CON modifier", profile.ability_modifier(
                            c.abilities.constitution), "002 Charge: Con"),
                        *size, *roll_penalty(c, profile))


def knockdown_effect(margin: int, profile: RulesProfile) -> tuple[frozenset[Condition],
                                                                  frozenset[Condition]]:
    """The opposed roll's margin (charger − defender) as (charger's, defender's) conditions:
    the loser takes the difference as failure levels on the stun table without KO; equal,
    both Dazed."""
    if margin == 0:
        return BOTH_DAZED, BOTH_DAZED
    hurt = stun_effect(profile.failure_rank(abs(margin)), profile, knockout=False).conditions
    return (frozenset(), hurt) if margin > 0 else (hurt, frozenset())


class ChargeResult(RulesValue):
    """A charge, step by step."""

    attacker: str
    defender: str
    attacker_id: str
    defender_id: str
    run_ft: float
    hit_roll: RollRecord
    to_hit: Breakdown
    target_ac: Breakdown
    hit: bool
    charger_roll: RollRecord | None = None
    resister_roll: RollRecord | None = None
    charger: Breakdown | None = None
    resister: Breakdown | None = None
    attacker_gains: frozenset[Condition] = frozenset()
    defender_gains: frozenset[Condition] = frozenset()
    stun: StunEffect | None = None

    def summary(self) -> str:
        head = (f"{self.attacker} charges {self.defender} ({self.run_ft:g} ft run): "
                f"{self.to_hit.value} vs AC {self.target_ac.value}")
        if not self.hit:
            return f"{head} — misses"
        assert self.charger is not None and self.resister is not None
        duel = f"{self.charger.value} vs {self.resister.value}"
        if self.attacker_gains and self.defender_gains:
            return f"{head} — hits; {duel}: both dazed"
        loser, gains = ((self.defender, self.defender_gains) if self.defender_gains
                        else (self.attacker, self.attacker_gains))
        return (f"{head} — hits; {duel}: {loser} "
                f"{', '.join(sorted(c.value for c in gains))}")


def resolve_charge(encounter: Encounter, request: ChargeRequest, dice: DiceSource
                   ) -> ChargeResult:
    """Resolve a charge without changing the encounter."""
    setup = prepare_charge(encounter, request)
    a, d = setup.attacker, setup.defender
    roll = dice.roll("d20", f"{a.name} charge hit (d20 + FR + speed)")
    to_hit = Breakdown.of(Term("d20", roll.total, SEED), *setup.hit_terms.terms)
    base = ChargeResult(attacker=a.name, defender=d.name, attacker_id=a.id, defender_id=d.id,
                        run_ft=setup.run_ft, hit_roll=roll, to_hit=to_hit,
                        target_ac=setup.target_ac, hit=to_hit.value >= setup.target_ac.value)
    if not base.hit:
        return base
    charger_roll = dice.roll("d20", f"{a.name} knockdown (opposed)")
    resister_roll = dice.roll("d20", f"{d.name} stands firm (opposed)")
    charger = Breakdown.of(Term("d20", charger_roll.total, SEED), *setup.charger_terms.terms)
    resister = Breakdown.of(Term("d20", resister_roll.total, SEED),
                            *setup.resister_terms.terms)
    margin = charger.value - resister.value
    mine, theirs = knockdown_effect(margin, encounter.profile)
    stun = stun_effect(encounter.profile.failure_rank(abs(margin)) or 1, encounter.profile,
                       knockout=False)
    return base.model_copy(update={
        "charger_roll": charger_roll, "resister_roll": resister_roll, "charger": charger,
        "resister": resister, "attacker_gains": mine, "defender_gains": theirs,
        "stun": stun})


class ChargeOdds(RulesValue):
    """Exact chances of a charge: the hit, and each side's result on the stun table."""

    run_ft: float
    hit: Fraction
    defender_falls: Fraction
    defender: dict[str, Fraction]
    attacker: dict[str, Fraction]


def charge_odds(encounter: Encounter, request: ChargeRequest) -> ChargeOdds:
    """The hit's d20 and the opposed pair (400) enumerated exactly."""
    setup = prepare_charge(encounter, request)
    profile = encounter.profile
    hit = chance_at_least(setup.hit_terms.value, setup.target_ac.value)
    sides: tuple[dict[str, Fraction], dict[str, Fraction]] = (defaultdict(Fraction),
                                                              defaultdict(Fraction))
    for margin, p in opposed_margins(setup.charger_terms.value,
                                     setup.resister_terms.value).items():
        for side, gained in zip(sides, knockdown_effect(margin, profile), strict=True):
            side[_name(gained)] += hit * p
    mine, theirs = sides
    return ChargeOdds(run_ft=setup.run_ft, hit=hit, defender=dict(theirs), attacker=dict(mine),
                      defender_falls=theirs.get(_name(frozenset({Condition.KNOCKDOWN,
                                                                 Condition.PRONE})), Fraction(0)))


def _name(conditions: frozenset[Condition]) -> str:
    return ", ".join(sorted(c.value for c in conditions)) or "unharmed"
