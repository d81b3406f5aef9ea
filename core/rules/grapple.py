"""Grappling on the map (002 "Grappling"; 000 "FR replaces the Wrestling Rating", "Armor
Wrestling Penalties"; rules-decisions "Melee manoeuvres on the map: Grappling" and
"Clarifications ... Throws").

002: "Grappling is always an opposed action agaist the others brawling roll. If both
parties are grappling then they automatically end up in at least a hold. You choose you
attack type". Each side rolls d20 + wrestling FR (:func:`core.rules.ratings
.wrestling_force_rating`); the attempt's figure (Throw +3, Takedown +3, Lock +5, Improve lock
+4, Escape +4 or +2) is added to the defender's total. With A the attacker's total, D the
defender's without the figure and F the figure:

- A > D + F: the attempt succeeds;
- D ≤ A ≤ D + F (a tie, or a plain win that does not beat the figure): a mutual standing
  hold — 002 "Holds: ... This is the default if nothing else is successful";
- A < D: it fails; a hold already in place stays.

:func:`resolve_grapple` is pure; :class:`core.actions.grapple.GrappleAction` applies it.
Dice order: the attacker's d20, the defender's d20; on a successful throw the throw's d2,
then the slam's shove die (a wall on that side) or the Pit-Stop d20 and the hazard's dice,
then the thrown creature's stun check d20; on a successful lock or improved lock the lock's
d4.
"""

from __future__ import annotations

from collections import defaultdict
from enum import StrEnum
from fractions import Fraction

from pydantic import Field

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.model.grid import Cell, Direction
from core.model.melee import Hold, HoldKind
from core.model.profile import RulesProfile
from core.rules.attack import AttackResult
from core.rules.conditions import down, roll_penalty, save_terms
from core.rules.damage import damage_after_armour
from core.rules.holds import (
    describe,
    hold_between,
    holds_of,
    is_held,
    locked_by,
    partner,
)
from core.rules.melee import (
    IllegalManoeuvreError,
    chance_at_least,
    opposed_margins,
    require_engaged,
)
from core.rules.ratings import (
    armour_value,
    can_be_thrown_by,
    can_initiate_grapple,
    escape_bonus,
    maintain_bonus,
    wrestling_force_rating,
)
from core.rules.shove import (
    HazardOutcome,
    Push,
    StopReason,
    pit_stop,
    plan_push,
    shove_die,
    size_penalty,
    slams,
)
from core.rules.stun import StunCheck, stun_check
from core.rules.turns import require_turn
from core.rules.value import RulesValue

SEED = "002 Grappling"


class GrappleAttempt(StrEnum):
    """The attack type the grappler chooses (002 Grappling)."""

    HOLD = "hold"
    THROW = "throw"
    TAKEDOWN = "takedown"
    LOCK = "lock"
    IMPROVE_LOCK = "improve-lock"
    ESCAPE = "escape"


MARTIAL = (GrappleAttempt.TAKEDOWN, GrappleAttempt.LOCK, GrappleAttempt.IMPROVE_LOCK)


class GrappleBand(StrEnum):
    SUCCESS = "success"
    HOLD = "mutual hold"
    FAIL = "fail"


class GrappleRequest(RulesValue):
    """What the GM declares: who grapples whom, the attempt, where a throw sends the
    defender (a direction from it), and whether the holder is changing its hold (an
    escape's easier figure)."""

    attacker: str
    defender: str
    attempt: GrappleAttempt = GrappleAttempt.HOLD
    throw_direction: Direction | None = None
    holder_changing: bool = False
    modifier: int = 0


class GrappleSetup(RulesValue):
    """Everything about a grapple that does not depend on the dice."""

    attacker: Token
    defender: Token
    attempt: GrappleAttempt
    existing: Hold | None
    attack_terms: Breakdown
    defence_terms: Breakdown
    figure: int
    direction: Direction | None = None
    landing: Push | None = None
    slam_die: str | None = None


def figure(attempt: GrappleAttempt, holder_changing: bool, profile: RulesProfile) -> int:
    """The attempt's figure, added to the defender's total (002: Throw (+3), Takedown (+3),
    Locks (+5), Improve Lock (+4), Escape (+4/+2))."""
    if attempt is GrappleAttempt.ESCAPE:
        return profile.escape_figure_holder_changing if holder_changing else \
            profile.escape_figure
    return {GrappleAttempt.HOLD: 0, GrappleAttempt.THROW: profile.throw_figure,
            GrappleAttempt.TAKEDOWN: profile.takedown_figure,
            GrappleAttempt.LOCK: profile.lock_figure,
            GrappleAttempt.IMPROVE_LOCK: profile.improve_lock_figure}[attempt]


