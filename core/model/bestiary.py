"""The GM's bestiary: combatant templates kept between encounters, each with what it needs
to join any encounter — the definitions of the weapons it carries (an encounter's weapon
table may lack them) and its portrait. Read and written by :mod:`core.io.bestiary`
(docs/file-format.md, "Bestiary file").

>>> from core.model.combatant import Combatant
>>> book = Bestiary(templates=[Template(combatant=Combatant(name="Kobold", side="opposition"))])
>>> book.renamed("kobold", "Kobold scout").names()
['Kobold scout']
>>> book.with_template(Template(combatant=Combatant(name="Wolf"))).renamed("Wolf", "KOBOLD")
Traceback (most recent call last):
...
ValueError: a template is already named 'Kobold'
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core.model.combatant import Combatant
from core.model.encounter import Encounter
from core.model.limits import at_most
from core.model.portrait import Portrait
from core.model.weapons import Weapon

MAX_TEMPLATES = 1_000
MAX_NOTES_CHARS = 2_000


class Template(BaseModel):
    """One creature as the GM keeps it: its stats, its weapons' definitions and its art."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    combatant: Combatant
    weapons: Annotated[list[Weapon], at_most(12, "weapons")] = Field(default=[])
    portrait: Portrait | None = None
    notes: str = Field("", max_length=MAX_NOTES_CHARS)

    @model_validator(mode="after")
    def _complete(self) -> Template:
        """Every weapon carried is defined here, once, and nothing else; the portrait is
        there exactly when the combatant names one, under its own key."""
        carried = {name.casefold() for name in self.combatant.weapons}
        defined = [w.name.casefold() for w in self.weapons]
        if len(set(defined)) != len(defined):
            raise ValueError("a weapon is defined twice")
        if set(defined) != carried:
            missing = sorted(carried - set(defined)) or sorted(set(defined) - carried)
            raise ValueError(f"weapons carried and defined differ: {', '.join(missing)}")
        key = self.combatant.portrait
        if (key is None) != (self.portrait is None):
            raise ValueError("a portrait key needs its portrait, and a portrait its key")
        if self.portrait is not None and key != portrait_key(self.portrait):
            raise ValueError(f"portrait {key} is not the key of its image")
        return self

    @property
    def name(self) -> str:
        return self.combatant.name


def portrait_key(portrait: Portrait) -> str:
    """The key an encounter stores ``portrait`` under (:meth:`Portrait.from_bytes`)."""
    return hashlib.sha256(portrait.raw()).hexdigest()[:16]


class Bestiary(BaseModel):
    """Everything in a bestiary file; template names are unique in any case."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    schema_id: Literal["battlemap.bestiary"] = Field("battlemap.bestiary", alias="schema")
    version: Literal[1] = 1
    templates: Annotated[list[Template], at_most(MAX_TEMPLATES, "templates")] = Field(
        default=[])

    @model_validator(mode="after")
    def _names_unique(self) -> Bestiary:
        seen: set[str] = set()
        for template in self.templates:
            key = template.name.casefold()
            if key in seen:
                raise ValueError(f"two templates are named {template.name!r}")
            seen.add(key)
        return self

    def names(self) -> list[str]:
        return [t.name for t in self.templates]

    def find(self, name: str) -> Template | None:
        return next((t for t in self.templates if t.name.casefold() == name.casefold()), None)

    def with_template(self, template: Template) -> Bestiary:
        """This bestiary with ``template`` added, or put in place of the one of its name."""
        if len(self.templates) >= MAX_TEMPLATES and self.find(template.name) is None:
            raise ValueError(f"a bestiary holds at most {MAX_TEMPLATES:,} templates")
        kept = [t for t in self.templates if t.name.casefold() != template.name.casefold()]
        return self.model_copy(update={"templates": [*kept, template]})

    def without(self, name: str) -> Bestiary:
        if self.find(name) is None:
            raise ValueError(f"no template named {name!r}")
        return self.model_copy(update={"templates": [
            t for t in self.templates if t.name.casefold() != name.casefold()]})

    def renamed(self, old: str, new: str) -> Bestiary:
        """The template ``old`` called ``new``; ValueError if ``new`` is taken or invalid."""
        template = self.find(old)
        if template is None:
            raise ValueError(f"no template named {old!r}")
        clash = self.find(new)
        if clash is not None and clash is not template:
            raise ValueError(f"a template is already named {clash.name!r}")
        try:
            combatant = template.combatant.model_copy(update={"name": new})
            renamed = Template.model_validate({**template.model_dump(),
                                               "combatant": combatant.model_dump()})
        except ValidationError as error:
            raise ValueError(error.errors()[0]["msg"].removeprefix("Value error, ")) from None
        return self.model_copy(update={"templates": [
            renamed if t is template else t for t in self.templates]})

    def merged(self, other: Bestiary) -> tuple[Bestiary, list[str]]:
        """``other``'s templates added (replacing those of the same name); their names."""
        merged = self
        for template in other.templates:
            merged = merged.with_template(template)
        return merged, other.names()


def fresh(combatant: Combatant) -> Combatant:
    """The combatant as a template keeps it: full hit points, no conditions, wounds or
    dropped weapons, none of the round's boons (what one fight left on it)."""
    return combatant.lapsed().model_copy(update={
        "hp": combatant.max_hp, "conditions": frozenset(), "wounds": 0, "dropped_weapons": ()})


def template_of(encounter: Encounter, token_id: str, notes: str = "") -> Template:
    """A template of the token's combatant, fresh (:func:`fresh`), with the definitions of
    its weapons from the encounter's table and its embedded portrait (an old-style image
    path stays behind: a template travels to other computers)."""
    combatant = fresh(encounter.token(token_id).combatant).model_copy(update={"image": None})
    portrait = encounter.portraits.get(combatant.portrait) if combatant.portrait else None
    return Template(combatant=combatant, notes=notes, portrait=portrait,
                    weapons=[encounter.weapon(name) for name in combatant.weapons])
