"""Critical events (002 "Critical events", d30): the table.

>>> critical_event(12).name
'Switch positions'
>>> len(CRITICAL_EVENTS)
30
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class CriticalEvent(BaseModel):
    """One row of 002's d30 table (ditto marks resolved to the row above)."""

    model_config = ConfigDict(frozen=True)

    number: int
    name: str
    description: str
    affects: str


_ROWS = [
    ("Armour trouble", "Small - Medium helm knocked off", "1 character"),
    ("Armour trouble", "Shield damaged ( -1 Def) (New shield required)", "1 character"),
    ("Armour trouble", "Shield dropped", "1 character"),
    ("Armour trouble", "Armour dented ( -1 Defence)(10% repair cost)", "1 character"),
    ("Weapon trouble", "Weapon dropped, disarmed.", "1 character"),
    ("Weapon trouble", "Weapon tangled, string broke.", "1 character"),
    ("Weapon trouble", "Weapon stuck in opponent", "1 character"),
    ("Battlefield damage", "Something broken, table / chair", "Local area"),
    ("Battlefield damage", "Something broken, table / chair", "Local area"),
    ("Battlefield shifts", "5-10 feet in random direction", "Local area"),
    ("Close quarters", "May enter unarmed combat", "Pair of combatents"),
    ("Switch positions", "Characters switch positions by 180 degrees", "Pair of combatents"),
    ("Item dropped", "Drop an item/ has it cut free", "1 character"),
    ("Item damaged", "Something on belt or backpack hit", "1 character"),
    ("Knock down", "Spend next round getting up (-5 Def)", "1 character"),
    ("Lucky break", "+d6 to defence & saves", "1 character"),
    ("Lucky opening", "+d6 to hit", "1 character"),
    ("Really lucky opening", "+d10 to hit", "1 character"),
    ("Retreat", "1 party retreats by 10'", "1 party"),
    ("Strike 2", "Another strike attempt", "1 character"),
    ("Ether flow", "+/- d6 to a spell casting attempt", "1 character"),
    ("Stymied", "No hero points this or next round", "Pair of characters"),
    ("Hero point", "Additional hero point (must be used this round)", "1 party"),
    ("Clash", "Both combatents hit", "Pair of combatents"),
    ("Befuddled", "If attacked; no skill action next round", "1 character"),
    ("Wild opening", "Both combatents critical(hit for double damage)", "Pair of combatents"),
    ("Shield clash", "Both combatents miss", "Pair of combatents"),
    ("Mount trouble", "Rears - Hard skill attempt to stay on.", "1 mount"),
    ("Mount trouble", "Bolts - Average skill attempt to stay on.", "1 mount"),
    ("Nothing happens", "", ""),
]

CRITICAL_EVENTS: tuple[CriticalEvent, ...] = tuple(
    CriticalEvent(number=n, name=name, description=text, affects=affects)
    for n, (name, text, affects) in enumerate(_ROWS, start=1))


def critical_event(number: int) -> CriticalEvent:
    """The d30 row ``number`` (1-30); ValueError otherwise."""
    if not 1 <= number <= len(CRITICAL_EVENTS):
        raise ValueError(f"critical event {number} is not on the d30 table")
    return CRITICAL_EVENTS[number - 1]
