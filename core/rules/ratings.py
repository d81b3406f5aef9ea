"""The derived ratings of 000 "Combat Ratings Quick Reference", each as a Breakdown.

>>> from core.model.combatant import Abilities, Combatant
>>> fighter = Combatant(name="Fighter", abilities=Abilities(strength=16, dexterity=13),
...                     fr_slots=3, armour="chain_mail", shield="medium")
>>> p = RulesProfile()
>>> force_rating(fighter, p).describe()
'Class Skill slots (FR) 3 + STR modifier +2 + Magic bonus (FR) +0 = 5'
>>> force_defense(fighter, p).value   # 10 + STR 2 + Medium 0 + Chain 2 + Shield 2
16
>>> armour_class(fighter, p).value    # 11 + Medium Shield 2 + DEX 1
14
"""

from __future__ import annotations

from core.model.breakdown import Breakdown, Term
from core.model.combatant import Combatant, Condition
from core.model.profile import RulesProfile
from core.model.tables import ARMOURS, NO_ARMOUR, SHIELDS, SIZES
from core.rules.conditions import defence_penalty, gear_terms, lucky_terms
from core.rules.value import RulesValue

QR = "000 Quick Reference"


def _mod(profile: RulesProfile, score: int) -> int:
    return profile.ability_modifier(score)


def hit_rating(c: Combatant, profile: RulesProfile) -> Breakdown:
    """HR bonus: Class Skill slots + STR modifier + magic bonuses (000 "Hit Roll")."""
    return Breakdown.of(
        Term("Class Skill slots (HR)", c.hr_slots, f"{QR}: My HR bonus"),
        Term("STR modifier", _mod(profile, c.abilities.strength), "ability table"),
        Term("Magic bonus (HR)", c.hr_magic, f"{QR}: magic bonuses"),
    )


def force_rating(c: Combatant, profile: RulesProfile) -> Breakdown:
    """FR bonus: Class Skill slots + STR modifier + magic bonuses (000 "Force Rating")."""
    return Breakdown.of(
        Term("Class Skill slots (FR)", c.fr_slots, f"{QR}: My FR bonus"),
        Term("STR modifier", _mod(profile, c.abilities.strength), "ability table"),
        Term("Magic bonus (FR)", c.fr_magic, f"{QR}: magic bonuses"),
    )


def armour_class(c: Combatant, profile: RulesProfile) -> Breakdown:
    """AC: 11 + shield + DEX modifier + active techniques (000 "Armor Class"); Prone −5
    (rules-decisions "Conditions"); what critical events did: a shield out of hand counts
    nothing, a damaged shield and dented armour −1 each, a lucky break its d6."""
    return Breakdown.of(
        Term("Base AC", 11, "000 Armor Class: Base AC 11"),
        Term("Shield", shield_bonus(c), "000 Shields table"),
        Term("DEX modifier", _mod(profile, c.abilities.dexterity), "ability table"),
        Term("Defensive techniques", c.technique_ac, "000 AC Components"),
        *defence_penalty(c, profile), *gear_terms(c, profile), *lucky_terms(c),
    )


def shield_bonus(c: Combatant) -> int:
    """The shield's AC bonus; none while a critical event has it out of hand (3)."""
    if not c.has_shield or any(o.shield for o in c.out_of_hand):
        return 0
    return SHIELDS[c.shield].ac_bonus


def force_defense(c: Combatant, profile: RulesProfile) -> Breakdown:
    """FD: 10 + higher of STR/CON modifier + size + armour FD + shield FD + Mastery in
    Defensive Stance (000 "FD Formula"; the Mastery bonus per rank is a profile field);
    Prone −5 (rules-decisions "Conditions")."""
    strength = _mod(profile, c.abilities.strength)
    constitution = _mod(profile, c.abilities.constitution)
    terms = [
        Term("Base FD", 10, "000 FD Formula"),
        Term("STR modifier" if strength >= constitution else "CON modifier",
             max(strength, constitution), "000 FD Formula: STR or CON (whichever is higher)"),
        Term(f"Size ({SIZES[c.size].label})", SIZES[c.size].fd_modifier, "000 Size table"),
        Term(f"Armour ({ARMOURS[c.armour].label})", ARMOURS[c.armour].fd_bonus,
             "000 Armor FD Bonus"),
    ]
    if c.has_shield:
        terms.append(Term("Shield", SHIELDS[c.shield].fd_bonus, "000 Armor FD Bonus: Shield"))
    if c.has(Condition.DEFENSIVE_STANCE):
        bonus = c.mastery_rank * profile.defensive_stance_fd_per_mastery
        terms.append(Term("Mastery (Defensive Stance)", bonus,
                          "000 FD Formula: Mastery bonus (during Defensive Stance)"))
    return Breakdown.of(*terms, *defence_penalty(c, profile))


