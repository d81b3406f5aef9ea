"""Brawling (002 "Brawling"): "Brawling is (generally) only used where both participents are
unarmed. When brawling you are not yet in close combat then any armed defender gets to •
Strike first • All hits cause wound points directly. • May use their normal defence roll";
"Martial artists are trained in the quick attack so suffers no penalties against armed
opponents."

RD "Brawling": 'a defender holding any weapon gets a free attack before each unarmed attack
(pummel or grapple attempt) by a non-martial-artist not already holding or held by it; with
the wounds option on, its damage is all wound points.' The first strike is an ordinary melee
attack with the defender's first weapon in hand (:func:`core.rules.attack.attack_on_map`, a
free attack: it is not the defender's action), rolled before the brawler's own dice.
**Interp.**: a brawler the first strike leaves at 0 HP or below, or knocked out, makes no
attack ("stopped by the first strike"); the defender strikes only when the brawler is within
its weapon's reach and it can act.
"""

from __future__ import annotations

from core.model.breakdown import Breakdown
from core.model.dice import DiceSource, RollRecord
from core.model.encounter import Encounter, Token
from core.rules.attack import AttackOptions, AttackResult, IllegalAttackError, attack_on_map
from core.rules.conditions import NoActionError, down
from core.rules.grapple import GrappleBand, GrappleRequest, GrappleResult
from core.rules.holds import hold_between
from core.rules.unarmed import is_pummel
from core.rules.weapons import carried

BRAWLING = "002 Brawling: an armed defender strikes first"


def first_strike(encounter: Encounter, brawler: Token, defender: Token, dice: DiceSource
                 ) -> AttackResult | None:
    """The armed defender's free strike before ``brawler``'s unarmed attack, or None when it
    gets none (a martial artist, close combat already, no weapon in hand, out of reach, it
    cannot act)."""
    if brawler.combatant.martial_artist or hold_between(encounter, brawler.id, defender.id):
        return None
    weapons = [w for w in carried(encounter, defender.combatant)
               if w.melee and not is_pummel(w)]
    if not weapons:
        return None
    options = AttackOptions(weapon=weapons[0].name, free=True)
    try:
        struck = attack_on_map(encounter, defender.id, brawler.id, options, dice)
    except (IllegalAttackError, NoActionError):
        return None
    if encounter.profile.wounds and struck.hit:
        struck = struck.model_copy(update={"wounds": struck.damage_taken})  # "directly"
    return struck


def stops(brawler: Token, strike: AttackResult | None) -> bool:
    """Whether the first strike leaves the brawler unable to make its attack."""
    if strike is None or not strike.hit:
        return False
    after = brawler.combatant.hurt(strike.stamina_taken,
                                   strike.stun.conditions if strike.stun else frozenset())
    return down(after)


#: The roll of an attack the first strike stopped: none.
NO_ROLL = RollRecord(purpose="no attack: stopped by the first strike", expression="-",
                     faces=(), values=())


def stopped_attack(brawler: Token, defender: Token, strike: AttackResult) -> AttackResult:
    """The brawler's attack that never came."""
    return AttackResult(attacker=brawler.name, defender=defender.name, roll=NO_ROLL,
                        to_hit=Breakdown(), target_ac=Breakdown(), hit=False,
                        first_strike=strike, stopped=True)


def stopped_grapple(request: GrappleRequest, brawler: Token, defender: Token,
                    strike: AttackResult) -> GrappleResult:
    """The brawler's grapple attempt that never came."""
    return GrappleResult(attacker=brawler.name, defender=defender.name,
                         attacker_id=brawler.id, defender_id=defender.id,
                         attempt=request.attempt, attack_roll=NO_ROLL, defence_roll=NO_ROLL,
                         attack=Breakdown(), defence=Breakdown(), band=GrappleBand.FAIL,
                         hold=None, first_strike=strike, stopped=True)


def first_strike_note(encounter: Encounter, brawler: Token, defender: Token) -> str:
    """What the odds card says when the unarmed attack meets an armed defender ('' when it
    does not)."""
    if brawler.combatant.martial_artist or hold_between(encounter, brawler.id, defender.id):
        return ""
    weapons = [w for w in carried(encounter, defender.combatant)
               if w.melee and not is_pummel(w)]
    return (f"{defender.name} strikes first with its {weapons[0].name} (002 Brawling)"
            if weapons else "")
