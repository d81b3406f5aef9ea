"""The bestiary file (core/io/bestiary.py, core/model/bestiary.py): templates round-trip
through the file; bad files are refused with the reason; saves are atomic and refuse what
would not load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.io.bestiary import (
    BestiaryFileError,
    BestiarySaveError,
    bestiary_from_json,
    bestiary_to_bytes,
    load_bestiary,
    save_bestiary,
)
from core.model.bestiary import MAX_TEMPLATES, Bestiary, Template, fresh, template_of
from core.model.combatant import Combatant, Condition
from core.model.encounter import Encounter, Token
from core.model.portrait import Portrait
from core.model.profile import AbilityBand, RulesProfile
from core.model.weapons import Weapon

ASSETS = Path(__file__).resolve().parents[3] / "assets"


def _encounter() -> Encounter:
    key, art = Portrait.from_bytes(b"\x89PNG fake art", "png")
    claw = Weapon(name="Claw", damage="d4", reach_ft=5)
    hurt = Combatant(name="Ghoul", side="opposition", max_hp=20, hp=3, wounds=2,
                     conditions=frozenset({Condition.STUNNED}), weapons=("Claw",),
                     dropped_weapons=("Club",), portrait=key, hero_points=1,
                     lucky_break=3, lucky_opening=5, round_hero_points=1)
    encounter = Encounter(portraits={key: art})
    encounter.weapons.append(claw)
    encounter.add_token(Token(id="ghoul", combatant=hurt, x=1, y=1))
    return encounter


def test_a_combatant_saved_as_a_template_is_fresh_and_carries_its_weapons_and_art() -> None:
    template = template_of(_encounter(), "ghoul")
    c = template.combatant
    assert (c.hp, c.wounds, c.conditions, c.dropped_weapons) == (20, 0, frozenset(), ())
    assert c.hero_points == 1 and c.weapons == ("Claw",)
    assert (c.lucky_break, c.lucky_opening, c.round_hero_points) == (0, 0, 0)
    assert [w.name for w in template.weapons] == ["Claw"]
    assert template.portrait is not None and c.portrait is not None


def test_templates_round_trip_through_a_file(tmp_path: Path) -> None:
    book = Bestiary().with_template(template_of(_encounter(), "ghoul"))
    path = tmp_path / "deep" / "bestiary.json"
    save_bestiary(book, path)
    assert load_bestiary(path) == book
    assert [p.name for p in path.parent.iterdir()] == ["bestiary.json"]  # no temp file left


def test_a_missing_file_is_an_empty_bestiary_only_when_asked(tmp_path: Path) -> None:
    assert load_bestiary(tmp_path / "none.json", missing_ok=True) == Bestiary()
    with pytest.raises(BestiaryFileError, match="No such file"):
        load_bestiary(tmp_path / "none.json")


def test_the_bundled_library_is_a_bestiary() -> None:
    library = load_bestiary(ASSETS / "library.json")
    assert len(library.templates) >= 16
    assert {t.combatant.side.value for t in library.templates} == {"party", "opposition"}


@pytest.mark.parametrize(("text", "reason"), [
    (b"[]", "is not a Battlemap bestiary"),
    (b'{"schema": "battlemap.encounter", "version": 1}', "is not a Battlemap bestiary"),
    (b'{"schema": "battlemap.bestiary", "version": 2}', "format version 2; this Battlemap"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [{"combatant": '
     b'{"name": "X", "level": 99}}]}', "templates.0.combatant.level: Input should be less"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [{"combatant": '
     b'{"name": "X", "weapons": ["Claw"]}}]}', "weapons carried and defined differ: claw"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [{"combatant": '
     b'{"name": "X"}}, {"combatant": {"name": "x"}}]}', "two templates are named 'x'"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [{"combatant": '
     b'{"name": "X", "max_hp": NaN}}]}', "is not a finite number"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [{"combatant": '
     b'{"name": "X", "portrait": "0123456789abcdef"}}]}', "a portrait key needs its portrait"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "extra": 1}', "extra: Extra inputs"),
    (b"{\xc3\x28}", "not UTF-8"),
    (b'{"schema": "battlemap.bestiary", "version": 1, "templates": [' + b"[" * 100
     + b"]" * 100 + b"]}", "nested"),
])
def test_bad_files_are_refused_with_the_reason(tmp_path: Path, text: bytes, reason: str
                                               ) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text)
    with pytest.raises(BestiaryFileError, match=reason):
        load_bestiary(path)


def test_too_many_templates_are_refused_before_they_are_read() -> None:
    many = {"schema": "battlemap.bestiary", "version": 1,
            "templates": [{"combatant": {"name": f"K{i}"}} for i in range(MAX_TEMPLATES + 1)]}
    with pytest.raises(BestiaryFileError, match="1,001 templates; at most 1,000"):
        bestiary_from_json(json.dumps(many))


def test_a_portrait_under_a_wrong_key_is_refused() -> None:
    _, art = Portrait.from_bytes(b"art", "png")
    with pytest.raises(ValueError, match="is not the key of its image"):
        Template(combatant=Combatant(name="X", portrait="0" * 16), portrait=art)


def test_what_would_not_load_is_not_saved_and_the_old_file_stays(tmp_path: Path) -> None:
    path = tmp_path / "bestiary.json"
    save_bestiary(Bestiary(), path)
    before = path.read_bytes()
    wide = RulesProfile(ability_table=[AbilityBand(low=1, high=25, modifier=0)])
    giant = Combatant.model_validate({"name": "Giant", "abilities": {"strength": 22}},
                                     context={"profile": wide})
    book = Bestiary().with_template(Template(combatant=giant))
    with pytest.raises(BestiarySaveError, match="strength 22 is outside the ability table"):
        save_bestiary(book, path)
    assert path.read_bytes() == before
    with pytest.raises(BestiarySaveError, match="notes has a lone surrogate"):
        bestiary_to_bytes(Bestiary().with_template(Template(combatant=Combatant(
            name="X")).model_copy(update={"notes": "\ud800"})))


def test_rename_delete_and_merge() -> None:
    book = Bestiary(templates=[Template(combatant=Combatant(name="Kobold")),
                               Template(combatant=Combatant(name="Wolf"))])
    assert book.renamed("kobold", "Kobold scout").names() == ["Kobold scout", "Wolf"]
    with pytest.raises(ValueError, match="already named 'Wolf'"):
        book.renamed("Kobold", "WOLF")
    with pytest.raises(ValueError, match="at most 60 characters"):
        book.renamed("Kobold", "K" * 61)
    assert book.without("wolf").names() == ["Kobold"]
    other = Bestiary(templates=[Template(combatant=Combatant(name="Wolf", level=3))])
    merged, names = book.merged(other)
    assert names == ["Wolf"] and merged.find("wolf").combatant.level == 3  # type: ignore[union-attr]
    assert fresh(Combatant(name="A", hp=-3, max_hp=9)).hp == 9
