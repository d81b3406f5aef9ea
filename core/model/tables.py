"""The seed's tables as data (000 Combat Ratings).

Each row is a frozen record; the resolvers look rows up by key and never repeat a number.

>>> ARMOURS["chain_mail"].av, ARMOURS["chain_mail"].av_missiles
(4, 2)
>>> SIZES[Size.HUGE].shove_die, SIZES[Size.HUGE].max_displacement_ft
('d10', 15)
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Size(StrEnum):
    """000 "Size Categories", smallest first (the order is the size-category count)."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"

    @property
    def rank(self) -> int:
        return list(Size).index(self)


class SizeSpec(BaseModel):
    """One row of 000's size table; footprint from rules-decisions "Sizes"."""

    model_config = ConfigDict(frozen=True)

    label: str
    fd_modifier: int
    shove_die: str
    shove_resist_base: int
    max_displacement_ft: int
    footprint: int


class ArmourSpec(BaseModel):
    """One armour type: 000 "Armor Type and Armor Value Table", "Armor FD Bonus",
    "Armor Wrestling Penalties"."""

    model_config = ConfigDict(frozen=True)

    label: str
    av: int
    av_missiles: int
    cost_sp: int
    encumbrance_cn: int
    fd_bonus: int
    wrestling_fr: int
    special: str = ""


class ShieldSpec(BaseModel):
    """One shield type: 000 "Shields" table, plus the shield rows of the FD and wrestling tables."""

    model_config = ConfigDict(frozen=True)

    label: str
    ac_bonus: int
    cost_sp: int
    encumbrance_cn: int
    fd_bonus: int = 2
    wrestling_fr: int = -4
    special: str = "Cannot initiate Grapple while shield is equipped"


SIZES: dict[Size, SizeSpec] = {
    Size.TINY: SizeSpec(label="Tiny", fd_modifier=-2, shove_die="d2", shove_resist_base=1,
                        max_displacement_ft=2, footprint=1),
    Size.SMALL: SizeSpec(label="Small", fd_modifier=-1, shove_die="d4", shove_resist_base=2,
                         max_displacement_ft=5, footprint=1),
    Size.MEDIUM: SizeSpec(label="Medium", fd_modifier=0, shove_die="d6", shove_resist_base=3,
                          max_displacement_ft=5, footprint=1),
    Size.LARGE: SizeSpec(label="Large", fd_modifier=2, shove_die="d8", shove_resist_base=4,
                         max_displacement_ft=10, footprint=2),
    Size.HUGE: SizeSpec(label="Huge", fd_modifier=4, shove_die="d10", shove_resist_base=5,
                        max_displacement_ft=15, footprint=3),
    Size.GARGANTUAN: SizeSpec(label="Gargantuan", fd_modifier=8, shove_die="d12",
                              shove_resist_base=6, max_displacement_ft=20, footprint=4),
}

NO_ARMOUR = "none"

ARMOURS: dict[str, ArmourSpec] = {
    NO_ARMOUR: ArmourSpec(label="None", av=0, av_missiles=0, cost_sp=0, encumbrance_cn=0,
                          fd_bonus=0, wrestling_fr=0,
                          special="Slippery: +2 to Escape rolls"),
    "leather": ArmourSpec(label="Leather", av=2, av_missiles=1, cost_sp=20, encumbrance_cn=200,
                          fd_bonus=1, wrestling_fr=0, special="Supple: No penalties"),
    "thyatian_leather": ArmourSpec(label="Thyatian Leather (Cuir Bouilli)", av=3, av_missiles=1,
                                   cost_sp=200, encumbrance_cn=250, fd_bonus=1, wrestling_fr=0,
                                   special="Supple: No penalties"),
    "scale": ArmourSpec(label="Scale", av=3, av_missiles=1, cost_sp=30, encumbrance_cn=300,
                        fd_bonus=1, wrestling_fr=0),
    "chain_mail": ArmourSpec(label="Chain Mail", av=4, av_missiles=2, cost_sp=40,
                             encumbrance_cn=400, fd_bonus=2, wrestling_fr=-1,
                             special="Mesh Grip: +1 to Maintain holds"),
    "banded": ArmourSpec(label="Banded", av=5, av_missiles=2, cost_sp=50, encumbrance_cn=450,
                         fd_bonus=2, wrestling_fr=-2),
    "plate_mail": ArmourSpec(label="Plate Mail", av=6, av_missiles=3, cost_sp=60,
                             encumbrance_cn=500, fd_bonus=4, wrestling_fr=-3,
                             special="Immovable: Cannot be Thrown by same-size foes"),
    "suit_armor": ArmourSpec(label="Suit Armor", av=7, av_missiles=3, cost_sp=250,
                             encumbrance_cn=750, fd_bonus=4, wrestling_fr=-4),
    "elven_chain": ArmourSpec(label="Elven Chain", av=4, av_missiles=4, cost_sp=400,
                              encumbrance_cn=200, fd_bonus=2, wrestling_fr=-1,
                              special="Mesh Grip: +1 to Maintain holds "
                              "(as Chain Mail; interpreted)"),
    "dwarven_plate": ArmourSpec(label="Dwarven Plate", av=7, av_missiles=4, cost_sp=600,
                                encumbrance_cn=600, fd_bonus=5, wrestling_fr=-3,
                                special="Immovable: Cannot be Thrown by same-size foes "
                                "(as Plate Mail; interpreted)"),
}

NO_SHIELD = "none"

SHIELDS: dict[str, ShieldSpec] = {
    "small": ShieldSpec(label="Small Shield", ac_bonus=1, cost_sp=5, encumbrance_cn=50),
    "medium": ShieldSpec(label="Medium Shield", ac_bonus=2, cost_sp=10, encumbrance_cn=100),
    "large": ShieldSpec(label="Large Shield", ac_bonus=3, cost_sp=15, encumbrance_cn=200),
    "tower": ShieldSpec(label="Tower Shield", ac_bonus=4, cost_sp=25, encumbrance_cn=300),
}
