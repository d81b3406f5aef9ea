"""One action each, and whether a creature may strike now (002 "The fight", "Movement",
"Aiming / setting up position", "Scarper"; rules-decisions "Round timeline" and "One action
each").

- 002 · The fight: "during each turn each party member gets to perform one action". RD: an
  attack or a manoeuvre (melee, missile, pummel, shove, force back, charge, overrun, grapple
  attempt, escape) is the creature's action; "A refused action uses nothing". The round
  counts them on the creature's initiative entry (``actions_taken``).
- 002 · Movement: "the strike will occur on the segment given by the initiative roll + the
  time taken to move into melee If the total is greater than 10, no attack occurs that
  round"; 002 · Initiative: "If an initiative roll indicates their attack opportunity occurs
  before they have reached combat range then the chance is lost".
- 002 · Aiming / setting up position: "Miss a round"; 002 · Scarper: "Use the defence +2 for
  not attacking".
- RD "Knockdown and Prone": "Prone's getting-up is the creature's next action: this round if
  it has not acted yet, else the next round".

Outside a round (no initiative rolled) and for a creature without initiative nothing is
counted: the GM resolves what the table plays. A free attack a rule grants (a surprise
attack, RD "Not actions") skips the count and the timing, never the creature's condition.

>>> from core.model.round import MAX_EXTRA_ATTACKS, InitiativeEntry
>>> from core.model.profile import RulesProfile
>>> strike_timing(InitiativeEntry(token_id="a", segment=6, moved_ft=45), RulesProfile()).segment
15
"""

from __future__ import annotations

from core.model.combatant import Side
from core.model.encounter import Encounter
from core.model.melee import HoldKind
from core.model.profile import RulesProfile
from core.model.round import MAX_EXTRA_ATTACKS, InitiativeEntry
from core.rules.conditions import NoActionError, befuddled, gets_up, require_action
from core.rules.holds import active_holds
from core.rules.timeline import AttackTiming, attack_segment
from core.rules.value import RulesValue

TIMING = "002 Movement: 'If the total is greater than 10, no attack occurs that round'"
ONE_ACTION = "002 The fight: 'each party member gets to perform one action'"


class TurnRefusedError(NoActionError):
    """The creature may act, but not this way now: it has no attack this round, or has used
    its action."""


def entry_of(encounter: Encounter, token_id: str) -> InitiativeEntry | None:
    """The creature's initiative this round (None outside a round or without one)."""
    return next((e for e in encounter.timeline.entries if e.token_id == token_id), None)


def strike_timing(entry: InitiativeEntry, profile: RulesProfile) -> AttackTiming:
    """When the creature's next action would fall: its strike segment (initiative plus the
    segments spent moving, 002 "Movement") plus one segment for each action already taken."""
    return attack_segment(entry.segment + entry.actions_taken, entry.moved_ft, profile)


def getting_up(encounter: Encounter, token_id: str, entry: InitiativeEntry) -> bool:
    """Prone, able to rise and not pinned, and this round's action is getting up: Prone at
    the roll, or knocked down before it acted (RD "Knockdown and Prone")."""
    combatant = encounter.token(token_id).combatant
    if not gets_up(combatant) or pinned(encounter, token_id):
        return False
    return entry.getting_up or entry.actions_taken == 0


def pinned(encounter: Encounter, token_id: str) -> bool:
    return any(h.kind is HoldKind.PIN and h.held == token_id for h in active_holds(encounter))


def turn_refusal(encounter: Encounter, token_id: str, *, free: bool = False) -> str:
    """Why the creature cannot take an action now ('' when it can); ``free``: an attack a
    rule grants, which only getting up prevents."""
    entry = entry_of(encounter, token_id)
    if entry is None:
        return ""
    name = encounter.token(token_id).name
    lost = befuddled(entry.no_action, encounter.token(token_id).combatant)
    if lost:
        return f"{name} is {lost}"
    if getting_up(encounter, token_id, entry):
        return f"{name} gets up this round: getting up is its action (RD Conditions: Prone)"
    if free:
        return ""
    return _declared(entry, name) or _used_up(entry, name, encounter.profile)


def _declared(entry: InitiativeEntry, name: str) -> str:
    """What the creature declared instead of attacking this round."""
    if entry.aiming:
        return (f"{name} is aiming this round: no attack (002 Aiming / setting up position: "
                "'Miss a round')")
    if entry.scarpering:
        return f"{name} is scarpering: no attack (002 Scarper: 'for not attacking')"
    if entry.stands_to_defend:
        return (f"{name} stands to defend this round: no attack (002 Not attacking: 'you may "
                "not want to attack but just try to defend yourself')")
    return ""