def prepare_grapple(encounter: Encounter, request: GrappleRequest) -> GrappleSetup:
    """Check the attempt is allowed here and work out every dice-independent term
    (IllegalManoeuvreError says why it is not)."""
    attacker, defender = encounter.token(request.attacker), encounter.token(request.defender)
    require_engaged(encounter, attacker, defender)
    require_turn(encounter, attacker.id)
    existing = hold_between(encounter, attacker.id, defender.id)
    _check_attempt(encounter, attacker, defender, request, existing)
    profile = encounter.profile
    escaping = request.attempt is GrappleAttempt.ESCAPE
    extra = [Term("Situational", request.modifier, "GM")] if request.modifier else []
    if escaping and escape_bonus(attacker.combatant):
        extra.append(Term("Slippery (no armour)", escape_bonus(attacker.combatant),
                          "000 Armor Wrestling Penalties: Slippery +2 to Escape rolls"))
    resist: list[Term] = []
    if escaping and maintain_bonus(defender.combatant):
        resist.append(Term("Mesh Grip", maintain_bonus(defender.combatant),
                           "000 Armor Wrestling Penalties: Mesh Grip +1 to Maintain holds"))
    added = figure(request.attempt, request.holder_changing, profile)
    if added:
        resist.append(Term(f"{request.attempt.value.capitalize()} figure", added, SEED))
    setup = GrappleSetup(
        attacker=attacker, defender=defender, attempt=request.attempt, existing=existing,
        attack_terms=_wrestler(attacker.combatant, defender.combatant, profile).plus(*extra),
        defence_terms=_wrestler(defender.combatant, attacker.combatant, profile).plus(*resist),
        figure=added)
    if request.attempt is GrappleAttempt.THROW:
        return _with_landing(encounter, setup, request.throw_direction)
    return setup


def _wrestler(c: Combatant, foe: Combatant, profile: RulesProfile) -> Breakdown:
    """Wrestling FR, the stun penalty, and −4 per size category the foe is larger (000
    "Size and FR interaction", less Mastery as for shoves)."""
    larger = foe.size.rank - c.size.rank
    size = ([Term(f"Foe {larger} size categor{'y' if larger == 1 else 'ies'} larger",
                  size_penalty(larger, c.mastery_rank, profile), "000 Size and FR interaction")]
            if larger > 0 else [])
    return Breakdown.of(*wrestling_force_rating(c, profile).terms, *roll_penalty(c, profile),
                        *size)


def _check_attempt(encounter: Encounter, attacker: Token, defender: Token,
                   request: GrappleRequest, existing: Hold | None) -> None:
    attempt = request.attempt
    for token in (attacker, defender):
        other = next((h for h in holds_of(encounter, token.id) if h != existing), None)
        if other is not None:
            raise IllegalManoeuvreError(f"{token.name} is already grappling "
                                        f"({describe(encounter, other)})")
    if attempt is GrappleAttempt.ESCAPE:
        if existing is None or not is_held(existing, attacker.id):
            raise IllegalManoeuvreError(f"{attacker.name} is not held by {defender.name}")
        return
    if down(defender.combatant):
        raise IllegalManoeuvreError(f"{defender.name} is down: there is no fight left in it "
                                    "to grapple, throw or lock")
    if locked_by(encounter, attacker.id) is not None:
        raise IllegalManoeuvreError(f"{attacker.name} is caught in a lock: it may only escape")
    if existing is None and not can_initiate_grapple(attacker.combatant):
        raise IllegalManoeuvreError(f"{attacker.name} cannot start a grapple with a shield "
                                    "(000 Armor Wrestling Penalties)")
    if attempt in MARTIAL and not attacker.combatant.martial_artist:
        raise IllegalManoeuvreError(f"only martial artists can attempt a {attempt.value} "
                                    "(002 Grappling)")
    if attempt is GrappleAttempt.IMPROVE_LOCK and (
            existing is None or existing.kind is not HoldKind.LOCK
            or existing.holder != attacker.id):
        raise IllegalManoeuvreError(f"{attacker.name} has no lock on {defender.name} to "
                                    "improve")
    if attempt is GrappleAttempt.THROW and not can_be_thrown_by(defender.combatant,
                                                                 attacker.combatant):
        raise IllegalManoeuvreError(f"{defender.name}'s plate is Immovable: it cannot be "
                                    f"thrown by a same-size foe (000)")