def armour_value(c: Combatant, missile: bool = False) -> Breakdown:
    """AV, or AV vs missiles (000 "Armor Type and Armor Value Table")."""
    spec = ARMOURS[c.armour]
    if missile:
        return Breakdown.of(Term(f"{spec.label} AV vs missiles", spec.av_missiles, "000 AV table"))
    return Breakdown.of(Term(f"{spec.label} AV", spec.av, "000 AV table"))


def insight_defense(c: Combatant, profile: RulesProfile) -> Breakdown:
    """Insight Defense (vs Feint): 10 + WIS modifier + Level or HD (000 Quick Reference)."""
    return Breakdown.of(
        Term("Base", 10, f"{QR}: Insight Defense"),
        Term("WIS modifier", _mod(profile, c.abilities.wisdom), "ability table"),
        Term("Level/HD", c.level, f"{QR}: Insight Defense"),
    )


def shove_resist(c: Combatant, profile: RulesProfile) -> Breakdown:
    """Shove Resist: size base + ½ HD or Level + STR modifier + FR bonus (000 Quick
    Reference; ½ rounds down — rules-decisions Shove 5). Terrain terms are added by the
    shove resolver, which knows where the defender stands."""
    return Breakdown.of(
        Term(f"Size base ({SIZES[c.size].label})", SIZES[c.size].shove_resist_base,
             "000 Size table: Shove Resist Base"),
        Term("½ Level/HD", c.level // 2, f"{QR}: Shove Resist"),
        Term("STR modifier", _mod(profile, c.abilities.strength), "ability table"),
        Term("FR bonus", force_rating(c, profile).value, f"{QR}: Shove Resist"),
    )


def wrestling_force_rating(c: Combatant, profile: RulesProfile) -> Breakdown:
    """FR while wrestling: FR + armour penalty + shield penalty (000 "Armor Wrestling
    Penalties")."""
    spec = ARMOURS[c.armour]
    terms = [Term("FR bonus", force_rating(c, profile).value, "000 Force Rating"),
             Term(f"Armour ({spec.label})", spec.wrestling_fr, "000 Armor Wrestling Penalties")]
    if c.has_shield:
        terms.append(Term("Shield", SHIELDS[c.shield].wrestling_fr,
                          "000 Armor Wrestling Penalties: Shield"))
    return Breakdown.of(*terms)


def armour_specials(c: Combatant) -> tuple[str, ...]:
    """The named armour and shield properties (Slippery, Supple, Mesh Grip, Immovable, ...)."""
    specials = [ARMOURS[c.armour].special] if ARMOURS[c.armour].special else []
    if c.has_shield:
        specials.append(SHIELDS[c.shield].special)
    return tuple(specials)


def escape_bonus(c: Combatant) -> int:
    """+2 to Escape rolls when unarmoured (000 "The Naked Advantage")."""
    return 2 if c.armour == NO_ARMOUR else 0


def maintain_bonus(c: Combatant) -> int:
    """+1 to Maintain holds in mesh armour (000 "Chain Mail: Mesh Grip")."""
    return 1 if "Mesh Grip" in ARMOURS[c.armour].special else 0


def can_be_thrown_by(c: Combatant, thrower: Combatant) -> bool:
    """Plate is Immovable: it cannot be Thrown by same-size foes (000; rules-decisions 14)."""
    return not ("Immovable" in ARMOURS[c.armour].special and thrower.size == c.size)


def can_initiate_grapple(c: Combatant) -> bool:
    """No grapple while a shield is equipped (000 "Armor Wrestling Penalties: Shield")."""
    return not c.has_shield


class Ratings(RulesValue):
    """All derived ratings of one combatant, for panels and tooltips."""

    hr: Breakdown
    fr: Breakdown
    ac: Breakdown
    fd: Breakdown
    av: Breakdown
    av_missiles: Breakdown
    insight: Breakdown
    shove_resist: Breakdown
    wrestling_fr: Breakdown
    specials: tuple[str, ...]


def ratings(c: Combatant, profile: RulesProfile) -> Ratings:
    return Ratings(
        hr=hit_rating(c, profile), fr=force_rating(c, profile), ac=armour_class(c, profile),
        fd=force_defense(c, profile), av=armour_value(c), av_missiles=armour_value(c, True),
        insight=insight_defense(c, profile), shove_resist=shove_resist(c, profile),
        wrestling_fr=wrestling_force_rating(c, profile), specials=armour_specials(c),
    )
