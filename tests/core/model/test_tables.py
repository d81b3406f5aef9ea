"""Every row of seed 000's armour, shield and size tables, transcribed here by hand.

The expected values are literal copies of the seed text (000 "Combat Ratings"), so a typo in
:mod:`core.model.tables` fails a test. Two cells are not in the seed: the wrestling penalties of
Elven Chain (-1, as Chain Mail) and Dwarven Plate (-3, as Plate Mail) are the documented
interpretation of core.
"""

from __future__ import annotations

import pytest

from core.model.tables import ARMOURS, NO_ARMOUR, NO_SHIELD, SHIELDS, SIZES, Size

# key: (seed label, AV, AV vs missiles, cost sp, encumbrance cn, FD bonus, wrestling FR)
ARMOUR_ROWS: dict[str, tuple[str, int, int, int, int, int, int]] = {
    NO_ARMOUR: ("None", 0, 0, 0, 0, 0, 0),
    "leather": ("Leather", 2, 1, 20, 200, 1, 0),
    "thyatian_leather": ("Thyatian Leather (Cuir Bouilli)", 3, 1, 200, 250, 1, 0),
    "scale": ("Scale", 3, 1, 30, 300, 1, 0),
    "chain_mail": ("Chain Mail", 4, 2, 40, 400, 2, -1),
    "banded": ("Banded", 5, 2, 50, 450, 2, -2),
    "plate_mail": ("Plate Mail", 6, 3, 60, 500, 4, -3),
    "suit_armor": ("Suit Armor", 7, 3, 250, 750, 4, -4),
    "elven_chain": ("Elven Chain", 4, 4, 400, 200, 2, -1),  # wrestling: interpreted
    "dwarven_plate": ("Dwarven Plate", 7, 4, 600, 600, 5, -3),  # wrestling: interpreted
}

# key: (seed label, AC bonus, cost sp, encumbrance cn); every shield: FD +2, wrestling FR -4
SHIELD_ROWS: dict[str, tuple[str, int, int, int]] = {
    "small": ("Small Shield", 1, 5, 50),
    "medium": ("Medium Shield", 2, 10, 100),
    "large": ("Large Shield", 3, 15, 200),
    "tower": ("Tower Shield", 4, 25, 300),
}
SHIELD_FD_BONUS = 2
SHIELD_WRESTLING_FR = -4

# size: (label, FD modifier, shove die, Shove Resist base, max displacement ft, footprint cells)
SIZE_ROWS: dict[Size, tuple[str, int, str, int, int, int]] = {
    Size.TINY: ("Tiny", -2, "d2", 1, 2, 1),
    Size.SMALL: ("Small", -1, "d4", 2, 5, 1),
    Size.MEDIUM: ("Medium", 0, "d6", 3, 5, 1),
    Size.LARGE: ("Large", 2, "d8", 4, 10, 2),
    Size.HUGE: ("Huge", 4, "d10", 5, 15, 3),
    Size.GARGANTUAN: ("Gargantuan", 8, "d12", 6, 20, 4),
}


def test_armour_table_has_exactly_the_seed_rows() -> None:
    assert set(ARMOURS) == set(ARMOUR_ROWS)


@pytest.mark.parametrize(("key", "row"), ARMOUR_ROWS.items(), ids=list(ARMOUR_ROWS))
def test_armour_row_matches_seed(key: str, row: tuple[str, int, int, int, int, int, int]
                                 ) -> None:
    spec = ARMOURS[key]
    actual = (spec.label, spec.av, spec.av_missiles, spec.cost_sp, spec.encumbrance_cn,
              spec.fd_bonus, spec.wrestling_fr)
    assert actual == row


@pytest.mark.parametrize(("key", "special"), [
    (NO_ARMOUR, "Slippery"),
    ("leather", "Supple"),
    ("thyatian_leather", "Supple"),
    ("chain_mail", "Mesh Grip"),
    ("plate_mail", "Immovable"),
])
def test_armour_special_is_named_as_in_seed(key: str, special: str) -> None:
    assert ARMOURS[key].special.startswith(special)


def test_shield_table_has_exactly_the_seed_rows() -> None:
    assert set(SHIELDS) == set(SHIELD_ROWS)
    assert NO_SHIELD not in SHIELDS


@pytest.mark.parametrize(("key", "row"), SHIELD_ROWS.items(), ids=list(SHIELD_ROWS))
def test_shield_row_matches_seed(key: str, row: tuple[str, int, int, int]) -> None:
    spec = SHIELDS[key]
    assert (spec.label, spec.ac_bonus, spec.cost_sp, spec.encumbrance_cn) == row
    assert spec.fd_bonus == SHIELD_FD_BONUS
    assert spec.wrestling_fr == SHIELD_WRESTLING_FR
    assert "Cannot initiate Grapple" in spec.special


def test_sizes_are_ordered_smallest_first() -> None:
    assert list(Size) == list(SIZE_ROWS)
    assert [size.rank for size in Size] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(("size", "row"), SIZE_ROWS.items(), ids=[s.value for s in SIZE_ROWS])
def test_size_row_matches_seed(size: Size, row: tuple[str, int, str, int, int, int]) -> None:
    spec = SIZES[size]
    actual = (spec.label, spec.fd_modifier, spec.shove_die, spec.shove_resist_base,
              spec.max_displacement_ft, spec.footprint)
    assert actual == row