def _with_landing(encounter: Encounter, setup: GrappleSetup, direction: Direction | None
                  ) -> GrappleSetup:
    """Where a throw in ``direction`` lands the defender: one step of the shove engine's
    walk (rules-decisions "Throws": "any free cell adjacent to the defender (not its own)";
    a wall that way slams, a hazard there asks the Pit-Stop save)."""
    if direction is None:
        raise IllegalManoeuvreError("a throw needs the direction to throw the defender")
    profile = encounter.profile
    landing = plan_push(encounter, setup.defender, direction, profile.cell_size_ft)
    if landing.stop_reason is StopReason.MAP_EDGE or (
            landing.stop_reason is StopReason.CREATURE and not slams(landing, profile)):
        raise IllegalManoeuvreError(f"{setup.defender.name} cannot be thrown {direction}: "
                                    f"{landing.stopped_by} is in the way")
    die = shove_die(encounter, setup.attacker, setup.defender)[0] \
        if slams(landing, profile) else None
    return setup.model_copy(update={"direction": direction, "landing": landing,
                                    "slam_die": die})


def band(setup: GrappleSetup, attack_total: int, defence_total: int) -> GrappleBand:
    """Which result two totals give (``defence_total`` includes the figure)."""
    if attack_total > defence_total:
        return GrappleBand.SUCCESS
    return GrappleBand.HOLD if attack_total >= defence_total - setup.figure else GrappleBand.FAIL


class ThrowOutcome(RulesValue):
    """Where the thrown creature ended and what it took."""

    direction: Direction
    final_cell: Cell
    throw_roll: RollRecord
    throw_damage: Breakdown
    slam_roll: RollRecord | None = None
    slam_damage: Breakdown | None = None
    stopped_by: str = ""
    hazard: HazardOutcome | None = None
    stun: StunCheck

    @property
    def impact(self) -> int:
        """The throw and the slam after AV: what the stun check is against."""
        return self.throw_damage.value + (self.slam_damage.value if self.slam_damage else 0)

    @property
    def total_damage(self) -> int:
        return self.impact + (self.hazard.damage.value if self.hazard else 0)


class GrappleResult(RulesValue):
    """A grapple, step by step."""

    attacker: str
    defender: str
    attacker_id: str
    defender_id: str
    attempt: GrappleAttempt
    attack_roll: RollRecord
    defence_roll: RollRecord
    attack: Breakdown
    defence: Breakdown
    band: GrappleBand
    hold: Hold | None
    throw: ThrowOutcome | None = None
    lock_roll: RollRecord | None = None
    gained: dict[str, frozenset[Condition]] = Field(default={})
    lost: dict[str, frozenset[Condition]] = Field(default={})
    first_strike: AttackResult | None = Field(None, description=(
        "The armed defender's strike before the attempt (002 Brawling)"))
    stopped: bool = Field(False, description="The first strike stopped the attempt")

    @property
    def defender_cell(self) -> Cell | None:
        return self.throw.final_cell if self.throw else None

    def summary(self) -> str:
        if self.stopped:
            return (f"{self.attacker} grapples {self.defender} ({self.attempt.value}): "
                    "stopped by the first strike (002 Brawling)")
        head = (f"{self.attacker} grapples {self.defender} ({self.attempt.value}): "
                f"{self.attack.value} vs {self.defence.value}")
        return f"{head} — {self._verdict()}"

    def _verdict(self) -> str:
        if self.band is GrappleBand.FAIL:
            return "fails" + (", the hold stays" if self.hold else "")
        if self.band is GrappleBand.HOLD:
            return "a mutual hold" if self.hold else "no change"
        if self.throw is not None:
            return _thrown(self.defender, self.throw)
        return {GrappleAttempt.HOLD: f"holds {self.defender}",
                GrappleAttempt.TAKEDOWN: f"takes {self.defender} down: pinned, Prone",
                GrappleAttempt.LOCK: f"locks {self.defender}: {self._lock()} a round",
                GrappleAttempt.IMPROVE_LOCK: f"improves the lock: {self._lock()} a round",
                GrappleAttempt.ESCAPE: "escapes" + (
                    f" and pins {self.defender}" if self.hold else "")}[self.attempt]

    def _lock(self) -> int:
        return self.hold.lock_damage if self.hold else 0