def _used_up(entry: InitiativeEntry, name: str, profile: RulesProfile) -> str:
    allowed = entry.actions_allowed
    if entry.actions_taken >= allowed:
        return (f"{name} has already acted this round ({entry.actions_taken} of {allowed} "
                f"action{'s' if allowed > 1 else ''}; {ONE_ACTION})")
    timing = strike_timing(entry, profile)
    if not timing.attacks:
        return f"{name} has no attack this round: {timing.reason} ({TIMING})"
    return ""


def require_turn(encounter: Encounter, token_id: str, *, free: bool = False) -> None:
    """Refuse an action by a creature that cannot act at all now (its condition, its HP) or
    cannot take this action this round (:func:`turn_refusal`)."""
    require_action(encounter.token(token_id).combatant)
    reason = turn_refusal(encounter, token_id, free=free)
    if reason:
        raise TurnRefusedError(reason)


def acted_note(entry: InitiativeEntry) -> str:
    """"Acted: 1 of 1 action" once the creature has acted this round, else ''."""
    if not entry.actions_taken:
        return ""
    allowed = entry.actions_allowed
    return f"Acted: {entry.actions_taken} of {allowed} action{'s' if allowed > 1 else ''}"


class Declaration(RulesValue):
    """What a creature declares for the round: how many attacks, or standing to defend."""

    token_id: str
    name: str
    attacks: int
    defend: bool
    penalty: int = 0
    bonus: int = 0

    def summary(self) -> str:
        if self.defend:
            return (f"{self.name} stands to defend this round: no attack, {self.bonus:+d} "
                    "against melee")
        if self.attacks == 1:
            return f"{self.name} declares one attack this round"
        return (f"{self.name} declares {self.attacks} attacks this round: "
                f"{-self.penalty:+d} to each and to its defence")


def declare(encounter: Encounter, token_id: str, attacks: int = 1, defend: bool = False
            ) -> Declaration:
    """Declare multiple attacks (002 "Multiple Attacks") or standing to defend (002 "Not
    attacking") for this round: before the creature acts (RD: "declared before the
    round"). TurnRefusedError says why not."""
    token = encounter.token(token_id)
    require_action(token.combatant)
    entry = entry_of(encounter, token.id)
    if entry is None:
        raise TurnRefusedError(f"{token.name} has no initiative this round: roll initiative "
                               "first, then declare")
    if entry.actions_taken:
        raise TurnRefusedError(f"{token.name} has already acted this round: declarations "
                               "come before it acts")
    if defend and attacks != 1:
        raise TurnRefusedError(f"{token.name} cannot stand to defend and attack "
                               f"{attacks} times")
    if not 1 <= attacks <= 1 + MAX_EXTRA_ATTACKS:
        raise TurnRefusedError(f"{attacks} attacks: 1-{1 + MAX_EXTRA_ATTACKS}")
    penalty, bonus = declaration_terms(encounter.profile, attacks, defend)
    return Declaration(token_id=token.id, name=token.name, attacks=attacks, defend=defend,
                       penalty=penalty, bonus=bonus)


def declaration_terms(profile: RulesProfile, attacks: int, defend: bool) -> tuple[int, int]:
    """What a declaration changes: the penalty to each attack and to the creature's
    defence (002 "Multiple Attacks": −3 per attack past the first), and the bonus against
    melee of standing to defend (002 "Not attacking": +2).

    >>> declaration_terms(RulesProfile(), 3, False), declaration_terms(RulesProfile(), 1, True)
    ((6, 0), (0, 2))
    """
    return (profile.multiple_attack_penalty * (attacks - 1),
            profile.stand_to_defend_bonus if defend else 0)


def more_declaration_time(encounter: Encounter, added: int) -> int:
    """The next step of declaration time the GM may add, having added ``added`` seconds this
    round: 002 Initiative, "The DM may delay this period if he has a number of creatures to
    dictate actions for, though this should not exceed 2 minutes per creature" —
    ``declaration_extra_seconds`` a press, at most ``declaration_seconds_per_creature`` for
    each opposition creature on the map (0: no more).

    >>> more_declaration_time(Encounter(), 0)
    0
    """
    profile = encounter.profile
    creatures = sum(1 for t in encounter.tokens if t.combatant.side is Side.OPPOSITION)
    room = profile.declaration_seconds_per_creature * creatures - added
    return max(0, min(profile.declaration_extra_seconds, room))
