"""Hit location decides armour (core.rules.locations; 002 "Damage", "Critical Locations",
"Special Damage"; RD "Armour by location"), worked by hand. Dice: the d20, the location d10,
the damage die, then a special damage's die or a stun check.

Aldo (party, HR 0) stands next to Grok; a d20 of 20 hits."""

from __future__ import annotations

from collections.abc import Callable

from core.actions.base import perform
from core.actions.critical import CriticalEventAction
from core.actions.history import History
from core.model.combatant import Combatant, Side
from core.model.dice import ScriptedDice
from core.model.encounter import Encounter
from core.model.profile import RulesProfile
from core.model.weapons import DamageType, SpecialDamage, Weapon
from core.rules.attack import AttackOptions, AttackResult, attack_on_map

Make = Callable[..., Encounter]
LOCATIONS = RulesProfile(hit_location=True, head_hits_stun=True)
BITE = Weapon(name="Spider bite", damage="d4", reach_ft=5,
              special=SpecialDamage(name="Spider poison", damage="d6", note="save or sleep"))


def strike(make: Make, grok: Combatant, dice: list[int], weapon: str | None = None,
           profile: RulesProfile = LOCATIONS) -> AttackResult:
    encounter = make("A G", {"A": Combatant(name="Aldo", weapons=("Club",)), "G": grok},
                     profile=profile)
    encounter.weapons = [*encounter.weapons, BITE]
    options = AttackOptions(weapon=weapon or "Club")
    return attack_on_map(encounter, "A", "G", options, ScriptedDice(dice))


def grok(**kw: object) -> Combatant:
    return Combatant(name="Grok", side=Side.OPPOSITION, max_hp=40, hp=40, **kw)


def test_a_hit_where_the_armour_leaves_bare_meets_av_0(make_encounter: Make) -> None:
    """Chain mail (AV 4) that leaves the thighs bare: a club's d4 of 4 on the thighs (d10 2)
    takes all 4; on the upper torso (d10 8): 1 + (3 − 4 → 0) = 1."""
    gappy = grok(armour="chain_mail", armour_gaps=("Thighs",))
    bare = strike(make_encounter, gappy, [20, 2, 4])
    assert bare.damage_taken == 4 and bare.location is not None
    assert bare.location.name == "Thighs"
    covered = strike(make_encounter, gappy, [20, 8, 4])
    assert covered.damage_taken == 1


def test_without_the_option_nothing_changes(make_encounter: Make) -> None:
    """No location is rolled: the gaps do not matter (d4 4 through AV 4: 1)."""
    gappy = grok(armour="chain_mail", armour_gaps=("Thighs",))
    assert strike(make_encounter, gappy, [20, 4], profile=RulesProfile()).damage_taken == 1


def test_a_non_humanoid_takes_double_on_a_critical_location_and_is_not_stunned(
        make_encounter: Make) -> None:
    """002 Critical Locations: 'Other creatures unless otherwise noted suffer double damage'.
    A club (bludgeon) on the head (d10 10): 3 × 2 = 6, no stun check (no die asked)."""
    result = strike(make_encounter, grok(humanoid=False), [20, 10, 3])
    assert result.damage_taken == 6 and result.stun is None
    humanoid = strike(make_encounter, grok(), [20, 10, 3, 20])  # its stun check: d20 20
    assert humanoid.damage_taken == 3 and humanoid.stun is not None


def test_special_damage_only_through_the_armour(make_encounter: Make) -> None:
    """002 Special Damage: 'only do so if they penetrate your armour'; RD: AV 0 where it
    lands, or raw damage ≥ AV + 2. Leather AV 2: a bite of 3 does not penetrate (1 damage);
    a bite of 4 does (1 + (3 − 2) = 2, then poison d6 5 whole: 7)."""
    leather = grok(armour="leather")
    shallow = strike(make_encounter, leather, [20, 8, 3], weapon="Spider bite")
    assert shallow.damage_taken == 1
    deep = strike(make_encounter, leather, [20, 8, 4, 5], weapon="Spider bite")
    assert deep.damage_taken == 2 + 5 and deep.damage is not None
    assert deep.damage.terms[-1].name == "Spider poison (through the armour; save or sleep)"
    bare = strike(make_encounter, grok(armour="leather", armour_gaps=("Upper torso",)),
                  [20, 8, 1, 2], weapon="Spider bite")
    assert bare.damage_taken == 1 + 2


def test_a_helm_knocked_off_leaves_the_head_bare(make_encounter: Make) -> None:
    """002 Critical events 1 'Small - Medium helm knocked off' (d3 2: Grok)."""
    encounter = make_encounter("A G", {"G": grok(armour="scale")}, profile=LOCATIONS)
    perform(CriticalEventAction("A", "G"), History(encounter), ScriptedDice([1, 2]))
    assert encounter.token("G").combatant.armour_gaps == ("Head",)


def test_a_weapon_table_row_keeps_its_special_damage_through_a_file() -> None:
    assert Weapon.model_validate_json(BITE.model_dump_json()) == BITE
    assert BITE.damage_type is DamageType.EDGE