def _thrown(name: str, throw: ThrowOutcome) -> str:
    text = f"throws {name} {throw.direction}"
    if throw.slam_damage is not None:
        text += f" into the {throw.stopped_by}"
    elif throw.hazard is not None:
        text += (f": catches the edge of {throw.hazard.name}" if throw.hazard.saved
                 else f" into {throw.hazard.name}")
    stunned = ", ".join(sorted(c.value for c in throw.stun.conditions))
    return f"{text}: {throw.total_damage} damage" + (f", {stunned}" if stunned else "")


def resolve_grapple(encounter: Encounter, request: GrappleRequest, dice: DiceSource
                    ) -> GrappleResult:
    """Resolve a grapple without changing the encounter."""
    return grapple_with(encounter, prepare_grapple(encounter, request), dice)


def grapple_with(encounter: Encounter, setup: GrappleSetup, dice: DiceSource
                 ) -> GrappleResult:
    """Roll the grapple :func:`prepare_grapple` set up (the encounter unchanged since)."""
    a, d = setup.attacker, setup.defender
    attack_roll = dice.roll("d20", f"{a.name} grapple ({setup.attempt.value})")
    defence_roll = dice.roll("d20", f"{d.name} resists the grapple")
    attack = Breakdown.of(Term("d20", attack_roll.total, SEED), *setup.attack_terms.terms)
    defence = Breakdown.of(Term("d20", defence_roll.total, SEED), *setup.defence_terms.terms)
    result = GrappleResult(attacker=a.name, defender=d.name, attacker_id=a.id,
                           defender_id=d.id, attempt=setup.attempt, attack_roll=attack_roll,
                           defence_roll=defence_roll, attack=attack, defence=defence,
                           band=band(setup, attack.value, defence.value), hold=setup.existing)
    if result.band is GrappleBand.HOLD and setup.existing is None:
        return result.model_copy(update={"hold": _new_hold(a, d, HoldKind.HOLD)})
    if result.band is not GrappleBand.SUCCESS:
        return result
    return _succeed(encounter, setup, result, dice)


def _new_hold(holder: Token, held: Token, kind: HoldKind, lock_damage: int = 0) -> Hold:
    return Hold(holder=holder.id, held=held.id, kind=kind, lock_damage=lock_damage,
                holder_cell=holder.cell, held_cell=held.cell)


def _succeed(encounter: Encounter, setup: GrappleSetup, result: GrappleResult,
             dice: DiceSource) -> GrappleResult:
    a, d, profile = setup.attacker, setup.defender, encounter.profile
    prone = frozenset({Condition.PRONE})
    match setup.attempt:
        case GrappleAttempt.HOLD:
            update: dict[str, object] = {"hold": _new_hold(a, d, HoldKind.HOLD)}
        case GrappleAttempt.THROW:
            throw = _throw(encounter, setup, dice)
            update = {"hold": None, "throw": throw, "gained": {d.id: throw.stun.conditions}}
        case GrappleAttempt.TAKEDOWN:
            update = {"hold": _new_hold(a, d, HoldKind.PIN), "gained": {d.id: prone}}
        case GrappleAttempt.LOCK | GrappleAttempt.IMPROVE_LOCK:
            roll = dice.roll(profile.lock_damage, f"{a.name} lock damage")
            old = setup.existing.lock_damage if setup.attempt is GrappleAttempt.IMPROVE_LOCK \
                and setup.existing else 0
            update = {"hold": _new_hold(a, d, HoldKind.LOCK, max(old, roll.total)),
                      "lock_roll": roll}
        case GrappleAttempt.ESCAPE:
            update = _escape(setup)
    return result.model_copy(update=update)


def _escape(setup: GrappleSetup) -> dict[str, object]:
    """002 Escape: "Standing an escape will seperate the opponents. On the ground an escape
    will reverse the roles so the defender is now the pinning attacker"."""
    existing = setup.existing
    if existing is None or existing.kind is not HoldKind.PIN:
        return {"hold": None}
    prone = frozenset({Condition.PRONE})
    return {"hold": _new_hold(setup.attacker, setup.defender, HoldKind.PIN),
            "gained": {setup.defender.id: prone}, "lost": {setup.attacker.id: prone}}


def _throw(encounter: Encounter, setup: GrappleSetup, dice: DiceSource) -> ThrowOutcome:
    """002 Throw: "Damage = D2 + stun save", "Count as bludgeon for armour"; rules-decisions
    "Throws": the d2 is one hit through AV, a wall on that side adds one slam (the shove die
    once) as a separate hit, the stun check uses the total damage after AV; a hazard there
    asks the Pit-Stop save first."""
    profile, defender, landing = encounter.profile, setup.defender, setup.landing
    assert landing is not None
    av = armour_value(defender.combatant).value
    assert setup.direction is not None
    throw_roll = dice.roll(profile.throw_damage, f"{setup.attacker.name} throw damage")
    outcome: dict[str, object] = {
        "direction": setup.direction, "throw_roll": throw_roll,
        "throw_damage": damage_after_armour(throw_roll.total, av, profile),
        "final_cell": landing.path[-1], "stopped_by": landing.stopped_by}
    if setup.slam_die is not None:
        slam = dice.roll(setup.slam_die, f"slam into the {landing.stopped_by} (shove die once)")
        outcome |= {"slam_roll": slam,
                    "slam_damage": damage_after_armour(slam.total, av, profile)}
    elif landing.hazard is not None:
        hazard = pit_stop(defender, landing.hazard, profile, dice)
        outcome["hazard"] = hazard
        if not hazard.saved:
            outcome["final_cell"] = landing.hazard_cell
    impact = sum(b.value for b in (outcome["throw_damage"], outcome.get("slam_damage"))
                 if isinstance(b, Breakdown))
    stun = stun_check(defender.combatant, impact, profile, dice)
    return ThrowOutcome.model_validate({**outcome, "stun": stun})


# --- odds -------------------------------------------------------------------------------------
class GrappleOdds(RulesValue):
    """Exact chances of a grapple's results and, for a throw, where the defender lands."""

    attack_bonus: int
    defence_bonus: int
    bands: dict[GrappleBand, Fraction]
    landing: dict[Cell, Fraction] = Field(default={})
    slam: Fraction = Fraction(0)
    into_hazard: Fraction = Fraction(0)


def grapple_odds(encounter: Encounter, request: GrappleRequest) -> GrappleOdds:
    """Every pair of d20s (400) through :func:`band`; a throw's landing by the Pit-Stop
    save's chance (IllegalManoeuvreError like the resolver)."""
    setup = prepare_grapple(encounter, request)
    bands: dict[GrappleBand, Fraction] = defaultdict(Fraction)
    defence = setup.defence_terms.value
    for margin, p in opposed_margins(setup.attack_terms.value, defence).items():
        bands[band(setup, defence + margin, defence)] += p
    odds = GrappleOdds(attack_bonus=setup.attack_terms.value, defence_bonus=defence,
                       bands={b: bands[b] for b in GrappleBand})
    return _throw_odds(odds, setup, encounter.profile) if setup.landing is not None else odds


def _throw_odds(odds: GrappleOdds, setup: GrappleSetup, profile: RulesProfile) -> GrappleOdds:
    landing, defender = setup.landing, setup.defender
    assert landing is not None
    thrown = odds.bands[GrappleBand.SUCCESS]
    cells: dict[Cell, Fraction] = defaultdict(Fraction)
    cells[defender.cell] += 1 - thrown
    into = Fraction(0)
    if landing.hazard is not None and landing.hazard_cell is not None:
        bonus = sum(t.value for t in save_terms(defender.combatant, profile))
        into = thrown * (1 - chance_at_least(bonus, defender.combatant.death_ray_save))
        cells[landing.hazard_cell] += into
    cells[landing.path[-1]] += thrown - into
    return odds.model_copy(update={"landing": {c: p for c, p in cells.items() if p},
                                   "slam": thrown if setup.slam_die else Fraction(0),
                                   "into_hazard": into})


def partner_of(encounter: Encounter, token_id: str) -> str | None:
    """The creature ``token_id`` grapples with, if any (menus offer it an escape)."""
    hold = next(iter(holds_of(encounter, token_id)), None)
    return partner(hold, token_id) if hold else None
